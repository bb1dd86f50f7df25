// File: connect_json.h
//
// The JSON reader of Connect's JsonConverter: what the worker's internal JsonConverter
// (schemas.enable=false) reads from the config topic (distributed/config_records.h) and the
// status topic (distributed/status_records.h), and what the data plane's JsonConverter
// (converters/json_converter.h) reads from records. Java parses with Jackson 2.21
// (UTF8StreamJsonParser) configured by Connect's JsonDeserializer; the reader here does the same:
//  - RFC 8259 plus leading zeros in numbers (ALLOW_LEADING_ZEROS_FOR_NUMBERS) and a skipped UTF-8
//    BOM; no comments, NaN, single quotes, trailing commas, "+1", ".5" or "1.";
//  - anything after the root value ignored (FAIL_ON_TRAILING_TOKENS off), except that a root
//    number must be followed by whitespace or the end, and a literal must end its token
//    ("truex" is an error);
//  - empty or all-whitespace input is Jackson's MissingNode, read as null;
//  - every integral number is a long, wrapped to its low 64 bits (BigInteger.longValue()); other
//    numbers are doubles (BigDecimal.doubleValue(): correctly rounded, an exact zero is +0.0);
//  - a repeated object key keeps its first place and takes the last value (ObjectNode.set);
//  - raw (unescaped) UTF-8 in strings decoded as Jackson does: only the lead/continuation bit
//    patterns are checked (2-byte overlong forms pass), a 3-byte form that encodes a surrogate is
//    an error, and a 4-byte form (lead F0..F7) past U+10FFFF becomes its two out-of-range UTF-16
//    units;
//  - at most 1000 nested containers, and numbers at most 1000 long: integer digits for an
//    integer, characters for any other number (StreamReadConstraints);
//  - a number whose exponent, or scale (fraction digits minus exponent), does not fit an int is
//    an error (new BigDecimal(literal) throws): "1e-2147483647" reads, "1.5e-2147483647" not.
// Not modelled: Jackson's UTF-16/32 input detection and its string length limit (20M).
// RapidJSON cannot be configured to accept leading zeros or Jackson's UTF-8, hence this reader.
// Java reads the config and status topics with the same converter, so both read through here
// alike; what Jackson does is checked by the Java-written vectors in tests/golden/config_topic.
//
// Example:
//   absl::StatusOr<JsonValue> v = ReadConnectJson(R"({"tasks":007})");
//   const JsonValue* tasks = v->Find("tasks");  // kLong, integer == 7
//
// Thread safety: all functions are pure.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"

namespace connectd::data {

// JsonValue: one schemaless Connect value, as JsonConverter (schemas.enable=false) returns it.
struct JsonValue {
  enum class Kind { kNull, kBool, kLong, kDouble, kString, kArray, kObject };
  // Declared so clang with libstdc++ accepts the recursive pair<string, JsonValue> below (it
  // would otherwise instantiate the pair while deducing the implicit constructor).
  JsonValue() = default;
  Kind kind = Kind::kNull;
  bool boolean = false;
  int64_t integer = 0;  // kLong
  double real = 0;      // kDouble
  // kLong, kDouble: the literal as written, for readers that need the exact value (Jackson's
  // BigInteger and, with USE_BIG_DECIMAL_FOR_FLOATS, BigDecimal).
  std::string number;
  // kString: UTF-8; a lone UTF-16 surrogate (Java strings may hold one) is its 3-byte form.
  std::string text;
  std::vector<JsonValue> elements;                         // kArray
  std::vector<std::pair<std::string, JsonValue>> members;  // kObject; a repeated key keeps its
                                                           // first place, last value
  bool is_null() const { return kind == Kind::kNull; }
  // Find returns the member `key` of an object, or nullptr (also for non-objects).
  const JsonValue* Find(std::string_view key) const;
};

// ReadConnectJson parses `bytes` as the internal JsonConverter does (see the file comment);
// kInvalidArgument, with the reason and the byte offset, where Jackson would throw.
absl::StatusOr<JsonValue> ReadConnectJson(std::string_view bytes);

}  // namespace connectd::data
