// File: checkpoint_store.h
//
// CheckpointStore: the newest checkpoint per (consumer group, downstream topic-partition) that a
// checkpoint task knows about: loaded from the checkpoints topic when the task starts, then
// updated with every checkpoint it emits (Kafka's CheckpointStore, KAFKA-15905). The task uses
// it to keep checkpoints monotonic across restarts and as the source of the offsets it writes to
// idle target groups.
//
// CheckpointStore itself is a plain map (not thread-safe); LoadCheckpoints fills one from Kafka.
#pragma once

#include <atomic>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "connectd/sdk/records.h"
#include "connectors/mirror/checkpoint_admin.h"
#include "connectors/mirror/kafka_clients.h"
#include "connectors/mirror_client/records.h"

namespace connectd::mirror {

class CheckpointStore {
 public:
  // Keyed by the checkpoint's (downstream, renamed) topic-partition.
  using GroupCheckpoints = std::map<sdk::TopicPartition, Checkpoint>;

  // Adds or replaces `group`'s checkpoints with `newer` (others of the group stay).
  void Update(const std::string& group, const GroupCheckpoints& newer);
  // Applies one record of the checkpoints topic if it decodes and its group is in `groups`;
  // returns false for an undecodable record.
  bool Apply(std::string_view key, std::string_view value, const std::set<std::string>& groups);
  // The group's checkpoints, or nullptr if it has none.
  const GroupCheckpoints* Get(const std::string& group) const;
  // Per group, the downstream offset and metadata of each checkpoint (Kafka's
  // computeConvertedUpstreamOffset): what group offset sync writes to the target.
  std::map<std::string, GroupOffsets> ComputeConvertedUpstreamOffset() const;

  void Clear() { checkpoints_.clear(); }
  size_t groupCount() const { return checkpoints_.size(); }

 private:
  std::map<std::string, GroupCheckpoints> checkpoints_;
};

// Reads partition 0 of `topic` from the beginning to its end (the high watermark when reading
// began) with a consumer built from `consumer_props` (Java client properties), applying every
// record to `store` for the groups in `groups`; undecodable records are skipped. Returns true
// when the whole partition was read. On a read error (e.g. no READ permission), a topic still
// missing after `topic_wait_ms`, or `*stop`, `store` is cleared, false is returned and `error`
// says why: the task then emits only checkpoints for offsets mirrored after it started.
bool LoadCheckpoints(const Props& consumer_props, const std::string& topic,
                     const std::set<std::string>& groups, int topic_wait_ms,
                     const std::atomic<bool>* stop, CheckpointStore* store, std::string* error);

}  // namespace connectd::mirror
