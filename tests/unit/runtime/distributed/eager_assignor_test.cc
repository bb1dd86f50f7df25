// EagerAssignor (subprotocol `default`). Expected values: Kafka's WorkerCoordinatorTest
// (testLeaderPerformAssignment1/2, testLeaderPerformAssignmentSingleTaskConnectors), which
// exercise EagerAssignor through WorkerCoordinator.onLeaderElected, plus round-robin cases
// worked out from EagerAssignor.java.
#include "runtime/distributed/eager_assignor.h"

#include <gtest/gtest.h>

namespace connectd::distributed {
namespace {

using herder::ConnectorTaskId;

AssignmentInput Input(std::vector<std::string> members, ConfiguredConnectors configured) {
  AssignmentInput in;
  for (std::string& id : members) {
    AssignorMember m;
    m.member_id = id;
    m.metadata.version = kProtocolV0;
    m.metadata.url = "http://" + id + ":8083/";
    m.metadata.config_offset = 618;
    in.members.push_back(std::move(m));
  }
  in.configured = std::move(configured);
  if (!in.members.empty()) {
    in.leader_id = in.members.front().member_id;
    in.leader_url = in.members.front().metadata.url;
  }
  in.config_offset = 618;
  return in;
}

ConnectAssignment V0(const AssignmentInput& in, std::vector<std::string> connectors,
                     std::vector<ConnectorTaskId> tasks) {
  ConnectAssignment a;
  a.version = kProtocolV0;
  a.error = ConnectAssignment::kNoError;
  a.leader = in.leader_id;
  a.leader_url = in.leader_url;
  a.config_offset = in.config_offset;
  a.connectors = std::move(connectors);
  a.tasks = std::move(tasks);
  return a;
}

TEST(EagerAssignorTest, OneConnectorOneTask) {  // testLeaderPerformAssignment1
  AssignmentInput in = Input({"leader", "member"}, {{"connector1", {0}}});
  auto out = PerformEagerAssignment(in);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->assignments.at("leader"), V0(in, {"connector1"}, {}));
  EXPECT_EQ(out->assignments.at("member"), V0(in, {}, {{"connector1", 0}}));
}

TEST(EagerAssignorTest, TasksContinueTheConnectorWalk) {  // testLeaderPerformAssignment2
  AssignmentInput in = Input({"leader", "member"}, {{"connector1", {0, 1}}, {"connector2", {0}}});
  auto out = PerformEagerAssignment(in);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->assignments.at("leader"),
            V0(in, {"connector1"}, {{"connector1", 0}, {"connector2", 0}}));
  EXPECT_EQ(out->assignments.at("member"), V0(in, {"connector2"}, {{"connector1", 1}}));
}

TEST(EagerAssignorTest, SingleTaskConnectorsSpreadConnectorsAndTasks) {
  // testLeaderPerformAssignmentSingleTaskConnectors
  AssignmentInput in =
      Input({"leader", "member"}, {{"connector1", {0}}, {"connector2", {0}}, {"connector3", {0}}});
  auto out = PerformEagerAssignment(in);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->assignments.at("leader"),
            V0(in, {"connector1", "connector3"}, {{"connector2", 0}}));
  EXPECT_EQ(out->assignments.at("member"),
            V0(in, {"connector2"}, {{"connector1", 0}, {"connector3", 0}}));
}

TEST(EagerAssignorTest, MembersSortedByIdConnectorsByNameTasksByNumber) {
  // The JoinGroup order and the task-number order of the snapshot do not matter.
  AssignmentInput in = Input({"w3", "w1", "w2"}, {{"b", {2, 0, 1}}, {"a", {1, 0}}});
  in.leader_id = "w3";
  auto out = PerformEagerAssignment(in);
  ASSERT_TRUE(out.ok()) << out.status();
  // Walk: a->w1, b->w2, a-0->w3, a-1->w1, b-0->w2, b-1->w3, b-2->w1.
  EXPECT_EQ(out->assignments.at("w1"), V0(in, {"a"}, {{"a", 1}, {"b", 2}}));
  EXPECT_EQ(out->assignments.at("w2"), V0(in, {"b"}, {{"b", 0}}));
  EXPECT_EQ(out->assignments.at("w3"), V0(in, {}, {{"a", 0}, {"b", 1}}));
  EXPECT_EQ(out->complete.at("w1"), (MemberWork{{"a"}, {{"a", 1}, {"b", 2}}}));
  EXPECT_EQ(out->owners.connectors, (std::map<std::string, std::string>{{"a", "w1"}, {"b", "w2"}}));
  EXPECT_EQ(out->owners.tasks.at(ConnectorTaskId{"b", 1}), "w3");
  EXPECT_EQ(out->owners.tasks.size(), 5u);
}

TEST(EagerAssignorTest, ManyTasksEvenlyAndMembersWithoutWork) {
  ConfiguredConnectors configured;
  for (int c = 0; c < 10; ++c) {
    std::vector<int32_t> tasks;
    for (int t = 0; t < 5; ++t) tasks.push_back(t);
    configured["conn" + std::to_string(c)] = tasks;
  }
  AssignmentInput in = Input({"m0", "m1", "m2", "m3"}, configured);
  auto out = PerformEagerAssignment(in);
  ASSERT_TRUE(out.ok()) << out.status();
  // 10 connectors: m0, m1 get 3, m2, m3 get 2; the 50 tasks start at m2.
  EXPECT_EQ(out->assignments.at("m0").connectors,
            (std::vector<std::string>{"conn0", "conn4", "conn8"}));
  EXPECT_EQ(out->assignments.at("m2").connectors, (std::vector<std::string>{"conn2", "conn6"}));
  EXPECT_EQ(out->assignments.at("m2").tasks.front(), (ConnectorTaskId{"conn0", 0}));
  EXPECT_EQ(out->assignments.at("m3").tasks.front(), (ConnectorTaskId{"conn0", 1}));
  EXPECT_EQ(out->assignments.at("m0").tasks.front(), (ConnectorTaskId{"conn0", 2}));
  size_t sizes[4];
  for (int m = 0; m < 4; ++m) {
    sizes[m] = out->assignments.at("m" + std::to_string(m)).tasks.size();
  }
  EXPECT_EQ(sizes[0], 12u);
  EXPECT_EQ(sizes[1], 12u);
  EXPECT_EQ(sizes[2], 13u);
  EXPECT_EQ(sizes[3], 13u);

  // Nothing configured: every member still gets an (empty) assignment.
  AssignmentInput empty = Input({"m0", "m1"}, {});
  auto none = PerformEagerAssignment(empty);
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->assignments.at("m1"), V0(empty, {}, {}));
  EXPECT_TRUE(none->owners.connectors.empty());
}

TEST(EagerAssignorTest, RejectsBadMembership) {
  AssignmentInput in = Input({"a", "b"}, {{"c", {0}}});
  in.leader_id = "z";
  EXPECT_EQ(PerformEagerAssignment(in).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(PerformEagerAssignment(Input({}, {})).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace connectd::distributed
