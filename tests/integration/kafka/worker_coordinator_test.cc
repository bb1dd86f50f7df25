// Two workers' WorkerCoordinators in one `connect` group on a real Kafka 4.4 broker: the leader
// runs Connect's incremental cooperative assignor over 3 connectors x 2 tasks, the work is
// split without overlap and without gaps; when a third worker joins, the follow-up rounds
// balance the load; under `default` the eager assignor hands out complete sets.
#include "runtime/distributed/worker_coordinator.h"

#include <condition_variable>
#include <future>
#include <mutex>
#include <set>
#include <thread>

#include <boost/asio/executor_work_guard.hpp>
#include <gtest/gtest.h>

#include "tests/common/kafka_test_env.h"

namespace connectd::distributed {
namespace {

ConfigSnapshotView Snapshot() {
  return ConfigSnapshotView{42, {{"alpha", {0, 1}}, {"beta", {0, 1}}, {"gamma", {0, 1}}}};
}

// One worker: its coordinator, its group member and what it was last assigned.
struct Worker {
  std::unique_ptr<WorkerCoordinator> coordinator;
  std::shared_ptr<GroupMember> member;
  std::mutex mu;
  std::condition_variable cv;
  std::vector<AssignmentEvent> events;

  AssignmentEvent Last() {
    std::lock_guard lock(mu);
    return events.back();
  }
  size_t Count() {
    std::lock_guard lock(mu);
    return events.size();
  }
};

class WorkerCoordinatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::string> bootstrap = testing::TestKafkaBootstrap("ctest-a");
    ASSERT_TRUE(bootstrap.ok()) << bootstrap.status();
    config_.group_id = testing::UniqueName("connect-cluster");
    config_.client_id = "connectd-coordinator-test";
    config_.session_timeout = std::chrono::milliseconds(6000);
    config_.heartbeat_interval = std::chrono::milliseconds(300);
    config_.rebalance_timeout = std::chrono::milliseconds(10000);
    ASSERT_TRUE(config_.SetBootstrap(*bootstrap).ok());
    thread_ = std::thread([this] { io_.run(); });
  }
  void TearDown() override {
    for (auto& w : workers_) {
      std::promise<void> stopped;
      w->member->Stop([&stopped] { stopped.set_value(); });
      stopped.get_future().wait();
    }
    work_.reset();
    io_.stop();
    thread_.join();
  }

  Worker& AddWorker(const std::string& url, ConnectProtocolMode mode) {
    auto worker = std::make_unique<Worker>();
    Worker* w = worker.get();
    WorkerCoordinator::Callbacks callbacks;
    callbacks.snapshot = [] { return Snapshot(); };
    callbacks.on_assignment = [w](const AssignmentEvent& e) {
      std::lock_guard lock(w->mu);
      w->events.push_back(e);
      w->cv.notify_all();
    };
    callbacks.on_error = [](const absl::Status& s) { ADD_FAILURE() << s; };
    callbacks.request_rejoin = [w](std::string reason) { w->member->RequestRejoin(reason); };
    auto coordinator = WorkerCoordinator::Create(url, mode, 0, callbacks, [] { return 0; });
    EXPECT_TRUE(coordinator.ok());
    w->coordinator = *std::move(coordinator);
    w->member = GroupMember::Create(io_, config_, w->coordinator.get());
    w->member->Start();
    workers_.push_back(std::move(worker));
    return *w;
  }

  // Waits until every worker's last round has the same generation and the complete sets cover
  // all work exactly once; returns the per-worker loads.
  std::vector<size_t> AwaitStableSplit(std::chrono::seconds timeout) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      std::set<int32_t> generations;
      std::multiset<std::string> items;
      std::vector<size_t> loads;
      bool all = true;
      for (auto& w : workers_) {
        if (w->Count() == 0) {
          all = false;
          break;
        }
        AssignmentEvent e = w->Last();
        generations.insert(e.generation);
        loads.push_back(e.complete.connectors.size() + e.complete.tasks.size());
        for (const auto& c : e.complete.connectors) items.insert("connector " + c);
        for (const auto& t : e.complete.tasks) {
          items.insert("task " + t.connector + "-" + std::to_string(t.task));
        }
      }
      if (!all || generations.size() != 1 || items.size() != 9) continue;
      std::set<std::string> unique(items.begin(), items.end());
      if (unique.size() == 9) return loads;
    }
    ADD_FAILURE() << "no stable, complete and disjoint split within the timeout";
    return {};
  }

  GroupMemberConfig config_;
  boost::asio::io_context io_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_ =
      boost::asio::make_work_guard(io_);
  std::thread thread_;
  std::vector<std::unique_ptr<Worker>> workers_;
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
