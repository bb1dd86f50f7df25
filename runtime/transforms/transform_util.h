// File: transform_util.h
//
// What Connect's built-in transforms share (org.apache.kafka.connect.transforms.util and the
// Key/Value subclass pattern):
//  - Operand: the $Key or $Value half of a record a transform works on;
//  - Requirements' checks with Java's messages ("Only Map objects supported in absence of
//    schema for [purpose], found: java.lang.String");
//  - SchemaUtil.copySchemaBasics (name, version, doc, parameters; not optional or default);
//  - SimpleConfig parsing over a ConfigDef (Java's ConfigException messages).
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "runtime/config/config_def.h"
#include "runtime/data/schema.h"
#include "runtime/data/value.h"
#include "runtime/transforms/connect_record.h"
#include "runtime/transforms/transformation.h"

namespace connectd::transforms {

// Which half of the record a `$Key` / `$Value` transform operates on.
enum class Operand { kKey, kValue };

inline const data::SchemaPtr& OperatingSchema(const ConnectRecord& r, Operand o) {
  return o == Operand::kKey ? r.key_schema : r.value_schema;
}
inline const data::Value& OperatingValue(const ConnectRecord& r, Operand o) {
  return o == Operand::kKey ? r.key : r.value;
}
// Replaces the operand's schema and value (newRecord with everything else kept).
inline ConnectRecord WithOperand(ConnectRecord r, Operand o, data::SchemaPtr schema,
                                 data::Value value) {
  if (o == Operand::kKey) {
    r.key_schema = std::move(schema);
    r.key = std::move(value);
  } else {
    r.value_schema = std::move(schema);
    r.value = std::move(value);
  }
  return r;
}

// The Java class name Requirements prints for a value ("java.lang.String", "null").
std::string NullSafeClassName(const data::Value& value);

absl::Status RequireSchema(const data::SchemaPtr& schema, std::string_view purpose);
absl::Status RequireMap(const data::Value& value, std::string_view purpose);
absl::Status RequireStruct(const data::Value& value, std::string_view purpose);
absl::Status RequireSinkRecord(const ConnectRecord& record, std::string_view purpose);

// SchemaUtil.copySchemaBasics into a new schema of `type`.
data::Schema CopySchemaBasics(const data::Schema& source, data::Type type);

// SchemaBuilder.field: appends a field, or kInvalidArgument "Cannot create field because of
// field name duplication <name>" when the struct already has one of that name.
absl::Status AddStructField(data::Schema& schema, std::string name, data::SchemaPtr field_schema);

// Struct.get / getWithoutDefault by `replace.null.with.default`.
const data::Value& FieldValue(const data::Struct& s, const data::Field& field,
                              bool replace_null_with_default);

// Parses a transform's own configs with its ConfigDef (SimpleConfig): kInvalidArgument with
// Java's ConfigException message.
absl::StatusOr<config::ParsedConfig> ParseTransformConfig(const config::ConfigDef& def,
                                                          const Configs& configs);

// NonEmptyListValidator: kInvalidArgument with Java's message when the LIST `key` is empty.
absl::Status RequireNonEmptyList(const config::ParsedConfig& config, const std::string& key);

// The `replace.null.with.default` key several transforms define.
config::ConfigKey ReplaceNullWithDefaultKey();

// Builds a map the way Java's transforms do: `new HashMap<>(original)` then the puts and
// removes given, in order. A put of nullopt removes the key.
class JavaHashMapEdit {
 public:
  explicit JavaHashMapEdit(const data::Value::Map& original) : original_size_(original.size()) {
    entries_ = original;
  }
  void Put(std::string key, data::Value value);
  void Remove(std::string_view key);
  data::Value Build() &&;

 private:
  size_t original_size_;
  data::Value::Map entries_;
};

// Map lookup by string key (Map.get): nullptr when absent.
const data::Value* MapGet(const data::Value::Map& map, std::string_view key);

}  // namespace connectd::transforms
