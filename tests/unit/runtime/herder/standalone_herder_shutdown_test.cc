// StandaloneHerder::Stop() racing with work that reaches the herder thread while it stops: a
// connector that asks for task reconfiguration from its own thread as it is being stopped (as
// MirrorSourceConnector's topic refresh does when SIGTERM lands mid-refresh), a pending retry of
// a retriable taskConfigs failure, and a call that would create a connector. A real Worker runs
// in-memory SDK connectors; no Kafka.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "connectd/sdk/sdk.h"
#include "runtime/herder/standalone_herder.h"
#include "runtime/plugin/host_api.h"
#include "runtime/storage/memory_offset_backing_store.h"
#include "runtime/worker/backing_store_offsets.h"
#include "tests/unit/runtime/herder/herder_test_support.h"

namespace connectd::herder {
namespace {

using test_support::Await;
using test_support::StatesOf;
using test_support::WaitFor;

// What the tests observe of (and hook into) the connector below; reset by each test.
struct Probe {
  std::atomic<int> task_config_calls{0};
  std::atomic<int> requests_while_stopping{0};
  // Run on the connector's own thread as its stop() begins, before the reconfiguration request.
  std::function<void()> on_stop;
};
Probe* probe = nullptr;

class QuietSourceTask : public sdk::SourceTask {
 public:
  void start(const sdk::Props&) override {}
  void poll(sdk::SourceBatch&) override {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  void stop() override {}
};

// Like MirrorSourceConnector: a thread of its own that may call requestTaskReconfiguration, and
// a stop() that wakes and joins it. With `request.on.stop`, the thread's last act (woken by
// stop()) is a reconfiguration request, made while the herder is stopping the connector. With
// `retriable`, taskConfigs throws RetriableException (the herder retries after a backoff).
class RefreshingSourceConnector : public sdk::SourceConnector {
 public:
  static constexpr char kClassName[] = "org.example.RefreshingSourceConnector";
  static constexpr char kVersion[] = "0.0.1";
  using TaskType = QuietSourceTask;
  static sdk::ConfigDef configDef() { return sdk::ConfigDef(); }

  void start(const sdk::Props& props) override {
    props_ = props;
    stopping_ = false;
    const bool request_on_stop = props.count("request.on.stop") != 0;
    refresher_ = std::thread([this, request_on_stop] {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [this] { return stopping_; });
      lock.unlock();
      if (!request_on_stop) return;
      if (probe->on_stop) probe->on_stop();
      ++probe->requests_while_stopping;
      context().requestTaskReconfiguration();
    });
  }
  std::vector<sdk::Props> taskConfigs(int max_tasks) override {
    ++probe->task_config_calls;
    if (props_.count("retriable") != 0) throw sdk::RetriableException("not ready yet");
    return std::vector<sdk::Props>(static_cast<size_t>(max_tasks), props_);
  }
  void stop() override {
    {
      std::lock_guard lock(mu_);
      stopping_ = true;
    }
    cv_.notify_all();
    if (refresher_.joinable()) refresher_.join();
  }

 private:
  sdk::Props props_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
  std::thread refresher_;
};

plugin::PluginRegistry* RefreshingSourceRegistry() {
  static plugin::PluginRegistry* registry = [] {
    connectd_error_host_ptr* error = nullptr;
    const connectd_plugin_descriptor* descriptor =
        sdk::internal::PluginEntry<RefreshingSourceConnector>(plugin::HostApi(), error,
                                                              "herder-shutdown-test", "0.0.1");
    auto* r = new plugin::PluginRegistry();
    if (descriptor == nullptr || !r->AddDescriptor(descriptor, "memory").ok()) std::abort();
    return r;
  }();
  return registry;
}

class StandaloneHerderShutdownTest : public ::testing::Test {
 protected:
  void SetUp() override {
    probe = &probe_;
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
    herder_ = std::make_unique<StandaloneHerder>(
        StandaloneHerder::Options{}, *RefreshingSourceRegistry(), offsets,
        [this, offsets](worker::StatusListener& listener, worker::ConnectorEvents& events,
                        const std::string& worker_id) {
          absl::StatusOr<config::ConfigProviders> providers = config::ConfigProviders::Create({});
          return std::make_unique<worker::Worker>(*config_, *RefreshingSourceRegistry(),
                                                  *std::move(providers), offsets, listener, events,
                                                  worker_id, metrics_);
        });
    herder_->SetWorkerId("127.0.0.1:8083");
    herder_->Start();
  }

  void TearDown() override {
    herder_->Stop();
    probe = nullptr;
  }

  absl::Status Put(const std::string& name, ConfigMap config) {
    config["name"] = name;
    config["connector.class"] = RefreshingSourceConnector::kClassName;
    return Await<Created>([&](Callback<Created> done) {
             herder_->PutConnectorConfig(name, config, std::nullopt, false, std::move(done));
           })
        .status();
  }

  std::string WaitForStates(const std::string& name, const std::string& expected) {
    return WaitFor([&] { return StatesOf(*herder_, name); }, expected);
  }

  Probe probe_;
  std::unique_ptr<config::WorkerConfig> config_;
  std::shared_ptr<storage::MemoryOffsetBackingStore> offsets_;
  metrics::MetricsRegistry metrics_;
  std::unique_ptr<StandaloneHerder> herder_;
};

// The CI crash: the request reached the herder thread behind Stop()'s own work, which had
// destroyed the Worker, and UpdateTasks called into it (SIGSEGV in Worker::IsConnectorRunning).
TEST_F(StandaloneHerderShutdownTest, ReconfigurationRequestedWhileStoppingIsIgnored) {
  ASSERT_TRUE(Put("src", {{"tasks.max", "2"}, {"request.on.stop", "true"}}).ok());
  ASSERT_EQ(WaitForStates("src", "RUNNING/RUNNING,RUNNING"), "RUNNING/RUNNING,RUNNING");
  const int calls_before_stop = probe_.task_config_calls.load();

  herder_->Stop();

  EXPECT_EQ(probe_.requests_while_stopping.load(), 1);
  // The request was not acted on: no taskConfigs call, so no task (re)started.
  EXPECT_EQ(probe_.task_config_calls.load(), calls_before_stop);
}

// A connector-creating call that reaches the herder thread after its connectors were stopped is
// answered (exactly once, as every Herder callback) and creates nothing.
TEST_F(StandaloneHerderShutdownTest, CreatingAConnectorWhileStoppingIsRefused) {
  ASSERT_TRUE(Put("src", {{"tasks.max", "1"}, {"request.on.stop", "true"}}).ok());
  ASSERT_EQ(WaitForStates("src", "RUNNING/RUNNING"), "RUNNING/RUNNING");
  auto answer = std::make_shared<std::promise<absl::Status>>();
  probe_.on_stop = [this, answer] {
    herder_->PutConnectorConfig(
        "late", {{"name", "late"}, {"connector.class", RefreshingSourceConnector::kClassName}},
        std::nullopt, false,
        [answer](absl::StatusOr<Created> created) { answer->set_value(created.status()); });
  };

  herder_->Stop();

  std::future<absl::Status> late = answer->get_future();
  ASSERT_EQ(late.wait_for(std::chrono::seconds(0)), std::future_status::ready);
  absl::Status status = late.get();
  EXPECT_TRUE(absl::IsUnavailable(status)) << status;
}

// A retry of a retriable taskConfigs failure pending at Stop() is cancelled: Stop() neither
// waits for its backoff nor lets it run against the stopped worker.
TEST_F(StandaloneHerderShutdownTest, PendingTaskConfigRetryIsCancelled) {
  ASSERT_TRUE(Put("src", {{"tasks.max", "1"}, {"retriable", "true"}}).ok());
  // Calls at 0, 250, 750, 1750 and 3750 ms; the next retry waits 4 s.
  ASSERT_EQ(WaitFor([&] { return std::to_string(probe_.task_config_calls.load()); }, "5"), "5");
  EXPECT_EQ(StatesOf(*herder_, "src"), "RUNNING/");

  const auto began = std::chrono::steady_clock::now();
  herder_->Stop();
  const auto took = std::chrono::steady_clock::now() - began;

  EXPECT_LT(took, std::chrono::seconds(2));
  EXPECT_EQ(probe_.task_config_calls.load(), 5);
}

}  // namespace
}  // namespace connectd::herder
