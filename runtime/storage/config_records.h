// File: config_records.h
//
// The records of the config topic (config.storage.topic) exactly as Java's
// KafkaConfigBackingStore writes and reads them: plain-string keys, and values that are the
// worker's internal JsonConverter (schemas.enable=false) output, compact Jackson JSON.
//
//   key                          value (fields in schema order)
//   connector-{c}                {"properties":{"k":"v","n":null,...}}   null = connector deleted
//   task-{c}-{n}                 {"properties":{...}}                    deferred until commit
//   commit-{c}                   {"tasks":N}
//   target-state-{c}             {"state":"PAUSED","state.v2":"STOPPED"} null on delete
//   restart-connector-{c}        {"include-tasks":b,"only-failed":b}
//   tasks-fencing-{c}            {"task-count":N}
//   session-key {"key":"<base64>","algorithm":"HmacSHA256","creation-timestamp":ms}
//   logger-cluster-{namespace}   {"level":"DEBUG"}
//
// Encoders write properties in the order given: Java writes a map in its iteration order, so a
// caller reproducing Java byte for byte passes REST-created connector configs in request order
// (Jackson's LinkedHashMap) and java.util.HashMap-built maps in HashMap order
// (jvm::JavaHashMapIterationOrder).
//
// Decoding is two steps, as in Java: ParseConfigValue is JsonConverter.toConnectData
// (connect_json.h with Jackson's defaults), then ParseConfigRecord applies
// KafkaConfigBackingStore's per-key reading rules.
// Golden vectors: tests/golden/config_topic (GenerateConfigTopicGolden.java).
//
// Thread safety: all functions are pure.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "runtime/data/connect_json.h"
#include "runtime/herder_api/herder_types.h"

namespace connectd::storage {

// ConfigProperties: a connector or task configuration as stored in the topic, in stored (write)
// order; a value may be null (Connect's map schema has optional string values).
using ConfigProperties = std::vector<std::pair<std::string, std::optional<std::string>>>;

// ToConfigMap returns `properties` as a herder::ConfigMap, dropping null-valued entries.
herder::ConfigMap ToConfigMap(const ConfigProperties& properties);

// FromConfigMap returns `config` as properties, in the map's (sorted) order.
ConfigProperties FromConfigMap(const herder::ConfigMap& config);

// SessionKey: the KIP-507 key the leader distributes (Java's SessionKey: SecretKeySpec + time).
struct SessionKey {
  std::string key;        // raw key bytes
  std::string algorithm;  // e.g. "HmacSHA256"
  int64_t creation_timestamp_ms = 0;
  bool operator==(const SessionKey& o) const = default;
};

// One record to produce: key and value bytes; nullopt value = tombstone.
struct ConfigTopicRecord {
  std::string key;
  std::optional<std::string> value;
  bool operator==(const ConfigTopicRecord& o) const = default;
};

// ---- Keys --------------------------------------------------------------------------------

inline constexpr std::string_view kTargetStatePrefix = "target-state-";
inline constexpr std::string_view kConnectorPrefix = "connector-";
inline constexpr std::string_view kTaskPrefix = "task-";
inline constexpr std::string_view kCommitTasksPrefix = "commit-";
inline constexpr std::string_view kRestartPrefix = "restart-connector-";
inline constexpr std::string_view kTaskCountRecordPrefix = "tasks-fencing-";
inline constexpr std::string_view kSessionKeyKey = "session-key";
inline constexpr std::string_view kLoggerClusterPrefix = "logger-cluster-";

std::string TargetStateKey(std::string_view connector);
std::string ConnectorConfigKey(std::string_view connector);
std::string TaskConfigKey(const herder::ConnectorTaskId& id);  // task-{c}-{n}
std::string CommitTasksKey(std::string_view connector);
std::string RestartKey(std::string_view connector);
std::string TaskCountRecordKey(std::string_view connector);
std::string LoggerClusterKey(std::string_view logging_namespace);

// What a key addresses, found as Java's ConsumeCallback dispatches: the first of these that
// matches, in this order: prefix target-state-, connector-, task-, commit-, restart-connector-,
// tasks-fencing-, the exact key session-key, prefix logger-cluster-.
enum class ConfigRecordType {
  kTargetState,
  kConnectorConfig,
  kTaskConfig,
  kTasksCommit,
  kRestartRequest,
  kTaskCountRecord,
  kSessionKey,
  kLoggerLevel,
  kUnknown,  // no prefix matched, or a task- key that does not parse: Java logs and drops it
};

struct ConfigKey {
  ConfigRecordType type = ConfigRecordType::kUnknown;
  std::string name;  // connector, or logging namespace for kLoggerLevel; empty otherwise
  int32_t task = 0;  // kTaskConfig only
};

// ParseConfigKey classifies `key`. A task key is split as Java's key.split("-") (trailing empty
// parts removed): fewer than 3 parts, or a last part that Integer.parseInt rejects (ASCII digits
// with an optional sign, int32 range) give kUnknown; the connector is the middle parts re-joined
// with '-', so "task-a-b-7" is ("a-b", 7) and "task-c-3-" is ("c", 3).
ConfigKey ParseConfigKey(std::string_view key);

// ---- Values: encoding (byte-identical to Java's) -------------------------------------------

// {"properties":{...}}; also the value of task-{c}-{n} (TASK_CONFIGURATION_V0 is the same
// schema). REQUIRES: keys and values are valid UTF-8.
std::string EncodeConnectorConfig(const ConfigProperties& properties);
std::string EncodeTaskConfig(const ConfigProperties& properties);
// {"tasks":N}
std::string EncodeTasksCommit(int32_t task_count);
// {"state":S,"state.v2":T}: S is PAUSED for STOPPED (older workers know no STOPPED).
std::string EncodeTargetState(herder::TargetState state);
// {"include-tasks":b,"only-failed":b}
std::string EncodeRestartRequest(const herder::RestartRequest& request);
// {"task-count":N}
std::string EncodeTaskCountRecord(int32_t task_count);
// {"key":"<standard padded Base64>","algorithm":A,"creation-timestamp":ms}
std::string EncodeSessionKey(const SessionKey& key);
// {"level":L}
std::string EncodeLoggerLevel(std::string_view level);

// ---- Values: decoding ----------------------------------------------------------------------

// ConfigValue: one schemaless Connect value, as JsonConverter (schemas.enable=false) returns it.
using ConfigValue = data::JsonValue;

// ParseConfigValue converts value bytes as the worker's JsonConverter does; nullopt (a
// tombstone), empty and all-whitespace input give a kNull value. kInvalidArgument when Java's
// converter throws (its DataException: the record is skipped without advancing the offset).
absl::StatusOr<ConfigValue> ParseConfigValue(std::optional<std::string_view> bytes);

// A decoded config-topic record, per KafkaConfigBackingStore's reading rules. `value_status` is
// OK when the value has the shape the record type needs and kInvalidArgument (with the reason
// Java logs) when Java ignores the value; the payload fields below are set only when OK.
struct ConfigRecord {
  ConfigKey key;
  bool tombstone = false;  // the converted value is null
  absl::Status value_status;
  // kConnectorConfig (not tombstone), kTaskConfig: the "properties" map. Values must be strings
  // or null; Java would store other JSON scalars unchecked in its Map<String,String> and fail
  // later, connectd rejects the record instead.
  ConfigProperties properties;
  // kTasksCommit "tasks" / kTaskCountRecord "task-count": any JSON integer (Java's intValue
  // accepts Integer or Long and truncates a long to int).
  int32_t count = 0;
  herder::TargetState target_state = herder::TargetState::kStarted;  // kTargetState, not tombstone
  herder::RestartRequest restart;                                    // kRestartRequest
  SessionKey session_key;                                            // kSessionKey
  std::string level;                                                 // kLoggerLevel
};

// ParseConfigRecord decodes one consumed record. Errors only when the value bytes fail
// conversion (see ParseConfigValue); everything else, unknown keys included, is a ConfigRecord.
// Per type (Java's process*Record):
//  - connector/task config: a tombstone is a deletion for connectors and is ignored for tasks;
//    otherwise an object whose "properties" is an object.
//  - commit / task count: an object whose "tasks" / "task-count" is an integer.
//  - target state: "state.v2" if it is a string, else "state" (must be a string); the name must
//    be STARTED, PAUSED or STOPPED (an invalid "state.v2" name does not fall back).
//  - restart: an object; "include-tasks"/"only-failed" default to false unless booleans.
//  - session key: an object with string "key" (Base64, Java's basic decoder: standard alphabet,
//    padding optional; non-empty), string "algorithm", integer "creation-timestamp".
//  - logger level: an object with string "level".
absl::StatusOr<ConfigRecord> ParseConfigRecord(std::string_view key,
                                               std::optional<std::string_view> value);

}  // namespace connectd::storage
