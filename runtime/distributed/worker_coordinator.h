// File: worker_coordinator.h
//
// WorkerCoordinator: the Connect half of group membership (Java's WorkerCoordinator). It is the
// GroupMemberListener of a worker's GroupMember: it offers the subprotocols of
// `connect.protocol` with this worker's metadata (REST URL, config offset and, for
// compatible/sessioned, its current complete assignment), runs the leader's assignor (eager for
// `default`, incremental cooperative for the others) over the configured connectors and tasks,
// answers every member with CONFIG_MISMATCH when the leader is behind the newest config offset
// a member reported, and turns each SyncGroup answer into the worker's new complete set.
//
// The herder supplies the config snapshot and receives assignments through `Callbacks`.
//
// Threads: called by GroupMember on its strand; the callbacks run there too (post work to the
// herder). The snapshot callback must be cheap and thread-safe.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "runtime/distributed/connect_assignor.h"
#include "runtime/distributed/connect_protocol.h"
#include "runtime/distributed/eager_assignor.h"
#include "runtime/distributed/group_member.h"
#include "runtime/distributed/incremental_cooperative_assignor.h"

namespace connectd::distributed {

// What the leader assigns from: the config offset and the connectors with their task numbers
// (empty for inconsistent or STOPPED connectors, as Java's leader passes them).
struct ConfigSnapshotView {
  int64_t offset = -1;
  ConfiguredConnectors connectors;
};

// One completed round, as the herder needs it.
struct AssignmentEvent {
  int32_t generation = -1;
  std::string member_id;
  std::string protocol;          // "default", "compatible", "sessioned"
  ConnectAssignment assignment;  // as the leader sent it (new + revoked for v1/v2)
  MemberWork complete;           // this worker's complete set after applying it
};

class WorkerCoordinator : public GroupMemberListener {
 public:
  struct Callbacks {
    std::function<ConfigSnapshotView()> snapshot;
    std::function<void(const AssignmentEvent&)> on_assignment;
    // Before a rejoin; under `default` (eager) everything is revoked here.
    std::function<void(bool eager)> on_revoke_all;
    // With confirm_applied, the next JoinGroup waits until the herder has called MarkApplied()
    // for every on_assignment and every on_revoke_all (revoked work stopped first; cooperative:
    // the config topic caught up with and reconfigured tasks stopped).
    bool confirm_applied = false;
    std::function<void(const absl::Status&)> on_error;
    // Asks the group member for another round: after revocations (the follow-up round that
    // hands the revoked work to its new owners) and, by the herder, after a scheduled delay.
    std::function<void(std::string reason)> request_rejoin;
  };

  // `url`: the advertised REST URL ("http://host:port/").
  static absl::StatusOr<std::unique_ptr<WorkerCoordinator>> Create(
      std::string url, ConnectProtocolMode mode, int32_t scheduled_rebalance_max_delay_ms,
      Callbacks callbacks, std::function<int64_t()> now_ms);

  // GroupMemberListener.
  std::vector<kafka::protocol::JoinGroupRequest::Protocol> JoinMetadata() override;
  void OnJoinPrepare(int32_t generation, const std::string& member_id) override;
  absl::StatusOr<std::map<std::string, std::string>> PerformAssignment(
      int32_t generation, const std::string& leader_id, const std::string& protocol,
      const std::vector<kafka::protocol::JoinGroupResponse::Member>& members) override;
  void OnJoinComplete(int32_t generation, const std::string& member_id, const std::string& protocol,
                      const std::string& assignment) override;
  void OnGroupError(const absl::Status& error) override;
  // Java's revocation of the whole assignment when the coordinator stays unreachable: the
  // herder stops everything (on_revoke_all(eager=true)) and the next JoinGroup owns nothing.
  void OnCoordinatorUnreachable(std::chrono::milliseconds waited) override;
  // Not while a round (or an eager revoke-all) handed to the herder is still being applied.
  bool ReadyToJoin() override { return unapplied_.load() == 0; }

  // The herder finished applying what on_assignment / on_revoke_all(eager) handed it: revoked
  // work is stopped. Call exactly once per such callback (any thread).
  void MarkApplied() { unapplied_.fetch_sub(1); }

  // This worker's complete set as of the last round (any thread).
  MemberWork complete() const;
  // Leader only: the REST URL of the member that owns a connector or task after the last round
  // it led (for restart forwarding); nullopt if unknown (any thread).
  std::optional<std::string> OwnerUrl(const std::string& connector) const;
  std::optional<std::string> OwnerUrl(const herder::ConnectorTaskId& task) const;

 private:
  WorkerCoordinator(std::string url, ConnectProtocolMode mode, Callbacks callbacks,
                    std::function<int64_t()> now_ms, IncrementalCooperativeAssignor assignor);

  const std::string url_;
  const ConnectProtocolMode mode_;
  const Callbacks callbacks_;
  const std::function<int64_t()> now_ms_;
  IncrementalCooperativeAssignor assignor_;
  mutable std::mutex mu_;  // guards complete_, owners_ and member_urls_
  MemberWork complete_;
  OwnerMap owners_;
  std::map<std::string, std::string> member_urls_;  // member id -> REST URL (leader only)
  int32_t last_completed_generation_ = -1;
  std::string leader_id_, leader_url_;
  int64_t assignment_offset_ = -1;
  std::atomic<int> unapplied_{0};
};

}  // namespace connectd::distributed
