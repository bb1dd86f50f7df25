// libFuzzer target: Values.parseString (runtime/data/values.h), the type inference InsertHeader
// applies to a configured literal: numbers of every width, dates and times, nested arrays and
// maps with quoted and literal elements, and whatever is none of these.
// Input: the text. Properties: parseString never fails (Java's does not throw); the inferred
// value prints (Values.convertToString), and converting it (convertToLong/Double/Boolean)
// either succeeds or is refused as a DataException (kInvalidArgument), as Java's only throws.
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
  data::ConvertToString(schema, value);
  for (const absl::StatusOr<data::Value>& converted :
       {data::ConvertToLong(schema, value), data::ConvertToDouble(schema, value),
        data::ConvertToBoolean(schema, value)}) {
    FUZZ_CHECK(converted.ok() || converted.status().code() == absl::StatusCode::kInvalidArgument);
  }
  return 0;
}
