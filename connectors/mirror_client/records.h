// File: records.h
//
// Byte-exact codecs for MirrorMaker 2's records and Connect source partitions, as the Kafka 4.x
// Java classes write them (checked against tests/golden/mirror/records*.tsv and
// offsets_json.tsv, which the Java classes produced):
//
//   Heartbeat    topic "heartbeats"            key: source alias, target alias
//                                              value: version 0 (INT16), timestamp (INT64)
//   Checkpoint   "<src>.checkpoints.internal"  key: group, topic (downstream name), partition
//                                              value: version 0, upstream offset, downstream
//                                              offset, commit metadata
//   OffsetSync   "mm2-offset-syncs.<a>.internal"  key: topic (upstream name), partition
//                                              value: upstream offset, downstream offset
//
// Kafka protocol types: INT16/32/64 big-endian; STRING = INT16 byte length (0..32767) + UTF-8
// bytes. Fields are concatenated in order, without tags. Only Heartbeat and Checkpoint values
// start with the INT16 version header.
//
// Decoders take bytes written by other clusters: they never read out of bounds, accept any
// version number as version 0 and ignore trailing bytes (as Java, whose `assert version == 0` is
// disabled in production), and return std::nullopt for anything Java would throw on (truncation,
// negative or overlong string lengths). Strings are returned as the raw bytes; Java would turn
// malformed UTF-8 into U+FFFD.
//
// Encoders return the exact bytes; a string longer than 32767 bytes cannot be encoded (Java throws
// SchemaException), and then the encoder returns an empty string, which no valid encoding is.
//
// Thread safety: all functions are pure.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace connectd::mirror {

// The longest STRING the Kafka protocol types can carry, in bytes.
inline constexpr size_t kMaxRecordStringBytes = 32767;

// Heartbeat is org.apache.kafka.connect.mirror.Heartbeat.
struct Heartbeat {
  std::string source_cluster_alias;
  std::string target_cluster_alias;
  int64_t timestamp_ms = 0;  // epoch millis when emitted (also the record's timestamp)

  bool operator==(const Heartbeat&) const = default;
};
std::string EncodeHeartbeatKey(const Heartbeat& heartbeat);
std::string EncodeHeartbeatValue(const Heartbeat& heartbeat);
std::optional<Heartbeat> DecodeHeartbeat(std::string_view key, std::string_view value);

// Checkpoint is org.apache.kafka.connect.mirror.Checkpoint: a consumer group's offset on the
// source translated for the target. `topic` is the downstream (renamed) topic.
struct Checkpoint {
  std::string group;
  std::string topic;
  int32_t partition = 0;
  int64_t upstream_offset = 0;
  int64_t downstream_offset = 0;
  std::string metadata;  // the group's upstream commit metadata ("" when none)

  bool operator==(const Checkpoint&) const = default;
};
std::string EncodeCheckpointKey(const Checkpoint& checkpoint);
std::string EncodeCheckpointValue(const Checkpoint& checkpoint);
std::optional<Checkpoint> DecodeCheckpoint(std::string_view key, std::string_view value);

// OffsetSync is org.apache.kafka.connect.mirror.OffsetSync: record `upstream_offset` of the
// upstream `topic`/`partition` was written at `downstream_offset` on the target.
struct OffsetSync {
  std::string topic;
  int32_t partition = 0;
  int64_t upstream_offset = 0;
  int64_t downstream_offset = 0;

  bool operator==(const OffsetSync&) const = default;
};
std::string EncodeOffsetSyncKey(const OffsetSync& sync);
std::string EncodeOffsetSyncValue(const OffsetSync& sync);
std::optional<OffsetSync> DecodeOffsetSync(std::string_view key, std::string_view value);

// OffsetRunRecord is connectd's own (no Java class reads it): one run of the exact offset
// index (connectors/mirror/offset_index.h) as a record of a compacted topic, keyed by the run's
// start so that a run that grows overwrites its record. Key: topic (STRING), partition (INT32),
// upstream_offset (INT64); value: version (INT16, 0), downstream_offset, count (INT64).
struct OffsetRunRecord {
  std::string topic;
  int32_t partition = 0;
  int64_t upstream_offset = 0;    // the run's first
  int64_t downstream_offset = 0;  // where that one was written
  int64_t count = 0;              // consecutive on both sides

  bool operator==(const OffsetRunRecord&) const = default;
};
std::string EncodeOffsetRunKey(const OffsetRunRecord& run);
std::string EncodeOffsetRunValue(const OffsetRunRecord& run);
// nullopt for bytes that are not a run of a known version, or a run that is empty or negative.
std::optional<OffsetRunRecord> DecodeOffsetRun(std::string_view key, std::string_view value);

// ---- Connect source partitions and offsets -------------------------------------------------
//
// The worker stores a source offset under the key JsonConverter([connector name, partition])
// and looks it up by exact key bytes, so the partition JSON must be exactly what Java writes:
// MM2 builds java.util.HashMaps, which Jackson writes compactly in HashMap iteration order. That
// order depends only on the key names, so it is fixed per map shape:
//
//   MirrorSourceConnector      {"cluster":<source alias>,"partition":<int>,"topic":<topic>}
//   MirrorCheckpointConnector  {"partition":<int>,"topic":<downstream topic>,"group":<group>}
//   MirrorHeartbeatConnector   {"sourceClusterAlias":<alias>,"targetClusterAlias":<alias>}
//
// and every offset is {"offset":<int64>} (0 for checkpoints and heartbeats; connectd's
// MirrorSourceTask adds "topic_id", see below).

std::string SourcePartitionJson(const std::string& cluster, const std::string& topic,
                                int32_t partition);
std::string SourceOffsetJson(int64_t offset);  // {"offset":N}
std::string CheckpointPartitionJson(const std::string& group, const std::string& topic,
                                    int32_t partition);
std::string HeartbeatPartitionJson(const std::string& source_alias,
                                   const std::string& target_alias);

// ParseSourceOffset returns N from a stored source offset {"offset":N}, reading it as the Java
// worker's JsonConverter does: whitespace and key order are free, other members are skipped, a
// repeated "offset" takes the last value, a leading UTF-8 BOM, leading zeros and content after
// the object are ignored, and an integer outside int64 wraps modulo 2^64 (BigInteger.longValue).
// Returns nullopt when there is no usable offset: malformed JSON, not an object, no "offset",
// null, or a non-integer value (Java's MirrorSourceTask would fail on a double or string; the
// caller should treat nullopt like Java's "no offset": start from auto.offset.reset).
std::optional<int64_t> ParseSourceOffset(std::string_view json);

// The same, and `*topic_id` gets the source topic's ID that connectd's MirrorSourceTask writes
// next to the offset ({"offset":N,"topic_id":"<base64 UUID>"}, which Java reads as {"offset":N}):
// the topic the offset belongs to. Empty when absent (an offset Java or an operator wrote) or
// when there is no usable offset.
std::optional<int64_t> ParseSourceOffset(std::string_view json, std::string* topic_id);

// JsonString returns `s` as a quoted JSON string escaped exactly as Jackson's UTF8JsonGenerator
// (Kafka's JsonConverter) escapes it: '"' and '\\'; \b \t \n \f \r; other controls below 0x20 as
// \u00XX (upper-case hex); each UTF-16 surrogate of a character above U+FFFF as its own \uXXXX
// escape (e.g. U+1F600 -> "\uD83D\uDE00"); everything else, 0x7F, '/' and U+2028 included, as raw
// UTF-8. Malformed UTF-8 becomes U+FFFD, as Java's decoder would have made it.
std::string JsonString(std::string_view s);

}  // namespace connectd::mirror
