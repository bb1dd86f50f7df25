// File: worker_group_fixture.h
//
// A GoogleTest fixture for integration tests in which connectd's WorkerCoordinators join one
// `connect` group on a real Kafka broker (plaintext, SSL or SASL listener): an io_context on its
// own thread, BrokerConnection and GroupMember helpers, workers that record what they are
// assigned, and a wait for a stable, complete and disjoint split of 3 connectors x 2 tasks.
// Shared by worker_coordinator_test.cc, ssl_group_test.cc and sasl_group_test.cc.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "runtime/distributed/group_member.h"
#include "runtime/distributed/worker_coordinator.h"
#include "runtime/kafka/protocol/broker_connection.h"

namespace connectd::distributed {

// What `connectd distributed` makes of a worker's Java client keys; the translation must not
// warn (a non-fatal test failure otherwise).
absl::StatusOr<kafka::protocol::SecurityConfig> SecurityFromJava(
    const std::map<std::string, std::string>& java);

// Grants `principal` READ and DESCRIBE on the groups prefixed `group_prefix`, through the
// PLAINTEXT listener `plaintext_bootstrap` (User:ANONYMOUS is a super user of the test
// clusters); a failure is a test failure.
void GrantGroupAcls(const std::string& plaintext_bootstrap, const std::string& principal,
                    const std::string& group_prefix);

// A GroupMemberListener that records what the group tells one member, for members that are
// expected never to join (bad credentials). Thread-safe: the group calls it on the io thread.
class ErrorRecordingListener : public GroupMemberListener {
 public:
  std::vector<kafka::protocol::JoinGroupRequest::Protocol> JoinMetadata() override;
  void OnJoinPrepare(int32_t, const std::string&) override {}
  absl::StatusOr<std::map<std::string, std::string>> PerformAssignment(
      int32_t, const std::string&, const std::string&,
      const std::vector<kafka::protocol::JoinGroupResponse::Member>& members) override;
  void OnJoinComplete(int32_t, const std::string&, const std::string&, const std::string&) override;
  void OnGroupError(const absl::Status& error) override;

  // The first error the group reported, waiting up to `timeout` for one; nullopt if none came.
  std::optional<absl::Status> AwaitError(std::chrono::seconds timeout);
  // Whether the member ever completed a join.
  bool joined();

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<absl::Status> errors_;
  bool joined_ = false;
};

// Lifecycle: SetUp() starts the io thread; a derived SetUp() calls it first and then
// UseBootstrap() with the listener under test. TearDown() stops every worker's member, then the
// io thread. Test bodies run on the test thread; the workers' callbacks on the io thread and
// record under Worker::mu.
class WorkerGroupFixture : public ::testing::Test {
 protected:
  // One worker: its coordinator, its group member and what it was assigned (guarded by mu).
  struct Worker {
    std::unique_ptr<WorkerCoordinator> coordinator;
    std::shared_ptr<GroupMember> member;
    std::mutex mu;
    std::vector<AssignmentEvent> events;
    std::vector<std::string> errors;

    // REQUIRES: at least one event.
    AssignmentEvent Last();
    size_t Count();
  };

  // The offset of the config snapshot every worker's coordinator sees.
  static constexpr int64_t kConfigOffset = 42;

  // `client_id` names the test's connections; the group id is UniqueName(`group_prefix`).
  WorkerGroupFixture(std::string client_id, const std::string& group_prefix);

  void SetUp() override;
  void TearDown() override;

  // The broker listener the helpers below use ("host:port").
  void UseBootstrap(const std::string& bootstrap);

  static void StopAndWait(GroupMember& member);

  // Connects to `host` on the listener's port and negotiates versions (and TLS / SASL as
  // `security` says); the connection is handed back in `out` either way.
  absl::Status Connect(const std::string& host, const kafka::protocol::SecurityConfig& security,
                       std::shared_ptr<kafka::protocol::BrokerConnection>* out = nullptr);

  // A member config for the fixture's group on the listener, with short test timeouts.
  GroupMemberConfig GroupConfig(const kafka::protocol::SecurityConfig& security);

  // Starts a worker whose coordinator (REST url `url`, protocol `mode`) sees 3 connectors with
  // 2 tasks each at kConfigOffset and joins with `config`.
  Worker& StartWorker(const std::string& url, ConnectProtocolMode mode,
                      const GroupMemberConfig& config);

  // Per-worker loads once every worker's last round has the same generation and the complete
  // sets cover the 3 connectors and 6 tasks exactly once; empty on timeout.
  std::vector<size_t> AwaitStableSplit(std::chrono::seconds timeout);

  const std::string client_id_;
  const std::string group_;
  std::string bootstrap_;
  uint16_t port_ = 0;
  boost::asio::io_context io_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_ =
      boost::asio::make_work_guard(io_);
  std::thread thread_;
  std::vector<std::unique_ptr<Worker>> workers_;
};

}  // namespace connectd::distributed
