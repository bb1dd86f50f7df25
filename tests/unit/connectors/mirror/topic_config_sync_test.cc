// MirrorSourceConnector's topic config decisions (MirrorSourceConnector.createNewTopics and syncTopicConfigs, KIP-894): creation configs,
// Java's incremental SET/DELETE ops, and their translation into one replace-all AlterConfigs.
#include "connectors/mirror/topic_config_sync.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <string>

namespace connectd::mirror {
namespace {

using ::testing::ElementsAre;
using Action = ConfigReplacement::Action;
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
  EXPECT_TRUE(ops.Touches("retention.ms"));
  EXPECT_TRUE(ops.Touches("retention.bytes"));
  EXPECT_FALSE(ops.Touches("delete.retention.ms"));  // excluded
  EXPECT_FALSE(ops.Touches("segment.bytes"));        // static broker config
  EXPECT_FALSE(ops.Touches("read.only.thing"));
  EXPECT_FALSE(ops.Touches("secret.thing"));
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

// ---- PlanConfigReplacement ------------------------------------------------------------------

// Java's testSyncTopicConfigs: the target overrides the excluded delete.retention.ms and
// retention.bytes; the sync keeps the first and restores the second.
TEST(PlanConfigReplacementTest, ExcludedTargetOverrideSurvivesOthersRestored) {
  ConfigOps ops = SourceConfigOps(
      {{"retention.bytes", Override("1000")}, {"delete.retention.ms", Override("1000")}},
      Filter(kExcludeDeleteRetention));
  ConfigReplacement plan = PlanConfigReplacement(ops, {{"retention.bytes", Override("2000")},
                                                       {"delete.retention.ms", Override("2000")},
                                                       {"retention.ms", Default("604800000")}});
  EXPECT_EQ(plan.action, Action::kReplace);
  EXPECT_EQ(plan.configs, (Map{{"delete.retention.ms", "2000"}, {"retention.bytes", "1000"}}));
}

// Java's testReplicateSourceDefault: use.defaults.from=source sets the source's default value.
TEST(PlanConfigReplacementTest, SourceDefaultIsSetWhenUseDefaultsFromSource) {
  Map props = kExcludeDeleteRetention;
  props["use.defaults.from"] = "source";
  ConfigOps ops = SourceConfigOps(
      {{"retention.bytes", Default("-1")}, {"delete.retention.ms", Override("1000")}},
      Filter(props));
  ConfigReplacement plan = PlanConfigReplacement(
      ops, {{"retention.bytes", Override("2000")}, {"delete.retention.ms", Override("2000")}});
  EXPECT_EQ(plan.action, Action::kReplace);
  EXPECT_EQ(plan.configs, (Map{{"delete.retention.ms", "2000"}, {"retention.bytes", "-1"}}));
}

// Java's testReplicateTargetDefault: a source default DELETEs the target override.
TEST(PlanConfigReplacementTest, SourceDefaultDeletesTargetOverride) {
  ConfigOps ops = SourceConfigOps({{"retention.bytes", Default("-1")}}, Filter());
  ConfigReplacement plan =
      PlanConfigReplacement(ops, {{"retention.bytes", Override("1000")},
                                  {"min.insync.replicas", Override("1")}});  // excluded: kept
  EXPECT_EQ(plan.action, Action::kReplace);
  EXPECT_EQ(plan.configs, (Map{{"min.insync.replicas", "1"}}));
}

TEST(PlanConfigReplacementTest, EverythingDeletedSendsAnEmptySet) {
  ConfigOps ops = SourceConfigOps({{"retention.bytes", Default("-1")}}, Filter());
  ConfigReplacement plan = PlanConfigReplacement(ops, {{"retention.bytes", Override("1000")}});
  EXPECT_EQ(plan.action, Action::kReplace);
  EXPECT_TRUE(plan.configs.empty());
}

TEST(PlanConfigReplacementTest, SteadyStateSendsNothing) {
  ConfigOps ops = SourceConfigOps(SourceTopic(), Filter(kExcludeDeleteRetention));
  TopicConfigs target = {{"retention.ms", Default("604800000")},
                         {"delete.retention.ms", Override("5")}};
  for (const auto& [name, value] : ops.set) target[name] = Override(value);
  ConfigReplacement plan = PlanConfigReplacement(ops, target);
  EXPECT_EQ(plan.action, Action::kUnchanged);
  EXPECT_TRUE(plan.configs.empty());
}

TEST(PlanConfigReplacementTest, DeleteOfAbsentOverrideSendsNothing) {
  ConfigOps ops = SourceConfigOps({{"retention.bytes", Default("-1")}}, Filter());
  EXPECT_EQ(PlanConfigReplacement(ops, {{"retention.bytes", Default("-1")}}).action,
            Action::kUnchanged);
}

TEST(PlanConfigReplacementTest, SetEqualToTargetDefaultStillBecomesAnOverride) {
  // An incremental SET creates the override even if the value equals the target's default.
  ConfigOps ops = SourceConfigOps({{"retention.ms", Override("604800000")}}, Filter());
  ConfigReplacement plan = PlanConfigReplacement(ops, {{"retention.ms", Default("604800000")}});
  EXPECT_EQ(plan.action, Action::kReplace);
  EXPECT_EQ(plan.configs, (Map{{"retention.ms", "604800000"}}));
}

TEST(PlanConfigReplacementTest, UntouchedTargetOverridesAreKept) {
  // Keys the ops don't touch keep their target override, whatever the reason: excluded,
  // STATIC_BROKER_CONFIG or read-only on the source, or unknown to the source.
  TopicConfigs source = {{"segment.bytes", StaticBroker("1048576")},
                         {"retention.bytes", Override("7")}};
  ConfigOps ops = SourceConfigOps(source, Filter());
  ConfigReplacement plan = PlanConfigReplacement(ops, {{"segment.bytes", Override("2097152")},
                                                       {"only.on.target", Override("x")},
                                                       {"min.insync.replicas", Override("1")}});
  EXPECT_EQ(plan.action, Action::kReplace);
  EXPECT_EQ(plan.configs, (Map{{"min.insync.replicas", "1"},
                               {"only.on.target", "x"},
                               {"retention.bytes", "7"},
                               {"segment.bytes", "2097152"}}));
}

TEST(PlanConfigReplacementTest, NonTopicTargetValuesAreNotOverrides) {
  // Values inherited from broker configs on the target are not resent as topic overrides.
  ConfigOps ops = SourceConfigOps({{"retention.bytes", Override("7")}}, Filter());
  ConfigReplacement plan =
      PlanConfigReplacement(ops, {{"max.message.bytes", DynamicBroker("3000000")},
                                  {"segment.bytes", StaticBroker("1048576")}});
  EXPECT_EQ(plan.action, Action::kReplace);
  EXPECT_EQ(plan.configs, (Map{{"retention.bytes", "7"}}));
}

TEST(PlanConfigReplacementTest, UntouchedSensitiveTargetOverrideSkipsTheTopic) {
  ConfigEntry secret = Override("");
  secret.is_sensitive = true;
  ConfigOps ops = SourceConfigOps({{"retention.bytes", Override("7")}}, Filter());
  ConfigReplacement plan =
      PlanConfigReplacement(ops, {{"secret.thing", secret}, {"retention.bytes", Override("1")}});
  EXPECT_EQ(plan.action, Action::kSkipSensitive);
  EXPECT_THAT(plan.sensitive, ElementsAre("secret.thing"));
  EXPECT_TRUE(plan.configs.empty());
}

TEST(PlanConfigReplacementTest, TouchedSensitiveTargetOverrideIsReplaced) {
  ConfigEntry secret = Override("");
  secret.is_sensitive = true;
  ConfigOps ops;
  ops.remove.insert("secret.thing");
  ops.set["retention.bytes"] = "7";
  ConfigReplacement plan = PlanConfigReplacement(ops, {{"secret.thing", secret}});
  EXPECT_EQ(plan.action, Action::kReplace);
  EXPECT_EQ(plan.configs, (Map{{"retention.bytes", "7"}}));
}

}  // namespace
}  // namespace connectd::mirror
