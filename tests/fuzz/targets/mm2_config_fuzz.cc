// libFuzzer target: mm2.properties -> MirrorMakerConfig (runtime/mirror_maker/
// mirror_maker_config.h) and everything the dedicated MirrorMaker derives from it: the flows
// (ClusterPairs, HerderPairs), each herder's worker properties and the three connector configs.
// Properties checked: the flows are ordered pairs of distinct configured clusters, sorted;
// HerderPairs({}) is ClusterPairs or "no flows"; every worker config names its group and
// internal topics; every connector config names itself, its class and its clusters; the REST
// namespace of a flow is a URL path of two encoded segments.
//
// Hermetic on purpose: the fuzzed file's own config.providers* keys are dropped (a fuzzed
// FileConfigProvider would read arbitrary files) and replaced by an EnvVarConfigProvider
// without allow-list, so ${env:...} references still resolve. Files with more than
// kMaxClusters clusters are parsed but not derived: n clusters give n*(n-1) flows by design
// (Java's too), which is a cost of the input, not a bug.
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/config/properties.h"
#include "runtime/mirror_maker/mirror_maker_config.h"
#include "tests/fuzz/targets/fuzz_check.h"

namespace mm = connectd::mirror_maker;

namespace {

constexpr size_t kMaxClusters = 12;

// The top-level keys copied into connector configs: connectd computes them from the loaded
// plugins (connector_config_names.h); any fixed set exercises the same derivation.
const std::set<std::string>& ConnectorConfigNames() {
  static const std::set<std::string>* names = [] {
    auto* set = new std::set<std::string>(mm::ClientConfigNames());
    for (const char* name :
         {"name", "connector.class", "tasks.max", "topics", "topics.exclude", "groups",
          "groups.exclude", "emit.heartbeats.enabled", "emit.checkpoints.enabled",
          "sync.group.offsets.enabled", "sync.topic.configs.enabled", "sync.topic.acls.enabled",
          "replication.factor", "offset-syncs.topic.location", "heartbeats.topic.location",
          "refresh.topics.interval.seconds", "key.converter", "value.converter"}) {
      set->insert(name);
    }
    return set;
  }();
  return *names;
}

bool IsPathChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
         c == '-' || c == '*' || c == '_' || c == '%' || c == '/';
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<connectd::config::Properties> parsed = connectd::config::ParseProperties(text);
  if (!parsed.ok()) return 0;
  mm::Properties properties;
  for (auto& [key, value] : *parsed) {
    if (key.rfind("config.providers", 0) != 0) properties.emplace(key, value);
  }
  properties["config.providers"] = "env";
  properties["config.providers.env.class"] =
      "org.apache.kafka.common.config.provider.EnvVarConfigProvider";

  absl::StatusOr<mm::MirrorMakerConfig> config = mm::MirrorMakerConfig::Create(properties);
  if (!config.ok()) {
    FUZZ_CHECK(config.status().code() == absl::StatusCode::kInvalidArgument);
    return 0;
  }
  if (config->clusters().size() > kMaxClusters) return 0;

  std::vector<mm::SourceAndTarget> pairs = config->ClusterPairs();
  for (size_t i = 0; i < pairs.size(); ++i) {
    const mm::SourceAndTarget& pair = pairs[i];
    FUZZ_CHECK(pair.source != pair.target);
    FUZZ_CHECK(config->clusters().count(pair.source) == 1);
    FUZZ_CHECK(config->clusters().count(pair.target) == 1);
    if (i > 0) FUZZ_CHECK(pairs[i - 1] < pair);
  }
  absl::StatusOr<std::vector<mm::SourceAndTarget>> herders = config->HerderPairs({});
  FUZZ_CHECK(herders.ok() == !pairs.empty());
  if (herders.ok()) FUZZ_CHECK(*herders == pairs);
  if (!config->clusters().empty()) {
    const std::string& first = *config->clusters().begin();
    absl::StatusOr<std::vector<mm::SourceAndTarget>> into_first = config->HerderPairs({first});
    if (into_first.ok()) {
      for (const mm::SourceAndTarget& pair : *into_first) FUZZ_CHECK(pair.target == first);
    }
  }

  for (const std::string& alias : config->clusters()) (void)config->ClusterProps(alias);
  for (const mm::SourceAndTarget& pair : pairs) {
    std::string path = mm::RestNamespacePath(pair);
    FUZZ_CHECK(!path.empty() && path[0] == '/');
    for (char c : path) FUZZ_CHECK(IsPathChar(c));

    absl::StatusOr<mm::Properties> worker = config->WorkerProperties(pair);
    if (worker.ok()) {
      for (const char* key :
           {"client.id", "group.id", "offset.storage.topic", "status.storage.topic",
            "config.storage.topic", "key.converter", "value.converter", "header.converter"}) {
        FUZZ_CHECK(worker->count(key) == 1);
      }
    }
    for (mm::MirrorConnector connector : mm::kMirrorConnectors) {
      mm::Properties props = config->ConnectorConfig(pair, connector, ConnectorConfigNames());
      for (const char* key :
           {"name", "connector.class", "source.cluster.alias", "target.cluster.alias", "enabled"}) {
        FUZZ_CHECK(props.count(key) == 1);
      }
    }
  }
  return 0;
}
