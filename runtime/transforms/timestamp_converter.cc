// TimestampConverter$Key / TimestampConverter$Value: convert a timestamp, the whole key/value or
// one top-level field, between a formatted string, Unix time (an int64 in `unix.precision`) and
// Connect's Date, Time and Timestamp, as Kafka 4.4's
// org.apache.kafka.connect.transforms.TimestampConverter.
//
// The input's kind comes from its schema (the logical name, else STRING is a string and INT64
// Unix time) or, schemaless, from the value (java.util.Date, Long, String). Strings are parsed
// and formatted with `format` (a SimpleDateFormat pattern, UTC, lenient). Date keeps the day,
// Time the time of day; the converted field's schema loses its default.
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "runtime/common/status_macros.h"
#include "runtime/common/strings.h"
#include "runtime/data/simple_date_format.h"
#include "runtime/transforms/builtin.h"

namespace connectd::transforms::builtin {

using data::SimpleDateFormat;

namespace {

using data::Schema;
using data::SchemaPtr;
using data::Type;
using data::Value;

constexpr std::string_view kPurpose = "converting timestamp formats";
constexpr int64_t kMillisPerDay = 86400000;

// The timestamp representations (TYPE_STRING ... TYPE_TIMESTAMP).
enum class Kind { kString, kUnix, kDate, kTime, kTimestamp };

std::optional<Kind> KindNamed(std::string_view name) {
  if (name == "string") return Kind::kString;
  if (name == "unix") return Kind::kUnix;
  if (name == "Date") return Kind::kDate;
  if (name == "Time") return Kind::kTime;
  if (name == "Timestamp") return Kind::kTimestamp;
  return std::nullopt;
}

enum class Precision { kSeconds, kMillis, kMicros, kNanos };

absl::Status DataError(std::string message) { return absl::InvalidArgumentError(message); }

bool IsBlank(std::string_view s) {
  for (char c : s) {
    if (static_cast<unsigned char>(c) > ' ') return false;
  }
  return true;
}

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0))) --q;
  return q;
}

// TimeUnit conversions: to a finer unit saturates, to a coarser one truncates toward zero.
int64_t Scale(int64_t v, int64_t factor) {
  if (v > std::numeric_limits<int64_t>::max() / factor) return std::numeric_limits<int64_t>::max();
  if (v < std::numeric_limits<int64_t>::min() / factor) return std::numeric_limits<int64_t>::min();
  return v * factor;
}

// The typeSchema of each representation, shared.
SchemaPtr TypeSchema(Kind kind, bool optional) {
  auto make = [](Schema s, bool opt) {
    s.optional = opt;
    return data::Freeze(std::move(s));
  };
  static const auto* schemas = new std::vector<SchemaPtr>{
      make(data::DateSchema(), false),      make(data::DateSchema(), true),
      make(data::TimeSchema(), false),      make(data::TimeSchema(), true),
      make(data::TimestampSchema(), false), make(data::TimestampSchema(), true)};
  switch (kind) {
    case Kind::kString:
      return optional ? Schema::Optional(Type::kString) : Schema::Required(Type::kString);
    case Kind::kUnix:
      return optional ? Schema::Optional(Type::kInt64) : Schema::Required(Type::kInt64);
    case Kind::kDate:
      return (*schemas)[optional ? 1 : 0];
    case Kind::kTime:
      return (*schemas)[optional ? 3 : 2];
    case Kind::kTimestamp:
      return (*schemas)[optional ? 5 : 4];
  }
  return nullptr;
}

// timestampTypeFromSchema.
absl::StatusOr<Kind> KindOfSchema(const Schema& schema) {
  if (schema.IsLogical(data::kTimestampLogicalName)) return Kind::kTimestamp;
  if (schema.IsLogical(data::kDateLogicalName)) return Kind::kDate;
  if (schema.IsLogical(data::kTimeLogicalName)) return Kind::kTime;
  if (schema.type == Type::kString) return Kind::kString;
  if (schema.type == Type::kInt64) return Kind::kUnix;
  return DataError(absl::StrCat("Schema ", data::ToString(&schema),
                                " does not correspond to a known timestamp type format"));
}

class TimestampConverter final : public Transformation {
 public:
  explicit TimestampConverter(Operand operand) : operand_(operand) {}

  absl::Status Configure(const Configs& configs) override {
    config::ConfigDef def;
    def.Define(config::ConfigKey{
        .name = "field",
        .type = config::Type::kString,
        .default_value = "",
        .importance = config::Importance::kHigh,
        .documentation =
            "The field containing the timestamp, or empty if the entire value is a timestamp"});
    def.Define(config::ConfigKey{
        .name = "target.type",
        .type = config::Type::kString,
        .has_default = false,
        .validator = config::Validator::In({"string", "unix", "Date", "Time", "Timestamp"}),
        .importance = config::Importance::kHigh,
        .documentation =
            "The desired timestamp representation: string, unix, Date, Time, or Timestamp"});
    def.Define(config::ConfigKey{
        .name = "format",
        .type = config::Type::kString,
        .default_value = "",
        .importance = config::Importance::kMedium,
        .documentation = "A SimpleDateFormat-compatible format for the timestamp. Used to "
                         "generate the output when type=string or used to parse the input if "
                         "the input is a string."});
    def.Define(config::ConfigKey{
        .name = "unix.precision",
        .type = config::Type::kString,
        .default_value = "milliseconds",
        .validator =
            config::Validator::In({"nanoseconds", "microseconds", "milliseconds", "seconds"}),
        .importance = config::Importance::kLow,
        .documentation = "The desired Unix precision for the timestamp: seconds, milliseconds, "
                         "microseconds, or nanoseconds."});
    def.Define(ReplaceNullWithDefaultKey());
    CONNECTD_ASSIGN_OR_RETURN(config::ParsedConfig config, ParseTransformConfig(def, configs));
    field_ = config.GetString("field").value_or("");
    target_ = *KindNamed(config.GetString("target.type").value_or(""));
    const std::string precision = config.GetString("unix.precision").value_or("milliseconds");
    precision_ = precision == "seconds"        ? Precision::kSeconds
                 : precision == "microseconds" ? Precision::kMicros
                 : precision == "nanoseconds"  ? Precision::kNanos
                                               : Precision::kMillis;
    replace_null_with_default_ = config.GetBool("replace.null.with.default");
    const std::string pattern = config.GetString("format").value_or("");
    if (target_ == Kind::kString && IsBlank(pattern)) {
      return absl::InvalidArgumentError(
          "TimestampConverter requires format option to be specified when using string "
          "timestamps");
    }
    format_.reset();
    if (!IsBlank(pattern)) {
      absl::StatusOr<SimpleDateFormat> format = SimpleDateFormat::Compile(pattern);
      if (!format.ok()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Invalid value java.lang.IllegalArgumentException: ", format.status().message(),
            " for configuration TimestampConverter requires a SimpleDateFormat-compatible "
            "pattern for string timestamps: ",
            pattern));
      }
      format_ = *std::move(format);
    }
    schema_cache_.clear();
    return absl::OkStatus();
  }

  absl::StatusOr<std::optional<ConnectRecord>> Apply(ConnectRecord record) override {
    const SchemaPtr& schema = OperatingSchema(record, operand_);
    const Value& value = OperatingValue(record, operand_);
    if (schema == nullptr) {
      if (value.is_null() || field_.empty()) {
        CONNECTD_ASSIGN_OR_RETURN(Value converted, Convert(value, std::nullopt));
        return WithOperand(std::move(record), operand_, nullptr, std::move(converted));
      }
      CONNECTD_RETURN_IF_ERROR(RequireMap(value, kPurpose));
      const Value* original = MapGet(value.map(), field_);
      CONNECTD_ASSIGN_OR_RETURN(Value converted,
                                Convert(original ? *original : Value(), std::nullopt));
      JavaHashMapEdit updated(value.map());
      updated.Put(field_, std::move(converted));
      return WithOperand(std::move(record), operand_, nullptr, std::move(updated).Build());
    }
    if (field_.empty()) {
      SchemaPtr updated_schema = TypeSchema(target_, schema->optional);
      CONNECTD_ASSIGN_OR_RETURN(Kind kind, KindOfSchema(*schema));
      CONNECTD_ASSIGN_OR_RETURN(Value converted, Convert(value, kind));
      return WithOperand(std::move(record), operand_, std::move(updated_schema),
                         std::move(converted));
    }
    if (!value.is_null()) CONNECTD_RETURN_IF_ERROR(RequireStruct(value, kPurpose));
    CONNECTD_ASSIGN_OR_RETURN(SchemaPtr updated_schema, UpdatedSchema(schema));
    if (value.is_null()) {
      return WithOperand(std::move(record), operand_, std::move(updated_schema), Value());
    }
    CONNECTD_ASSIGN_OR_RETURN(Value updated, ApplyToStruct(*value.structure(), updated_schema));
    return WithOperand(std::move(record), operand_, std::move(updated_schema), std::move(updated));
  }

 private:
  // The struct schema with the field's schema replaced, cached by input schema.
  absl::StatusOr<SchemaPtr> UpdatedSchema(const SchemaPtr& schema) {
    for (const auto& [in, out] : schema_cache_) {
      if (in == schema) return out;
    }
    Schema updated = CopySchemaBasics(*schema, Type::kStruct);
    for (const data::Field& field : schema->fields) {
      updated.AddField(field.name, field.name == field_
                                       ? TypeSchema(target_, field.schema->optional)
                                       : field.schema);
    }
    updated.optional = schema->optional;
    if (schema->default_value && schema->default_value->kind() == Value::Kind::kStruct) {
      // The default converted with the schema as built so far (Java passes the builder).
      SchemaPtr without_default = data::Freeze(updated);
      CONNECTD_ASSIGN_OR_RETURN(
          Value def, ApplyToStruct(*schema->default_value->structure(), without_default));
      updated.default_value = std::make_shared<const Value>(std::move(def));
    }
    SchemaPtr out = data::Freeze(std::move(updated));
    if (schema_cache_.size() >= 16) schema_cache_.erase(schema_cache_.begin());
    schema_cache_.emplace_back(schema, out);
    return out;
  }

  // applyValueWithSchema.
  absl::StatusOr<Value> ApplyToStruct(const data::Struct& value, const SchemaPtr& updated_schema) {
    data::Struct updated(updated_schema);
    for (const data::Field& field : value.schema()->fields) {
      Value field_value = FieldValue(value, field, replace_null_with_default_);
      if (field.name == field_) {
        CONNECTD_ASSIGN_OR_RETURN(Kind kind, KindOfSchema(*field.schema));
        CONNECTD_ASSIGN_OR_RETURN(field_value, Convert(field_value, kind));
      }
      CONNECTD_RETURN_IF_ERROR(updated.Put(field.name, std::move(field_value)));
    }
    return data::StructValue(std::move(updated));
  }

  // convertTimestamp: `kind` of the input, or nullopt to infer it from the value.
  absl::StatusOr<Value> Convert(const Value& timestamp, std::optional<Kind> kind) const {
    if (timestamp.is_null()) return Value();
    if (!kind) {
      switch (timestamp.kind()) {
        case Value::Kind::kDate:
          kind = Kind::kTimestamp;
          break;
        case Value::Kind::kInt64:
          kind = Kind::kUnix;
          break;
        case Value::Kind::kString:
          kind = Kind::kString;
          break;
        default:
          return DataError(absl::StrCat("TimestampConverter does not support ",
                                        AsAbsl(data::JavaClassName(timestamp.kind())),
                                        " objects as timestamps"));
      }
    }
    CONNECTD_ASSIGN_OR_RETURN(int64_t millis, ToRaw(timestamp, *kind));
    return ToType(millis);
  }

  // TimestampTranslator.toRaw: epoch milliseconds.
  absl::StatusOr<int64_t> ToRaw(const Value& v, Kind kind) const {
    const absl::string_view found = AsAbsl(data::JavaClassName(v.kind()));
    switch (kind) {
      case Kind::kString: {
        if (v.kind() != Value::Kind::kString) {
          return DataError(
              absl::StrCat("Expected string timestamp to be a String, but found ", found));
        }
        if (!format_) {  // Java dereferences the null format
          return DataError(
              "Cannot invoke \"java.text.SimpleDateFormat.parse(String)\" because "
              "\"config.format\" is null");
        }
        std::optional<SimpleDateFormat::Parsed> parsed = format_->Parse(v.string());
        if (!parsed) {
          return DataError(absl::StrCat("Could not parse timestamp: value (", v.string(),
                                        ") does not match pattern (", format_->pattern(), ")"));
        }
        return parsed->epoch_millis;
      }
      case Kind::kUnix: {
        if (v.kind() != Value::Kind::kInt64) {
          return DataError(absl::StrCat("Expected Unix timestamp to be a Long, but found ", found));
        }
        switch (precision_) {
          case Precision::kSeconds:
            return Scale(v.int64(), 1000);
          case Precision::kMicros:
            return v.int64() / 1000;
          case Precision::kNanos:
            return v.int64() / 1000000;
          case Precision::kMillis:
            return v.int64();
        }
        return v.int64();
      }
      case Kind::kDate:
      case Kind::kTime:
      case Kind::kTimestamp: {
        if (v.kind() != Value::Kind::kDate) {
          const char* name = kind == Kind::kDate   ? "Date"
                             : kind == Kind::kTime ? "Time"
                                                   : "Timestamp";
          return DataError(
              absl::StrCat("Expected ", name, " to be a java.util.Date, but found ", found));
        }
        return v.date_millis();
      }
    }
    return v.date_millis();
  }

  // TimestampTranslator.toType for the target representation.
  Value ToType(int64_t millis) const {
    switch (target_) {
      case Kind::kString:
        return Value::String(format_->Format(millis));
      case Kind::kUnix:
        switch (precision_) {
          case Precision::kSeconds:
            return Value::Int64(millis / 1000);
          case Precision::kMicros:
            return Value::Int64(Scale(millis, 1000));
          case Precision::kNanos:
            return Value::Int64(Scale(millis, 1000000));
          case Precision::kMillis:
            return Value::Int64(millis);
        }
        return Value::Int64(millis);
      case Kind::kDate:
        return Value::OfDate(FloorDiv(millis, kMillisPerDay) * kMillisPerDay);
      case Kind::kTime:
        return Value::OfDate(millis - FloorDiv(millis, kMillisPerDay) * kMillisPerDay);
      case Kind::kTimestamp:
        return Value::OfDate(millis);
    }
    return Value::OfDate(millis);
  }

  const Operand operand_;
  std::string field_;
  Kind target_ = Kind::kTimestamp;
  Precision precision_ = Precision::kMillis;
  std::optional<SimpleDateFormat> format_;
  bool replace_null_with_default_ = true;
  std::vector<std::pair<SchemaPtr, SchemaPtr>> schema_cache_;
};

}  // namespace

std::unique_ptr<Transformation> MakeTimestampConverter(Operand operand) {
  return std::make_unique<TimestampConverter>(operand);
}

}  // namespace connectd::transforms::builtin
