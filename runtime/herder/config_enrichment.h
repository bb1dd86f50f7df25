// File: config_enrichment.h
//
// The parts of a connector's validation that Connect derives from the config itself
// (ConnectorConfig.enrich and AbstractHerder's converter and version checks, Kafka 4.4):
//   - transforms.<a>.type / .plugin.version and the transformation's own keys, plus .predicate
//     and .negate, in group "Transforms: <a>"; predicates.<p>.* likewise in "Predicates: <p>";
//   - <kind>.converter.* for each converter the config names, from that converter's ConfigDef;
//   - the KIP-891 version keys: connector.plugin.version and <kind>.converter.plugin.version
//     default to the resolved plugin's version and recommend the versions loaded; the converter
//     keys default to the worker's converters and recommend the converters connectd has.
//
// Thread safety: pure functions over their arguments.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "runtime/herder/connector_validation.h"
#include "runtime/herder_api/herder_types.h"
#include "runtime/plugin/plugin_registry.h"

namespace connectd::herder {

// Sets definitions and values of connector.plugin.version and the three converter keys and
// their .plugin.version keys in `infos` (already holding the framework keys). `plugin` is the
// resolved connector.
void FillVersionAndConverterKeys(const plugin::PluginRegistry& plugins,
                                 const WorkerValidation& worker,
                                 const plugin::ConnectorPlugin& plugin, ConfigInfos& infos);

// Appends the transforms.<a>.* and predicates.<p>.* keys of every alias the config lists.
void AppendStageKeys(const plugin::PluginRegistry& plugins, const ConfigMap& config,
                     ConfigInfos& infos);

// Appends <kind>.converter.* keys for each converter class the config itself names.
void AppendConverterKeys(const ConfigMap& config, ConfigInfos& infos);

// The definitions GET /connector-plugins/{p}/config answers for a transformation, predicate or
// converter class (built-in or from a plugin); nullopt when `name` is none of them.
std::optional<std::vector<ConfigKeyInfo>> StageOrConverterConfigKeys(
    const plugin::PluginRegistry& plugins, const std::string& name);

// The converters connectd has, by class: for keys and values, or for headers (which adds
// SimpleHeaderConverter).
std::vector<std::string> BuiltInConverterClasses(bool header);

// The version a built-in transformation, predicate or converter reports: the Kafka version
// connectd answers as (Java's built-ins report theirs).
std::string BuiltInPluginVersion();

}  // namespace connectd::herder
