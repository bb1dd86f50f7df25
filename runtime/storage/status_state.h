// File: status_state.h
//
// The in-memory side of Kafka 4.4.0's KafkaStatusBackingStore as pure logic, and the producer
// partitioning that decides where status and offsets records land.
//
// StatusCache holds what a worker knows of the status topic: the latest connector and task
// statuses it has *read* (its own writes count only once they are read back), the active topics
// per connector, and, per connector/task entry, a write sequence used to drop stale retries.
// Rules (KafkaStatusBackingStore and its CacheEntry, checked against the real store in
// tests/golden/status_topic/status_cache_scenarios.txt):
//  - Writes: every write first creates the entry if missing (so Connectors() lists a connector a
//    worker only wrote to) and records its generation as the store's generation. A safe write
//    (putSafe; the herder uses it for UNASSIGNED on shutdown and FAILED, see HerderWriteMode) is
//    skipped unless the entry has no value, the value's worker_id equals the writer's, or the
//    value's generation <= the write's. A write that goes ahead bumps the entry's sequence;
//    DESTROYED is sent as a tombstone. Topic records are written unconditionally.
//  - Retries after a retriable send error: a status write is resent unless its entry was removed
//    (a tombstone was read), the store's generation moved on, or (safe writes) the safe-write test
//    now fails or a later write to the entry was made. Topic writes are always resent.
//  - Reads: a connector or task value replaces the cached one, except that an incoming UNASSIGNED
//    is ignored while the cached value is RUNNING with generation >= the incoming one. Java 4.4
//    applies that rule to tasks only; connectd to connectors too (docs/compatibility.md): a worker
//    that lost the cluster during a rebalance sends its connector's UNASSIGNED late, after the new
//    owner's RUNNING, and Java then shows the running connector UNASSIGNED until its next restart.
//    A connector tombstone removes the connector and all its tasks; a task tombstone the task; a
//    topic tombstone that topic of the connector. Undecodable keys and values are discarded.
//
// Partitioning: Java's producer puts a keyed record on toPositive(murmur2(key bytes)) % n
// (BuiltInPartitioner.partitionForKey, Utils.murmur2/toPositive); status keys are the UTF-8
// bytes of the key string, offsets keys the JSON bytes.
//
// Thread safety: the free functions are pure; StatusCache is not thread-safe (its owner, the
// status backing store, serializes access).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/herder_api/herder_types.h"
#include "runtime/herder_api/task_status.h"
#include "runtime/storage/status_records.h"

namespace connectd::storage {

// Murmur2 returns Kafka's Utils.murmur2 of `bytes` (seed 0x9747b28c).
int32_t Murmur2(std::string_view bytes);

// ToPositive returns Kafka's Utils.toPositive: `number` with the sign bit cleared.
inline int32_t ToPositive(int32_t number) { return number & 0x7fffffff; }

// PartitionForKey returns the partition Java's producer picks for a record with key bytes `key`
// on a topic of `partition_count` partitions. REQUIRES: partition_count > 0.
int32_t PartitionForKey(std::string_view key, int32_t partition_count);

enum class WriteMode {
  kNormal,  // StatusBackingStore.put
  kSafe,    // StatusBackingStore.putSafe
};

// HerderWriteMode returns the mode Connect's herder uses for a status of `state`: kSafe for
// UNASSIGNED (onShutdown) and FAILED (onFailure), kNormal for the others.
WriteMode HerderWriteMode(worker::State state);

// One record to produce to the status topic, with what a retry decision needs.
struct StatusWrite {
  enum class Kind { kConnector, kTask, kTopic };
  std::string key;
  std::optional<std::string> value;  // nullopt: tombstone
  // Retry bookkeeping (kConnector/kTask).
  Kind kind = Kind::kConnector;
  herder::ConnectorTaskId id;  // connector (and task for kTask)
  uint64_t entry_id = 0;
  int sequence = 0;
  bool safe = false;
  StatusValue status;
};

class StatusCache {
 public:
  enum class ReadOutcome {
    kApplied,       // the value is now cached
    kRemoved,       // a tombstone removed what was cached (or nothing was)
    kIgnoredStale,  // an UNASSIGNED older than a cached RUNNING
    kInvalidKey,    // discarded: key not understood
    kInvalidValue,  // discarded: value not understood
  };

  // Read applies one consumed record (`value` nullopt: tombstone). Records with a null key must
  // not be passed (Java's reader fails on them).
  ReadOutcome Read(std::string_view key, std::optional<std::string_view> value);

  // PutConnector / PutTask prepare a status write: nullopt if a safe write is skipped, else the
  // record to send. kInvalidArgument (nothing changed) if a non-DESTROYED status has no worker_id.
  absl::StatusOr<std::optional<StatusWrite>> PutConnector(std::string_view connector,
                                                          const StatusValue& status,
                                                          WriteMode mode);
  absl::StatusOr<std::optional<StatusWrite>> PutTask(const herder::ConnectorTaskId& id,
                                                     const StatusValue& status, WriteMode mode);

  // PutTopic / DeleteTopic prepare an active-topic record or its tombstone.
  StatusWrite PutTopic(const TopicStatusValue& status) const;
  StatusWrite DeleteTopic(std::string_view connector, std::string_view topic) const;

  // ShouldRetry tells whether `write`, whose send failed with a retriable error, is to be resent.
  bool ShouldRetry(const StatusWrite& write) const;

  // Lookups of what has been read.
  std::optional<StatusValue> Connector(std::string_view connector) const;
  std::optional<StatusValue> Task(const herder::ConnectorTaskId& id) const;
  // Tasks returns `connector`'s task statuses, by task number.
  std::vector<std::pair<int32_t, StatusValue>> Tasks(std::string_view connector) const;
  // Connectors returns every connector with a cache entry (read or written), sorted.
  std::vector<std::string> Connectors() const;
  std::optional<TopicStatusValue> Topic(std::string_view connector, std::string_view topic) const;
  // Topics returns `connector`'s active topics: key topic -> record, sorted by topic.
  std::map<std::string, TopicStatusValue> Topics(std::string_view connector) const;
  // Connectors that have task entries or topic records (whether or not they have a status).
  std::vector<std::string> ConnectorsWithTasksOrTopics() const;

  // The generation of the last status write (the store's `generation`).
  int32_t generation() const { return generation_; }

 private:
  struct Entry {
    uint64_t id = 0;
    std::optional<StatusValue> value;
    int sequence = 0;
  };

  Entry& GetOrAdd(std::string_view connector);
  Entry& GetOrAdd(const herder::ConnectorTaskId& id);
  const Entry* Find(const StatusWrite& write) const;
  absl::StatusOr<std::optional<StatusWrite>> Prepare(Entry& entry, StatusWrite write,
                                                     WriteMode mode);

  std::map<std::string, Entry, std::less<>> connectors_;
  std::map<std::string, std::map<int32_t, Entry>, std::less<>> tasks_;
  std::map<std::string, std::map<std::string, TopicStatusValue>, std::less<>> topics_;
  int32_t generation_ = 0;
  uint64_t next_entry_id_ = 1;
};

}  // namespace connectd::storage
