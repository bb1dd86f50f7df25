#include "runtime/data/value.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "jvm/java_hash_order.h"
#include "jvm/java_text.h"
#include "runtime/common/strings.h"

namespace connectd::data {
namespace {

// Float.floatToIntBits / Double.doubleToLongBits: every NaN is the canonical one.
template <typename Bits, typename Float>
Bits JavaFloatBits(Float v) {
  if (v != v)
    return sizeof(Float) == 4 ? static_cast<Bits>(0x7fc00000u)
                              : static_cast<Bits>(0x7ff8000000000000u);
  Bits bits;
  std::memcpy(&bits, &v, sizeof bits);
  return bits;
}

bool MapsEqual(const Value::Map& a, const Value::Map& b) {
  if (a.size() != b.size()) return false;
  for (const auto& [key, value] : a) {
    bool found = false;
    for (const auto& [other_key, other_value] : b) {
      if (key == other_key) {
        found = value == other_value;
        break;
      }
    }
    if (!found) return false;
  }
  return true;
}

bool KindMatches(const Schema& schema, Value::Kind kind) {
  if (schema.IsLogical(kDecimalLogicalName)) return kind == Value::Kind::kDecimal;
  if (schema.IsLogical(kDateLogicalName) || schema.IsLogical(kTimeLogicalName) ||
      schema.IsLogical(kTimestampLogicalName)) {
    return kind == Value::Kind::kDate;
  }
  const std::optional<Type> type = SchemaTypeOf(kind);
  return type && *type == schema.type;
}

}  // namespace

bool Value::operator==(const Value& o) const {
  if (kind() != o.kind()) return false;
  switch (kind()) {
    case Kind::kFloat32:
      return JavaFloatBits<uint32_t>(float32()) == JavaFloatBits<uint32_t>(o.float32());
    case Kind::kFloat64:
      return JavaFloatBits<uint64_t>(float64()) == JavaFloatBits<uint64_t>(o.float64());
    case Kind::kMap:
      return MapsEqual(map(), o.map());
    case Kind::kStruct:
      return structure() == o.structure() || *structure() == *o.structure();
    default:
      return v_ == o.v_;
  }
}

std::string_view JavaClassName(Value::Kind kind) {
  static constexpr std::array<std::string_view, 15> kNames = {
      "null",
      "class java.lang.Byte",
      "class java.lang.Short",
      "class java.lang.Integer",
      "class java.lang.Long",
      "class java.lang.Float",
      "class java.lang.Double",
      "class java.lang.Boolean",
      "class java.lang.String",
      "class [B",
      "class java.util.ArrayList",
      "class java.util.HashMap",
      "class org.apache.kafka.connect.data.Struct",
      "class java.math.BigDecimal",
      "class java.util.Date"};
  return kNames[static_cast<size_t>(kind)];
}

std::optional<Type> SchemaTypeOf(Value::Kind kind) {
  switch (kind) {
    case Value::Kind::kInt8:
      return Type::kInt8;
    case Value::Kind::kInt16:
      return Type::kInt16;
    case Value::Kind::kInt32:
      return Type::kInt32;
    case Value::Kind::kInt64:
      return Type::kInt64;
    case Value::Kind::kFloat32:
      return Type::kFloat32;
    case Value::Kind::kFloat64:
      return Type::kFloat64;
    case Value::Kind::kBoolean:
      return Type::kBoolean;
    case Value::Kind::kString:
      return Type::kString;
    case Value::Kind::kBytes:
      return Type::kBytes;
    case Value::Kind::kArray:
      return Type::kArray;
    case Value::Kind::kMap:
      return Type::kMap;
    case Value::Kind::kStruct:
      return Type::kStruct;
    default:
      return std::nullopt;
  }
}

absl::Status ValidateValue(const Schema& schema, const Value& value, std::string_view location) {
  if (value.is_null()) {
    if (schema.optional) return absl::OkStatus();
    return absl::InvalidArgumentError(
        absl::StrCat("Invalid value: null used for required ", AsAbsl(location),
                     ", schema type: ", AsAbsl(TypeName(schema.type))));
  }
  if (!KindMatches(schema, value.kind())) {
    std::string message = "Invalid Java object for schema";
    if (schema.name) absl::StrAppend(&message, " \"", *schema.name, "\"");
    absl::StrAppend(&message, " with type ", AsAbsl(TypeName(schema.type)), ": ",
                    AsAbsl(JavaClassName(value.kind())), " for ", AsAbsl(location));
    return absl::InvalidArgumentError(message);
  }
  switch (schema.type) {
    case Type::kStruct: {
      const Struct& s = *value.structure();
      if (!SchemaEquals(s.schema().get(), &schema)) {
        return absl::InvalidArgumentError("Struct schemas do not match.");
      }
      return s.Validate();
    }
    case Type::kArray: {
      const std::string entry_location = absl::StrCat("element of array ", AsAbsl(location));
      if (!schema.value_schema) {
        return absl::InvalidArgumentError(absl::StrCat("No schema defined for ", entry_location));
      }
      for (const Value& element : value.array()) {
        if (absl::Status s = ValidateValue(*schema.value_schema, element, entry_location);
            !s.ok()) {
          return s;
        }
      }
      return absl::OkStatus();
    }
    case Type::kMap: {
      const std::string key_location = absl::StrCat("key of map ", AsAbsl(location));
      const std::string value_location = absl::StrCat("value of map ", AsAbsl(location));
      if (!schema.key_schema) {
        return absl::InvalidArgumentError(absl::StrCat("No schema defined for ", key_location));
      }
      if (!schema.value_schema) {
        return absl::InvalidArgumentError(absl::StrCat("No schema defined for ", value_location));
      }
      for (const auto& [k, v] : value.map()) {
        if (absl::Status s = ValidateValue(*schema.key_schema, k, key_location); !s.ok()) return s;
        if (absl::Status s = ValidateValue(*schema.value_schema, v, value_location); !s.ok()) {
          return s;
        }
      }
      return absl::OkStatus();
    }
    default:
      return absl::OkStatus();
  }
}

int32_t JavaHashCode(const Value& value) {
  switch (value.kind()) {
    case Value::Kind::kNull:
      return 0;
    case Value::Kind::kInt8:
      return value.int8();
    case Value::Kind::kInt16:
      return value.int16();
    case Value::Kind::kInt32:
      return value.int32();
    case Value::Kind::kInt64: {
      const auto v = static_cast<uint64_t>(value.int64());
      return static_cast<int32_t>(v ^ (v >> 32));
    }
    case Value::Kind::kFloat32:
      return static_cast<int32_t>(JavaFloatBits<uint32_t>(value.float32()));
    case Value::Kind::kFloat64: {
      const uint64_t bits = JavaFloatBits<uint64_t>(value.float64());
      return static_cast<int32_t>(bits ^ (bits >> 32));
    }
    case Value::Kind::kBoolean:
      return value.boolean() ? 1231 : 1237;
    case Value::Kind::kString:
      return jvm::JavaStringHashCode(value.string());
    case Value::Kind::kArray: {
      uint32_t h = 1;
      for (const Value& e : value.array()) h = 31 * h + static_cast<uint32_t>(JavaHashCode(e));
      return static_cast<int32_t>(h);
    }
    case Value::Kind::kMap: {
      uint32_t h = 0;
      for (const auto& [k, v] : value.map()) {
        h += static_cast<uint32_t>(JavaHashCode(k) ^ JavaHashCode(v));
      }
      return static_cast<int32_t>(h);
    }
    case Value::Kind::kDecimal:
      return JavaHashCode(value.decimal());
    case Value::Kind::kDate: {
      const auto v = static_cast<uint64_t>(value.date_millis());
      return static_cast<int32_t>(v ^ (v >> 32));
    }
    // byte[] hashes by identity and a Struct's hash includes enum identity hashes: no stable
    // Java order exists for such keys.
    case Value::Kind::kBytes:
    case Value::Kind::kStruct:
      return 0;
  }
  return 0;
}

std::string JavaToString(const Value& value) {
  switch (value.kind()) {
    case Value::Kind::kNull:
      return "null";
    case Value::Kind::kInt8:
      return std::to_string(value.int8());
    case Value::Kind::kInt16:
      return std::to_string(value.int16());
    case Value::Kind::kInt32:
      return std::to_string(value.int32());
    case Value::Kind::kInt64:
      return std::to_string(value.int64());
    case Value::Kind::kFloat32:
      return jvm::FormatJavaFloat(value.float32());
    case Value::Kind::kFloat64:
      return jvm::FormatJavaDouble(value.float64());
    case Value::Kind::kBoolean:
      return value.boolean() ? "true" : "false";
    case Value::Kind::kString:
      return value.string();
    case Value::Kind::kBytes:
      return value.bytes();
    case Value::Kind::kDecimal:
      return ToJavaString(value.decimal());
    case Value::Kind::kArray: {
      std::string out = "[";
      for (size_t i = 0; i < value.array().size(); ++i) {
        if (i) out += ", ";
        out += JavaToString(value.array()[i]);
      }
      return out + "]";
    }
    case Value::Kind::kMap: {
      std::string out = "{";
      bool first = true;
      for (const auto& [k, v] : value.map()) {
        if (!first) out += ", ";
        first = false;
        out += JavaToString(k) + "=" + JavaToString(v);
      }
      return out + "}";
    }
    case Value::Kind::kStruct: {
      std::string out = "Struct{";
      bool first = true;
      const Struct& s = *value.structure();
      for (const Field& f : s.schema()->fields) {
        const Value& v = s.At(static_cast<size_t>(f.index));
        if (v.is_null()) continue;
        if (!first) out += ",";
        first = false;
        out += f.name + "=" + JavaToString(v);
      }
      return out + "}";
    }
    case Value::Kind::kDate: {
      // java.util.Date.toString(): "EEE MMM dd HH:mm:ss zzz yyyy".
      static constexpr const char* kDays[] = {"Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"};
      static constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
      const int64_t millis = value.date_millis();
      int64_t days = millis / 86400000 - (millis % 86400000 < 0 ? 1 : 0);
      const int64_t ms_of_day = millis - days * 86400000;
      const int64_t weekday = ((days % 7) + 7) % 7;
      // Civil date from days since the epoch (Howard Hinnant's algorithm).
      const int64_t z = days + 719468;
      const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
      const int64_t doe = z - era * 146097;
      const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
      const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
      const int64_t mp = (5 * doy + 2) / 153;
      const int64_t day = doy - (153 * mp + 2) / 5 + 1;
      const int64_t month = mp < 10 ? mp + 3 : mp - 9;
      const int64_t year = yoe + era * 400 + (month <= 2 ? 1 : 0);
      char buffer[64];
      std::snprintf(buffer, sizeof buffer, "%s %s %02d %02d:%02d:%02d UTC %lld", kDays[weekday],
                    kMonths[month - 1], static_cast<int>(day),
                    static_cast<int>(ms_of_day / 3600000), static_cast<int>(ms_of_day / 60000 % 60),
                    static_cast<int>(ms_of_day / 1000 % 60), static_cast<long long>(year));
      return buffer;
    }
  }
  return "";
}

Value::Map JavaHashMap(Value::Map entries, size_t initial_capacity) {
  // Keys equal in Java have equal hash codes, so only keys of one hash code are compared.
  // Small maps (the usual record) are scanned; larger ones index their entries by hash.
  constexpr size_t kScanned = 32;
  Value::Map distinct;
  std::vector<int32_t> hash_codes;
  absl::flat_hash_map<int32_t, std::vector<size_t>> by_hash;
  distinct.reserve(entries.size());
  hash_codes.reserve(entries.size());
  for (auto& [key, value] : entries) {
    const int32_t hash = JavaHashCode(key);
    size_t same = distinct.size();
    if (distinct.size() <= kScanned) {
      for (size_t i = 0; i < distinct.size(); ++i) {
        if (hash_codes[i] == hash && distinct[i].first == key) {
          same = i;
          break;
        }
      }
      if (same == distinct.size() && distinct.size() == kScanned) {
        for (size_t i = 0; i < distinct.size(); ++i) by_hash[hash_codes[i]].push_back(i);
      }
    } else {
      const std::vector<size_t>& same_hash = by_hash[hash];
      const Value& wanted = key;  // clang 14 cannot capture a structured binding
      auto found = std::find_if(same_hash.begin(), same_hash.end(),
                                [&](size_t i) { return distinct[i].first == wanted; });
      if (found != same_hash.end()) same = *found;
    }
    if (same != distinct.size()) {
      distinct[same].second = std::move(value);
      continue;
    }
    if (distinct.size() >= kScanned) by_hash[hash].push_back(distinct.size());
    hash_codes.push_back(hash);
    distinct.emplace_back(std::move(key), std::move(value));
  }
  Value::Map ordered;
  ordered.reserve(distinct.size());
  for (size_t index : jvm::JavaHashMapIterationOrder(hash_codes, initial_capacity)) {
    ordered.push_back(std::move(distinct[index]));
  }
  return ordered;
}

Struct::Struct(SchemaPtr schema) : schema_(std::move(schema)), values_(schema_->fields.size()) {}

absl::Status Struct::Put(std::string_view field, Value value) {
  const Field* f = schema_->FindField(field);
  if (f == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(AsAbsl(field), " is not a valid field name"));
  }
  if (absl::Status s = ValidateValue(*f->schema, value, absl::StrCat("field: \"", f->name, "\""));
      !s.ok()) {
    return s;
  }
  values_[static_cast<size_t>(f->index)] = std::move(value);
  return absl::OkStatus();
}

const Value* Struct::GetWithoutDefault(std::string_view field) const {
  const Field* f = schema_->FindField(field);
  return f == nullptr ? nullptr : &values_[static_cast<size_t>(f->index)];
}

const Value* Struct::Get(std::string_view field) const {
  const Field* f = schema_->FindField(field);
  if (f == nullptr) return nullptr;
  const Value& v = values_[static_cast<size_t>(f->index)];
  if (v.is_null() && f->schema->default_value) return f->schema->default_value.get();
  return &v;
}

absl::Status Struct::Validate() const {
  for (const Field& f : schema_->fields) {
    const Value& v = values_[static_cast<size_t>(f.index)];
    if (v.is_null() && (f.schema->optional || f.schema->default_value)) continue;
    if (absl::Status s = ValidateValue(*f.schema, v, absl::StrCat("field: \"", f.name, "\""));
        !s.ok()) {
      return s;
    }
  }
  return absl::OkStatus();
}

bool Struct::operator==(const Struct& o) const {
  return SchemaEquals(schema_, o.schema_) && values_ == o.values_;
}

}  // namespace connectd::data
