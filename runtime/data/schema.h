// File: schema.h
//
// Connect's data model, the schema half (org.apache.kafka.connect.data.Schema and its logical
// types): what converters, transforms and predicates reason about. A Schema is immutable once
// built and shared (SchemaPtr); build one by filling a Schema and calling Freeze, or with the
// helpers below, as Java builds one with SchemaBuilder.
//
// Equality is ConnectSchema.equals: type, optional, name, version, doc, default value, fields,
// key/value schemas and parameters (in any order) all equal. A null SchemaPtr is Java's null
// schema (schemaless data).
//
// Example:
//   Schema s = Schema::Of(Type::kStruct);
//   s.name = "com.example.User";
//   s.AddField("id", Schema::Required(Type::kInt64));
//   SchemaPtr user = Freeze(std::move(s));
//
// Thread safety: a frozen Schema is immutable and may be shared between threads.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace connectd::data {

// Schema.Type, in Java's declaration order.
enum class Type : uint8_t {
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kFloat32,
  kFloat64,
  kBoolean,
  kString,
  kBytes,
  kArray,
  kMap,
  kStruct,
};

// TypeName is Java's Schema.Type name(): "INT8", ..., "STRUCT".
std::string_view TypeName(Type type);
// JsonTypeName is JsonConverter's name for the type: "int8", ..., "float", "double", "struct".
std::string_view JsonTypeName(Type type);
// IsPrimitive: every type but ARRAY, MAP and STRUCT.
bool IsPrimitive(Type type);

// Connect's logical types: a name on a schema of the underlying type.
inline constexpr std::string_view kDecimalLogicalName = "org.apache.kafka.connect.data.Decimal";
inline constexpr std::string_view kDecimalScaleParameter = "scale";
inline constexpr std::string_view kDateLogicalName = "org.apache.kafka.connect.data.Date";
inline constexpr std::string_view kTimeLogicalName = "org.apache.kafka.connect.data.Time";
inline constexpr std::string_view kTimestampLogicalName = "org.apache.kafka.connect.data.Timestamp";

class Value;
struct Schema;
using SchemaPtr = std::shared_ptr<const Schema>;

struct Field {
  std::string name;
  int32_t index = 0;
  SchemaPtr schema;
};

struct Schema {
  Type type = Type::kBytes;
  bool optional = false;
  std::optional<std::string> name;
  std::optional<int32_t> version;
  std::optional<std::string> doc;
  // Java keeps parameters in insertion order (LinkedHashMap); nullopt is Java's null map.
  std::optional<std::vector<std::pair<std::string, std::string>>> parameters;
  std::shared_ptr<const Value> default_value;  // nullptr: no default
  std::vector<Field> fields;                   // kStruct, in order
  SchemaPtr key_schema;                        // kMap
  SchemaPtr value_schema;                      // kArray (elements), kMap

  static Schema Of(Type type) {
    Schema s;
    s.type = type;
    return s;
  }
  // Shared instances of Java's Schema.INT8_SCHEMA ... and Schema.OPTIONAL_*_SCHEMA.
  static SchemaPtr Required(Type primitive);
  static SchemaPtr Optional(Type primitive);

  // Appends a field (index = its position). Field names are unique in a valid struct schema.
  void AddField(std::string field_name, SchemaPtr field_schema);
  void SetParameter(std::string key, std::string value);

  const Field* FindField(std::string_view field_name) const;
  std::optional<std::string_view> Parameter(std::string_view key) const;
  bool IsLogical(std::string_view logical_name) const { return name && *name == logical_name; }
};

SchemaPtr Freeze(Schema schema);

// SchemaEquals is Objects.equals(a, b) for two schemas (both null: equal).
bool SchemaEquals(const Schema* a, const Schema* b);
inline bool SchemaEquals(const SchemaPtr& a, const SchemaPtr& b) {
  return SchemaEquals(a.get(), b.get());
}

// Logical-type schemas as Java's Decimal.schema(scale), Date.SCHEMA, Time.SCHEMA and
// Timestamp.SCHEMA build them (version 1; Decimal's "scale" parameter).
Schema DecimalSchema(int32_t scale);
Schema DateSchema();
Schema TimeSchema();
Schema TimestampSchema();

// ToString is Java's ConnectSchema.toString() where transforms put it in messages:
// "Schema{NAME:TYPE}" or "Schema{TYPE}".
std::string ToString(const Schema* schema);

}  // namespace connectd::data
