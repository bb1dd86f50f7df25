// Flatten$Key / Flatten$Value: nested structs (or maps, schemaless) become top-level fields
// named by joining the path with `delimiter` (default "."), as Kafka 4.4's Flatten does. A
// schemaless result keeps insertion order (Java builds a LinkedHashMap); arrays are kept whole;
// with a schema a nested field is optional if any parent is, and takes its parent's default.
#include "absl/strings/str_cat.h"
#include "runtime/common/status_macros.h"
#include "runtime/common/strings.h"
#include "runtime/transforms/builtin.h"

namespace connectd::transforms::builtin {
namespace {

using data::Schema;
using data::SchemaPtr;
using data::Type;
using data::Value;

constexpr char kPurpose[] = "flattening";

bool KeptWhole(Type type) { return data::IsPrimitive(type) || type == Type::kArray; }

class Flatten final : public Transformation {
 public:
  explicit Flatten(Operand operand) : operand_(operand) {}

  absl::Status Configure(const Configs& configs) override {
    config::ConfigDef def;
    def.Define(config::ConfigKey{.name = "delimiter",
                                 .type = config::Type::kString,
                                 .default_value = ".",
                                 .importance = config::Importance::kMedium});
    CONNECTD_ASSIGN_OR_RETURN(config::ParsedConfig config, ParseTransformConfig(def, configs));
    delimiter_ = config.GetString("delimiter").value_or(".");
    return absl::OkStatus();
  }

  absl::StatusOr<std::optional<ConnectRecord>> Apply(ConnectRecord record) override {
    const Value& value = OperatingValue(record, operand_);
    if (value.is_null()) return record;
    if (OperatingSchema(record, operand_) == nullptr) {
      CONNECTD_RETURN_IF_ERROR(RequireMap(value, kPurpose));
      Value::Map out;
      CONNECTD_RETURN_IF_ERROR(FlattenMap(value.map(), "", out));
      return WithOperand(std::move(record), operand_, nullptr, Value::OfMap(std::move(out)));
    }
    CONNECTD_RETURN_IF_ERROR(RequireStruct(value, kPurpose));
    const Schema& schema = *OperatingSchema(record, operand_);
    Schema flat = CopySchemaBasics(schema, Type::kStruct);
    const data::Struct* default_struct =
        schema.default_value && schema.default_value->kind() == Value::Kind::kStruct
            ? schema.default_value->structure().get()
            : nullptr;
    CONNECTD_RETURN_IF_ERROR(FlattenSchema(schema, "", flat, schema.optional, default_struct));
    SchemaPtr flat_schema = data::Freeze(std::move(flat));
    data::Struct out(flat_schema);
    CONNECTD_RETURN_IF_ERROR(FlattenStruct(value.structure().get(), "", out));
    return WithOperand(std::move(record), operand_, flat_schema, data::StructValue(std::move(out)));
  }

 private:
  std::string Name(const std::string& prefix, const std::string& field) const {
    return prefix.empty() ? field : absl::StrCat(prefix, delimiter_, field);
  }

  // LinkedHashMap.put: a repeated name keeps its first place and takes the last value.
  static void Put(Value::Map& out, const std::string& name, Value v) {
    for (auto& [k, existing] : out) {
      if (k.string() == name) {
        existing = std::move(v);
        return;
      }
    }
    out.emplace_back(Value::String(name), std::move(v));
  }

  absl::Status FlattenMap(const Value::Map& map, const std::string& prefix, Value::Map& out) const {
    for (const auto& [k, v] : map) {
      const std::string name = Name(prefix, k.kind() == Value::Kind::kString ? k.string() : "");
      if (v.is_null()) {
        Put(out, name, Value());
        continue;
      }
      const std::optional<Type> type = data::SchemaTypeOf(v.kind());
      if (!type) {
        return absl::InvalidArgumentError(
            absl::StrCat("Flatten transformation was passed a value of type ",
                         AsAbsl(data::JavaClassName(v.kind())),
                         " which is not supported by Connect's data API"));
      }
      if (KeptWhole(*type)) {
        Put(out, name, v);
      } else if (*type == Type::kMap) {
        CONNECTD_RETURN_IF_ERROR(FlattenMap(v.map(), name, out));
      } else {
        return absl::InvalidArgumentError(absl::StrCat(
            "Flatten transformation does not support ", AsAbsl(data::JavaClassName(v.kind())),
            " for record without schemas (for field ", name, ")."));
      }
    }
    return absl::OkStatus();
  }

  absl::Status FlattenSchema(const Schema& schema, const std::string& prefix, Schema& flat,
                             bool optional, const data::Struct* default_from_parent) const {
    for (const data::Field& f : schema.fields) {
      const std::string name = Name(prefix, f.name);
      const bool field_optional = optional || f.schema->optional;
      const Value* field_default = f.schema->default_value.get();
      if (field_default == nullptr && default_from_parent != nullptr) {
        field_default = default_from_parent->Get(f.name);
      }
      if (KeptWhole(f.schema->type)) {
        if (flat.FindField(name) != nullptr) {
          return absl::InvalidArgumentError(
              absl::StrCat("Cannot create field because of field name duplication ", name));
        }
        Schema converted = CopySchemaBasics(*f.schema, f.schema->type);
        converted.value_schema = f.schema->value_schema;
        converted.optional = field_optional;
        if (field_default != nullptr && !field_default->is_null()) {
          converted.default_value = std::make_shared<const Value>(*field_default);
        }
        flat.AddField(name, data::Freeze(std::move(converted)));
      } else if (f.schema->type == Type::kStruct) {
        const data::Struct* nested_default =
            field_default != nullptr && field_default->kind() == Value::Kind::kStruct
                ? field_default->structure().get()
                : nullptr;
        CONNECTD_RETURN_IF_ERROR(
            FlattenSchema(*f.schema, name, flat, field_optional, nested_default));
      } else {
        return absl::InvalidArgumentError(absl::StrCat(
            "Flatten transformation does not support ", AsAbsl(data::TypeName(f.schema->type)),
            " for record with schemas (for field ", name, ")."));
      }
    }
    return absl::OkStatus();
  }

  absl::Status FlattenStruct(const data::Struct* s, const std::string& prefix,
                             data::Struct& out) const {
    if (s == nullptr) return absl::OkStatus();
    for (const data::Field& f : s->schema()->fields) {
      const std::string name = Name(prefix, f.name);
      const Value* v = s->Get(f.name);
      if (KeptWhole(f.schema->type)) {
        CONNECTD_RETURN_IF_ERROR(out.Put(name, *v));
      } else if (f.schema->type == Type::kStruct) {
        CONNECTD_RETURN_IF_ERROR(
            FlattenStruct(v->is_null() ? nullptr : v->structure().get(), name, out));
      } else {
        return absl::InvalidArgumentError(absl::StrCat(
            "Flatten transformation does not support ", AsAbsl(data::TypeName(f.schema->type)),
            " for record with schemas (for field ", name, ")."));
      }
    }
    return absl::OkStatus();
  }

  Operand operand_;
  std::string delimiter_ = ".";
};

}  // namespace

std::unique_ptr<Transformation> MakeFlatten(Operand operand) {
  return std::make_unique<Flatten>(operand);
}

}  // namespace connectd::transforms::builtin
