// KafkaConfigBackingStore against a real Kafka 4.4 broker: what one worker writes (connector
// config with an initial target state, task configs and their commit, a target-state change, a
// removal) another worker's store reads, with listener calls only for what happens after it
// started; a config topic with several partitions is refused.
#include "runtime/storage/kafka_config_backing_store.h"

#include <mutex>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/common/kafka_test_clients.h"
#include "tests/common/kafka_test_env.h"

namespace connectd::storage {
namespace {

using ::testing::HasSubstr;

class RecordingConfigListener : public ConfigStateListener {
 public:
  void OnConnectorConfigRemove(const std::string& c) override { Add("remove " + c); }
  void OnConnectorConfigUpdate(const std::string& c) override { Add("update " + c); }
  void OnTaskConfigUpdate(const std::vector<herder::ConnectorTaskId>& tasks) override {
    Add("tasks " + std::to_string(tasks.size()));
  }
  void OnConnectorTargetStateChange(const std::string& c) override { Add("target " + c); }
  void OnSessionKeyUpdate(const SessionKey&) override { Add("session-key"); }
  void OnRestartRequest(const herder::RestartRequest& r) override { Add("restart " + r.connector); }
  void OnLoggingLevelUpdate(const std::string&, const std::string&) override { Add("logger"); }

  std::vector<std::string> events() {
    std::lock_guard lock(mu_);
    return events_;
  }

 private:
  void Add(std::string e) {
    std::lock_guard lock(mu_);
    events_.push_back(std::move(e));
  }
  std::mutex mu_;
  std::vector<std::string> events_;
};

class KafkaConfigBackingStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::string> bootstrap = testing::TestKafkaBootstrap("ctest-a");
    ASSERT_TRUE(bootstrap.ok()) << bootstrap.status();
    bootstrap_ = *bootstrap;
    options_.topic = testing::UniqueName("connect-configs");
    options_.producer = options_.consumer = options_.admin = {{"bootstrap.servers", bootstrap_}};
    options_.replication_factor = 1;
    options_.start_timeout = std::chrono::seconds(30);
  }
  std::string bootstrap_;
  KafkaBasedLog::Options options_;
};

TEST_F(KafkaConfigBackingStoreTest, AnotherWorkerReadsWhatOneWrites) {
  KafkaConfigBackingStore leader(options_, nullptr);
  ASSERT_TRUE(leader.Start().ok());
  ConfigProperties config = {
      {"connector.class", "FileStreamSource"}, {"tasks.max", "2"}, {"name", "src"}};
  ASSERT_TRUE(leader.PutConnectorConfig("src", config, herder::TargetState::kPaused).ok());
  ASSERT_TRUE(leader
                  .PutTaskConfigs("src", {{{"task.class", "T"}, {"file", "/in-0"}},
                                          {{"task.class", "T"}, {"file", "/in-1"}}})
                  .ok());
  // The writer's own snapshot includes its writes (read to end after each).
  ClusterConfigState mine = leader.Snapshot();
  EXPECT_TRUE(mine.Contains("src"));
  EXPECT_EQ(mine.TaskCount("src"), 2);

  RecordingConfigListener events;
  KafkaConfigBackingStore follower(options_, &events);
  ASSERT_TRUE(follower.Start().ok());
  ClusterConfigState state = follower.Snapshot();
  ASSERT_TRUE(state.Contains("src"));
  ASSERT_NE(state.RawConnectorConfig("src"), nullptr);
  EXPECT_EQ(*state.RawConnectorConfig("src"), config);
  EXPECT_EQ(state.TargetState("src"), herder::TargetState::kPaused);
  ASSERT_EQ(state.Tasks("src").size(), 2u);
  const ConfigProperties* task1 = state.RawTaskConfig({"src", 1});
  ASSERT_NE(task1, nullptr);
  EXPECT_EQ(*task1, (ConfigProperties{{"task.class", "T"}, {"file", "/in-1"}}));
  EXPECT_EQ(state.offset(), mine.offset());
  EXPECT_TRUE(events.events().empty()) << "history read at start is not announced";

  // Later writes are announced to the follower.
  ASSERT_TRUE(leader.PutTargetState("src", herder::TargetState::kStarted).ok());
  ASSERT_TRUE(leader.RemoveConnectorConfig("src").ok());
  ASSERT_TRUE(follower.Refresh(std::chrono::seconds(10)).ok());
  EXPECT_FALSE(follower.Snapshot().Contains("src"));
  EXPECT_EQ(events.events(), (std::vector<std::string>{"target src", "remove src"}));
  follower.Stop();
  leader.Stop();
}

TEST_F(KafkaConfigBackingStoreTest, RefusesAConfigTopicWithSeveralPartitions) {
  ASSERT_TRUE(
      testing::CreateTopic(bootstrap_, options_.topic, 3, {{"cleanup.policy", "compact"}}).ok());
  KafkaConfigBackingStore store(options_, nullptr);
  absl::Status started = store.Start();
  EXPECT_EQ(started.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(started.message(), HasSubstr("required to have a single partition"));
  EXPECT_THAT(started.message(), HasSubstr("'config.storage.topic'"));
}

}  // namespace
}  // namespace connectd::storage
