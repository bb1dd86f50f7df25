// File: checkpoint_admin.h
//
// The consumer-group Admin calls of MirrorCheckpointConnector/Task on librdkafka:
// ListConsumerGroups, ListConsumerGroupOffsets (one group per request, several in flight),
// DescribeConsumerGroups and AlterConsumerGroupOffsets. Standard library + librdkafka.
//
// Every call waits at most `timeout_ms` and returns early (failed, "stopping") once `*stop` is
// set, so a task's stop never waits for a slow cluster. Failures come back as nullopt/false
// with a message.
//
// Threads: any; `rk` must outlive the call.
#pragma once

#include <librdkafka/rdkafka.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "connectd/sdk/records.h"

namespace connectd::mirror {

// A committed offset as Kafka's OffsetAndMetadata. `offset` < 0 is Java's null entry (no
// committed offset, or one reset to -1 by a non-Java client).
struct CommittedOffset {
  int64_t offset = -1;
  std::string metadata;
  bool operator==(const CommittedOffset&) const = default;
};
using GroupOffsets = std::map<sdk::TopicPartition, CommittedOffset>;

// The ids of every valid consumer-group listing (Java's listConsumerGroups().valid()).
std::optional<std::vector<std::string>> ListConsumerGroupIds(rd_kafka_t* rk, int timeout_ms,
                                                             const std::atomic<bool>* stop,
                                                             std::string* error);

// Each group's committed offsets (all partitions). `errors` receives the groups whose listing
// failed; they are absent from the result. nullopt only if the whole call timed out or stopped.
std::optional<std::map<std::string, GroupOffsets>> ListConsumerGroupOffsets(
    rd_kafka_t* rk, const std::vector<std::string>& groups, int timeout_ms,
    const std::atomic<bool>* stop, std::map<std::string, std::string>* errors);

// Each group's state; a group that does not exist is DEAD. Groups whose description failed are
// absent and named in `errors`.
std::optional<std::map<std::string, rd_kafka_consumer_group_state_t>> DescribeConsumerGroupStates(
    rd_kafka_t* rk, const std::vector<std::string>& groups, int timeout_ms,
    const std::atomic<bool>* stop, std::map<std::string, std::string>* errors);

// Commits `offsets` for `group` (Admin alterConsumerGroupOffsets). On failure returns false with
// the first error code and its message.
bool AlterConsumerGroupOffsets(rd_kafka_t* rk, const std::string& group,
                               const GroupOffsets& offsets, int timeout_ms,
                               const std::atomic<bool>* stop, rd_kafka_resp_err_t* code,
                               std::string* error);

}  // namespace connectd::mirror
