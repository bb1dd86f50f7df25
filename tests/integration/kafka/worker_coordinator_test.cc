// Two workers' WorkerCoordinators in one `connect` group on a real Kafka 4.4 broker: the leader
// runs Connect's incremental cooperative assignor over 3 connectors x 2 tasks, the work is
// split without overlap and without gaps; when a third worker joins, the follow-up rounds
// balance the load; under `default` the eager assignor hands out complete sets.
#include "runtime/distributed/worker_coordinator.h"

#include <chrono>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/common/kafka_test_env.h"
#include "tests/integration/kafka/worker_group_fixture.h"

namespace connectd::distributed {
namespace {

class WorkerCoordinatorTest : public WorkerGroupFixture {
 protected:
  WorkerCoordinatorTest() : WorkerGroupFixture("connectd-coordinator-test", "connect-cluster") {}

  void SetUp() override {
    WorkerGroupFixture::SetUp();
    absl::StatusOr<std::string> bootstrap = testing::TestKafkaBootstrap("ctest-a");
    ASSERT_TRUE(bootstrap.ok()) << bootstrap.status();
    UseBootstrap(*bootstrap);
    config_ = GroupConfig(kafka::protocol::SecurityConfig{});
    config_.request_timeout = GroupMemberConfig{}.request_timeout;
  }
  // No worker may report a group error.
  void TearDown() override {
    WorkerGroupFixture::TearDown();
    for (auto& w : workers_) EXPECT_THAT(w->errors, ::testing::IsEmpty());
  }

  Worker& AddWorker(const std::string& url, ConnectProtocolMode mode) {
    return StartWorker(url, mode, config_);
  }

  // Waits until every worker's last round has the same generation and the complete sets cover
  // all work exactly once; returns the per-worker loads.
  std::vector<size_t> AwaitStableSplit(std::chrono::seconds timeout) {
    std::vector<size_t> loads = WorkerGroupFixture::AwaitStableSplit(timeout);
    if (loads.empty()) ADD_FAILURE() << "no stable, complete and disjoint split within the timeout";
    return loads;
  }

  GroupMemberConfig config_;
};

TEST_F(WorkerCoordinatorTest, CooperativeWorkersSplitTheWorkAndRebalanceWhenOneJoins) {
  Worker& w1 = AddWorker("http://w1:8083/", ConnectProtocolMode::kSessioned);
  std::vector<size_t> alone = AwaitStableSplit(std::chrono::seconds(30));
  ASSERT_EQ(alone, std::vector<size_t>{9});
  EXPECT_EQ(w1.Last().protocol, "sessioned");
  EXPECT_EQ(w1.Last().assignment.leader_url, "http://w1:8083/");
  EXPECT_EQ(w1.Last().assignment.config_offset, 42);

  AddWorker("http://w2:8083/", ConnectProtocolMode::kSessioned);
  std::vector<size_t> two = AwaitStableSplit(std::chrono::seconds(30));
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(std::max(two[0], two[1]) - std::min(two[0], two[1]) <= 1, true)
      << two[0] << " vs " << two[1];

  AddWorker("http://w3:8083/", ConnectProtocolMode::kSessioned);
  std::vector<size_t> three = AwaitStableSplit(std::chrono::seconds(30));
  ASSERT_EQ(three.size(), 3u);
  for (size_t load : three) EXPECT_EQ(load, 3u) << "3 connectors + 6 tasks over 3 workers";
}

TEST_F(WorkerCoordinatorTest, EagerWorkersGetCompleteSets) {
  AddWorker("http://w1:8083/", ConnectProtocolMode::kEager);
  AddWorker("http://w2:8083/", ConnectProtocolMode::kEager);
  std::vector<size_t> loads = AwaitStableSplit(std::chrono::seconds(30));
  ASSERT_EQ(loads.size(), 2u);
  EXPECT_EQ(loads[0] + loads[1], 9u);
  for (auto& w : workers_) {
    EXPECT_EQ(w->Last().protocol, "default");
    EXPECT_EQ(w->Last().assignment.version, kProtocolV0);
  }
}

}  // namespace
}  // namespace connectd::distributed
