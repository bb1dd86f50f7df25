// File: record_batch.h
//
// Kafka's v2 record batch (magic 2) as bytes, for copying batches without decoding their
// records (issue 31's pass-through): find the batches in a partition's Fetch data, read their
// headers, and rewrite what a producer to another cluster must change — never the records.
//
// The layout (big-endian; Kafka's DefaultRecordBatch):
//    0 baseOffset INT64          12 partitionLeaderEpoch INT32   17 crc UINT32
//    8 batchLength INT32         16 magic INT8 (2)               21 attributes INT16
//   23 lastOffsetDelta INT32     27 baseTimestamp INT64          35 maxTimestamp INT64
//   43 producerId INT64          51 producerEpoch INT16          53 baseSequence INT32
//   57 recordCount INT32         61 records (compressed as a whole when attributes say so)
// batchLength counts the bytes after its own field; the CRC-32C covers attributes to the end.
// attributes: bits 0-2 compression (0 none, 1 gzip, 2 snappy, 3 lz4, 4 zstd), bit 3 timestamp
// type (1 LogAppendTime), bit 4 transactional, bit 5 control, bit 6 delete horizon.
//
// Thread-safety: pure functions; any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace connectd::kafka::protocol {

inline constexpr size_t kRecordBatchHeaderSize = 61;
inline constexpr size_t kRecordBatchLengthPrefix = 12;  // baseOffset + batchLength

struct RecordBatchHeader {
  int64_t base_offset = 0;
  int32_t batch_length = 0;
  int32_t partition_leader_epoch = 0;
  int8_t magic = 0;
  uint32_t crc = 0;
  int16_t attributes = 0;
  int32_t last_offset_delta = 0;
  int64_t base_timestamp = 0;
  int64_t max_timestamp = 0;
  int64_t producer_id = 0;
  int16_t producer_epoch = 0;
  int32_t base_sequence = 0;
  int32_t record_count = 0;

  int compression() const { return attributes & 0x07; }
  bool log_append_time() const { return (attributes & 0x08) != 0; }
  bool transactional() const { return (attributes & 0x10) != 0; }
  bool control() const { return (attributes & 0x20) != 0; }
  int64_t last_offset() const { return base_offset + last_offset_delta; }
  // The whole batch: the length prefix and batchLength bytes.
  size_t size() const { return kRecordBatchLengthPrefix + static_cast<size_t>(batch_length); }
};

// The header of the batch at the start of `bytes` (which may hold more after it). kDataLoss for
// a truncated or inconsistent header; kUnimplemented for magic 0 or 1 (the old message
// formats, which only the record path copies).
absl::StatusOr<RecordBatchHeader> ParseRecordBatchHeader(std::string_view bytes);

// Whether the CRC-32C stored in `batch` (exactly one batch) matches its bytes.
bool RecordBatchCrcMatches(std::string_view batch);

struct SplitBatches {
  std::vector<std::string_view> batches;  // whole batches, in order, views into the input
  size_t partial_bytes = 0;  // a batch cut off at the end (the broker's fetch size limit)
};

// Whether SplitRecordBatches reads every byte to check the CRCs (kVerify), or leaves them to
// whoever reads the batch next (kLeaveToTheTarget: a copier whose StampForProduce keeps a wrong
// CRC wrong, so that the target broker, which checks every produced batch, refuses it).
enum class CrcCheck { kVerify, kLeaveToTheTarget };

// The whole batches of one partition's records in a Fetch response. A batch cut off at the end
// is normal (the next fetch starts at it) and not an error. kDataLoss for a batch whose length
// (or, checked, CRC) is wrong; kUnimplemented for magic 0 or 1.
absl::StatusOr<SplitBatches> SplitRecordBatches(std::string_view records,
                                                CrcCheck check = CrcCheck::kVerify);

// Why `header`'s batch cannot be produced to another cluster as it is (nullopt: it can):
//   a control batch (a transaction marker: the target's own transaction writes those);
//   LogAppendTime (the source broker's clock; a producer may not claim it);
//   offset gaps inside (a compacted batch: fewer records than its offset span, which the
//   target broker would number without the gaps).
std::optional<std::string> PassThroughObstacle(const RecordBatchHeader& header);

// The marker of a control batch: 0 ABORT, 1 COMMIT (Kafka's ControlRecordType, the key of the
// batch's one record); nullopt for a batch that is not a control batch or whose record cannot
// be read.
std::optional<int16_t> ControlRecordType(std::string_view batch);

// read_committed over one partition's fetched batches, as Kafka's consumer applies it: the
// Fetch response lists the aborted transactions (producer id, first offset) among the data it
// returns; a transactional batch of such a producer at or after that offset is skipped up to
// the producer's ABORT marker. Control batches are never copied. Feed the batches in offset
// order, one filter per partition and fetch response.
class ReadCommittedFilter {
 public:
  struct Aborted {
    int64_t producer_id = 0;
    int64_t first_offset = 0;
  };
  explicit ReadCommittedFilter(std::vector<Aborted> aborted);
  // Whether to copy the batch.
  bool Copy(const RecordBatchHeader& header, std::string_view batch);

 private:
  std::vector<Aborted> pending_;   // by first offset, not reached yet
  std::vector<int64_t> aborting_;  // producers inside an aborted transaction
};

// What a batch must carry to be produced by `producer_id`/`producer_epoch` (-1/-1: a producer
// without idempotence) at `base_sequence`.
struct ProducerStamp {
  int64_t producer_id = -1;
  int16_t producer_epoch = -1;
  int32_t base_sequence = -1;
  bool transactional = false;
};

// Rewrites `batch` (exactly one batch, in place) as a producer sends it: baseOffset 0,
// partitionLeaderEpoch -1, `stamp`'s producer fields and transactional flag. The CRC-32C is
// updated for the changed bytes only (the records are not read): it matches afterwards exactly
// when it matched before. Compression, timestamps, keys, values and headers are untouched.
// REQUIRES: `batch` parsed by ParseRecordBatchHeader.
void StampForProduce(std::span<char> batch, const ProducerStamp& stamp);

}  // namespace connectd::kafka::protocol
