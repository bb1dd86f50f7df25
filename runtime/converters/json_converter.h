// File: json_converter.h
//
// org.apache.kafka.connect.json.JsonConverter, byte for byte: the same envelope
// ({"schema":...,"payload":...} when schemas.enable=true), schema JSON (key order, type names,
// "field" last in a field's schema), payload encoding (bytes and Decimal as Base64, Decimal as a
// number with decimal.format=NUMERIC, Date/Time/Timestamp as integers, maps with string keys as
// objects and other maps as [key, value] pairs) and the same errors, as Kafka 4.4's (golden
// vectors from the Java converter in tests/golden/json_converter).
//
// Reading follows Jackson and Connect exactly where they are lenient or surprising: a schema's
// "optional" counts only if it is the boolean true; a payload of the wrong JSON type reads as
// Jackson's accessors do (a string for an int32 field reads as 0, a number for a string field
// as null); maps come out in java.util.HashMap order, which is the order Java writes them back.
//
// Configs (JsonConverterConfig): schemas.enable (true), schemas.cache.size (1000),
// decimal.format (BASE64 | NUMERIC, any case), replace.null.with.default (true).
//
// Not reproduced: Float.toString of JDK 17 for the floats where it is not the shortest form
// (JDK 19+ output is written; both read back as the same float).
//
// Thread safety: one thread at a time (the schema caches are not locked).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <unordered_map>

#include "absl/status/statusor.h"
#include "runtime/converters/converter.h"

namespace connectd::converters {

struct JsonConverterConfig {
  bool schemas_enable = true;
  int32_t schemas_cache_size = 1000;
  bool decimal_numeric = false;  // decimal.format=NUMERIC
  bool replace_null_with_default = true;

  // Parse reads the converter's configs (without the key./value.converter. prefix) with
  // JsonConverterConfig's validation; unknown keys are ignored, as Java ignores them.
  static absl::StatusOr<JsonConverterConfig> Parse(const std::map<std::string, std::string>& configs);
};

class JsonConverter final : public Converter {
 public:
  explicit JsonConverter(JsonConverterConfig config) : config_(config) {}

  absl::StatusOr<std::optional<std::string>> FromConnectData(std::string_view topic,
                                                             const data::SchemaPtr& schema,
                                                             const data::Value& value) override;
  absl::StatusOr<SchemaAndValue> ToConnectData(std::string_view topic,
                                               std::optional<std::string_view> bytes) override;

  // AsJsonSchema is the schema as JSON text (JsonConverter.asJsonSchema), "null" for nullptr.
  absl::StatusOr<std::string> AsJsonSchema(const data::Schema* schema);

 private:
  JsonConverterConfig config_;
  // Schema JSON by schema object; schemas.cache.size bounds it, and a full cache is cleared
  // (Java evicts the least recently used entry, which changes nothing a reader sees).
  std::unordered_map<const data::Schema*, std::pair<data::SchemaPtr, std::string>> to_json_cache_;
};

}  // namespace connectd::converters
