// libFuzzer target: Java .properties text (runtime/config/properties.h), the format of every
// worker, connector and mm2.properties file.
// Property: whatever parses, written back by FormatProperties (what `connectd
// properties-from-env` writes for the container), parses to the same map.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "runtime/config/properties.h"
#include "tests/fuzz/targets/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<connectd::config::Properties> parsed = connectd::config::ParseProperties(text);
  if (!parsed.ok()) {
    FUZZ_CHECK(parsed.status().code() == absl::StatusCode::kInvalidArgument);
    return 0;
  }
  const std::string stored = connectd::config::FormatProperties(*parsed);
  absl::StatusOr<connectd::config::Properties> reparsed = connectd::config::ParseProperties(stored);
  FUZZ_CHECK(reparsed.ok());
  FUZZ_CHECK(*reparsed == *parsed);
  return 0;
}
