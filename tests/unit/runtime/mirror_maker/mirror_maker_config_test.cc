// MirrorMakerConfig against Java's: the flows, worker configs and connector configs Kafka's own
// MirrorMakerConfig (connect-mirror 4.3.1) derives from the mm2.properties files in
// tests/golden/mirror_maker, compared key by key; plus `--clusters`, the startup errors and the
// REST namespace. The connector-config key filter comes from the real MirrorMaker plugins in
// build/plugins.
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "runtime/config/properties.h"
#include "runtime/mirror_maker/connector_config_names.h"
#include "runtime/mirror_maker/mirror_maker_config.h"
#include "runtime/plugin/plugin_registry.h"

namespace connectd::mirror_maker {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

std::string Dir(const char* env, const char* compiled) {
  const char* value = std::getenv(env);
  return value != nullptr && *value != '\0' ? value : compiled;
}

std::string GoldenDir() {
  return Dir("CONNECTD_SOURCE_DIR", CONNECTD_SOURCE_DIR) + "/tests/golden/mirror_maker/";
}

// What Java derived from one input file (GenerateMirrorMakerGolden.java's output).
struct Golden {
  std::set<std::string> names;
  std::set<std::string> client;
  std::set<std::string> clusters;
  std::vector<std::string> pairs;
  std::map<std::string, Properties> worker;                            // by "A->B"
  std::map<std::string, std::map<std::string, Properties>> connector;  // "A->B" -> name -> config
};

Golden ReadGolden(const std::string& name) {
  std::ifstream in(GoldenDir() + name + ".golden.tsv");
  EXPECT_TRUE(in.good()) << name;
  Golden golden;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f = absl::StrSplit(line, '\t');
    if (f[0] == "names") golden.names.insert(f[1]);
    if (f[0] == "client") golden.client.insert(f[1]);
    if (f[0] == "clusters") golden.clusters.insert(f[1]);
    if (f[0] == "pair") golden.pairs.push_back(f[1]);
    if (f[0] == "worker") golden.worker[f[1]][f[2]] = f.size() > 3 ? f[3] : "";
    if (f[0] == "connector") golden.connector[f[1]][f[2]][f[3]] = f.size() > 4 ? f[4] : "";
  }
  return golden;
}

MirrorMakerConfig Load(const std::string& name) {
  absl::StatusOr<config::Properties> props =
      config::LoadPropertiesFile(GoldenDir() + name + ".properties");
  EXPECT_TRUE(props.ok()) << props.status();
  absl::StatusOr<MirrorMakerConfig> config = MirrorMakerConfig::Create(*props);
  EXPECT_TRUE(config.ok()) << config.status();
  return *std::move(config);
}

// Every key of `expected` and `actual`, one expectation each, naming `what` and the key.
void ExpectSameMap(const std::string& what, const Properties& expected, const Properties& actual) {
  for (const auto& [key, value] : expected) {
    auto it = actual.find(key);
    if (it == actual.end()) {
      ADD_FAILURE() << what << ": missing " << key << "=" << value;
    } else {
      EXPECT_EQ(it->second, value) << what << ": " << key;
    }
  }
  for (const auto& [key, value] : actual) {
    EXPECT_TRUE(expected.count(key)) << what << ": unexpected " << key << "=" << value;
  }
}

std::vector<std::string> Names(const std::vector<SourceAndTarget>& pairs) {
  std::vector<std::string> out;
  for (const SourceAndTarget& pair : pairs) out.push_back(pair.ToString());
  return out;
}

class MirrorMakerConfigGoldenTest : public ::testing::TestWithParam<std::string> {
 protected:
  static void SetUpTestSuite() {
    setenv("MM2_GOLDEN_TRUSTSTORE_PASSWORD", "golden-secret", 1);
    plugins_ = new plugin::PluginRegistry();
    plugins_->LoadPluginPath(Dir("CONNECTD_BUILD_DIR", CONNECTD_BUILD_DIR) + "/plugins");
    names_ = new std::set<std::string>(ConnectorConfigNames(*plugins_));
  }
  static void TearDownTestSuite() {
    delete names_;
    delete plugins_;
  }
  static plugin::PluginRegistry* plugins_;
  static std::set<std::string>* names_;
};
plugin::PluginRegistry* MirrorMakerConfigGoldenTest::plugins_ = nullptr;
std::set<std::string>* MirrorMakerConfigGoldenTest::names_ = nullptr;

TEST_P(MirrorMakerConfigGoldenTest, FlowsWorkerAndConnectorConfigsMatchJava) {
  const Golden golden = ReadGolden(GetParam());
  const MirrorMakerConfig config = Load(GetParam());
  EXPECT_EQ(config.clusters(), golden.clusters);
  EXPECT_EQ(Names(config.ClusterPairs()), golden.pairs);
  for (const SourceAndTarget& pair : config.ClusterPairs()) {
    const std::string flow = pair.ToString();
    absl::StatusOr<Properties> worker = config.WorkerProperties(pair);
    ASSERT_TRUE(worker.ok()) << worker.status();
    ExpectSameMap(flow + " worker", golden.worker.at(flow), *worker);
    for (MirrorConnector connector : kMirrorConnectors) {
      const std::string name = ConnectorName(connector);
      Properties expected = golden.connector.at(flow).at(name);
      // connectd's one addition: Java's heartbeat placement, written down (mirror_maker_config.h).
      if (connector == MirrorConnector::kHeartbeat) {
        expected.emplace("heartbeats.topic.location", "target");
      }
      ExpectSameMap(flow + " " + name, expected, config.ConnectorConfig(pair, connector, *names_));
    }
  }
}

TEST_P(MirrorMakerConfigGoldenTest, KeySetsMatchJava) {
  const Golden golden = ReadGolden(GetParam());
  if (golden.names.empty()) GTEST_FAIL() << "no names in " << GetParam();
  EXPECT_EQ(ClientConfigNames(), golden.client);
  // Every name Java copies is copied; the only extras are keys that exist only in connectd's
  // plugins (heartbeat placement, flow-health thresholds, the exact offset index) and the two SASL
  // keys kafka-clients 4.4.0 added to withClientSaslSupport() (the golden maps come from
  // MirrorMaker 4.3.1).
  for (const std::string& name : golden.names) {
    EXPECT_TRUE(names_->count(name)) << "Java copies top-level " << name << ", connectd does not";
  }
  for (const std::string& name : *names_) {
    if (golden.names.count(name)) continue;
    EXPECT_TRUE(name == "heartbeats.topic.location" || absl::StartsWith(name, "health.") ||
                name == "emit.offset-index.enabled" || name == "passthrough.enabled" ||
                name == "sasl.oauthbearer.allow.unverified.audience" ||
                name == "sasl.oauthbearer.allow.unverified.issuer")
        << "connectd copies top-level " << name << ", Java does not";
  }
}

INSTANTIATE_TEST_SUITE_P(Files, MirrorMakerConfigGoldenTest,
                         ::testing::Values("three-clusters", "heartbeats-off",
                                           "two-pairs-heartbeats-off", "lenient-enabled",
                                           "realistic"),
                         [](const auto& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

TEST(MirrorMakerConfigTest, PairRules) {
  // 3 clusters -> 6 herders; heartbeats off everywhere -> 0; two pairs off -> 4.
  EXPECT_EQ(Load("three-clusters").ClusterPairs().size(), 6u);
  EXPECT_THAT(Load("heartbeats-off").ClusterPairs(), IsEmpty());
  EXPECT_THAT(Names(Load("two-pairs-heartbeats-off").ClusterPairs()),
              ElementsAre("A->C", "B->A", "C->A", "C->B"));
  // TRUE enables, yes does not; a flow's heartbeat setting beats the global one.
  EXPECT_THAT(Names(Load("lenient-enabled").ClusterPairs()), ElementsAre("A->C", "B->C", "C->A"));
}

TEST(MirrorMakerConfigTest, ClustersOptionKeepsFlowsByTarget) {
  const MirrorMakerConfig config = Load("three-clusters");
  absl::StatusOr<std::vector<SourceAndTarget>> to_b = config.HerderPairs({"B"});
  ASSERT_TRUE(to_b.ok());
  EXPECT_THAT(Names(*to_b), ElementsAre("A->B", "C->B"));
  absl::StatusOr<std::vector<SourceAndTarget>> to_a_c = config.HerderPairs({"C", "A", "C"});
  ASSERT_TRUE(to_a_c.ok());
  EXPECT_THAT(Names(*to_a_c), ElementsAre("A->C", "B->A", "B->C", "C->A"));
  absl::StatusOr<std::vector<SourceAndTarget>> all = config.HerderPairs({});
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 6u);
  absl::StatusOr<std::vector<SourceAndTarget>> unknown = config.HerderPairs({"D"});
  EXPECT_EQ(unknown.status().message(), "No source->target replication flows.");
}

TEST(MirrorMakerConfigTest, NoFlowsIsJavasStartupError) {
  absl::StatusOr<std::vector<SourceAndTarget>> pairs = Load("heartbeats-off").HerderPairs({});
  EXPECT_TRUE(absl::IsInvalidArgument(pairs.status()));
  EXPECT_EQ(pairs.status().message(), "No source->target replication flows.");
}

TEST(MirrorMakerConfigTest, InvalidFilesFailWithJavasMessages) {
  EXPECT_EQ(MirrorMakerConfig::Create({{"A.bootstrap.servers", "a:9092"}}).status().message(),
            "Missing required configuration \"clusters\" which has no default value.");
  EXPECT_EQ(MirrorMakerConfig::Create(
                {{"clusters", "A,B"}, {"dedicated.mode.enable.internal.rest", "yes"}})
                .status()
                .message(),
            "Invalid value yes for configuration dedicated.mode.enable.internal.rest: Expected "
            "value to be either true or false");
  EXPECT_EQ(
      MirrorMakerConfig::Create({{"clusters", "A,B"}, {"security.protocol", "TLS"}})
          .status()
          .message(),
      "Invalid value TLS for configuration security.protocol: String must be one of: PLAINTEXT, "
      "SSL, SASL_PLAINTEXT, SASL_SSL");
  absl::StatusOr<MirrorMakerConfig> rest = MirrorMakerConfig::Create(
      {{"clusters", " A , B "}, {"dedicated.mode.enable.internal.rest", " TRUE "}});
  ASSERT_TRUE(rest.ok()) << rest.status();
  EXPECT_TRUE(rest->enable_internal_rest());
  EXPECT_EQ(rest->clusters(), (std::set<std::string>{"A", "B"}));
}

TEST(MirrorMakerConfigTest, RestNamespaceIsJavasEncodedPath) {
  EXPECT_EQ(RestNamespacePath({"A", "B"}), "/A/B");
  EXPECT_EQ(RestNamespacePath({"my cluster", "x.y-z_*"}), "/my%20cluster/x.y-z_*");
  EXPECT_EQ(RestNamespacePath({"a+b/c", "t\xc3\xa9"}), "/a%2Bb%2Fc/t%C3%A9");
}

TEST(MirrorMakerConfigTest, FlowOverridesBeatEverythingAndReachOnlyTheirFlow) {
  absl::StatusOr<MirrorMakerConfig> config = MirrorMakerConfig::Create({
      {"clusters", "A, B"},
      {"A.bootstrap.servers", "a:1"},
      {"B.bootstrap.servers", "b:1"},
      {"tasks.max", "2"},
      {"A->B.tasks.max", "8"},
      {"A->B.name", "custom"},
      {"A->B.source.cluster.bootstrap.servers", "a-override:1"},
      {"use.defaults.from", "source"},
      {"A->B.enabled", "true"},
  });
  ASSERT_TRUE(config.ok());
  std::set<std::string> names = {"tasks.max"};
  Properties ab = config->ConnectorConfig({"A", "B"}, MirrorConnector::kSource, names);
  EXPECT_EQ(ab.at("tasks.max"), "8");
  EXPECT_EQ(ab.at("name"), "custom");
  EXPECT_EQ(ab.at("source.cluster.bootstrap.servers"), "a-override:1");
  EXPECT_EQ(ab.at("enabled"), "true");
  EXPECT_FALSE(ab.count("use.defaults.from"));  // not a connector ConfigDef key
  Properties ba = config->ConnectorConfig({"B", "A"}, MirrorConnector::kSource, names);
  EXPECT_EQ(ba.at("tasks.max"), "2");
  EXPECT_EQ(ba.at("name"), "MirrorSourceConnector");
  EXPECT_EQ(ba.at("enabled"), "false");
  EXPECT_EQ(ba.at("source.cluster.bootstrap.servers"), "b:1");
}

TEST(MirrorMakerConfigTest, ProviderReferencesResolvedForWorkersOnly) {
  setenv("MM2_UNIT_SECRET", "s3cret", 1);
  absl::StatusOr<MirrorMakerConfig> config = MirrorMakerConfig::Create({
      {"clusters", "A, B"},
      {"config.providers", "env"},
      {"config.providers.env.class",
       "org.apache.kafka.common.config.provider.EnvVarConfigProvider"},
      {"B.bootstrap.servers", "b:1"},
      {"B.sasl.jaas.config", "${env:MM2_UNIT_SECRET}"},
  });
  ASSERT_TRUE(config.ok()) << config.status();
  absl::StatusOr<Properties> worker = config->WorkerProperties({"A", "B"});
  ASSERT_TRUE(worker.ok());
  EXPECT_EQ(worker->at("sasl.jaas.config"), "s3cret");
  EXPECT_EQ(worker->at("producer.sasl.jaas.config"), "s3cret");
  EXPECT_EQ(worker->at("config.providers"), "env");
  Properties connector = config->ConnectorConfig({"A", "B"}, MirrorConnector::kSource, {});
  EXPECT_EQ(connector.at("target.cluster.sasl.jaas.config"), "${env:MM2_UNIT_SECRET}");
}

}  // namespace
}  // namespace connectd::mirror_maker
