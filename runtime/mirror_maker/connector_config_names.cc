#include "runtime/mirror_maker/connector_config_names.h"

#include "runtime/config/connector_config.h"
#include "runtime/herder/connector_validation.h"
#include "runtime/mirror_maker/mirror_maker_config.h"

namespace connectd::mirror_maker {

const char* const kJavaOnlyConnectorConfigNames[] = {
    // ConnectorConfig (KIP-891, Connect 4.1): plugin versions.
    "connector.plugin.version", "key.converter.plugin.version", "value.converter.plugin.version",
    "header.converter.plugin.version",
    // MirrorConnectorConfig: pluggable admin and metrics, which connectd does not load.
    "forwarding.admin.class", "metric.reporters", "metric.names.formats", "config.providers",
    // MirrorSourceConfig / MirrorCheckpointConfig: pluggable filters (connectd has the defaults).
    "topic.filter.class", "group.filter.class", "config.property.filter.class", nullptr};

std::set<std::string> ConnectorConfigNames(const plugin::PluginRegistry& plugins) {
  std::set<std::string> names;
  // Connect's ConnectorConfig.configDef(): what source and sink connectors share.
  std::set<std::string> sink;
  for (const config::ConfigKey& key :
       config::ConnectorConfigDef(config::ConnectorKind::kSink).keys()) {
    sink.insert(key.name);
  }
  for (const config::ConfigKey& key :
       config::ConnectorConfigDef(config::ConnectorKind::kSource).keys()) {
    if (sink.count(key.name)) names.insert(key.name);
  }
  for (MirrorConnector connector : kMirrorConnectors) {
    absl::StatusOr<std::vector<herder::ConfigKeyInfo>> keys =
        herder::ConnectorPluginConfigKeys(plugins, ConnectorClass(connector));
    if (!keys.ok()) continue;
    for (const herder::ConfigKeyInfo& key : *keys) names.insert(key.name);
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
