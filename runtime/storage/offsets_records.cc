#include "runtime/storage/offsets_records.h"

#include <utility>

#include "runtime/storage/status_state.h"

namespace connectd::storage {

int32_t OffsetsTopicPartition(std::string_view key, int32_t partition_count) {
  return PartitionForKey(key, partition_count);
}

absl::StatusOr<OffsetsTopicRecord> MakeOffsetsTopicRecord(
    std::string_view connector, std::string_view partition_json,
    std::optional<std::string_view> offset_json, int32_t partition_count,
    jvm::JavaDoubleStyle double_style) {
  auto key = storage::SerializeOffsetKey(connector, partition_json, double_style);
  if (!key.ok()) return key.status();
  auto value = storage::SerializeOffsetValue(offset_json, double_style);
  if (!value.ok()) return value.status();
  OffsetsTopicRecord record;
  record.partition = OffsetsTopicPartition(*key, partition_count);
  record.key = std::move(*key);
  record.value = std::move(*value);
  return record;
}

std::optional<storage::OffsetKey> ParseOffsetsTopicKey(std::optional<std::string_view> key) {
  if (!key.has_value()) return std::nullopt;
  auto parsed = storage::ParseOffsetKey(*key);
  if (!parsed.ok()) return std::nullopt;
  return std::move(*parsed);
}

}  // namespace connectd::storage
