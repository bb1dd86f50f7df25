// libFuzzer target: Values.parseString (runtime/data/values.h), the type inference InsertHeader
// applies to a configured literal: numbers of every width, dates and times, nested arrays and
// maps with quoted and literal elements, and whatever is none of these.
// Input: the text. Properties: parseString never fails (Java's does not throw); the inferred
// value prints (Values.convertToString) and converts (convertToLong/Double/Boolean) with a
// status, never a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "runtime/data/values.h"
#include "tests/fuzz/targets/fuzz_check.h"

namespace data = connectd::data;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data_bytes, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data_bytes), size);
  auto parsed = data::ParseString(text);
  FUZZ_CHECK(parsed.ok());
  const data::Schema* schema = parsed->first.get();
  const data::Value& value = parsed->second;
  (void)data::ConvertToString(schema, value);
  (void)data::ConvertToLong(schema, value);
  (void)data::ConvertToDouble(schema, value);
  (void)data::ConvertToBoolean(schema, value);
  return 0;
}
