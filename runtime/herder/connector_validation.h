// File: connector_validation.h
//
// Connector config validation as Connect's AbstractHerder does it: the framework keys (source or
// sink ConnectorConfig), then the connector plugin's own ConfigDef and its validate() hook, into
// the ConfigInfos that /connector-plugins/{p}/config/validate answers and that decide whether a
// create or update is accepted (400 with every error listed).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/config/client_override_policy.h"
#include "runtime/config/config_def.h"
#include "runtime/config/worker_config.h"
#include "runtime/herder_api/herder_types.h"
#include "runtime/plugin/plugin_registry.h"

namespace connectd::herder {

// What validation takes from the worker: the client-override policy, and whether a source
// connector gets its own offsets-topic consumer and admin (a distributed worker with
// exactly-once source support, or a connector naming its own offsets.storage.topic), whose
// overrides are then checked as well.
struct WorkerValidation {
  config::ClientOverridePolicy override_policy = config::ClientOverridePolicy::All();
  bool distributed = false;
  bool exactly_once_source = false;
  // The worker's converters (key.converter, value.converter, header.converter): what a
  // connector config that names none gets; empty when unknown.
  std::string key_converter;
  std::string value_converter;
  std::string header_converter;
  // The worker's settings for its tasks' clients ("producer", "consumer", "admin": Java's
  // names, the worker-level ones included), which a connector's overrides go on top of: the
  // result must translate (jvm/java_client_config.h) or the override is refused naming its key.
  std::map<std::string, std::map<std::string, std::string>> worker_clients;
};

// The converter fields of WorkerValidation from a worker's parsed config.
void SetWorkerConverters(const config::ParsedConfig& worker, WorkerValidation& validation);
// worker_clients from a worker's config.
void SetWorkerClients(const config::WorkerConfig& worker, WorkerValidation& validation);

// The plugin's ConfigDef in runtime form.
config::ConfigDef PluginConfigDef(const plugin::ConnectorPlugin& plugin);
// A transformation's or predicate's ConfigDef, as its plugin declares it.
config::ConfigDef PluginConfigDef(const plugin::StagePlugin& stage);

ConfigKeyInfo ToKeyInfo(const config::ConfigKey& key);

// Validates `config`. Fails (kInvalidArgument) only when no connector can be determined: no
// connector.class, or one no plugin provides; every other problem is an error in the result.
// Client overrides come last: producer.override.*, consumer.override.*, admin.override.* for
// each client the connector uses (Connect's rule), every refused key one error.
absl::StatusOr<ConfigInfos> ValidateConnectorConfig(const plugin::PluginRegistry& plugins,
                                                    const WorkerValidation& worker,
                                                    const ConfigMap& config);

// The 400 message for a failed validation (Connect's text, listing every error).
std::string ValidationFailureMessage(const ConfigInfos& infos);

// ---- What both herders answer the same way ---------------------------------------------------

// PUT .../config/validate: as ValidateConnectorConfig, with the failures Connect's async
// validation raises mapped to its 500 "<exception class>: <message>".
absl::StatusOr<ConfigInfos> ValidateForRest(const plugin::PluginRegistry& plugins,
                                            const WorkerValidation& worker,
                                            const ConfigMap& config);
// Before a create or update: OK, or 400 listing every error (or naming the unusable class).
absl::Status ValidateForWrite(const plugin::PluginRegistry& plugins, const WorkerValidation& worker,
                              const ConfigMap& config);

// source/sink of the connector.class in `config`; kUnknown if no plugin provides it.
ConnectorType ConnectorTypeOf(const plugin::PluginRegistry& plugins, const ConfigMap& config);

// GET /connector-plugins: sinks, then sources; converters too unless `connectors_only`.
std::vector<PluginInfo> ListConnectorPlugins(const plugin::PluginRegistry& plugins,
                                             bool connectors_only);
// GET /connector-plugins/{p}/config[?version=]: a connector's own keys then the framework keys
// of its kind (connector.plugin.version defaulting to its version), or a transformation's,
// predicate's or converter's keys. 404 for an unknown plugin, 400 for a version not loaded.
absl::StatusOr<std::vector<ConfigKeyInfo>> ConnectorPluginConfigKeys(
    const plugin::PluginRegistry& plugins, const std::string& plugin,
    const std::optional<std::string>& version);

}  // namespace connectd::herder
