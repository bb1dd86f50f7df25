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
      if (StartsWith(key, prefix) && !StartsWith(key, role + ".override.")) {
        out[key.substr(prefix.size())] = value;
      }
    }
  }
  return out;
}

}  // namespace connectd::mirror
