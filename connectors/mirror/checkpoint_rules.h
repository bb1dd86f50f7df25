// File: checkpoint_rules.h
//
// The decisions of MirrorCheckpointConnector and MirrorCheckpointTask as pure functions, so they
// are tested without Kafka (MirrorCheckpointConnector, MirrorCheckpointTask, KIP-545):
//   GroupPartitions          how groups are dealt to tasks (Connect's ConnectorUtils)
//   RenameTopic              which topic name a checkpoint carries
//   CheckpointIsMoreRecent   the monotonicity rule
//   CombineTranslations      the exact offset index first, then the offset syncs
//   CheckpointsForGroup      filter, translate, rename, drop untranslatable and stale
//   OffsetsToSync            what group offset sync writes to one target group
//   ValidateCheckpointOffset the KIP-875 alterOffsets rules for checkpoint offsets
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "connectd/sdk/records.h"
#include "connectors/mirror/checkpoint_admin.h"
#include "connectors/mirror/checkpoint_store.h"
#include "connectors/mirror/offset_index.h"
#include "connectors/mirror_client/records.h"
#include "connectors/mirror_client/replication_policy.h"

namespace connectd::mirror {

// Splits `items` into `n` contiguous chunks in order, the first `items.size() % n` one longer
// (ConnectorUtils.groupPartitions). REQUIRES: n >= 1.
std::vector<std::vector<std::string>> GroupPartitions(const std::vector<std::string>& items, int n);

// The topic a checkpoint for source topic `topic` names: a topic that came from the target
// (topicSource == target alias) gets its original name back, any other one the remote name on
// the target (`<source>.<topic>` with the default policy).
std::string RenameTopic(const ReplicationPolicy& policy, const std::string& source_alias,
                        const std::string& target_alias, const std::string& topic);

// Whether `checkpoint` is emitted, given the last checkpoint of its group and partition
// (nullptr: none): yes if there is none, if the upstream offset went backwards (the group was
// rewound on the source) or if the downstream offset advanced; no for a repeated or a
// downstream-rewinding checkpoint.
bool CheckpointIsMoreRecent(const Checkpoint& checkpoint, const Checkpoint* last);

// The downstream offset a checkpoint carries, from the exact offset index's answer and the
// offset syncs' (Kafka's translateDownstream; -1: older than any sync): the index's when it is
// exact; otherwise the larger of the two, as both are lower bounds that skip nothing (the syncs'
// may be newer than the index, which is written at offset commits). nullopt when neither
// answers.
std::optional<int64_t> CombineTranslations(const std::optional<OffsetTranslation>& index,
                                           std::optional<int64_t> syncs);

// Translates a source offset: Kafka's translateDownstream (nullopt: no answer).
using Translate =
    std::function<std::optional<int64_t>(const std::string& topic, int32_t partition, int64_t)>;

// The checkpoints to emit for `group` from its committed `upstream` offsets: partitions of
// topics `should_checkpoint_topic` accepts, with a committed (non-negative) offset that
// translates to a non-negative downstream offset, renamed with `rename`, and more recent than
// `last` (the group's stored checkpoints, may be null). Keyed by the renamed partition.
CheckpointStore::GroupCheckpoints CheckpointsForGroup(
    const std::string& group, const GroupOffsets& upstream,
    const std::function<bool(const std::string&)>& should_checkpoint_topic,
    const Translate& translate, const std::function<std::string(const std::string&)>& rename,
    const CheckpointStore::GroupCheckpoints* last);

// Group offset sync for one group (Kafka's syncGroupOffset): `converted` are the latest
// checkpoints' downstream offsets; `target_idle` the group's offsets on the target if it was
// EMPTY there at the last refresh (nullptr: absent or active). Not EMPTY -> everything;
// EMPTY -> the partitions the target has no offset for, or a null (negative) one, or a smaller
// one. Never moves an idle target group backwards.
GroupOffsets OffsetsToSync(const GroupOffsets& converted, const GroupOffsets* target_idle);

// KIP-875 validation of one alterOffsets entry (MirrorCheckpointConnector.alterOffsets):
// `partition` must hold a string "group", a string "topic" and a non-negative 32-bit integer
// "partition"; a present `offset` must be {"offset": 0}. nullopt when valid, else the message.
std::optional<std::string> ValidateCheckpointOffset(std::string_view partition,
                                                    const std::optional<std::string>& offset);

}  // namespace connectd::mirror
