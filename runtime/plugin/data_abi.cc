#include "runtime/plugin/data_abi.h"

#include <string_view>
#include <utility>

#include "absl/strings/str_cat.h"
#include "runtime/common/status_macros.h"
#include "runtime/common/strings.h"
#include "runtime/data/decimal.h"
#include "runtime/plugin/abi_strings.h"

namespace connectd::plugin {
namespace {

using data::Type;
using data::Value;

bool Garbage(const void* data, size_t size) { return data == nullptr && size > 0; }

absl::Status Malformed(std::string_view what) {
  return absl::InvalidArgumentError(
      absl::StrCat("malformed Connect data from a plugin: ", AsAbsl(what)));
}

absl::StatusOr<std::optional<std::string>> OptionalString(connectd_str s) {
  if (Garbage(s.data, s.size)) return Malformed("a string with NULL data and a size");
  if (s.data == nullptr) return std::optional<std::string>();
  return std::optional<std::string>(std::string(s.data, s.size));
}

}  // namespace

absl::StatusOr<data::SchemaPtr> DataReader::ReadSchema(const connectd_schema* s, int depth) {
  if (s == nullptr) return data::SchemaPtr();
  if (auto it = schemas_.find(s); it != schemas_.end()) return it->second;
  if (depth > kMaxDataDepth) return Malformed("schemas nested too deeply (or a cycle)");
  if (s->struct_size < sizeof(connectd_schema)) return Malformed("a schema shorter than ABI 1.5's");
  if (s->type < CONNECTD_TYPE_INT8 || s->type > CONNECTD_TYPE_STRUCT) {
    return Malformed(absl::StrCat("unknown schema type ", s->type));
  }
  data::Schema out = data::Schema::Of(static_cast<Type>(s->type));
  out.optional = s->optional != 0;
  CONNECTD_ASSIGN_OR_RETURN(out.name, OptionalString(s->name));
  if (s->has_version != 0) out.version = s->version;
  CONNECTD_ASSIGN_OR_RETURN(out.doc, OptionalString(s->doc));
  if (s->has_parameters != 0) {
    if (Garbage(s->parameters, s->parameter_count)) return Malformed("NULL schema parameters");
    out.parameters.emplace();
    for (size_t i = 0; i < s->parameter_count; ++i) {
      const connectd_kv& kv = s->parameters[i];
      if (Garbage(kv.key.data, kv.key.size) || Garbage(kv.value.data, kv.value.size)) {
        return Malformed("a schema parameter with NULL data and a size");
      }
      out.parameters->emplace_back(std::string(View(kv.key)), std::string(View(kv.value)));
    }
  }
  if (Garbage(s->fields, s->field_count)) return Malformed("NULL struct fields");
  if (s->field_count > 0 && out.type != Type::kStruct) {
    return Malformed("fields on a schema that is not a STRUCT");
  }
  for (size_t i = 0; i < s->field_count; ++i) {
    const connectd_field& f = s->fields[i];
    if (Garbage(f.name.data, f.name.size)) return Malformed("a field name with NULL data");
    if (f.schema == nullptr) return Malformed("a struct field without a schema");
    if (out.FindField(View(f.name)) != nullptr) {
      return Malformed(absl::StrCat("duplicate field name ", AsAbsl(View(f.name))));
    }
    CONNECTD_ASSIGN_OR_RETURN(data::SchemaPtr field_schema, ReadSchema(f.schema, depth + 1));
    out.AddField(std::string(View(f.name)), std::move(field_schema));
  }
  if (out.type == Type::kArray && s->value_schema == nullptr) {
    return Malformed("an ARRAY schema without an element schema");
  }
  if (out.type == Type::kMap && (s->key_schema == nullptr || s->value_schema == nullptr)) {
    return Malformed("a MAP schema without key and value schemas");
  }
  if (out.type == Type::kArray || out.type == Type::kMap) {
    CONNECTD_ASSIGN_OR_RETURN(out.value_schema, ReadSchema(s->value_schema, depth + 1));
  }
  if (out.type == Type::kMap) {
    CONNECTD_ASSIGN_OR_RETURN(out.key_schema, ReadSchema(s->key_schema, depth + 1));
  }
  if (s->default_value != nullptr) {
    CONNECTD_ASSIGN_OR_RETURN(Value default_value, ReadValue(*s->default_value, depth + 1));
    out.default_value = std::make_shared<const Value>(std::move(default_value));
  }
  data::SchemaPtr frozen = data::Freeze(std::move(out));
  schemas_[s] = frozen;
  return frozen;
}

absl::StatusOr<Value> DataReader::ReadValue(const connectd_value& v, int depth) {
  if (depth > kMaxDataDepth) return Malformed("values nested too deeply");
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
    case CONNECTD_VALUE_DATE:
      return Value::OfDate(v.i);
    case CONNECTD_VALUE_STRING:
      if (Garbage(v.str.data, v.str.size)) return Malformed("a string with NULL data and a size");
      return Value::String(std::string(View(v.str)));
    case CONNECTD_VALUE_BYTES:
      if (Garbage(v.bytes.data, v.bytes.size)) return Malformed("bytes with NULL data and a size");
      return Value::OfBytes(
          v.bytes.data == nullptr
              ? std::string()
              : std::string(static_cast<const char*>(v.bytes.data), v.bytes.size));
    case CONNECTD_VALUE_DECIMAL: {
      if (v.bytes.data == nullptr || v.bytes.size == 0) {
        return Malformed("a decimal without unscaled bytes");
      }
      data::Decimal d;
      d.unscaled = data::MinimalTwosComplement(
          std::string_view(static_cast<const char*>(v.bytes.data), v.bytes.size));
      d.scale = v.decimal_scale;
      return Value::OfDecimal(std::move(d));
    }
    case CONNECTD_VALUE_ARRAY: {
      if (Garbage(v.items, v.count)) return Malformed("an array with NULL items");
      Value::Array items;
      items.reserve(v.count);
      for (size_t i = 0; i < v.count; ++i) {
        CONNECTD_ASSIGN_OR_RETURN(Value item, ReadValue(v.items[i], depth + 1));
        items.push_back(std::move(item));
      }
      return Value::OfArray(std::move(items));
    }
    case CONNECTD_VALUE_MAP: {
      if (Garbage(v.items, v.count)) return Malformed("a map with NULL items");
      Value::Map entries;
      entries.reserve(v.count);
      for (size_t i = 0; i < v.count; ++i) {
        CONNECTD_ASSIGN_OR_RETURN(Value key, ReadValue(v.items[2 * i], depth + 1));
        CONNECTD_ASSIGN_OR_RETURN(Value value, ReadValue(v.items[2 * i + 1], depth + 1));
        entries.emplace_back(std::move(key), std::move(value));
      }
      return Value::OfMap(std::move(entries));
    }
    case CONNECTD_VALUE_STRUCT: {
      CONNECTD_ASSIGN_OR_RETURN(data::SchemaPtr schema, ReadSchema(v.struct_schema, depth + 1));
      if (schema == nullptr || schema->type != Type::kStruct) {
        return Malformed("a STRUCT value without a STRUCT schema");
      }
      if (v.count != schema->fields.size() || Garbage(v.items, v.count)) {
        return Malformed(absl::StrCat("a STRUCT value with ", v.count, " values for ",
                                      schema->fields.size(), " fields"));
      }
      data::Struct s(schema);
      for (size_t i = 0; i < v.count; ++i) {
        CONNECTD_ASSIGN_OR_RETURN(Value field, ReadValue(v.items[i], depth + 1));
        s.PutUnchecked(i, std::move(field));
      }
      return data::StructValue(std::move(s));
    }
    default:
      return Malformed(absl::StrCat("unknown value kind ", v.kind));
  }
}

absl::StatusOr<transforms::ConnectRecord> DataReader::ReadRecord(const connectd_connect_record& r) {
  if (r.struct_size < sizeof(connectd_connect_record)) {
    return Malformed("a record shorter than ABI 1.5's");
  }
  transforms::ConnectRecord out;
  if (Garbage(r.topic.data, r.topic.size) || r.topic.size == 0) {
    return Malformed("a record without a topic");
  }
  out.topic = std::string(View(r.topic));
  if (r.partition != CONNECTD_ANY_PARTITION) out.kafka_partition = r.partition;
  CONNECTD_ASSIGN_OR_RETURN(out.key_schema, ReadSchema(r.key_schema));
  CONNECTD_ASSIGN_OR_RETURN(out.key, ReadValue(r.key));
  CONNECTD_ASSIGN_OR_RETURN(out.value_schema, ReadSchema(r.value_schema));
  CONNECTD_ASSIGN_OR_RETURN(out.value, ReadValue(r.value));
  if (r.timestamp_ms != CONNECTD_NO_TIMESTAMP) out.timestamp = r.timestamp_ms;
  if (Garbage(r.headers, r.header_count)) return Malformed("NULL headers");
  for (size_t i = 0; i < r.header_count; ++i) {
    const connectd_connect_header& h = r.headers[i];
    if (Garbage(h.key.data, h.key.size)) return Malformed("a header key with NULL data");
    transforms::Header header;
    header.key = std::string(View(h.key));
    CONNECTD_ASSIGN_OR_RETURN(header.schema, ReadSchema(h.schema));
    CONNECTD_ASSIGN_OR_RETURN(header.value, ReadValue(h.value));
    out.headers.push_back(std::move(header));
  }
  if (r.has_kafka_offset != 0) out.kafka_offset = r.kafka_offset;
  return out;
}

const connectd_schema* DataWriter::WriteSchema(const data::SchemaPtr& s) {
  if (s == nullptr) return nullptr;
  if (auto it = schemas_.find(s.get()); it != schemas_.end()) return it->second;
  connectd_schema& out = schema_store_.emplace_back();
  schemas_[s.get()] = &out;
  written_schemas_.push_back(s);
  out.struct_size = sizeof(connectd_schema);
  out.type = static_cast<int32_t>(s->type);
  out.optional = s->optional ? 1 : 0;
  if (s->name) out.name = {s->name->data(), s->name->size()};
  out.has_version = s->version ? 1 : 0;
  out.version = s->version.value_or(0);
  if (s->doc) out.doc = {s->doc->data(), s->doc->size()};
  if (s->parameters) {
    std::vector<connectd_kv>& kvs = kv_store_.emplace_back();
    for (const auto& [k, v] : *s->parameters) {
      kvs.push_back({{k.data(), k.size()}, {v.data(), v.size()}});
    }
    out.has_parameters = 1;
    out.parameters = kvs.data();
    out.parameter_count = kvs.size();
  }
  if (!s->fields.empty()) {
    std::vector<connectd_field>& fields = field_store_.emplace_back();
    fields.reserve(s->fields.size());
    for (const data::Field& f : s->fields) {
      fields.push_back({{f.name.data(), f.name.size()}, WriteSchema(f.schema)});
    }
    out.fields = fields.data();
    out.field_count = fields.size();
  }
  out.key_schema = WriteSchema(s->key_schema);
  out.value_schema = WriteSchema(s->value_schema);
  if (s->default_value != nullptr) {
    connectd_value& default_value = single_store_.emplace_back();
    default_value = WriteValue(*s->default_value);
    out.default_value = &default_value;
  }
  return &out;
}

connectd_value DataWriter::WriteValue(const data::Value& v) {
  connectd_value out{};
  out.kind = static_cast<int32_t>(v.kind());  // Value::Kind is CONNECTD_VALUE_*'s order
  switch (v.kind()) {
    case data::Value::Kind::kNull:
      break;
    case data::Value::Kind::kInt8:
      out.i = v.int8();
      break;
    case data::Value::Kind::kInt16:
      out.i = v.int16();
      break;
    case data::Value::Kind::kInt32:
      out.i = v.int32();
      break;
    case data::Value::Kind::kInt64:
      out.i = v.int64();
      break;
    case data::Value::Kind::kFloat32:
      out.f = v.float32();
      break;
    case data::Value::Kind::kFloat64:
      out.f = v.float64();
      break;
    case data::Value::Kind::kBoolean:
      out.i = v.boolean() ? 1 : 0;
      break;
    case data::Value::Kind::kString:
      out.str = {v.string().data(), v.string().size()};
      break;
    case data::Value::Kind::kBytes:
      out.bytes = {v.bytes().data(), v.bytes().size()};
      break;
    case data::Value::Kind::kDecimal:
      out.bytes = {v.decimal().unscaled.data(), v.decimal().unscaled.size()};
      out.decimal_scale = v.decimal().scale;
      break;
    case data::Value::Kind::kDate:
      out.i = v.date_millis();
      break;
    case data::Value::Kind::kArray: {
      std::vector<connectd_value>& items = value_store_.emplace_back();
      items.reserve(v.array().size());
      for (const data::Value& item : v.array()) items.push_back(WriteValue(item));
      out.items = items.data();
      out.count = items.size();
      break;
    }
    case data::Value::Kind::kMap: {
      std::vector<connectd_value>& items = value_store_.emplace_back();
      items.reserve(2 * v.map().size());
      for (const auto& [key, value] : v.map()) {
        items.push_back(WriteValue(key));
        items.push_back(WriteValue(value));
      }
      out.items = items.data();
      out.count = v.map().size();
      break;
    }
    case data::Value::Kind::kStruct: {
      const data::Struct& s = *v.structure();
      std::vector<connectd_value>& items = value_store_.emplace_back();
      items.reserve(s.schema()->fields.size());
      for (size_t i = 0; i < s.schema()->fields.size(); ++i) items.push_back(WriteValue(s.At(i)));
      out.items = items.data();
      out.count = items.size();
      out.struct_schema = WriteSchema(s.schema());
      break;
    }
  }
  return out;
}

void DataWriter::WriteRecord(const transforms::ConnectRecord& r, connectd_connect_record* out) {
  *out = connectd_connect_record{};
  out->struct_size = sizeof(connectd_connect_record);
  out->topic = {r.topic.data(), r.topic.size()};
  out->partition = r.kafka_partition.value_or(CONNECTD_ANY_PARTITION);
  out->key_schema = WriteSchema(r.key_schema);
  out->key = WriteValue(r.key);
  out->value_schema = WriteSchema(r.value_schema);
  out->value = WriteValue(r.value);
  out->timestamp_ms = r.timestamp.value_or(CONNECTD_NO_TIMESTAMP);
  headers_.clear();
  headers_.reserve(r.headers.size());
  for (const transforms::Header& h : r.headers) {
    headers_.push_back({{h.key.data(), h.key.size()}, WriteSchema(h.schema), WriteValue(h.value)});
  }
  out->headers = headers_.data();
  out->header_count = headers_.size();
  out->has_kafka_offset = r.kafka_offset ? 1 : 0;
  out->kafka_offset = r.kafka_offset.value_or(-1);
}

const connectd_schema* OptionalBytesSchema() {
  static const connectd_schema kSchema = [] {
    connectd_schema s{};
    s.struct_size = sizeof(connectd_schema);
    s.type = CONNECTD_TYPE_BYTES;
    s.optional = 1;
    return s;
  }();
  return &kSchema;
}

connectd_value BytesView(connectd_bytes bytes) {
  connectd_value v{};
  v.kind = bytes.data == nullptr ? CONNECTD_VALUE_NULL : CONNECTD_VALUE_BYTES;
  v.bytes = bytes;
  return v;
}

}  // namespace connectd::plugin
