#include "jvm/java_client_config.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <set>
#include <vector>

#include <openssl/ssl.h>

#include "jvm/java_jaas_config.h"
#include "jvm/java_kerberos_config.h"
#include "jvm/java_key_store.h"
#include "jvm/java_oauthbearer_config.h"
#include "jvm/java_split.h"
#include "jvm/java_system_properties.h"
#include "jvm/librdkafka_properties.h"

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
      {"delivery.timeout.ms", "message.timeout.ms"},
      {"fetch.max.wait.ms", "fetch.wait.max.ms"},
      {"metadata.max.age.ms", "topic.metadata.refresh.interval.ms"},
  };
  return *renamed;
}

// Keys that carry no meaning for librdkafka-based clients (none is about security).
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
                                                         "default.api.timeout.ms",
                                                         "max.block.ms",
                                                         "exclude.internal.topics",
                                                         "allow.auto.create.topics",
                                                         "metadata.recovery.strategy",
                                                         "retry.backoff.max.ms"};
  return *dropped;
}

// Java client keys (kafka-clients 4.4's ConfigDefs) that librdkafka has no counterpart of and
// that do nothing here: ignored with a warning, as a Java client warns of a config it does not
// use. (config.providers among them: connectd's clients never instantiate config providers from
// a client config, which Java gates with org.apache.kafka.automatic.config.providers.)
const std::set<std::string>& IgnoredJavaKeys() {
  static const auto* ignored = new std::set<std::string>{
      "bootstrap.controllers",
      "bootstrap.resolve.timeout.ms",
      "buffer.memory.allocation.strategy",
      "compression.gzip.level",
      "compression.lz4.level",
      "compression.zstd.level",
      "config.providers",
      "internal.throw.on.fetch.stable.offset.unsupported",
      "metadata.cluster.check.enable",
      "metadata.max.idle.ms",
      "partitioner.adaptive.partitioning.enable",
      "partitioner.availability.timeout.ms",
      "partitioner.class",
      "partitioner.ignore.keys",
      "partitioner.rack.aware",
      "share.acknowledgement.mode",
      "share.acquire.mode",
      "socket.connection.setup.timeout.max.ms",
      "transaction.two.phase.commit.enable",
  };
  return *ignored;
}

// Whether a client config neither Java's clients nor librdkafka know is ignored with a warning,
// as Java's clients do, rather than refused (connectd's default): -D<kUnknownClientConfigs>=ignore.
bool UnknownKeysIgnored() {
  return JavaSystemProperty(kUnknownClientConfigsProperty).value_or("") == "ignore";
}

// Java security keys with no librdkafka equivalent. Each is accepted only with a value that asks
// for nothing connectd's clients do not do anyway (OpenSSL negotiates TLS 1.2 or 1.3, verifies
// with PKIX, uses its own random generator); any other value stops the client with a message
// naming the key, because ignoring it would make the connection less secure than configured
// or not authenticate as the user asked.
struct SecurityKey {
  const char* key;
  bool (*acceptable)(const std::string& value);
  const char* refusal;
};

bool InTlsVersions(const std::string& value) {
  bool has_12 = false;
  for (const std::string& v : JavaCommaList(value)) {
    if (v == "TLSv1.2") has_12 = true;
    if (v != "TLSv1.2" && v != "TLSv1.3" && v != "TLSv1.1" && v != "TLSv1") return false;
  }
  return has_12;
}

const std::vector<SecurityKey>& SecurityKeys() {
  static const auto* keys = new std::vector<SecurityKey>{
      {"ssl.protocol",
       [](const std::string& v) { return v == "TLSv1.3" || v == "TLSv1.2" || v == "TLS"; },
       "connectd's clients negotiate TLS 1.2 or 1.3 (OpenSSL); use TLSv1.3, TLSv1.2 or TLS"},
      {"ssl.enabled.protocols", InTlsVersions,
       "connectd's clients negotiate TLS 1.2 or 1.3 and cannot be restricted to TLS 1.3 only; "
       "the list must include TLSv1.2"},
      {"ssl.keymanager.algorithm",
       [](const std::string& v) { return v == "SunX509" || v == "NewSunX509" || v == "PKIX"; },
       "connectd presents the keystore's one key and chain (SunX509, NewSunX509 or PKIX)"},
      {"ssl.trustmanager.algorithm",
       [](const std::string& v) { return v == "PKIX" || v == "SunPKIX" || v == "SunX509"; },
       "connectd verifies certificates with OpenSSL's PKIX path validation (PKIX)"},
      {"ssl.secure.random.implementation", [](const std::string&) { return true; }, ""},
      {"ssl.engine.factory.class", [](const std::string& v) { return v.empty(); },
       "a Java SslEngineFactory cannot run in connectd: configure the stores instead"},
      {"ssl.provider", [](const std::string& v) { return v.empty(); },
       "a Java security provider cannot run in connectd"},
      {"security.providers", [](const std::string& v) { return v.empty(); },
       "Java security providers cannot run in connectd"},
      {"sasl.login.class", [](const std::string& v) { return v.empty(); },
       "a Java Login class cannot run in connectd"},
      {"sasl.client.callback.handler.class", [](const std::string& v) { return v.empty(); },
       "a Java SASL client callback handler cannot run in connectd"},
      {"sasl.login.callback.handler.class",
       [](const std::string& v) {
         return v.empty() ||
                v == "org.apache.kafka.common.security.oauthbearer."
                     "OAuthBearerLoginCallbackHandler" ||
                v == "org.apache.kafka.common.security.oauthbearer.secured."
                     "OAuthBearerLoginCallbackHandler" ||
                v == "org.apache.kafka.common.security.oauthbearer.internals.unsecured."
                     "OAuthBearerUnsecuredLoginCallbackHandler";
       },
       "a Java login callback handler cannot run in connectd; connectd does what Kafka's "
       "OAuthBearerLoginCallbackHandler (OIDC client credentials) and "
       "OAuthBearerUnsecuredLoginCallbackHandler do"},
  };
  return *keys;
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

// username and password of a PLAIN or SCRAM login module.
bool UserAndPassword(const JaasLoginModule& jaas, std::string& username, std::string& password) {
  if (!jaas.Is("PlainLoginModule") && !jaas.Is("ScramLoginModule")) return false;
  auto user = jaas.options.find("username");
  auto pass = jaas.options.find("password");
  if (user == jaas.options.end() || pass == jaas.options.end()) return false;
  username = user->second;
  password = pass->second;
  return true;
}

// Java's ssl.cipher.suites (IANA names, e.g. TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384) as
// OpenSSL's cipher list (ECDHE-RSA-AES256-GCM-SHA384). TLS 1.3's suites (TLS_AES_*,
// TLS_CHACHA20_*) are all strong and OpenSSL negotiates them itself: they are skipped, but a list
// of only those (Java: no TLS 1.2 at all) cannot be honoured and is refused.
std::optional<std::string> OpenSslCipherList(const std::string& java,
                                             std::vector<std::string>& errors) {
  std::string list;
  bool tls13 = false;
  for (const std::string& name : JavaCommaList(java)) {
    if (name.rfind("TLS_AES_", 0) == 0 || name.rfind("TLS_CHACHA20_", 0) == 0) {
      tls13 = true;
      continue;
    }
    const char* openssl = OPENSSL_cipher_name(name.c_str());
    if (openssl == nullptr || std::string(openssl) == "(NONE)") {
      errors.push_back("ssl.cipher.suites: " + name + " is not a cipher suite OpenSSL knows");
      return std::nullopt;
    }
    if (!list.empty()) list += ":";
    list += openssl;
  }
  if (list.empty() && tls13) {
    errors.push_back(
        "ssl.cipher.suites lists only TLS 1.3 suites, which connectd cannot restrict TLS to: "
        "list the TLS 1.2 suites to allow too, or remove the key");
    return std::nullopt;
  }
  if (list.empty()) return std::nullopt;
  return list;
}

// ssl.truststore.* and ssl.keystore.* (Java's default type is JKS) as librdkafka's PEM
// settings: PEM files by name, JKS and PKCS12 stores read into PEM (java_key_store.h), so every
// client — the group client too — takes them the same way.
void TranslateStores(const std::map<std::string, std::string>& java, TranslatedConfig& out) {
  auto get = [&](const std::string& key) -> std::string {
    auto it = java.find(key);
    return it == java.end() ? "" : it->second;
  };
  auto type_of = [&](const char* key) {
    std::string type = Upper(get(key));
    return type.empty() ? std::string("JKS") : type;
  };
  const std::string trust_type = type_of("ssl.truststore.type");
  if (!get("ssl.truststore.certificates").empty()) {
    if (trust_type != "PEM") {
      out.errors.push_back("ssl.truststore.certificates needs ssl.truststore.type=PEM");
    } else {
      out.properties["ssl.ca.pem"] = get("ssl.truststore.certificates");
    }
  } else if (const std::string location = get("ssl.truststore.location"); !location.empty()) {
    if (trust_type == "PEM") {
      out.properties["ssl.ca.location"] = location;
    } else {
      std::string error;
      std::optional<PemStore> store = ReadJavaKeyStore(location, trust_type, StoreUse::kTrust,
                                                       get("ssl.truststore.password"), "", error);
      if (store) {
        out.properties["ssl.ca.pem"] = store->certificates;
      } else {
        out.errors.push_back("ssl.truststore.location: " + error);
      }
    }
  }
  const std::string key_type = type_of("ssl.keystore.type");
  const std::string key_password = get("ssl.key.password");
  if (!get("ssl.keystore.certificate.chain").empty() || !get("ssl.keystore.key").empty()) {
    if (key_type != "PEM") {
      out.errors.push_back(
          "ssl.keystore.certificate.chain and ssl.keystore.key need ssl.keystore.type=PEM");
    } else {
      out.properties["ssl.certificate.pem"] = get("ssl.keystore.certificate.chain");
      out.properties["ssl.key.pem"] = get("ssl.keystore.key");
      if (!key_password.empty()) out.properties["ssl.key.password"] = key_password;
    }
  } else if (const std::string location = get("ssl.keystore.location"); !location.empty()) {
    if (key_type == "PEM") {
      out.properties["ssl.certificate.location"] = location;
      out.properties["ssl.key.location"] = location;
      if (!key_password.empty()) out.properties["ssl.key.password"] = key_password;
    } else {
      std::string error;
      std::optional<PemStore> store = ReadJavaKeyStore(
          location, key_type, StoreUse::kKey, get("ssl.keystore.password"), key_password, error);
      if (store) {
        out.properties["ssl.certificate.pem"] = store->certificates;
        out.properties["ssl.key.pem"] = store->private_key;
      } else {
        out.errors.push_back("ssl.keystore.location: " + error);
      }
    }
  }
}

// The choke point: whatever the rules above made, only allow-listed librdkafka properties leave
// (librdkafka_properties.h), Kerberos names in their syntax, token URLs on Java's allow-list.
void RefuseWhatIsNotAllowed(TranslatedConfig& out) {
  auto refuse = [&out](std::string message) {
    if (std::find(out.errors.begin(), out.errors.end(), message) == out.errors.end()) {
      out.errors.push_back(std::move(message));
    }
  };
  for (auto it = out.properties.begin(); it != out.properties.end();) {
    const auto& [key, value] = *it;
    std::string refusal = LibrdkafkaPropertyRefusal(key, value);
    if (refusal.empty() && key == "sasl.kerberos.principal") {
      if (std::string why = PrincipalSyntaxError(value); !why.empty()) {
        refusal = key + " is refused: " + why;
      }
    } else if (refusal.empty() && key == "sasl.kerberos.keytab") {
      if (std::string why = KeytabPathError(value); !why.empty())
        refusal = key + " is refused: " + why;
    } else if (refusal.empty() && FindLibrdkafkaProperty(key)->use == PropertyUse::kOAuthUrl) {
      refusal = OAuthUrlRefusal(key, value);
    }
    if (refusal.empty()) {
      ++it;
    } else {
      refuse(std::move(refusal));
      it = out.properties.erase(it);
    }
  }
}

}  // namespace

TranslatedConfig TranslateJavaClientConfig(const std::map<std::string, std::string>& java,
                                           ClientRole role) {
  TranslatedConfig out;
  auto get = [&](const std::string& key) -> std::string {
    auto it = java.find(key);
    return it == java.end() ? "" : it->second;
  };
  const std::string protocol = Upper(get("security.protocol"));
  const bool sasl = protocol == "SASL_PLAINTEXT" || protocol == "SASL_SSL";
  const bool tls = protocol == "SSL" || protocol == "SASL_SSL";
  std::string mechanism = Upper(get("sasl.mechanism"));
  if (mechanism.empty()) mechanism = Upper(get("sasl.mechanisms"));  // librdkafka's name
  if (mechanism.empty()) mechanism = "GSSAPI";  // Java's default, and librdkafka's
  std::optional<JaasLoginModule> jaas;
  auto security_key = [](const std::string& key) -> const SecurityKey* {
    for (const SecurityKey& k : SecurityKeys()) {
      if (key == k.key) return &k;
    }
    return nullptr;
  };
  for (const auto& [key, value] : java) {
    if (Dropped().count(key) != 0 || IsOAuthBearerKey(key) || IsKerberosKey(key)) continue;
    if (const SecurityKey* security = security_key(key)) {
      if (!security->acceptable(value)) {
        out.errors.push_back(key + "=" + value + " is not supported: " + security->refusal);
      }
      continue;
    }
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
      std::string error, username, password;
      jaas = ParseJaasConfig(value, error);
      if (!jaas) {
        if (sasl) out.errors.push_back(error);
      } else if (std::string refusal = LoginModuleRefusal(jaas->class_name);
                 sasl && !refusal.empty()) {
        out.errors.push_back("sasl.jaas.config: " + refusal);
        jaas.reset();
      } else if (UserAndPassword(*jaas, username, password)) {
        out.properties["sasl.username"] = username;
        out.properties["sasl.password"] = password;
      } else if (sasl && mechanism != "OAUTHBEARER" && mechanism != "GSSAPI") {
        out.errors.push_back(
            "sasl.jaas.config: sasl.mechanism=" + mechanism +
            " needs PlainLoginModule or ScramLoginModule with username and password");
      }
    } else if (key == "ssl.endpoint.identification.algorithm") {
      out.properties[key] = value.empty() ? "none" : Lower(value);
    } else if (key == "ssl.truststore.location" || key == "ssl.truststore.certificates" ||
               key == "ssl.keystore.location" || key == "ssl.keystore.certificate.chain" ||
               key == "ssl.keystore.key" || key == "ssl.truststore.type" ||
               key == "ssl.keystore.type" || key == "ssl.truststore.password" ||
               key == "ssl.keystore.password" || key == "ssl.key.password") {
      continue;  // TranslateStores, below
    } else if (key == "ssl.cipher.suites") {
      if (std::optional<std::string> suites = OpenSslCipherList(value, out.errors)) {
        out.properties[key] = *suites;
      }
    } else if (IgnoredJavaKeys().count(key) != 0) {
      out.warnings.push_back("The configuration '" + key +
                             "' has no effect on connectd's Kafka clients; ignored");
    } else if (FindLibrdkafkaProperty(key) == nullptr && UnknownKeysIgnored()) {
      out.warnings.push_back("The configuration '" + key +
                             "' was supplied but isn't a known config; ignored");
    } else if (std::string refusal = LibrdkafkaPropertyRefusal(key, value); !refusal.empty()) {
      out.errors.push_back(refusal);
    } else {
      out.properties[key] = value;
    }
  }
  if (tls) TranslateStores(java, out);
  if (sasl && mechanism == "GSSAPI") {
    if (jaas) {
      TranslateKerberos(java, *jaas, out);
    } else if (java.count("sasl.jaas.config") == 0) {
      // Without a JAAS config, librdkafka's own Kerberos keys (passed on) or its defaults.
      if (java.count("sasl.kerberos.service.name") != 0) {
        out.properties["sasl.kerberos.service.name"] = java.at("sasl.kerberos.service.name");
      }
    }
  }
  if (sasl && mechanism == "OAUTHBEARER") {
    if (jaas) {
      TranslateOAuthBearer(java, *jaas, out);
    } else if (java.count("sasl.jaas.config") == 0) {
      out.errors.push_back(
          "sasl.jaas.config is required for sasl.mechanism=OAUTHBEARER (connectd reads no JAAS "
          "file): org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;");
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
  RefuseWhatIsNotAllowed(out);
  return out;
}

bool IsKafkaClientConfig(const std::string& key) {
  static const auto* handled = new std::set<std::string>{"sasl.jaas.config",
                                                         "ssl.endpoint.identification.algorithm",
                                                         "ssl.truststore.location",
                                                         "ssl.truststore.certificates",
                                                         "ssl.keystore.location",
                                                         "ssl.keystore.certificate.chain",
                                                         "ssl.keystore.key",
                                                         "ssl.truststore.type",
                                                         "ssl.keystore.type",
                                                         "ssl.truststore.password",
                                                         "ssl.keystore.password",
                                                         "ssl.key.password",
                                                         "ssl.cipher.suites",
                                                         "buffer.memory",
                                                         "partition.assignment.strategy",
                                                         "request.timeout.ms"};
  if (handled->count(key) != 0 || Dropped().count(key) != 0 || Renamed().count(key) != 0 ||
      IgnoredJavaKeys().count(key) != 0 || IsOAuthBearerKey(key) || IsKerberosKey(key)) {
    return true;
  }
  for (const SecurityKey& k : SecurityKeys()) {
    if (key == k.key) return true;
  }
  return FindLibrdkafkaProperty(key) != nullptr;
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
