#include "runtime/mirror_maker/mirror_maker_config.h"

#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "jvm/java_text.h"
#include "runtime/config/config_def.h"

namespace connectd::mirror_maker {
namespace {

constexpr char kByteArrayConverter[] = "org.apache.kafka.connect.converters.ByteArrayConverter";

// Java's Utils.entriesWithPrefix(map, prefix, strip, allowMatchingLength).
Properties EntriesWithPrefix(const Properties& props, const std::string& prefix, bool strip,
                             bool allow_matching_length) {
  Properties out;
  for (auto it = props.lower_bound(prefix); it != props.end(); ++it) {
    const std::string& key = it->first;
    if (!absl::StartsWith(key, prefix)) break;
    if (!allow_matching_length && key.size() == prefix.size()) continue;
    out[strip ? key.substr(prefix.size()) : key] = it->second;
  }
  return out;
}

void PutAll(Properties& into, const Properties& from) {
  for (const auto& [key, value] : from) into[key] = value;
}

void PutIfAbsent(Properties& into, const std::string& key, const std::string& value) {
  into.emplace(key, value);
}

// Java's Boolean.parseBoolean: exactly "true" in any case, no trimming.
bool ParseBooleanLeniently(const Properties& props, const std::string& key, bool fallback) {
  auto it = props.find(key);
  if (it == props.end()) return fallback;
  return absl::EqualsIgnoreCase(it->second, "true");
}

// The keys MirrorMakerConfig's connector derivation sends to the client side of a cluster:
// Java's regex (^consumer.*|^producer.*|^admin.*) over the whole key.
bool IsClientKey(const std::string& key) {
  return absl::StartsWith(key, "consumer") || absl::StartsWith(key, "producer") ||
         absl::StartsWith(key, "admin");
}

// java.net.URLEncoder.encode(s, UTF-8) with '+' then replaced by %20, as Java builds the path.
std::string JavaUrlEncodePath(const std::string& s) {
  return absl::StrReplaceAll(jvm::JavaUrlEncode(s), {{"+", "%20"}});
}

}  // namespace

std::string RestNamespacePath(const SourceAndTarget& flow) {
  return "/" + JavaUrlEncodePath(flow.source) + "/" + JavaUrlEncodePath(flow.target);
}

std::string ConnectorName(MirrorConnector connector) {
  switch (connector) {
    case MirrorConnector::kSource:
      return "MirrorSourceConnector";
    case MirrorConnector::kCheckpoint:
      return "MirrorCheckpointConnector";
    case MirrorConnector::kHeartbeat:
      return "MirrorHeartbeatConnector";
  }
  return "";
}

std::string ConnectorClass(MirrorConnector connector) {
  return "org.apache.kafka.connect.mirror." + ConnectorName(connector);
}

const std::set<std::string>& ClientConfigNames() {
  // MirrorClientConfig.CLIENT_CONFIG_DEF of connect-mirror-client 4.3.1:
  // bootstrap.servers, security.protocol, ConfigDef.withClientSslSupport() and
  // withClientSaslSupport(). MirrorMakerConfigGoldenTest checks this list against Java's.
  static const std::set<std::string> kNames = {
      "bootstrap.servers",
      "security.protocol",
      "ssl.cipher.suites",
      "ssl.enabled.protocols",
      "ssl.endpoint.identification.algorithm",
      "ssl.engine.factory.class",
      "ssl.key.password",
      "ssl.keymanager.algorithm",
      "ssl.keystore.certificate.chain",
      "ssl.keystore.key",
      "ssl.keystore.location",
      "ssl.keystore.password",
      "ssl.keystore.type",
      "ssl.protocol",
      "ssl.provider",
      "ssl.secure.random.implementation",
      "ssl.trustmanager.algorithm",
      "ssl.truststore.certificates",
      "ssl.truststore.location",
      "ssl.truststore.password",
      "ssl.truststore.type",
      "sasl.client.callback.handler.class",
      "sasl.jaas.config",
      "sasl.kerberos.kinit.cmd",
      "sasl.kerberos.min.time.before.relogin",
      "sasl.kerberos.service.name",
      "sasl.kerberos.ticket.renew.jitter",
      "sasl.kerberos.ticket.renew.window.factor",
      "sasl.login.callback.handler.class",
      "sasl.login.class",
      "sasl.login.connect.timeout.ms",
      "sasl.login.read.timeout.ms",
      "sasl.login.refresh.buffer.seconds",
      "sasl.login.refresh.min.period.seconds",
      "sasl.login.refresh.window.factor",
      "sasl.login.refresh.window.jitter",
      "sasl.login.retry.backoff.max.ms",
      "sasl.login.retry.backoff.ms",
      "sasl.mechanism",
      "sasl.oauthbearer.assertion.algorithm",
      "sasl.oauthbearer.assertion.claim.aud",
      "sasl.oauthbearer.assertion.claim.exp.seconds",
      "sasl.oauthbearer.assertion.claim.iss",
      "sasl.oauthbearer.assertion.claim.jti.include",
      "sasl.oauthbearer.assertion.claim.nbf.seconds",
      "sasl.oauthbearer.assertion.claim.sub",
      "sasl.oauthbearer.assertion.file",
      "sasl.oauthbearer.assertion.private.key.file",
      "sasl.oauthbearer.assertion.private.key.passphrase",
      "sasl.oauthbearer.assertion.template.file",
      "sasl.oauthbearer.client.credentials.client.id",
      "sasl.oauthbearer.client.credentials.client.secret",
      "sasl.oauthbearer.clock.skew.seconds",
      "sasl.oauthbearer.expected.audience",
      "sasl.oauthbearer.expected.issuer",
      "sasl.oauthbearer.header.urlencode",
      "sasl.oauthbearer.jwks.endpoint.refresh.ms",
      "sasl.oauthbearer.jwks.endpoint.retry.backoff.max.ms",
      "sasl.oauthbearer.jwks.endpoint.retry.backoff.ms",
      "sasl.oauthbearer.jwks.endpoint.url",
      "sasl.oauthbearer.jwt.retriever.class",
      "sasl.oauthbearer.jwt.validator.class",
      "sasl.oauthbearer.scope",
      "sasl.oauthbearer.scope.claim.name",
      "sasl.oauthbearer.sub.claim.name",
      "sasl.oauthbearer.token.endpoint.url",
  };
  return kNames;
}

absl::StatusOr<MirrorMakerConfig> MirrorMakerConfig::Create(Properties properties) {
  MirrorMakerConfig config;
  config.raw_ = std::move(properties);
  const Properties& raw = config.raw_;

  auto clusters = raw.find("clusters");
  if (clusters == raw.end()) {
    return absl::InvalidArgumentError(
        "Missing required configuration \"clusters\" which has no default value.");
  }
  for (const std::string& alias : config::SplitList(clusters->second)) {
    config.clusters_.insert(alias);
  }

  if (auto rest = raw.find("dedicated.mode.enable.internal.rest"); rest != raw.end()) {
    std::string value(absl::StripAsciiWhitespace(rest->second));
    if (absl::EqualsIgnoreCase(value, "true")) {
      config.enable_internal_rest_ = true;
    } else if (!absl::EqualsIgnoreCase(value, "false")) {
      return absl::InvalidArgumentError(
          absl::StrCat("Invalid value ", rest->second,
                       " for configuration dedicated.mode.enable.internal.rest: Expected value to "
                       "be either true or false"));
    }
  }

  if (auto protocol = raw.find("security.protocol"); protocol != raw.end()) {
    std::string value(absl::StripAsciiWhitespace(protocol->second));
    if (value != "PLAINTEXT" && value != "SSL" && value != "SASL_PLAINTEXT" &&
        value != "SASL_SSL") {
      return absl::InvalidArgumentError(
          absl::StrCat("Invalid value ", protocol->second,
                       " for configuration security.protocol: String must be one of: PLAINTEXT, "
                       "SSL, SASL_PLAINTEXT, SASL_SSL"));
    }
  }

  absl::StatusOr<config::ConfigProviders> providers = config::ConfigProviders::Create(raw);
  if (!providers.ok()) return providers.status();
  config.providers_ = *std::move(providers);
  return config;
}

std::vector<SourceAndTarget> MirrorMakerConfig::ClusterPairs() const {
  const bool global_heartbeats = ParseBooleanLeniently(raw_, "emit.heartbeats.enabled", true);
  std::vector<SourceAndTarget> pairs;
  for (const std::string& source : clusters_) {
    for (const std::string& target : clusters_) {
      if (source == target) continue;
      const std::string prefix = source + "->" + target + ".";
      const bool enabled = ParseBooleanLeniently(raw_, prefix + "enabled", false);
      const bool heartbeats =
          ParseBooleanLeniently(raw_, prefix + "emit.heartbeats.enabled", global_heartbeats);
      if (enabled || heartbeats) pairs.push_back(SourceAndTarget{source, target});
    }
  }
  return pairs;  // sorted: clusters_ is ordered
}

absl::StatusOr<std::vector<SourceAndTarget>> MirrorMakerConfig::HerderPairs(
    const std::vector<std::string>& targets) const {
  const std::set<std::string> wanted =
      targets.empty() ? clusters_ : std::set<std::string>(targets.begin(), targets.end());
  std::vector<SourceAndTarget> pairs;
  for (SourceAndTarget& pair : ClusterPairs()) {
    if (wanted.count(pair.target)) pairs.push_back(std::move(pair));
  }
  if (pairs.empty()) return absl::InvalidArgumentError("No source->target replication flows.");
  return pairs;
}

Properties MirrorMakerConfig::ClusterProps(const std::string& alias) const {
  Properties props = EntriesWithPrefix(raw_, alias + ".", /*strip=*/true,
                                       /*allow_matching_length=*/false);
  const std::set<std::string>& client_names = ClientConfigNames();
  Properties copies;
  for (const std::string& key : client_names) {
    auto it = props.find(key);
    if (it == props.end()) continue;
    for (const char* role : {"producer.", "consumer.", "admin."}) {
      copies.emplace(role + key, it->second);
    }
  }
  for (auto& [key, value] : copies) PutIfAbsent(props, key, value);
  for (const std::string& key : client_names) {
    auto it = raw_.find(key);
    if (it == raw_.end()) continue;
    for (const char* role : {"producer.", "consumer.", "admin."}) {
      PutIfAbsent(props, role + key, it->second);
    }
    PutIfAbsent(props, key, it->second);
  }
  return props;
}

absl::StatusOr<Properties> MirrorMakerConfig::WorkerProperties(const SourceAndTarget& pair) const {
  Properties props = ClusterProps(pair.target);
  // Top-level keys Java's driver accepts for every herder (prefix kept; "task" also takes
  // tasks.max, as in Java).
  for (const char* prefix :
       {"offset.storage", "config.storage", "status.storage", "key.converter", "value.converter",
        "header.converter", "task", "worker", "replication.policy"}) {
    PutAll(props, EntriesWithPrefix(raw_, prefix, /*strip=*/false, /*allow_matching_length=*/true));
  }
  absl::StatusOr<Properties> resolved = providers_.Transform(props);
  if (!resolved.ok()) return resolved.status();
  props = *std::move(resolved);
  PutAll(props, EntriesWithPrefix(raw_, "config.providers", false, true));

  PutIfAbsent(props, "client.id", pair.ToString());
  PutIfAbsent(props, "group.id", pair.source + "-mm2");
  PutIfAbsent(props, "offset.storage.topic", "mm2-offsets." + pair.source + ".internal");
  PutIfAbsent(props, "status.storage.topic", "mm2-status." + pair.source + ".internal");
  PutIfAbsent(props, "config.storage.topic", "mm2-configs." + pair.source + ".internal");
  PutIfAbsent(props, "key.converter", kByteArrayConverter);
  PutIfAbsent(props, "value.converter", kByteArrayConverter);
  PutIfAbsent(props, "header.converter", kByteArrayConverter);
  return props;
}

Properties MirrorMakerConfig::ConnectorConfig(
    const SourceAndTarget& pair, MirrorConnector connector,
    const std::set<std::string>& connector_config_names) const {
  Properties props;
  for (const auto& [key, value] : raw_) {
    if (connector_config_names.count(key)) props[key] = value;
  }
  PutAll(props, EntriesWithPrefix(raw_, "config.providers", false, true));
  PutAll(props, EntriesWithPrefix(raw_, "replication.policy", false, true));

  for (const auto& [side, alias] : {std::pair<std::string, std::string>{"source", pair.source},
                                    std::pair<std::string, std::string>{"target", pair.target}}) {
    for (const auto& [key, value] : ClusterProps(alias)) {
      props[IsClientKey(key) ? side + "." + key : side + ".cluster." + key] = value;
    }
  }

  PutIfAbsent(props, "name", ConnectorName(connector));
  PutIfAbsent(props, "connector.class", ConnectorClass(connector));
  PutIfAbsent(props, "source.cluster.alias", pair.source);
  PutIfAbsent(props, "target.cluster.alias", pair.target);

  PutAll(props, EntriesWithPrefix(raw_, pair.ToString() + ".", /*strip=*/true,
                                  /*allow_matching_length=*/false));
  PutIfAbsent(props, "enabled", "false");
  // connectd: Java's heartbeat placement unless the file chooses (see the header).
  if (connector == MirrorConnector::kHeartbeat) {
    PutIfAbsent(props, "heartbeats.topic.location", "target");
  }
  return props;
}

}  // namespace connectd::mirror_maker
