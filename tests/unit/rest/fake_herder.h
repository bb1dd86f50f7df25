// FakeHerder: an in-memory herder::Herder for REST tests, with Connect's error messages and
// knobs to answer from another thread, hold callbacks (timeouts) or fail the next call.
#pragma once

#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "runtime/herder_api/herder.h"

namespace connectd::rest::testing {

class FakeHerder : public herder::Herder {
 public:
  struct Connector {
    herder::ConfigMap config;
    herder::ConnectorType type = herder::ConnectorType::kSource;
    std::vector<herder::ConfigMap> tasks;
    std::optional<herder::ConnectorStateInfo> status;
    herder::TargetState target = herder::TargetState::kStarted;
    std::vector<std::string> topics;
    herder::ConnectorOffsets offsets;
  };

  FakeHerder();
  ~FakeHerder() override;

  // ---- Setup and inspection (thread-safe) ---------------------------------------------------
  // Adds a running source connector `name` with `tasks` tasks and a RUNNING status.
  void AddConnector(const std::string& name, int tasks = 1,
                    herder::ConnectorType type = herder::ConnectorType::kSource);
  std::optional<Connector> Get(const std::string& name);
  void Mutate(const std::string& name, const std::function<void(Connector&)>& fn);
  // Every herder call so far, as "Method(arg)".
  std::vector<std::string> Calls();

  // Answer callbacks from a separate thread instead of inline.
  void set_answer_async(bool async) { answer_async_ = async; }
  // Keep callbacks instead of answering (the REST request times out); ReleaseHeld() answers.
  void set_hold_callbacks(bool hold) { hold_callbacks_ = hold; }
  void ReleaseHeld();
  // Waits for every callback answered from a separate thread.
  void JoinThreads();
  // The next herder call (callback or synchronous) fails with `status`.
  void FailNext(absl::Status status);
  void set_ready(bool ready) { ready_ = ready; }
  void set_validation(herder::ConfigInfos infos);
  void set_plugins(std::vector<herder::PluginInfo> plugins) { plugins_ = std::move(plugins); }
  void set_plugin_config(const std::string& plugin, std::vector<herder::ConfigKeyInfo> keys);

  std::optional<herder::TargetState> last_initial_state;
  std::optional<herder::RestartRequest> last_restart;
  std::optional<herder::ConnectorOffsets> last_altered_offsets;
  std::optional<std::map<std::string, std::optional<std::string>>> last_patch;
  std::optional<herder::ConfigMap> last_validated;
  std::optional<std::pair<std::string, std::string>> last_cluster_logger;

  // The internal endpoints call these when set (set them before serving); unset, they answer
  // as the standalone herder does (herder::Herder's default bodies).
  std::function<void(const std::string&, const std::vector<herder::ConfigMap>&,
                     std::optional<herder::InternalRequestSignature>, herder::DoneCallback)>
      put_task_configs_hook;
  std::function<void(const std::string&, std::optional<herder::InternalRequestSignature>,
                     herder::DoneCallback)>
      fence_hook;

  // ---- herder::Herder ------------------------------------------------------------------------
  void ListConnectors(herder::Callback<std::vector<std::string>> done) override;
  void GetConnectorInfo(const std::string& name,
                        herder::Callback<herder::ConnectorInfo> done) override;
  void GetConnectorConfig(const std::string& name,
                          herder::Callback<herder::ConfigMap> done) override;
  void PutConnectorConfig(const std::string& name, const herder::ConfigMap& config,
                          std::optional<herder::TargetState> initial_state, bool allow_replace,
                          herder::Callback<herder::Created> done) override;
  void PatchConnectorConfig(const std::string& name,
                            const std::map<std::string, std::optional<std::string>>& patch,
                            herder::Callback<herder::ConnectorInfo> done) override;
  void DeleteConnector(const std::string& name, herder::DoneCallback done) override;
  void GetTaskConfigs(const std::string& name,
                      herder::Callback<std::vector<herder::TaskInfo>> done) override;
  absl::StatusOr<herder::ConnectorStateInfo> ConnectorStatus(const std::string& name) override;
  absl::StatusOr<herder::TaskStateInfo> TaskStatus(const herder::ConnectorTaskId& id) override;
  void RestartConnector(const std::string& name, herder::DoneCallback done) override;
  void Restart(const herder::RestartRequest& request,
               herder::Callback<herder::ConnectorStateInfo> done) override;
  void RestartTask(const herder::ConnectorTaskId& id, herder::DoneCallback done) override;
  absl::Status PauseConnector(const std::string& name) override;
  absl::Status ResumeConnector(const std::string& name) override;
  void StopConnector(const std::string& name, herder::DoneCallback done) override;
  absl::StatusOr<std::vector<std::string>> ConnectorActiveTopics(const std::string& name) override;
  absl::Status ResetConnectorActiveTopics(const std::string& name) override;
  void GetConnectorOffsets(const std::string& name,
                           herder::Callback<herder::ConnectorOffsets> done) override;
  void AlterConnectorOffsets(const std::string& name, const herder::ConnectorOffsets& offsets,
                             herder::Callback<std::string> done) override;
  void ResetConnectorOffsets(const std::string& name, herder::Callback<std::string> done) override;
  std::vector<herder::PluginInfo> ConnectorPlugins(bool connectors_only) override;
  absl::StatusOr<std::vector<herder::ConfigKeyInfo>> ConnectorPluginConfig(
      const std::string& plugin, const std::optional<std::string>& version) override;
  void ValidateConnectorConfig(const herder::ConfigMap& config,
                               herder::Callback<herder::ConfigInfos> done) override;
  herder::ServerInfo GetServerInfo() override;
  void Health(herder::DoneCallback done) override;
  bool Ready() override { return ready_; }
  absl::Status SetClusterLoggerLevel(const std::string& logger, const std::string& level) override;
  void PutTaskConfigs(const std::string& name, const std::vector<herder::ConfigMap>& configs,
                      std::optional<herder::InternalRequestSignature> signature,
                      herder::DoneCallback done) override;
  void FenceZombieSourceTasks(const std::string& name,
                              std::optional<herder::InternalRequestSignature> signature,
                              herder::DoneCallback done) override;

 private:
  // Runs `answer` inline, on another thread, or keeps it, per the knobs.
  void Answer(std::function<void()> answer);
  // The injected failure, if any (and clears it).
  std::optional<absl::Status> TakeFailure();
  void Record(std::string call);
  herder::ConnectorInfo InfoLocked(const std::string& name, const Connector& c) const;

  std::mutex mu_;
  std::map<std::string, Connector> connectors_;
  std::vector<std::string> calls_;
  std::optional<absl::Status> fail_next_;
  std::vector<std::function<void()>> held_;
  std::vector<std::thread> threads_;
  std::atomic<bool> answer_async_{false};
  std::atomic<bool> hold_callbacks_{false};
  std::atomic<bool> ready_{true};
  std::optional<herder::ConfigInfos> validation_;
  std::vector<herder::PluginInfo> plugins_;
  std::map<std::string, std::vector<herder::ConfigKeyInfo>> plugin_configs_;
};

}  // namespace connectd::rest::testing
