// File: worker.h
//
// Worker: runs this process's connectors and tasks (Connect's Worker). The herder decides what
// runs; the Worker builds each connector instance and task with its clients (producer per
// source task, consumer per sink task, configs as Connect builds them), resolves config-provider
// references just before start, and stops them.
//
// Threads: every method on the herder's thread (it may block: connector start/stop, task
// joins). Tasks run on their own threads and report through the StatusListener.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/config/config_providers.h"
#include "runtime/config/worker_config.h"
#include "runtime/herder/herder_types.h"
#include "runtime/plugin/plugin_registry.h"
#include "runtime/worker/source_offsets.h"
#include "runtime/worker/task_status.h"
#include "runtime/worker/worker_connector.h"
#include "runtime/worker/worker_task.h"

namespace connectd::worker {

// Gives a connector's offset view (the backing store bound to a connector name).
using OffsetStoreFactory = std::function<std::shared_ptr<ConnectorOffsetStore>(const std::string&)>;

class Worker {
 public:
  Worker(const config::WorkerConfig& config, const plugin::PluginRegistry& plugins,
         config::ConfigProviders providers, OffsetStoreFactory offsets, StatusListener& listener,
         ConnectorEvents& events, std::string worker_id, metrics::MetricsRegistry& metrics);
  ~Worker();

  const std::string& worker_id() const { return worker_id_; }
  const plugin::PluginRegistry& plugins() const { return plugins_; }

  // Starts connector `name` from its raw (unresolved) config in `state`. A failure is also
  // reported as FAILED status.
  absl::Status StartConnector(const std::string& name, const herder::ConfigMap& config,
                              herder::TargetState state);
  bool IsConnectorRunning(const std::string& name) const;
  void SetConnectorTargetState(const std::string& name, herder::TargetState state);
  // The connector's task configs for its tasks.max.
  absl::StatusOr<std::vector<herder::ConfigMap>> ConnectorTaskConfigs(
      const std::string& name, const herder::ConfigMap& config);
  void StopConnector(const std::string& name);

  // Starts one task from the raw connector config and raw task config.
  absl::Status StartTask(const herder::ConnectorTaskId& id,
                         const herder::ConfigMap& connector_config,
                         const herder::ConfigMap& task_config, herder::TargetState state);
  void SetTaskTargetState(const herder::ConnectorTaskId& id, herder::TargetState state);
  // Signals every task, then waits for all together (task.shutdown.graceful.timeout.ms).
  void StopAndAwaitTasks(const std::vector<herder::ConnectorTaskId>& ids);
  std::vector<herder::ConnectorTaskId> TaskIds(const std::string& connector) const;

  // Stops everything (shutdown).
  void StopAll();

 private:
  absl::StatusOr<std::unique_ptr<WorkerTask>> BuildTask(const herder::ConnectorTaskId& id,
                                                        const plugin::ConnectorPlugin& plugin,
                                                        const herder::ConfigMap& connector_config,
                                                        const herder::ConfigMap& task_config,
                                                        herder::TargetState state);

  const config::WorkerConfig& config_;
  const plugin::PluginRegistry& plugins_;
  const config::ConfigProviders providers_;
  OffsetStoreFactory offsets_;
  StatusListener& listener_;
  ConnectorEvents& events_;
  const std::string worker_id_;
  metrics::MetricsRegistry& metrics_;

  std::map<std::string, std::unique_ptr<WorkerConnector>> connectors_;
  std::map<herder::ConnectorTaskId, std::unique_ptr<WorkerTask>> tasks_;
};

}  // namespace connectd::worker
