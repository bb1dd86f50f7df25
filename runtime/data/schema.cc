#include "runtime/data/schema.h"

#include <algorithm>
#include <array>

#include "absl/strings/str_cat.h"
#include "runtime/common/strings.h"
#include "runtime/data/value.h"

namespace connectd::data {

std::string_view TypeName(Type type) {
  static constexpr std::array<std::string_view, 12> kNames = {
      "INT8",    "INT16",  "INT32",  "INT64", "FLOAT32", "FLOAT64",
      "BOOLEAN", "STRING", "BYTES",  "ARRAY", "MAP",     "STRUCT"};
  return kNames[static_cast<size_t>(type)];
}

std::string_view JsonTypeName(Type type) {
  static constexpr std::array<std::string_view, 12> kNames = {
      "int8",    "int16",  "int32", "int64", "float", "double",
      "boolean", "string", "bytes", "array", "map",   "struct"};
  return kNames[static_cast<size_t>(type)];
}

bool IsPrimitive(Type type) {
  return type != Type::kArray && type != Type::kMap && type != Type::kStruct;
}

SchemaPtr Schema::Required(Type primitive) {
  static const auto* kSchemas = [] {
    auto* schemas = new std::array<SchemaPtr, 12>();
    for (size_t i = 0; i < schemas->size(); ++i) (*schemas)[i] = Freeze(Of(static_cast<Type>(i)));
    return schemas;
  }();
  return (*kSchemas)[static_cast<size_t>(primitive)];
}

SchemaPtr Schema::Optional(Type primitive) {
  static const auto* kSchemas = [] {
    auto* schemas = new std::array<SchemaPtr, 12>();
    for (size_t i = 0; i < schemas->size(); ++i) {
      Schema s = Of(static_cast<Type>(i));
      s.optional = true;
      (*schemas)[i] = Freeze(std::move(s));
    }
    return schemas;
  }();
  return (*kSchemas)[static_cast<size_t>(primitive)];
}

void Schema::AddField(std::string field_name, SchemaPtr field_schema) {
  const auto index = static_cast<int32_t>(fields.size());
  fields.push_back(Field{std::move(field_name), index, std::move(field_schema)});
}

void Schema::SetParameter(std::string key, std::string value) {
  if (!parameters) parameters.emplace();
  for (auto& [k, v] : *parameters) {
    if (k == key) {
      v = std::move(value);
      return;
    }
  }
  parameters->emplace_back(std::move(key), std::move(value));
}

const Field* Schema::FindField(std::string_view field_name) const {
  for (const Field& f : fields) {
    if (f.name == field_name) return &f;
  }
  return nullptr;
}

std::optional<std::string_view> Schema::Parameter(std::string_view key) const {
  if (!parameters) return std::nullopt;
  for (const auto& [k, v] : *parameters) {
    if (k == key) return std::string_view(v);
  }
  return std::nullopt;
}

SchemaPtr Freeze(Schema schema) { return std::make_shared<const Schema>(std::move(schema)); }

namespace {

bool ParametersEqual(const Schema& a, const Schema& b) {
  if (a.parameters.has_value() != b.parameters.has_value()) return false;
  if (!a.parameters) return true;
  if (a.parameters->size() != b.parameters->size()) return false;
  for (const auto& [k, v] : *a.parameters) {
    const std::optional<std::string_view> other = b.Parameter(k);
    if (!other || *other != v) return false;
  }
  return true;
}

}  // namespace

bool SchemaEquals(const Schema* a, const Schema* b) {
  if (a == b) return true;
  if (a == nullptr || b == nullptr) return false;
  if (a->type != b->type || a->optional != b->optional || a->name != b->name ||
      a->version != b->version || a->doc != b->doc) {
    return false;
  }
  if ((a->default_value == nullptr) != (b->default_value == nullptr)) return false;
  if (a->default_value && !(*a->default_value == *b->default_value)) return false;
  if (a->fields.size() != b->fields.size()) return false;
  for (size_t i = 0; i < a->fields.size(); ++i) {
    const Field& fa = a->fields[i];
    const Field& fb = b->fields[i];
    if (fa.name != fb.name || fa.index != fb.index || !SchemaEquals(fa.schema, fb.schema)) {
      return false;
    }
  }
  return SchemaEquals(a->key_schema, b->key_schema) &&
         SchemaEquals(a->value_schema, b->value_schema) && ParametersEqual(*a, *b);
}

Schema DecimalSchema(int32_t scale) {
  Schema s = Schema::Of(Type::kBytes);
  s.name = std::string(kDecimalLogicalName);
  s.version = 1;
  s.SetParameter(std::string(kDecimalScaleParameter), std::to_string(scale));
  return s;
}

namespace {
Schema LogicalSchema(Type type, std::string_view name) {
  Schema s = Schema::Of(type);
  s.name = std::string(name);
  s.version = 1;
  return s;
}
}  // namespace

Schema DateSchema() { return LogicalSchema(Type::kInt32, kDateLogicalName); }
Schema TimeSchema() { return LogicalSchema(Type::kInt32, kTimeLogicalName); }
Schema TimestampSchema() { return LogicalSchema(Type::kInt64, kTimestampLogicalName); }

std::string ToString(const Schema* schema) {
  if (schema == nullptr) return "null";
  const absl::string_view type = AsAbsl(TypeName(schema->type));
  if (schema->name) return absl::StrCat("Schema{", *schema->name, ":", type, "}");
  return absl::StrCat("Schema{", type, "}");
}

}  // namespace connectd::data
