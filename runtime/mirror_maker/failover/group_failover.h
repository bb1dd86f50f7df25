// File: group_failover.h
//
// The runbook of a DR event for one consumer group of a MirrorMaker 2 flow A->B: where does the
// group resume on B, and commit it there.
//
//   TranslateGroupOffsets  reads the flow's checkpoints topic on B (`A.checkpoints.internal`,
//                          partition 0, from the beginning to its end) and keeps the newest
//                          checkpoint of the group per remote partition: Java's
//                          RemoteClusterUtils.translateOffsets, which needs nothing of A (it may be
//                          down). With connectd's exact offset index behind the checkpoints, each
//                          offset is the group's next record's own copy on B. It also lists the
//                          group's committed offsets on B and plans, per partition, whether a
//                          failover commits the translated offset or keeps B's (never rewinds a
//                          group that is already ahead there).
//   FailoverGroup          translates and commits the planned offsets to the group on B in one
//                          AlterConsumerGroupOffsets request, which the broker refuses while the
//                          group has members there: kFailedPrecondition, nothing changed.
//
// Both block for at most the given timeout per Kafka round trip; any thread, no shared state.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/mirror_maker/failover/group_translation.h"

namespace connectd::mirror_maker {

struct FailoverRequest {
  // Java client properties of B (bootstrap.servers, security.*, ssl.*, sasl.*).
  std::map<std::string, std::string> target_client;
  std::string source_alias;
  std::string group;
  // replication.policy.class / replication.policy.separator and friends, as the flow's
  // connectors have them; empty: Kafka's DefaultReplicationPolicy.
  std::map<std::string, std::string> policy;
  std::chrono::milliseconds timeout{30000};
};

// kNotFound when B has no checkpoint of the group from A (no checkpoints topic, or none of this
// group: the group is not in the checkpoint connector's `groups`, or it never committed).
absl::StatusOr<GroupTranslation> TranslateGroupOffsets(const FailoverRequest& request);

// kFailedPrecondition while the group is active on B; `dry_run` plans without committing.
absl::StatusOr<GroupTranslation> FailoverGroup(const FailoverRequest& request, bool dry_run);

}  // namespace connectd::mirror_maker
