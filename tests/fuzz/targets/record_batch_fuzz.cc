// libFuzzer target: a partition's records of a Fetch response as the batch layer reads them
// (runtime/kafka/protocol/record_batch.h), the bytes pass-through replication copies.
// Input: the records bytes.
// Properties: the batches are consecutive slices of the input, their sizes and the cut-off tail
// add up to it, every batch's header parses and its CRC matches; a batch stamped for a producer
// keeps its size, records and header fields other than the stamp, and its CRC matches again.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "runtime/kafka/protocol/crc32c.h"
#include "runtime/kafka/protocol/record_batch.h"
#include "tests/fuzz/targets/fuzz_check.h"

namespace kp = connectd::kafka::protocol;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<kp::SplitBatches> split = kp::SplitRecordBatches(input);
  if (!split.ok()) return 0;
  size_t total = split->partial_bytes;
  const char* next = input.data();
  kp::ReadCommittedFilter filter({{42, 0}, {7, 100}});
  for (std::string_view batch : split->batches) {
    FUZZ_CHECK(batch.data() == next);
    next += batch.size();
    total += batch.size();
    absl::StatusOr<kp::RecordBatchHeader> header = kp::ParseRecordBatchHeader(batch);
    FUZZ_CHECK(header.ok() && header->size() == batch.size());
    FUZZ_CHECK(kp::RecordBatchCrcMatches(batch));
    (void)kp::PassThroughObstacle(*header);
    std::optional<int16_t> marker = kp::ControlRecordType(batch);
    FUZZ_CHECK(!marker || header->control());
    const bool copied = filter.Copy(*header, batch);
    FUZZ_CHECK(!copied || !header->control());
    std::string stamped(batch);
    const kp::ProducerStamp stamp{4242, 7, 99, (header->attributes & 1) != 0};
    kp::StampForProduce(stamped, stamp);
    FUZZ_CHECK(stamped.size() == batch.size());
    FUZZ_CHECK(kp::RecordBatchCrcMatches(stamped));
    FUZZ_CHECK(std::string_view(stamped).substr(kp::kRecordBatchHeaderSize) ==
               batch.substr(kp::kRecordBatchHeaderSize));
    absl::StatusOr<kp::RecordBatchHeader> again = kp::ParseRecordBatchHeader(stamped);
    FUZZ_CHECK(again.ok() && again->producer_id == 4242 && again->producer_epoch == 7 &&
               again->base_sequence == 99 && again->transactional() == stamp.transactional &&
               again->base_offset == 0 && again->partition_leader_epoch == -1 &&
               again->record_count == header->record_count &&
               again->max_timestamp == header->max_timestamp &&
               again->compression() == header->compression() &&
               again->control() == header->control());
  }
  FUZZ_CHECK(total == input.size());
  return 0;
}
