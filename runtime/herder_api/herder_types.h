// File: herder_types.h
//
// The values the Herder interface exchanges with the REST layer. They mirror Kafka Connect's
// REST entities (org.apache.kafka.connect.runtime.rest.entities) field for field; rest/ turns
// them into JSON with Connect's exact field names and order.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace connectd::herder {

using ConfigMap = std::map<std::string, std::string>;

enum class ConnectorType { kSource, kSink, kUnknown };

// Connect's TargetState: what the user asked for.
enum class TargetState { kStarted, kPaused, kStopped };

struct ConnectorTaskId {
  std::string connector;
  int task = 0;
  bool operator<(const ConnectorTaskId& o) const {
    return connector < o.connector || (connector == o.connector && task < o.task);
  }
  bool operator==(const ConnectorTaskId& o) const = default;
};

// ConnectorInfo: {"name","config","tasks":[{"connector","task"}],"type"}.
struct ConnectorInfo {
  std::string name;
  ConfigMap config;
  std::vector<ConnectorTaskId> tasks;
  ConnectorType type = ConnectorType::kUnknown;
};

// TaskInfo: {"id":{"connector","task"},"config"}.
struct TaskInfo {
  ConnectorTaskId id;
  ConfigMap config;
};

// One status entry: "state" (UNASSIGNED, RUNNING, PAUSED, FAILED, RESTARTING, STOPPED),
// "worker_id", and "trace" only when present.
struct StateInfo {
  std::string state;
  std::string worker_id;
  std::optional<std::string> trace;
  std::optional<std::string> version;  // the running plugin's version (Connect 4.4)
};

struct TaskStateInfo {
  int id = 0;
  StateInfo state;
};

// ConnectorStateInfo: {"name","connector":{...},"tasks":[{"id",...}],"type"}; tasks sorted by id.
struct ConnectorStateInfo {
  std::string name;
  StateInfo connector;
  std::vector<TaskStateInfo> tasks;
  ConnectorType type = ConnectorType::kUnknown;
};

// One element of ConnectorOffsets. Partition and offset are JSON objects (text); a missing
// offset is JSON null (on PATCH: remove that partition's offset).
struct ConnectorOffset {
  std::string partition_json;
  std::optional<std::string> offset_json;
};

struct ConnectorOffsets {
  std::vector<ConnectorOffset> offsets;
};

// PluginInfo: {"class","type","version"}; version omitted when empty.
struct PluginInfo {
  std::string class_name;
  std::string type;  // sink, source, converter, header_converter, transformation, predicate
  std::string version;
};

// ConfigKeyInfo: a configuration key's definition, values already rendered as Connect renders
// them (type/importance/width as upper-case names, default as a string or null).
struct ConfigKeyInfo {
  std::string name;
  std::string type;
  bool required = false;
  std::optional<std::string> default_value;
  std::string importance;
  std::string documentation;
  std::optional<std::string> group;
  std::string width;
  std::string display_name;
  std::vector<std::string> dependents;
  int order_in_group = -1;
};

struct ConfigValueInfo {
  std::string name;
  std::optional<std::string> value;
  std::vector<std::string> recommended_values;
  std::vector<std::string> errors;
  bool visible = true;
};

struct ConfigInfo {
  std::optional<ConfigKeyInfo> definition;
  std::optional<ConfigValueInfo> value;
};

// ConfigInfos: {"name","error_count","groups","configs"}.
struct ConfigInfos {
  std::string name;
  int error_count = 0;
  std::vector<std::string> groups;
  std::vector<ConfigInfo> configs;
};

// KIP-745 restart request.
struct RestartRequest {
  std::string connector;
  bool only_failed = false;
  bool include_tasks = false;
};

// ServerInfo: {"version","commit","kafka_cluster_id"}.
struct ServerInfo {
  std::string version;
  std::string commit;
  std::string kafka_cluster_id;
};

// The result of creating or updating a connector.
struct Created {
  ConnectorInfo info;
  bool created = false;  // true: 201 Created, false: 200 OK
};

std::string_view ConnectorTypeName(ConnectorType type);  // "source", "sink", "unknown"
std::string_view TargetStateName(TargetState state);     // "STARTED", "PAUSED", "STOPPED"

}  // namespace connectd::herder
