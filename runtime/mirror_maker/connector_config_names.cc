#include "runtime/mirror_maker/connector_config_names.h"

#include "runtime/config/connector_config.h"
#include "runtime/herder/connector_validation.h"
#include "runtime/mirror_maker/mirror_maker_config.h"

namespace connectd::mirror_maker {

const char* const kJavaOnlyConnectorConfigNames[] = {
    // MirrorConnectorConfig: pluggable admin and metrics, which connectd does not load.
    "forwarding.admin.class", "metric.reporters", "config.providers",
    // MirrorSourceConfig / MirrorCheckpointConfig: pluggable filters (connectd has the defaults).
    "topic.filter.class", "group.filter.class", "config.property.filter.class", nullptr};

std::set<std::string> ConnectorConfigNames(const plugin::PluginRegistry& plugins) {
  std::set<std::string> names;
  // Connect's ConnectorConfig.configDef(): what source and sink connectors share.
  for (const config::ConfigKey& key : config::BaseConnectorConfigDef().keys()) {
    names.insert(key.name);
  }
  for (MirrorConnector connector : kMirrorConnectors) {
    const plugin::ConnectorPlugin* plugin = plugins.Find(ConnectorClass(connector));
    if (plugin == nullptr) continue;
    const config::ConfigDef own = herder::PluginConfigDef(*plugin);
    for (const config::ConfigKey& key : own.keys()) names.insert(key.name);
  }
  const std::set<std::string>& client = ClientConfigNames();
  names.insert(client.begin(), client.end());
  names.erase("bootstrap.servers");  // a client-only key: MirrorConnectorConfig does not define it
  for (const char* const* name = kJavaOnlyConnectorConfigNames; *name != nullptr; ++name) {
    names.insert(*name);
  }
  return names;
}

}  // namespace connectd::mirror_maker
