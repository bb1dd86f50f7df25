#include "tests/common/record_batch_builder.h"

#include "runtime/kafka/protocol/crc32c.h"
#include "runtime/kafka/protocol/record_batch.h"
#include "runtime/kafka/protocol/wire.h"

namespace connectd::testing {

namespace kp = kafka::protocol;

namespace {

void Varlong(std::string& out, int64_t v) {
  uint64_t z = (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
  while (z >= 0x80) {
    out.push_back(static_cast<char>((z & 0x7f) | 0x80));
    z >>= 7;
  }
  out.push_back(static_cast<char>(z));
}

void VarBytes(std::string& out, const std::optional<std::string>& bytes) {
  if (!bytes) return Varlong(out, -1);
  Varlong(out, static_cast<int64_t>(bytes->size()));
  out += *bytes;
}

bool ReadVarlong(std::string_view& in, int64_t& v) {
  uint64_t z = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (in.empty()) return false;
    const auto byte = static_cast<uint8_t>(in.front());
    in.remove_prefix(1);
    z |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      v = static_cast<int64_t>(z >> 1) ^ -static_cast<int64_t>(z & 1);
      return true;
    }
  }
  return false;
}

bool ReadVarBytes(std::string_view& in, std::optional<std::string>& out) {
  int64_t size = 0;
  if (!ReadVarlong(in, size)) return false;
  if (size < 0) {
    out.reset();
    return true;
  }
  if (static_cast<size_t>(size) > in.size()) return false;
  out = std::string(in.substr(0, static_cast<size_t>(size)));
  in.remove_prefix(static_cast<size_t>(size));
  return true;
}

}  // namespace

std::string BuildRecordBatch(const std::vector<TestRecord>& input,
                             const TestBatchOptions& options) {
  std::vector<TestRecord> records = input;
  if (options.control_type) {
    kp::WireWriter key;
    key.Int16(0).Int16(*options.control_type);
    records = {
        {key.Take(), std::string("\0\0\0\0\0\0", 6), input.empty() ? 0 : input[0].timestamp_ms}};
  }
  const int64_t base_timestamp = records.empty() ? 0 : records.front().timestamp_ms;
  int64_t max_timestamp = base_timestamp;
  int32_t last_delta = 0;
  std::string body;
  for (size_t i = 0; i < records.size(); ++i) {
    const TestRecord& r = records[i];
    const int64_t delta = r.offset >= 0 ? r.offset - options.base_offset : static_cast<int64_t>(i);
    last_delta = static_cast<int32_t>(delta);
    max_timestamp = std::max(max_timestamp, r.timestamp_ms);
    std::string record;
    record.push_back(0);  // attributes
    Varlong(record, r.timestamp_ms - base_timestamp);
    Varlong(record, delta);
    VarBytes(record, r.key);
    VarBytes(record, r.value);
    Varlong(record, 0);  // headers
    Varlong(body, static_cast<int64_t>(record.size()));
    body += record;
  }
  if (options.last_offset_delta) last_delta = *options.last_offset_delta;
  int16_t attributes = 0;
  if (options.log_append_time) attributes |= 0x08;
  if (options.transactional) attributes |= 0x10;
  if (options.control_type) attributes |= 0x20;
  kp::WireWriter after_crc;
  after_crc.Int16(attributes)
      .Int32(last_delta)
      .Int64(base_timestamp)
      .Int64(max_timestamp)
      .Int64(options.producer_id)
      .Int16(options.producer_epoch)
      .Int32(options.base_sequence)
      .Int32(static_cast<int32_t>(records.size()))
      .Raw(body);
  const std::string tail = after_crc.Take();
  kp::WireWriter batch;
  batch.Int64(options.base_offset)
      .Int32(static_cast<int32_t>(4 + 1 + 4 + tail.size()))
      .Int32(0)
      .Int8(2)
      .Int32(static_cast<int32_t>(kp::Crc32c(tail)))
      .Raw(tail);
  return batch.Take();
}

std::vector<TestRecord> NumberedRecords(int first, int count, size_t value_bytes) {
  std::vector<TestRecord> records;
  for (int i = first; i < first + count; ++i) {
    std::string value = "v" + std::to_string(i);
    if (value.size() < value_bytes) value.resize(value_bytes, '.');
    records.push_back({"k" + std::to_string(i), std::move(value), 1'700'000'000'000 + i});
  }
  return records;
}

std::vector<TestRecord> ReadRecords(std::string_view bytes) {
  std::vector<TestRecord> out;
  while (!bytes.empty()) {
    absl::StatusOr<kp::RecordBatchHeader> h = kp::ParseRecordBatchHeader(bytes);
    if (!h.ok() || h->size() > bytes.size() || h->compression() != 0) return {};
    std::string_view records =
        bytes.substr(kp::kRecordBatchHeaderSize, h->size() - kp::kRecordBatchHeaderSize);
    for (int32_t i = 0; i < h->record_count; ++i) {
      int64_t length = 0;
      int64_t timestamp_delta = 0;
      int64_t offset_delta = 0;
      if (!ReadVarlong(records, length) || records.size() < 1) return {};
      records.remove_prefix(1);  // attributes
      TestRecord r;
      if (!ReadVarlong(records, timestamp_delta) || !ReadVarlong(records, offset_delta) ||
          !ReadVarBytes(records, r.key) || !ReadVarBytes(records, r.value)) {
        return {};
      }
      int64_t headers = 0;
      if (!ReadVarlong(records, headers) || headers != 0) return {};
      r.timestamp_ms = h->base_timestamp + timestamp_delta;
      r.offset = h->base_offset + offset_delta;
      if (!h->control()) out.push_back(std::move(r));
    }
    bytes.remove_prefix(h->size());
  }
  return out;
}

}  // namespace connectd::testing
