// libFuzzer target: JsonConverter reading record bytes another producer wrote
// (runtime/converters/json_converter.h): the {"schema":...,"payload":...} envelope, every schema
// JSON (structs, maps, arrays, logical types, defaults, parameters) and schemaless JSON.
// Input: one byte of converter configs (bit 0 schemas.enable, bit 1 decimal.format=NUMERIC,
// bit 2 replace.null.with.default, bit 3 a null record value), then the record value's bytes.
// Properties: a refused input is a DataException (kInvalidArgument), nothing else; what reads
// and writes back is canonical: reading the written bytes succeeds and writes them again byte
// for byte (read -> write -> read -> write reaches a fixed point), except where Java's has none:
// a float or double that is not finite is written as the JSON string "Infinity", "-Infinity" or
// "NaN", which reads back as 0 (Jackson's number accessor of a text node; golden case
// double-huge), so written bytes holding such a string are not read again.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "runtime/converters/json_converter.h"
#include "tests/fuzz/targets/fuzz_check.h"

namespace converters = connectd::converters;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  connectd::fuzz::FuzzInput input(data, size);
  uint8_t flags = input.Byte();
  converters::JsonConverterConfig config;
  config.schemas_enable = (flags & 1) != 0;
  config.decimal_numeric = (flags & 2) != 0;
  config.replace_null_with_default = (flags & 4) != 0;
  std::optional<std::string_view> bytes;
  if ((flags & 8) == 0) bytes = input.Rest();

  converters::JsonConverter converter(config);
  absl::StatusOr<converters::SchemaAndValue> read = converter.ToConnectData("t", bytes);
  if (!read.ok()) {
    FUZZ_CHECK(read.status().code() == absl::StatusCode::kInvalidArgument);
    return 0;
  }
  absl::StatusOr<std::optional<std::string>> written =
      converter.FromConnectData("t", read->schema, read->value);
  if (!written.ok()) {
    FUZZ_CHECK(written.status().code() == absl::StatusCode::kInvalidArgument);
    return 0;
  }
  if (!written->has_value()) return 0;
  const std::string& text = **written;
  if (text.find("Infinity\"") != std::string::npos || text.find("\"NaN\"") != std::string::npos) {
    return 0;
  }

  absl::StatusOr<converters::SchemaAndValue> reread = converter.ToConnectData("t", text);
  FUZZ_CHECK(reread.ok());
  absl::StatusOr<std::optional<std::string>> rewritten =
      converter.FromConnectData("t", reread->schema, reread->value);
  FUZZ_CHECK(rewritten.ok());
  if (*rewritten != *written) {
    std::fprintf(stderr, "written:   %s\nrewritten: %s\n", text.c_str(),
                 rewritten->value_or("(null)").c_str());
  }
  FUZZ_CHECK(*rewritten == *written);
  return 0;
}
