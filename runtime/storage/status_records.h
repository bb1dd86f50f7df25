// File: status_records.h
//
// The records of the status topic (`status.storage.topic`) byte for byte as Kafka 4.4.0's
// KafkaStatusBackingStore writes them, and their decoding with exactly what that store accepts
// when it reads them through the internal schemaless JsonConverter.
//
//   key                                   value (compact Jackson JSON; DESTROYED = tombstone)
//   status-connector-{c}                  {"state":"RUNNING","trace":null,"worker_id":"w:8083",
//   status-task-{c}-{n}                     "generation":7,"version":null}
//   status-topic-{topic}:connector-{c}    {"topic":{"name":"t","connector":"c","task":0,
//                                            "discoverTimestamp":1700000000000}}
//
// Kafka 4.4's status value has a fifth field the older reference lacks: "version" (the plugin
// version of the connector or task, an optional string, written as null when unknown).
// Golden vectors: tests/golden/status_topic (GenerateStatusTopicGolden.java).
//
// Decoding (what Java's read path accepts, checked against the real store in
// status_cache_scenarios.txt):
//  - JSON as Jackson 2.21 reads it for JsonConverter (connect_json.h), exactly as the config topic
//    reads it: leading zeros allowed in numbers, a UTF-8 BOM skipped, anything after the root
//    value ignored, a duplicate object key replaced by the later one, nesting up to 1000 levels,
//    numbers up to 1000 long; no comments, NaN, single quotes, trailing commas, "+1", ".5" or
//    "1."; a lone surrogate comes back as its own 3-byte sequence, as in
//    jvm/java_text.h; raw UTF-8 that encodes a surrogate is an error, and raw UTF-8
//    past U+10FFFF is kept as Jackson's two out-of-range UTF-16 units.
//  - value: an object with "state" a string naming an AbstractStatus.State (DESTROYED included);
//    "trace", "worker_id", "version" absent, null or strings; "generation" an integer of any width
//    within that limit (Java keeps its low 32 bits: Long.intValue of the low 64). Other fields
//    are ignored.
//  - topic value: an object whose "topic" is an object with string "name" and "connector",
//    integer "task" (low 32 bits) and "discoverTimestamp" (low 64 bits).
//  - keys: see ParseStatusKey.
// Not modelled: Jackson's UTF-16/32 input detection and its string length limit (20M); Unicode
// digits other than 0-9 in task numbers (Integer.parseInt accepts them); keys that are not valid
// UTF-8 are rejected (Java would decode them with U+FFFD replacement).
//
// Thread safety: all functions are pure and may be called from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "runtime/herder_api/herder_types.h"
#include "runtime/herder_api/task_status.h"

namespace connectd::storage {

inline constexpr std::string_view kConnectorStatusPrefix = "status-connector-";
inline constexpr std::string_view kTaskStatusPrefix = "status-task-";
inline constexpr std::string_view kTopicStatusPrefix = "status-topic-";
inline constexpr std::string_view kTopicStatusSeparator = ":connector-";

// A connector or task status as the topic carries it (Connect's AbstractStatus).
struct StatusValue {
  worker::State state = worker::State::kUnassigned;
  std::optional<std::string> trace;      // the stack trace of a FAILED instance
  std::optional<std::string> worker_id;  // "host:port"; required to write, may be missing when read
  int32_t generation = 0;                // the writer's group generation
  std::optional<std::string> version;    // the plugin version, when known
  bool operator==(const StatusValue&) const = default;
};

// An active-topic record (Connect's TopicStatus, KIP-558).
struct TopicStatusValue {
  std::string topic;
  std::string connector;
  int32_t task = 0;
  int64_t discover_timestamp = 0;  // epoch ms
  bool operator==(const TopicStatusValue&) const = default;
};

// StatusStateName returns the state's name as the topic spells it ("UNASSIGNED", ...).
std::string_view StatusStateName(worker::State state);

// ParseStatusStateName returns the state named `name` (AbstractStatus.State.valueOf: exact,
// case-sensitive), or nullopt.
std::optional<worker::State> ParseStatusStateName(std::string_view name);

// The keys the store writes.
std::string ConnectorStatusKey(std::string_view connector);
std::string TaskStatusKey(const herder::ConnectorTaskId& id);
std::string TopicStatusKey(std::string_view topic, std::string_view connector);

// EncodeStatusValue returns the value bytes of `value`, or nullopt (a tombstone) for kDestroyed.
// kInvalidArgument if the value has no worker_id (Java's Struct refuses a null required field).
absl::StatusOr<std::optional<std::string>> EncodeStatusValue(const StatusValue& value);

// EncodeTopicStatusValue returns the value bytes of an active-topic record.
std::string EncodeTopicStatusValue(const TopicStatusValue& value);

// DecodeStatusValue decodes a connector or task status value; kInvalidArgument for anything Java's
// store would log and discard.
absl::StatusOr<StatusValue> DecodeStatusValue(std::string_view bytes);

// DecodeTopicStatusValue decodes an active-topic value; kInvalidArgument as above. The returned
// topic and connector are the ones in the value (the store files it under the key's).
absl::StatusOr<TopicStatusValue> DecodeTopicStatusValue(std::string_view bytes);

// A parsed status-topic key.
struct StatusKey {
  enum class Kind { kConnector, kTask, kTopic };
  Kind kind = Kind::kConnector;
  std::string connector;
  int32_t task = 0;   // kTask
  std::string topic;  // kTopic
  bool operator==(const StatusKey&) const = default;
};

// ParseStatusKey classifies a key as the store's read() does, testing the prefixes in this order:
//  - `status-connector-{c}`: c is the rest (may contain anything); empty c is invalid.
//  - `status-task-...`: split on '-' dropping trailing empty tokens (String.split); fewer than 4
//    tokens is invalid; the last token is the task (Integer.parseInt: optional sign, decimal,
//    int32 range), tokens 3..n-1 re-joined with '-' are the connector (so "a--1" is connector
//    "a-", task 1, and "c-0-" is connector "c", task 0).
//  - `status-topic-{topic}:...`: the topic runs to the first ':', must be non-empty; the connector
//    is what follows the 11 UTF-16 units after that ':' (the text there is not checked to be
//    ":connector-"), must be non-empty.
// Anything else is kInvalidArgument (Java logs and discards the record).
absl::StatusOr<StatusKey> ParseStatusKey(std::string_view key);

}  // namespace connectd::storage
