#include "connectors/mirror_client/client_props.h"

namespace connectd::mirror {
namespace {

bool StartsWith(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

// Client-level connection keys taken from `<side>.cluster.*`.
bool IsConnectionKey(const std::string& key) {
  return key == "bootstrap.servers" || key == "security.protocol" || key == "client.id" ||
         key == "client.dns.lookup" || StartsWith(key, "ssl.") || StartsWith(key, "sasl.");
}

// MirrorMaker's own settings that sit under a client's prefix (consumer.poll.timeout.ms,
// admin.timeout.ms): Java hands them to the client too, which ignores them; here they are no
// client config at all (connectd refuses client configs it does not know).
bool IsMirrorSetting(const std::string& role, const std::string& key) {
  return (role == "consumer" && key == "poll.timeout.ms") ||
         (role == "admin" && key == "timeout.ms");
}

}  // namespace

std::map<std::string, std::string> ClientProps(const std::map<std::string, std::string>& connector,
                                               const std::string& side, const std::string& role) {
  std::map<std::string, std::string> out;
  const std::string cluster_prefix = side + ".cluster.";
  for (const auto& [key, value] : connector) {
    if (StartsWith(key, cluster_prefix) && IsConnectionKey(key.substr(cluster_prefix.size()))) {
      out[key.substr(cluster_prefix.size())] = value;
    }
  }
  for (const std::string& prefix : {role + ".", side + "." + role + "."}) {
    for (const auto& [key, value] : connector) {
      if (StartsWith(key, prefix) && !StartsWith(key, role + ".override.") &&
          !IsMirrorSetting(role, key.substr(prefix.size()))) {
        out[key.substr(prefix.size())] = value;
      }
    }
  }
  return out;
}

std::map<std::string, std::string> ClientProps(const std::map<std::string, std::string>& connector,
                                               const std::string& side, const std::string& role,
                                               const std::string& mm2_role) {
  std::map<std::string, std::string> out = ClientProps(connector, side, role);
  auto get = [&connector](const char* key, const char* fallback) {
    auto it = connector.find(key);
    return it != connector.end() ? it->second : std::string(fallback);
  };
  // The aliases' defaults are Kafka's.
  std::string id = get("source.cluster.alias", "source") + "->" +
                   get("target.cluster.alias", "target") + "|" + get("name", "");
  if (const std::string index = get("task.index", ""); !index.empty()) id += "-" + index;
  id += "|" + mm2_role;
  auto configured = out.find("client.id");
  out["client.id"] = configured != out.end() ? configured->second + "|" + id : id;
  return out;
}

}  // namespace connectd::mirror
