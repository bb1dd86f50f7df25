// File: kafka_offset_backing_store.h
//
// KafkaOffsetBackingStore: source connectors' offsets in `offset.storage.topic`, as Connect's
// KafkaOffsetBackingStore keeps them: keys ["<connector>",{partition}] and JSON values (bytes
// from runtime/storage/offset_codec.h, identical to Java's), tombstones for removed offsets,
// partitioned with Java's murmur2 so a Java worker and connectd agree on where a key lives.
//
// Start reads the whole topic into an in-memory copy; Get first reads the topic to its end
// (so it sees what other workers wrote), then answers from the copy; Set writes the records and
// calls back once the broker acknowledged all of them. A Set's values are visible to Get at
// once (the copy is updated when Set is called and again when the records are read back).
//
// Threads: any; the Set callback runs on the log's thread.
#pragma once

#include <chrono>
#include <memory>

#include "runtime/storage/kafka_based_log.h"
#include "runtime/storage/memory_offset_backing_store.h"
#include "runtime/storage/offset_backing_store.h"

namespace connectd::storage {

class KafkaOffsetBackingStore final : public storage::OffsetBackingStore {
 public:
  // `log_options` names the topic and its clients (partitions: offset.storage.partitions);
  // `open_log` null: the topic on Kafka (see TopicLogOpener).
  explicit KafkaOffsetBackingStore(
      KafkaBasedLog::Options log_options,
      std::chrono::milliseconds read_timeout = std::chrono::seconds(30),
      TopicLogOpener open_log = nullptr);
  ~KafkaOffsetBackingStore() override;

  // Exactly-once tasks (KIP-618): every FindOffset first reads the topic to its end, as Java's
  // offset reader does, so a task taking over sees the offsets its predecessor committed a
  // moment ago. Before Start().
  void SetReadToEndOnLookup(bool enabled) { read_to_end_on_lookup_ = enabled; }

  [[nodiscard]] absl::Status Start() override;
  void Stop() override;
  [[nodiscard]] absl::StatusOr<std::map<std::string, std::string>> Get(
      const std::vector<std::string>& keys) override;
  void Set(storage::OffsetWrites values, SetCallback callback) override;
  std::vector<std::string> ConnectorPartitions(std::string_view connector) override;
  [[nodiscard]] absl::StatusOr<std::optional<std::string>> FindOffset(
      std::string_view connector, std::string_view partition_json) override;

 private:
  const KafkaBasedLog::Options log_options_;
  const std::chrono::milliseconds read_timeout_;
  const TopicLogOpener open_log_;
  storage::MemoryOffsetBackingStore memory_;
  std::unique_ptr<TopicLog> log_;
  bool read_to_end_on_lookup_ = false;
};

}  // namespace connectd::storage
