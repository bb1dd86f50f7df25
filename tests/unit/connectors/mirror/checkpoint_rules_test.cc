// The pure decisions of MirrorCheckpointConnector/Task: task chunking, the renamed-topic rule,
// checkpoint monotonicity, group offset sync and alterOffsets validation.
#include "connectors/mirror/checkpoint_rules.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace connectd::mirror {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using Chunks = std::vector<std::vector<std::string>>;

Checkpoint Make(const std::string& topic, int32_t partition, int64_t upstream, int64_t downstream,
                const std::string& metadata = "") {
  return Checkpoint{"group", topic, partition, upstream, downstream, metadata};
}

std::unique_ptr<ReplicationPolicy> Policy(const std::map<std::string, std::string>& extra = {}) {
  std::map<std::string, std::string> props = {{"source.cluster.alias", "A"},
                                              {"target.cluster.alias", "B"}};
  for (const auto& [k, v] : extra) props[k] = v;
  std::string error;
  auto policy = MakeReplicationPolicy(props, &error);
  EXPECT_NE(policy, nullptr) << error;
  return policy;
}

// ---- GroupPartitions -------------------------------------------------------------------------

TEST(CombineTranslationsTest, TheExactIndexFirstElseTheLargerLowerBound) {
  // The group at 600 of 1,000: the index knows 600's copy, the sparse syncs only an old one.
  EXPECT_EQ(CombineTranslations(OffsetTranslation{5600, true}, 5001), 5600);
  // Exact wins even over a larger sync answer (a sync after an upstream rewind).
  EXPECT_EQ(CombineTranslations(OffsetTranslation{5600, true}, 5700), 5600);
  // Lower bounds: the larger one skips nothing either.
  EXPECT_EQ(CombineTranslations(OffsetTranslation{5400, false}, 5501), 5501);
  EXPECT_EQ(CombineTranslations(OffsetTranslation{5600, false}, 5501), 5600);
  EXPECT_EQ(CombineTranslations(OffsetTranslation{5600, false}, -1), 5600);
  // One side without an answer: the other's (a Java source writes no index).
  EXPECT_EQ(CombineTranslations(std::nullopt, 5501), 5501);
  EXPECT_EQ(CombineTranslations(std::nullopt, -1), -1);
  EXPECT_EQ(CombineTranslations(OffsetTranslation{5600, false}, std::nullopt), 5600);
  EXPECT_EQ(CombineTranslations(std::nullopt, std::nullopt), std::nullopt);
}

TEST(GroupPartitionsTest, ContiguousChunksFirstOnesLonger) {
  std::vector<std::string> groups = {"a", "b", "c", "d", "e"};
  EXPECT_EQ(GroupPartitions(groups, 3), (Chunks{{"a", "b"}, {"c", "d"}, {"e"}}));
  EXPECT_EQ(GroupPartitions(groups, 2), (Chunks{{"a", "b", "c"}, {"d", "e"}}));
  EXPECT_EQ(GroupPartitions(groups, 1), (Chunks{groups}));
  EXPECT_EQ(GroupPartitions(groups, 5), (Chunks{{"a"}, {"b"}, {"c"}, {"d"}, {"e"}}));
  EXPECT_EQ(GroupPartitions({"a", "b", "c", "d"}, 2), (Chunks{{"a", "b"}, {"c", "d"}}));
}

TEST(GroupPartitionsTest, EveryGroupExactlyOnceInOrder) {
  for (int size = 1; size <= 40; ++size) {
    std::vector<std::string> groups;
    for (int i = 0; i < size; ++i) groups.push_back("g" + std::to_string(100 + i));
    for (int n = 1; n <= size; ++n) {
      Chunks chunks = GroupPartitions(groups, n);
      ASSERT_EQ(chunks.size(), static_cast<size_t>(n));
      std::vector<std::string> flat;
      for (const auto& c : chunks) {
        ASSERT_FALSE(c.empty());
        ASSERT_LE(c.size(), chunks.front().size());
        ASSERT_GE(c.size() + 1, chunks.front().size());
        flat.insert(flat.end(), c.begin(), c.end());
      }
      ASSERT_EQ(flat, groups);
    }
  }
}

// ---- Renamed topic ---------------------------------------------------------------------------

TEST(RenameTopicTest, SourceTopicsGetTheRemoteName) {
  auto policy = Policy();
  EXPECT_EQ(RenameTopic(*policy, "A", "B", "orders"), "A.orders");
  EXPECT_EQ(RenameTopic(*policy, "A", "B", "C.orders"), "A.C.orders");
}

TEST(RenameTopicTest, TopicsFromTheTargetGetTheirOriginalName) {
  auto policy = Policy();
  EXPECT_EQ(RenameTopic(*policy, "A", "B", "B.orders"), "orders");
  EXPECT_EQ(RenameTopic(*policy, "A", "B", "B.C.orders"), "orders");
}

TEST(RenameTopicTest, CustomSeparator) {
  auto policy = Policy({{"replication.policy.separator", "__"}});
  EXPECT_EQ(RenameTopic(*policy, "A", "B", "orders"), "A__orders");
  EXPECT_EQ(RenameTopic(*policy, "A", "B", "B__orders"), "orders");
}

// ---- Monotonicity ----------------------------------------------------------------------------

TEST(CheckpointIsMoreRecentTest, Rules) {
  const Checkpoint last = Make("A.t", 0, 100, 200);
  EXPECT_TRUE(CheckpointIsMoreRecent(Make("A.t", 0, 100, 200), nullptr));  // first
  EXPECT_TRUE(CheckpointIsMoreRecent(Make("A.t", 0, 110, 201), &last));    // downstream advanced
  EXPECT_FALSE(CheckpointIsMoreRecent(Make("A.t", 0, 100, 200), &last));   // repeated
  EXPECT_FALSE(CheckpointIsMoreRecent(Make("A.t", 0, 120, 200), &last));   // same downstream
  EXPECT_FALSE(CheckpointIsMoreRecent(Make("A.t", 0, 120, 150), &last));   // downstream rewind
  EXPECT_TRUE(CheckpointIsMoreRecent(Make("A.t", 0, 50, 90), &last));      // upstream rewind
  EXPECT_TRUE(CheckpointIsMoreRecent(Make("A.t", 0, 99, 200), &last));     // upstream rewind
}

// ---- CheckpointsForGroup ---------------------------------------------------------------------

class CheckpointsForGroupTest : public ::testing::Test {
 protected:
  CheckpointStore::GroupCheckpoints Run(const GroupOffsets& upstream,
                                        const CheckpointStore::GroupCheckpoints* last = nullptr) {
    auto accept = [](const std::string& topic) { return topic != "excluded"; };
    auto translate = [this](const std::string& topic, int32_t partition,
                            int64_t offset) -> std::optional<int64_t> {
      auto it = translations_.find({topic, partition});
      if (it == translations_.end()) return std::nullopt;
      return it->second(offset);
    };
    auto rename = [this](const std::string& topic) {
      return RenameTopic(*policy_, "A", "B", topic);
    };
    return CheckpointsForGroup("group", upstream, accept, translate, rename, last);
  }
  std::unique_ptr<ReplicationPolicy> policy_ = Policy();
  std::map<std::pair<std::string, int32_t>, std::function<int64_t(int64_t)>> translations_;
};

TEST_F(CheckpointsForGroupTest, TranslatesFiltersAndRenames) {
  translations_[{"orders", 0}] = [](int64_t g) { return g + 1000; };
  translations_[{"orders", 1}] = [](int64_t) { return -1; };  // older than every sync
  translations_[{"excluded", 0}] = [](int64_t g) { return g; };
  translations_[{"B.returns", 3}] = [](int64_t g) { return g * 2; };
  GroupOffsets upstream = {
      {{"orders", 0}, {10, "meta"}}, {{"orders", 1}, {5, ""}},  // -1: dropped
      {{"orders", 2}, {7, ""}},                                 // no syncs: dropped
      {{"orders", 4}, {-1, ""}},                                // no committed offset
      {{"excluded", 0}, {3, ""}},                               // topic filter
      {{"B.returns", 3}, {4, ""}},                              // came from the target
  };
  auto checkpoints = Run(upstream);
  ASSERT_EQ(checkpoints.size(), 2u);
  const Checkpoint& orders = checkpoints.at({"A.orders", 0});
  EXPECT_EQ(orders.group, "group");
  EXPECT_EQ(orders.topic, "A.orders");
  EXPECT_EQ(orders.partition, 0);
  EXPECT_EQ(orders.upstream_offset, 10);
  EXPECT_EQ(orders.downstream_offset, 1010);
  EXPECT_EQ(orders.metadata, "meta");
  const Checkpoint& returns = checkpoints.at({"returns", 3});
  EXPECT_EQ(returns.upstream_offset, 4);
  EXPECT_EQ(returns.downstream_offset, 8);
}

TEST_F(CheckpointsForGroupTest, StaysMonotonicAgainstStoredCheckpoints) {
  int64_t shift = 1000;
  translations_[{"orders", 0}] = [&shift](int64_t g) { return g + shift; };
  translations_[{"orders", 1}] = [&shift](int64_t g) { return g + shift; };
  CheckpointStore store;
  store.Update("group", Run({{{"orders", 0}, {10, ""}}, {{"orders", 1}, {20, ""}}}));
  ASSERT_EQ(store.Get("group")->size(), 2u);

  // Same offsets: repeated checkpoints are skipped.
  EXPECT_TRUE(
      Run({{{"orders", 0}, {10, ""}}, {{"orders", 1}, {20, ""}}}, store.Get("group")).empty());
  // The store changed and translates lower: no downstream rewind is emitted.
  shift = 500;
  EXPECT_TRUE(Run({{{"orders", 0}, {11, ""}}}, store.Get("group")).empty());
  // The group advanced far enough: emitted.
  auto advanced = Run({{{"orders", 0}, {600, ""}}}, store.Get("group"));
  ASSERT_EQ(advanced.size(), 1u);
  EXPECT_EQ(advanced.at({"A.orders", 0}).downstream_offset, 1100);
  // The group was rewound on the source: emitted although downstream decreases.
  auto rewound = Run({{{"orders", 1}, {3, ""}}}, store.Get("group"));
  ASSERT_EQ(rewound.size(), 1u);
  EXPECT_EQ(rewound.at({"A.orders", 1}).downstream_offset, 503);
}

// ---- CheckpointStore -------------------------------------------------------------------------

TEST(CheckpointStoreTest, KeepsTheNewestPerPartitionOfAssignedGroups) {
  CheckpointStore store;
  std::set<std::string> groups = {"g1"};
  Checkpoint a{"g1", "A.t", 0, 1, 2, ""};
  Checkpoint b{"g1", "A.t", 0, 5, 6, "m"};
  Checkpoint other{"g2", "A.t", 0, 1, 2, ""};
  EXPECT_TRUE(store.Apply(EncodeCheckpointKey(a), EncodeCheckpointValue(a), groups));
  EXPECT_TRUE(store.Apply(EncodeCheckpointKey(b), EncodeCheckpointValue(b), groups));
  EXPECT_TRUE(store.Apply(EncodeCheckpointKey(other), EncodeCheckpointValue(other), groups));
  EXPECT_FALSE(store.Apply("\x01", "garbage", groups));
  ASSERT_NE(store.Get("g1"), nullptr);
  EXPECT_EQ(store.Get("g2"), nullptr);
  EXPECT_EQ(store.Get("g1")->at({"A.t", 0}).downstream_offset, 6);
  auto converted = store.ComputeConvertedUpstreamOffset();
  EXPECT_EQ(converted.at("g1").at({"A.t", 0}), (CommittedOffset{6, "m"}));
}

// ---- Group offset sync -----------------------------------------------------------------------

TEST(OffsetsToSyncTest, AbsentOrActiveTargetGroupsGetEverything) {
  GroupOffsets converted = {{{"A.t", 0}, {10, ""}}, {{"A.t", 1}, {20, "m"}}};
  EXPECT_EQ(OffsetsToSync(converted, nullptr), converted);
}

TEST(OffsetsToSyncTest, IdleTargetGroupsOnlyMoveForward) {
  GroupOffsets converted = {{{"A.t", 0}, {10, ""}},
                            {{"A.t", 1}, {20, ""}},
                            {{"A.t", 2}, {30, ""}},
                            {{"A.t", 3}, {40, ""}},
                            {{"A.t", 4}, {50, ""}}};
  GroupOffsets idle = {{{"A.t", 0}, {5, ""}},    // behind: written
                       {{"A.t", 1}, {20, ""}},   // equal: skipped
                       {{"A.t", 2}, {99, ""}},   // ahead: never rewound
                       {{"A.t", 3}, {-1, ""}}};  // reset to -1 by some client: written
  GroupOffsets expected = {{{"A.t", 0}, {10, ""}},
                           {{"A.t", 3}, {40, ""}},
                           {{"A.t", 4}, {50, ""}}};  // absent on the target: written
  EXPECT_EQ(OffsetsToSync(converted, &idle), expected);
  GroupOffsets ahead = {{{"A.t", 0}, {11, ""}}};
  EXPECT_TRUE(OffsetsToSync({{{"A.t", 0}, {10, ""}}}, &ahead).empty());
}

// ---- alterOffsets validation -----------------------------------------------------------------

std::optional<std::string> Validate(const std::string& partition,
                                    std::optional<std::string> offset = "{\"offset\":0}") {
  return ValidateCheckpointOffset(partition, offset);
}

TEST(ValidateCheckpointOffsetTest, AcceptsKafkasShapes) {
  EXPECT_EQ(Validate(R"({"partition":3,"topic":"A.orders","group":"g"})"), std::nullopt);
  EXPECT_EQ(Validate(R"({ "group" : "g", "topic" : "t", "partition" : 0 })", R"({ "offset" : 0 })"),
            std::nullopt);
  EXPECT_EQ(Validate(R"({"group":"g","topic":"t","partition":2147483647})"), std::nullopt);
  // Tombstones are always allowed, whatever the partition.
  EXPECT_EQ(Validate("garbage", std::nullopt), std::nullopt);
  EXPECT_EQ(Validate(R"({"topic":"t"})", std::nullopt), std::nullopt);
}

TEST(ValidateCheckpointOffsetTest, RejectsBadPartitions) {
  EXPECT_THAT(Validate(R"({"topic":"t","partition":0})").value_or(""),
              HasSubstr("missing the 'group' key"));
  EXPECT_THAT(Validate(R"({"group":1,"topic":"t","partition":0})").value_or(""),
              HasSubstr("for the 'group' key, which must be a string"));
  EXPECT_THAT(Validate(R"({"group":"g","partition":0})").value_or(""),
              HasSubstr("missing the 'topic' key"));
  EXPECT_THAT(Validate(R"({"group":"g","topic":null,"partition":0})").value_or(""),
              HasSubstr("for the 'topic' key, which must be a string"));
  EXPECT_THAT(Validate(R"({"group":"g","topic":"t"})").value_or(""),
              HasSubstr("missing the 'partition' key"));
  EXPECT_THAT(Validate(R"({"group":"g","topic":"t","partition":"0"})").value_or(""),
              HasSubstr("which must be an integer"));
  EXPECT_THAT(Validate(R"({"group":"g","topic":"t","partition":1.5})").value_or(""),
              HasSubstr("which must be an integer"));
  EXPECT_THAT(Validate(R"({"group":"g","topic":"t","partition":2147483648})").value_or(""),
              HasSubstr("which must be an integer"));
  EXPECT_THAT(Validate(R"({"group":"g","topic":"t","partition":-1})").value_or(""),
              HasSubstr("which cannot be negative"));
  EXPECT_TRUE(Validate("[1,2]").has_value());
}

TEST(ValidateCheckpointOffsetTest, RejectsOffsetsOtherThanZero) {
  const std::string p = R"({"group":"g","topic":"t","partition":0})";
  EXPECT_THAT(Validate(p, "{}").value_or(""), HasSubstr("missing the 'offset' key"));
  EXPECT_THAT(Validate(p, R"({"offset":"0"})").value_or(""), HasSubstr("must be an integer"));
  EXPECT_THAT(Validate(p, R"({"offset":0.0})").value_or(""), HasSubstr("must be an integer"));
  EXPECT_THAT(Validate(p, R"({"offset":1})").value_or(""),
              HasSubstr("the only accepted value is 0"));
  EXPECT_THAT(Validate(p, R"({"offset":-1})").value_or(""),
              HasSubstr("the only accepted value is 0"));
}

}  // namespace
}  // namespace connectd::mirror
