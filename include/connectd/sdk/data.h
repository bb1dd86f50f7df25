// File: connectd/sdk/data.h
//
// Connect's data model for plugin code (org.apache.kafka.connect.data), since ABI 1.5: Schema
// with its types and logical types, Value, Struct, and their conversion to and from the ABI's
// C views.
//
//   SchemaPtr user = SchemaBuilder::Struct().name("com.example.User")
//                        .field("id", Schema::Required(Type::kInt64))
//                        .field("email", Schema::Optional(Type::kString)).build();
//   auto s = std::make_shared<Struct>(user);
//   s->put("id", Value::Int64(42)).put("email", Value::String("a@example.com"));
//   Value v = Value::OfStruct(s);
//
// Logical types are names on the underlying type, as in Java: Decimal (BYTES, "scale"
// parameter; a Value::OfDecimal), Date and Time (INT32) and Timestamp (INT64), whose values are
// Value::OfDate (epoch milliseconds, Java's java.util.Date).
//
// Errors: a value that does not fit its field throws DataException, as Java's Struct.put.
// Threads: plain data; share a frozen SchemaPtr freely.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "connectd/plugin/abi.h"
#include "connectd/sdk/errors.h"
#include "connectd/sdk/host.h"

namespace connectd::sdk {

// Connect's DataException: a record's data is not what a transform or converter needs. It fails
// the record, and errors.tolerance decides what happens to the task.
class DataException : public ConnectException {
 public:
  explicit DataException(const std::string& message)
      : ConnectException(message, CONNECTD_STATUS_INVALID_ARGUMENT) {}
};

enum class Type : int32_t {
  kInt8 = CONNECTD_TYPE_INT8,
  kInt16 = CONNECTD_TYPE_INT16,
  kInt32 = CONNECTD_TYPE_INT32,
  kInt64 = CONNECTD_TYPE_INT64,
  kFloat32 = CONNECTD_TYPE_FLOAT32,
  kFloat64 = CONNECTD_TYPE_FLOAT64,
  kBoolean = CONNECTD_TYPE_BOOLEAN,
  kString = CONNECTD_TYPE_STRING,
  kBytes = CONNECTD_TYPE_BYTES,
  kArray = CONNECTD_TYPE_ARRAY,
  kMap = CONNECTD_TYPE_MAP,
  kStruct = CONNECTD_TYPE_STRUCT,
};

inline constexpr std::string_view kDecimalLogicalName = "org.apache.kafka.connect.data.Decimal";
inline constexpr std::string_view kDateLogicalName = "org.apache.kafka.connect.data.Date";
inline constexpr std::string_view kTimeLogicalName = "org.apache.kafka.connect.data.Time";
inline constexpr std::string_view kTimestampLogicalName = "org.apache.kafka.connect.data.Timestamp";

class Value;
class Struct;
struct Schema;
using SchemaPtr = std::shared_ptr<const Schema>;
using StructPtr = std::shared_ptr<Struct>;

struct Field {
  std::string name;
  SchemaPtr schema;
};

struct Schema {
  Type type = Type::kBytes;
  bool optional = false;
  std::optional<std::string> name;
  std::optional<int32_t> version;
  std::optional<std::string> doc;
  std::optional<std::vector<std::pair<std::string, std::string>>> parameters;
  std::shared_ptr<const Value> default_value;  // nullptr: no default
  std::vector<Field> fields;                   // kStruct, in order
  SchemaPtr key_schema;                        // kMap
  SchemaPtr value_schema;                      // kArray (elements), kMap

  // Java's Schema.INT8_SCHEMA ... and Schema.OPTIONAL_*_SCHEMA, for the primitive types.
  static SchemaPtr Required(Type type) { return Make(type, false); }
  static SchemaPtr Optional(Type type) { return Make(type, true); }

  // The field called `field_name`, or nullptr; with its position in *index when given.
  const Field* field(std::string_view field_name, size_t* index = nullptr) const {
    for (size_t i = 0; i < fields.size(); ++i) {
      if (fields[i].name == field_name) {
        if (index != nullptr) *index = i;
        return &fields[i];
      }
    }
    return nullptr;
  }
  std::optional<std::string_view> parameter(std::string_view key) const {
    if (!parameters) return std::nullopt;
    for (const auto& [k, v] : *parameters) {
      if (k == key) return std::string_view(v);
    }
    return std::nullopt;
  }
  bool isLogical(std::string_view logical_name) const { return name && *name == logical_name; }

 private:
  static SchemaPtr Make(Type type, bool optional) {
    auto s = std::make_shared<Schema>();
    s->type = type;
    s->optional = optional;
    return s;
  }
};

// Java's SchemaBuilder, for schemas beyond the primitive constants.
class SchemaBuilder {
 public:
  explicit SchemaBuilder(Type type) : s_(std::make_shared<Schema>()) { s_->type = type; }
  static SchemaBuilder Struct() { return SchemaBuilder(Type::kStruct); }
  static SchemaBuilder Array(SchemaPtr element) {
    SchemaBuilder b(Type::kArray);
    b.s_->value_schema = std::move(element);
    return b;
  }
  static SchemaBuilder Map(SchemaPtr key, SchemaPtr value) {
    SchemaBuilder b(Type::kMap);
    b.s_->key_schema = std::move(key);
    b.s_->value_schema = std::move(value);
    return b;
  }
  // Decimal.builder(scale), Date.builder(), Time.builder(), Timestamp.builder().
  static SchemaBuilder Decimal(int32_t scale) {
    SchemaBuilder b(Type::kBytes);
    b.name(std::string(kDecimalLogicalName)).version(1).parameter("scale", std::to_string(scale));
    return b;
  }
  static SchemaBuilder Date() { return Logical(Type::kInt32, kDateLogicalName); }
  static SchemaBuilder Time() { return Logical(Type::kInt32, kTimeLogicalName); }
  static SchemaBuilder Timestamp() { return Logical(Type::kInt64, kTimestampLogicalName); }

  SchemaBuilder& optional() {
    s_->optional = true;
    return *this;
  }
  SchemaBuilder& name(std::string n) {
    s_->name = std::move(n);
    return *this;
  }
  SchemaBuilder& version(int32_t v) {
    s_->version = v;
    return *this;
  }
  SchemaBuilder& doc(std::string d) {
    s_->doc = std::move(d);
    return *this;
  }
  SchemaBuilder& parameter(std::string key, std::string value) {
    if (!s_->parameters) s_->parameters.emplace();
    s_->parameters->emplace_back(std::move(key), std::move(value));
    return *this;
  }
  SchemaBuilder& defaultValue(Value value);
  SchemaBuilder& field(std::string field_name, SchemaPtr schema) {
    if (s_->type != Type::kStruct) throw DataException("Cannot add fields to a non-struct schema");
    if (s_->field(field_name) != nullptr) {
      throw DataException("Cannot create field because of field name duplication " + field_name);
    }
    s_->fields.push_back({std::move(field_name), std::move(schema)});
    return *this;
  }
  SchemaPtr build() const { return s_; }

 private:
  static SchemaBuilder Logical(Type type, std::string_view logical_name) {
    SchemaBuilder b(type);
    b.name(std::string(logical_name)).version(1);
    return b;
  }
  std::shared_ptr<Schema> s_;
};

class Value {
 public:
  struct Bytes {
    std::string data;
  };
  struct Decimal {
    std::string unscaled = std::string(1, '\0');  // BigInteger.toByteArray()
    int32_t scale = 0;
  };
  struct Date {
    int64_t epoch_millis = 0;
  };
  using Array = std::vector<Value>;
  using Map = std::vector<std::pair<Value, Value>>;  // in iteration order

  // Index order is the ABI's CONNECTD_VALUE_* order.
  using Variant = std::variant<std::monostate, int8_t, int16_t, int32_t, int64_t, float, double,
                               bool, std::string, Bytes, Array, Map, StructPtr, Decimal, Date>;

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
  static Value OfDecimal(std::string unscaled_twos_complement, int32_t scale) {
    return Value(Decimal{std::move(unscaled_twos_complement), scale});
  }
  static Value OfDate(int64_t epoch_millis) { return Value(Date{epoch_millis}); }

  // CONNECTD_VALUE_*.
  int32_t kind() const { return static_cast<int32_t>(v_.index()); }
  bool isNull() const { return v_.index() == 0; }

  int8_t int8() const { return Get<int8_t>(); }
  int16_t int16() const { return Get<int16_t>(); }
  int32_t int32() const { return Get<int32_t>(); }
  int64_t int64() const { return Get<int64_t>(); }
  float float32() const { return Get<float>(); }
  double float64() const { return Get<double>(); }
  bool boolean() const { return Get<bool>(); }
  const std::string& string() const { return Get<std::string>(); }
  const std::string& bytes() const { return Get<Bytes>().data; }
  const Array& array() const { return Get<Array>(); }
  const Map& map() const { return Get<Map>(); }
  const StructPtr& structure() const { return Get<StructPtr>(); }
  const Decimal& decimal() const { return Get<Decimal>(); }
  int64_t dateMillis() const { return Get<Date>().epoch_millis; }
  const Variant& variant() const { return v_; }

 private:
  template <typename T>
  explicit Value(T v) : v_(std::move(v)) {}
  template <typename T>
  const T& Get() const {
    if (const T* p = std::get_if<T>(&v_)) return *p;
    throw DataException("a Connect value of another type was expected");
  }
  Variant v_;
};

inline SchemaBuilder& SchemaBuilder::defaultValue(Value value) {
  s_->default_value = std::make_shared<const Value>(std::move(value));
  return *this;
}

// Java's Struct: one value per field of a STRUCT schema.
class Struct {
 public:
  explicit Struct(SchemaPtr schema) : schema_(std::move(schema)) {
    if (schema_ == nullptr || schema_->type != Type::kStruct) {
      throw DataException("Not a struct schema: a Struct needs a STRUCT schema");
    }
    values_.resize(schema_->fields.size());
  }
  const SchemaPtr& schema() const { return schema_; }
  const std::vector<Value>& values() const { return values_; }

  // The field's value (null when unset), or DataException for an unknown field.
  const Value& get(std::string_view field_name) const { return values_[Index(field_name)]; }
  Struct& put(std::string_view field_name, Value value) {
    values_[Index(field_name)] = std::move(value);
    return *this;
  }
  Struct& putAt(size_t index, Value value) {
    values_.at(index) = std::move(value);
    return *this;
  }

 private:
  size_t Index(std::string_view field_name) const {
    size_t index = 0;
    if (schema_->field(field_name, &index) == nullptr) {
      throw DataException(std::string(field_name) + " is not a valid field name");
    }
    return index;
  }
  SchemaPtr schema_;
  std::vector<Value> values_;
};

// Connect's SchemaAndValue.
struct SchemaAndValue {
  SchemaPtr schema;
  Value value;
};

// ---- Conversion from the ABI's views (the host's data, valid during a call) -------------------

class AbiReader {
 public:
  SchemaPtr schema(const connectd_schema* s) {
    if (s == nullptr) return nullptr;
    if (auto it = schemas_.find(s); it != schemas_.end()) return it->second;
    auto out = std::make_shared<Schema>();
    schemas_[s] = out;  // before the children: a schema graph is a tree, but be safe
    out->type = static_cast<Type>(s->type);
    out->optional = s->optional != 0;
    if (s->name.data != nullptr) out->name = std::string(FromStr(s->name));
    if (s->has_version != 0) out->version = s->version;
    if (s->doc.data != nullptr) out->doc = std::string(FromStr(s->doc));
    if (s->has_parameters != 0) {
      out->parameters.emplace();
      for (size_t i = 0; i < s->parameter_count; ++i) {
        out->parameters->emplace_back(std::string(FromStr(s->parameters[i].key)),
                                      std::string(FromStr(s->parameters[i].value)));
      }
    }
    for (size_t i = 0; i < s->field_count; ++i) {
      out->fields.push_back({std::string(FromStr(s->fields[i].name)), schema(s->fields[i].schema)});
    }
    out->key_schema = schema(s->key_schema);
    out->value_schema = schema(s->value_schema);
    if (s->default_value != nullptr) {
      out->default_value = std::make_shared<const Value>(value(*s->default_value));
    }
    return out;
  }

  Value value(const connectd_value& v) {
    switch (v.kind) {
      case CONNECTD_VALUE_NULL:
        return Value();
      case CONNECTD_VALUE_INT8:
        return Value::Int8(static_cast<int8_t>(v.i));
      case CONNECTD_VALUE_INT16:
        return Value::Int16(static_cast<int16_t>(v.i));
      case CONNECTD_VALUE_INT32:
        return Value::Int32(static_cast<int32_t>(v.i));
      case CONNECTD_VALUE_INT64:
        return Value::Int64(v.i);
      case CONNECTD_VALUE_FLOAT32:
        return Value::Float32(static_cast<float>(v.f));
      case CONNECTD_VALUE_FLOAT64:
        return Value::Float64(v.f);
      case CONNECTD_VALUE_BOOLEAN:
        return Value::Boolean(v.i != 0);
      case CONNECTD_VALUE_STRING:
        return Value::String(std::string(FromStr(v.str)));
      case CONNECTD_VALUE_BYTES:
        return Value::OfBytes(BytesOf(v.bytes));
      case CONNECTD_VALUE_DECIMAL:
        return Value::OfDecimal(BytesOf(v.bytes), v.decimal_scale);
      case CONNECTD_VALUE_DATE:
        return Value::OfDate(v.i);
      case CONNECTD_VALUE_ARRAY: {
        Value::Array items;
        items.reserve(v.count);
        for (size_t i = 0; i < v.count; ++i) items.push_back(value(v.items[i]));
        return Value::OfArray(std::move(items));
      }
      case CONNECTD_VALUE_MAP: {
        Value::Map entries;
        entries.reserve(v.count);
        for (size_t i = 0; i < v.count; ++i) {
          entries.emplace_back(value(v.items[2 * i]), value(v.items[2 * i + 1]));
        }
        return Value::OfMap(std::move(entries));
      }
      case CONNECTD_VALUE_STRUCT: {
        auto s = std::make_shared<Struct>(schema(v.struct_schema));
        for (size_t i = 0; i < v.count && i < s->values().size(); ++i) {
          s->putAt(i, value(v.items[i]));
        }
        return Value::OfStruct(std::move(s));
      }
      default:
        throw DataException("unknown Connect value kind " + std::to_string(v.kind));
    }
  }

 private:
  static std::string BytesOf(connectd_bytes b) {
    return b.data == nullptr ? std::string()
                             : std::string(static_cast<const char*>(b.data), b.size);
  }
  std::map<const connectd_schema*, SchemaPtr> schemas_;
};

// ---- Conversion to the ABI's views: the writer owns what the views point at -------------------

class AbiWriter {
 public:
  AbiWriter() = default;
  AbiWriter(const AbiWriter&) = delete;
  AbiWriter& operator=(const AbiWriter&) = delete;

  const connectd_schema* schema(const SchemaPtr& s) {
    if (s == nullptr) return nullptr;
    if (auto it = schemas_.find(s.get()); it != schemas_.end()) return it->second;
    connectd_schema& out = schema_store_.emplace_back();
    schemas_[s.get()] = &out;
    out.struct_size = sizeof(connectd_schema);
    out.type = static_cast<int32_t>(s->type);
    out.optional = s->optional ? 1 : 0;
    if (s->name) out.name = ToStr(*s->name);
    out.has_version = s->version ? 1 : 0;
    out.version = s->version.value_or(0);
    if (s->doc) out.doc = ToStr(*s->doc);
    if (s->parameters) {
      std::vector<connectd_kv>& kvs = kv_store_.emplace_back();
      for (const auto& [k, v] : *s->parameters) kvs.push_back({ToStr(k), ToStr(v)});
      out.has_parameters = 1;
      out.parameters = kvs.data();
      out.parameter_count = kvs.size();
    }
    if (!s->fields.empty()) {
      std::vector<connectd_field>& fields = field_store_.emplace_back();
      for (const Field& f : s->fields) fields.push_back({ToStr(f.name), schema(f.schema)});
      out.fields = fields.data();
      out.field_count = fields.size();
    }
    out.key_schema = schema(s->key_schema);
    out.value_schema = schema(s->value_schema);
    if (s->default_value != nullptr) {
      out.default_value = &(single_store_.emplace_back() = value(*s->default_value));
    }
    return &out;
  }

  connectd_value value(const Value& v) {
    connectd_value out{};
    out.kind = v.kind();
    struct Visitor {
      AbiWriter* w;
      connectd_value* out;
      void operator()(std::monostate) {}
      void operator()(int8_t x) { out->i = x; }
      void operator()(int16_t x) { out->i = x; }
      void operator()(int32_t x) { out->i = x; }
      void operator()(int64_t x) { out->i = x; }
      void operator()(float x) { out->f = x; }
      void operator()(double x) { out->f = x; }
      void operator()(bool x) { out->i = x ? 1 : 0; }
      void operator()(const std::string& x) { out->str = ToStr(x); }
      void operator()(const Value::Bytes& x) { out->bytes = {x.data.data(), x.data.size()}; }
      void operator()(const Value::Decimal& x) {
        out->bytes = {x.unscaled.data(), x.unscaled.size()};
        out->decimal_scale = x.scale;
      }
      void operator()(const Value::Date& x) { out->i = x.epoch_millis; }
      void operator()(const Value::Array& x) {
        std::vector<connectd_value>& items = w->value_store_.emplace_back();
        items.reserve(x.size());
        for (const Value& item : x) items.push_back(w->value(item));
        out->items = items.data();
        out->count = x.size();
      }
      void operator()(const Value::Map& x) {
        std::vector<connectd_value>& items = w->value_store_.emplace_back();
        items.reserve(2 * x.size());
        for (const auto& [k, val] : x) {
          items.push_back(w->value(k));
          items.push_back(w->value(val));
        }
        out->items = items.data();
        out->count = x.size();
      }
      void operator()(const StructPtr& x) {
        if (x == nullptr) {
          out->kind = CONNECTD_VALUE_NULL;
          return;
        }
        std::vector<connectd_value>& items = w->value_store_.emplace_back();
        items.reserve(x->values().size());
        for (const Value& item : x->values()) items.push_back(w->value(item));
        out->items = items.data();
        out->count = items.size();
        out->struct_schema = w->schema(x->schema());
      }
    };
    std::visit(Visitor{this, &out}, v.variant());
    return out;
  }

 private:
  std::deque<connectd_schema> schema_store_;
  std::deque<std::vector<connectd_kv>> kv_store_;
  std::deque<std::vector<connectd_field>> field_store_;
  std::deque<std::vector<connectd_value>> value_store_;
  std::deque<connectd_value> single_store_;
  std::map<const Schema*, const connectd_schema*> schemas_;
};

}  // namespace connectd::sdk
