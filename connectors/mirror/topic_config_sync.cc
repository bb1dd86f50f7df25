#include "connectors/mirror/topic_config_sync.h"

namespace connectd::mirror {
namespace {

// Entries config sync may ever copy (both for creation and for the periodic sync).
bool Syncable(const std::string& name, const ConfigEntry& entry,
              const ConfigPropertyFilter& filter) {
  return !entry.is_read_only && !entry.is_sensitive && !entry.is_static_broker &&
         filter.ShouldReplicateConfigProperty(name);
}

}  // namespace

std::map<std::string, std::string> CreationConfigs(const TopicConfigs& source,
                                                   const ConfigPropertyFilter& filter) {
  std::map<std::string, std::string> configs;
  for (const auto& [name, entry] : source) {
    if (entry.is_default && !filter.ShouldReplicateSourceDefault(name)) continue;
    if (Syncable(name, entry, filter)) configs[name] = entry.value;
  }
  return configs;
}

ConfigOps SourceConfigOps(const TopicConfigs& source, const ConfigPropertyFilter& filter) {
  ConfigOps ops;
  for (const auto& [name, entry] : source) {
    if (!Syncable(name, entry, filter)) continue;
    if (entry.is_default && !filter.ShouldReplicateSourceDefault(name)) {
      ops.remove.insert(name);
    } else {
      ops.set[name] = entry.value;
    }
  }
  return ops;
}

}  // namespace connectd::mirror
