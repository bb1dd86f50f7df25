// File: record_batch_builder.h
//
// v2 record batches (magic 2, uncompressed) written and read back for tests of the pass-through
// path, without a Kafka client: what a producer would send (BuildRecordBatch) and what a batch
// holds (ReadRecords). The layout is record_batch.h's; records are Kafka's DefaultRecord
// (varint length, attributes, timestamp and offset deltas, key, value, no headers).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace connectd::testing {

struct TestRecord {
  std::optional<std::string> key;
  std::optional<std::string> value;
  int64_t timestamp_ms = 0;
  int64_t offset = -1;  // read back: the record's offset; written: its delta is offset - base
                        // (a compacted batch's gaps), -1: its index in the batch
  bool operator==(const TestRecord&) const = default;
};

struct TestBatchOptions {
  int64_t base_offset = 0;
  int64_t producer_id = -1;
  int16_t producer_epoch = -1;
  int32_t base_sequence = -1;
  bool transactional = false;
  bool log_append_time = false;
  // A control batch (a transaction marker): one record whose key is (version 0, this type:
  // 0 ABORT, 1 COMMIT).
  std::optional<int16_t> control_type;
  // The batch's last offset delta when larger than its last record's (compaction removed the
  // records after it).
  std::optional<int32_t> last_offset_delta;
};

std::string BuildRecordBatch(const std::vector<TestRecord>& records,
                             const TestBatchOptions& options = {});

// `count` records "k<first+i>"/"v<first+i>" of `value_bytes` bytes each (at least the name).
std::vector<TestRecord> NumberedRecords(int first, int count, size_t value_bytes = 0);

// The records of the batches in `bytes` (whole uncompressed batches, one after another), with
// their offsets; an empty vector for bytes that do not read as such.
std::vector<TestRecord> ReadRecords(std::string_view bytes);

}  // namespace connectd::testing
