// The failover plan and its JSON (runtime/mirror_maker/failover/group_failover.h); the Kafka
// side is tested end to end (tests/e2e/mirror_exact_translation_test.py).
#include "runtime/mirror_maker/failover/group_failover.h"

#include <gtest/gtest.h>

namespace connectd::mirror_maker {
namespace {

TEST(PlanFailoverTest, CommitsWhereTheTargetGroupIsBehindOrAbsentAndNeverRewinds) {
  std::vector<GroupOffsetPlan> translated = {{"A.orders", 2, 900, 870, "", {}, false},
                                             {"A.orders", 0, 600, 537, "m", {}, false},
                                             {"A.orders", 1, 500, 480, "", {}, false},
                                             {"A.audit", 0, 10, 10, "", {}, false}};
  std::map<std::pair<std::string, int32_t>, int64_t> target = {
      {{"A.orders", 1}, 400},  // behind: moved forward
      {{"A.orders", 2}, 900},  // ahead: kept (consumers already read there)
      {{"A.audit", 0}, 10}};   // there already: kept
  std::vector<GroupOffsetPlan> plan = PlanFailover(translated, target);
  ASSERT_EQ(plan.size(), 4u);
  EXPECT_EQ(plan[0].topic, "A.audit");  // sorted by topic and partition
  EXPECT_FALSE(plan[0].commit);
  EXPECT_EQ(plan[1].partition, 0);
  EXPECT_TRUE(plan[1].commit);
  EXPECT_EQ(plan[1].target_committed, std::nullopt);
  EXPECT_TRUE(plan[2].commit);
  EXPECT_EQ(plan[2].target_committed, 400);
  EXPECT_FALSE(plan[3].commit);
  EXPECT_EQ(plan[3].target_committed, 900);
}

TEST(GroupTranslationJsonTest, NamesEveryPartitionsDecision) {
  GroupTranslation t{
      "g",
      "A",
      "A.checkpoints.internal",
      {{"A.orders", 0, 600, 537, "m\"x", std::nullopt, true}, {"A.orders", 1, 5, 4, "", 9, false}},
      true};
  EXPECT_EQ(GroupTranslationJson(t),
            R"({"group":"g","source":"A","checkpoints_topic":"A.checkpoints.internal",)"
            R"("committed":true,"partitions":[{"topic":"A.orders","partition":0,)"
            R"("upstream_offset":600,"offset":537,"metadata":"m\"x",)"
            R"("target_committed_offset":null,"action":"commit"},{"topic":"A.orders",)"
            R"("partition":1,"upstream_offset":5,"offset":4,"metadata":"",)"
            R"("target_committed_offset":9,"action":"keep"}]})");
}

TEST(TranslateGroupOffsetsTest, BadRequestsAreRefusedBeforeAnyKafkaCall) {
  FailoverRequest request;
  request.source_alias = "A";
  EXPECT_EQ(TranslateGroupOffsets(request).status().code(), absl::StatusCode::kInvalidArgument);
  request.group = "g";
  // No bootstrap.servers.
  EXPECT_EQ(TranslateGroupOffsets(request).status().code(), absl::StatusCode::kInvalidArgument);
  request.target_client["bootstrap.servers"] = "127.0.0.1:1";
  request.policy["replication.policy.class"] = "com.example.Nope";
  EXPECT_EQ(TranslateGroupOffsets(request).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace connectd::mirror_maker
