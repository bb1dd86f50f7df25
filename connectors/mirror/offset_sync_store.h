// File: offset_sync_store.h
//
// OffsetSyncStore: the checkpoint task's index of offset syncs, which translates a consumer
// group's committed offset on the source into an offset on the target (Kafka's OffsetSyncStore,
// KAFKA-14666 + KAFKA-15202 + KAFKA-15905).
//
// Design. The offset-syncs topic holds, per source topic-partition, a growing sequence of
// (upstream, downstream) pairs. Keeping all of them costs memory without bound; keeping only the
// newest makes every group that lags behind it untranslatable. The store keeps 64 slots per
// source partition, spaced exponentially: slot 0 is the newest sync, and each later slot may be
// about twice as old as the one before, so the slots cover the whole history with a precision
// that degrades with age. For slots i < j holding different syncs:
//   A  slot 0 is the latest sync read;
//   B  s[i].up <= s[j].up + 2^j - 2^i        (recency: a slot is not too old for its index);
//   C  s[i].up >= s[j].up + 2^max(i-2,0)     (separation: neighbours are not too close);
//   D  slot 63 is the oldest sync still usable.
// Both bounds are repaired by one left-to-right pass per new sync that reuses old syncs where
// they still fit (so as few distinct syncs as possible expire), and stops as soon as B holds.
// "Different" means a different record (identity), not different values: two records with the
// same offsets are two syncs. An overflowing bound counts as satisfied for B and violated for C.
//
// Translation of a group offset g uses the newest stored sync s with s.up <= g and answers
// s.down + (g == s.up ? 0 : 1): never more than one past the sync, because records between two
// syncs may have been filtered or dropped, and overestimating would skip data.
//
// Two classes:
//   OffsetSyncStore   the pure data structure (fed OffsetSync records; not thread-safe);
//   OffsetSyncReader  tails the offset-syncs topic into a store (InternalTopicReader) and
//                     answers translations from any thread.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "connectors/mirror/internal_topic_reader.h"
#include "connectors/mirror_client/records.h"

namespace connectd::mirror {

// OffsetSyncStore: the sparse per-partition translation index. Not thread-safe; the owner
// serialises calls (OffsetSyncReader does).
class OffsetSyncStore {
 public:
  static constexpr int kSyncsPerPartition = 64;

  // One stored sync. Slots that hold the same record share `id`; every record gets a new id.
  struct Sync {
    int64_t upstream = 0;
    int64_t downstream = 0;
    uint64_t id = 0;
  };
  using Syncs = std::array<Sync, kSyncsPerPartition>;

  // `initialization_must_read_to_end` (Kafka's name): until MarkReadToEnd(), every sync
  // replaces the whole array, so only the newest sync read during the initial load survives.
  // The checkpoint task asks for this when it could not load its previous checkpoints: older
  // syncs could then translate a group behind a checkpoint it already emitted.
  explicit OffsetSyncStore(bool initialization_must_read_to_end = true)
      : initialization_must_read_to_end_(initialization_must_read_to_end) {}

  // Applies one record of the offset-syncs topic (Kafka's handleRecord).
  void Update(const std::string& topic, int32_t partition, int64_t upstream, int64_t downstream);
  void Update(const OffsetSync& sync);

  // The first read-to-end of the offset-syncs topic completed: translation starts.
  void MarkReadToEnd() { read_to_end_ = true; }
  bool readToEnd() const { return read_to_end_; }

  // Kafka's translateDownstream: nullopt before the first read-to-end or when the partition
  // has no sync; -1 when even the oldest stored sync is newer than `upstream_offset` (the group
  // is older than anything retained); otherwise the translated downstream offset.
  std::optional<int64_t> TranslateDownstream(const std::string& topic, int32_t partition,
                                             int64_t upstream_offset) const;

  // The slots of a partition, or nullptr when it has none (tests and debugging).
  const Syncs* syncsFor(const std::string& topic, int32_t partition) const;
  size_t partitionCount() const { return syncs_.size(); }

 private:
  void UpdateSyncArray(Syncs& syncs, const Syncs& original, const Sync& sync) const;

  bool initialization_must_read_to_end_;
  bool read_to_end_ = false;
  uint64_t next_id_ = 1;
  std::map<std::pair<std::string, int32_t>, Syncs> syncs_;
};

// OffsetSyncReader: an OffsetSyncStore fed by an InternalTopicReader of the offset-syncs
// topic. Lifecycle: Make, Start, any number of TranslateDownstream calls, then Stop or
// destruction. Undecodable records are skipped with a warning.
//
// Threads: every public method is thread-safe.
class OffsetSyncReader {
 public:
  // `consumer_props` are Java client properties (ClientProps of the side holding the topic).
  // nullptr with `error` set when the consumer cannot be created.
  static std::unique_ptr<OffsetSyncReader> Make(const Props& consumer_props, std::string topic,
                                                std::string* error);
  ~OffsetSyncReader() { Stop(); }
  OffsetSyncReader(const OffsetSyncReader&) = delete;
  OffsetSyncReader& operator=(const OffsetSyncReader&) = delete;

  // Starts reading; see OffsetSyncStore for `initialization_must_read_to_end`. Once only.
  void Start(bool initialization_must_read_to_end);
  // Blocks until the first read-to-end completed (true), `timeout` passed or Stop() (false).
  bool WaitForReadToEnd(std::chrono::milliseconds timeout) {
    return reader_->WaitForReadToEnd(timeout);
  }
  bool readToEnd() const { return reader_->readToEnd(); }
  std::optional<int64_t> TranslateDownstream(const std::string& topic, int32_t partition,
                                             int64_t upstream_offset) const;
  // Stops and joins the reader thread. Idempotent.
  void Stop() { reader_->Stop(); }

  const std::string& topic() const { return reader_->topic(); }

 private:
  explicit OffsetSyncReader(std::unique_ptr<InternalTopicReader> reader)
      : reader_(std::move(reader)) {}

  std::unique_ptr<InternalTopicReader> reader_;  // constant after construction
  mutable std::mutex mu_;
  OffsetSyncStore store_;  // guarded by mu_
};

}  // namespace connectd::mirror
