#include "runtime/transforms/transform_util.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "jvm/java_hash_order.h"
#include "runtime/common/strings.h"

namespace connectd::transforms {

std::string NullSafeClassName(const data::Value& value) {
  if (value.is_null()) return "null";
  std::string_view name = data::JavaClassName(value.kind());
  if (name.substr(0, 6) == "class ") name.remove_prefix(6);
  return std::string(name);
}

absl::Status RequireSchema(const data::SchemaPtr& schema, std::string_view purpose) {
  if (schema != nullptr) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("Schema required for [", AsAbsl(purpose), "]"));
}

absl::Status RequireMap(const data::Value& value, std::string_view purpose) {
  if (value.kind() == data::Value::Kind::kMap) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("Only Map objects supported in absence of schema for [", AsAbsl(purpose),
                   "], found: ", NullSafeClassName(value)));
}

absl::Status RequireStruct(const data::Value& value, std::string_view purpose) {
  if (value.kind() == data::Value::Kind::kStruct) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("Only Struct objects supported for [",
                                                 AsAbsl(purpose),
                                                 "], found: ", NullSafeClassName(value)));
}

absl::Status RequireSinkRecord(const ConnectRecord& record, std::string_view purpose) {
  if (record.kafka_offset.has_value()) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("Only SinkRecord supported for [", AsAbsl(purpose),
                   "], found: org.apache.kafka.connect.source.SourceRecord"));
}

data::Schema CopySchemaBasics(const data::Schema& source, data::Type type) {
  data::Schema out = data::Schema::Of(type);
  out.name = source.name;
  out.version = source.version;
  out.doc = source.doc;
  out.parameters = source.parameters;
  return out;
}

absl::Status AddStructField(data::Schema& schema, std::string name, data::SchemaPtr field_schema) {
  if (schema.FindField(name) != nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("Cannot create field because of field name duplication ", name));
  }
  schema.AddField(std::move(name), std::move(field_schema));
  return absl::OkStatus();
}

const data::Value& FieldValue(const data::Struct& s, const data::Field& field,
                              bool replace_null_with_default) {
  const data::Value& v = s.At(static_cast<size_t>(field.index));
  if (replace_null_with_default && v.is_null() && field.schema->default_value) {
    return *field.schema->default_value;
  }
  return v;
}

absl::StatusOr<config::ParsedConfig> ParseTransformConfig(const config::ConfigDef& def,
                                                          const Configs& configs) {
  return def.Parse(configs);
}

absl::Status RequireNonEmptyList(const config::ParsedConfig& config, const std::string& key) {
  if (!config.GetList(key).empty()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "Configuration '", key, "' must not be empty. Valid values include: any non-empty value"));
}

config::ConfigKey ReplaceNullWithDefaultKey() {
  return config::ConfigKey{
      .name = "replace.null.with.default",
      .type = config::Type::kBoolean,
      .default_value = "true",
      .importance = config::Importance::kMedium,
      .documentation =
          "Whether to replace fields that have a default value and that are null to "
          "the default value. When set to true, the default value is used, otherwise "
          "null is used."};
}

void JavaHashMapEdit::Put(std::string key, data::Value value) {
  for (auto& [k, v] : entries_) {
    if (k.kind() == data::Value::Kind::kString && k.string() == key) {
      v = std::move(value);
      return;
    }
  }
  entries_.emplace_back(data::Value::String(std::move(key)), std::move(value));
}

void JavaHashMapEdit::Remove(std::string_view key) {
  entries_.erase(std::remove_if(entries_.begin(), entries_.end(),
                                [&](const auto& e) {
                                  return e.first.kind() == data::Value::Kind::kString &&
                                         e.first.string() == key;
                                }),
                 entries_.end());
}

data::Value JavaHashMapEdit::Build() && {
  // Removed keys leave the table as large as the copy made it.
  return data::Value::OfMap(
      data::JavaHashMap(std::move(entries_), jvm::JavaHashMapCopyCapacity(original_size_)));
}

const data::Value* MapGet(const data::Value::Map& map, std::string_view key) {
  for (const auto& [k, v] : map) {
    if (k.kind() == data::Value::Kind::kString && k.string() == key) return &v;
  }
  return nullptr;
}

}  // namespace connectd::transforms
