// File: worker_connector.h
//
// WorkerConnector: one running connector instance (Connect's WorkerConnector) and its context.
// The connector's requests (task reconfiguration, raised errors) go to ConnectorEvents, which
// the herder implements; they may arrive from any thread, including the connector's own.
//
// Threads: created, transitioned and stopped on the herder's thread; context calls from any.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "runtime/herder_api/herder_types.h"
#include "runtime/herder_api/task_status.h"
#include "runtime/metrics/metrics.h"
#include "runtime/plugin/plugin_instances.h"
#include "runtime/plugin/plugin_registry.h"

namespace connectd::worker {

class ConnectorEvents {
 public:
  virtual ~ConnectorEvents() = default;
  virtual void OnTaskReconfigurationRequest(const std::string& connector) = 0;
};

class WorkerConnector : private plugin::ConnectorContextHost {
 public:
  WorkerConnector(std::string name, const plugin::ConnectorPlugin& plugin,
                  plugin::Props resolved_config, StatusListener& listener, ConnectorEvents& events,
                  metrics::MetricsRegistry& metrics);
  ~WorkerConnector() override;

  // Creates the instance and, for kStarted, starts it. Reports RUNNING, PAUSED, STOPPED or
  // FAILED. Returns the failure, if any.
  absl::Status Initialize(herder::TargetState state);
  // Starts or stops the instance to match `state`, reporting the new state.
  void Transition(herder::TargetState state);
  // Connector.taskConfigs; fails (and the connector FAILS) if it returns more than max_tasks.
  absl::StatusOr<plugin::TaskConfigList> TaskConfigs(int max_tasks, bool enforce_max);
  // Stops the instance if running (status left to the caller: UNASSIGNED or deleted).
  void Shutdown();

  bool running() const { return started_; }
  bool failed() const { return failed_; }
  const plugin::ConnectorPlugin& plugin() const { return plugin_; }

 private:
  void RequestTaskReconfiguration() override;
  void RaiseError(std::string message) override;
  metrics::MetricsScope* Metrics() override { return &metrics_scope_; }
  void Fail(const absl::Status& status);

  const std::string name_;
  const plugin::ConnectorPlugin& plugin_;
  const plugin::Props config_;
  StatusListener& listener_;
  ConnectorEvents& events_;
  // Declared before instance_: the plugin's sensors outlive the plugin object.
  metrics::MetricsScope metrics_scope_;
  std::unique_ptr<plugin::ConnectorInstance> instance_;
  bool started_ = false;
  std::atomic<bool> failed_{false};
};

}  // namespace connectd::worker
