// Worker::ConnectorTaskConfigs: the task configs a leader compares with and writes to the config
// topic must be the maps Java's Worker.connectorTaskConfigs (and AbstractHerder.reverseTransform)
// makes, or a cluster of Java and connectd workers would rewrite them back and forth. Test
// connectors are SDK plugins registered in memory; nothing here touches Kafka.
#include "runtime/worker/worker.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "connectd/sdk/sdk.h"
#include "runtime/plugin/host_api.h"

namespace connectd::worker {
namespace {

using herder::ConfigMap;

// ---- In-memory test connectors ----------------------------------------------------------------
// Each task gets the connector config plus "task.number" (what the connector saw: config-provider
// references arrive resolved).
std::vector<sdk::Props> NumberedConfigs(const sdk::Props& props, int max_tasks) {
  std::vector<sdk::Props> configs;
  for (int i = 0; i < max_tasks; ++i) {
    sdk::Props config = props;
    config["task.number"] = std::to_string(i);
    configs.push_back(std::move(config));
  }
  return configs;
}

class IdleSourceTask : public sdk::SourceTask {
 public:
  void start(const sdk::Props&) override {}
  void poll(sdk::SourceBatch&) override {}
  void stop() override {}
};

// Looks up the offset of its one partition at start; records what it was told.
class OffsetReadingSourceTask : public sdk::SourceTask {
 public:
  void start(const sdk::Props&) override {
    std::optional<std::string> offset = context().offset(R"({"file":"in.txt"})");
    std::lock_guard lock(mu);
    looked_up = true;
    told = offset;
  }
  void poll(sdk::SourceBatch&) override { ++polls; }
  void stop() override {}
  static inline std::mutex mu;
  static inline bool looked_up = false;
  static inline std::optional<std::string> told;
  static inline std::atomic<int> polls{0};
};

class IdleSinkTask : public sdk::SinkTask {
 public:
  void start(const sdk::Props&) override {}
  void put(const sdk::SinkRecords&) override {}
  void stop() override {}
};

template <typename Base, typename Task>
class NumberingConnector : public Base {
 public:
  static constexpr char kVersion[] = "1.0.0";
  using TaskType = Task;
  static sdk::ConfigDef configDef() { return sdk::ConfigDef(); }
  void start(const sdk::Props& props) override { props_ = props; }
  std::vector<sdk::Props> taskConfigs(int max_tasks) override {
    return NumberedConfigs(props_, max_tasks);
  }
  void stop() override {}

 protected:
  sdk::Props props_;
};

class NumberingSourceConnector : public NumberingConnector<sdk::SourceConnector, IdleSourceTask> {
 public:
  static constexpr char kClassName[] = "org.example.NumberingSourceConnector";
};

class NumberingSinkConnector : public NumberingConnector<sdk::SinkConnector, IdleSinkTask> {
 public:
  static constexpr char kClassName[] = "org.example.NumberingSinkConnector";
};

class OffsetReadingSourceConnector
    : public NumberingConnector<sdk::SourceConnector, OffsetReadingSourceTask> {
 public:
  static constexpr char kClassName[] = "org.example.OffsetReadingSourceConnector";
};

// A class name that does not end in "Connector".
class Numbering : public NumberingConnector<sdk::SourceConnector, IdleSourceTask> {
 public:
  static constexpr char kClassName[] = "org.example.Numbering";
};

// Declares its (unconventionally named) task class itself.
class DeclaringSourceConnector : public NumberingConnector<sdk::SourceConnector, IdleSourceTask> {
 public:
  static constexpr char kClassName[] = "org.example.DeclaringSourceConnector";
  std::vector<sdk::Props> taskConfigs(int max_tasks) override {
    std::vector<sdk::Props> configs = NumberedConfigs(props_, max_tasks);
    for (sdk::Props& config : configs) config["task.class"] = "org.example.SomethingElse";
    return configs;
  }
};

// taskConfigs throws RetriableException for its first "not.ready.calls" calls, then
// ConnectException if "fatal" is true, else answers one task.
class NotReadySourceConnector : public NumberingConnector<sdk::SourceConnector, IdleSourceTask> {
 public:
  static constexpr char kClassName[] = "org.example.NotReadySourceConnector";
  std::vector<sdk::Props> taskConfigs(int) override {
    if (calls_++ < std::stoi(props_.at("not.ready.calls"))) {
      throw sdk::RetriableException("Timeout while loading consumer groups.");
    }
    if (props_.at("fatal") == "true") throw sdk::ConnectException("cannot make tasks");
    return NumberedConfigs(props_, 1);
  }

 private:
  int calls_ = 0;
};

// ---- Fakes ------------------------------------------------------------------------------------
// Remembers each connector's last reported state.
class NullListener : public StatusListener {
 public:
  void OnConnectorState(const std::string& name, State state, std::optional<std::string>) override {
    std::lock_guard lock(mu);
    states[name] = state;
  }
  std::optional<State> StateOf(const std::string& name) {
    std::lock_guard lock(mu);
    auto it = states.find(name);
    return it == states.end() ? std::nullopt : std::optional<State>(it->second);
  }
  std::mutex mu;
  std::map<std::string, State> states;
  void OnTaskState(const herder::ConnectorTaskId& id, State state,
                   std::optional<std::string> trace) override {
    std::lock_guard lock(mu);
    task_states[id.connector] = {state, trace.value_or("")};
  }
  std::optional<std::pair<State, std::string>> TaskStateOf(const std::string& connector) {
    std::lock_guard lock(mu);
    auto it = task_states.find(connector);
    if (it == task_states.end()) return std::nullopt;
    return it->second;
  }
  std::map<std::string, std::pair<State, std::string>> task_states;
  void OnTopicUsed(const std::string&, const std::string&) override {}
};

// An offsets store that cannot be read (e.g. the offsets topic not read to its end in time).
class UnreadableOffsets : public ConnectorOffsetStore {
 public:
  absl::StatusOr<std::optional<std::string>> Offset(std::string_view) override {
    return absl::DeadlineExceededError("Timed out reading the offsets topic to its end");
  }
  absl::Status Write(const std::map<std::string, std::optional<std::string>>&,
                     std::chrono::milliseconds) override {
    return absl::OkStatus();
  }
  absl::StatusOr<std::map<std::string, std::string>> All() override {
    return absl::DeadlineExceededError("Timed out reading the offsets topic to its end");
  }
};

class NullEvents : public ConnectorEvents {
 public:
  void OnTaskReconfigurationRequest(const std::string&) override {}
};

class WorkerTaskConfigsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    connectd_error_host_ptr* error = nullptr;
    const connectd_plugin_descriptor* descriptor =
        sdk::internal::PluginEntry<NumberingSourceConnector, NumberingSinkConnector, Numbering,
                                   DeclaringSourceConnector, NotReadySourceConnector,
                                   OffsetReadingSourceConnector>(plugin::HostApi(), error,
                                                                 "worker-test", "1.0.0");
    ASSERT_NE(descriptor, nullptr);
    registry_ = new plugin::PluginRegistry();
    ASSERT_TRUE(registry_->AddDescriptor(descriptor, "memory").ok());
  }

  void SetUp() override {
    ::setenv("CONNECTD_WORKER_TEST_SECRET", "hunter2", 1);
    absl::StatusOr<config::WorkerConfig> config = config::WorkerConfig::Create(
        {{"key.converter", "org.apache.kafka.connect.storage.StringConverter"},
         {"value.converter", "org.apache.kafka.connect.storage.StringConverter"},
         {"offset.storage.file.filename", "/dev/null"}},
        config::WorkerMode::kStandalone);
    ASSERT_TRUE(config.ok()) << config.status();
    config_ = std::make_unique<config::WorkerConfig>(*std::move(config));
    absl::StatusOr<config::ConfigProviders> providers = config::ConfigProviders::Create(
        {{"config.providers", "env"},
         {"config.providers.env.class",
          "org.apache.kafka.common.config.provider.EnvVarConfigProvider"}});
    ASSERT_TRUE(providers.ok()) << providers.status();
    worker_ = std::make_unique<Worker>(
        *config_, *registry_, *std::move(providers),
        [](const std::string&) { return std::make_shared<UnreadableOffsets>(); }, listener_,
        events_, "worker-test:1", metrics_);
  }

  // Starts `config` as connector `name` and returns its task configs.
  std::vector<ConfigMap> TaskConfigs(const std::string& name, const ConfigMap& config) {
    EXPECT_TRUE(worker_->StartConnector(name, config, herder::TargetState::kStarted).ok());
    absl::StatusOr<std::vector<ConfigMap>> configs = worker_->ConnectorTaskConfigs(name, config);
    EXPECT_TRUE(configs.ok()) << configs.status();
    return configs.ok() ? *configs : std::vector<ConfigMap>();
  }

  static plugin::PluginRegistry* registry_;
  std::unique_ptr<config::WorkerConfig> config_;
  NullListener listener_;
  NullEvents events_;
  metrics::MetricsRegistry metrics_;
  std::unique_ptr<Worker> worker_;
};
plugin::PluginRegistry* WorkerTaskConfigsTest::registry_ = nullptr;

// Each Java connector connectd has a twin of reports this taskClass().getName().
TEST(TaskClassNameTest, MatchesTheJavaTaskClassOfEveryTwin) {
  EXPECT_EQ(TaskClassName("org.apache.kafka.connect.file.FileStreamSourceConnector"),
            "org.apache.kafka.connect.file.FileStreamSourceTask");
  EXPECT_EQ(TaskClassName("org.apache.kafka.connect.file.FileStreamSinkConnector"),
            "org.apache.kafka.connect.file.FileStreamSinkTask");
  EXPECT_EQ(TaskClassName("org.apache.kafka.connect.tools.VerifiableSourceConnector"),
            "org.apache.kafka.connect.tools.VerifiableSourceTask");
  EXPECT_EQ(TaskClassName("org.apache.kafka.connect.tools.MockSourceConnector"),
            "org.apache.kafka.connect.tools.MockSourceTask");
  EXPECT_EQ(TaskClassName("org.apache.kafka.connect.mirror.MirrorSourceConnector"),
            "org.apache.kafka.connect.mirror.MirrorSourceTask");
  EXPECT_EQ(TaskClassName("org.apache.kafka.connect.mirror.MirrorCheckpointConnector"),
            "org.apache.kafka.connect.mirror.MirrorCheckpointTask");
  EXPECT_EQ(TaskClassName("org.apache.kafka.connect.mirror.MirrorHeartbeatConnector"),
            "org.apache.kafka.connect.mirror.MirrorHeartbeatTask");
  EXPECT_EQ(TaskClassName("org.example.Numbering"), "org.example.NumberingTask");
}

TEST_F(WorkerTaskConfigsTest, SourceTasksGetTheDerivedTaskClass) {
  const ConfigMap config{{"name", "src"},
                         {"connector.class", "NumberingSource"},  // an alias
                         {"tasks.max", "2"},
                         {"custom", "v"}};
  std::vector<ConfigMap> tasks = TaskConfigs("src", config);
  ASSERT_EQ(tasks.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    ConfigMap want = config;
    want["task.number"] = std::to_string(i);
    want["task.class"] = "org.example.NumberingSourceTask";  // from the class, not the alias
    EXPECT_EQ(tasks[static_cast<size_t>(i)], want);
  }
}

TEST_F(WorkerTaskConfigsTest, SinkTasksGetTopicsOrTopicsRegex) {
  // Java copies `topics` and `topics.regex` from the connector config into every task config,
  // whatever the connector returned.
  const ConfigMap by_list{{"name", "sink"},
                          {"connector.class", "org.example.NumberingSinkConnector"},
                          {"tasks.max", "1"},
                          {"topics", "a,b"}};
  std::vector<ConfigMap> tasks = TaskConfigs("sink", by_list);
  ASSERT_EQ(tasks.size(), 1u);
  EXPECT_EQ(tasks[0].at("topics"), "a,b");
  EXPECT_EQ(tasks[0].count("topics.regex"), 0u);
  EXPECT_EQ(tasks[0].at("task.class"), "org.example.NumberingSinkTask");

  const ConfigMap by_regex{{"name", "sink-re"},
                           {"connector.class", "org.example.NumberingSinkConnector"},
                           {"tasks.max", "3"},
                           {"topics.regex", "t-.*"}};
  tasks = TaskConfigs("sink-re", by_regex);
  ASSERT_EQ(tasks.size(), 3u);
  for (const ConfigMap& task : tasks) {
    EXPECT_EQ(task.at("topics.regex"), "t-.*");
    EXPECT_EQ(task.count("topics"), 0u);
  }
}

TEST_F(WorkerTaskConfigsTest, TopicsAreCopiedForSourceConnectorsToo) {
  // Java's Worker does not look at the connector type (MirrorSourceConnector has `topics`).
  std::vector<ConfigMap> tasks =
      TaskConfigs("src", {{"name", "src"},
                          {"connector.class", "org.example.NumberingSourceConnector"},
                          {"topics", "x.*"}});
  ASSERT_EQ(tasks.size(), 1u);
  EXPECT_EQ(tasks[0].at("topics"), "x.*");
}

TEST_F(WorkerTaskConfigsTest, ClassNamesWithoutConnectorSuffixGetTaskAppended) {
  std::vector<ConfigMap> tasks =
      TaskConfigs("n", {{"name", "n"}, {"connector.class", "org.example.Numbering"}});
  ASSERT_EQ(tasks.size(), 1u);
  EXPECT_EQ(tasks[0].at("task.class"), "org.example.NumberingTask");
}

TEST_F(WorkerTaskConfigsTest, APluginsOwnTaskClassIsKept) {
  std::vector<ConfigMap> tasks = TaskConfigs(
      "d", {{"name", "d"}, {"connector.class", "org.example.DeclaringSourceConnector"}});
  ASSERT_EQ(tasks.size(), 1u);
  EXPECT_EQ(tasks[0].at("task.class"), "org.example.SomethingElse");
}

TEST_F(WorkerTaskConfigsTest, ConfigProviderReferencesAreWrittenBackUnresolved) {
  // The connector sees the secret; the task configs keep the reference (Java's
  // AbstractHerder.reverseTransform), for every key whose raw value has one.
  const ConfigMap config{{"name", "src"},
                         {"connector.class", "org.example.NumberingSourceConnector"},
                         {"password", "${env:CONNECTD_WORKER_TEST_SECRET}"},
                         {"topics", "pre-${env:CONNECTD_WORKER_TEST_SECRET}"},
                         {"plain", "v"}};
  std::vector<ConfigMap> tasks = TaskConfigs("src", config);
  ASSERT_EQ(tasks.size(), 1u);
  ConfigMap want = config;
  want["task.number"] = "0";
  want["task.class"] = "org.example.NumberingSourceTask";
  EXPECT_EQ(tasks[0], want);
}

// A RetriableException from taskConfigs (MirrorCheckpoint before its first group listing) is
// UNAVAILABLE for the herder to retry: the connector stays RUNNING. Any other exception fails it.
TEST_F(WorkerTaskConfigsTest, ARetriableTaskConfigsErrorKeepsTheConnectorRunning) {
  const ConfigMap config = {{"name", "not-ready"},
                            {"connector.class", "org.example.NotReadySourceConnector"},
                            {"not.ready.calls", "2"},
                            {"fatal", "false"}};
  ASSERT_TRUE(worker_->StartConnector("not-ready", config, herder::TargetState::kStarted).ok());
  for (int i = 0; i < 2; ++i) {
    absl::StatusOr<std::vector<ConfigMap>> configs =
        worker_->ConnectorTaskConfigs("not-ready", config);
    ASSERT_TRUE(absl::IsUnavailable(configs.status())) << configs.status();
    EXPECT_EQ(configs.status().message(), "Timeout while loading consumer groups.");
    EXPECT_TRUE(worker_->IsConnectorRunning("not-ready"));
    EXPECT_EQ(listener_.StateOf("not-ready"), State::kRunning);
  }
  absl::StatusOr<std::vector<ConfigMap>> configs =
      worker_->ConnectorTaskConfigs("not-ready", config);
  ASSERT_TRUE(configs.ok()) << configs.status();
  EXPECT_EQ(configs->size(), 1u);
}

TEST_F(WorkerTaskConfigsTest, AFatalTaskConfigsErrorFailsTheConnector) {
  const ConfigMap config = {{"name", "broken"},
                            {"connector.class", "org.example.NotReadySourceConnector"},
                            {"not.ready.calls", "0"},
                            {"fatal", "true"}};
  ASSERT_TRUE(worker_->StartConnector("broken", config, herder::TargetState::kStarted).ok());
  absl::StatusOr<std::vector<ConfigMap>> configs = worker_->ConnectorTaskConfigs("broken", config);
  EXPECT_FALSE(configs.ok());
  EXPECT_FALSE(absl::IsUnavailable(configs.status())) << configs.status();
  EXPECT_EQ(listener_.StateOf("broken"), State::kFailed);
}

// Java's OffsetStorageReader throws when the store cannot be read and the task fails; were the
// failure taken for "no offset", a MirrorSource task would start over from auto.offset.reset
// (every record again, or with "latest" none of the unreplicated ones).
TEST_F(WorkerTaskConfigsTest, ASourceTaskWhoseOffsetsCannotBeReadFailsInsteadOfStartingOver) {
  const ConfigMap config = {{"name", "reader"},
                            {"connector.class", "org.example.OffsetReadingSourceConnector"},
                            {"tasks.max", "1"}};
  std::vector<ConfigMap> tasks = TaskConfigs("reader", config);
  ASSERT_EQ(tasks.size(), 1u);
  ASSERT_TRUE(
      worker_->StartTask({"reader", 0}, config, tasks[0], herder::TargetState::kStarted).ok());
  std::optional<std::pair<State, std::string>> state;
  for (int i = 0; i < 500; ++i) {
    state = listener_.TaskStateOf("reader");
    if (state && state->first == State::kFailed) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_TRUE(state.has_value());
  EXPECT_EQ(state->first, State::kFailed);
  EXPECT_THAT(state->second, ::testing::HasSubstr("Failed to fetch offsets"));
  EXPECT_THAT(state->second, ::testing::HasSubstr("Timed out reading the offsets topic"));
  {
    std::lock_guard lock(OffsetReadingSourceTask::mu);
    EXPECT_TRUE(OffsetReadingSourceTask::looked_up);
    EXPECT_FALSE(OffsetReadingSourceTask::told.has_value());
  }
  EXPECT_EQ(OffsetReadingSourceTask::polls.load(), 0) << "polled after the failed lookup";
  worker_->StopAndAwaitTasks({{"reader", 0}});
}

}  // namespace
}  // namespace connectd::worker
