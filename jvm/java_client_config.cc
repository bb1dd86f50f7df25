#include "jvm/java_client_config.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <regex>
#include <set>

namespace connectd::jvm {
namespace {

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}
bool ParseInt64(const std::string& s, int64_t& out) {
  char* end = nullptr;
  errno = 0;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (end == s.c_str() || *end != '\0' || errno != 0) return false;
  out = v;
  return true;
}

const std::map<std::string, std::string>& Renamed() {
  static const auto* renamed = new std::map<std::string, std::string>{
      {"sasl.mechanism", "sasl.mechanisms"},
      {"send.buffer.bytes", "socket.send.buffer.bytes"},
      {"receive.buffer.bytes", "socket.receive.buffer.bytes"},
      {"max.request.size", "message.max.bytes"},
      {"sasl.kerberos.service.name", "sasl.kerberos.service.name"},
      {"delivery.timeout.ms", "message.timeout.ms"},
      {"fetch.max.wait.ms", "fetch.wait.max.ms"},
      {"metadata.max.age.ms", "topic.metadata.refresh.interval.ms"},
  };
  return *renamed;
}

// Keys that carry no meaning for librdkafka-based clients.
const std::set<std::string>& Dropped() {
  static const auto* dropped = new std::set<std::string>{"key.serializer",
                                                         "value.serializer",
                                                         "key.deserializer",
                                                         "value.deserializer",
                                                         "max.poll.records",
                                                         "interceptor.classes",
                                                         "metric.reporters",
                                                         "metrics.num.samples",
                                                         "metrics.sample.window.ms",
                                                         "metrics.recording.level",
                                                         "auto.include.jmx.reporter",
                                                         "client.dns.lookup",
                                                         "default.api.timeout.ms",
                                                         "max.block.ms",
                                                         "exclude.internal.topics",
                                                         "allow.auto.create.topics",
                                                         "metadata.recovery.strategy",
                                                         "retry.backoff.max.ms",
                                                         "ssl.protocol",
                                                         "ssl.enabled.protocols",
                                                         "ssl.keymanager.algorithm",
                                                         "ssl.trustmanager.algorithm",
                                                         "ssl.secure.random.implementation",
                                                         "ssl.engine.factory.class",
                                                         "ssl.provider",
                                                         "sasl.login.class",
                                                         "sasl.client.callback.handler.class",
                                                         "sasl.login.callback.handler.class",
                                                         "security.providers"};
  return *dropped;
}

std::string AssignorName(const std::string& java) {
  std::string out;
  for (const std::string& cls : {std::string("RangeAssignor"), std::string("RoundRobinAssignor"),
                                 std::string("CooperativeStickyAssignor")}) {
    if (java.find(cls) == std::string::npos) continue;
    if (!out.empty()) out += ",";
    out += cls == "RangeAssignor"        ? "range"
           : cls == "RoundRobinAssignor" ? "roundrobin"
                                         : "cooperative-sticky";
  }
  return out;
}

// Pulls username="..." password="..." out of a PLAIN or SCRAM sasl.jaas.config.
bool ParseJaas(const std::string& jaas, std::string& username, std::string& password) {
  if (jaas.find("PlainLoginModule") == std::string::npos &&
      jaas.find("ScramLoginModule") == std::string::npos) {
    return false;
  }
  static const std::regex kUser(R"(username\s*=\s*"([^"]*)\")");
  static const std::regex kPassword(R"(password\s*=\s*"([^"]*)\")");
  std::smatch m;
  if (!std::regex_search(jaas, m, kUser)) return false;
  username = m[1];
  if (!std::regex_search(jaas, m, kPassword)) return false;
  password = m[1];
  return true;
}

}  // namespace

TranslatedConfig TranslateJavaClientConfig(const std::map<std::string, std::string>& java,
                                           ClientRole role) {
  TranslatedConfig out;
  auto get = [&](const std::string& key) -> std::string {
    auto it = java.find(key);
    return it == java.end() ? "" : it->second;
  };
  for (const auto& [key, value] : java) {
    if (Dropped().count(key) != 0) continue;
    if (auto it = Renamed().find(key); it != Renamed().end()) {
      out.properties[it->second] = value;
    } else if (key == "request.timeout.ms" && role != ClientRole::kProducer) {
      out.properties["socket.timeout.ms"] = value;
    } else if (key == "partition.assignment.strategy") {
      std::string names = AssignorName(value);
      if (names.empty()) {
        out.warnings.push_back(
            "partition.assignment.strategy: no librdkafka equivalent for the given assignor; "
            "using the default");
      } else {
        out.properties["partition.assignment.strategy"] = names;
      }
    } else if (key == "buffer.memory") {
      int64_t bytes = 0;
      if (ParseInt64(value, bytes)) {
        out.properties["queue.buffering.max.kbytes"] =
            std::to_string(std::max<int64_t>(1, bytes / 1024));
      }
    } else if (key == "sasl.jaas.config") {
      std::string username, password;
      if (ParseJaas(value, username, password)) {
        out.properties["sasl.username"] = username;
        out.properties["sasl.password"] = password;
      } else {
        out.warnings.push_back(
            "sasl.jaas.config: only PLAIN and SCRAM login modules with "
            "username and password are supported; ignored");
      }
    } else if (key == "ssl.endpoint.identification.algorithm") {
      out.properties[key] = value.empty() ? "none" : Lower(value);
    } else if (key == "ssl.truststore.location" || key == "ssl.truststore.certificates") {
      std::string type = Upper(get("ssl.truststore.type"));
      if (type == "PEM" && key == "ssl.truststore.location") {
        out.properties["ssl.ca.location"] = value;
      } else if (type == "PEM") {
        out.properties["ssl.ca.pem"] = value;
      } else {
        out.warnings.push_back(key + ": only ssl.truststore.type=PEM is supported (" +
                               (type.empty() ? std::string("JKS") : type) + " given); ignored");
      }
    } else if (key == "ssl.keystore.location") {
      std::string type = Upper(get("ssl.keystore.type"));
      if (type == "PKCS12") {
        out.properties["ssl.keystore.location"] = value;
      } else if (type == "PEM") {
        out.properties["ssl.certificate.location"] = value;
        out.properties["ssl.key.location"] = value;
      } else {
        out.warnings.push_back(key + ": only PKCS12 and PEM keystores are supported (" +
                               (type.empty() ? std::string("JKS") : type) + " given); ignored");
      }
    } else if (key == "ssl.keystore.certificate.chain") {
      out.properties["ssl.certificate.pem"] = value;
    } else if (key == "ssl.keystore.key") {
      out.properties["ssl.key.pem"] = value;
    } else if (key == "ssl.keystore.password") {
      out.properties["ssl.keystore.password"] = value;
    } else if (key == "ssl.key.password") {
      out.properties["ssl.key.password"] = value;
    } else if (key == "ssl.truststore.type" || key == "ssl.keystore.type" ||
               key == "ssl.truststore.password") {
      continue;  // consumed with the store locations above
    } else {
      out.properties[key] = value;
    }
  }
  // Java's defaults where the user set none. Java's reconnect backoff, for one: a client whose
  // broker restarted is back within a second, as a Java worker's is (librdkafka's grows to
  // 10 s); the leader's read-to-end before zombie fencing, bounded by worker.sync.timeout.ms
  // (3 s), depends on it.
  for (const JavaClientDefault& row : JavaClientDefaults()) {
    if ((row.roles & RoleBit(role)) == 0 || row.librdkafka_value.empty()) continue;
    const std::string key(row.librdkafka_key);
    if (java.count(std::string(row.java_key)) != 0 || out.properties.count(key) != 0) continue;
    out.properties[key] = std::string(row.librdkafka_value);
    out.java_defaults.insert(key);
  }
  return out;
}

std::map<std::string, std::string> OverlayOn(std::map<std::string, std::string> base,
                                             const TranslatedConfig& translated) {
  for (const auto& [key, value] : translated.properties) {
    if (translated.java_defaults.count(key) != 0 && base.count(key) != 0) continue;
    base[key] = value;
  }
  return base;
}

}  // namespace connectd::jvm
