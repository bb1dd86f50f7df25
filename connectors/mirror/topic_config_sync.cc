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

ConfigReplacement PlanConfigReplacement(const ConfigOps& ops, const TopicConfigs& target) {
  ConfigReplacement plan;
  std::map<std::string, std::string> current;
  std::map<std::string, std::string> desired = ops.set;
  for (const auto& [name, entry] : target) {
    if (!entry.is_dynamic_topic) continue;
    current[name] = entry.value;
    if (ops.Touches(name)) continue;
    // Kept as it is, as an incremental alter would keep it; a hidden value cannot be resent.
    if (entry.is_sensitive) {
      plan.sensitive.push_back(name);
    } else {
      desired[name] = entry.value;
    }
  }
  if (!plan.sensitive.empty()) {
    plan.action = ConfigReplacement::Action::kSkipSensitive;
    return plan;
  }
  if (desired == current) return plan;  // kUnchanged: nothing to send
  plan.action = ConfigReplacement::Action::kReplace;
  plan.configs = std::move(desired);
  return plan;
}

}  // namespace connectd::mirror
