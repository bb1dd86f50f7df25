// File: incremental_cooperative_assignor.h
//
// Connect's IncrementalCooperativeAssignor (KIP-415), the leader-side assignment of subprotocols
// `compatible` (v1) and `sessioned` (v2). KIP-415; the rules are Kafka 4.x's
// IncrementalCooperativeAssignor.java, restated here in our own terms.
//
// Each member reports its current complete set (its metadata's allocation). The leader answers
// each member with only what is *newly* assigned to it, what it must *revoke* now, and a
// *delay* after which the whole group must rejoin. Revoked work is handed out only in a
// follow-up round (members that revoked something rejoin at once), so nothing ever runs twice.
//
// One round, in order:
//  1. If the remembered previous assignment P belongs to another generation than the last one
//     this leader completed, forget it (P := empty).
//  2. Active A := union of the reported sets. If anything revoked last round is still in A (the
//     revocation did not take effect), P := A.
//  3. Deleted D := P - configured. Duplicated := items reported by more than one member.
//     Lost L := P - A - D. Created N := configured - P - A.
//  4. Revoke D and the duplicated items from every member that reports them. (Duplicated items
//     go unassigned this round and come back as created in the next.)
//  5. Lost work (scheduled.rebalance.max.delay.ms = M):
//     - L empty and no revocation in the previous round: cancel any delay.
//     - no delay running and every previous member is still here (the last SyncGroup probably
//       failed), or M = 0: reassign L now, like created work.
//     - a delay running that has expired: deal L round-robin to the "candidate" workers (members
//       that were empty while the delay ran) still present, or, without any, reassign it like
//       created work; cancel the delay; allow revocations again.
//     - otherwise start the delay (M) or continue it (the time left), remember the empty members
//       as candidates, and leave L unassigned.
//  6. Only when no delay is running, balance: for connectors and for tasks separately, each
//     member may keep floor(total/W), and (total mod W) members, the first over the floor in
//     member order, one more; a member above its allowance gives up the excess from the front of
//     its list. If the previous round also revoked, this is the k-th consecutive revoking round:
//     instead of revoking, set a delay of min(40^k ms, M) (40 ms, 1.6 s, 64 s, M, ...); with
//     M = 0 revoke anyway. A round with no balancing revocation after a revoking one resets k.
//  7. Allocate N then the L being reassigned: connectors, then tasks, each sorted, dealt to the
//     members sorted by (load, member id), filling the least loaded tier first.
//  8. Newly assigned := new set - current set (current without D). P := the new sets minus
//     everything revoked, plus L (so unassigned lost work stays lost).
//
// Orders that decide ties are Java's: names compare as java.lang.String; members are walked in
// the iteration order of Java's HashMap of member ids (see AssignmentInput::members).
//
// Lifecycle: one instance per leadership. A worker that becomes leader starts a new one (Java
// builds the assignor once per worker, and a new leader's previous generation never matches, so
// the remembered state is discarded either way); the state below persists across rounds.
// Thread-safety: not thread-safe; call from the herder strand only.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/distributed/connect_assignor.h"

namespace connectd::distributed {
namespace assignor_internal {
struct WorkerLoad;  // one member's work while a round is computed
}  // namespace assignor_internal

class IncrementalCooperativeAssignor {
 public:
  // The default of scheduled.rebalance.max.delay.ms.
  static constexpr int32_t kDefaultMaxDelayMs = 300'000;

  // `max_delay_ms` is scheduled.rebalance.max.delay.ms: how long lost work waits for its worker
  // to come back, and the cap of the consecutive-revocation backoff. Fails with
  // kInvalidArgument when negative.
  static absl::StatusOr<IncrementalCooperativeAssignor> Create(
      int32_t max_delay_ms = kDefaultMaxDelayMs);

  // What the coordinator knows about the round besides the members and the snapshot.
  struct Round {
    int32_t generation = -1;  // the generation of this JoinGroup
    // The generation of this worker's last successful SyncGroup (Java's
    // WorkerCoordinator.lastCompletedGenerationId; -1 if none).
    int32_t last_completed_generation = -1;
    int16_t protocol_version = kProtocolV2;  // 1 or 2: the layout of the answers
    int64_t now_ms = 0;                      // the injected clock
  };

  // Computes one round (see the file comment) and updates the remembered state. Every member's
  // assignment carries `round.protocol_version`, NO_ERROR, the leader's id and URL,
  // `input.config_offset`, its newly assigned and revoked work, and the round's delay
  // (delay_ms()). A member's reported allocation may list an item twice; it counts once.
  // Fails with kInvalidArgument (state untouched) when there are no members, a member id
  // repeats, the leader is not a member, or the protocol version is not 1 or 2.
  absl::StatusOr<AssignmentResult> PerformAssignment(const AssignmentInput& input,
                                                     const Round& round);

  // The rejoin delay sent with the last round (0: none).
  int32_t delay_ms() const { return delay_ms_; }
  // When the running delay expires (0: no delay running).
  int64_t scheduled_rebalance_ms() const { return scheduled_rebalance_ms_; }
  // Members that were empty while the current delay ran, in the order lost work goes to them.
  const std::vector<std::string>& candidate_workers() const { return candidate_workers_; }
  // k of the last consecutive revoking round (0 after a round without balancing revocations).
  int consecutive_revoking_rebalances() const { return consecutive_revoking_rebalances_; }
  // Whether the last round revoked work to balance the load.
  bool revoked_in_previous() const { return revoked_in_previous_; }
  int32_t max_delay_ms() const { return max_delay_ms_; }

  // The delay of the k-th consecutive revoking round for a max delay: Java's
  // ExponentialBackoff(initial 1 ms, multiplier 40, max `max_delay_ms`, no jitter), or 0 when
  // `max_delay_ms` is 0.
  static int32_t ConsecutiveRevocationDelayMs(int32_t max_delay_ms, int k);

  // Item sets in Java's natural order (what the Java assignor's TreeSets hold).
  struct WorkSet {
    std::set<std::string, assignor_internal::JavaStringLess> connectors;
    std::set<herder::ConnectorTaskId, assignor_internal::JavaTaskLess> tasks;
    bool empty() const { return connectors.empty() && tasks.empty(); }
  };

 private:
  explicit IncrementalCooperativeAssignor(int32_t max_delay_ms) : max_delay_ms_(max_delay_ms) {}

  void HandleLostAssignments(const WorkSet& lost, WorkSet* reassign_as_new,
                             std::vector<assignor_internal::WorkerLoad>* loads, int64_t now_ms);
  void ResetDelay();

  // Const after construction.
  int32_t max_delay_ms_;

  // Leader memory, carried from round to round.
  WorkSet previous_assignment_;
  WorkSet previous_revocation_;
  int32_t previous_generation_ = -1;
  std::set<std::string> previous_members_;
  bool revoked_in_previous_ = false;
  int consecutive_revoking_rebalances_ = 0;
  int64_t scheduled_rebalance_ms_ = 0;
  int32_t delay_ms_ = 0;
  std::vector<std::string> candidate_workers_;  // an insertion-ordered set
};

}  // namespace connectd::distributed
