// libFuzzer target: Java .properties text (runtime/config/properties.h), the format of every
// worker, connector and mm2.properties file.
// Property: whatever parses, written back as a properties file with every special character
// escaped, parses to the same map.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "runtime/config/properties.h"
#include "tests/fuzz/targets/fuzz_check.h"

namespace {

// One key or value as java.util.Properties#store escapes it (every space, so a value's leading
// white space survives; raw bytes above 0x7f kept, as the parser keeps them).
std::string Escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\f':
        out += "\\f";
        break;
      case ' ':
      case '=':
      case ':':
      case '#':
      case '!':
        out += '\\';
        out += c;
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<connectd::config::Properties> parsed = connectd::config::ParseProperties(text);
  if (!parsed.ok()) {
    FUZZ_CHECK(parsed.status().code() == absl::StatusCode::kInvalidArgument);
    return 0;
  }
  std::string stored;
  for (const auto& [key, value] : *parsed) stored += Escape(key) + "=" + Escape(value) + "\n";
  absl::StatusOr<connectd::config::Properties> reparsed = connectd::config::ParseProperties(stored);
  FUZZ_CHECK(reparsed.ok());
  FUZZ_CHECK(*reparsed == *parsed);
  return 0;
}
