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

namespace connectd::mirror_maker {

struct GroupOffsetPlan {
  std::string topic;  // the remote topic on B
  int32_t partition = 0;
  int64_t upstream_offset = 0;              // the group's committed offset on A at the checkpoint
  int64_t downstream_offset = 0;            // where it resumes on B
  std::string metadata;                     // the group's commit metadata on A
  std::optional<int64_t> target_committed;  // the group's offset on B now, if any
  bool commit = false;  // false: B's offset is at or past the translated one and is kept
};

struct GroupTranslation {
  std::string group;
  std::string source_alias;
  std::string checkpoints_topic;
  std::vector<GroupOffsetPlan> partitions;  // sorted by (topic, partition)
  bool committed = false;                   // FailoverGroup committed the plan
};

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

// The plan's decision per partition, from the newest checkpoints and B's committed offsets:
// commit where B has none or a smaller one. Pure.
std::vector<GroupOffsetPlan> PlanFailover(
    std::vector<GroupOffsetPlan> translated,
    const std::map<std::pair<std::string, int32_t>, int64_t>& target_committed);

// {"group","source","checkpoints_topic","committed","partitions":[{"topic","partition",
// "upstream_offset","offset","metadata","target_committed_offset" (null if none),
// "action":"commit"|"keep"}]}
std::string GroupTranslationJson(const GroupTranslation& translation);
// A table for people: one line per partition.
std::string GroupTranslationText(const GroupTranslation& translation);

}  // namespace connectd::mirror_maker
