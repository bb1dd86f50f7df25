#include "runtime/converters/number_converters.h"

#include <bit>

#include "absl/strings/str_cat.h"
#include "runtime/common/strings.h"

namespace connectd::converters {
namespace {

using data::Value;

absl::Status DataError(std::string message) { return absl::InvalidArgumentError(message); }

template <typename Unsigned>
std::string BigEndian(Unsigned bits) {
  std::string out(sizeof(Unsigned), '\0');
  for (size_t i = 0; i < sizeof(Unsigned); ++i) {
    out[sizeof(Unsigned) - 1 - i] = static_cast<char>(bits & 0xff);
    bits = static_cast<Unsigned>(bits >> 8);
  }
  return out;
}

template <typename Unsigned>
Unsigned FromBigEndian(std::string_view bytes) {
  Unsigned bits = 0;
  for (unsigned char c : bytes) bits = static_cast<Unsigned>((bits << 8) | c);
  return bits;
}

// One of Java's NumberConverter instances: its type name ("integer"), the Connect value kind
// and schema type it carries, its serialized size and its deserializer's class for messages.
struct NumberType {
  const char* name;
  Value::Kind kind;
  data::Type schema_type;
  size_t size;
  const char* deserializer;  // in "Size of data received by <it> is not <size>"
};

class NumberConverter final : public Converter {
 public:
  explicit NumberConverter(NumberType type) : type_(type) {}

  absl::StatusOr<std::optional<std::string>> FromConnectData(std::string_view,
                                                             const data::SchemaPtr&,
                                                             const Value& value) override {
    if (value.is_null()) return std::optional<std::string>();
    if (value.kind() != type_.kind) {
      return DataError(absl::StrCat("Failed to serialize to ", type_.name, " (was ",
                                    AsAbsl(data::JavaClassName(value.kind())), "): "));
    }
    switch (type_.kind) {
      case Value::Kind::kInt16:
        return BigEndian(static_cast<uint16_t>(value.int16()));
      case Value::Kind::kInt32:
        return BigEndian(static_cast<uint32_t>(value.int32()));
      case Value::Kind::kInt64:
        return BigEndian(static_cast<uint64_t>(value.int64()));
      case Value::Kind::kFloat32:
        return BigEndian(std::bit_cast<uint32_t>(value.float32()));
      default:
        return BigEndian(std::bit_cast<uint64_t>(value.float64()));
    }
  }

  absl::StatusOr<SchemaAndValue> ToConnectData(std::string_view,
                                               std::optional<std::string_view> bytes) override {
    SchemaAndValue out{data::Schema::Optional(type_.schema_type), Value()};
    if (!bytes) return out;
    if (bytes->size() != type_.size) {
      return DataError(absl::StrCat("Failed to deserialize ", type_.name,
                                    ": Size of data received by ", type_.deserializer, " is not ",
                                    type_.size));
    }
    switch (type_.kind) {
      case Value::Kind::kInt16:
        out.value = Value::Int16(static_cast<int16_t>(FromBigEndian<uint16_t>(*bytes)));
        break;
      case Value::Kind::kInt32:
        out.value = Value::Int32(static_cast<int32_t>(FromBigEndian<uint32_t>(*bytes)));
        break;
      case Value::Kind::kInt64:
        out.value = Value::Int64(static_cast<int64_t>(FromBigEndian<uint64_t>(*bytes)));
        break;
      case Value::Kind::kFloat32:
        out.value = Value::Float32(std::bit_cast<float>(FromBigEndian<uint32_t>(*bytes)));
        break;
      default:
        out.value = Value::Float64(std::bit_cast<double>(FromBigEndian<uint64_t>(*bytes)));
        break;
    }
    return out;
  }

 private:
  const NumberType type_;
};

class BooleanConverter final : public Converter {
 public:
  absl::StatusOr<std::optional<std::string>> FromConnectData(std::string_view,
                                                             const data::SchemaPtr& schema,
                                                             const Value& value) override {
    if (schema != nullptr && schema->type != data::Type::kBoolean) {
      return DataError(absl::StrCat("Invalid schema type for BooleanConverter: ",
                                    AsAbsl(data::TypeName(schema->type))));
    }
    if (value.is_null()) return std::optional<std::string>();
    if (value.kind() != Value::Kind::kBoolean) {
      return DataError(absl::StrCat("BooleanConverter is not compatible with objects of type ",
                                    AsAbsl(data::JavaClassName(value.kind()))));
    }
    return std::optional<std::string>(std::string(1, value.boolean() ? '\x01' : '\x00'));
  }

  absl::StatusOr<SchemaAndValue> ToConnectData(std::string_view,
                                               std::optional<std::string_view> bytes) override {
    SchemaAndValue out{data::Schema::Optional(data::Type::kBoolean), Value()};
    if (!bytes) return out;
    if (bytes->size() != 1) {
      return DataError(
          "Failed to deserialize boolean: Size of data received by BooleanDeserializer is not 1");
    }
    const auto b = static_cast<unsigned char>((*bytes)[0]);
    if (b > 1) {
      return DataError(absl::StrCat(
          "Failed to deserialize boolean: Unexpected byte received by BooleanDeserializer: ",
          static_cast<int>(static_cast<signed char>(b))));
    }
    out.value = Value::Boolean(b == 1);
    return out;
  }
};

}  // namespace

std::unique_ptr<Converter> MakeNumberConverter(std::string_view class_name) {
  if (class_name == kBooleanConverter) return std::make_unique<BooleanConverter>();
  static constexpr std::pair<std::string_view, NumberType> kTypes[] = {
      {kShortConverter, {"short", Value::Kind::kInt16, data::Type::kInt16, 2, "ShortDeserializer"}},
      {kIntegerConverter,
       {"integer", Value::Kind::kInt32, data::Type::kInt32, 4, "IntegerDeserializer"}},
      {kLongConverter, {"long", Value::Kind::kInt64, data::Type::kInt64, 8, "LongDeserializer"}},
      {kFloatConverter, {"float", Value::Kind::kFloat32, data::Type::kFloat32, 4, "Deserializer"}},
      {kDoubleConverter,
       {"double", Value::Kind::kFloat64, data::Type::kFloat64, 8, "DoubleDeserializer"}},
  };
  for (const auto& [name, type] : kTypes) {
    if (class_name == name) return std::make_unique<NumberConverter>(type);
  }
  return nullptr;
}

}  // namespace connectd::converters
