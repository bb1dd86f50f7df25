// The transforms that add, remove, rename, mask or move fields: InsertField, ReplaceField,
// MaskField, ValueToKey, ExtractField, HoistField, SetSchemaMetadata. Each follows its Java class
// (connect-transforms 4.4): schemaless values are java.util.HashMaps (so their order is
// HashMap's), structs get a schema built as SchemaUtil.copySchemaBasics does, and every error
// carries Java's message.
#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "jvm/java_hash_order.h"
#include "runtime/common/status_macros.h"
#include "runtime/common/strings.h"
#include "runtime/data/decimal.h"
#include "runtime/transforms/builtin.h"
#include "runtime/transforms/field_path.h"

namespace connectd::transforms::builtin {
namespace {

using config::ConfigDef;
using config::ConfigKey;
using config::Importance;
using data::Schema;
using data::SchemaPtr;
using data::Type;
using data::Value;

using Result = absl::StatusOr<std::optional<ConnectRecord>>;

ConfigKey StringKey(std::string name, std::optional<std::string> default_value, std::string doc) {
  return ConfigKey{.name = std::move(name),
                   .type = config::Type::kString,
                   .default_value = std::move(default_value),
                   .importance = Importance::kMedium,
                   .documentation = std::move(doc)};
}

ConfigKey RequiredKey(std::string name, config::Type type, std::string doc) {
  return ConfigKey{.name = std::move(name),
                   .type = type,
                   .has_default = false,
                   .importance = Importance::kHigh,
                   .documentation = std::move(doc)};
}

// ---- InsertField ------------------------------------------------------------------------

struct InsertionSpec {
  std::string name;
  bool optional = true;
  // InsertionSpec.parse: "name!" required, "name?" or "name" optional.
  static std::optional<InsertionSpec> Parse(const std::optional<std::string>& spec) {
    if (!spec) return std::nullopt;
    if (!spec->empty() && spec->back() == '?')
      return InsertionSpec{spec->substr(0, spec->size() - 1), true};
    if (!spec->empty() && spec->back() == '!')
      return InsertionSpec{spec->substr(0, spec->size() - 1), false};
    return InsertionSpec{*spec, true};
  }
};

class InsertField final : public Transformation {
 public:
  explicit InsertField(Operand operand) : operand_(operand) {}

  absl::Status Configure(const Configs& configs) override {
    ConfigDef def;
    for (const char* key : {"topic.field", "partition.field", "offset.field", "timestamp.field",
                            "static.field", "static.value"}) {
      def.Define(StringKey(key, std::nullopt, ""));
    }
    def.Define(ReplaceNullWithDefaultKey());
    CONNECTD_ASSIGN_OR_RETURN(config::ParsedConfig config, ParseTransformConfig(def, configs));
    topic_ = InsertionSpec::Parse(config.GetString("topic.field"));
    partition_ = InsertionSpec::Parse(config.GetString("partition.field"));
    offset_ = InsertionSpec::Parse(config.GetString("offset.field"));
    timestamp_ = InsertionSpec::Parse(config.GetString("timestamp.field"));
    static_field_ = InsertionSpec::Parse(config.GetString("static.field"));
    static_value_ = config.GetString("static.value");
    replace_null_with_default_ = config.GetBool("replace.null.with.default");
    if (!topic_ && !partition_ && !offset_ && !timestamp_ && !static_field_) {
      return absl::InvalidArgumentError("No field insertion configured");
    }
    if (static_field_ && !static_value_) {
      // Java prints the spec object's identity (InsertField$InsertionSpec@<hash>).
      return absl::InvalidArgumentError(
          "Invalid value null for configuration static.value: No value specified for static "
          "field: org.apache.kafka.connect.transforms.InsertField$InsertionSpec@<hash>");
    }
    return absl::OkStatus();
  }

  Result Apply(ConnectRecord record) override {
    const Value& value = OperatingValue(record, operand_);
    if (value.is_null()) return record;
    if (OperatingSchema(record, operand_) == nullptr) {
      CONNECTD_RETURN_IF_ERROR(RequireMap(value, kPurpose));
      JavaHashMapEdit updated(value.map());
      if (topic_) updated.Put(topic_->name, Value::String(record.topic));
      if (partition_ && record.kafka_partition) {
        updated.Put(partition_->name, Value::Int32(*record.kafka_partition));
      }
      if (offset_) {
        CONNECTD_RETURN_IF_ERROR(RequireSinkRecord(record, kPurpose));
        updated.Put(offset_->name, Value::Int64(*record.kafka_offset));
      }
      if (timestamp_ && record.timestamp) {
        updated.Put(timestamp_->name, Value::Int64(*record.timestamp));
      }
      if (static_field_ && static_value_) {
        updated.Put(static_field_->name, Value::String(*static_value_));
      }
      Value out = std::move(updated).Build();
      return WithOperand(std::move(record), operand_, nullptr, std::move(out));
    }
    CONNECTD_RETURN_IF_ERROR(RequireStruct(value, kPurpose));
    const data::Struct& original = *value.structure();
    CONNECTD_ASSIGN_OR_RETURN(SchemaPtr schema, UpdatedSchema(*original.schema()));
    data::Struct updated(schema);
    for (const data::Field& f : original.schema()->fields) {
      CONNECTD_RETURN_IF_ERROR(
          updated.Put(f.name, FieldValue(original, f, replace_null_with_default_)));
    }
    if (topic_) CONNECTD_RETURN_IF_ERROR(updated.Put(topic_->name, Value::String(record.topic)));
    if (partition_ && record.kafka_partition) {
      CONNECTD_RETURN_IF_ERROR(
          updated.Put(partition_->name, Value::Int32(*record.kafka_partition)));
    }
    if (offset_) {
      CONNECTD_RETURN_IF_ERROR(RequireSinkRecord(record, kPurpose));
      CONNECTD_RETURN_IF_ERROR(updated.Put(offset_->name, Value::Int64(*record.kafka_offset)));
    }
    if (timestamp_ && record.timestamp) {
      CONNECTD_RETURN_IF_ERROR(updated.Put(timestamp_->name, Value::OfDate(*record.timestamp)));
    }
    if (static_field_ && static_value_) {
      CONNECTD_RETURN_IF_ERROR(updated.Put(static_field_->name, Value::String(*static_value_)));
    }
    return WithOperand(std::move(record), operand_, schema, data::StructValue(std::move(updated)));
  }

 private:
  static constexpr char kPurpose[] = "field insertion";

  static SchemaPtr Primitive(Type type, bool optional) {
    return optional ? Schema::Optional(type) : Schema::Required(type);
  }

  absl::StatusOr<SchemaPtr> UpdatedSchema(const Schema& original) const {
    Schema s = CopySchemaBasics(original, Type::kStruct);
    for (const data::Field& f : original.fields) s.AddField(f.name, f.schema);
    if (topic_) {
      CONNECTD_RETURN_IF_ERROR(
          AddStructField(s, topic_->name, Primitive(Type::kString, topic_->optional)));
    }
    if (partition_) {
      CONNECTD_RETURN_IF_ERROR(
          AddStructField(s, partition_->name, Primitive(Type::kInt32, partition_->optional)));
    }
    if (offset_) {
      CONNECTD_RETURN_IF_ERROR(
          AddStructField(s, offset_->name, Primitive(Type::kInt64, offset_->optional)));
    }
    if (timestamp_) {
      Schema ts = data::TimestampSchema();
      ts.optional = timestamp_->optional;
      CONNECTD_RETURN_IF_ERROR(AddStructField(s, timestamp_->name, data::Freeze(std::move(ts))));
    }
    if (static_field_) {
      CONNECTD_RETURN_IF_ERROR(AddStructField(s, static_field_->name,
                                              Primitive(Type::kString, static_field_->optional)));
    }
    return data::Freeze(std::move(s));
  }

  Operand operand_;
  std::optional<InsertionSpec> topic_, partition_, offset_, timestamp_, static_field_;
  std::optional<std::string> static_value_;
  bool replace_null_with_default_ = true;
};

// ---- ReplaceField -----------------------------------------------------------------------

class ReplaceField final : public Transformation {
 public:
  explicit ReplaceField(Operand operand) : operand_(operand) {}

  absl::Status Configure(const Configs& configs) override {
    ConfigDef def;
    for (const char* key : {"exclude", "include", "renames"}) {
      def.Define(ConfigKey{.name = key, .type = config::Type::kList, .default_value = ""});
    }
    def.Define(ReplaceNullWithDefaultKey());
    CONNECTD_ASSIGN_OR_RETURN(config::ParsedConfig config, ParseTransformConfig(def, configs));
    for (const std::string& f : config.GetList("exclude")) exclude_.insert(f);
    for (const std::string& f : config.GetList("include")) include_.insert(f);
    const std::vector<std::string> renames = config.GetList("renames");
    for (const std::string& mapping : renames) {
      // String.split(":") drops trailing empty strings: "a:" is one part.
      std::vector<std::string> parts = absl::StrSplit(mapping, ':');
      while (!parts.empty() && parts.back().empty()) parts.pop_back();
      if (parts.size() != 2) {
        return absl::InvalidArgumentError(
            absl::StrCat("Invalid value [", absl::StrJoin(renames, ", "),
                         "] for configuration renames: Invalid rename mapping: ", mapping));
      }
      renames_[parts[0]] = parts[1];
    }
    for (const auto& [from, to] : renames_) reverse_renames_[to] = from;
    replace_null_with_default_ = config.GetBool("replace.null.with.default");
    return absl::OkStatus();
  }

  Result Apply(ConnectRecord record) override {
    const Value& value = OperatingValue(record, operand_);
    if (value.is_null()) return record;
    if (OperatingSchema(record, operand_) == nullptr) {
      CONNECTD_RETURN_IF_ERROR(RequireMap(value, kPurpose));
      Value::Map out;
      for (const auto& [k, v] : value.map()) {
        if (Filter(k.string())) out.emplace_back(Value::String(Renamed(k.string())), v);
      }
      // new HashMap<>(value.size()), then the puts.
      Value updated = Value::OfMap(
          data::JavaHashMap(std::move(out), jvm::JavaHashMapSizedCapacity(value.map().size())));
      return WithOperand(std::move(record), operand_, nullptr, std::move(updated));
    }
    CONNECTD_RETURN_IF_ERROR(RequireStruct(value, kPurpose));
    const data::Struct& original = *value.structure();
    Schema s = CopySchemaBasics(*original.schema(), Type::kStruct);
    for (const data::Field& f : original.schema()->fields) {
      if (Filter(f.name)) CONNECTD_RETURN_IF_ERROR(AddStructField(s, Renamed(f.name), f.schema));
    }
    SchemaPtr schema = data::Freeze(std::move(s));
    data::Struct updated(schema);
    for (const data::Field& f : schema->fields) {
      const data::Field* source = original.schema()->FindField(ReverseRenamed(f.name));
      Value v =
          source == nullptr ? Value() : FieldValue(original, *source, replace_null_with_default_);
      CONNECTD_RETURN_IF_ERROR(updated.Put(f.name, std::move(v)));
    }
    return WithOperand(std::move(record), operand_, schema, data::StructValue(std::move(updated)));
  }

 private:
  static constexpr char kPurpose[] = "field replacement";

  bool Filter(const std::string& name) const {
    return exclude_.count(name) == 0 && (include_.empty() || include_.count(name) != 0);
  }
  std::string Renamed(const std::string& name) const {
    auto it = renames_.find(name);
    return it == renames_.end() ? name : it->second;
  }
  std::string ReverseRenamed(const std::string& name) const {
    auto it = reverse_renames_.find(name);
    return it == reverse_renames_.end() ? name : it->second;
  }

  Operand operand_;
  std::set<std::string> exclude_, include_;
  std::map<std::string, std::string> renames_, reverse_renames_;
  bool replace_null_with_default_ = true;
};

// ---- MaskField --------------------------------------------------------------------------

// Values.convertToX(null, replacement) for MaskField's numeric replacements: the string read as
// a number, narrowed as Java's Number.xValue() does.
absl::StatusOr<Value> NumericReplacement(Value::Kind kind, const std::string& replacement) {
  absl::StatusOr<data::Decimal> d =
      data::ParseJavaDecimal(std::string(absl::StripAsciiWhitespace(replacement)));
  if (!d.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("Unable to convert ", replacement, " (class java.lang.String) to a number"));
  }
  const int64_t whole = data::LongValue(*d);
  switch (kind) {
    case Value::Kind::kInt8:
      return Value::Int8(static_cast<int8_t>(whole));
    case Value::Kind::kInt16:
      return Value::Int16(static_cast<int16_t>(whole));
    case Value::Kind::kInt32:
      return Value::Int32(static_cast<int32_t>(whole));
    case Value::Kind::kInt64:
      return Value::Int64(whole);
    case Value::Kind::kFloat32:
      return Value::Float32(static_cast<float>(data::DoubleValue(*d)));
    case Value::Kind::kFloat64:
      return Value::Float64(data::DoubleValue(*d));
    default:
      return Value::OfDecimal(*d);
  }
}

class MaskField final : public Transformation {
 public:
  explicit MaskField(Operand operand) : operand_(operand) {}

  absl::Status Configure(const Configs& configs) override {
    ConfigDef def;
    def.Define(RequiredKey("fields", config::Type::kList, "Names of fields to mask."));
    def.Define(ConfigKey{.name = "replacement",
                         .type = config::Type::kString,
                         .default_value = std::nullopt,
                         .validator = config::Validator::NonEmpty(),
                         .importance = Importance::kLow});
    def.Define(ReplaceNullWithDefaultKey());
    CONNECTD_ASSIGN_OR_RETURN(config::ParsedConfig config, ParseTransformConfig(def, configs));
    CONNECTD_RETURN_IF_ERROR(RequireNonEmptyList(config, "fields"));
    for (const std::string& f : config.GetList("fields")) {
      if (std::find(fields_.begin(), fields_.end(), f) == fields_.end()) fields_.push_back(f);
    }
    replacement_ = config.GetString("replacement");
    replace_null_with_default_ = config.GetBool("replace.null.with.default");
    return absl::OkStatus();
  }

  Result Apply(ConnectRecord record) override {
    const Value& value = OperatingValue(record, operand_);
    if (OperatingSchema(record, operand_) == nullptr) {
      CONNECTD_RETURN_IF_ERROR(RequireMap(value, kPurpose));
      JavaHashMapEdit updated(value.map());
      for (const std::string& f : fields_) {
        const Value* original = MapGet(value.map(), f);
        CONNECTD_ASSIGN_OR_RETURN(Value masked, Masked(original ? *original : Value()));
        updated.Put(f, std::move(masked));
      }
      Value out = std::move(updated).Build();
      return WithOperand(std::move(record), operand_, nullptr, std::move(out));
    }
    CONNECTD_RETURN_IF_ERROR(RequireStruct(value, kPurpose));
    const data::Struct& original = *value.structure();
    data::Struct updated(original.schema());
    for (const data::Field& f : original.schema()->fields) {
      Value v = FieldValue(original, f, replace_null_with_default_);
      if (std::find(fields_.begin(), fields_.end(), f.name) != fields_.end()) {
        CONNECTD_ASSIGN_OR_RETURN(v, Masked(v));
      }
      CONNECTD_RETURN_IF_ERROR(updated.Put(f.name, std::move(v)));
    }
    SchemaPtr schema = OperatingSchema(record, operand_);
    return WithOperand(std::move(record), operand_, schema, data::StructValue(std::move(updated)));
  }

 private:
  static constexpr char kPurpose[] = "mask fields";

  absl::StatusOr<Value> Masked(const Value& v) const {
    if (v.is_null()) return Value();
    return replacement_ ? WithReplacement(v) : WithNullValue(v);
  }

  static absl::StatusOr<Value> WithNullValue(const Value& v) {
    switch (v.kind()) {
      case Value::Kind::kBoolean:
        return Value::Boolean(false);
      case Value::Kind::kInt8:
        return Value::Int8(0);
      case Value::Kind::kInt16:
        return Value::Int16(0);
      case Value::Kind::kInt32:
        return Value::Int32(0);
      case Value::Kind::kInt64:
        return Value::Int64(0);
      case Value::Kind::kFloat32:
        return Value::Float32(0);
      case Value::Kind::kFloat64:
        return Value::Float64(0);
      case Value::Kind::kDecimal:
        return Value::OfDecimal(data::DecimalFromLong(0));
      case Value::Kind::kDate:
        return Value::OfDate(0);
      case Value::Kind::kString:
        return Value::String("");
      case Value::Kind::kArray:
        return Value::OfArray({});
      case Value::Kind::kMap:
        return Value::OfMap({});
      default:
        return absl::InvalidArgumentError(
            absl::StrCat("Cannot mask value of type: ", AsAbsl(data::JavaClassName(v.kind()))));
    }
  }

  absl::StatusOr<Value> WithReplacement(const Value& v) const {
    switch (v.kind()) {
      case Value::Kind::kInt8:
      case Value::Kind::kInt16:
      case Value::Kind::kInt32:
      case Value::Kind::kInt64:
      case Value::Kind::kFloat32:
      case Value::Kind::kFloat64:
      case Value::Kind::kDecimal:
        return NumericReplacement(v.kind(), *replacement_);
      case Value::Kind::kString:
        return Value::String(*replacement_);
      default:
        return absl::InvalidArgumentError(absl::StrCat("Cannot mask value of type ",
                                                       AsAbsl(data::JavaClassName(v.kind())),
                                                       " with custom replacement."));
    }
  }

  Operand operand_;
  std::vector<std::string> fields_;
  std::optional<std::string> replacement_;
  bool replace_null_with_default_ = true;
};

// ---- ValueToKey -------------------------------------------------------------------------

class ValueToKey final : public Transformation {
 public:
  absl::Status Configure(const Configs& configs) override {
    ConfigDef def;
    def.Define(RequiredKey("fields", config::Type::kList,
                           "Field names on the record value to extract as the record key."));
    def.Define(ReplaceNullWithDefaultKey());
    def.Define(FieldSyntaxVersionKey());
    CONNECTD_ASSIGN_OR_RETURN(config::ParsedConfig config, ParseTransformConfig(def, configs));
    CONNECTD_RETURN_IF_ERROR(RequireNonEmptyList(config, "fields"));
    CONNECTD_ASSIGN_OR_RETURN(FieldSyntaxVersion version, FieldSyntaxVersionFrom(config));
    for (const std::string& f : config.GetList("fields")) {
      CONNECTD_ASSIGN_OR_RETURN(SingleFieldPath path, SingleFieldPath::Parse(f, version));
      fields_.emplace_back(f, std::move(path));
    }
    replace_null_with_default_ = config.GetBool("replace.null.with.default");
    return absl::OkStatus();
  }

  Result Apply(ConnectRecord record) override {
    if (record.value_schema == nullptr) {
      CONNECTD_RETURN_IF_ERROR(RequireMap(record.value, kPurpose));
      Value::Map key;
      for (const auto& [name, path] : fields_) {
        CONNECTD_ASSIGN_OR_RETURN(Value v, path.ValueFrom(record.value.map()));
        key.emplace_back(Value::String(name), std::move(v));
      }
      record.key_schema = nullptr;
      record.key = Value::OfMap(
          data::JavaHashMap(std::move(key), jvm::JavaHashMapSizedCapacity(fields_.size())));
      return record;
    }
    CONNECTD_RETURN_IF_ERROR(RequireStruct(record.value, kPurpose));
    const data::Struct& value = *record.value.structure();
    Schema key_schema = Schema::Of(Type::kStruct);
    for (const auto& [name, path] : fields_) {
      CONNECTD_ASSIGN_OR_RETURN(const data::Field* f, path.FieldFrom(value.schema().get()));
      if (f == nullptr) {
        return absl::InvalidArgumentError(absl::StrCat("Field does not exist: ", name));
      }
      CONNECTD_RETURN_IF_ERROR(AddStructField(key_schema, name, f->schema));
    }
    SchemaPtr schema = data::Freeze(std::move(key_schema));
    data::Struct key(schema);
    for (const auto& [name, path] : fields_) {
      CONNECTD_ASSIGN_OR_RETURN(Value v, path.ValueFrom(value, replace_null_with_default_));
      CONNECTD_RETURN_IF_ERROR(key.Put(name, std::move(v)));
    }
    record.key_schema = schema;
    record.key = data::StructValue(std::move(key));
    return record;
  }

 private:
  static constexpr char kPurpose[] = "copying fields from value to key";
  std::vector<std::pair<std::string, SingleFieldPath>> fields_;
  bool replace_null_with_default_ = true;
};

// ---- ExtractField -----------------------------------------------------------------------

class ExtractField final : public Transformation {
 public:
  explicit ExtractField(Operand operand) : operand_(operand) {}

  absl::Status Configure(const Configs& configs) override {
    ConfigDef def;
    def.Define(RequiredKey("field", config::Type::kString, "Field name to extract."));
    def.Define(ReplaceNullWithDefaultKey());
    def.Define(FieldSyntaxVersionKey());
    CONNECTD_ASSIGN_OR_RETURN(config::ParsedConfig config, ParseTransformConfig(def, configs));
    CONNECTD_ASSIGN_OR_RETURN(FieldSyntaxVersion version, FieldSyntaxVersionFrom(config));
    original_path_ = config.GetString("field").value_or("");
    CONNECTD_ASSIGN_OR_RETURN(SingleFieldPath path,
                              SingleFieldPath::Parse(original_path_, version));
    path_ = std::move(path);
    replace_null_with_default_ = config.GetBool("replace.null.with.default");
    return absl::OkStatus();
  }

  Result Apply(ConnectRecord record) override {
    const SchemaPtr& schema = OperatingSchema(record, operand_);
    const Value& value = OperatingValue(record, operand_);
    if (schema == nullptr) {
      if (!value.is_null()) CONNECTD_RETURN_IF_ERROR(RequireMap(value, kPurpose));
      Value out;
      if (!value.is_null()) {
        CONNECTD_ASSIGN_OR_RETURN(out, path_->ValueFrom(value.map()));
      }
      return WithOperand(std::move(record), operand_, nullptr, std::move(out));
    }
    if (!value.is_null()) CONNECTD_RETURN_IF_ERROR(RequireStruct(value, kPurpose));
    CONNECTD_ASSIGN_OR_RETURN(const data::Field* field, path_->FieldFrom(schema.get()));
    if (field == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("Unknown field: ", original_path_));
    }
    Value out;
    if (!value.is_null()) {
      CONNECTD_ASSIGN_OR_RETURN(out,
                                path_->ValueFrom(*value.structure(), replace_null_with_default_));
    }
    SchemaPtr field_schema = field->schema;
    return WithOperand(std::move(record), operand_, std::move(field_schema), std::move(out));
  }

 private:
  static constexpr char kPurpose[] = "field extraction";
  Operand operand_;
  std::string original_path_;
  std::optional<SingleFieldPath> path_;
  bool replace_null_with_default_ = true;
};

// ---- HoistField -------------------------------------------------------------------------

class HoistField final : public Transformation {
 public:
  explicit HoistField(Operand operand) : operand_(operand) {}

  absl::Status Configure(const Configs& configs) override {
    ConfigDef def;
    def.Define(ConfigKey{.name = "field",
                         .type = config::Type::kString,
                         .has_default = false,
                         .importance = Importance::kMedium});
    CONNECTD_ASSIGN_OR_RETURN(config::ParsedConfig config, ParseTransformConfig(def, configs));
    field_ = config.GetString("field").value_or("");
    return absl::OkStatus();
  }

  Result Apply(ConnectRecord record) override {
    const SchemaPtr& schema = OperatingSchema(record, operand_);
    Value value = OperatingValue(record, operand_);
    if (schema == nullptr) {
      Value::Map m;
      m.emplace_back(Value::String(field_), std::move(value));
      return WithOperand(std::move(record), operand_, nullptr, Value::OfMap(std::move(m)));
    }
    Schema hoisted = Schema::Of(Type::kStruct);
    hoisted.AddField(field_, schema);
    SchemaPtr updated_schema = data::Freeze(std::move(hoisted));
    data::Struct s(updated_schema);
    CONNECTD_RETURN_IF_ERROR(s.Put(field_, std::move(value)));
    return WithOperand(std::move(record), operand_, updated_schema,
                       data::StructValue(std::move(s)));
  }

 private:
  Operand operand_;
  std::string field_;
};

// ---- SetSchemaMetadata ------------------------------------------------------------------

class SetSchemaMetadata final : public Transformation {
 public:
  explicit SetSchemaMetadata(Operand operand) : operand_(operand) {}

  absl::Status Configure(const Configs& configs) override {
    ConfigDef def;
    def.Define(ConfigKey{.name = "schema.name",
                         .type = config::Type::kString,
                         .default_value = std::nullopt,
                         .importance = Importance::kHigh});
    def.Define(ConfigKey{.name = "schema.version",
                         .type = config::Type::kInt,
                         .default_value = std::nullopt,
                         .importance = Importance::kHigh});
    def.Define(ReplaceNullWithDefaultKey());
    CONNECTD_ASSIGN_OR_RETURN(config::ParsedConfig config, ParseTransformConfig(def, configs));
    name_ = config.GetString("schema.name");
    if (config.GetString("schema.version")) version_ = config.GetInt("schema.version");
    replace_null_with_default_ = config.GetBool("replace.null.with.default");
    if (!name_ && !version_) {
      return absl::InvalidArgumentError("Neither schema name nor version configured");
    }
    return absl::OkStatus();
  }

  Result Apply(ConnectRecord record) override {
    const SchemaPtr& schema = OperatingSchema(record, operand_);
    const Value& value = OperatingValue(record, operand_);
    if (value.is_null() && schema == nullptr) return record;
    CONNECTD_RETURN_IF_ERROR(RequireSchema(schema, "updating schema metadata"));
    // Java builds the new schema with schema.fields(), which only a struct has.
    if (schema->type != Type::kStruct) {
      return absl::InvalidArgumentError("Cannot list fields on non-struct type");
    }
    Schema s = *schema;
    if (name_) s.name = name_;
    if (version_) s.version = version_;
    SchemaPtr updated_schema = data::Freeze(std::move(s));
    Value updated = value;
    if (value.kind() == Value::Kind::kStruct) {
      const data::Struct& original = *value.structure();
      data::Struct copy(updated_schema);
      for (const data::Field& f : updated_schema->fields) {
        const data::Field* source = original.schema()->FindField(f.name);
        Value v =
            source == nullptr ? Value() : FieldValue(original, *source, replace_null_with_default_);
        CONNECTD_RETURN_IF_ERROR(copy.Put(f.name, std::move(v)));
      }
      updated = data::StructValue(std::move(copy));
    }
    return WithOperand(std::move(record), operand_, updated_schema, std::move(updated));
  }

 private:
  Operand operand_;
  std::optional<std::string> name_;
  std::optional<int32_t> version_;
  bool replace_null_with_default_ = true;
};

}  // namespace

std::unique_ptr<Transformation> MakeInsertField(Operand operand) {
  return std::make_unique<InsertField>(operand);
}
std::unique_ptr<Transformation> MakeReplaceField(Operand operand) {
  return std::make_unique<ReplaceField>(operand);
}
std::unique_ptr<Transformation> MakeMaskField(Operand operand) {
  return std::make_unique<MaskField>(operand);
}
std::unique_ptr<Transformation> MakeValueToKey() { return std::make_unique<ValueToKey>(); }
std::unique_ptr<Transformation> MakeExtractField(Operand operand) {
  return std::make_unique<ExtractField>(operand);
}
std::unique_ptr<Transformation> MakeHoistField(Operand operand) {
  return std::make_unique<HoistField>(operand);
}
std::unique_ptr<Transformation> MakeSetSchemaMetadata(Operand operand) {
  return std::make_unique<SetSchemaMetadata>(operand);
}

}  // namespace connectd::transforms::builtin
