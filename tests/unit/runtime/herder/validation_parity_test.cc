// Connector validation as Kafka 4.4 answers it (what tests/e2e/rest_parity_test.py compares
// against a live Java worker, here without one): parse failures, the KIP-891 version keys,
// the worker's converters as defaults, the keys a config's transforms, predicates and converters
// add, and the plugin-config endpoint with ?version=.
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "runtime/herder/connector_validation.h"
#include "tests/unit/runtime/herder/herder_test_support.h"

namespace connectd::herder {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

const ConfigInfo* Find(const ConfigInfos& infos, const std::string& name) {
  for (const ConfigInfo& info : infos.configs) {
    if (info.definition && info.definition->name == name) return &info;
  }
  return nullptr;
}

std::vector<std::string> Names(const ConfigInfos& infos) {
  std::vector<std::string> names;
  for (const ConfigInfo& info : infos.configs) {
    names.push_back(info.definition ? info.definition->name : info.value->name);
  }
  return names;
}

WorkerValidation Worker() {
  WorkerValidation worker;
  worker.key_converter = "org.apache.kafka.connect.storage.StringConverter";
  worker.value_converter = "org.apache.kafka.connect.json.JsonConverter";
  worker.header_converter = "org.apache.kafka.connect.storage.SimpleHeaderConverter";
  return worker;
}

ConfigInfos Validate(ConfigMap config) {
  config.emplace("connector.class", "IdleSource");
  config.emplace("name", "c");
  config.emplace("topic", "t");
  absl::StatusOr<ConfigInfos> infos =
      ValidateConnectorConfig(*test_support::IdleSourceRegistry(), Worker(), config);
  EXPECT_TRUE(infos.ok()) << infos.status();
  return infos.ok() ? *infos : ConfigInfos{};
}

TEST(ValidationParityTest, AValueThatDoesNotParseIsNullAndFailsItsRangeToo) {
  ConfigInfos infos = Validate({{"tasks.max", "abc"}});
  const ConfigInfo* tasks = Find(infos, "tasks.max");
  ASSERT_NE(tasks, nullptr);
  EXPECT_EQ(tasks->value->value, std::nullopt);
  EXPECT_THAT(tasks->value->errors,
              ElementsAre("Invalid value abc for configuration tasks.max: Not a number of type INT",
                          "Invalid value null for configuration tasks.max: Value must be "
                          "non-null"));
  EXPECT_EQ(infos.error_count, 2);
  // A validator's set of strings is no recommendation (Java recommends through Recommenders).
  EXPECT_THAT(Find(infos, "errors.tolerance")->value->recommended_values, IsEmpty());
}

TEST(ValidationParityTest, VersionsAndConvertersAsJava) {
  ConfigInfos infos = Validate({});
  const ConfigInfo* version = Find(infos, "connector.plugin.version");
  ASSERT_NE(version, nullptr);
  EXPECT_EQ(version->definition->default_value, "1.2.3");
  EXPECT_EQ(version->value->value, "1.2.3");
  EXPECT_THAT(version->value->recommended_values, ElementsAre("1.2.3"));
  const ConfigInfo* value = Find(infos, "value.converter");
  EXPECT_EQ(value->definition->default_value, "org.apache.kafka.connect.json.JsonConverter");
  EXPECT_EQ(value->value->value, "org.apache.kafka.connect.json.JsonConverter");
  EXPECT_EQ(value->value->recommended_values.size(), 9u);  // Java's nine converters
  EXPECT_EQ(Find(infos, "header.converter")->value->recommended_values.size(), 10u);
  EXPECT_EQ(Find(infos, "value.converter.plugin.version")->value->value, "4.4.0");
  // Java's order of the framework keys.
  std::vector<std::string> names = Names(infos);
  EXPECT_THAT(std::vector<std::string>(names.begin(), names.begin() + 4),
              ElementsAre("name", "connector.class", "connector.plugin.version", "tasks.max"));
}

TEST(ValidationParityTest, AVersionNoPluginHasIsAnError) {
  ConfigInfos pinned = Validate({{"connector.plugin.version", "[2.0,3.0)"}});
  const std::string message =
      "Plugin org.example.IdleSourceConnector not found that matches the version range "
      "[2.0,3.0), available versions: [1.2.3]";
  EXPECT_THAT(Find(pinned, "connector.class")->value->errors, ElementsAre(message));
  EXPECT_THAT(Find(pinned, "connector.plugin.version")->value->errors, ElementsAre(message));
  EXPECT_EQ(Find(pinned, "topic"), nullptr);  // only the framework keys, as Java
  EXPECT_EQ(Validate({{"connector.plugin.version", "[1.0,2.0)"}}).error_count, 0);

  ConfigInfos converter =
      Validate({{"key.converter", "StringConverter"}, {"key.converter.plugin.version", "3.9.0"}});
  EXPECT_THAT(Find(converter, "key.converter.plugin.version")->value->errors,
              ElementsAre(HasSubstr("Plugin org.apache.kafka.connect.storage.StringConverter "
                                    "not found that matches the version range [3.9.0,3.9.0]")));
  ConfigInfos transform = Validate({{"transforms", "a"},
                                    {"transforms.a.type", "InsertField$Value"},
                                    {"transforms.a.static.field", "f"},
                                    {"transforms.a.static.value", "v"},
                                    {"transforms.a.plugin.version", "(4.4.0,)"}});
  EXPECT_THAT(Find(transform, "transforms.a.plugin.version")->value->errors,
              ElementsAre(HasSubstr("available versions: [4.4.0]")));
}

TEST(ValidationParityTest, TransformsPredicatesAndConvertersAddTheirKeys) {
  ConfigInfos infos = Validate({{"transforms", "a"},
                                {"transforms.a.type", "Filter"},
                                {"transforms.a.predicate", "p"},
                                {"predicates", "p"},
                                {"predicates.p.type", "TopicNameMatches"},
                                {"predicates.p.pattern", "x.*"},
                                {"key.converter", "JsonConverter"}});
  EXPECT_EQ(infos.error_count, 0);
  const ConfigInfo* type = Find(infos, "transforms.a.type");
  ASSERT_NE(type, nullptr);
  EXPECT_EQ(type->definition->group, "Transforms: a");
  EXPECT_EQ(type->definition->order_in_group, 0);
  EXPECT_FALSE(type->value->recommended_values.empty());
  EXPECT_EQ(Find(infos, "transforms.a.plugin.version")->value->value, "4.4.0");
  EXPECT_EQ(Find(infos, "transforms.a.negate")->definition->order_in_group, 2);
  EXPECT_EQ(Find(infos, "transforms.a.predicate")->definition->order_in_group, 3);
  EXPECT_EQ(Find(infos, "predicates.p.pattern")->value->value, "x.*");
  EXPECT_EQ(Find(infos, "key.converter.converter.type")->value->value, "key");
  EXPECT_EQ(Find(infos, "key.converter.schemas.enable")->value->value, "true");
  EXPECT_THAT(infos.groups, ::testing::IsSupersetOf({"Transforms: a", "Predicates: p", "Schemas"}));
}

TEST(ValidationParityTest, PluginConfigListsTheFrameworkKeysAndTakesAVersion) {
  const plugin::PluginRegistry& plugins = *test_support::IdleSourceRegistry();
  absl::StatusOr<std::vector<ConfigKeyInfo>> keys =
      ConnectorPluginConfigKeys(plugins, "IdleSource", std::nullopt);
  ASSERT_TRUE(keys.ok());
  EXPECT_EQ(keys->front().name, "topic");  // the connector's own keys first
  EXPECT_EQ(keys->size(), 1u + 24u);       // then a source connector's 24 framework keys
  absl::StatusOr<std::vector<ConfigKeyInfo>> missing =
      ConnectorPluginConfigKeys(plugins, "IdleSource", "9.9");
  EXPECT_EQ(missing.status().message(),
            "Plugin org.example.IdleSourceConnector not found that matches the version range "
            "[9.9,9.9], available versions: [1.2.3]");
  EXPECT_TRUE(ConnectorPluginConfigKeys(plugins, "IntegerConverter", std::nullopt).ok());
  EXPECT_EQ(ConnectorPluginConfigKeys(plugins, "Nope", std::nullopt).status().code(),
            absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace connectd::herder
