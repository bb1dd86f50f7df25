// File: source_offsets.h
//
// What source tasks need of offset storage, per connector: read the stored offset of a source
// partition and durably commit new ones. The worker adapts the process's OffsetBackingStore
// (file in standalone mode, Kafka topic in distributed mode) to it, serializing exactly as
// Connect does.
//
// SubmittedRecords: which source offsets may be committed. A record's offset becomes committable
// once the broker acknowledged it and every earlier record of the same source partition
// (Connect's per-partition in-order rule), so a crash never skips an unacknowledged record.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/node_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace connectd::worker {

class ConnectorOffsetStore {
 public:
  virtual ~ConnectorOffsetStore() = default;
  // The stored offset JSON of a source partition JSON (any key order), if any. An error means
  // the store could not be read (never "no offset": a task would start over from it).
  virtual absl::StatusOr<std::optional<std::string>> Offset(std::string_view partition_json) = 0;
  // Stores partition JSON -> offset JSON (nullopt: remove) durably; waits at most `timeout`.
  virtual absl::Status Write(const std::map<std::string, std::optional<std::string>>& offsets,
                             std::chrono::milliseconds timeout) = 0;
  // Every partition stored for the connector with its offset JSON.
  virtual absl::StatusOr<std::map<std::string, std::string>> All() = 0;

  absl::Status Commit(const std::map<std::string, std::string>& offsets,
                      std::chrono::milliseconds timeout) {
    std::map<std::string, std::optional<std::string>> writes(offsets.begin(), offsets.end());
    return Write(writes, timeout);
  }
};

// A source offset's JSON, inline when short (MirrorSource's {"offset":N} always is), so that
// the per-record path allocates nothing for it (a heap string per record was 6% of a 100 B
// MirrorSource copy's task CPU, perf).
class OffsetText {
 public:
  OffsetText() = default;
  explicit OffsetText(std::string_view text) { assign(text); }
  void assign(std::string_view text) {
    if (text.size() <= kInline) {
      std::memcpy(inline_, text.data(), text.size());
      size_ = static_cast<uint8_t>(text.size());
      heap_.clear();
    } else {
      heap_.assign(text);
      size_ = kOnHeap;
    }
  }
  std::string_view view() const {
    return size_ == kOnHeap ? std::string_view(heap_) : std::string_view(inline_, size_);
  }

 private:
  static constexpr size_t kInline = 46;
  static constexpr uint8_t kOnHeap = kInline + 1;
  uint8_t size_ = 0;  // the inline length, or kOnHeap
  char inline_[kInline] = {};
  std::string heap_;
};

// Not thread-safe: the task thread submits and acknowledges (delivery callbacks run in
// rd_kafka_poll on the task thread). Per record it costs the offset string and an amortised
// deque slot: partitions are hashed only when a record's partition differs from the previous
// record's, and committable offsets live in their partition's queue until taken.
class SubmittedRecords {
 public:
  struct Queue;
  struct Entry {
    Queue* queue;       // the record's source partition
    OffsetText offset;  // source offset JSON
    bool acked = false;
    std::string_view partition() const;
  };

  // Registers a record in submission order. The entry, its offset and its partition() stay
  // valid (same address) until the entry is acknowledged and drained from its queue's head.
  Entry* Submit(std::string_view partition, std::string_view offset);
  // Marks `entry` acknowledged and advances its partition's committable offset over every
  // acknowledged record at the head of that partition's queue. `entry` may be destroyed.
  void Ack(Entry* entry);
  // Offsets that became committable since the last call (partition -> newest offset).
  std::map<std::string, std::string> TakeCommittable();
  // Puts offsets back after a failed commit (newer ones taken since win).
  void Restore(std::map<std::string, std::string> offsets);
  size_t in_flight() const { return in_flight_; }

  struct Queue {
    const std::string* partition = nullptr;  // the key in queues_
    std::deque<Entry> entries;               // submission order; references stay valid
    std::optional<OffsetText> committable;   // newest committable offset, not yet taken
  };

 private:
  Queue& QueueOf(std::string_view partition);

  // Node-based: Queue addresses are stable while a queue exists. Empty queues with nothing
  // committable are dropped by TakeCommittable, so the map holds recently active partitions.
  absl::node_hash_map<std::string, Queue> queues_;
  Queue* last_ = nullptr;            // the queue of the previous Submit
  std::vector<Queue*> committable_;  // queues whose `committable` is set
  size_t in_flight_ = 0;
};

}  // namespace connectd::worker
