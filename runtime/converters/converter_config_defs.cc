#include "runtime/converters/converter_config_defs.h"

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "runtime/converters/converter_factory.h"
#include "runtime/converters/number_converters.h"

namespace connectd::converters {
namespace {

using config::ConfigDef;
using config::ConfigKey;
using config::Importance;
using config::Type;
using config::Width;

// How Java lays a key out in a form: group, order in it, width and display name. Java's plain
// define() gives none of these and shows the key's name.
struct Layout {
  const char* group = "";
  int order = -1;
  Width width = Width::kNone;
  const char* display_name = nullptr;  // nullptr: the key's name
};

using Default = config::JavaDefault;
constexpr Default kRequired = Default::Required();
constexpr Default kNull = Default::Null();
constexpr Default Of(const char* value) { return Default::Of(value); }

ConfigKey Key(const char* name, Type type, Default default_value, Importance importance,
              const char* doc, Layout layout = {}) {
  ConfigKey key = config::JavaKey(name, type, default_value, importance, doc);
  key.group = layout.group;
  key.order_in_group = layout.order;
  key.width = layout.width;
  key.display_name = layout.display_name != nullptr ? layout.display_name : name;
  return key;
}

// ConverterConfig's one key, first in every converter's definition. Java validates it
// (key, value or header); connectd sets it itself, so no validator here.
ConfigKey ConverterTypeKey() {
  return Key("converter.type", Type::kString, kRequired, Importance::kLow,
             "How this converter will be used.");
}

ConfigDef Def(std::vector<ConfigKey> keys) {
  ConfigDef def;
  for (ConfigKey& key : keys) def.Define(std::move(key));
  return def;
}

const std::map<std::string, ConfigDef, std::less<>>& DefsByClass() {
  static const auto* defs = new std::map<std::string, ConfigDef, std::less<>>{
      {std::string(kByteArrayConverter), Def({ConverterTypeKey()})},
      {std::string(kStringConverter),
       Def({ConverterTypeKey(),
            Key("converter.encoding", Type::kString, Of("UTF-8"), Importance::kHigh,
                "The name of the Java character set to use for encoding strings as byte arrays.",
                {.width = Width::kMedium, .display_name = "Encoding"})})},
      {std::string(kJsonConverter),
       Def({ConverterTypeKey(),
            Key("schemas.enable", Type::kBoolean, Of("true"), Importance::kHigh,
                "Include schemas within each of the serialized values and keys.",
                {"Schemas", 0, Width::kMedium, "Enable Schemas"}),
            Key("schemas.cache.size", Type::kInt, Of("1000"), Importance::kHigh,
                "The maximum number of schemas that can be cached in this converter instance.",
                {"Schemas", 1, Width::kMedium, "Schema Cache Size"}),
            Key("schema.content", Type::kString, kNull, Importance::kHigh,
                "When set, this is used as the schema for all messages, and the schemas within "
                "each of the message will be ignored.Otherwise, the schema will be included in "
                "the content of each message. This configuration applies only 'schemas.enable' "
                "is true, and it exclusively affects the sink connector.",
                {"Schemas", 2, Width::kMedium, "Schema Content"}),
            // Case-insensitive in Java and in JsonConverterConfig::Parse, which checks it; the
            // house validators are case-sensitive, hence none here.
            Key("decimal.format", Type::kString, Of("BASE64"), Importance::kLow,
                "Controls which format this converter will serialize decimals in. This value is "
                "case insensitive and can be either 'BASE64' (default) or 'NUMERIC'",
                {"Serialization", 0, Width::kMedium, "Decimal Format"}),
            Key("replace.null.with.default", Type::kBoolean, Of("true"), Importance::kLow,
                "Whether to replace fields that have a default value and that are null to the "
                "default value. When set to true, the default value is used, otherwise null is "
                "used.",
                {"Serialization", 1, Width::kMedium, "Replace null with default"})})},
      // A header converter only; Java defines no keys for it.
      {std::string(kSimpleHeaderConverter), Def({})},
      // Kafka's number and boolean converters: converter.type only.
      {std::string(kBooleanConverter), Def({ConverterTypeKey()})},
      {std::string(kDoubleConverter), Def({ConverterTypeKey()})},
      {std::string(kFloatConverter), Def({ConverterTypeKey()})},
      {std::string(kIntegerConverter), Def({ConverterTypeKey()})},
      {std::string(kLongConverter), Def({ConverterTypeKey()})},
      {std::string(kShortConverter), Def({ConverterTypeKey()})},
  };
  return *defs;
}

}  // namespace

const config::ConfigDef* ConverterConfigDef(std::string_view class_name) {
  // The header role accepts every converter connectd ships, so its names are all the names.
  const std::string canonical = CanonicalConverterClass(class_name, ConverterType::kHeader);
  if (canonical.empty()) return nullptr;
  const auto& defs = DefsByClass();
  auto it = defs.find(canonical);
  return it == defs.end() ? nullptr : &it->second;
}

}  // namespace connectd::converters
