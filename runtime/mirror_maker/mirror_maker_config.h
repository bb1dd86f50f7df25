// File: mirror_maker_config.h
//
// MirrorMakerConfig: Java's `connect-mirror-maker.properties` (Kafka's MirrorMakerConfig), read
// unchanged, and what the dedicated MirrorMaker derives from it:
//   - the replication flows that get a herder (ClusterPairs, HerderPairs for `--clusters`);
//   - each herder's distributed-worker properties (WorkerProperties);
//   - the configs of the three connectors each herder's leader writes (ConnectorConfig).
// Every derivation follows Java's rules key by key (Kafka's MirrorMakerConfig); tests/golden/mirror_maker holds the maps Java's own class derives from sample files.
//
//   absl::StatusOr<MirrorMakerConfig> config = MirrorMakerConfig::Create(properties);
//   for (const SourceAndTarget& pair : *config->HerderPairs({})) {
//     absl::StatusOr<Properties> worker = config->WorkerProperties(pair);   // providers resolved
//     Properties source = config->ConnectorConfig(pair, MirrorConnector::kSource, names);
//   }
//
// One deliberate addition (docs/compatibility.md): the MirrorHeartbeatConnector config gets
// `heartbeats.topic.location=target` unless the file sets that key, so heartbeats land where
// Java's land and every cluster has Java's set of heartbeat topics.
//
// Thread safety: immutable after Create; every method is const and may run on any thread.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/config/config_providers.h"

namespace connectd::mirror_maker {

using Properties = std::map<std::string, std::string>;

// One replication flow, "A->B" (Java's SourceAndTarget).
struct SourceAndTarget {
  std::string source;
  std::string target;

  std::string ToString() const { return source + "->" + target; }
  friend bool operator<(const SourceAndTarget& a, const SourceAndTarget& b) {
    return a.source != b.source ? a.source < b.source : a.target < b.target;
  }
  friend bool operator==(const SourceAndTarget& a, const SourceAndTarget& b) {
    return a.source == b.source && a.target == b.target;
  }
};

// The flow's REST namespace, "/<src>/<tgt>" with each alias encoded as Java's MirrorMaker does
// (URLEncoder, UTF-8, then '+' as %20): the prefix of the internal endpoints its herder serves
// and of the paths its followers forward to. "A->B" gives "/A/B"; "my cluster" "my%20cluster".
std::string RestNamespacePath(const SourceAndTarget& flow);

// The three connectors every herder runs, by their fixed names (Java's simple class names).
enum class MirrorConnector { kSource, kCheckpoint, kHeartbeat };
inline constexpr MirrorConnector kMirrorConnectors[] = {
    MirrorConnector::kSource, MirrorConnector::kHeartbeat, MirrorConnector::kCheckpoint};
// "MirrorSourceConnector", ...: the connector's name in the herder's config topic.
std::string ConnectorName(MirrorConnector connector);
// "org.apache.kafka.connect.mirror.MirrorSourceConnector", ...: its connector.class.
std::string ConnectorClass(MirrorConnector connector);

// MirrorClientConfig's client-level keys (bootstrap.servers, security.protocol and Kafka 4.3's
// client SSL and SASL keys): the keys a cluster's settings share with its clients.
const std::set<std::string>& ClientConfigNames();

class MirrorMakerConfig {
 public:
  // Validates as Java's ConfigDef does: `clusters` required; dedicated.mode.enable.internal.rest
  // true/false (any case); security.protocol one of Kafka's protocols; config providers
  // loadable. kInvalidArgument with Java's message otherwise.
  static absl::StatusOr<MirrorMakerConfig> Create(Properties properties);

  // The aliases of `clusters`, as a set (order and duplicates do not matter).
  const std::set<std::string>& clusters() const { return clusters_; }
  bool enable_internal_rest() const { return enable_internal_rest_; }
  const Properties& originals() const { return raw_; }

  // Every ordered pair of distinct clusters whose flow is enabled (`<src>-><tgt>.enabled`, read as
  // Java's Boolean.parseBoolean) or whose heartbeats are on
  // (`<src>-><tgt>.emit.heartbeats.enabled`, else the top-level `emit.heartbeats.enabled`, else
  // true). Sorted.
  std::vector<SourceAndTarget> ClusterPairs() const;

  // ClusterPairs() whose target is in `targets` (`--clusters`; empty: every cluster).
  // kInvalidArgument "No source->target replication flows." when none is left, as Java.
  absl::StatusOr<std::vector<SourceAndTarget>> HerderPairs(
      const std::vector<std::string>& targets) const;

  // Java's clusterProps(alias): every `<alias>.*` key without the prefix, plus copies of its
  // client-level keys as producer./consumer./admin.*, then the top-level client-level keys
  // the same way and bare (each only where absent).
  Properties ClusterProps(const std::string& alias) const;

  // The distributed-worker properties of the herder for `pair` (Java's workerConfig): the
  // target's ClusterProps, the top-level offset.storage*, config.storage*, status.storage*,
  // key.converter*, value.converter*, header.converter*, task*, worker*, replication.policy*
  // keys, config-provider references resolved, config.providers* added, then the defaults
  // client.id=<src>-><tgt>, group.id=<src>-mm2, mm2-{offsets,status,configs}.<src>.internal and
  // ByteArrayConverter for keys, values and headers. Fails if a provider fails.
  absl::StatusOr<Properties> WorkerProperties(const SourceAndTarget& pair) const;

  // The config the leader of `pair`'s herder stores for `connector` (Java's connectorBaseConfig):
  // the top-level keys named in `connector_config_names` (the three connectors' ConfigDefs, see
  // connector_config_names.h), config.providers* and replication.policy*, the source's cluster
  // settings as source.cluster.* / source.{consumer,producer,admin}*, the target's as target.*,
  // name, connector.class and the aliases if absent, every `<src>-><tgt>.*` key unfiltered,
  // enabled=false if absent. Provider references stay unresolved (the worker resolves them).
  Properties ConnectorConfig(const SourceAndTarget& pair, MirrorConnector connector,
                             const std::set<std::string>& connector_config_names) const;

 private:
  MirrorMakerConfig() = default;

  Properties raw_;
  std::set<std::string> clusters_;
  bool enable_internal_rest_ = false;
  config::ConfigProviders providers_;
};

}  // namespace connectd::mirror_maker
