// The ConfigDefs of the built-in transformations, predicates and converters against Java's:
// tests/golden/rest/java-4.4.0-plugin-configs.json holds what a Java Connect 4.4.0 worker
// answered to GET /connector-plugins/<class>/config for each class, a list of ConfigKeyInfo.
// Every class both sides know must match key for key, in order.
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "runtime/config/config_def.h"
#include "runtime/converters/converter_config_defs.h"
#include "runtime/converters/converter_factory.h"
#include "runtime/data/connect_json.h"
#include "runtime/transforms/builtin_config_defs.h"
#include "runtime/transforms/transformation.h"

namespace connectd {
namespace {

using data::JsonValue;

std::string GoldenPath() {
  const char* env = std::getenv("CONNECTD_SOURCE_DIR");
  return std::string(env != nullptr ? env : CONNECTD_SOURCE_DIR) +
         "/tests/golden/rest/java-4.4.0-plugin-configs.json";
}

// The golden file: an object of class name to {"types": [...], "status": 200, "config": [...]}.
JsonValue LoadGolden() {
  std::ifstream in(GoldenPath(), std::ios::binary);
  EXPECT_TRUE(in) << "cannot read " << GoldenPath();
  std::stringstream bytes;
  bytes << in.rdbuf();
  absl::StatusOr<JsonValue> golden = data::ReadConnectJson(bytes.str());
  EXPECT_TRUE(golden.ok()) << golden.status();
  return golden.ok() ? *std::move(golden) : JsonValue();
}

// The member `name` of a ConfigKeyInfo as text; nullopt for JSON null.
std::optional<std::string> Text(const JsonValue& info, std::string_view name) {
  const JsonValue* v = info.Find(name);
  if (v == nullptr) ADD_FAILURE() << "no " << name << " in the golden entry";
  if (v == nullptr || v->kind != JsonValue::Kind::kString) return std::nullopt;
  return v->text;
}

bool HasType(const JsonValue& entry, std::string_view type) {
  const JsonValue* types = entry.Find("types");
  if (types == nullptr) return false;
  for (const JsonValue& t : types->elements) {
    if (t.text == type) return true;
  }
  return false;
}

// `def` against the ConfigKeyInfo list Java gave for `class_name`, field by field.
void ExpectSameKeys(const std::string& class_name, const config::ConfigDef& def,
                    const JsonValue& entry) {
  SCOPED_TRACE(class_name);
  const JsonValue* infos = entry.Find("config");
  ASSERT_NE(infos, nullptr);
  ASSERT_EQ(infos->kind, JsonValue::Kind::kArray);
  ASSERT_EQ(def.keys().size(), infos->elements.size());
  for (size_t i = 0; i < infos->elements.size(); ++i) {
    const config::ConfigKey& key = def.keys()[i];
    const JsonValue& want = infos->elements[i];
    SCOPED_TRACE(key.name);
    EXPECT_EQ(key.name, Text(want, "name"));
    EXPECT_EQ(std::string(config::TypeName(key.type)), Text(want, "type"));
    const JsonValue* required = want.Find("required");
    ASSERT_NE(required, nullptr);
    EXPECT_EQ(!key.has_default, required->boolean);
    // REST shows a required key's default as null, like a null default.
    EXPECT_EQ(key.has_default ? key.default_value : std::nullopt, Text(want, "default_value"));
    EXPECT_EQ(std::string(config::ImportanceName(key.importance)), Text(want, "importance"));
    EXPECT_EQ(key.documentation, Text(want, "documentation"));
    // Java's null group is connectd's empty one.
    EXPECT_EQ(key.group, Text(want, "group").value_or(""));
    const JsonValue* order = want.Find("order_in_group");
    ASSERT_NE(order, nullptr);
    EXPECT_EQ(key.order_in_group, order->integer);
    EXPECT_EQ(std::string(config::WidthName(key.width)), Text(want, "width"));
    EXPECT_EQ(key.display_name, Text(want, "display_name"));
    std::vector<std::string> dependents;
    if (const JsonValue* d = want.Find("dependents")) {
      for (const JsonValue& name : d->elements) dependents.push_back(name.text);
    }
    EXPECT_EQ(key.dependents, dependents);
  }
}

std::vector<std::string> BuiltInStageClasses() {
  std::vector<std::string> classes = transforms::BuiltInTransformationClasses();
  for (const std::string& c : transforms::BuiltInPredicateClasses()) classes.push_back(c);
  return classes;
}

std::string SimpleName(const std::string& class_name) {
  return class_name.substr(class_name.rfind('.') + 1);
}

TEST(BuiltInConfigDefsTest, TransformationsAndPredicatesMatchJava) {
  const JsonValue golden = LoadGolden();
  ASSERT_EQ(golden.kind, JsonValue::Kind::kObject);
  size_t compared = 0;
  for (const auto& [class_name, entry] : golden.members) {
    if (!HasType(entry, "transformation") && !HasType(entry, "predicate")) continue;
    const config::ConfigDef* def = transforms::BuiltInStageConfigDef(class_name);
    if (def == nullptr) continue;  // a class connectd does not ship
    ExpectSameKeys(class_name, *def, entry);
    ++compared;
  }
  EXPECT_EQ(compared, BuiltInStageClasses().size());
}

TEST(BuiltInConfigDefsTest, ConvertersMatchJava) {
  const JsonValue golden = LoadGolden();
  ASSERT_EQ(golden.kind, JsonValue::Kind::kObject);
  std::vector<std::string> compared;
  for (const auto& [class_name, entry] : golden.members) {
    if (!HasType(entry, "converter") && !HasType(entry, "header_converter")) continue;
    const config::ConfigDef* def = converters::ConverterConfigDef(class_name);
    ASSERT_NE(def, nullptr) << class_name;  // connectd has every converter Java lists
    ExpectSameKeys(class_name, *def, entry);
    compared.push_back(class_name);
  }
  EXPECT_EQ(compared.size(), 10u);
}

TEST(BuiltInConfigDefsTest, EveryBuiltInStageHasADefUnderBothNames) {
  const JsonValue golden = LoadGolden();
  for (const std::string& class_name : BuiltInStageClasses()) {
    SCOPED_TRACE(class_name);
    const config::ConfigDef* def = transforms::BuiltInStageConfigDef(class_name);
    EXPECT_NE(def, nullptr);
    EXPECT_EQ(transforms::BuiltInStageConfigDef(SimpleName(class_name)), def);
    EXPECT_NE(golden.Find(class_name), nullptr) << "not in the golden file, so never compared";
  }
}

TEST(BuiltInConfigDefsTest, KeyAndValueVariantsShareOneDef) {
  EXPECT_EQ(
      transforms::BuiltInStageConfigDef("InsertField$Key"),
      transforms::BuiltInStageConfigDef("org.apache.kafka.connect.transforms.InsertField$Value"));
  EXPECT_EQ(transforms::BuiltInStageConfigDef("Cast$Key"),
            transforms::BuiltInStageConfigDef("Cast$Value"));
}

// The names a def answers to are the names the registry makes an instance for.
TEST(BuiltInConfigDefsTest, ResolvesNamesAsTheRegistryDoes) {
  std::vector<std::string> names = BuiltInStageClasses();
  for (const std::string& c : BuiltInStageClasses()) names.push_back(SimpleName(c));
  for (const char* odd : {"", "InsertField", "insertfield$value", "transforms.InsertField$Value",
                          "com.example.InsertField$Value", "predicates.HasHeaderKey",
                          "org.apache.kafka.connect.transforms.HasHeaderKey",
                          "org.apache.kafka.connect.transforms.predicates.InsertField$Value",
                          "org.apache.kafka.connect.transforms.Cast$Value "}) {
    names.push_back(odd);
  }
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    const bool registry_knows = transforms::MakeBuiltInTransformation(name) != nullptr ||
                                transforms::MakeBuiltInPredicate(name) != nullptr;
    EXPECT_EQ(transforms::BuiltInStageConfigDef(name) != nullptr, registry_knows);
  }
}

TEST(BuiltInConfigDefsTest, UnknownClassesHaveNoDef) {
  EXPECT_EQ(transforms::BuiltInStageConfigDef("com.example.MyTransform"), nullptr);
  EXPECT_EQ(transforms::BuiltInStageConfigDef("org.apache.kafka.connect.json.JsonConverter"),
            nullptr);
  EXPECT_EQ(converters::ConverterConfigDef("com.example.MyConverter"), nullptr);
  EXPECT_EQ(converters::ConverterConfigDef("org.apache.kafka.connect.converters.UuidConverter"),
            nullptr);
  EXPECT_EQ(converters::ConverterConfigDef("InsertField$Value"), nullptr);
}

TEST(BuiltInConfigDefsTest, ConvertersAnswerToTheirSimpleNames) {
  for (std::string_view class_name :
       {converters::kByteArrayConverter, converters::kStringConverter, converters::kJsonConverter,
        converters::kSimpleHeaderConverter}) {
    SCOPED_TRACE(class_name);
    const config::ConfigDef* def = converters::ConverterConfigDef(class_name);
    EXPECT_NE(def, nullptr);
    EXPECT_EQ(converters::ConverterConfigDef(class_name.substr(class_name.rfind('.') + 1)), def);
  }
}

// The validators are those the transforms' Configure enforces, with the same messages.
TEST(BuiltInConfigDefsTest, DefsValidateAsTheTransformsConfigure) {
  const config::ConfigDef* header_from = transforms::BuiltInStageConfigDef("HeaderFrom$Value");
  ASSERT_NE(header_from, nullptr);
  absl::StatusOr<config::ParsedConfig> parsed =
      header_from->Parse({{"fields", "a"}, {"headers", "b"}, {"operation", "swap"}});
  EXPECT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().message(),
            "Invalid value swap for configuration operation: String must be one of: move, copy");

  const config::ConfigDef* converter = transforms::BuiltInStageConfigDef("TimestampConverter$Key");
  ASSERT_NE(converter, nullptr);
  EXPECT_TRUE(converter->Parse({{"target.type", "unix"}, {"unix.precision", "seconds"}}).ok());
  EXPECT_FALSE(converter->Parse({{"target.type", "epoch"}}).ok());

  const config::ConfigDef* matches = transforms::BuiltInStageConfigDef("TopicNameMatches");
  ASSERT_NE(matches, nullptr);
  EXPECT_FALSE(matches->Parse({{"pattern", " "}}).ok());
  EXPECT_FALSE(matches->Parse({}).ok());  // required
}

}  // namespace
}  // namespace connectd
