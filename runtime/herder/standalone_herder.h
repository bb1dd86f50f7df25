// File: standalone_herder.h
//
// StandaloneHerder: the Herder of `connectd standalone` (Connect's StandaloneHerder). Connector
// configs live in memory (given on the command line or through REST), source offsets in the
// offset file, statuses in memory. Every connector and task runs in this process.
//
// Threads: one herder thread (an io_context run by a std::thread) owns all connector state; the
// Herder methods post work to it and complete callbacks from it. Status reads are served from a
// mutex-guarded snapshot on the caller's thread. Worker tasks report status from their threads.
#pragma once

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "runtime/herder/connector_validation.h"
#include "runtime/herder_api/herder.h"
#include "runtime/worker/worker.h"

namespace connectd::herder {

class StandaloneHerder : public Herder,
                         private worker::StatusListener,
                         private worker::ConnectorEvents {
 public:
  struct Options {
    std::string worker_id;  // host:port, as statuses show it
    std::string kafka_cluster_id;
    bool topic_tracking = true;
    bool topic_tracking_reset = true;
    // librdkafka properties for the admin client that manages sink connectors' group offsets.
    std::map<std::string, std::string> admin_config;
    // The worker's client-override policy, for validation.
    WorkerValidation validation;
  };

  // `make_worker` builds the Worker with this herder as its status listener and event sink.
  using WorkerFactory = std::function<std::unique_ptr<worker::Worker>(
      worker::StatusListener&, worker::ConnectorEvents&, const std::string& worker_id)>;
  StandaloneHerder(Options options, const plugin::PluginRegistry& plugins,
                   worker::OffsetStoreFactory offsets, WorkerFactory make_worker);
  ~StandaloneHerder() override;

  // The worker id statuses carry (known once the REST server is bound). Before Start().
  void SetWorkerId(std::string worker_id) { worker_id_ = std::move(worker_id); }
  // Starts the herder thread; Ready() turns true.
  void Start();
  // Stops every connector and task (offsets flushed), then the thread. Idempotent. Once Stop()
  // has begun, a connector's request for task reconfiguration (from any thread, even one the
  // connector joins in its stop()) restarts no task and a pending task-config retry is
  // cancelled. Work that reaches the herder thread after the connectors are stopped finds none
  // (callbacks answer NotFound); a call that would create one fails with kUnavailable.
  void Stop();

  // Herder
  void ListConnectors(Callback<std::vector<std::string>> done) override;
  void GetConnectorInfo(const std::string& name, Callback<ConnectorInfo> done) override;
  void GetConnectorConfig(const std::string& name, Callback<ConfigMap> done) override;
  void PutConnectorConfig(const std::string& name, const ConfigMap& config,
                          std::optional<TargetState> initial_state, bool allow_replace,
                          Callback<Created> done) override;
  void PatchConnectorConfig(const std::string& name,
                            const std::map<std::string, std::optional<std::string>>& patch,
                            Callback<ConnectorInfo> done) override;
  void DeleteConnector(const std::string& name, DoneCallback done) override;
  void GetTaskConfigs(const std::string& name, Callback<std::vector<TaskInfo>> done) override;
  absl::StatusOr<ConnectorStateInfo> ConnectorStatus(const std::string& name) override;
  absl::StatusOr<TaskStateInfo> TaskStatus(const ConnectorTaskId& id) override;
  void RestartConnector(const std::string& name, DoneCallback done) override;
  void Restart(const RestartRequest& request, Callback<ConnectorStateInfo> done) override;
  void RestartTask(const ConnectorTaskId& id, DoneCallback done) override;
  absl::Status PauseConnector(const std::string& name) override;
  absl::Status ResumeConnector(const std::string& name) override;
  void StopConnector(const std::string& name, DoneCallback done) override;
  absl::StatusOr<std::vector<std::string>> ConnectorActiveTopics(const std::string& name) override;
  absl::Status ResetConnectorActiveTopics(const std::string& name) override;
  void GetConnectorOffsets(const std::string& name, Callback<ConnectorOffsets> done) override;
  void AlterConnectorOffsets(const std::string& name, const ConnectorOffsets& offsets,
                             Callback<std::string> done) override;
  void ResetConnectorOffsets(const std::string& name, Callback<std::string> done) override;
  std::vector<PluginInfo> ConnectorPlugins(bool connectors_only) override;
  absl::StatusOr<std::vector<ConfigKeyInfo>> ConnectorPluginConfig(
      const std::string& plugin, const std::optional<std::string>& version) override;
  void ValidateConnectorConfig(const ConfigMap& config, Callback<ConfigInfos> done) override;
  ServerInfo GetServerInfo() override;
  void Health(DoneCallback done) override;
  bool Ready() override { return ready_.load(); }
  absl::Status SetClusterLoggerLevel(const std::string& logger, const std::string& level) override;

 private:
  struct ConnectorState {
    ConfigMap config;
    TargetState target = TargetState::kStarted;
    std::vector<ConfigMap> task_configs;
    ConnectorType type = ConnectorType::kUnknown;
  };
  struct StatusEntry {
    std::optional<StateInfo> connector;
    std::map<int, StateInfo> tasks;
    ConnectorType type = ConnectorType::kUnknown;
    std::optional<std::string> version;  // the plugin's, as statuses show it
    std::set<std::string> topics;
  };

  // worker::StatusListener (any thread).
  void OnConnectorState(const std::string& connector, worker::State state,
                        std::optional<std::string> trace) override;
  void OnTaskState(const ConnectorTaskId& task, worker::State state,
                   std::optional<std::string> trace) override;
  void OnTopicUsed(const std::string& connector, const std::string& topic) override;
  // worker::ConnectorEvents (any thread).
  void OnTaskReconfigurationRequest(const std::string& connector) override;

  // Herder thread only.
  template <typename Fn>
  void Post(Fn&& fn);
  absl::Status ApplyConfig(const std::string& name, const ConfigMap& config,
                           std::optional<TargetState> initial_state, bool allow_replace,
                           bool& created);
  void StartConnectorAndTasks(const std::string& name);
  void StopConnectorAndTasks(const std::string& name);
  void UpdateTasks(const std::string& name);
  // After a retriable error from the connector's taskConfigs: UpdateTasks again after a backoff
  // (250 ms, doubling up to 60 s, as the distributed herder and Java's).
  void RetryUpdateTasksLater(const std::string& name);
  void StartTasks(const std::string& name);
  ConnectorInfo InfoOf(const std::string& name) const;
  absl::Status RequireStoppedForOffsets(const std::string& name) const;
  absl::StatusOr<std::string> ModifyOffsets(
      const std::string& name, const std::map<std::string, std::optional<std::string>>& offsets,
      bool reset);

  const Options options_;
  std::string worker_id_;  // set before Start(), then constant
  const plugin::PluginRegistry& plugins_;
  worker::OffsetStoreFactory offsets_;
  WorkerFactory make_worker_;

  boost::asio::io_context io_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
  std::thread thread_;
  std::atomic<bool> ready_{false};
  std::atomic<bool> stopped_{false};

  // Herder thread only.
  std::unique_ptr<worker::Worker> worker_;
  std::map<std::string, ConnectorState> connectors_;
  std::map<std::string, std::chrono::milliseconds> update_backoff_;  // the last retry's backoff
  // The scheduled retries (at most one per connector), for Stop() to cancel.
  std::map<std::string, std::shared_ptr<boost::asio::steady_timer>> update_timers_;

  // Guarded by status_mu_: the snapshot status reads see, and the connector names that exist.
  mutable std::mutex status_mu_;
  std::map<std::string, StatusEntry> statuses_;
  std::set<std::string> known_;
};

}  // namespace connectd::herder
