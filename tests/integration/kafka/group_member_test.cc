// GroupMember (the `connect` group client) against a real Kafka 4.4 broker: two members join one
// group, the leader's assignments reach both, heartbeats keep them stable, rejoin requests run
// a new generation, and a member that stops hands its share to the other.
#include "runtime/distributed/group_member.h"

#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>

#include <gtest/gtest.h>
#include <boost/asio/executor_work_guard.hpp>

#include "tests/common/kafka_test_env.h"

namespace connectd::distributed {
namespace {

using kafka::protocol::JoinGroupRequest;
using kafka::protocol::JoinGroupResponse;

// Records what the group tells one member; the leader assigns "share-of-<member>" to each.
class RecordingListener : public GroupMemberListener {
 public:
  explicit RecordingListener(std::string name) : name_(std::move(name)) {}

  std::vector<JoinGroupRequest::Protocol> JoinMetadata() override {
    return {{"sessioned", "meta-" + name_}, {"default", "old-" + name_}};
  }
  void OnJoinPrepare(int32_t, const std::string&) override {
    std::lock_guard lock(mu_);
    ++prepares_;
  }
  absl::StatusOr<std::map<std::string, std::string>> PerformAssignment(
      int32_t, const std::string&, const std::string& protocol,
      const std::vector<JoinGroupResponse::Member>& members) override {
    std::lock_guard lock(mu_);
    led_protocol_ = protocol;
    std::map<std::string, std::string> out;
    members_seen_.clear();
    for (const auto& m : members) {
      out[m.member_id] = "share-of-" + m.metadata;
      members_seen_.push_back(m.metadata);
    }
    return out;
  }
  void OnJoinComplete(int32_t generation, const std::string&, const std::string& protocol,
                      const std::string& assignment) override {
    std::lock_guard lock(mu_);
    generation_ = generation;
    protocol_ = protocol;
    assignment_ = assignment;
    cv_.notify_all();
  }
  void OnGroupError(const absl::Status& error) override {
    std::lock_guard lock(mu_);
    errors_.push_back(error.ToString());
  }

  // Waits until a join completed at a generation > `after`; returns it (or -1).
  int32_t AwaitGeneration(int32_t after, std::chrono::seconds timeout = std::chrono::seconds(40)) {
    std::unique_lock lock(mu_);
    cv_.wait_for(lock, timeout, [&] { return generation_ > after; });
    return generation_ > after ? generation_ : -1;
  }
  std::string assignment() {
    std::lock_guard lock(mu_);
    return assignment_;
  }
  std::string protocol() {
    std::lock_guard lock(mu_);
    return protocol_;
  }
  std::vector<std::string> members_seen() {
    std::lock_guard lock(mu_);
    return members_seen_;
  }
  std::vector<std::string> errors() {
    std::lock_guard lock(mu_);
    return errors_;
  }

 private:
  const std::string name_;
  std::mutex mu_;
  std::condition_variable cv_;
  int prepares_ = 0;
  int32_t generation_ = -1;
  std::string protocol_, assignment_, led_protocol_;
  std::vector<std::string> members_seen_, errors_;
};

class GroupMemberTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::string> bootstrap = testing::TestKafkaBootstrap("ctest-a");
    ASSERT_TRUE(bootstrap.ok()) << bootstrap.status();
    config_.group_id = testing::UniqueName("connect-members");
    config_.client_id = "connectd-group-test";
    config_.session_timeout = std::chrono::milliseconds(6000);
    config_.heartbeat_interval = std::chrono::milliseconds(500);
    config_.rebalance_timeout = std::chrono::milliseconds(10000);
    ASSERT_TRUE(config_.SetBootstrap(*bootstrap).ok());
    thread_ = std::thread([this] { io_.run(); });
  }
  void TearDown() override {
    work_.reset();
    io_.stop();
    thread_.join();
  }
  void StopAndWait(GroupMember& member) {
    std::promise<void> stopped;
    member.Stop([&stopped] { stopped.set_value(); });
    stopped.get_future().wait();
  }

  GroupMemberConfig config_;
  boost::asio::io_context io_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_ =
      boost::asio::make_work_guard(io_);
  std::thread thread_;
};

TEST_F(GroupMemberTest, TwoMembersShareAGroupRejoinAndHandOverOnLeave) {
  RecordingListener first_listener("w1"), second_listener("w2");
  auto first = GroupMember::Create(io_, config_, &first_listener);
  first->Start();
  int32_t g1 = first_listener.AwaitGeneration(-1);
  ASSERT_GT(g1, 0) << "first member never joined";
  EXPECT_EQ(first_listener.assignment(), "share-of-meta-w1");
  EXPECT_EQ(first_listener.protocol(), "sessioned");
  EXPECT_EQ(first_listener.members_seen(), std::vector<std::string>{"meta-w1"});

  // A second member: the coordinator rebalances, the first learns it from its heartbeat.
  auto second = GroupMember::Create(io_, config_, &second_listener);
  second->Start();
  int32_t g2 = second_listener.AwaitGeneration(-1);
  ASSERT_GT(g2, g1);
  EXPECT_EQ(first_listener.AwaitGeneration(g1), g2) << "both members in the same generation";
  EXPECT_EQ(second_listener.assignment(), "share-of-meta-w2");
  EXPECT_EQ(first_listener.assignment(), "share-of-meta-w1");
  EXPECT_EQ(first->snapshot().state, GroupMember::State::kStable);
  EXPECT_FALSE(first->snapshot().coordinator.empty());

  // Stable: heartbeats keep the generation for a few intervals.
  std::this_thread::sleep_for(std::chrono::milliseconds(2000));
  EXPECT_EQ(first->snapshot().generation, g2);
  EXPECT_EQ(second->snapshot().generation, g2);

  // Rejoins requested by the members move both to a new generation (a follower rejoining
  // alone with unchanged metadata just gets the current generation back, as Kafka's
  // coordinator answers it; the leader's rejoin starts a rebalance).
  first->RequestRejoin("test");
  second->RequestRejoin("test");
  int32_t g3 = second_listener.AwaitGeneration(g2);
  ASSERT_GT(g3, g2);
  EXPECT_EQ(first_listener.AwaitGeneration(g2), g3);

  // The second member leaves (LeaveGroup): the first rebalances alone, without waiting for the
  // session timeout.
  auto left_at = std::chrono::steady_clock::now();
  StopAndWait(*second);
  int32_t g4 = first_listener.AwaitGeneration(g3, std::chrono::seconds(5));
  ASSERT_GT(g4, g3) << "a LeaveGroup must trigger a rebalance at once";
  EXPECT_LT(std::chrono::steady_clock::now() - left_at, std::chrono::seconds(5));
  EXPECT_EQ(first_listener.members_seen(), std::vector<std::string>{"meta-w1"});
  EXPECT_EQ(second->snapshot().state, GroupMember::State::kStopped);
  StopAndWait(*first);
  EXPECT_TRUE(first_listener.errors().empty());
  EXPECT_TRUE(second_listener.errors().empty());
}

TEST(GroupMemberConfigTest, BootstrapServersAreParsedLikeKafkaClients) {
  GroupMemberConfig config;
  ASSERT_TRUE(config.SetBootstrap(" a:9092, PLAINTEXT://b:9093,[::1]:9094").ok());
  ASSERT_EQ(config.bootstrap.size(), 3u);
  EXPECT_EQ(config.bootstrap[1], std::make_pair(std::string("b"), uint16_t{9093}));
  EXPECT_EQ(config.bootstrap[2], std::make_pair(std::string("::1"), uint16_t{9094}));
  EXPECT_FALSE(config.SetBootstrap("nohost").ok());
  EXPECT_FALSE(config.SetBootstrap("h:0").ok());
  EXPECT_FALSE(config.SetBootstrap(" , ").ok());
}

}  // namespace
}  // namespace connectd::distributed
