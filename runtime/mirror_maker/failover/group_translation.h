// File: group_translation.h
//
// Where a consumer group of a MirrorMaker 2 flow A->B resumes on B, per partition, and what a
// failover does there (group_failover.h computes it from Kafka): the plan's types, the pure
// planning rule, and its JSON (REST, `connectd mirror --json`) and text forms. No Kafka here, so
// rest/ may use it (scripts/check-includes).
//
// Threads: pure functions and values; any thread.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

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
