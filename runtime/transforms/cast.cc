// Cast$Key / Cast$Value: cast the whole key or value, or fields of a struct or map, to another
// primitive type, as Kafka 4.4's org.apache.kafka.connect.transforms.Cast.
//
// `spec` is "type" (the whole value) or "field:type,..." with types int8, int16, int32, int64,
// float32, float64, boolean, string (any case). Inputs may be those types or bytes; numbers
// convert as Java's casts (wrapping, truncating), strings parse as Byte.parseByte and friends,
// booleans are 1/0, Date/Time/Timestamp values become their int/long form (or their ISO text for
// string), bytes become Base64 text. Field casts keep the other fields, a field's optionality, and
// cast its default; a missing map field becomes null.
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/common/status_macros.h"
#include "runtime/common/strings.h"
#include "runtime/data/values.h"
#include "runtime/transforms/builtin.h"

namespace connectd::transforms::builtin {
namespace {

using data::Schema;
using data::SchemaPtr;
using data::Type;
using data::Value;

constexpr std::string_view kPurpose = "cast types";
constexpr std::string_view kInputTypes =
    "[INT8, INT16, INT32, INT64, FLOAT32, FLOAT64, BOOLEAN, STRING, BYTES]";
constexpr std::string_view kOutputTypes =
    "[INT8, INT16, INT32, INT64, FLOAT32, FLOAT64, BOOLEAN, STRING]";

absl::Status DataError(std::string message) { return absl::InvalidArgumentError(message); }

// String.trim().
std::string_view JavaTrim(std::string_view s) {
  while (!s.empty() && static_cast<unsigned char>(s.front()) <= ' ') s.remove_prefix(1);
  while (!s.empty() && static_cast<unsigned char>(s.back()) <= ' ') s.remove_suffix(1);
  return s;
}

// String.split(":"): trailing empty strings removed.
std::vector<std::string> SplitColon(std::string_view s) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t end = s.find(':', start);
    parts.emplace_back(
        s.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  if (parts.size() > 1 || s.empty()) {
    while (!parts.empty() && parts.back().empty()) parts.pop_back();
    if (parts.empty() && s.empty()) parts.emplace_back();
  }
  return parts;
}

// Schema.Type.valueOf(name.toUpperCase(Locale.ROOT)).
std::optional<Type> TypeNamed(std::string_view name) {
  std::string upper(name);
  for (char& c : upper) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  for (int t = 0; t <= static_cast<int>(Type::kStruct); ++t) {
    if (data::TypeName(static_cast<Type>(t)) == upper) return static_cast<Type>(t);
  }
  return std::nullopt;
}

bool IsOutputType(Type t) {
  return t != Type::kBytes && t != Type::kArray && t != Type::kMap && t != Type::kStruct;
}
bool IsInputType(Type t) { return t != Type::kArray && t != Type::kMap && t != Type::kStruct; }

absl::StatusOr<Type> ParseSpecType(std::string_view text) {
  const std::string_view trimmed = JavaTrim(text);
  std::optional<Type> type = TypeNamed(trimmed);
  if (!type) {
    std::string upper(trimmed);
    for (char& c : upper) {
      if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    }
    return absl::InvalidArgumentError(absl::StrCat(
        "Invalid value java.lang.IllegalArgumentException: No enum constant "
        "org.apache.kafka.connect.data.Schema.Type.",
        upper, " for configuration Invalid type found in casting spec: ", AsAbsl(trimmed)));
  }
  if (!IsOutputType(*type)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Cast transformation does not support casting to ", AsAbsl(data::TypeName(*type)),
        "; supported types are ", AsAbsl(kOutputTypes)));
  }
  return *type;
}

// ---- Java's conversions ----------------------------------------------------------------------

// Number.intValue() and longValue() of a Connect number (nullopt: not a Number).
std::optional<int64_t> IntValue(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kInt8:
      return v.int8();
    case Value::Kind::kInt16:
      return v.int16();
    case Value::Kind::kInt32:
      return v.int32();
    case Value::Kind::kInt64:
      return static_cast<int32_t>(static_cast<uint32_t>(v.int64()));
    case Value::Kind::kFloat32:
      return data::JavaDoubleToInt(v.float32());
    case Value::Kind::kFloat64:
      return data::JavaDoubleToInt(v.float64());
    case Value::Kind::kDecimal:
      return static_cast<int32_t>(static_cast<uint32_t>(data::LongValue(v.decimal())));
    default:
      return std::nullopt;
  }
}
std::optional<int64_t> LongValue(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kInt64:
      return v.int64();
    case Value::Kind::kFloat32:
      return data::JavaDoubleToLong(v.float32());
    case Value::Kind::kFloat64:
      return data::JavaDoubleToLong(v.float64());
    case Value::Kind::kDecimal:
      return data::LongValue(v.decimal());
    default:
      return IntValue(v);
  }
}
std::optional<double> DoubleValue(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kInt64:
      return static_cast<double>(v.int64());
    case Value::Kind::kFloat32:
      return v.float32();
    case Value::Kind::kFloat64:
      return v.float64();
    case Value::Kind::kDecimal:
      return data::DoubleValue(v.decimal());
    default: {
      std::optional<int64_t> i = IntValue(v);
      if (!i) return std::nullopt;
      return static_cast<double>(*i);
    }
  }
}
std::optional<float> FloatValue(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kInt64:
      return static_cast<float>(v.int64());
    case Value::Kind::kDecimal:  // BigDecimal.floatValue(), correctly rounded
      return std::strtof(data::ToJavaString(v.decimal()).c_str(), nullptr);
    default: {
      std::optional<double> d = DoubleValue(v);
      if (!d) return std::nullopt;
      return static_cast<float>(*d);
    }
  }
}

// Long.parseLong (and Integer/Short/Byte.parseX through the range): optional sign, then ASCII
// digits; nullopt for NumberFormatException.
std::optional<int64_t> ParseJavaInteger(std::string_view s, int64_t min, int64_t max) {
  size_t i = 0;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  if (i == s.size()) return std::nullopt;
  uint64_t magnitude = 0;
  const uint64_t limit =
      negative ? static_cast<uint64_t>(-(min + 1)) + 1 : static_cast<uint64_t>(max);
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return std::nullopt;
    const uint64_t digit = static_cast<uint64_t>(s[i] - '0');
    if (magnitude > (limit - digit) / 10) return std::nullopt;
    magnitude = magnitude * 10 + digit;
  }
  return negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
}

bool IsHexDigit(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// Double.parseDouble / Float.parseFloat (FloatingDecimal.readJavaFormatString): the text without
// surrounding white space and a trailing f/F/d/D as strtod reads it, or nullopt when Java throws.
std::optional<std::string> JavaFloatingText(std::string_view text) {
  std::string_view s = JavaTrim(text);
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  const std::string_view rest = s.substr(i);
  if (rest == "NaN" || rest == "Infinity") return std::string(s);
  auto digits = [&](bool hex) {
    size_t n = 0;
    while (i < s.size() && (hex ? IsHexDigit(s[i]) : (s[i] >= '0' && s[i] <= '9'))) {
      ++i;
      ++n;
    }
    return n;
  };
  const bool hex = rest.size() > 1 && rest[0] == '0' && (rest[1] == 'x' || rest[1] == 'X');
  if (hex) i += 2;
  size_t mantissa = digits(hex);
  if (i < s.size() && s[i] == '.') {
    ++i;
    mantissa += digits(hex);
  }
  if (mantissa == 0) return std::nullopt;
  const bool has_exponent =
      i < s.size() && (hex ? (s[i] == 'p' || s[i] == 'P') : (s[i] == 'e' || s[i] == 'E'));
  if (hex && !has_exponent) return std::nullopt;
  if (has_exponent) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (digits(false) == 0) return std::nullopt;
  }
  size_t end = i;
  if (i < s.size() && (s[i] == 'f' || s[i] == 'F' || s[i] == 'd' || s[i] == 'D')) ++i;
  if (i != s.size()) return std::nullopt;
  return std::string(s.substr(0, end));
}

// castValueToType: the value as `target`, or Java's DataException message.
absl::StatusOr<Value> CastValue(const Schema* schema, Value value, Type target) {
  if (value.is_null()) return value;
  std::optional<Type> inferred =
      schema != nullptr ? std::optional<Type>(schema->type) : data::SchemaTypeOf(value.kind());
  if (!inferred) {
    return DataError(absl::StrCat("Cast transformation was passed a value of type ",
                                  AsAbsl(data::JavaClassName(value.kind())),
                                  " which is not supported by Connect's data API"));
  }
  if (!IsInputType(*inferred)) {
    return DataError(absl::StrCat("Cast transformation does not support casting from ",
                                  AsAbsl(data::TypeName(*inferred)), "; supported types are ",
                                  AsAbsl(kInputTypes)));
  }
  if (schema != nullptr && schema->name && target != Type::kString) {
    CONNECTD_ASSIGN_OR_RETURN(value, data::EncodeLogical(*schema, value));
  }
  auto out_of_range = [&]() {
    return DataError(absl::StrCat("Value (", data::JavaToString(value),
                                  ") was out of range for requested data type"));
  };
  auto unexpected = [&]() {
    return DataError(absl::StrCat("Unexpected type in Cast transformation: ",
                                  AsAbsl(data::JavaClassName(value.kind()))));
  };
  const bool is_bool = value.kind() == Value::Kind::kBoolean;
  const bool is_string = value.kind() == Value::Kind::kString;
  switch (target) {
    case Type::kInt8:
    case Type::kInt16:
    case Type::kInt32:
    case Type::kInt64: {
      int64_t v = 0;
      if (std::optional<int64_t> n = target == Type::kInt64 ? LongValue(value) : IntValue(value)) {
        v = *n;
      } else if (is_bool) {
        v = value.boolean() ? 1 : 0;
      } else if (is_string) {
        static constexpr std::pair<int64_t, int64_t> kRanges[] = {
            {-128, 127},
            {-32768, 32767},
            {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()},
            {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()}};
        const auto [min, max] = kRanges[static_cast<int>(target)];
        std::optional<int64_t> parsed = ParseJavaInteger(value.string(), min, max);
        if (!parsed) return out_of_range();
        v = *parsed;
      } else {
        return unexpected();
      }
      switch (target) {
        case Type::kInt8:
          return Value::Int8(static_cast<int8_t>(static_cast<uint8_t>(v)));
        case Type::kInt16:
          return Value::Int16(static_cast<int16_t>(static_cast<uint16_t>(v)));
        case Type::kInt32:
          return Value::Int32(static_cast<int32_t>(static_cast<uint32_t>(v)));
        default:
          return Value::Int64(v);
      }
    }
    case Type::kFloat32: {
      if (std::optional<float> f = FloatValue(value)) return Value::Float32(*f);
      if (is_bool) return Value::Float32(value.boolean() ? 1.f : 0.f);
      if (!is_string) return unexpected();
      std::optional<std::string> text = JavaFloatingText(value.string());
      if (!text) return out_of_range();
      return Value::Float32(std::strtof(text->c_str(), nullptr));
    }
    case Type::kFloat64: {
      if (std::optional<double> d = DoubleValue(value)) return Value::Float64(*d);
      if (is_bool) return Value::Float64(value.boolean() ? 1. : 0.);
      if (!is_string) return unexpected();
      std::optional<std::string> text = JavaFloatingText(value.string());
      if (!text) return out_of_range();
      return Value::Float64(std::strtod(text->c_str(), nullptr));
    }
    case Type::kBoolean: {
      if (std::optional<int64_t> l = LongValue(value)) return Value::Boolean(*l != 0);
      if (is_bool) return value;
      if (!is_string) return unexpected();
      const std::string& s = value.string();
      return Value::Boolean(s.size() == 4 && (s[0] | 0x20) == 't' && (s[1] | 0x20) == 'r' &&
                            (s[2] | 0x20) == 'u' && (s[3] | 0x20) == 'e');
    }
    case Type::kString:
      if (value.kind() == Value::Kind::kDate) {
        return Value::String(data::FormatDateValue(value.date_millis()));
      }
      if (value.kind() == Value::Kind::kBytes)
        return Value::String(absl::Base64Escape(value.bytes()));
      return Value::String(data::JavaToString(value));
    default:
      return DataError(absl::StrCat(AsAbsl(data::TypeName(target)),
                                    " is not supported in the Cast transformation."));
  }
}

class Cast final : public Transformation {
 public:
  explicit Cast(Operand operand) : operand_(operand) {}

  absl::Status Configure(const Configs& configs) override {
    // The spec is parsed and validated before the other keys, as its ConfigDef validator runs.
    config::ConfigDef spec_def;
    spec_def.Define(SpecKey());
    CONNECTD_ASSIGN_OR_RETURN(config::ParsedConfig spec_config,
                              ParseTransformConfig(spec_def, configs));
    CONNECTD_RETURN_IF_ERROR(ParseSpec(spec_config.GetList("spec")));
    config::ConfigDef def;
    def.Define(SpecKey());
    def.Define(ReplaceNullWithDefaultKey());
    CONNECTD_ASSIGN_OR_RETURN(config::ParsedConfig config, ParseTransformConfig(def, configs));
    replace_null_with_default_ = config.GetBool("replace.null.with.default");
    schema_cache_.clear();
    return absl::OkStatus();
  }

  absl::StatusOr<std::optional<ConnectRecord>> Apply(ConnectRecord record) override {
    const Value& value = OperatingValue(record, operand_);
    if (value.is_null()) return record;
    const SchemaPtr& schema = OperatingSchema(record, operand_);
    if (schema == nullptr) {
      if (whole_) {
        CONNECTD_ASSIGN_OR_RETURN(Value cast, CastValue(nullptr, value, *whole_));
        return WithOperand(std::move(record), operand_, nullptr, std::move(cast));
      }
      CONNECTD_RETURN_IF_ERROR(RequireMap(value, kPurpose));
      JavaHashMapEdit updated(value.map());
      for (const auto& [field, type] : casts_) {
        const Value* original = MapGet(value.map(), field);
        CONNECTD_ASSIGN_OR_RETURN(Value cast,
                                  CastValue(nullptr, original ? *original : Value(), type));
        updated.Put(field, std::move(cast));
      }
      return WithOperand(std::move(record), operand_, nullptr, std::move(updated).Build());
    }
    CONNECTD_ASSIGN_OR_RETURN(SchemaPtr updated_schema, UpdatedSchema(schema));
    if (whole_) {
      CONNECTD_ASSIGN_OR_RETURN(Value cast, CastValue(schema.get(), value, *whole_));
      return WithOperand(std::move(record), operand_, std::move(updated_schema), std::move(cast));
    }
    CONNECTD_RETURN_IF_ERROR(RequireStruct(value, kPurpose));
    const data::Struct& original = *value.structure();
    data::Struct updated(updated_schema);
    for (const data::Field& field : original.schema()->fields) {
      Value field_value = FieldValue(original, field, replace_null_with_default_);
      if (const Type* type = CastFor(field.name)) {
        CONNECTD_ASSIGN_OR_RETURN(field_value, CastValue(field.schema.get(), field_value, *type));
      }
      CONNECTD_RETURN_IF_ERROR(updated.Put(field.name, std::move(field_value)));
    }
    return WithOperand(std::move(record), operand_, std::move(updated_schema),
                       data::StructValue(std::move(updated)));
  }

 private:
  static config::ConfigKey SpecKey() {
    return config::ConfigKey{
        .name = "spec",
        .type = config::Type::kList,
        .has_default = false,
        .importance = config::Importance::kHigh,
        .documentation =
            "List of fields and the type to cast them to of the form "
            "field1:type,field2:type to cast fields of Maps or Structs. A single "
            "type to cast the entire value. Valid types are int8, int16, int32, "
            "int64, float32, float64, boolean, and string. Note that binary fields "
            "can only be cast to string."};
  }

  // Cast.parseFieldTypes with its ConfigException messages.
  absl::Status ParseSpec(const std::vector<std::string>& mappings) {
    if (mappings.empty())
      return absl::InvalidArgumentError("Must specify at least one field to cast.");
    std::vector<std::pair<std::string, Type>> casts;
    std::optional<Type> whole;
    for (const std::string& mapping : mappings) {
      const std::vector<std::string> parts = SplitColon(mapping);
      if (parts.size() > 2) {
        return absl::InvalidArgumentError(
            absl::StrCat("Invalid value [", absl::StrJoin(mappings, ", "),
                         "] for configuration renames: Invalid rename mapping: ", mapping));
      }
      if (parts.size() == 1) {
        CONNECTD_ASSIGN_OR_RETURN(whole, ParseSpecType(parts[0]));
        continue;
      }
      if (parts.empty()) {
        // Java reads parts[1] of an empty array: ArrayIndexOutOfBoundsException.
        return absl::InvalidArgumentError("Index 1 out of bounds for length 0");
      }
      CONNECTD_ASSIGN_OR_RETURN(Type type, ParseSpecType(parts[1]));
      const std::string field(JavaTrim(parts[0]));
      bool replaced = false;
      for (auto& [name, t] : casts) {
        if (name == field) {
          t = type;
          replaced = true;
        }
      }
      if (!replaced) casts.emplace_back(field, type);
    }
    if (whole && mappings.size() > 1) {
      return absl::InvalidArgumentError(
          "Cast transformations that specify a type to cast the entire value to may only specify "
          "a single cast in their spec");
    }
    // Java iterates its HashMap of casts: in the keys' hash order.
    Value::Map by_hash;
    for (size_t i = 0; i < casts.size(); ++i) {
      by_hash.emplace_back(Value::String(casts[i].first), Value::Int32(static_cast<int32_t>(i)));
    }
    casts_.clear();
    for (const auto& [k, v] : data::JavaHashMap(std::move(by_hash))) {
      casts_.push_back(casts[static_cast<size_t>(v.int32())]);
    }
    whole_ = whole;
    return absl::OkStatus();
  }

  const Type* CastFor(std::string_view field) const {
    for (const auto& [name, type] : casts_) {
      if (name == field) return &type;
    }
    return nullptr;
  }

  // getOrBuildSchema: the schema after the cast, cached by input schema.
  absl::StatusOr<SchemaPtr> UpdatedSchema(const SchemaPtr& schema) {
    for (const auto& [in, out] : schema_cache_) {
      if (in == schema) return out;
    }
    Schema updated;
    if (whole_) {
      updated = CopySchemaBasics(*schema, *whole_);
    } else {
      updated = CopySchemaBasics(*schema, Type::kStruct);
      for (const data::Field& field : schema->fields) {
        const Type* type = CastFor(field.name);
        if (type == nullptr) {
          updated.AddField(field.name, field.schema);
          continue;
        }
        Schema field_schema = Schema::Of(*type);
        field_schema.optional = field.schema->optional;
        if (field.schema->default_value) {
          CONNECTD_ASSIGN_OR_RETURN(
              Value def, CastValue(field.schema.get(), *field.schema->default_value, *type));
          field_schema.default_value = std::make_shared<const Value>(std::move(def));
        }
        updated.AddField(field.name, data::Freeze(std::move(field_schema)));
      }
    }
    updated.optional = schema->optional;
    if (schema->default_value) {
      CONNECTD_ASSIGN_OR_RETURN(Value def,
                                CastValue(schema.get(), *schema->default_value, updated.type));
      updated.default_value = std::make_shared<const Value>(std::move(def));
    }
    SchemaPtr out = data::Freeze(std::move(updated));
    if (schema_cache_.size() >= 16) schema_cache_.erase(schema_cache_.begin());
    schema_cache_.emplace_back(schema, out);
    return out;
  }

  const Operand operand_;
  std::vector<std::pair<std::string, Type>> casts_;  // field casts, in Java's iteration order
  std::optional<Type> whole_;                        // a whole-value cast
  bool replace_null_with_default_ = true;
  std::vector<std::pair<SchemaPtr, SchemaPtr>> schema_cache_;
};

}  // namespace

std::unique_ptr<Transformation> MakeCast(Operand operand) {
  return std::make_unique<Cast>(operand);
}

}  // namespace connectd::transforms::builtin
