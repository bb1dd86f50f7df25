// File: connector_config_names.h
//
// The top-level mm2.properties keys the dedicated MirrorMaker copies into every connector config:
// the names defined in one of the three MirrorMaker connectors' ConfigDefs (Java's
// MirrorMakerConfig.allConfigNames()). connectd takes them from where they are defined rather
// than from a copied list:
//   - Connect's base ConnectorConfig keys, from the runtime's connector ConfigDef (the keys a
//     source and a sink connector share: name, connector.class, tasks.max, converters,
//     transforms, predicates, errors.*, ...);
//   - each loaded MirrorMaker plugin's own config definition (its ABI config keys);
//   - MirrorClientConfig's client-level keys (mirror_maker_config.h ClientConfigNames());
//   - the few names Java's ConfigDefs hold and connectd's do not (kJavaOnlyConnectorConfigNames).
// A key only connectd's plugins define (heartbeats.topic.location) is therefore accepted at top
// level too; MirrorMakerConfigGoldenTest compares the whole set with Java's.
#pragma once

#include <set>
#include <string>

#include "runtime/plugin/plugin_registry.h"

namespace connectd::mirror_maker {

// Names Java's three MirrorMaker ConfigDefs define (connect-mirror 4.3.1, connect-runtime 4.4)
// that neither the runtime's base connector ConfigDef nor connectd's plugins declare.
extern const char* const kJavaOnlyConnectorConfigNames[];

// The union described above. A MirrorMaker plugin missing from `plugins` contributes nothing
// (the worker then fails those connectors with its usual "unknown plugin" error).
std::set<std::string> ConnectorConfigNames(const plugin::PluginRegistry& plugins);

}  // namespace connectd::mirror_maker
