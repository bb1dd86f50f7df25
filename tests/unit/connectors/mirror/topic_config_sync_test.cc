// MirrorSourceConnector's topic config decisions (MirrorSourceConnector.createNewTopics and
// syncTopicConfigs, KIP-894): creation configs and Java's incremental SET/DELETE ops.
#include "connectors/mirror/topic_config_sync.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <string>

namespace connectd::mirror {
namespace {

using ::testing::ElementsAre;
using Map = std::map<std::string, std::string>;

ConfigPropertyFilter Filter(const Map& props = {}) {
  std::string error;
  auto filter = ConfigPropertyFilter::Make(props, &error);
  EXPECT_TRUE(filter.has_value()) << error;
  return *filter;
}

ConfigEntry Default(const std::string& value) {
  ConfigEntry e;
  e.value = value;
  e.is_default = true;
  return e;
}

ConfigEntry Override(const std::string& value) {
  ConfigEntry e;
  e.value = value;
  e.is_dynamic_topic = true;
  return e;
}

ConfigEntry DynamicBroker(const std::string& value) {
  ConfigEntry e;  // DYNAMIC_BROKER_CONFIG / DYNAMIC_DEFAULT_BROKER_CONFIG: not a default
  e.value = value;
  return e;
}

ConfigEntry StaticBroker(const std::string& value) {
  ConfigEntry e;
  e.value = value;
  e.is_static_broker = true;
  return e;
}

// A source topic as Kafka describes it: a few defaults, overrides, and the special kinds.
TopicConfigs SourceTopic() {
  ConfigEntry read_only = Default("x");
  read_only.is_read_only = true;
  ConfigEntry sensitive = Override("");
  sensitive.is_sensitive = true;
  return {
      {"cleanup.policy", Override("compact")},
      {"retention.bytes", Override("1000")},
      {"delete.retention.ms", Override("1000")},  // excluded by the test filter below
      {"retention.ms", Default("604800000")},
      {"min.insync.replicas", DynamicBroker("2")},  // excluded by the default filter
      {"segment.bytes", StaticBroker("1048576")},
      {"max.message.bytes", DynamicBroker("2000000")},
      {"read.only.thing", read_only},
      {"secret.thing", sensitive},
  };
}

const Map kExcludeDeleteRetention = {{"config.properties.exclude", "delete\\.retention\\..*"}};

// ---- CreationConfigs (Java's targetConfig(config, false)) -------------------------------------

TEST(CreationConfigsTest, CopiesNonDefaultSyncableEntries) {
  EXPECT_EQ(CreationConfigs(SourceTopic(), Filter(kExcludeDeleteRetention)),
            (Map{{"cleanup.policy", "compact"},
                 {"max.message.bytes", "2000000"},
                 {"min.insync.replicas", "2"},
                 {"retention.bytes", "1000"}}));
}

TEST(CreationConfigsTest, DefaultFilterExcludesMinInsyncReplicas) {
  Map configs = CreationConfigs(SourceTopic(), Filter());
  EXPECT_EQ(configs.count("min.insync.replicas"), 0u);
  EXPECT_EQ(configs.at("delete.retention.ms"), "1000");
}

TEST(CreationConfigsTest, SourceDefaultsCopiedWhenUseDefaultsFromSource) {
  Map props = kExcludeDeleteRetention;
  props["use.defaults.from"] = "source";
  Map configs = CreationConfigs(SourceTopic(), Filter(props));
  EXPECT_EQ(configs.at("retention.ms"), "604800000");
  EXPECT_EQ(configs.count("segment.bytes"), 0u);  // STATIC_BROKER_CONFIG never
  EXPECT_EQ(configs.count("read.only.thing"), 0u);
  EXPECT_EQ(configs.count("secret.thing"), 0u);
}

// ---- SourceConfigOps (Java's incrementalAlterConfigs ops) ----------------------------------

TEST(SourceConfigOpsTest, DefaultsAreDeletedOthersSet) {
  ConfigOps ops = SourceConfigOps(SourceTopic(), Filter(kExcludeDeleteRetention));
  EXPECT_EQ(ops.set, (Map{{"cleanup.policy", "compact"},
                          {"max.message.bytes", "2000000"},
                          {"min.insync.replicas", "2"},
                          {"retention.bytes", "1000"}}));
  EXPECT_THAT(ops.remove, ElementsAre("retention.ms"));
}

TEST(SourceConfigOpsTest, UseDefaultsFromSourceSetsDefaults) {
  Map props = kExcludeDeleteRetention;
  props["use.defaults.from"] = "source";
  ConfigOps ops = SourceConfigOps(SourceTopic(), Filter(props));
  EXPECT_TRUE(ops.remove.empty());
  EXPECT_EQ(ops.set.at("retention.ms"), "604800000");
}

TEST(SourceConfigOpsTest, UseDefaultsFromIsCaseSensitive) {
  Map props = {{"use.defaults.from", "Source"}};
  ConfigOps ops = SourceConfigOps({{"retention.ms", Default("1")}}, Filter(props));
  EXPECT_THAT(ops.remove, ElementsAre("retention.ms"));
}

}  // namespace
}  // namespace connectd::mirror
