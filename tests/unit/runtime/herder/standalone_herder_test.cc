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

#include "rest/error_mapping.h"
#include "runtime/plugin/host_api.h"
#include "runtime/storage/memory_offset_backing_store.h"
#include "runtime/worker/backing_store_offsets.h"
#include "tests/unit/runtime/herder/herder_test_support.h"

namespace connectd::herder {
namespace {

using test_support::Await;
using test_support::AwaitDone;
using test_support::IdleSourceRegistry;
using test_support::States;
using test_support::StatesOf;
using test_support::WaitFor;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

class StandaloneHerderTest : public ::testing::Test {
 protected:
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
        options, *IdleSourceRegistry(), offsets,
        [this, offsets](worker::StatusListener& listener, worker::ConnectorEvents& events,
                        const std::string& worker_id) {
          absl::StatusOr<config::ConfigProviders> providers = config::ConfigProviders::Create({});
          return std::make_unique<worker::Worker>(*config_, *IdleSourceRegistry(),
                                                  *std::move(providers), offsets, listener, events,
                                                  worker_id, metrics_);
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
    return WaitFor([&] { return StatesOf(*herder_, name); }, expected);
  }

  static ConfigMap Source(int tasks) {
    return {
        {"connector.class", "IdleSource"}, {"tasks.max", std::to_string(tasks)}, {"topic", "t"}};
  }

  std::unique_ptr<config::WorkerConfig> config_;
  std::shared_ptr<storage::MemoryOffsetBackingStore> offsets_;
  metrics::MetricsRegistry metrics_;
  std::unique_ptr<StandaloneHerder> herder_;
};

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
