#include "runtime/converters/converter_factory.h"

#include "absl/strings/str_cat.h"
#include "runtime/common/strings.h"
#include "runtime/converters/json_converter.h"
#include "runtime/converters/number_converters.h"
#include "runtime/data/values.h"

namespace connectd::converters {
namespace {

using data::Value;

absl::Status DataError(std::string message) { return absl::InvalidArgumentError(message); }

class ByteArrayConverter final : public Converter {
 public:
  absl::StatusOr<std::optional<std::string>> FromConnectData(std::string_view,
                                                             const data::SchemaPtr& schema,
                                                             const Value& value) override {
    if (schema != nullptr && schema->type != data::Type::kBytes) {
      return DataError(absl::StrCat("Invalid schema type for ByteArrayConverter: ",
                                    AsAbsl(data::TypeName(schema->type))));
    }
    if (value.is_null()) return std::optional<std::string>();
    if (value.kind() != Value::Kind::kBytes) {
      return DataError(absl::StrCat("ByteArrayConverter is not compatible with objects of type ",
                                    AsAbsl(data::JavaClassName(value.kind()))));
    }
    return std::optional<std::string>(value.bytes());
  }

  absl::StatusOr<SchemaAndValue> ToConnectData(std::string_view,
                                               std::optional<std::string_view> bytes) override {
    return SchemaAndValue{data::Schema::Optional(data::Type::kBytes),
                          bytes ? Value::OfBytes(std::string(*bytes)) : Value()};
  }
};

class StringConverter final : public Converter {
 public:
  absl::StatusOr<std::optional<std::string>> FromConnectData(std::string_view,
                                                             const data::SchemaPtr&,
                                                             const Value& value) override {
    if (value.is_null()) return std::optional<std::string>();
    return std::optional<std::string>(data::JavaToString(value));
  }

  absl::StatusOr<SchemaAndValue> ToConnectData(std::string_view,
                                               std::optional<std::string_view> bytes) override {
    return SchemaAndValue{data::Schema::Optional(data::Type::kString),
                          bytes ? Value::String(std::string(*bytes)) : Value()};
  }
};

// SimpleHeaderConverter: Values.convertToString on the way out, Values.parseString on the way in.
class SimpleHeaderConverter final : public Converter {
 public:
  absl::StatusOr<std::optional<std::string>> FromConnectData(std::string_view,
                                                             const data::SchemaPtr& schema,
                                                             const Value& value) override {
    if (value.is_null()) return std::optional<std::string>();
    return std::optional<std::string>(data::ConvertToString(schema.get(), value));
  }

  absl::StatusOr<SchemaAndValue> ToConnectData(std::string_view,
                                               std::optional<std::string_view> bytes) override {
    if (!bytes) return SchemaAndValue{};
    absl::StatusOr<std::pair<data::SchemaPtr, Value>> parsed = data::ParseString(*bytes);
    if (!parsed.ok()) {
      return SchemaAndValue{data::Schema::Optional(data::Type::kString),
                            Value::String(std::string(*bytes))};
    }
    return SchemaAndValue{parsed->first, parsed->second};
  }
};

std::string_view Simple(std::string_view class_name) {
  const size_t dot = class_name.rfind('.');
  return dot == std::string_view::npos ? class_name : class_name.substr(dot + 1);
}

}  // namespace

std::string CanonicalConverterClass(std::string_view class_name, ConverterType type) {
  for (std::string_view known : {kByteArrayConverter, kStringConverter, kJsonConverter}) {
    if (class_name == known || class_name == Simple(known)) return std::string(known);
  }
  for (std::string_view known : kNumberConverters) {
    if (class_name == known || class_name == Simple(known)) return std::string(known);
  }
  if (type == ConverterType::kHeader &&
      (class_name == kSimpleHeaderConverter || class_name == Simple(kSimpleHeaderConverter))) {
    return std::string(kSimpleHeaderConverter);
  }
  return "";
}

absl::StatusOr<std::unique_ptr<Converter>> MakeConverter(
    std::string_view class_name, const std::map<std::string, std::string>& configs,
    ConverterType type) {
  const std::string canonical = CanonicalConverterClass(class_name, type);
  if (canonical == kByteArrayConverter) return std::make_unique<ByteArrayConverter>();
  if (canonical == kStringConverter) return std::make_unique<StringConverter>();
  if (canonical == kSimpleHeaderConverter) return std::make_unique<SimpleHeaderConverter>();
  if (std::unique_ptr<Converter> number = MakeNumberConverter(canonical)) return number;
  if (canonical == kJsonConverter) {
    absl::StatusOr<JsonConverterConfig> config = JsonConverterConfig::Parse(configs);
    if (!config.ok()) return config.status();
    return std::make_unique<JsonConverter>(*config);
  }
  return absl::InvalidArgumentError(
      absl::StrCat("Converter ", AsAbsl(class_name),
                   " is not supported by connectd: use ByteArrayConverter, StringConverter, "
                   "JsonConverter or Kafka's Boolean, Short, Integer, Long, Float or Double "
                   "converter",
                   type == ConverterType::kHeader ? " (or SimpleHeaderConverter)" : ""));
}

ConverterSpec ResolveConverter(const std::map<std::string, std::string>& connector_config,
                               const std::map<std::string, std::string>& worker_config,
                               std::string_view which, std::string_view default_class) {
  const std::string key = absl::StrCat(AsAbsl(which), ".converter");
  const std::map<std::string, std::string>* source = &connector_config;
  auto it = connector_config.find(key);
  if (it == connector_config.end()) {
    source = &worker_config;
    it = worker_config.find(key);
  }
  ConverterSpec spec;
  spec.class_name = it == source->end() ? std::string(default_class) : it->second;
  const std::string prefix = key + ".";
  for (auto p = source->lower_bound(prefix); p != source->end(); ++p) {
    if (p->first.compare(0, prefix.size(), prefix) != 0) break;
    spec.configs[p->first.substr(prefix.size())] = p->second;
  }
  return spec;
}

bool IsPassThrough(std::string_view class_name) {
  const std::string canonical = CanonicalConverterClass(class_name, ConverterType::kValue);
  return canonical == kByteArrayConverter || canonical == kStringConverter;
}

}  // namespace connectd::converters
