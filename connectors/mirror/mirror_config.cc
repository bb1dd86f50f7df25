#include "connectors/mirror/mirror_config.h"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <set>
#include <utility>
#include <vector>

#include "connectors/mirror_client/client_props.h"
#include "connectors/mirror_client/filters.h"
#include "jvm/java_client_config.h"

namespace connectd::mirror {
namespace {

using sdk::ConfigKey;

// The SSL and SASL client keys Kafka's MirrorConnectorConfig adds to all three connectors'
// config() (ConfigDef.withClientSslSupport().withClientSaslSupport()), so that validation lists
// them as Java does and hides the PASSWORD ones. Like Java's, the connectors never read them
// unprefixed: the clients take `source.cluster.`/`target.cluster.` keys.
sdk::ConfigDef WithClientSecurityKeys(sdk::ConfigDef def) {
  constexpr double kNoRange = std::numeric_limits<double>::quiet_NaN();
  struct Row {
    const char* name;
    ConfigKey::Type type;
    const char* default_value;
    ConfigKey::Importance importance;
    double min, max;
    const char* doc;
  };
  static const Row kRows[] = {
#include "connectors/mirror/client_security_keys.inc"
  };
  for (const Row& row : kRows) {
    ConfigKey key(row.name, row.type);
    if (row.default_value != nullptr) {
      key.withDefault(row.default_value);
    } else {
      key.withNullDefault();
    }
    key.importance(row.importance).doc(row.doc);
    if (!std::isnan(row.min)) key.between(row.min, row.max);
    def.define(std::move(key));
  }
  return def;
}

sdk::ConfigDef Common() {
  return WithClientSecurityKeys(sdk::ConfigDef())
      .define(ConfigKey("enabled", ConfigKey::kBoolean)
                  .withDefault("true")
                  .importance(ConfigKey::kLow)
                  .doc("Whether to replicate source->target."))
      .define(ConfigKey("source.cluster.alias", ConfigKey::kString)
                  .withDefault("source")
                  .importance(ConfigKey::kHigh)
                  .doc("Alias of source cluster"))
      .define(ConfigKey("target.cluster.alias", ConfigKey::kString)
                  .withDefault("target")
                  .importance(ConfigKey::kHigh)
                  .doc("Alias of target cluster. Used in metrics reporting."))
      .define(ConfigKey("replication.policy.class", ConfigKey::kClass)
                  .withDefault("org.apache.kafka.connect.mirror.DefaultReplicationPolicy")
                  .importance(ConfigKey::kLow)
                  .doc("Class which defines the remote topic naming convention."))
      .define(ConfigKey("replication.policy.separator", ConfigKey::kString)
                  .withDefault(".")
                  .importance(ConfigKey::kLow)
                  .doc("Separator used in remote topic naming convention."))
      .define(
          ConfigKey("replication.policy.internal.topic.separator.enabled", ConfigKey::kBoolean)
              .withDefault("true")
              .importance(ConfigKey::kLow)
              .doc(
                  "Whether to use replication.policy.separator to control the names of topics used "
                  "for checkpoints and offset syncs."))
      .define(ConfigKey("admin.timeout.ms", ConfigKey::kLong)
                  .withDefault("60000")
                  .importance(ConfigKey::kLow)
                  .doc("Timeout for administrative tasks, e.g. detecting new topics."))
      .define(ConfigKey("offset-syncs.topic.location", ConfigKey::kString)
                  .withDefault("source")
                  .oneOf({"source", "target"})
                  .importance(ConfigKey::kLow)
                  .doc("The location (source/target) of the offset-syncs topic."))
      // connectd's flow health (runtime/mirror_maker/health/README.md): read by the worker, not by
      // the connectors. Java ignores unknown keys, so a Java worker accepts them too.
      .define(ConfigKey("health.stale.threshold.ms", ConfigKey::kLong)
                  .withNullDefault()
                  .importance(ConfigKey::kLow)
                  .doc("connectd flow health: a leg whose newest heartbeat arrived longer ago "
                       "than this is stalled. Default: 10 heartbeat intervals, at least 10000."))
      .define(ConfigKey("health.lag.threshold.ms", ConfigKey::kLong)
                  .withNullDefault()
                  .importance(ConfigKey::kLow)
                  .doc("connectd flow health: heartbeats that reach the target later than this "
                       "after they were emitted make the flow LAGGING. Default: 5 heartbeat "
                       "intervals, at least 5000."))
      .define(ConfigKey("health.clock.skew.tolerance.ms", ConfigKey::kLong)
                  .withDefault("5000")
                  .importance(ConfigKey::kLow)
                  .doc("connectd flow health: a heartbeat timestamp this far in the future, or a "
                       "negative latency this large, means SUSPECT CLOCK SKEW."))
      .define(ConfigKey("health.rebalance.window.ms", ConfigKey::kLong)
                  .withDefault("300000")
                  .importance(ConfigKey::kLow)
                  .doc("connectd flow health: the window in which assignment changes of the "
                       "flow's connectors and tasks are counted."))
      .define(ConfigKey("health.rebalance.threshold", ConfigKey::kInt)
                  .withDefault("3")
                  .importance(ConfigKey::kLow)
                  .doc("connectd flow health: this many assignment changes within the window make "
                       "the flow REBALANCING."));
}

// KIP-1280 (Kafka 4.3): the names the source and checkpoint tasks publish their metrics under.
ConfigKey MetricNamesFormats() {
  return ConfigKey("metric.names.formats", ConfigKey::kList)
      .withDefault("legacy")
      .importance(ConfigKey::kLow)
      .eachOneOf({"legacy", "new"})
      .doc(
          "Deprecated. The formats in which metrics are emitted: 'legacy' "
          "(kafka.connect.mirror:type=MirrorSourceConnector|MirrorCheckpointConnector,...), "
          "'new' (kafka.connect:type=plugins,connector=...,task=...,...), or both. connectd "
          "always also emits the legacy names, which its flow health reads.");
}

}  // namespace

sdk::ConfigDef MirrorSourceConfigDef() {
  return Common()
      .define(MetricNamesFormats())
      .define(ConfigKey("topics", ConfigKey::kList)
                  .withDefault(".*")
                  .importance(ConfigKey::kHigh)
                  .doc("Topics to replicate. Supports comma-separated topic names and regexes."))
      .define(ConfigKey("topics.exclude", ConfigKey::kList)
                  .withDefault(kTopicsExcludeDefault)
                  .importance(ConfigKey::kHigh)
                  .doc("Excluded topics. Supports comma-separated topic names and regexes."))
      .define(ConfigKey("config.properties.exclude", ConfigKey::kList)
                  .withDefault(kConfigPropertiesExcludeDefault)
                  .importance(ConfigKey::kHigh)
                  .doc("Topic config properties that should not be replicated."))
      .define(ConfigKey("consumer.poll.timeout.ms", ConfigKey::kLong)
                  .withDefault("1000")
                  .importance(ConfigKey::kLow)
                  .doc("Timeout when polling source cluster."))
      .define(ConfigKey("refresh.topics.enabled", ConfigKey::kBoolean)
                  .withDefault("true")
                  .importance(ConfigKey::kLow)
                  .doc("Whether to periodically check for new topics and partitions."))
      .define(ConfigKey("refresh.topics.interval.seconds", ConfigKey::kLong)
                  .withDefault("5")
                  .importance(ConfigKey::kLow)
                  .doc("Frequency of topic refresh (connectd default 5; Kafka's is 600)."))
      .define(ConfigKey("sync.topic.configs.enabled", ConfigKey::kBoolean)
                  .withDefault("true")
                  .importance(ConfigKey::kLow)
                  .doc("Whether to periodically configure remote topics to match their "
                       "corresponding upstream topics."))
      .define(ConfigKey("sync.topic.configs.interval.seconds", ConfigKey::kLong)
                  .withDefault("600")
                  .importance(ConfigKey::kLow)
                  .doc("Frequency of topic config sync."))
      .define(ConfigKey("sync.topic.acls.enabled", ConfigKey::kBoolean)
                  .withDefault("true")
                  .importance(ConfigKey::kLow)
                  .doc("Whether to periodically configure remote topic ACLs to match their "
                       "corresponding upstream topics."))
      .define(ConfigKey("sync.topic.acls.interval.seconds", ConfigKey::kLong)
                  .withDefault("600")
                  .importance(ConfigKey::kLow)
                  .doc("Frequency of topic ACL sync."))
      .define(ConfigKey("replication.factor", ConfigKey::kInt)
                  .withDefault("2")
                  .importance(ConfigKey::kLow)
                  .doc("Replication factor for newly created remote topics. Set -1 to use the "
                       "broker's default."))
      .define(ConfigKey("offset-syncs.topic.replication.factor", ConfigKey::kShort)
                  .withDefault("3")
                  .importance(ConfigKey::kLow)
                  .doc("Replication factor for offset-syncs topic."))
      .define(ConfigKey("offset.lag.max", ConfigKey::kLong)
                  .withDefault("100")
                  .importance(ConfigKey::kLow)
                  .doc("How out-of-sync a remote partition can be before it is resynced."))
      .define(ConfigKey("emit.offset-syncs.enabled", ConfigKey::kBoolean)
                  .withDefault("true")
                  .importance(ConfigKey::kLow)
                  .doc("Whether to store the new offset of the replicated records in offset-syncs "
                       "topic or not."))
      .define(ConfigKey("emit.offset-index.enabled", ConfigKey::kBoolean)
                  .withDefault("true")
                  .importance(ConfigKey::kLow)
                  .doc("connectd: whether to keep the exact offset index (runs of replicated "
                       "offsets) in the mm2-offset-index topic beside the offset-syncs topic, "
                       "so that checkpoints translate every committed offset exactly. Needs "
                       "emit.offset-syncs.enabled."))
      .define(ConfigKey("passthrough.enabled", ConfigKey::kBoolean)
                  .withDefault("true")
                  .importance(ConfigKey::kLow)
                  .doc("connectd: whether MirrorSource tasks let the worker copy their "
                       "partitions as record batches, without decompressing or re-encoding "
                       "them (pass-through), where the connector's config allows it (no "
                       "transforms, ByteArrayConverter, at-least-once delivery). false: every "
                       "record is consumed and produced one by one, as Java's MirrorSource."))
      .define(ConfigKey("heartbeats.replication.enabled", ConfigKey::kBoolean)
                  .withDefault("true")
                  .importance(ConfigKey::kLow)
                  .doc("Whether to replicate the heartbeats topics even when the topic filter does "
                       "not include them."));
}

sdk::ConfigDef MirrorHeartbeatConfigDef() {
  return Common()
      .define(ConfigKey("emit.heartbeats.enabled", ConfigKey::kBoolean)
                  .withDefault("true")
                  .importance(ConfigKey::kLow)
                  .doc("Whether to emit heartbeats to target cluster."))
      .define(ConfigKey("emit.heartbeats.interval.seconds", ConfigKey::kLong)
                  .withDefault("1")
                  .importance(ConfigKey::kLow)
                  .doc("Frequency of heartbeats."))
      .define(ConfigKey("heartbeats.topic.replication.factor", ConfigKey::kShort)
                  .withDefault("3")
                  .importance(ConfigKey::kLow)
                  .doc("Replication factor for heartbeats topic."))
      .define(
          ConfigKey("heartbeats.topic.location", ConfigKey::kString)
              .withDefault("source")
              .oneOf({"source", "target"})
              .importance(ConfigKey::kLow)
              .doc("connectd: where the flow's heartbeats are written. `source` (default) writes "
                   "them into the source cluster's heartbeats topic, so they travel with the "
                   "data and arrive on the target as <source>.heartbeats; `target` is "
                   "Kafka's placement (the target cluster's heartbeats topic)."));
}

sdk::ConfigDef MirrorCheckpointConfigDef() {
  return Common()
      .define(MetricNamesFormats())
      .define(
          ConfigKey("groups", ConfigKey::kList)
              .withDefault(".*")
              .importance(ConfigKey::kHigh)
              .doc("Consumer groups to replicate. Supports comma-separated group IDs and regexes."))
      .define(ConfigKey("groups.exclude", ConfigKey::kList)
                  .withDefault("console-consumer-.*, connect-.*, __.*")
                  .importance(ConfigKey::kHigh)
                  .doc("Exclude groups. Supports comma-separated group IDs and regexes."))
      .define(ConfigKey("topics", ConfigKey::kList)
                  .withDefault(".*")
                  .importance(ConfigKey::kHigh)
                  .doc("Topics to replicate."))
      .define(ConfigKey("topics.exclude", ConfigKey::kList)
                  .withDefault(kTopicsExcludeDefault)
                  .importance(ConfigKey::kHigh)
                  .doc("Excluded topics."))
      .define(ConfigKey("consumer.poll.timeout.ms", ConfigKey::kLong)
                  .withDefault("1000")
                  .importance(ConfigKey::kLow)
                  .doc("Timeout when polling source cluster."))
      .define(ConfigKey("refresh.groups.enabled", ConfigKey::kBoolean)
                  .withDefault("true")
                  .importance(ConfigKey::kLow)
                  .doc("Whether to periodically check for new consumer groups."))
      .define(ConfigKey("refresh.groups.interval.seconds", ConfigKey::kLong)
                  .withDefault("600")
                  .importance(ConfigKey::kLow)
                  .doc("Frequency of group refresh."))
      .define(ConfigKey("emit.checkpoints.enabled", ConfigKey::kBoolean)
                  .withDefault("true")
                  .importance(ConfigKey::kLow)
                  .doc("Whether to replicate consumer offsets to target cluster."))
      .define(ConfigKey("emit.checkpoints.interval.seconds", ConfigKey::kLong)
                  .withDefault("60")
                  .importance(ConfigKey::kLow)
                  .doc("Frequency of checkpoints."))
      .define(ConfigKey("sync.group.offsets.enabled", ConfigKey::kBoolean)
                  .withDefault("false")
                  .importance(ConfigKey::kLow)
                  .doc("Whether to periodically write the translated offsets to __consumer_offsets "
                       "topic in target cluster, as long as no active consumers in that group are "
                       "connected to the target cluster"))
      .define(ConfigKey("sync.group.offsets.interval.seconds", ConfigKey::kLong)
                  .withDefault("60")
                  .importance(ConfigKey::kLow)
                  .doc("Frequency of consumer group offset sync."))
      .define(ConfigKey("checkpoints.topic.replication.factor", ConfigKey::kShort)
                  .withDefault("3")
                  .importance(ConfigKey::kLow)
                  .doc("Replication factor for checkpoints topic."));
}

std::string GetString(const Props& props, const std::string& key, const std::string& fallback) {
  auto it = props.find(key);
  return it == props.end() ? fallback : it->second;
}

int64_t GetLong(const Props& props, const std::string& key, int64_t fallback) {
  auto it = props.find(key);
  if (it == props.end()) return fallback;
  char* end = nullptr;
  long long v = std::strtoll(it->second.c_str(), &end, 10);
  return end == it->second.c_str() ? fallback : v;
}

bool GetBool(const Props& props, const std::string& key, bool fallback) {
  auto it = props.find(key);
  if (it == props.end()) return fallback;
  std::string v;
  for (char c : it->second) {
    if (c != ' ') v.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  return v == "true" ? true : v == "false" ? false : fallback;
}

void ValidateForwardingAdmin(const Props& props, sdk::Validation& validation) {
  static constexpr char kKey[] = "forwarding.admin.class";
  static constexpr char kDefault[] = "org.apache.kafka.clients.admin.ForwardingAdmin";
  auto it = props.find(kKey);
  if (it == props.end() || it->second.empty() || it->second == kDefault) return;
  validation.addError(kKey, "connectd cannot load the Java class " + it->second +
                                ": its MirrorMaker connectors make their admin calls themselves "
                                "(remove the setting, or run this flow on Java MirrorMaker 2)");
}

void ValidateClientConfigs(const Props& props, sdk::Validation& validation) {
  std::set<std::pair<std::string, std::string>> reported;
  for (const char* side : {"source", "target"}) {
    for (const auto& [role, client_role] : {std::pair{"consumer", jvm::ClientRole::kConsumer},
                                            std::pair{"producer", jvm::ClientRole::kProducer},
                                            std::pair{"admin", jvm::ClientRole::kAdmin}}) {
      const Props client = ClientProps(props, side, role);
      bool referenced = false;
      for (const auto& [key, value] : client) referenced |= value.find("${") != std::string::npos;
      if (referenced) continue;
      // The connector keys each client key came from (client_props.h's prefixes).
      std::vector<std::pair<std::string, std::string>> origins;  // client key, connector key
      for (const auto& [key, value] : client) {
        for (const std::string& prefix : {std::string(side) + ".cluster.", std::string(role) + ".",
                                          std::string(side) + "." + role + "."}) {
          if (props.count(prefix + key) != 0) origins.emplace_back(key, prefix + key);
        }
      }
      for (const std::string& error : jvm::TranslateJavaClientConfig(client, client_role).errors) {
        std::vector<std::string> keys;
        for (const auto& [client_key, connector_key] : origins) {
          if (error.find(client_key) != std::string::npos) keys.push_back(connector_key);
        }
        if (keys.empty()) {  // the settings together: the security ones carry it
          for (const auto& [client_key, connector_key] : origins) {
            if (client_key.rfind("sasl.", 0) == 0 || client_key == "security.protocol") {
              keys.push_back(connector_key);
            }
          }
        }
        if (keys.empty()) keys.push_back(std::string(side) + ".cluster.bootstrap.servers");
        for (const std::string& key : keys) {
          if (reported.insert({key, error}).second) validation.addError(key, key + ": " + error);
        }
      }
    }
  }
}

}  // namespace connectd::mirror
