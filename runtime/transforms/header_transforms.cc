// The header transforms of Kafka 4.4: InsertHeader (a literal, typed as Values.parseString
// types it), DropHeaders (every header of the named keys) and HeaderFrom$Key/$Value (copy or
// move fields into headers). Headers keep their order; added ones go last.
#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"
#include "runtime/common/status_macros.h"
#include "runtime/data/values.h"
#include "runtime/transforms/builtin.h"

namespace connectd::transforms::builtin {
namespace {

using data::Schema;
using data::SchemaPtr;
using data::Type;
using data::Value;

config::ConfigKey Required(const char* name, config::Type type) {
  return config::ConfigKey{
      .name = name, .type = type, .has_default = false, .importance = config::Importance::kHigh};
}

class InsertHeader final : public Transformation {
 public:
  absl::Status Configure(const Configs& configs) override {
    config::ConfigDef def;
    def.Define(Required("header", config::Type::kString));
    def.Define(Required("value.literal", config::Type::kString));
    CONNECTD_ASSIGN_OR_RETURN(config::ParsedConfig config, ParseTransformConfig(def, configs));
    header_ = config.GetString("header").value_or("");
    CONNECTD_ASSIGN_OR_RETURN(literal_,
                              data::ParseString(config.GetString("value.literal").value_or("")));
    return absl::OkStatus();
  }

  absl::StatusOr<std::optional<ConnectRecord>> Apply(ConnectRecord record) override {
    record.headers.push_back(Header{header_, literal_.first, literal_.second});
    return record;
  }

 private:
  std::string header_;
  std::pair<SchemaPtr, Value> literal_;
};

class DropHeaders final : public Transformation {
 public:
  absl::Status Configure(const Configs& configs) override {
    config::ConfigDef def;
    def.Define(Required("headers", config::Type::kList));
    CONNECTD_ASSIGN_OR_RETURN(config::ParsedConfig config, ParseTransformConfig(def, configs));
    CONNECTD_RETURN_IF_ERROR(RequireNonEmptyList(config, "headers"));
    for (const std::string& h : config.GetList("headers")) headers_.insert(h);
    return absl::OkStatus();
  }

  absl::StatusOr<std::optional<ConnectRecord>> Apply(ConnectRecord record) override {
    record.headers.erase(
        std::remove_if(record.headers.begin(), record.headers.end(),
                       [&](const Header& h) { return headers_.count(h.key) != 0; }),
        record.headers.end());
    return record;
  }

 private:
  std::set<std::string, std::less<>> headers_;
};

class HeaderFrom final : public Transformation {
 public:
  explicit HeaderFrom(Operand operand) : operand_(operand) {}

  absl::Status Configure(const Configs& configs) override {
    config::ConfigDef def;
    def.Define(Required("fields", config::Type::kList));
    def.Define(Required("headers", config::Type::kList));
    config::ConfigKey operation = Required("operation", config::Type::kString);
    operation.validator = config::Validator::In({"move", "copy"});
    def.Define(operation);
    def.Define(ReplaceNullWithDefaultKey());
    CONNECTD_ASSIGN_OR_RETURN(config::ParsedConfig config, ParseTransformConfig(def, configs));
    CONNECTD_RETURN_IF_ERROR(RequireNonEmptyList(config, "fields"));
    CONNECTD_RETURN_IF_ERROR(RequireNonEmptyList(config, "headers"));
    fields_ = config.GetList("fields");
    headers_ = config.GetList("headers");
    if (fields_.size() != headers_.size()) {
      return absl::InvalidArgumentError(
          "'fields' config must have the same number of elements as 'headers' config.");
    }
    move_ = config.GetString("operation") == "move";
    replace_null_with_default_ = config.GetBool("replace.null.with.default");
    return absl::OkStatus();
  }

  absl::StatusOr<std::optional<ConnectRecord>> Apply(ConnectRecord record) override {
    const std::string purpose = move_ ? "header move" : "header copy";
    const SchemaPtr schema = OperatingSchema(record, operand_);
    const Value value = OperatingValue(record, operand_);
    if (schema == nullptr) {
      CONNECTD_RETURN_IF_ERROR(RequireMap(value, purpose));
      JavaHashMapEdit updated(value.map());
      for (size_t i = 0; i < fields_.size(); ++i) {
        const Value* field_value = MapGet(value.map(), fields_[i]);
        if (move_) updated.Remove(fields_[i]);
        record.headers.push_back(
            Header{headers_[i], nullptr, field_value ? *field_value : Value()});
      }
      Value out = std::move(updated).Build();
      return WithOperand(std::move(record), operand_, nullptr, std::move(out));
    }
    CONNECTD_RETURN_IF_ERROR(RequireStruct(value, purpose));
    const data::Struct& original = *value.structure();
    SchemaPtr updated_schema = schema;
    Value updated_value = value;
    if (move_) {
      Schema moved = CopySchemaBasics(*schema, Type::kStruct);
      for (const data::Field& f : schema->fields) {
        if (std::find(fields_.begin(), fields_.end(), f.name) == fields_.end()) {
          moved.AddField(f.name, f.schema);
        }
      }
      updated_schema = data::Freeze(std::move(moved));
      data::Struct s(updated_schema);
      for (const data::Field& f : updated_schema->fields) {
        CONNECTD_RETURN_IF_ERROR(
            s.Put(f.name, FieldValue(original, *original.schema()->FindField(f.name),
                                     replace_null_with_default_)));
      }
      updated_value = data::StructValue(std::move(s));
    }
    for (size_t i = 0; i < fields_.size(); ++i) {
      const data::Field* field = schema->FindField(fields_[i]);
      if (field == nullptr) {
        // Java dereferences the missing field (a NullPointerException with this message).
        return absl::InvalidArgumentError(
            "Cannot invoke \"org.apache.kafka.connect.data.Field.schema()\" because the return "
            "value of \"org.apache.kafka.connect.data.Schema.field(String)\" is null");
      }
      const data::Field* in_value = original.schema()->FindField(fields_[i]);
      Value field_value =
          in_value ? FieldValue(original, *in_value, replace_null_with_default_) : Value();
      record.headers.push_back(Header{headers_[i], field->schema, std::move(field_value)});
    }
    return WithOperand(std::move(record), operand_, updated_schema, std::move(updated_value));
  }

 private:
  Operand operand_;
  std::vector<std::string> fields_;
  std::vector<std::string> headers_;
  bool move_ = false;
  bool replace_null_with_default_ = true;
};

}  // namespace

std::unique_ptr<Transformation> MakeInsertHeader() { return std::make_unique<InsertHeader>(); }
std::unique_ptr<Transformation> MakeDropHeaders() { return std::make_unique<DropHeaders>(); }
std::unique_ptr<Transformation> MakeHeaderFrom(Operand operand) {
  return std::make_unique<HeaderFrom>(operand);
}

}  // namespace connectd::transforms::builtin
