// File: topic_log.h
//
// TopicLog: what the internal-topic stores need of a topic (Connect's KafkaBasedLog as its
// stores use it): write records, read the whole topic from the beginning and then follow it,
// and know when everything written so far has been read. KafkaBasedLog is the implementation
// on Kafka; tests give an in-memory one (tests/unit/runtime/distributed/memory_topics.h) so the
// herders can be tried without a broker.
//
// Contract of every implementation:
//  - `consumed` (given when the log is opened) sees every record of every partition once, in
//    offset order per partition, on the log's thread, starting with the topic's first record.
//  - Send's `done` runs once the record is stored or has failed, on the log's thread.
//  - ReadToEnd's `done` runs once every record stored when it was called has been consumed.
//  - Public methods are thread-safe; Stop is idempotent and no callback runs after it returns.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "absl/status/status.h"

namespace connectd::storage {

struct LogRecord {
  int32_t partition = 0;
  int64_t offset = 0;
  std::optional<std::string> key;
  std::optional<std::string> value;  // nullopt: a tombstone
  int64_t timestamp_ms = -1;
};

class TopicLog {
 public:
  using Consumed = std::function<void(const LogRecord&)>;

  virtual ~TopicLog() = default;

  // Writes a record (nullopt value: a tombstone) to the partition Java's producer would choose
  // for `key`; `done` runs once acknowledged or failed.
  virtual void Send(std::optional<std::string> key, std::optional<std::string> value,
                    std::function<void(absl::Status)> done = nullptr) = 0;
  // Waits until every record sent so far is acknowledged.
  virtual absl::Status Flush(std::chrono::milliseconds timeout) = 0;

  // `done` runs (on the log thread) when everything in the topic at the time of the call has
  // been consumed, or with an error if the end offsets cannot be read.
  virtual void ReadToEnd(std::function<void(absl::Status)> done) = 0;
  // ReadToEnd, waiting up to `timeout` (kDeadlineExceeded after).
  virtual absl::Status ReadToEndSync(std::chrono::milliseconds timeout) = 0;

  virtual void Stop() = 0;
  virtual int32_t partitions() const = 0;
};

}  // namespace connectd::storage
