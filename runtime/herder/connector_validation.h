// File: connector_validation.h
//
// Connector config validation as Connect's AbstractHerder does it: the framework keys (source or
// sink ConnectorConfig), then the connector plugin's own ConfigDef and its validate() hook, into
// the ConfigInfos that /connector-plugins/{p}/config/validate answers and that decide whether a
// create or update is accepted (400 with every error listed).
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "runtime/config/config_def.h"
#include "runtime/herder/herder_types.h"
#include "runtime/plugin/plugin_registry.h"

namespace connectd::herder {

// The plugin's ConfigDef in runtime form.
config::ConfigDef PluginConfigDef(const plugin::ConnectorPlugin& plugin);

ConfigKeyInfo ToKeyInfo(const config::ConfigKey& key);

// Validates `config`. Fails (kInvalidArgument) only when no connector can be determined: no
// connector.class, or one no plugin provides; every other problem is an error in the result.
absl::StatusOr<ConfigInfos> ValidateConnectorConfig(const plugin::PluginRegistry& plugins,
                                                    const ConfigMap& config);

// The 400 message for a failed validation (Connect's text, listing every error).
std::string ValidationFailureMessage(const ConfigInfos& infos);

}  // namespace connectd::herder
