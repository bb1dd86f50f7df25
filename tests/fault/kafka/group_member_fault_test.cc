// GroupMember (the `connect` group client) cut off from its coordinator, on librdkafka's mock
// cluster: a member whose heartbeats go unanswered for a whole session gives its coordinator up;
// a member whose coordinator is gone and not found again tells its listener a heartbeat interval
// after losing it (OnCoordinatorUnreachable,
// Java's "Broker coordinator was unreachable ... Revoking previous assignment"), so the worker
// stops its tasks before the group hands them to someone else; once the broker answers again
// the member joins again.
#include <atomic>
#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>

#include <gtest/gtest.h>
#include <boost/asio/executor_work_guard.hpp>

#include "runtime/distributed/group_member.h"
#include "runtime/kafka/mock_cluster.h"

namespace connectd::distributed {
namespace {

using Clock = std::chrono::steady_clock;
using kafka::protocol::JoinGroupRequest;
using kafka::protocol::JoinGroupResponse;

class CutOffListener : public GroupMemberListener {
 public:
  std::vector<JoinGroupRequest::Protocol> JoinMetadata() override {
    return {{"sessioned", "meta"}};
  }
  void OnJoinPrepare(int32_t, const std::string&) override {}
  absl::StatusOr<std::map<std::string, std::string>> PerformAssignment(
      int32_t, const std::string&, const std::string&,
      const std::vector<JoinGroupResponse::Member>& members) override {
    std::map<std::string, std::string> out;
    for (const auto& m : members) out[m.member_id] = "work";
    return out;
  }
  void OnJoinComplete(int32_t, const std::string&, const std::string&,
                      const std::string&) override {
    std::lock_guard lock(mu_);
    ++joins_;
    cv_.notify_all();
  }
  void OnGroupError(const absl::Status&) override {}
  void OnCoordinatorUnreachable(std::chrono::milliseconds waited) override {
    std::lock_guard lock(mu_);
    ++unreachable_;
    waited_ = waited;
    unreachable_at_ = Clock::now();
    cv_.notify_all();
  }

  bool AwaitJoins(int n, std::chrono::seconds timeout) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, timeout, [&] { return joins_ >= n; });
  }
  bool AwaitUnreachable(int n, std::chrono::seconds timeout) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, timeout, [&] { return unreachable_ >= n; });
  }
  int joins() {
    std::lock_guard lock(mu_);
    return joins_;
  }
  int unreachable() {
    std::lock_guard lock(mu_);
    return unreachable_;
  }
  Clock::time_point unreachable_at() {
    std::lock_guard lock(mu_);
    return unreachable_at_;
  }
  std::chrono::milliseconds waited() {
    std::lock_guard lock(mu_);
    return waited_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int joins_ = 0;
  int unreachable_ = 0;
  std::chrono::milliseconds waited_{0};
  Clock::time_point unreachable_at_;
};

class GroupMemberFaultTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::unique_ptr<kafka::MockKafkaCluster>> cluster =
        kafka::MockKafkaCluster::Start(1);
    ASSERT_TRUE(cluster.ok()) << cluster.status();
    cluster_ = *std::move(cluster);
    config_.group_id = "connect-cut-off";
    config_.client_id = "connectd-group-fault-test";
    config_.session_timeout = std::chrono::milliseconds(6000);
    config_.heartbeat_interval = std::chrono::milliseconds(500);
    config_.rebalance_timeout = std::chrono::milliseconds(10000);
    ASSERT_TRUE(config_.SetBootstrap(cluster_->bootstrap_servers()).ok());
    thread_ = std::thread([this] { io_.run(); });
    member_ = GroupMember::Create(io_, config_, &listener_);
    member_->Start();
    ASSERT_TRUE(listener_.AwaitJoins(1, std::chrono::seconds(30))) << "never joined";
  }
  void TearDown() override {
    if (member_) {
      std::promise<void> stopped;
      member_->Stop([&stopped] { stopped.set_value(); });
      stopped.get_future().wait_for(std::chrono::seconds(20));
    }
    work_.reset();
    io_.stop();
    thread_.join();
  }

  std::unique_ptr<kafka::MockKafkaCluster> cluster_;
  GroupMemberConfig config_;
  CutOffListener listener_;
  boost::asio::io_context io_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_ =
      boost::asio::make_work_guard(io_);
  std::thread thread_;
  std::shared_ptr<GroupMember> member_;
};

TEST_F(GroupMemberFaultTest, CoordinatorDownIsReportedWithinAHeartbeatIntervalThenRejoined) {
  EXPECT_EQ(listener_.unreachable(), 0);
  const Clock::time_point down = Clock::now();
  ASSERT_TRUE(cluster_->SetBrokerDown(1).ok());
  ASSERT_TRUE(listener_.AwaitUnreachable(1, std::chrono::seconds(15)));
  // The connection drops at once; rediscovery fails for one heartbeat interval.
  EXPECT_LT(listener_.unreachable_at() - down, std::chrono::seconds(5));
  EXPECT_EQ(listener_.waited(), config_.heartbeat_interval);
  // Still down: reported once per loss, not once per failed rediscovery.
  std::this_thread::sleep_for(std::chrono::seconds(3));
  EXPECT_EQ(listener_.unreachable(), 1);

  const int joins = listener_.joins();
  ASSERT_TRUE(cluster_->SetBrokerUp(1).ok());
  EXPECT_TRUE(listener_.AwaitJoins(joins + 1, std::chrono::seconds(30))) << "never rejoined";
  EXPECT_EQ(listener_.unreachable(), 1);
}

TEST_F(GroupMemberFaultTest, UnansweredHeartbeatsForASessionCountAsACoordinatorLost) {
  // The connection stays up but answers take 30 s (a black hole, as a network cut that drops
  // packets): the member gives the coordinator up after a session, not after the request
  // timeout, and not before.
  ASSERT_EQ(member_->snapshot().state, GroupMember::State::kStable);
  const Clock::time_point silent = Clock::now();
  ASSERT_TRUE(cluster_->SetBrokerRtt(1, 30000).ok());
  Clock::time_point lost;
  while (Clock::now() - silent < std::chrono::seconds(20)) {
    if (member_->snapshot().state != GroupMember::State::kStable) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  lost = Clock::now();
  EXPECT_GE(lost - silent, config_.session_timeout - std::chrono::seconds(1));
  EXPECT_LT(lost - silent, config_.session_timeout + std::chrono::seconds(3));

  const int joins = listener_.joins();
  ASSERT_TRUE(cluster_->SetBrokerRtt(1, 0).ok());
  EXPECT_TRUE(listener_.AwaitJoins(joins + 1, std::chrono::seconds(60))) << "never rejoined";
}

}  // namespace
}  // namespace connectd::distributed
