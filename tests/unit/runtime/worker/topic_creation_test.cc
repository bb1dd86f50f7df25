// topic.creation.* (KIP-158) settings: which group a new topic gets, and Java's config errors.
#include "runtime/worker/topic_creation.h"

#include "gtest/gtest.h"

namespace connectd::worker {
namespace {

using Config = std::map<std::string, std::string>;

TEST(TopicCreationTest, OffUnlessTheWorkerAllowsAndTheConnectorAsks) {
  const Config asks = {{"topic.creation.default.replication.factor", "1"},
                       {"topic.creation.default.partitions", "3"}};
  EXPECT_EQ(*TopicCreation::FromConfigs(true, {{"topic", "t"}}), nullptr);
  EXPECT_EQ(*TopicCreation::FromConfigs(false, asks), nullptr);
  EXPECT_NE(*TopicCreation::FromConfigs(true, asks), nullptr);
}

TEST(TopicCreationTest, FirstMatchingGroupElseDefault) {
  absl::StatusOr<std::unique_ptr<TopicCreation>> creation = TopicCreation::FromConfigs(
      true, {{"topic.creation.groups", "compacted,default,wide,compacted"},
             {"topic.creation.default.replication.factor", "-1"},
             {"topic.creation.default.partitions", "3"},
             {"topic.creation.default.retention.ms", "1000"},
             {"topic.creation.compacted.include", "state-.*, cache"},
             {"topic.creation.compacted.exclude", "state-tmp"},
             {"topic.creation.compacted.cleanup.policy", "compact"},
             {"topic.creation.wide.include", ".*"},
             {"topic.creation.wide.partitions", "12"}});
  ASSERT_TRUE(creation.ok()) << creation.status();
  const TopicCreation& c = **creation;
  EXPECT_EQ(c.GroupFor("state-1").name, "compacted");
  EXPECT_EQ(c.GroupFor("state-1").partitions, 3);  // the default group's
  EXPECT_EQ(c.GroupFor("state-1").topic_configs.at("cleanup.policy"), "compact");
  EXPECT_EQ(c.GroupFor("cache").name, "compacted");
  EXPECT_EQ(c.GroupFor("state-tmp").name, "wide");  // excluded from compacted
  EXPECT_EQ(c.GroupFor("orders").partitions, 12);
  EXPECT_EQ(c.GroupFor("orders").replication_factor, -1);
}

TEST(TopicCreationTest, TheDefaultGroupAloneMatchesEverything) {
  absl::StatusOr<std::unique_ptr<TopicCreation>> creation =
      TopicCreation::FromConfigs(true, {{"topic.creation.default.replication.factor", "1"},
                                        {"topic.creation.default.partitions", "2"},
                                        {"topic.creation.default.include", "nothing"},
                                        {"topic.creation.default.cleanup.policy", "compact"}});
  ASSERT_TRUE(creation.ok());
  const TopicCreation::Group& g = (*creation)->GroupFor("any");
  EXPECT_EQ(g.name, "default");
  EXPECT_EQ(g.partitions, 2);
  EXPECT_EQ(g.topic_configs.at("cleanup.policy"), "compact");
  EXPECT_EQ(g.topic_configs.count("include"), 0u);
}

TEST(TopicCreationTest, BadSettingsGetJavasMessages) {
  EXPECT_EQ(TopicCreation::FromConfigs(true, {{"topic.creation.default.partitions", "1"}})
                .status()
                .message(),
            "Missing required configuration \"topic.creation.default.replication.factor\" which "
            "has no default value.");
  EXPECT_EQ(TopicCreation::FromConfigs(true, {{"topic.creation.default.replication.factor", "0"},
                                              {"topic.creation.default.partitions", "1"}})
                .status()
                .message(),
            "Invalid value 0 for configuration topic.creation.default.replication.factor: "
            "Replication factor must be positive and not larger than the number of brokers in "
            "the Kafka cluster, or -1 to use the broker's default");
  EXPECT_EQ(TopicCreation::FromConfigs(true, {{"topic.creation.default.replication.factor", "1"},
                                              {"topic.creation.default.partitions", "-2"}})
                .status()
                .message(),
            "Invalid value -2 for configuration topic.creation.default.partitions: Number of "
            "partitions must be positive, or -1 to use the broker's default");
  EXPECT_FALSE(TopicCreation::FromConfigs(true, {{"topic.creation.default.replication.factor", "1"},
                                                 {"topic.creation.default.partitions", "1"},
                                                 {"topic.creation.groups", "g"},
                                                 {"topic.creation.g.include", "("}})
                   .ok());
}

}  // namespace
}  // namespace connectd::worker
