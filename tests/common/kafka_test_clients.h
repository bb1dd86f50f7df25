// File: kafka_test_clients.h
//
// Small librdkafka helpers that tests use to put data in and read it back: create a topic,
// produce records and wait for every acknowledgement, consume a number of records.
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"

namespace connectd::testing {

struct TestRecord {
  std::string key;
  std::string value;
  std::vector<std::pair<std::string, std::string>> headers;
  int32_t partition = -1;    // -1: the partitioner chooses
  int64_t timestamp_ms = 0;  // 0: the producer's clock
  int64_t offset = -1;       // filled in by ConsumeRecords
  bool operator==(const TestRecord&) const = default;
};

// Creates `topic` through the Admin API and waits for the result.
absl::Status CreateTopic(const std::string& bootstrap, const std::string& topic, int partitions,
                         const std::map<std::string, std::string>& configs = {});
// Deletes `topic` through the Admin API and waits for the result.
absl::Status DeleteTopic(const std::string& bootstrap, const std::string& topic);

// Produces every record (acks=all, idempotent) and returns once all are acknowledged.
absl::Status ProduceRecords(const std::string& bootstrap, const std::string& topic,
                            const std::vector<TestRecord>& records);

// Consumes `count` records from the start of `topic` in consumer group `group`, committing the
// consumed offsets synchronously at the end. Fails if fewer arrive within `timeout`.
absl::StatusOr<std::vector<TestRecord>> ConsumeRecords(
    const std::string& bootstrap, const std::string& topic, const std::string& group, size_t count,
    std::chrono::milliseconds timeout = std::chrono::seconds(30));

// Reads `count` records from the beginning of every partition of `topic` without a consumer
// group (assign, no commits): nothing to join, so nothing to wait for but the data.
absl::StatusOr<std::vector<TestRecord>> ReadTopic(
    const std::string& bootstrap, const std::string& topic, size_t count,
    std::chrono::milliseconds timeout = std::chrono::seconds(30));

// The committed offset of `group` for topic-partition, or -1001 (RD_KAFKA_OFFSET_INVALID).
absl::StatusOr<int64_t> CommittedOffset(const std::string& bootstrap, const std::string& group,
                                        const std::string& topic, int32_t partition);

}  // namespace connectd::testing
