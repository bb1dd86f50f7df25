// MirrorCheckpointConnector/Task through the SDK's fake host, without any Kafka cluster: the
// descriptor, validation, disabled connectors, the retriable taskConfigs before groups are
// loaded, alterOffsets, and a task that starts and stops at once against an unreachable cluster.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <string>

#include "connectd/sdk/testing/fake_host.h"
#include "connectors/mirror/checkpoint_connector.h"

namespace connectd::mirror {
namespace {

using sdk::testing::FakeHost;
using ::testing::HasSubstr;

// FakeHost's log is not thread-safe and the connector logs from its own threads: route the SDK's
// log through a locked copy of the fake's function table.
class CheckpointConnectorTest : public ::testing::Test {
 protected:
  CheckpointConnectorTest() : api_(host_.api()) {
    api_.log = [](int32_t, connectd_str logger, connectd_str message) {
      static std::mutex mu;
      std::lock_guard lock(mu);
      fprintf(stderr, "[%.*s] %.*s\n", static_cast<int>(logger.size), logger.data,
              static_cast<int>(message.size), message.data);
    };
    sdk::internal::g_host = &api_;
  }
  ~CheckpointConnectorTest() override { sdk::internal::g_host = &host_.api(); }

  // A config whose clusters cannot be reached (nothing listens on port 1).
  static sdk::Props Unreachable() {
    return {{"source.cluster.alias", "A"},
            {"target.cluster.alias", "B"},
            {"source.cluster.bootstrap.servers", "127.0.0.1:1"},
            {"target.cluster.bootstrap.servers", "127.0.0.1:1"},
            {"admin.timeout.ms", "200"}};
  }

  FakeHost host_;
  connectd_host_api api_;
};

TEST_F(CheckpointConnectorTest, DescribesKafkasConnector) {
  auto connector = host_.connector<MirrorCheckpointConnector>();
  ASSERT_TRUE(connector.created());
  const connectd_connector_descriptor& d = connector.descriptor();
  EXPECT_STREQ(d.class_name, "org.apache.kafka.connect.mirror.MirrorCheckpointConnector");
  EXPECT_STREQ(d.version, "4.4.0");
  EXPECT_EQ(d.type, CONNECTD_CONNECTOR_TYPE_SOURCE);
  std::set<std::string> keys;
  for (size_t i = 0; i < d.config_key_count; ++i) {
    keys.insert(d.config_keys[i].name);
  }
  for (const char* key : {"groups", "groups.exclude", "emit.checkpoints.interval.seconds",
                          "sync.group.offsets.enabled", "refresh.groups.interval.seconds",
                          "checkpoints.topic.replication.factor", "offset-syncs.topic.location"}) {
    EXPECT_EQ(keys.count(key), 1u) << key;
  }
}

TEST_F(CheckpointConnectorTest, ValidationRefusesDisabledCheckpointsOrOffsetSyncs) {
  auto connector = host_.connector<MirrorCheckpointConnector>();
  auto errors = connector.validate({{"source.cluster.alias", "A"},
                                    {"emit.checkpoints.enabled", "false"},
                                    {"emit.offset-syncs.enabled", "false"}});
  ASSERT_TRUE(errors.ok()) << errors.message;
  ASSERT_EQ(errors.value.count("emit.checkpoints.enabled"), 1u);
  EXPECT_THAT(errors.value["emit.checkpoints.enabled"][0],
              HasSubstr("can't run with emit.checkpoints.enabled set to false"));
  ASSERT_EQ(errors.value.count("emit.offset-syncs.enabled"), 1u);
  EXPECT_THAT(errors.value["emit.offset-syncs.enabled"][0], HasSubstr("without offset syncs"));

  // A disabled connector is not validated further.
  auto disabled = connector.validate(
      {{"source.cluster.alias", "A"}, {"enabled", "false"}, {"emit.checkpoints.enabled", "false"}});
  ASSERT_TRUE(disabled.ok());
  EXPECT_TRUE(disabled.value.empty());
  auto fine = connector.validate({{"source.cluster.alias", "A"}});
  ASSERT_TRUE(fine.ok());
  EXPECT_TRUE(fine.value.empty());
}

// KIP-787's forwarding.admin.class is a Java class: refused, never silently bypassed.
TEST_F(CheckpointConnectorTest, ValidationRefusesAJavaForwardingAdmin) {
  auto connector = host_.connector<MirrorCheckpointConnector>();
  auto custom = connector.validate(
      {{"source.cluster.alias", "A"}, {"forwarding.admin.class", "com.example.ProvisioningAdmin"}});
  ASSERT_TRUE(custom.ok()) << custom.message;
  ASSERT_EQ(custom.value.count("forwarding.admin.class"), 1u);
  EXPECT_THAT(custom.value["forwarding.admin.class"][0],
              HasSubstr("cannot load the Java class com.example.ProvisioningAdmin"));
  auto kafkas = connector.validate(
      {{"source.cluster.alias", "A"},
       {"forwarding.admin.class", "org.apache.kafka.clients.admin.ForwardingAdmin"}});
  ASSERT_TRUE(kafkas.ok());
  EXPECT_TRUE(kafkas.value.empty());
}

TEST_F(CheckpointConnectorTest, DisabledConnectorHasNoTasks) {
  auto connector = host_.connector<MirrorCheckpointConnector>();
  sdk::Props props = Unreachable();
  props["enabled"] = "false";
  ASSERT_TRUE(connector.start(props).ok());
  auto configs = connector.taskConfigs(4);
  ASSERT_TRUE(configs.ok()) << configs.message;
  EXPECT_TRUE(configs.value.empty());
  EXPECT_TRUE(connector.stop().ok());
}

TEST_F(CheckpointConnectorTest, TaskConfigsAreRetriableUntilGroupsAreLoaded) {
  auto connector = host_.connector<MirrorCheckpointConnector>();
  ASSERT_TRUE(connector.start(Unreachable()).ok());
  auto configs = connector.taskConfigs(2);
  EXPECT_TRUE(configs.retriable()) << configs.message;
  EXPECT_THAT(configs.message, HasSubstr("Timeout while loading consumer groups"));
  auto started = std::chrono::steady_clock::now();
  EXPECT_TRUE(connector.stop().ok());
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(2));
}

TEST_F(CheckpointConnectorTest, AlterOffsetsAcceptsOnlyCheckpointShapes) {
  MirrorCheckpointConnector connector;
  const std::string partition = R"({"partition":1,"topic":"A.orders","group":"g"})";
  EXPECT_TRUE(connector.alterOffsets(
      {}, {{partition, std::string(R"({"offset":0})")}, {"anything", std::nullopt}}));
  try {
    connector.alterOffsets({}, {{partition, std::string(R"({"offset":5})")}});
    FAIL() << "expected a ConnectException";
  } catch (const sdk::ConnectException& e) {
    EXPECT_EQ(e.code(), CONNECTD_STATUS_INVALID_ARGUMENT);
    EXPECT_THAT(e.what(), HasSubstr("the only accepted value is 0"));
  }
  EXPECT_THROW(connector.alterOffsets(
                   {}, {{R"({"topic":"t","partition":0})", std::string(R"({"offset":0})")}}),
               sdk::ConnectException);
}

TEST_F(CheckpointConnectorTest, TaskStartsAtOnceAndStopsPromptlyWithoutClusters) {
  auto task = host_.sourceTask<MirrorCheckpointConnector>();
  ASSERT_TRUE(task.created());
  sdk::Props props = Unreachable();
  props["task.assigned.groups"] = "g1, g2";
  props["task.index"] = "0";
  props["emit.checkpoints.interval.seconds"] = "0";
  auto started = std::chrono::steady_clock::now();
  ASSERT_TRUE(task.start(props).ok());
  auto records = task.poll(50);
  ASSERT_TRUE(records.ok()) << records.message;
  EXPECT_TRUE(records.value.empty());  // the checkpoints topic has not been loaded
  task.stop();
  auto after_stop = task.poll(1000);
  EXPECT_TRUE(after_stop.ok());
  EXPECT_TRUE(after_stop.value.empty());
  { auto destroyed = std::move(task); }
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(4));
}

// source.cluster.alias defaults to "source" in Kafka 4.x; a bad policy class is refused.
TEST_F(CheckpointConnectorTest, TaskRefusesAnUnknownReplicationPolicy) {
  auto task = host_.sourceTask<MirrorCheckpointConnector>();
  auto result = task.start(
      {{"task.assigned.groups", "g"}, {"replication.policy.class", "com.example.NoSuchPolicy"}});
  EXPECT_FALSE(result.ok());
  EXPECT_THAT(result.message, HasSubstr("com.example.NoSuchPolicy"));
}

}  // namespace
}  // namespace connectd::mirror
