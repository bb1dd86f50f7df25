// File: eager_assignor.h
//
// Connect's EagerAssignor, the leader-side assignment of subprotocol `default` (version 0): every
// member stops everything when a rebalance starts and receives its complete new set. Connectors
// sorted by name are dealt round-robin over the members sorted by member id; the tasks, sorted by
// connector and then task number, continue on the same circular walk over the members (so with
// single-task connectors the connectors and the tasks land on different workers). Kafka's EagerAssignor.
//
// Example: members {a, b}, connectors c1 (tasks 0, 1) and c2 (task 0):
//   a: connectors [c1], tasks [c1-0, c2-0]      b: connectors [c2], tasks [c1-1]
//
// Thread-safety: a pure function.
#pragma once

#include "absl/status/statusor.h"
#include "runtime/distributed/connect_assignor.h"

namespace connectd::distributed {

// Assigns `input.configured` over `input.members`. Every member gets a version-0 assignment
// (NO_ERROR, the leader's id and URL, `input.config_offset`) listing its complete set; members
// left without work get an empty one. String order is Java's (String.compareTo).
// Fails with kInvalidArgument when there are no members, a member id repeats, or the leader is
// not a member.
absl::StatusOr<AssignmentResult> PerformEagerAssignment(const AssignmentInput& input);

}  // namespace connectd::distributed
