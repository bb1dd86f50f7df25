// File: group_member.h
//
// GroupMember: one worker's membership in a Kafka consumer-protocol group of protocol type
// `connect` (Java's AbstractCoordinator as WorkerGroupMember uses it), on connectd's own
// protocol client because librdkafka can only host protocol type `consumer`.
//
// It finds the group coordinator, joins (KIP-394 member-id round trip included), lets the
// leader compute assignments, syncs, heartbeats every heartbeat.interval.ms and rejoins when the
// coordinator asks (REBALANCE_IN_PROGRESS), when the member was fenced (UNKNOWN_MEMBER_ID,
// ILLEGAL_GENERATION) or when the listener asks (RequestRejoin). A coordinator that moves or
// disconnects is found again. Stop() leaves the group.
//
// What to offer and what to do with an assignment belongs to the GroupMemberListener (the
// Connect-specific worker coordinator): GroupMember only moves bytes.
//
// Threads: everything runs on one strand of the io_context given to Create (its broker
// connections share it), including every listener callback; public methods may be called from
// any thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "runtime/kafka/protocol/broker_connection.h"
#include "runtime/kafka/protocol/messages.h"

namespace connectd::distributed {

struct GroupMemberConfig {
  std::vector<std::pair<std::string, uint16_t>> bootstrap;  // host, port
  kafka::protocol::SecurityConfig security;
  std::string group_id;
  std::string client_id;
  std::string protocol_type = "connect";
  std::chrono::milliseconds session_timeout{10000};
  std::chrono::milliseconds heartbeat_interval{3000};
  std::chrono::milliseconds rebalance_timeout{60000};
  std::chrono::milliseconds request_timeout{40000};
  std::chrono::milliseconds retry_backoff{100};
  std::chrono::milliseconds max_retry_backoff{2000};

  // bootstrap.servers by kafka/client/bootstrap.h's rule; kInvalidArgument naming the bad entry.
  absl::Status SetBootstrap(const std::string& bootstrap_servers);
};

class GroupMemberListener {
 public:
  virtual ~GroupMemberListener() = default;
  // The subprotocols to offer, most preferred first, with this member's metadata.
  virtual std::vector<kafka::protocol::JoinGroupRequest::Protocol> JoinMetadata() = 0;
  // A (re)join is about to start; the previous generation's assignment is still held.
  virtual void OnJoinPrepare(int32_t generation, const std::string& member_id) = 0;
  // Leader only: the assignment blob of every member, from all members' metadata for the
  // subprotocol the coordinator chose. An error makes the leader rejoin after a backoff.
  virtual absl::StatusOr<std::map<std::string, std::string>> PerformAssignment(
      int32_t generation, const std::string& leader_id, const std::string& protocol,
      const std::vector<kafka::protocol::JoinGroupResponse::Member>& members) = 0;
  // False while the member must not send JoinGroup yet: the listener is still applying the
  // previous round (stopping revoked work), as Java's member, whose poll thread does that work,
  // cannot join before it is done. GroupMember asks again every 20 ms, for at most the
  // rebalance timeout.
  virtual bool ReadyToJoin() { return true; }
  // This member's assignment for `generation`.
  virtual void OnJoinComplete(int32_t generation, const std::string& member_id,
                              const std::string& protocol, const std::string& assignment) = 0;
  // A failure the listener should know about (authorization, protocol mismatch); the member
  // keeps retrying after a backoff.
  virtual void OnGroupError(const absl::Status& error) = 0;
  // The coordinator was lost and could not be found again within one heartbeat interval (Java's
  // WorkerCoordinator.poll): the listener must stop its work, as the group may already have
  // given it to another member. Called once per loss; the member keeps rediscovering.
  virtual void OnCoordinatorUnreachable(std::chrono::milliseconds /*waited*/) {}
};

// One worker's membership as its herder drives it: GroupMember on Kafka's coordinator; tests
// give a fake group (tests/unit/runtime/distributed/fake_group.h). The listener's callbacks
// run on one strand at a time, never concurrently.
class GroupMembership {
 public:
  virtual ~GroupMembership() = default;
  // Starts joining. Call once.
  virtual void Start() = 0;
  // Asks for a new rebalance round (a rejoin as soon as the current round ends).
  virtual void RequestRejoin(std::string reason) = 0;
  // Leaves the group; `done` runs once left, after the last listener callback.
  virtual void Stop(std::function<void()> done) = 0;
};

class GroupMember final : public GroupMembership, public std::enable_shared_from_this<GroupMember> {
 public:
  enum class State { kUnjoined, kJoining, kStable, kStopped };

  static std::shared_ptr<GroupMember> Create(boost::asio::io_context& io, GroupMemberConfig config,
                                             GroupMemberListener* listener);
  ~GroupMember() override;

  // Starts finding the coordinator and joining. Call once.
  void Start() override;
  // Asks for a new rebalance round (a rejoin as soon as the current round ends).
  void RequestRejoin(std::string reason) override;
  // Leaves the group (LeaveGroup) and closes connections; `done` runs on the strand after.
  void Stop(std::function<void()> done) override;

  // Snapshot for status output (any thread).
  struct Snapshot {
    State state;
    int32_t generation;
    std::string member_id;
    std::string coordinator;  // host:port, empty when unknown
    int64_t rebalances;       // completed join+sync rounds
  };
  Snapshot snapshot() const;

 private:
  GroupMember(boost::asio::io_context& io, GroupMemberConfig config, GroupMemberListener* listener);

  void FindCoordinator(size_t bootstrap_index);
  void OnCoordinatorFound(const std::string& host, uint16_t port);
  void CoordinatorLost(const absl::Status& why);
  void Join();
  void OnJoined(const kafka::protocol::JoinGroupResponse& response, const std::string& protocol);
  void Sync(kafka::protocol::SyncGroupRequest request);
  void ScheduleHeartbeat();
  void Heartbeat();
  // Handles an error code of JoinGroup/SyncGroup/Heartbeat; true if it was handled (a rejoin
  // or rediscovery is under way).
  bool HandleGroupError(int16_t code, const char* request);
  void RetryLater(std::function<void()> fn);
  void RejoinSoon();

  boost::asio::strand<boost::asio::io_context::executor_type> strand_;
  boost::asio::io_context& io_;
  const GroupMemberConfig config_;
  GroupMemberListener* const listener_;
  boost::asio::steady_timer retry_timer_;
  boost::asio::steady_timer heartbeat_timer_;
  boost::asio::steady_timer join_gate_timer_;
  // Armed while a heartbeat is unanswered: fires when the session would have expired.
  boost::asio::steady_timer session_timer_;
  // Armed when the coordinator is lost: fires when rediscovery took a heartbeat interval.
  boost::asio::steady_timer unreachable_timer_;

  // Strand only.
  std::shared_ptr<kafka::protocol::BrokerConnection> bootstrap_;
  std::shared_ptr<kafka::protocol::BrokerConnection> coordinator_;
  std::string coordinator_address_;
  std::string member_id_;
  int32_t generation_ = -1;
  std::string protocol_;
  State state_ = State::kUnjoined;
  bool rejoin_requested_ = false;
  int consecutive_failures_ = 0;
  int64_t rebalances_ = 0;
  uint64_t round_ = 0;  // invalidates callbacks of abandoned requests
  std::chrono::steady_clock::time_point last_heartbeat_ok_;
  bool unreachable_pending_ = false;  // unreachable_timer_ armed for the current loss
  std::optional<std::chrono::steady_clock::time_point> join_gate_since_;

  mutable std::mutex snapshot_mu_;
  Snapshot snapshot_{State::kUnjoined, -1, "", "", 0};  // guarded by snapshot_mu_
  void PublishSnapshot();
};

}  // namespace connectd::distributed
