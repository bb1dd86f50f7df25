// File: connect_assignor.h
//
// What Connect's two leader-side assignors share (Java's ConnectAssignor and the helpers around
// it): the inputs of one assignment round, its result (the SyncGroup answer per member plus the
// complete owner map the leader keeps to forward restarts), the CONFIG_MISMATCH answer, and the
// Java orderings the assignors depend on.
//
//   eager_assignor.h                      subprotocol `default` (v0): complete sets, round-robin
//   incremental_cooperative_assignor.h    `compatible`/`sessioned` (v1/v2): KIP-415, stateful
//
// The caller (the leader's coordinator) decodes JoinGroup member metadata, takes the config
// offset with MaxMemberConfigOffset(), makes sure its own config snapshot is at least that far
// (IncrementalCooperativeAssignor, checking the members' config offsets first; if not, it answers ConfigMismatchAssignments()), and then runs an
// assignor on its snapshot.
//
// Thread-safety: plain values and pure functions.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "runtime/distributed/connect_protocol.h"
#include "runtime/herder_api/herder_types.h"

namespace connectd::distributed {

// One member of a JoinGroup response, as the leader received it.
struct AssignorMember {
  std::string member_id;
  WorkerMetadata metadata;  // its URL, config offset and (v1+) current complete assignment
};

// The leader's config snapshot as the assignors see it: every configured connector with the task
// numbers the snapshot gives it (Java's ClusterConfigState.tasks(): 0..N-1 from committed task
// configs, none for a connector whose task configs are inconsistent or which is STOPPED).
using ConfiguredConnectors = std::map<std::string, std::vector<int32_t>>;

// The inputs of one assignment round.
struct AssignmentInput {
  // In the order of the JoinGroup response. Java's incremental assignor walks members in the
  // iteration order of a java.util.HashMap filled in this order, which decides ties in
  // load-balancing revocations; pass the broker's order to reproduce Java exactly.
  std::vector<AssignorMember> members;
  ConfiguredConnectors configured;
  std::string leader_id;   // the leader's member id; must be one of `members`
  std::string leader_url;  // the leader's advertised REST URL (its own metadata's url)
  // The config offset the snapshot is at: MaxMemberConfigOffset(), or the leader's own newer
  // offset if it re-read the config topic past it.
  int64_t config_offset = -1;
};

// A member's complete set of connectors and tasks, in assignment order.
struct MemberWork {
  std::vector<std::string> connectors;
  std::vector<herder::ConnectorTaskId> tasks;

  bool operator==(const MemberWork&) const = default;
};

// Who runs what after a round (Java's WorkerCoordinator.LeaderState): the leader forwards
// restart requests to these owners.
struct OwnerMap {
  std::map<std::string, std::string> connectors;         // connector -> member id
  std::map<herder::ConnectorTaskId, std::string> tasks;  // task -> member id

  bool operator==(const OwnerMap&) const = default;
};

// The result of one round.
struct AssignmentResult {
  // The SyncGroup assignment for every member, keyed by member id.
  std::map<std::string, ConnectAssignment> assignments;
  // Every member's complete set once it has applied `assignments` (for v0 the same as the
  // assignment itself; for v1/v2 its previous set minus revoked plus newly assigned).
  std::map<std::string, MemberWork> complete;
  // `complete` inverted.
  OwnerMap owners;
};

// The highest config offset any member reported: the offset Java computes assignments at.
// Returns -1 for no members.
int64_t MaxMemberConfigOffset(const std::vector<AssignorMember>& members);

// The answer when the leader's config snapshot stays behind MaxMemberConfigOffset(): every member
// gets error CONFIG_MISMATCH, nothing assigned or revoked and no delay, at `config_offset` (the
// max member offset), with layout `version` (0 for `default`, 1/2 for the cooperative ones).
// The incremental assignor's state is not involved (Java does not touch it on this path).
// Fails with kInvalidArgument when `leader_id` is not a member or `version` is not 0, 1 or 2.
absl::StatusOr<std::map<std::string, ConnectAssignment>> ConfigMismatchAssignments(
    const std::vector<AssignorMember>& members, std::string_view leader_id,
    std::string_view leader_url, int64_t config_offset, int16_t version);

// Inverts per-member complete sets into an owner map.
OwnerMap OwnersOf(const std::map<std::string, MemberWork>& complete);

namespace assignor_internal {

// Checks what both assignors need: at least one member, unique member ids, the leader among them.
absl::Status ValidateMembers(const std::vector<AssignorMember>& members,
                             std::string_view leader_id);

// java.lang.String.compareTo on the UTF-16 form of two UTF-8 strings. Differs from byte order
// only where a character above U+FFFF meets one in U+E000..U+FFFF.
int JavaCompare(std::string_view a, std::string_view b);
struct JavaStringLess {
  bool operator()(const std::string& a, const std::string& b) const {
    return JavaCompare(a, b) < 0;
  }
};
// ConnectorTaskId.compareTo: connector name (as above), then task number.
struct JavaTaskLess {
  bool operator()(const herder::ConnectorTaskId& a, const herder::ConnectorTaskId& b) const {
    int c = JavaCompare(a.connector, b.connector);
    return c != 0 ? c < 0 : a.task < b.task;
  }
};

// java.lang.String.hashCode of the UTF-16 form of a UTF-8 string.
int32_t JavaStringHash(std::string_view s);

// The iteration order of a java.util.HashMap (or HashSet) created with the default capacity
// into which `keys` (distinct) were put in this order. Bins are assumed not to treeify (that
// needs 8+ keys in one bucket).
std::vector<std::string> JavaHashOrder(const std::vector<std::string>& keys);

}  // namespace assignor_internal
}  // namespace connectd::distributed
