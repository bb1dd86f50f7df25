// File: herder_test_support.h
//
// What the herder tests share: in-memory SDK connectors registered without plugin.path, and
// helpers that wait for the Herder interface's asynchronous answers as a REST client would.
#pragma once

#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "connectd/sdk/sdk.h"
#include "runtime/herder_api/herder.h"
#include "runtime/plugin/host_api.h"
#include "runtime/plugin/plugin_registry.h"

namespace connectd::herder::test_support {

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
inline absl::StatusOr<T> Await(const std::function<void(Callback<T>)>& call) {
  auto promise = std::make_shared<std::promise<absl::StatusOr<T>>>();
  std::future<absl::StatusOr<T>> future = promise->get_future();
  call([promise](absl::StatusOr<T> result) { promise->set_value(std::move(result)); });
  if (future.wait_for(std::chrono::seconds(20)) != std::future_status::ready) {
    return absl::DeadlineExceededError("the herder did not answer within 20 s");
  }
  return future.get();
}

inline absl::Status AwaitDone(const std::function<void(DoneCallback)>& call) {
  auto promise = std::make_shared<std::promise<absl::Status>>();
  std::future<absl::Status> future = promise->get_future();
  call([promise](absl::Status status) { promise->set_value(std::move(status)); });
  if (future.wait_for(std::chrono::seconds(20)) != std::future_status::ready) {
    return absl::DeadlineExceededError("the herder did not answer within 20 s");
  }
  return future.get();
}

// "RUNNING/RUNNING,RUNNING": the connector's state, then its tasks' in id order.
inline std::string States(const ConnectorStateInfo& info) {
  std::string out = info.connector.state + "/";
  for (size_t i = 0; i < info.tasks.size(); ++i) {
    if (i > 0) out += ",";
    out += info.tasks[i].state.state;
  }
  return out;
}

// A registry holding IdleSourceConnector (class org.example.IdleSourceConnector, alias
// IdleSource), for the life of the test binary.
inline plugin::PluginRegistry* IdleSourceRegistry() {
  static plugin::PluginRegistry* registry = [] {
    connectd_error_host_ptr* error = nullptr;
    const connectd_plugin_descriptor* descriptor = sdk::internal::PluginEntry<IdleSourceConnector>(
        plugin::HostApi(), error, "herder-test", "1.2.3");
    auto* r = new plugin::PluginRegistry();
    if (descriptor == nullptr || !r->AddDescriptor(descriptor, "memory").ok()) std::abort();
    return r;
  }();
  return registry;
}

// Waits until `read` returns `expected`, polling every 20 ms for up to 20 s; the last value
// read otherwise.
inline std::string WaitFor(const std::function<std::string()>& read, const std::string& expected) {
  std::string seen;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    seen = read();
    if (seen == expected) return seen;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return seen;
}

// The connector's states as States() gives them, or the error message.
inline std::string StatesOf(Herder& herder, const std::string& connector) {
  absl::StatusOr<ConnectorStateInfo> info = herder.ConnectorStatus(connector);
  return info.ok() ? States(*info) : std::string(info.status().message());
}

}  // namespace connectd::herder::test_support
