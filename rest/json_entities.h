// File: json_entities.h
//
// Kafka Connect's REST entities as JSON, with Connect's exact field names and the field order
// Jackson emits (the org.apache.kafka.connect.runtime.rest.entities classes), and the parsers for
// request bodies.
//
// Writers return compact JSON text. Parsers return kInvalidArgument with a message a user can
// act on: a malformed document names RapidJSON's error and the byte offset; a value of the wrong
// type names its key.
//
// Config maps are read as Jackson reads Map<String, String>: strings as they are, numbers and
// booleans as their JSON text (`"tasks.max": 1` is "1"), objects and arrays rejected. `null` is
// rejected except in a PATCH body, where it removes the key.
//
// Threads: pure functions, any thread.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/herder_api/herder_types.h"

namespace connectd::rest {

// ---- Writers --------------------------------------------------------------------------------

// {"error_code":404,"message":"..."}
std::string ErrorMessageJson(int error_code, std::string_view message);
// {"message":"..."}
std::string MessageJson(std::string_view message);
// {"status":"healthy","message":"..."}
std::string WorkerStatusJson(std::string_view status, std::string_view message);
// {"version","commit","kafka_cluster_id"}
std::string ServerInfoJson(const herder::ServerInfo& info);
// ["a","b"]
std::string StringArrayJson(const std::vector<std::string>& values);
// {"k":"v",...}
std::string ConfigMapJson(const herder::ConfigMap& config);
// {"name","config","tasks":[{"connector","task"}],"type"}
std::string ConnectorInfoJson(const herder::ConnectorInfo& info);
// [{"id":{"connector","task"},"config":{...}},...]
std::string TaskInfosJson(const std::vector<herder::TaskInfo>& tasks);
// {"name","connector":{"state","worker_id"[,"trace"]},"tasks":[{"id","state","worker_id"[,"trace"]}],"type"}
std::string ConnectorStateInfoJson(const herder::ConnectorStateInfo& info);
// {"id","state","worker_id"[,"trace"]}
std::string TaskStateJson(const herder::TaskStateInfo& state);
// {"<connector>":{"topics":[...]}}
std::string ActiveTopicsJson(std::string_view connector, const std::vector<std::string>& topics);
// {"offsets":[{"partition":{...},"offset":{...}|null}]}
std::string ConnectorOffsetsJson(const herder::ConnectorOffsets& offsets);
// [{"class","type"[,"version"]},...]
std::string PluginInfosJson(const std::vector<herder::PluginInfo>& plugins);
// [ConfigKeyInfo,...]
std::string ConfigKeyInfosJson(const std::vector<herder::ConfigKeyInfo>& keys);
// {"name","error_count","groups","configs":[{"definition","value"}]}
std::string ConfigInfosJson(const herder::ConfigInfos& infos);

// LoggerLevel: {"level":"INFO","last_modified":1700000000000|null}.
struct LoggerLevel {
  std::string level;
  std::optional<int64_t> last_modified;
};
std::string LoggerLevelJson(const LoggerLevel& level);
// {"root":{...},"a.b":{...}}
std::string LoggerLevelsJson(const std::map<std::string, LoggerLevel>& levels);

// GET /connectors?expand=...: {"c1":{"status":{...},"info":{...}|null}}. Each expansion value is
// JSON text (nullopt renders null); connectors and expansions are written in the given order.
struct ExpandedConnector {
  std::string name;
  std::vector<std::pair<std::string, std::optional<std::string>>> expansions;
};
std::string ExpandedConnectorsJson(const std::vector<ExpandedConnector>& connectors);

// The 400 message Connect's AbstractHerder builds when a create/update fails validation
// (the `{connectorType}` placeholder is literal in Connect's text, too).
std::string ConfigErrorsMessage(const herder::ConfigInfos& infos);

// ---- Parsers --------------------------------------------------------------------------------

// CreateConnectorRequest: {"name":..., "config":{...}, "initial_state":...}.
struct CreateConnectorRequest {
  std::optional<std::string> name;  // nullopt when absent or null
  std::optional<herder::ConfigMap> config;
  std::optional<herder::TargetState> initial_state;  // RUNNING -> kStarted
};
absl::StatusOr<CreateConnectorRequest> ParseCreateConnectorRequest(std::string_view body);

// A config map body (PUT .../config, validate).
absl::StatusOr<herder::ConfigMap> ParseConfigMap(std::string_view body);

// A PATCH .../config body: a null value removes the key.
absl::StatusOr<std::map<std::string, std::optional<std::string>>> ParseConfigPatch(
    std::string_view body);

// ConnectorOffsets; partition and offset keep their JSON text. An absent or null "offsets" is an
// empty list (the resource answers Connect's 400 for that).
absl::StatusOr<herder::ConnectorOffsets> ParseConnectorOffsets(std::string_view body);

// The "level" of a PUT /admin/loggers/{name} body; nullopt when absent or null.
absl::StatusOr<std::optional<std::string>> ParseLoggerLevelBody(std::string_view body);

// The internal POST /connectors/{c}/tasks body: a list of string maps.
absl::StatusOr<std::vector<herder::ConfigMap>> ParseTaskConfigs(std::string_view body);

// ---- Bodies sent to other workers (forwarding, internal requests) ---------------------------

// {"name":...|null,"config":{...}|null,"initial_state":"RUNNING"|"PAUSED"|"STOPPED"|null}, as
// Jackson writes CreateConnectorRequest.
std::string CreateConnectorRequestJson(const CreateConnectorRequest& request);
// {"k":"v","gone":null}
std::string ConfigPatchJson(const std::map<std::string, std::optional<std::string>>& patch);
// [{"k":"v"},...]: the internal task-config body.
std::string TaskConfigsJson(const std::vector<herder::ConfigMap>& configs);
// "text" as a JSON string literal.
std::string JsonStringLiteral(std::string_view text);

// Connect's error body read back from another worker: {"error_code":N,"message":"..."}; a field
// that is absent, null or of another type is nullopt. kInvalidArgument if `body` is not a JSON
// object.
struct ErrorMessageBody {
  std::optional<int> error_code;
  std::optional<std::string> message;
};
absl::StatusOr<ErrorMessageBody> ParseErrorMessage(std::string_view body);

// OK if `body` is one well-formed JSON document; kInvalidArgument naming the parse error.
absl::Status CheckJsonDocument(std::string_view body);

}  // namespace connectd::rest
