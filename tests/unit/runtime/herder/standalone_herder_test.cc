// StandaloneHerder through its Herder interface, as rest/ drives it: a real Worker running
// in-memory SDK connectors (registered in memory, no plugin.path), an in-memory offset store, no
// Kafka. Asserts what a REST client would see: the connector list, statuses of the connector and
// its tasks, task configs, HTTP statuses of refusals, pause/resume/stop/restart and deletion.
#include "runtime/herder/standalone_herder.h"

#include <chrono>
#include <future>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "connectd/sdk/sdk.h"
#include "rest/error_mapping.h"
#include "runtime/plugin/host_api.h"
#include "runtime/storage/memory_offset_backing_store.h"
#include "runtime/worker/backing_store_offsets.h"

namespace connectd::herder {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// ---- In-memory test connectors ----------------------------------------------------------------

// Fails at start when its config says so: a FAILED task with the exception as its trace.
class FailingSourceTask : public sdk::SourceTask {
 public:
  void start(const sdk::Props& props) override {
    if (props.count("fail.task") != 0) throw sdk::ConnectException("the task cannot start");
  }
  void poll(sdk::SourceBatch&) override {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  void stop() override {}
};

class IdleSourceConnector : public sdk::SourceConnector {
 public:
  static constexpr char kClassName[] = "org.example.IdleSourceConnector";
  static constexpr char kVersion[] = "1.2.3";
  using TaskType = FailingSourceTask;
  static sdk::ConfigDef configDef() {
    return sdk::ConfigDef().define(sdk::ConfigKey("topic", sdk::ConfigKey::kString)
                                       .importance(sdk::ConfigKey::kHigh)
                                       .doc("Where records would go"));
  }
  void start(const sdk::Props& props) override { props_ = props; }
  std::vector<sdk::Props> taskConfigs(int max_tasks) override {
    std::vector<sdk::Props> configs;
    for (int i = 0; i < max_tasks; ++i) {
      sdk::Props config = props_;
      config["task.number"] = std::to_string(i);
      configs.push_back(std::move(config));
    }
    return configs;
  }
  void stop() override {}

 private:
  sdk::Props props_;
};

// ---- Helpers ----------------------------------------------------------------------------------

template <typename T>
absl::StatusOr<T> Await(const std::function<void(Callback<T>)>& call) {
  auto promise = std::make_shared<std::promise<absl::StatusOr<T>>>();
  std::future<absl::StatusOr<T>> future = promise->get_future();
  call([promise](absl::StatusOr<T> result) { promise->set_value(std::move(result)); });
  if (future.wait_for(std::chrono::seconds(20)) != std::future_status::ready) {
    return absl::DeadlineExceededError("the herder did not answer within 20 s");
  }
  return future.get();
}

absl::Status AwaitDone(const std::function<void(DoneCallback)>& call) {
  auto promise = std::make_shared<std::promise<absl::Status>>();
  std::future<absl::Status> future = promise->get_future();
  call([promise](absl::Status status) { promise->set_value(std::move(status)); });
  if (future.wait_for(std::chrono::seconds(20)) != std::future_status::ready) {
    return absl::DeadlineExceededError("the herder did not answer within 20 s");
  }
  return future.get();
}

// "RUNNING/RUNNING,RUNNING": the connector's state, then its tasks' in id order.
std::string States(const ConnectorStateInfo& info) {
  std::string out = info.connector.state + "/";
  for (size_t i = 0; i < info.tasks.size(); ++i) {
    if (i > 0) out += ",";
    out += info.tasks[i].state.state;
  }
  return out;
}

class StandaloneHerderTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    connectd_error_host_ptr* error = nullptr;
    const connectd_plugin_descriptor* descriptor = sdk::internal::PluginEntry<IdleSourceConnector>(
        plugin::HostApi(), error, "herder-test", "1.2.3");
    ASSERT_NE(descriptor, nullptr);
    registry_ = new plugin::PluginRegistry();
    ASSERT_TRUE(registry_->AddDescriptor(descriptor, "memory").ok());
  }

  void SetUp() override {
    absl::StatusOr<config::WorkerConfig> config = config::WorkerConfig::Create(
        {{"bootstrap.servers", "127.0.0.1:1"},  // never reached: the tasks send nothing
         {"key.converter", "org.apache.kafka.connect.storage.StringConverter"},
         {"value.converter", "org.apache.kafka.connect.storage.StringConverter"},
         {"offset.storage.file.filename", "/dev/null"}},
        config::WorkerMode::kStandalone);
    ASSERT_TRUE(config.ok()) << config.status();
    config_ = std::make_unique<config::WorkerConfig>(*std::move(config));
    offsets_ = std::make_shared<storage::MemoryOffsetBackingStore>();
    auto offsets = [this](const std::string& connector) {
      return std::make_shared<worker::BackingStoreOffsets>(*offsets_, connector);
    };
    StandaloneHerder::Options options;
    herder_ = std::make_unique<StandaloneHerder>(
        options, *registry_, offsets,
        [this, offsets](worker::StatusListener& listener, worker::ConnectorEvents& events,
                        const std::string& worker_id) {
          absl::StatusOr<config::ConfigProviders> providers = config::ConfigProviders::Create({});
          return std::make_unique<worker::Worker>(*config_, *registry_, *std::move(providers),
                                                  offsets, listener, events, worker_id, metrics_);
        });
    herder_->SetWorkerId("127.0.0.1:8083");  // what the bound REST listener gives it
    herder_->Start();
  }

  void TearDown() override { herder_->Stop(); }

  absl::StatusOr<Created> Put(const std::string& name, ConfigMap config, bool allow_replace = false,
                              std::optional<TargetState> initial = std::nullopt) {
    config["name"] = name;
    return Await<Created>([&](Callback<Created> done) {
      herder_->PutConnectorConfig(name, config, initial, allow_replace, std::move(done));
    });
  }

  // Waits until the connector's states read `expected` (see States); the last answer otherwise.
  std::string WaitForStates(const std::string& name, const std::string& expected) {
    std::string seen;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
      absl::StatusOr<ConnectorStateInfo> info = herder_->ConnectorStatus(name);
      seen = info.ok() ? States(*info) : std::string(info.status().message());
      if (seen == expected) return seen;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return seen;
  }

  static ConfigMap Source(int tasks) {
    return {
        {"connector.class", "IdleSource"}, {"tasks.max", std::to_string(tasks)}, {"topic", "t"}};
  }

  static plugin::PluginRegistry* registry_;
  std::unique_ptr<config::WorkerConfig> config_;
  std::shared_ptr<storage::MemoryOffsetBackingStore> offsets_;
  metrics::MetricsRegistry metrics_;
  std::unique_ptr<StandaloneHerder> herder_;
};
plugin::PluginRegistry* StandaloneHerderTest::registry_ = nullptr;

TEST_F(StandaloneHerderTest, CreatedConnectorRunsItsTasks) {
  absl::StatusOr<Created> created = Put("src", Source(2));
  ASSERT_TRUE(created.ok()) << created.status();
  EXPECT_TRUE(created->created);
  EXPECT_EQ(created->info.name, "src");
  EXPECT_EQ(WaitForStates("src", "RUNNING/RUNNING,RUNNING"), "RUNNING/RUNNING,RUNNING");

  absl::StatusOr<std::vector<std::string>> names = Await<std::vector<std::string>>(
      [&](Callback<std::vector<std::string>> done) { herder_->ListConnectors(std::move(done)); });
  ASSERT_TRUE(names.ok()) << names.status();
  EXPECT_THAT(*names, ElementsAre("src"));

  absl::StatusOr<std::vector<TaskInfo>> tasks =
      Await<std::vector<TaskInfo>>([&](Callback<std::vector<TaskInfo>> done) {
        herder_->GetTaskConfigs("src", std::move(done));
      });
  ASSERT_TRUE(tasks.ok()) << tasks.status();
  ASSERT_EQ(tasks->size(), 2u);
  EXPECT_EQ((*tasks)[1].id.task, 1);
  EXPECT_EQ((*tasks)[1].config.at("task.number"), "1");
  EXPECT_EQ((*tasks)[1].config.at("task.class"), "org.example.IdleSourceTask");

  absl::StatusOr<ConnectorStateInfo> status = herder_->ConnectorStatus("src");
  ASSERT_TRUE(status.ok());
  EXPECT_EQ(status->type, ConnectorType::kSource);
  EXPECT_EQ(status->connector.worker_id, "127.0.0.1:8083");
  EXPECT_EQ(status->connector.version, "1.2.3");
}

TEST_F(StandaloneHerderTest, ExistingNameIsAConflictUnlessReplacing) {
  ASSERT_TRUE(Put("src", Source(1)).ok());
  absl::StatusOr<Created> again = Put("src", Source(1));
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(rest::HttpStatusFor(again.status()), 409);
  EXPECT_THAT(again.status().message(), HasSubstr("Connector src already exists"));

  // Replacing with fewer tasks reconfigures them.
  absl::StatusOr<Created> replaced = Put("src", Source(1), /*allow_replace=*/true);
  ASSERT_TRUE(replaced.ok()) << replaced.status();
  EXPECT_FALSE(replaced->created);
  EXPECT_EQ(WaitForStates("src", "RUNNING/RUNNING"), "RUNNING/RUNNING");
  ASSERT_TRUE(Put("src", Source(3), /*allow_replace=*/true).ok());
  EXPECT_EQ(WaitForStates("src", "RUNNING/RUNNING,RUNNING,RUNNING"),
            "RUNNING/RUNNING,RUNNING,RUNNING");
}

TEST_F(StandaloneHerderTest, InvalidConfigIsRefusedAndCreatesNothing) {
  absl::StatusOr<Created> unknown = Put("bad", {{"connector.class", "NoSuchConnector"}});
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(rest::HttpStatusFor(unknown.status()), 400);
  EXPECT_THAT(unknown.status().message(), HasSubstr("NoSuchConnector"));

  absl::StatusOr<Created> missing_required = Put("bad", {{"connector.class", "IdleSource"}});
  ASSERT_FALSE(missing_required.ok());
  EXPECT_EQ(rest::HttpStatusFor(missing_required.status()), 400);
  EXPECT_THAT(missing_required.status().message(), HasSubstr("topic"));

  absl::StatusOr<ConnectorStateInfo> status = herder_->ConnectorStatus("bad");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(rest::HttpStatusFor(status.status()), 404);
}

TEST_F(StandaloneHerderTest, PauseResumeAndStop) {
  ASSERT_TRUE(Put("src", Source(2)).ok());
  ASSERT_EQ(WaitForStates("src", "RUNNING/RUNNING,RUNNING"), "RUNNING/RUNNING,RUNNING");
  ASSERT_TRUE(herder_->PauseConnector("src").ok());
  EXPECT_EQ(WaitForStates("src", "PAUSED/PAUSED,PAUSED"), "PAUSED/PAUSED,PAUSED");
  ASSERT_TRUE(herder_->ResumeConnector("src").ok());
  EXPECT_EQ(WaitForStates("src", "RUNNING/RUNNING,RUNNING"), "RUNNING/RUNNING,RUNNING");

  // KIP-875: a stopped connector keeps its config and has no tasks.
  ASSERT_TRUE(
      AwaitDone([&](DoneCallback done) { herder_->StopConnector("src", std::move(done)); }).ok());
  EXPECT_EQ(WaitForStates("src", "STOPPED/"), "STOPPED/");
  absl::StatusOr<ConfigMap> config = Await<ConfigMap>(
      [&](Callback<ConfigMap> done) { herder_->GetConnectorConfig("src", std::move(done)); });
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->at("tasks.max"), "2");
  ASSERT_TRUE(herder_->ResumeConnector("src").ok());
  EXPECT_EQ(WaitForStates("src", "RUNNING/RUNNING,RUNNING"), "RUNNING/RUNNING,RUNNING");
}

// KIP-980: created PAUSED, the connector stays paused until resumed.
TEST_F(StandaloneHerderTest, CreatedPausedRunsOnlyOnceResumed) {
  ASSERT_TRUE(Put("src", Source(1), false, TargetState::kPaused).ok());
  EXPECT_EQ(WaitForStates("src", "PAUSED/"), "PAUSED/");
  ASSERT_TRUE(herder_->ResumeConnector("src").ok());
  EXPECT_EQ(WaitForStates("src", "RUNNING/RUNNING"), "RUNNING/RUNNING");
}

TEST_F(StandaloneHerderTest, FailedTaskCarriesItsTraceAndRestartsOnlyFailed) {
  ConfigMap config = Source(1);
  config["fail.task"] = "yes";
  ASSERT_TRUE(Put("src", config).ok());
  ASSERT_EQ(WaitForStates("src", "RUNNING/FAILED"), "RUNNING/FAILED");
  absl::StatusOr<TaskStateInfo> task = herder_->TaskStatus({"src", 0});
  ASSERT_TRUE(task.ok());
  ASSERT_TRUE(task->state.trace.has_value());
  EXPECT_THAT(*task->state.trace, HasSubstr("the task cannot start"));

  // The failure is in the config: a fixed config (replace) runs the task.
  config.erase("fail.task");
  ASSERT_TRUE(Put("src", config, /*allow_replace=*/true).ok());
  EXPECT_EQ(WaitForStates("src", "RUNNING/RUNNING"), "RUNNING/RUNNING");

  // Restart of only failed instances leaves running ones alone; a full restart answers with the
  // states the restart will pass through.
  RestartRequest only_failed{"src", /*only_failed=*/true, /*include_tasks=*/true};
  absl::StatusOr<ConnectorStateInfo> nothing = Await<ConnectorStateInfo>(
      [&](Callback<ConnectorStateInfo> done) { herder_->Restart(only_failed, std::move(done)); });
  ASSERT_TRUE(nothing.ok()) << nothing.status();
  EXPECT_EQ(States(*nothing), "RUNNING/RUNNING");
  RestartRequest all{"src", /*only_failed=*/false, /*include_tasks=*/true};
  absl::StatusOr<ConnectorStateInfo> restarting = Await<ConnectorStateInfo>(
      [&](Callback<ConnectorStateInfo> done) { herder_->Restart(all, std::move(done)); });
  ASSERT_TRUE(restarting.ok()) << restarting.status();
  EXPECT_EQ(States(*restarting), "RESTARTING/RESTARTING");
  EXPECT_EQ(WaitForStates("src", "RUNNING/RUNNING"), "RUNNING/RUNNING");
}

TEST_F(StandaloneHerderTest, DeletedConnectorIsGone) {
  ASSERT_TRUE(Put("src", Source(1)).ok());
  ASSERT_EQ(WaitForStates("src", "RUNNING/RUNNING"), "RUNNING/RUNNING");
  ASSERT_TRUE(
      AwaitDone([&](DoneCallback done) { herder_->DeleteConnector("src", std::move(done)); }).ok());
  absl::StatusOr<ConnectorStateInfo> status = herder_->ConnectorStatus("src");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(rest::HttpStatusFor(status.status()), 404);
  absl::StatusOr<std::vector<std::string>> names = Await<std::vector<std::string>>(
      [&](Callback<std::vector<std::string>> done) { herder_->ListConnectors(std::move(done)); });
  ASSERT_TRUE(names.ok());
  EXPECT_TRUE(names->empty());
  absl::Status again =
      AwaitDone([&](DoneCallback done) { herder_->DeleteConnector("src", std::move(done)); });
  EXPECT_EQ(rest::HttpStatusFor(again), 404);
}

}  // namespace
}  // namespace connectd::herder
