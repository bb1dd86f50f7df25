#include "runtime/kafka/protocol/record_batch.h"

#include <algorithm>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "runtime/kafka/protocol/crc32c.h"

namespace connectd::kafka::protocol {
namespace {

constexpr size_t kMagicOffset = 16;
constexpr size_t kCrcOffset = 17;
constexpr size_t kAttributesOffset = 21;
constexpr size_t kProducerIdOffset = 43;

uint64_t ReadBig(std::string_view bytes, size_t at, int width) {
  uint64_t v = 0;
  for (int i = 0; i < width; ++i) v = (v << 8) | static_cast<unsigned char>(bytes[at + i]);
  return v;
}

void WriteBig(std::span<char> bytes, size_t at, uint64_t v, int width) {
  for (int i = width - 1; i >= 0; --i, v >>= 8) bytes[at + i] = static_cast<char>(v & 0xFF);
}

// The fields a producer's stamp rewrites inside the CRC's range: attributes .. baseSequence.
constexpr size_t kStampedEnd = 57;

}  // namespace

absl::StatusOr<RecordBatchHeader> ParseRecordBatchHeader(std::string_view bytes) {
  if (bytes.size() < kMagicOffset + 1) {
    return absl::DataLossError(absl::StrCat("a record batch of ", bytes.size(), " bytes"));
  }
  RecordBatchHeader h;
  h.base_offset = static_cast<int64_t>(ReadBig(bytes, 0, 8));
  h.batch_length = static_cast<int32_t>(ReadBig(bytes, 8, 4));
  h.partition_leader_epoch = static_cast<int32_t>(ReadBig(bytes, 12, 4));
  h.magic = static_cast<int8_t>(bytes[kMagicOffset]);
  if (h.magic != 2) {
    if (h.magic == 0 || h.magic == 1) {
      return absl::UnimplementedError(absl::StrCat("message format v", h.magic, " at offset ",
                                                   h.base_offset,
                                                   ": only v2 record batches are copied as bytes"));
    }
    return absl::DataLossError(absl::StrCat("record batch magic ", h.magic));
  }
  if (bytes.size() < kRecordBatchHeaderSize ||
      h.batch_length < static_cast<int32_t>(kRecordBatchHeaderSize - kRecordBatchLengthPrefix)) {
    return absl::DataLossError(absl::StrCat("a record batch header of ", bytes.size(),
                                            " bytes, batch length ", h.batch_length));
  }
  h.crc = static_cast<uint32_t>(ReadBig(bytes, kCrcOffset, 4));
  h.attributes = static_cast<int16_t>(ReadBig(bytes, kAttributesOffset, 2));
  h.last_offset_delta = static_cast<int32_t>(ReadBig(bytes, 23, 4));
  h.base_timestamp = static_cast<int64_t>(ReadBig(bytes, 27, 8));
  h.max_timestamp = static_cast<int64_t>(ReadBig(bytes, 35, 8));
  h.producer_id = static_cast<int64_t>(ReadBig(bytes, kProducerIdOffset, 8));
  h.producer_epoch = static_cast<int16_t>(ReadBig(bytes, 51, 2));
  h.base_sequence = static_cast<int32_t>(ReadBig(bytes, 53, 4));
  h.record_count = static_cast<int32_t>(ReadBig(bytes, 57, 4));
  if (h.record_count < 0 || h.last_offset_delta < 0) {
    return absl::DataLossError(absl::StrCat("record batch at offset ", h.base_offset, " with ",
                                            h.record_count, " records, last offset delta ",
                                            h.last_offset_delta));
  }
  return h;
}

bool RecordBatchCrcMatches(std::string_view batch) {
  if (batch.size() < kRecordBatchHeaderSize) return false;
  const uint32_t stored = static_cast<uint32_t>(ReadBig(batch, kCrcOffset, 4));
  return Crc32c(batch.substr(kAttributesOffset)) == stored;
}

absl::StatusOr<SplitBatches> SplitRecordBatches(std::string_view records, CrcCheck check) {
  SplitBatches out;
  while (!records.empty()) {
    if (records.size() < kRecordBatchHeaderSize) {
      out.partial_bytes = records.size();
      break;
    }
    absl::StatusOr<RecordBatchHeader> header = ParseRecordBatchHeader(records);
    if (!header.ok()) return header.status();
    if (header->size() > records.size()) {
      out.partial_bytes = records.size();
      break;
    }
    std::string_view batch = records.substr(0, header->size());
    if (check == CrcCheck::kVerify && !RecordBatchCrcMatches(batch)) {
      return absl::DataLossError(
          absl::StrCat("record batch at offset ", header->base_offset, " fails its CRC"));
    }
    out.batches.push_back(batch);
    records.remove_prefix(batch.size());
  }
  return out;
}

std::optional<std::string> PassThroughObstacle(const RecordBatchHeader& h) {
  if (h.control()) return "a control batch (transaction marker)";
  if (h.log_append_time()) return "LogAppendTime timestamps";
  if (h.record_count != h.last_offset_delta + 1) {
    return absl::StrCat("offset gaps inside (", h.record_count, " records over ",
                        h.last_offset_delta + 1, " offsets)");
  }
  return std::nullopt;
}

std::optional<int16_t> ControlRecordType(std::string_view batch) {
  absl::StatusOr<RecordBatchHeader> header = ParseRecordBatchHeader(batch);
  if (!header.ok() || !header->control() || header->record_count < 1 ||
      header->compression() != 0) {
    return std::nullopt;
  }
  // The record: length, attributes (INT8), timestamp delta, offset delta, key length (zigzag
  // varints), then the key: version (INT16), type (INT16).
  std::string_view r = batch.substr(kRecordBatchHeaderSize);
  auto varint = [&r]() -> std::optional<int64_t> {
    uint64_t v = 0;
    for (int shift = 0; shift < 64 && !r.empty(); shift += 7) {
      const auto byte = static_cast<unsigned char>(r.front());
      r.remove_prefix(1);
      v |= static_cast<uint64_t>(byte & 0x7F) << shift;
      if ((byte & 0x80) == 0) return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
    }
    return std::nullopt;
  };
  if (!varint() || r.empty()) return std::nullopt;  // length
  r.remove_prefix(1);                               // attributes
  if (!varint() || !varint()) return std::nullopt;  // timestamp and offset deltas
  std::optional<int64_t> key_length = varint();
  if (!key_length || *key_length < 4 || r.size() < 4) return std::nullopt;
  return static_cast<int16_t>(ReadBig(r, 2, 2));
}

ReadCommittedFilter::ReadCommittedFilter(std::vector<Aborted> aborted)
    : pending_(std::move(aborted)) {
  std::sort(pending_.begin(), pending_.end(), [](const Aborted& a, const Aborted& b) {
    return a.first_offset > b.first_offset;  // the next to reach at the back
  });
}

bool ReadCommittedFilter::Copy(const RecordBatchHeader& header, std::string_view batch) {
  while (!pending_.empty() && pending_.back().first_offset <= header.last_offset()) {
    aborting_.push_back(pending_.back().producer_id);
    pending_.pop_back();
  }
  auto aborting = std::find(aborting_.begin(), aborting_.end(), header.producer_id);
  if (header.control()) {
    if (aborting != aborting_.end() && ControlRecordType(batch) == 0) aborting_.erase(aborting);
    return false;
  }
  return !(header.transactional() && aborting != aborting_.end());
}

void StampForProduce(std::span<char> batch, const ProducerStamp& stamp) {
  const std::string_view bytes(batch.data(), batch.size());
  char before[kStampedEnd - kAttributesOffset];
  std::memcpy(before, batch.data() + kAttributesOffset, sizeof before);
  WriteBig(batch, 0, 0, 8);                           // baseOffset: the broker's
  WriteBig(batch, 12, static_cast<uint32_t>(-1), 4);  // partitionLeaderEpoch
  uint16_t attributes = static_cast<uint16_t>(ReadBig(bytes, kAttributesOffset, 2));
  attributes = stamp.transactional ? (attributes | 0x10) : (attributes & ~0x10);
  WriteBig(batch, kAttributesOffset, attributes, 2);
  WriteBig(batch, kProducerIdOffset, static_cast<uint64_t>(stamp.producer_id), 8);
  WriteBig(batch, 51, static_cast<uint16_t>(stamp.producer_epoch), 2);
  WriteBig(batch, 53, static_cast<uint32_t>(stamp.base_sequence), 4);
  for (size_t i = 0; i < sizeof before; ++i) before[i] ^= batch[kAttributesOffset + i];
  const auto crc = static_cast<uint32_t>(ReadBig(bytes, kCrcOffset, 4));
  WriteBig(batch, kCrcOffset,
           Crc32cAfterChange(crc, batch.size() - kAttributesOffset, 0,
                             std::string_view(before, sizeof before)),
           4);
}

}  // namespace connectd::kafka::protocol
