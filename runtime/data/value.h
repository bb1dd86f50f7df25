// File: value.h
//
// Connect's data model, the value half: what a Java Connect value (Object) can be, as one
// tagged type. Kinds map one to one onto the Java classes Connect allows (ConnectSchema's
// SCHEMA_TYPE_CLASSES and LOGICAL_TYPE_CLASSES):
//   kNull            null
//   kInt8..kInt64    Byte, Short, Integer, Long
//   kFloat32/64      Float, Double
//   kBoolean         Boolean
//   kString          String (UTF-8)
//   kBytes           byte[] / ByteBuffer
//   kArray           List
//   kMap             Map, entries in the map's iteration order
//   kStruct          Struct (shared, immutable once built)
//   kDecimal         BigDecimal (Decimal logical type)
//   kDate            java.util.Date (Date, Time and Timestamp logical types), epoch millis
//
// Equality (operator==) is Java's equals as Connect compares values: numbers of different kinds
// differ (Long 1 != Integer 1), floats compare by bits (0.0 != -0.0, NaN == NaN), bytes by
// content, maps regardless of order, BigDecimal with its scale. JavaHashCode is hashCode(),
// which decides the order of a java.util.HashMap (jvm/java_hash_order.h).
//
// Struct: a schema and one value per field. Put validates the value against the field's schema
// as Java's Struct.put does; Validate checks required fields, as Struct.validate.
//
// Thread safety: values are plain data; a frozen StructPtr may be shared between threads.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "runtime/data/decimal.h"
#include "runtime/data/schema.h"

namespace connectd::data {

class Struct;
using StructPtr = std::shared_ptr<const Struct>;

struct Bytes {
  std::string data;
  bool operator==(const Bytes& o) const { return data == o.data; }
};
struct Date {
  int64_t epoch_millis = 0;
  bool operator==(const Date& o) const { return epoch_millis == o.epoch_millis; }
};

class Value {
 public:
  enum class Kind : uint8_t {
    kNull,
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
    kDecimal,
    kDate,
  };
  using Array = std::vector<Value>;
  using Map = std::vector<std::pair<Value, Value>>;

  Value() = default;
  static Value Int8(int8_t v) { return Value(v); }
  static Value Int16(int16_t v) { return Value(v); }
  static Value Int32(int32_t v) { return Value(v); }
  static Value Int64(int64_t v) { return Value(v); }
  static Value Float32(float v) { return Value(v); }
  static Value Float64(double v) { return Value(v); }
  static Value Boolean(bool v) { return Value(v); }
  static Value String(std::string v) { return Value(std::move(v)); }
  static Value OfBytes(std::string v) { return Value(Bytes{std::move(v)}); }
  static Value OfArray(Array v) { return Value(std::move(v)); }
  static Value OfMap(Map v) { return Value(std::move(v)); }
  static Value OfStruct(StructPtr v) { return Value(std::move(v)); }
  static Value OfDecimal(Decimal v) { return Value(std::move(v)); }
  static Value OfDate(int64_t epoch_millis) { return Value(Date{epoch_millis}); }

  Kind kind() const { return static_cast<Kind>(v_.index()); }
  bool is_null() const { return kind() == Kind::kNull; }

  int8_t int8() const { return std::get<int8_t>(v_); }
  int16_t int16() const { return std::get<int16_t>(v_); }
  int32_t int32() const { return std::get<int32_t>(v_); }
  int64_t int64() const { return std::get<int64_t>(v_); }
  float float32() const { return std::get<float>(v_); }
  double float64() const { return std::get<double>(v_); }
  bool boolean() const { return std::get<bool>(v_); }
  const std::string& string() const { return std::get<std::string>(v_); }
  const std::string& bytes() const { return std::get<Bytes>(v_).data; }
  const Array& array() const { return std::get<Array>(v_); }
  const Map& map() const { return std::get<Map>(v_); }
  const StructPtr& structure() const { return std::get<StructPtr>(v_); }
  const Decimal& decimal() const { return std::get<Decimal>(v_); }
  int64_t date_millis() const { return std::get<Date>(v_).epoch_millis; }

  bool operator==(const Value& o) const;
  bool operator!=(const Value& o) const { return !(*this == o); }

 private:
  template <typename T>
  explicit Value(T v) : v_(std::move(v)) {}

  // Index order is Kind's order.
  std::variant<std::monostate, int8_t, int16_t, int32_t, int64_t, float, double, bool, std::string,
               Bytes, Array, Map, StructPtr, Decimal, Date>
      v_;
};

// JavaClassName is the Java class Connect would see for the value ("java.lang.Integer", ...;
// "null" for kNull), for messages that name it.
std::string_view JavaClassName(Value::Kind kind);

// SchemaTypeOf is ConnectSchema.schemaType(value.getClass()): the type schemaless data of this
// kind has; nullopt for kNull, kDecimal and kDate (Java infers no type for them).
std::optional<Type> SchemaTypeOf(Value::Kind kind);

// JavaHashCode is the Java hashCode() of the value; 0 for byte[] and Struct, whose Java hashes
// depend on object identity (no stable order exists for such map keys).
int32_t JavaHashCode(const Value& value);

// JavaHashMap returns `entries` as a java.util.HashMap holds them after putting them in the
// order given: a repeated key keeps one entry with the last value, and the entries come in the
// map's iteration order, which depends on the table the map started with: 16 buckets for
// `new HashMap<>()`, jvm::JavaHashMapCopyCapacity(m.size()) for `new HashMap<>(m)` (whose
// entries are put first, in m's order), jvm::JavaHashMapSizedCapacity(n) for `new HashMap<>(n)`
// (jvm/java_hash_order.h).
Value::Map JavaHashMap(Value::Map entries, size_t initial_capacity = 16);

// JavaToString is the value's Java toString() as StringConverter writes it: numbers as Java
// prints them, List "[a, b]", Map "{k=v, k2=v2}", Struct "Struct{a=1,b=x}" (null fields left
// out), BigDecimal's toString, a Date as java.util.Date.toString() in UTC; byte[] (Java prints
// its identity) is written as its bytes.
std::string JavaToString(const Value& value);

// ValidateValue is ConnectSchema.validateValue(schema, value) with Java's messages
// ("Invalid value: null used for required field: \"f\", schema type: INT32", ...).
// `location` is "value" or "field: \"name\"".
absl::Status ValidateValue(const Schema& schema, const Value& value,
                           std::string_view location = "value");

class Struct {
 public:
  // Every field starts null. REQUIRES: schema is a STRUCT schema.
  explicit Struct(SchemaPtr schema);

  const SchemaPtr& schema() const { return schema_; }
  // Put sets a field after ValidateValue against the field's schema, as Struct.put. Unknown
  // field: kInvalidArgument "<name> is not a valid field name".
  absl::Status Put(std::string_view field, Value value);
  void PutUnchecked(size_t index, Value value) { values_[index] = std::move(value); }
  // Get returns the field's value, or its schema's default when the value is null (Struct.get);
  // GetWithoutDefault returns the stored value. nullptr for an unknown field.
  const Value* Get(std::string_view field) const;
  const Value* GetWithoutDefault(std::string_view field) const;
  const Value& At(size_t index) const { return values_[index]; }
  // Validate checks every field against its schema (Struct.validate).
  absl::Status Validate() const;

  bool operator==(const Struct& o) const;

 private:
  SchemaPtr schema_;
  std::vector<Value> values_;
};

// Freezes a struct into a shareable value.
inline Value StructValue(Struct s) {
  return Value::OfStruct(std::make_shared<Struct>(std::move(s)));
}

}  // namespace connectd::data
