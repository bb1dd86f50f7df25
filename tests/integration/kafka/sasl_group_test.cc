// connectd's group client over SASL_PLAINTEXT, against the SASL listener of a real Kafka 4.4
// broker (fixture cluster ctest-a, started with `scripts/kafka start --sasl`: mechanisms PLAIN,
// SCRAM-SHA-256 and SCRAM-SHA-512, one user whose SCRAM credentials were created at format time).
// Security settings come from a worker's Java keys (security.protocol, sasl.mechanism and a
// PlainLoginModule / ScramLoginModule sasl.jaas.config) through the translation `connectd
// distributed` uses. For each mechanism, two WorkerCoordinators join one `connect` group and split
// the work; a wrong password fails with a clear authentication error and no crash.
#include <condition_variable>
#include <future>
#include <mutex>
#include <set>
#include <thread>

#include <boost/asio/executor_work_guard.hpp>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "runtime/distributed/group_member.h"
#include "runtime/distributed/worker_coordinator.h"
#include "runtime/kafka/java_client_config.h"
#include "runtime/kafka/protocol/broker_connection.h"
#include "tests/common/kafka_test_env.h"

namespace connectd::distributed {
namespace {

using kafka::protocol::ApiKey;
using kafka::protocol::BrokerConnection;
using kafka::protocol::SecurityConfig;
using ::testing::HasSubstr;

// What `connectd distributed` makes of a worker's Java client keys for SASL `mechanism`.
absl::StatusOr<SecurityConfig> JavaSasl(const std::string& mechanism, const std::string& username,
                                        const std::string& password) {
  std::string module = mechanism == "PLAIN"
                           ? "org.apache.kafka.common.security.plain.PlainLoginModule"
                           : "org.apache.kafka.common.security.scram.ScramLoginModule";
  std::map<std::string, std::string> java = {
      {"security.protocol", "SASL_PLAINTEXT"},
      {"sasl.mechanism", mechanism},
      {"sasl.jaas.config",
       module + " required username=\"" + username + "\" password=\"" + password + "\";"}};
  kafka::TranslatedConfig translated = kafka::TranslateJavaClientConfig(java);
  EXPECT_THAT(translated.warnings, ::testing::IsEmpty());
  return SecurityConfig::FromProperties(translated.properties);
}

// Records what the group tells one member.
class ErrorRecordingListener : public GroupMemberListener {
 public:
  std::vector<kafka::protocol::JoinGroupRequest::Protocol> JoinMetadata() override {
    return {{"sessioned", "meta"}};
  }
  void OnJoinPrepare(int32_t, const std::string&) override {}
  absl::StatusOr<std::map<std::string, std::string>> PerformAssignment(
      int32_t, const std::string&, const std::string&,
      const std::vector<kafka::protocol::JoinGroupResponse::Member>& members) override {
    std::map<std::string, std::string> out;
    for (const auto& m : members) out[m.member_id] = "x";
    return out;
  }
  void OnJoinComplete(int32_t, const std::string&, const std::string&,
                      const std::string&) override {
    std::lock_guard lock(mu_);
    joined_ = true;
  }
  void OnGroupError(const absl::Status& error) override {
    std::lock_guard lock(mu_);
    errors_.push_back(error);
    cv_.notify_all();
  }
  std::optional<absl::Status> AwaitError(std::chrono::seconds timeout) {
    std::unique_lock lock(mu_);
    cv_.wait_for(lock, timeout, [&] { return !errors_.empty(); });
    return errors_.empty() ? std::nullopt : std::optional<absl::Status>(errors_.front());
  }
  bool joined() {
    std::lock_guard lock(mu_);
    return joined_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<absl::Status> errors_;
  bool joined_ = false;
};

// One worker: its coordinator, its group member and what it was last assigned.
struct Worker {
  std::unique_ptr<WorkerCoordinator> coordinator;
  std::shared_ptr<GroupMember> member;
  std::mutex mu;
  std::vector<AssignmentEvent> events;
  std::vector<std::string> errors;
};

// The parameter is the SASL mechanism.
class SaslGroupTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    absl::StatusOr<testing::TestKafkaSasl> sasl = testing::TestKafkaSaslListener("ctest-a");
    ASSERT_TRUE(sasl.ok()) << sasl.status();
    sasl_ = *sasl;
    size_t colon = sasl_.bootstrap.rfind(':');
    port_ = static_cast<uint16_t>(std::stoi(sasl_.bootstrap.substr(colon + 1)));
    thread_ = std::thread([this] { io_.run(); });
  }
  void TearDown() override {
    for (auto& w : workers_) StopAndWait(*w->member);
    work_.reset();
    io_.stop();
    if (thread_.joinable()) thread_.join();
  }
  static void StopAndWait(GroupMember& member) {
    std::promise<void> stopped;
    member.Stop([&stopped] { stopped.set_value(); });
    stopped.get_future().wait();
  }

  absl::StatusOr<SecurityConfig> Security(const std::string& password) {
    return JavaSasl(GetParam(), sasl_.username, password);
  }

  absl::Status Connect(const SecurityConfig& security,
                       std::shared_ptr<BrokerConnection>* out = nullptr) {
    BrokerConnection::Options options;
    options.host = "127.0.0.1";
    options.port = port_;
    options.security = security;
    options.client_id = "connectd-sasl-test";
    options.request_timeout = std::chrono::milliseconds(10000);
    auto connection = BrokerConnection::Create(io_, options);
    std::promise<absl::Status> connected;
    connection->Connect([&connected](absl::Status s) { connected.set_value(s); });
    absl::Status status = connected.get_future().get();
    if (out != nullptr) *out = connection;
    return status;
  }

  GroupMemberConfig GroupConfig(const SecurityConfig& security) {
    GroupMemberConfig config;
    config.group_id = group_;
    config.client_id = "connectd-sasl-test";
    config.session_timeout = std::chrono::milliseconds(6000);
    config.heartbeat_interval = std::chrono::milliseconds(300);
    config.rebalance_timeout = std::chrono::milliseconds(10000);
    config.request_timeout = std::chrono::milliseconds(10000);
    EXPECT_TRUE(config.SetBootstrap(sasl_.bootstrap).ok());
    config.security = security;
    return config;
  }

  Worker& AddWorker(const std::string& url, const SecurityConfig& security) {
    auto worker = std::make_unique<Worker>();
    Worker* w = worker.get();
    WorkerCoordinator::Callbacks callbacks;
    callbacks.snapshot = [] {
      return ConfigSnapshotView{7, {{"alpha", {0, 1}}, {"beta", {0, 1}}, {"gamma", {0, 1}}}};
    };
    callbacks.on_assignment = [w](const AssignmentEvent& e) {
      std::lock_guard lock(w->mu);
      w->events.push_back(e);
    };
    callbacks.on_error = [w](const absl::Status& s) {
      std::lock_guard lock(w->mu);
      w->errors.push_back(s.ToString());
    };
    callbacks.request_rejoin = [w](std::string reason) { w->member->RequestRejoin(reason); };
    auto coordinator =
        WorkerCoordinator::Create(url, ConnectProtocolMode::kSessioned, 0, callbacks, [] {
          return 0;
        });
    EXPECT_TRUE(coordinator.ok());
    w->coordinator = *std::move(coordinator);
    w->member = GroupMember::Create(io_, GroupConfig(security), w->coordinator.get());
    w->member->Start();
    workers_.push_back(std::move(worker));
    return *w;
  }

  // Per-worker loads once every worker's last round has the same generation and the complete
  // sets cover the 3 connectors and 6 tasks exactly once; empty on timeout.
  std::vector<size_t> AwaitStableSplit(std::chrono::seconds timeout) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      std::set<int32_t> generations;
      std::multiset<std::string> items;
      std::vector<size_t> loads;
      for (auto& w : workers_) {
        std::lock_guard lock(w->mu);
        if (w->events.empty()) break;
        const AssignmentEvent& e = w->events.back();
        generations.insert(e.generation);
        loads.push_back(e.complete.connectors.size() + e.complete.tasks.size());
        for (const auto& c : e.complete.connectors) items.insert("connector " + c);
        for (const auto& t : e.complete.tasks) {
          items.insert("task " + t.connector + "-" + std::to_string(t.task));
        }
      }
      if (loads.size() != workers_.size() || generations.size() != 1 || items.size() != 9) {
        continue;
      }
      if (std::set<std::string>(items.begin(), items.end()).size() == 9) return loads;
    }
    return {};
  }

  testing::TestKafkaSasl sasl_;
  uint16_t port_ = 0;
  const std::string group_ = testing::UniqueName("connect-sasl");
  boost::asio::io_context io_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_ =
      boost::asio::make_work_guard(io_);
  std::thread thread_;
  std::vector<std::unique_ptr<Worker>> workers_;
};

TEST_P(SaslGroupTest, AuthenticatesAndNegotiatesVersions) {
  absl::StatusOr<SecurityConfig> security = Security(sasl_.password);
  ASSERT_TRUE(security.ok()) << security.status();
  ASSERT_TRUE(security->uses_sasl());
  ASSERT_FALSE(security->uses_tls());
  EXPECT_EQ(security->sasl_mechanism, GetParam());
  std::shared_ptr<BrokerConnection> connection;
  absl::Status status = Connect(*security, &connection);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(connection->VersionOf(ApiKey::kJoinGroup), 9);
  connection->Close();
}

TEST_P(SaslGroupTest, TwoWorkerCoordinatorsJoinOverSaslAndBalance) {
  absl::StatusOr<SecurityConfig> security = Security(sasl_.password);
  ASSERT_TRUE(security.ok()) << security.status();
  Worker& w1 = AddWorker("http://w1:8083/", *security);
  ASSERT_EQ(AwaitStableSplit(std::chrono::seconds(30)), std::vector<size_t>{9});
  {
    std::lock_guard lock(w1.mu);
    EXPECT_EQ(w1.events.back().protocol, "sessioned");
    EXPECT_EQ(w1.events.back().assignment.leader_url, "http://w1:8083/");
  }
  // The coordinator FindCoordinator named is the SASL listener the request came in on.
  EXPECT_EQ(w1.member->snapshot().coordinator, sasl_.bootstrap);

  Worker& w2 = AddWorker("http://w2:8083/", *security);
  std::vector<size_t> loads = AwaitStableSplit(std::chrono::seconds(40));
  ASSERT_EQ(loads.size(), 2u) << "no stable, complete and disjoint split over SASL";
  EXPECT_LE(std::max(loads[0], loads[1]) - std::min(loads[0], loads[1]), 1u)
      << loads[0] << " vs " << loads[1];
  EXPECT_EQ(w1.member->snapshot().state, GroupMember::State::kStable);
  EXPECT_EQ(w2.member->snapshot().state, GroupMember::State::kStable);
  for (Worker* w : {&w1, &w2}) {
    std::lock_guard lock(w->mu);
    EXPECT_THAT(w->errors, ::testing::IsEmpty());
  }
}

TEST_P(SaslGroupTest, WrongPasswordFailsWithAClearAuthenticationError) {
  absl::StatusOr<SecurityConfig> security = Security("not-" + sasl_.password);
  ASSERT_TRUE(security.ok()) << security.status();
  absl::Status status = Connect(*security);
  EXPECT_EQ(status.code(), absl::StatusCode::kUnauthenticated) << status;
  EXPECT_THAT(status.message(), HasSubstr("SASL authentication failed"));
  // The broker's own words (Java's SaslAuthenticationException message).
  EXPECT_THAT(status.message(), HasSubstr("Authentication failed")) << status;

  // A group member keeps retrying, tells its listener why it cannot join, and stops cleanly.
  ErrorRecordingListener listener;
  auto member = GroupMember::Create(io_, GroupConfig(*security), &listener);
  member->Start();
  std::optional<absl::Status> error = listener.AwaitError(std::chrono::seconds(20));
  ASSERT_TRUE(error.has_value()) << "the listener never heard why the member cannot join";
  EXPECT_EQ(error->code(), absl::StatusCode::kUnauthenticated) << *error;
  EXPECT_THAT(error->message(), HasSubstr("SASL authentication failed"));
  EXPECT_NE(member->snapshot().state, GroupMember::State::kStable);
  StopAndWait(*member);
  EXPECT_EQ(member->snapshot().state, GroupMember::State::kStopped);
  EXPECT_FALSE(listener.joined());
}

INSTANTIATE_TEST_SUITE_P(Mechanisms, SaslGroupTest,
                         ::testing::Values("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           std::erase(name, '-');
                           return name;
                         });

}  // namespace
}  // namespace connectd::distributed
