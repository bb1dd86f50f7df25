// File: offsets_records.h
//
// What distributed mode adds on top of runtime/storage/offset_codec.h for the offsets topic
// (`offset.storage.topic`): the partition a record goes to, and the key filter Connect applies
// when it tracks a connector's partitions. Keys and values themselves are the codec's
// (["<connector>",{partition}] / {offset}), byte-identical to Java's.
//
// Facts (Kafka 4.4.0): KafkaOffsetBackingStore produces with ByteArraySerializer keys and Java's
// default partitioner, so a record lands on toPositive(murmur2(key bytes)) % partitions
// (golden: tests/golden/status_topic/partitions.tsv). OffsetUtils.processPartitionKey ignores a
// null key and keys that are not a two-element [String, Map] list.
//
// Not modelled: the codec accepts flat partition maps only and strict JSON, while Java also
// tracks partitions whose map holds nested values or whose key text Jackson alone accepts
// (leading zeros, trailing bytes); such keys are ignored here.
//
// Thread safety: pure functions, any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "jvm/java_text.h"
#include "runtime/storage/offset_codec.h"

namespace connectd::storage {

// OffsetsTopicPartition returns the partition of the offsets record with key bytes `key` on a
// topic of `partition_count` partitions. REQUIRES: partition_count > 0.
int32_t OffsetsTopicPartition(std::string_view key, int32_t partition_count);

// One record for the offsets topic.
struct OffsetsTopicRecord {
  std::string key;
  std::optional<std::string> value;  // nullopt: tombstone (offset removed)
  int32_t partition = 0;
};

// MakeOffsetsTopicRecord serializes `connector`'s `partition_json` -> `offset_json` (nullopt:
// tombstone) with the offset codec and places it on one of `partition_count` partitions.
// kInvalidArgument for maps the codec rejects. REQUIRES: partition_count > 0.
absl::StatusOr<OffsetsTopicRecord> MakeOffsetsTopicRecord(
    std::string_view connector, std::string_view partition_json,
    std::optional<std::string_view> offset_json, int32_t partition_count,
    jvm::JavaDoubleStyle double_style = jvm::JavaDoubleStyle::kJdk17);

// ParseOffsetsTopicKey returns the connector and partition of a consumed key, or nullopt for a
// key Connect ignores when tracking partitions (null, or not ["<connector>",{...}]).
std::optional<storage::OffsetKey> ParseOffsetsTopicKey(std::optional<std::string_view> key);

}  // namespace connectd::storage
