#include "runtime/converters/json_converter.h"

#include <charconv>
#include <cmath>
#include <limits>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "jvm/java_base64.h"
#include "jvm/java_text.h"
#include "runtime/common/status_macros.h"
#include "runtime/common/strings.h"
#include "runtime/data/connect_json.h"

namespace connectd::converters {
namespace {

using data::JsonValue;
using data::Schema;
using data::SchemaPtr;
using data::Type;
using data::Value;

constexpr int64_t kMillisPerDay = 24 * 60 * 60 * 1000;
constexpr char kEnvelopeError[] =
    "JsonConverter with schemas.enable requires \"schema\" and \"payload\" fields and may not "
    "contain additional fields. If you are trying to deserialize plain JSON data, set "
    "schemas.enable=false in your converter configuration.";

absl::Status DataError(std::string_view message) {
  return absl::InvalidArgumentError(AsAbsl(message));
}

// ---- Jackson's JsonNode accessors over a parsed JsonValue ---------------------------------

// JsonNode.getNodeType().name(); a missing node (absent member) is MISSING.
std::string_view NodeType(const JsonValue* node) {
  if (node == nullptr) return "MISSING";
  switch (node->kind) {
    case JsonValue::Kind::kNull:
      return "NULL";
    case JsonValue::Kind::kBool:
      return "BOOLEAN";
    case JsonValue::Kind::kLong:
    case JsonValue::Kind::kDouble:
      return "NUMBER";
    case JsonValue::Kind::kString:
      return "STRING";
    case JsonValue::Kind::kArray:
      return "ARRAY";
    case JsonValue::Kind::kObject:
      return "OBJECT";
  }
  return "MISSING";
}

bool IsNumber(const JsonValue& n) {
  return n.kind == JsonValue::Kind::kLong || n.kind == JsonValue::Kind::kDouble;
}

// The exact value of a number node: Jackson keeps integers as int/long/BigInteger and, with
// USE_BIG_DECIMAL_FOR_FLOATS, every other number as the BigDecimal of its literal.
data::Decimal DecimalValue(const JsonValue& n) {
  absl::StatusOr<data::Decimal> d = data::ParseJavaDecimal(n.number);
  if (!d.ok()) return data::DecimalFromLong(n.integer);
  if (n.kind == JsonValue::Kind::kLong) d->scale = 0;  // an integer literal has no exponent
  return *d;
}

// JsonNode.isInt(): an integer literal that fits an int (Jackson's IntNode).
bool IsInt(const JsonValue& n) {
  if (n.kind != JsonValue::Kind::kLong) return false;
  const data::Decimal d = DecimalValue(n);
  return d.unscaled.size() <= 4 && n.integer >= std::numeric_limits<int32_t>::min() &&
         n.integer <= std::numeric_limits<int32_t>::max();
}

int64_t LongValue(const JsonValue& n) {
  if (n.kind == JsonValue::Kind::kLong) return n.integer;
  if (n.kind == JsonValue::Kind::kDouble) return data::LongValue(DecimalValue(n));
  return 0;
}
int32_t IntValue(const JsonValue& n) { return static_cast<int32_t>(LongValue(n)); }
double DoubleValue(const JsonValue& n) {
  if (n.kind == JsonValue::Kind::kLong) return data::DoubleValue(DecimalValue(n));
  if (n.kind == JsonValue::Kind::kDouble) return n.real;
  return 0;
}
float FloatValue(const JsonValue& n) {
  if (!IsNumber(n)) return 0;
  // BigDecimal.floatValue() / (float) long: correctly rounded from the exact value.
  const std::string text = n.number.empty() ? std::to_string(n.integer) : n.number;
  float f = 0;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), f);
  if (result.ec == std::errc::result_out_of_range) {
    const bool negative = !text.empty() && text[0] == '-';
    const bool tiny = std::fabs(std::strtod(text.c_str(), nullptr)) < 1;
    f = tiny ? (negative ? -0.0f : 0.0f)
             : (negative ? -std::numeric_limits<float>::infinity()
                         : std::numeric_limits<float>::infinity());
  }
  return f;
}

// JsonNode.binaryValue(): Base64 of a string node; null (nullopt) for any other node.
absl::StatusOr<std::optional<std::string>> BinaryValue(const JsonValue& n) {
  if (n.kind != JsonValue::Kind::kString) return std::optional<std::string>();
  std::optional<std::string> bytes = jvm::JacksonBase64Decode(n.text);
  if (!bytes) return DataError("invalid Base64");
  return bytes;
}

// Decimal.scale(schema).
absl::StatusOr<int32_t> DecimalScale(const Schema& schema) {
  const std::optional<std::string_view> scale = schema.Parameter(data::kDecimalScaleParameter);
  if (!scale) return DataError("Invalid Decimal schema: scale parameter not found.");
  int32_t v = 0;
  const auto result = std::from_chars(scale->data(), scale->data() + scale->size(), v);
  if (result.ec != std::errc() || result.ptr != scale->data() + scale->size()) {
    return DataError("Invalid scale parameter found in Decimal schema: ");
  }
  return v;
}

// ---- JSON -> Connect ----------------------------------------------------------------------

absl::StatusOr<Value> LogicalToConnect(const Schema& schema, const JsonValue& node) {
  if (schema.IsLogical(data::kDecimalLogicalName)) {
    if (IsNumber(node)) return Value::OfDecimal(DecimalValue(node));
    if (node.kind == JsonValue::Kind::kString) {
      absl::StatusOr<std::optional<std::string>> bytes = BinaryValue(node);
      absl::StatusOr<int32_t> scale = DecimalScale(schema);
      if (!bytes.ok() || !scale.ok() || (*bytes)->empty()) {
        return DataError("Invalid bytes for Decimal field");
      }
      return Value::OfDecimal(data::Decimal{data::MinimalTwosComplement(**bytes), *scale});
    }
    return DataError(absl::StrCat(
        "Invalid type for Decimal, underlying representation should be numeric or bytes but was ",
        AsAbsl(NodeType(&node))));
  }
  if (schema.IsLogical(data::kDateLogicalName)) {
    if (!IsInt(node)) {
      return DataError(absl::StrCat(
          "Invalid type for Date, underlying representation should be integer but was ",
          AsAbsl(NodeType(&node))));
    }
    return Value::OfDate(int64_t{IntValue(node)} * kMillisPerDay);
  }
  if (schema.IsLogical(data::kTimeLogicalName)) {
    if (!IsInt(node)) {
      return DataError(absl::StrCat(
          "Invalid type for Time, underlying representation should be integer but was ",
          AsAbsl(NodeType(&node))));
    }
    const int32_t millis = IntValue(node);
    if (millis < 0 || millis > kMillisPerDay) {
      return DataError(
          "Time values must use number of milliseconds greater than 0 and less than 86400000");
    }
    return Value::OfDate(millis);
  }
  if (node.kind != JsonValue::Kind::kLong) {
    return DataError(absl::StrCat(
        "Invalid type for Timestamp, underlying representation should be integral but was ",
        AsAbsl(NodeType(&node))));
  }
  return Value::OfDate(LongValue(node));
}

bool IsLogical(const Schema& schema) {
  return schema.IsLogical(data::kDecimalLogicalName) || schema.IsLogical(data::kDateLogicalName) ||
         schema.IsLogical(data::kTimeLogicalName) || schema.IsLogical(data::kTimestampLogicalName);
}

// JSON elements as Jackson iterates a node: an array's elements, an object's member values,
// nothing for a scalar.
std::vector<const JsonValue*> Elements(const JsonValue& node) {
  std::vector<const JsonValue*> out;
  if (node.kind == JsonValue::Kind::kArray) {
    for (const JsonValue& e : node.elements) out.push_back(&e);
  } else if (node.kind == JsonValue::Kind::kObject) {
    for (const auto& [k, v] : node.members) out.push_back(&v);
  }
  return out;
}

absl::StatusOr<Value> ConvertToConnect(const SchemaPtr& schema, const JsonValue* node,
                                       const JsonConverterConfig& config) {
  Type type = Type::kString;
  if (schema != nullptr) {
    type = schema->type;
    if (node == nullptr || node->is_null()) {
      if (schema->default_value && config.replace_null_with_default) return *schema->default_value;
      if (schema->optional) return Value();
      return DataError(
          absl::StrCat("Invalid null value for required ", AsAbsl(data::TypeName(type)), " field"));
    }
  } else {
    if (node == nullptr) return Value();
    switch (node->kind) {
      case JsonValue::Kind::kNull:
        return Value();
      case JsonValue::Kind::kBool:
        type = Type::kBoolean;
        break;
      case JsonValue::Kind::kLong:
        type = Type::kInt64;
        break;
      case JsonValue::Kind::kDouble:
        type = Type::kFloat64;
        break;
      case JsonValue::Kind::kString:
        type = Type::kString;
        break;
      case JsonValue::Kind::kArray:
        type = Type::kArray;
        break;
      case JsonValue::Kind::kObject:
        type = Type::kMap;
        break;
    }
  }
  if (schema != nullptr && IsLogical(*schema)) return LogicalToConnect(*schema, *node);

  switch (type) {
    case Type::kBoolean:
      return Value::Boolean(node->kind == JsonValue::Kind::kBool && node->boolean);
    case Type::kInt8:
      return Value::Int8(static_cast<int8_t>(IntValue(*node)));
    case Type::kInt16:
      return Value::Int16(static_cast<int16_t>(IntValue(*node)));
    case Type::kInt32:
      return Value::Int32(IntValue(*node));
    case Type::kInt64:
      return Value::Int64(LongValue(*node));
    case Type::kFloat32:
      return Value::Float32(FloatValue(*node));
    case Type::kFloat64:
      return Value::Float64(DoubleValue(*node));
    case Type::kBytes: {
      absl::StatusOr<std::optional<std::string>> bytes = BinaryValue(*node);
      if (!bytes.ok()) return DataError("Invalid bytes field");
      return *bytes ? Value::OfBytes(std::move(**bytes)) : Value();
    }
    case Type::kString:
      return node->kind == JsonValue::Kind::kString ? Value::String(node->text) : Value();
    case Type::kArray: {
      const SchemaPtr element_schema = schema == nullptr ? nullptr : schema->value_schema;
      Value::Array out;
      for (const JsonValue* e : Elements(*node)) {
        CONNECTD_ASSIGN_OR_RETURN(Value v, ConvertToConnect(element_schema, e, config));
        out.push_back(std::move(v));
      }
      return Value::OfArray(std::move(out));
    }
    case Type::kMap: {
      const SchemaPtr key_schema = schema == nullptr ? nullptr : schema->key_schema;
      const SchemaPtr value_schema = schema == nullptr ? nullptr : schema->value_schema;
      Value::Map out;
      if (schema == nullptr || key_schema->type == Type::kString) {
        if (node->kind != JsonValue::Kind::kObject) {
          return DataError(
              absl::StrCat("Maps with string fields should be encoded as JSON objects, but found ",
                           AsAbsl(NodeType(node))));
        }
        for (const auto& [k, v] : node->members) {
          CONNECTD_ASSIGN_OR_RETURN(Value converted, ConvertToConnect(value_schema, &v, config));
          out.emplace_back(Value::String(k), std::move(converted));
        }
      } else {
        if (node->kind != JsonValue::Kind::kArray) {
          return DataError(absl::StrCat(
              "Maps with non-string fields should be encoded as JSON array of tuples, but found ",
              AsAbsl(NodeType(node))));
        }
        for (const JsonValue& entry : node->elements) {
          if (entry.kind != JsonValue::Kind::kArray) {
            return DataError(absl::StrCat("Found invalid map entry instead of array tuple: ",
                                          AsAbsl(NodeType(&entry))));
          }
          if (entry.elements.size() != 2) {
            return DataError(absl::StrCat("Found invalid map entry, expected length 2 but found :",
                                          entry.elements.size()));
          }
          CONNECTD_ASSIGN_OR_RETURN(Value k,
                                    ConvertToConnect(key_schema, &entry.elements[0], config));
          CONNECTD_ASSIGN_OR_RETURN(Value v,
                                    ConvertToConnect(value_schema, &entry.elements[1], config));
          out.emplace_back(std::move(k), std::move(v));
        }
      }
      return Value::OfMap(data::JavaHashMap(std::move(out)));
    }
    case Type::kStruct: {
      if (node->kind != JsonValue::Kind::kObject) {
        return DataError(absl::StrCat("Structs should be encoded as JSON objects, but found ",
                                      AsAbsl(NodeType(node))));
      }
      data::Struct result(schema);
      for (const data::Field& field : schema->fields) {
        CONNECTD_ASSIGN_OR_RETURN(Value v,
                                  ConvertToConnect(field.schema, node->Find(field.name), config));
        CONNECTD_RETURN_IF_ERROR(result.Put(field.name, std::move(v)));
      }
      return data::StructValue(std::move(result));
    }
  }
  return DataError("Unknown schema type");
}

absl::StatusOr<SchemaPtr> AsConnectSchema(const JsonValue& json,
                                          const JsonConverterConfig& config) {
  if (json.is_null()) return SchemaPtr();
  const JsonValue* type_node = json.Find("type");
  if (type_node == nullptr || type_node->kind != JsonValue::Kind::kString) {
    return DataError("Schema must contain 'type' field");
  }
  const std::string& type_name = type_node->text;
  Schema builder;
  static constexpr std::pair<std::string_view, Type> kPrimitives[] = {
      {"boolean", Type::kBoolean}, {"int8", Type::kInt8},   {"int16", Type::kInt16},
      {"int32", Type::kInt32},     {"int64", Type::kInt64}, {"float", Type::kFloat32},
      {"double", Type::kFloat64},  {"bytes", Type::kBytes}, {"string", Type::kString}};
  bool known = false;
  for (const auto& [name, type] : kPrimitives) {
    if (type_name == name) {
      builder = Schema::Of(type);
      known = true;
    }
  }
  if (type_name == "array") {
    const JsonValue* items = json.Find("items");
    if (items == nullptr || items->is_null()) {
      return DataError("Array schema did not specify the element type");
    }
    builder = Schema::Of(Type::kArray);
    CONNECTD_ASSIGN_OR_RETURN(builder.value_schema, AsConnectSchema(*items, config));
    known = true;
  } else if (type_name == "map") {
    const JsonValue* keys = json.Find("keys");
    if (keys == nullptr) return DataError("Map schema did not specify the key type");
    const JsonValue* values = json.Find("values");
    if (values == nullptr) return DataError("Map schema did not specify the value type");
    builder = Schema::Of(Type::kMap);
    CONNECTD_ASSIGN_OR_RETURN(builder.key_schema, AsConnectSchema(*keys, config));
    CONNECTD_ASSIGN_OR_RETURN(builder.value_schema, AsConnectSchema(*values, config));
    known = true;
  } else if (type_name == "struct") {
    builder = Schema::Of(Type::kStruct);
    const JsonValue* fields = json.Find("fields");
    if (fields == nullptr || fields->kind != JsonValue::Kind::kArray) {
      return DataError("Struct schema's \"fields\" argument is not an array.");
    }
    for (const JsonValue& field : fields->elements) {
      const JsonValue* name = field.Find("field");
      if (name == nullptr || name->kind != JsonValue::Kind::kString) {
        return DataError("Struct schema's field name not specified properly");
      }
      if (builder.FindField(name->text) != nullptr) {
        return DataError(
            absl::StrCat("Cannot create field because of field name duplication ", name->text));
      }
      CONNECTD_ASSIGN_OR_RETURN(SchemaPtr field_schema, AsConnectSchema(field, config));
      builder.AddField(name->text, std::move(field_schema));
    }
    known = true;
  }
  if (!known) return DataError(absl::StrCat("Unknown schema type: ", type_name));

  const JsonValue* optional = json.Find("optional");
  builder.optional =
      optional != nullptr && optional->kind == JsonValue::Kind::kBool && optional->boolean;
  if (const JsonValue* name = json.Find("name"); name && name->kind == JsonValue::Kind::kString) {
    builder.name = name->text;
  }
  if (const JsonValue* version = json.Find("version");
      version && version->kind == JsonValue::Kind::kLong) {
    builder.version = static_cast<int32_t>(version->integer);
  }
  if (const JsonValue* doc = json.Find("doc"); doc && doc->kind == JsonValue::Kind::kString) {
    builder.doc = doc->text;
  }
  if (const JsonValue* params = json.Find("parameters");
      params && params->kind == JsonValue::Kind::kObject) {
    for (const auto& [k, v] : params->members) {
      if (v.kind != JsonValue::Kind::kString) {
        return DataError("Schema parameters must have string values.");
      }
      builder.SetParameter(k, v.text);
    }
  }
  if (const JsonValue* def = json.Find("default"); def != nullptr) {
    // The default is read against the schema built so far (no default yet), then validated as
    // SchemaBuilder.defaultValue does. A struct default never validates in Java: its Struct
    // carries the built schema, which a SchemaBuilder never equals.
    SchemaPtr so_far = data::Freeze(builder);
    CONNECTD_ASSIGN_OR_RETURN(Value v, ConvertToConnect(so_far, def, config));
    if (!v.is_null()) {
      if (builder.type == Type::kStruct || !data::ValidateValue(builder, v).ok()) {
        return DataError("Invalid default value");
      }
      builder.default_value = std::make_shared<const Value>(std::move(v));
    }
  }
  return data::Freeze(std::move(builder));
}

// ---- Connect -> JSON ----------------------------------------------------------------------

void AppendBase64(std::string_view bytes, std::string& out) {
  out.push_back('"');
  out.append(absl::Base64Escape(AsAbsl(bytes)));
  out.push_back('"');
}

void AppendJavaDouble(double v, std::string& out) {
  const std::string text = jvm::FormatJavaDouble(v);
  if (std::isfinite(v)) {
    out.append(text);
  } else {
    absl::StrAppend(&out, "\"", text, "\"");  // QUOTE_NON_NUMERIC_NUMBERS
  }
}

void AppendJavaFloat(float v, std::string& out) {
  const std::string text = jvm::FormatJavaFloat(v);
  if (std::isfinite(v)) {
    out.append(text);
  } else {
    absl::StrAppend(&out, "\"", text, "\"");
  }
}

absl::Status ClassCast(const Schema* schema, const Value& value) {
  return DataError(absl::StrCat("Invalid type for ",
                                schema != nullptr ? AsAbsl(data::TypeName(schema->type))
                                                  : absl::string_view("unknown schema"),
                                ": ", AsAbsl(data::JavaClassName(value.kind()))));
}

// A java.util.Date's UTC day fields, as Calendar reads them.
int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

class JsonWriter {
 public:
  explicit JsonWriter(const JsonConverterConfig& config) : config_(config) {}

  absl::Status Value(const Schema* schema, const data::Value& value, std::string& out) {
    if (value.is_null()) {
      if (schema == nullptr) {
        out.append("null");
        return absl::OkStatus();
      }
      if (schema->default_value && config_.replace_null_with_default) {
        return Value(schema, *schema->default_value, out);
      }
      if (schema->optional) {
        out.append("null");
        return absl::OkStatus();
      }
      return DataError(
          "Conversion error: null value for field that is required and has no default value");
    }
    if (schema != nullptr && schema->name) {
      if (schema->IsLogical(data::kDecimalLogicalName)) return Decimal(*schema, value, out);
      if (schema->IsLogical(data::kDateLogicalName)) return Date(*schema, value, out);
      if (schema->IsLogical(data::kTimeLogicalName)) return Time(value, out);
      if (schema->IsLogical(data::kTimestampLogicalName)) {
        if (value.kind() != data::Value::Kind::kDate) {
          return DataError(absl::StrCat("Invalid type for Timestamp, expected Date but was ",
                                        AsAbsl(data::JavaClassName(value.kind()))));
        }
        absl::StrAppend(&out, value.date_millis());
        return absl::OkStatus();
      }
    }
    Type type;
    if (schema == nullptr) {
      const std::optional<Type> inferred = data::SchemaTypeOf(value.kind());
      if (!inferred) {
        return DataError(absl::StrCat("Java class ", AsAbsl(data::JavaClassName(value.kind())),
                                      " does not have corresponding schema type."));
      }
      type = *inferred;
    } else {
      type = schema->type;
    }
    if (type != Type::kBytes && data::SchemaTypeOf(value.kind()) != type) {
      return ClassCast(schema, value);
    }
    switch (type) {
      case Type::kInt8:
        absl::StrAppend(&out, value.int8());
        break;
      case Type::kInt16:
        absl::StrAppend(&out, value.int16());
        break;
      case Type::kInt32:
        absl::StrAppend(&out, value.int32());
        break;
      case Type::kInt64:
        absl::StrAppend(&out, value.int64());
        break;
      case Type::kFloat32:
        AppendJavaFloat(value.float32(), out);
        break;
      case Type::kFloat64:
        AppendJavaDouble(value.float64(), out);
        break;
      case Type::kBoolean:
        out.append(value.boolean() ? "true" : "false");
        break;
      case Type::kString:
        jvm::AppendJacksonString(value.string(), out);
        break;
      case Type::kBytes:
        if (value.kind() != data::Value::Kind::kBytes) {
          return DataError(absl::StrCat("Invalid type for bytes type: ",
                                        AsAbsl(data::JavaClassName(value.kind()))));
        }
        AppendBase64(value.bytes(), out);
        break;
      case Type::kArray: {
        const Schema* element = schema == nullptr ? nullptr : schema->value_schema.get();
        out.push_back('[');
        bool first = true;
        for (const data::Value& e : value.array()) {
          if (!first) out.push_back(',');
          first = false;
          CONNECTD_RETURN_IF_ERROR(Value(element, e, out));
        }
        out.push_back(']');
        break;
      }
      case Type::kMap:
        return Map(schema, value, out);
      case Type::kStruct: {
        const data::Struct& s = *value.structure();
        if (!data::SchemaEquals(s.schema().get(), schema)) return DataError("Mismatching schema.");
        out.push_back('{');
        for (const data::Field& f : schema->fields) {
          if (f.index != 0) out.push_back(',');
          jvm::AppendJacksonString(f.name, out);
          out.push_back(':');
          CONNECTD_RETURN_IF_ERROR(Value(f.schema.get(), s.At(static_cast<size_t>(f.index)), out));
        }
        out.push_back('}');
        break;
      }
    }
    return absl::OkStatus();
  }

 private:
  absl::Status Map(const Schema* schema, const data::Value& value, std::string& out) {
    bool object_mode = true;
    if (schema == nullptr) {
      for (const auto& [k, v] : value.map()) {
        if (k.kind() != data::Value::Kind::kString) object_mode = false;
      }
    } else {
      object_mode = schema->key_schema->type == Type::kString;
    }
    const Schema* key_schema = schema == nullptr ? nullptr : schema->key_schema.get();
    const Schema* value_schema = schema == nullptr ? nullptr : schema->value_schema.get();
    if (object_mode) {
      // ObjectNode.set: a key written twice keeps its first place and takes the last value.
      std::vector<std::pair<std::string, std::string>> members;
      for (const auto& [k, v] : value.map()) {
        std::string key_json;
        CONNECTD_RETURN_IF_ERROR(Value(key_schema, k, key_json));
        std::string value_json;
        CONNECTD_RETURN_IF_ERROR(Value(value_schema, v, value_json));
        std::string key_text = k.kind() == data::Value::Kind::kString ? k.string() : key_json;
        auto same = std::find_if(members.begin(), members.end(),
                                 [&](const auto& m) { return m.first == key_text; });
        if (same != members.end()) {
          same->second = std::move(value_json);
        } else {
          members.emplace_back(std::move(key_text), std::move(value_json));
        }
      }
      out.push_back('{');
      bool first = true;
      for (const auto& [k, v] : members) {
        if (!first) out.push_back(',');
        first = false;
        jvm::AppendJacksonString(k, out);
        out.push_back(':');
        out.append(v);
      }
      out.push_back('}');
      return absl::OkStatus();
    }
    out.push_back('[');
    bool first = true;
    for (const auto& [k, v] : value.map()) {
      if (!first) out.push_back(',');
      first = false;
      out.push_back('[');
      CONNECTD_RETURN_IF_ERROR(Value(key_schema, k, out));
      out.push_back(',');
      CONNECTD_RETURN_IF_ERROR(Value(value_schema, v, out));
      out.push_back(']');
    }
    out.push_back(']');
    return absl::OkStatus();
  }

  absl::Status Decimal(const Schema& schema, const data::Value& value, std::string& out) {
    if (value.kind() != data::Value::Kind::kDecimal) {
      return DataError(absl::StrCat("Invalid type for Decimal, expected BigDecimal but was ",
                                    AsAbsl(data::JavaClassName(value.kind()))));
    }
    const data::Decimal& d = value.decimal();
    if (config_.decimal_numeric) {
      out.append(data::ToJavaString(d));
      return absl::OkStatus();
    }
    CONNECTD_ASSIGN_OR_RETURN(int32_t scale, DecimalScale(schema));
    if (d.scale != scale) {
      return DataError(absl::StrCat(
          "Decimal value has mismatching scale for given Decimal schema. Schema has scale ", scale,
          ", value has scale ", d.scale, "."));
    }
    AppendBase64(d.unscaled, out);
    return absl::OkStatus();
  }

  absl::Status Date(const Schema& schema, const data::Value& value, std::string& out) {
    (void)schema;
    if (value.kind() != data::Value::Kind::kDate) {
      return DataError(absl::StrCat("Invalid type for Date, expected Date but was ",
                                    AsAbsl(data::JavaClassName(value.kind()))));
    }
    const int64_t millis = value.date_millis();
    if (millis - FloorDiv(millis, kMillisPerDay) * kMillisPerDay != 0) {
      return DataError(
          "Kafka Connect Date type should not have any time fields set to non-zero values.");
    }
    absl::StrAppend(&out, static_cast<int32_t>(millis / kMillisPerDay));
    return absl::OkStatus();
  }

  absl::Status Time(const data::Value& value, std::string& out) {
    if (value.kind() != data::Value::Kind::kDate) {
      return DataError(absl::StrCat("Invalid type for Time, expected Date but was ",
                                    AsAbsl(data::JavaClassName(value.kind()))));
    }
    const int64_t millis = value.date_millis();
    if (millis < 0 || millis > kMillisPerDay) {
      return DataError(
          "Kafka Connect Time type should not have any date fields set to non-zero values.");
    }
    absl::StrAppend(&out, static_cast<int32_t>(millis));
    return absl::OkStatus();
  }

  const JsonConverterConfig& config_;
};

absl::Status AppendJsonSchema(const Schema& schema, const JsonConverterConfig& config,
                              std::string& out) {
  absl::StrAppend(&out, "{\"type\":\"", AsAbsl(data::JsonTypeName(schema.type)), "\"");
  switch (schema.type) {
    case Type::kArray:
      out.append(",\"items\":");
      if (schema.value_schema) {
        CONNECTD_RETURN_IF_ERROR(AppendJsonSchema(*schema.value_schema, config, out));
      } else {
        out.append("null");
      }
      break;
    case Type::kMap:
      out.append(",\"keys\":");
      CONNECTD_RETURN_IF_ERROR(AppendJsonSchema(*schema.key_schema, config, out));
      out.append(",\"values\":");
      CONNECTD_RETURN_IF_ERROR(AppendJsonSchema(*schema.value_schema, config, out));
      break;
    case Type::kStruct: {
      out.append(",\"fields\":[");
      for (const data::Field& f : schema.fields) {
        if (f.index != 0) out.push_back(',');
        std::string field_json;
        CONNECTD_RETURN_IF_ERROR(AppendJsonSchema(*f.schema, config, field_json));
        field_json.pop_back();  // the closing brace: "field" comes last
        out.append(field_json);
        out.append(",\"field\":");
        jvm::AppendJacksonString(f.name, out);
        out.push_back('}');
      }
      out.push_back(']');
      break;
    }
    default:
      break;
  }
  absl::StrAppend(&out, ",\"optional\":", schema.optional ? "true" : "false");
  if (schema.name) {
    out.append(",\"name\":");
    jvm::AppendJacksonString(*schema.name, out);
  }
  if (schema.version) absl::StrAppend(&out, ",\"version\":", *schema.version);
  if (schema.doc) {
    out.append(",\"doc\":");
    jvm::AppendJacksonString(*schema.doc, out);
  }
  if (schema.parameters) {
    out.append(",\"parameters\":{");
    bool first = true;
    for (const auto& [k, v] : *schema.parameters) {
      if (!first) out.push_back(',');
      first = false;
      jvm::AppendJacksonString(k, out);
      out.push_back(':');
      jvm::AppendJacksonString(v, out);
    }
    out.push_back('}');
  }
  if (schema.default_value) {
    out.append(",\"default\":");
    CONNECTD_RETURN_IF_ERROR(JsonWriter(config).Value(&schema, *schema.default_value, out));
  }
  out.push_back('}');
  return absl::OkStatus();
}

absl::StatusOr<bool> ParseBoolean(const std::map<std::string, std::string>& configs,
                                  const std::string& key, bool default_value) {
  auto it = configs.find(key);
  if (it == configs.end()) return default_value;
  const std::string value = absl::AsciiStrToLower(absl::StripAsciiWhitespace(it->second));
  if (value == "true") return true;
  if (value == "false") return false;
  return absl::InvalidArgumentError(absl::StrCat("Invalid value ", it->second,
                                                 " for configuration ", key,
                                                 ": Expected value to be either true or false"));
}

}  // namespace

absl::StatusOr<JsonConverterConfig> JsonConverterConfig::Parse(
    const std::map<std::string, std::string>& configs) {
  JsonConverterConfig config;
  CONNECTD_ASSIGN_OR_RETURN(config.schemas_enable, ParseBoolean(configs, "schemas.enable", true));
  CONNECTD_ASSIGN_OR_RETURN(config.replace_null_with_default,
                            ParseBoolean(configs, "replace.null.with.default", true));
  if (auto it = configs.find("schemas.cache.size"); it != configs.end()) {
    const std::string value(absl::StripAsciiWhitespace(it->second));
    int32_t size = 0;
    const auto result = std::from_chars(value.data(), value.data() + value.size(), size);
    if (result.ec != std::errc() || result.ptr != value.data() + value.size()) {
      return absl::InvalidArgumentError(absl::StrCat("Invalid value ", it->second,
                                                     " for configuration schemas.cache.size: Not "
                                                     "a number of type INT"));
    }
    config.schemas_cache_size = size;
  }
  if (auto it = configs.find("decimal.format"); it != configs.end()) {
    const std::string value = absl::AsciiStrToUpper(it->second);
    if (value != "BASE64" && value != "NUMERIC") {
      return absl::InvalidArgumentError(
          absl::StrCat("Invalid value ", it->second,
                       " for configuration decimal.format: String must be one of (case "
                       "insensitive): BASE64, NUMERIC"));
    }
    config.decimal_numeric = value == "NUMERIC";
  }
  return config;
}

absl::StatusOr<std::string> JsonConverter::AsJsonSchema(const Schema* schema) {
  if (schema == nullptr) return std::string("null");
  auto cached = to_json_cache_.find(schema);
  if (cached != to_json_cache_.end()) return cached->second.second;
  std::string out;
  CONNECTD_RETURN_IF_ERROR(AppendJsonSchema(*schema, config_, out));
  return out;
}

absl::StatusOr<std::optional<std::string>> JsonConverter::FromConnectData(
    std::string_view /*topic*/, const SchemaPtr& schema, const Value& value) {
  if (schema == nullptr && value.is_null()) return std::optional<std::string>();
  std::string out;
  if (config_.schemas_enable) {
    out.append("{\"schema\":");
    CONNECTD_ASSIGN_OR_RETURN(std::string schema_json, AsJsonSchema(schema.get()));
    if (schema != nullptr && to_json_cache_.find(schema.get()) == to_json_cache_.end()) {
      if (to_json_cache_.size() >= static_cast<size_t>(std::max(config_.schemas_cache_size, 0))) {
        to_json_cache_.clear();
      }
      if (config_.schemas_cache_size > 0) to_json_cache_[schema.get()] = {schema, schema_json};
    }
    out.append(schema_json);
    out.append(",\"payload\":");
  }
  CONNECTD_RETURN_IF_ERROR(JsonWriter(config_).Value(schema.get(), value, out));
  if (config_.schemas_enable) out.push_back('}');
  return std::optional<std::string>(std::move(out));
}

absl::StatusOr<SchemaAndValue> JsonConverter::ToConnectData(std::string_view /*topic*/,
                                                            std::optional<std::string_view> bytes) {
  if (!bytes) return SchemaAndValue{};
  absl::StatusOr<JsonValue> parsed = data::ReadConnectJson(*bytes);
  if (!parsed.ok()) {
    return DataError("Converting byte[] to Kafka Connect data failed due to serialization error: ");
  }
  // An empty input is Jackson's MissingNode: not an envelope, and no payload.
  const bool missing = bytes->find_first_not_of(" \t\r\n") == std::string_view::npos;
  const JsonValue* payload = missing ? nullptr : &*parsed;
  SchemaPtr schema;
  if (config_.schemas_enable) {
    if (missing || parsed->kind != JsonValue::Kind::kObject || parsed->members.size() != 2 ||
        parsed->Find("schema") == nullptr || parsed->Find("payload") == nullptr) {
      return DataError(kEnvelopeError);
    }
    CONNECTD_ASSIGN_OR_RETURN(schema, AsConnectSchema(*parsed->Find("schema"), config_));
    payload = parsed->Find("payload");
  }
  CONNECTD_ASSIGN_OR_RETURN(Value value, ConvertToConnect(schema, payload, config_));
  return SchemaAndValue{std::move(schema), std::move(value)};
}

}  // namespace connectd::converters
