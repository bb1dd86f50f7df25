#include "tests/unit/rest/fake_herder.h"

#include "absl/strings/str_cat.h"
#include "rest/json_entities.h"

namespace connectd::rest::testing {

using herder::ConnectorStateInfo;
using herder::TaskStateInfo;

FakeHerder::FakeHerder() {
  plugins_ = {
      {"org.apache.kafka.connect.file.FileStreamSinkConnector", "sink", "4.4.0"},
      {"org.apache.kafka.connect.file.FileStreamSourceConnector", "source", "4.4.0"},
      {"org.apache.kafka.connect.transforms.InsertField$Value", "transformation", ""},
  };
}

FakeHerder::~FakeHerder() { JoinThreads(); }

void FakeHerder::JoinThreads() {
  std::vector<std::thread> threads;
  {
    std::lock_guard lock(mu_);
    threads.swap(threads_);
  }
  for (std::thread& t : threads) t.join();
}

void FakeHerder::AddConnector(const std::string& name, int tasks, herder::ConnectorType type) {
  std::lock_guard lock(mu_);
  Connector c;
  c.type = type;
  c.config = {{"name", name},
              {"connector.class", "FileStreamSource"},
              {"tasks.max", std::to_string(tasks)}};
  ConnectorStateInfo status;
  status.name = name;
  status.connector = {"RUNNING", "w1:8083", std::nullopt};
  status.type = type;
  for (int i = 0; i < tasks; ++i) {
    c.tasks.push_back({{"task.class", "FileStreamSourceTask"}, {"file", absl::StrCat("/f", i)}});
    status.tasks.push_back({i, {"RUNNING", "w1:8083", std::nullopt}});
  }
  c.status = status;
  connectors_[name] = std::move(c);
}

std::optional<FakeHerder::Connector> FakeHerder::Get(const std::string& name) {
  std::lock_guard lock(mu_);
  auto it = connectors_.find(name);
  if (it == connectors_.end()) return std::nullopt;
  return it->second;
}

void FakeHerder::Mutate(const std::string& name, const std::function<void(Connector&)>& fn) {
  std::lock_guard lock(mu_);
  fn(connectors_.at(name));
}

std::vector<std::string> FakeHerder::Calls() {
  std::lock_guard lock(mu_);
  return calls_;
}

void FakeHerder::ReleaseHeld() {
  std::vector<std::function<void()>> held;
  {
    std::lock_guard lock(mu_);
    held.swap(held_);
  }
  for (auto& fn : held) fn();
}

void FakeHerder::FailNext(absl::Status status) {
  std::lock_guard lock(mu_);
  fail_next_ = std::move(status);
}

void FakeHerder::set_validation(herder::ConfigInfos infos) {
  std::lock_guard lock(mu_);
  validation_ = std::move(infos);
}

void FakeHerder::set_plugin_config(const std::string& plugin,
                                   std::vector<herder::ConfigKeyInfo> keys) {
  std::lock_guard lock(mu_);
  plugin_configs_[plugin] = std::move(keys);
}

void FakeHerder::Answer(std::function<void()> answer) {
  if (hold_callbacks_) {
    std::lock_guard lock(mu_);
    held_.push_back(std::move(answer));
    return;
  }
  if (answer_async_) {
    std::lock_guard lock(mu_);
    threads_.emplace_back(std::move(answer));
    return;
  }
  answer();
}

std::optional<absl::Status> FakeHerder::TakeFailure() {
  std::lock_guard lock(mu_);
  std::optional<absl::Status> failure = std::move(fail_next_);
  fail_next_.reset();
  return failure;
}

void FakeHerder::Record(std::string call) {
  std::lock_guard lock(mu_);
  calls_.push_back(std::move(call));
}

herder::ConnectorInfo FakeHerder::InfoLocked(const std::string& name, const Connector& c) const {
  herder::ConnectorInfo info;
  info.name = name;
  info.config = c.config;
  info.type = c.type;
  for (size_t i = 0; i < c.tasks.size(); ++i) info.tasks.push_back({name, static_cast<int>(i)});
  return info;
}

namespace {
absl::Status ConnectorNotFound(const std::string& name) {
  return absl::NotFoundError(absl::StrCat("Connector ", name, " not found"));
}
}  // namespace

void FakeHerder::ListConnectors(herder::Callback<std::vector<std::string>> done) {
  Record("ListConnectors()");
  std::optional<absl::Status> failure = TakeFailure();
  std::vector<std::string> names;
  {
    std::lock_guard lock(mu_);
    for (const auto& [name, c] : connectors_) names.push_back(name);
  }
  Answer([done, failure, names] {
    if (failure) {
      done(*failure);
    } else {
      done(names);
    }
  });
}

void FakeHerder::GetConnectorInfo(const std::string& name,
                                  herder::Callback<herder::ConnectorInfo> done) {
  Record(absl::StrCat("GetConnectorInfo(", name, ")"));
  std::optional<absl::Status> failure = TakeFailure();
  absl::StatusOr<herder::ConnectorInfo> result = ConnectorNotFound(name);
  {
    std::lock_guard lock(mu_);
    auto it = connectors_.find(name);
    if (it != connectors_.end()) result = InfoLocked(name, it->second);
  }
  if (failure) result = *failure;
  Answer([done, result] { done(result); });
}

void FakeHerder::GetConnectorConfig(const std::string& name,
                                    herder::Callback<herder::ConfigMap> done) {
  Record(absl::StrCat("GetConnectorConfig(", name, ")"));
  std::optional<absl::Status> failure = TakeFailure();
  absl::StatusOr<herder::ConfigMap> result = ConnectorNotFound(name);
  {
    std::lock_guard lock(mu_);
    auto it = connectors_.find(name);
    if (it != connectors_.end()) result = it->second.config;
  }
  if (failure) result = *failure;
  Answer([done, result] { done(result); });
}

void FakeHerder::PutConnectorConfig(const std::string& name, const herder::ConfigMap& config,
                                    std::optional<herder::TargetState> initial_state,
                                    bool allow_replace, herder::Callback<herder::Created> done) {
  Record(absl::StrCat("PutConnectorConfig(", name, ",", allow_replace, ")"));
  std::optional<absl::Status> failure = TakeFailure();
  absl::StatusOr<herder::Created> result;
  {
    std::lock_guard lock(mu_);
    last_initial_state = initial_state;
    auto it = connectors_.find(name);
    if (failure) {
      result = *failure;
    } else if (!allow_replace && it != connectors_.end()) {
      result = absl::AlreadyExistsError(absl::StrCat("Connector ", name, " already exists"));
    } else if (!config.count("connector.class")) {
      herder::ConfigInfos infos;
      infos.name = "";
      infos.error_count = 1;
      herder::ConfigValueInfo value;
      value.name = "connector.class";
      value.errors = {
          "Missing required configuration \"connector.class\" which has no default "
          "value."};
      infos.configs.push_back({std::nullopt, value});
      result = absl::InvalidArgumentError(ConfigErrorsMessage(infos));
    } else {
      herder::Created created;
      created.created = it == connectors_.end();
      Connector& c = connectors_[name];
      c.config = config;
      if (created.created) {
        ConnectorStateInfo status;
        status.name = name;
        status.connector = {"UNASSIGNED", "w1:8083", std::nullopt};
        status.type = c.type;
        c.status = status;
        c.target = initial_state.value_or(herder::TargetState::kStarted);
      }
      // Connect answers the new config with the old task list.
      created.info = InfoLocked(name, c);
      result = created;
    }
  }
  Answer([done, result] { done(result); });
}

void FakeHerder::PatchConnectorConfig(
    const std::string& name, const std::map<std::string, std::optional<std::string>>& patch,
    herder::Callback<herder::ConnectorInfo> done) {
  Record(absl::StrCat("PatchConnectorConfig(", name, ")"));
  std::optional<absl::Status> failure = TakeFailure();
  absl::StatusOr<herder::ConnectorInfo> result = ConnectorNotFound(name);
  {
    std::lock_guard lock(mu_);
    last_patch = patch;
    auto it = connectors_.find(name);
    if (it != connectors_.end()) {
      for (const auto& [k, v] : patch) {
        if (v) {
          it->second.config[k] = *v;
        } else {
          it->second.config.erase(k);
        }
      }
      result = InfoLocked(name, it->second);
    }
  }
  if (failure) result = *failure;
  Answer([done, result] { done(result); });
}

void FakeHerder::DeleteConnector(const std::string& name, herder::DoneCallback done) {
  Record(absl::StrCat("DeleteConnector(", name, ")"));
  std::optional<absl::Status> failure = TakeFailure();
  absl::Status result = ConnectorNotFound(name);
  {
    std::lock_guard lock(mu_);
    if (connectors_.erase(name) > 0) result = absl::OkStatus();
  }
  if (failure) result = *failure;
  Answer([done, result] { done(result); });
}

void FakeHerder::GetTaskConfigs(const std::string& name,
                                herder::Callback<std::vector<herder::TaskInfo>> done) {
  Record(absl::StrCat("GetTaskConfigs(", name, ")"));
  std::optional<absl::Status> failure = TakeFailure();
  absl::StatusOr<std::vector<herder::TaskInfo>> result = ConnectorNotFound(name);
  {
    std::lock_guard lock(mu_);
    auto it = connectors_.find(name);
    if (it != connectors_.end()) {
      std::vector<herder::TaskInfo> tasks;
      for (size_t i = 0; i < it->second.tasks.size(); ++i) {
        tasks.push_back({{name, static_cast<int>(i)}, it->second.tasks[i]});
      }
      result = tasks;
    }
  }
  if (failure) result = *failure;
  Answer([done, result] { done(result); });
}

absl::StatusOr<ConnectorStateInfo> FakeHerder::ConnectorStatus(const std::string& name) {
  Record(absl::StrCat("ConnectorStatus(", name, ")"));
  if (std::optional<absl::Status> failure = TakeFailure()) return *failure;
  std::lock_guard lock(mu_);
  auto it = connectors_.find(name);
  if (it == connectors_.end() || !it->second.status) {
    return absl::NotFoundError(absl::StrCat("No status found for connector ", name));
  }
  return *it->second.status;
}

absl::StatusOr<TaskStateInfo> FakeHerder::TaskStatus(const herder::ConnectorTaskId& id) {
  Record(absl::StrCat("TaskStatus(", id.connector, "-", id.task, ")"));
  if (std::optional<absl::Status> failure = TakeFailure()) return *failure;
  std::lock_guard lock(mu_);
  auto it = connectors_.find(id.connector);
  if (it != connectors_.end() && it->second.status) {
    for (const TaskStateInfo& task : it->second.status->tasks) {
      if (task.id == id.task) return task;
    }
  }
  return absl::NotFoundError(absl::StrCat("No status found for task ", id.connector, "-", id.task));
}

void FakeHerder::RestartConnector(const std::string& name, herder::DoneCallback done) {
  Record(absl::StrCat("RestartConnector(", name, ")"));
  std::optional<absl::Status> failure = TakeFailure();
  absl::Status result = absl::NotFoundError(absl::StrCat("Unknown connector: ", name));
  {
    std::lock_guard lock(mu_);
    if (connectors_.count(name)) result = absl::OkStatus();
  }
  if (failure) result = *failure;
  Answer([done, result] { done(result); });
}

void FakeHerder::Restart(const herder::RestartRequest& request,
                         herder::Callback<ConnectorStateInfo> done) {
  Record(absl::StrCat("Restart(", request.connector, ")"));
  std::optional<absl::Status> failure = TakeFailure();
  absl::StatusOr<ConnectorStateInfo> result =
      absl::NotFoundError(absl::StrCat("Unknown connector: ", request.connector));
  {
    std::lock_guard lock(mu_);
    last_restart = request;
    auto it = connectors_.find(request.connector);
    if (it != connectors_.end() && it->second.status) {
      ConnectorStateInfo plan = *it->second.status;
      auto restarting = [&](herder::StateInfo& s) {
        if (!request.only_failed || s.state == "FAILED") s.state = "RESTARTING";
      };
      restarting(plan.connector);
      if (request.include_tasks) {
        for (TaskStateInfo& task : plan.tasks) restarting(task.state);
      }
      result = plan;
    }
  }
  if (failure) result = *failure;
  Answer([done, result] { done(result); });
}

void FakeHerder::RestartTask(const herder::ConnectorTaskId& id, herder::DoneCallback done) {
  Record(absl::StrCat("RestartTask(", id.connector, "-", id.task, ")"));
  std::optional<absl::Status> failure = TakeFailure();
  absl::Status result = absl::NotFoundError(absl::StrCat("Unknown connector: ", id.connector));
  {
    std::lock_guard lock(mu_);
    auto it = connectors_.find(id.connector);
    if (it != connectors_.end()) {
      result =
          id.task >= 0 && id.task < static_cast<int>(it->second.tasks.size())
              ? absl::OkStatus()
              : absl::NotFoundError(absl::StrCat("Unknown task: ", id.connector, "-", id.task));
    }
  }
  if (failure) result = *failure;
  Answer([done, result] { done(result); });
}

absl::Status FakeHerder::PauseConnector(const std::string& name) {
  Record(absl::StrCat("PauseConnector(", name, ")"));
  if (std::optional<absl::Status> failure = TakeFailure()) return *failure;
  std::lock_guard lock(mu_);
  auto it = connectors_.find(name);
  if (it == connectors_.end()) return absl::NotFoundError(absl::StrCat("Unknown connector ", name));
  it->second.target = herder::TargetState::kPaused;
  return absl::OkStatus();
}

absl::Status FakeHerder::ResumeConnector(const std::string& name) {
  Record(absl::StrCat("ResumeConnector(", name, ")"));
  if (std::optional<absl::Status> failure = TakeFailure()) return *failure;
  std::lock_guard lock(mu_);
  auto it = connectors_.find(name);
  if (it == connectors_.end()) return absl::NotFoundError(absl::StrCat("Unknown connector ", name));
  it->second.target = herder::TargetState::kStarted;
  return absl::OkStatus();
}

void FakeHerder::StopConnector(const std::string& name, herder::DoneCallback done) {
  Record(absl::StrCat("StopConnector(", name, ")"));
  std::optional<absl::Status> failure = TakeFailure();
  absl::Status result = absl::NotFoundError(absl::StrCat("Unknown connector ", name));
  {
    std::lock_guard lock(mu_);
    auto it = connectors_.find(name);
    if (it != connectors_.end()) {
      it->second.target = herder::TargetState::kStopped;
      it->second.tasks.clear();
      result = absl::OkStatus();
    }
  }
  if (failure) result = *failure;
  Answer([done, result] { done(result); });
}

absl::StatusOr<std::vector<std::string>> FakeHerder::ConnectorActiveTopics(
    const std::string& name) {
  Record(absl::StrCat("ConnectorActiveTopics(", name, ")"));
  if (std::optional<absl::Status> failure = TakeFailure()) return *failure;
  std::lock_guard lock(mu_);
  auto it = connectors_.find(name);
  if (it == connectors_.end()) return std::vector<std::string>();
  return it->second.topics;
}

absl::Status FakeHerder::ResetConnectorActiveTopics(const std::string& name) {
  Record(absl::StrCat("ResetConnectorActiveTopics(", name, ")"));
  if (std::optional<absl::Status> failure = TakeFailure()) return *failure;
  std::lock_guard lock(mu_);
  auto it = connectors_.find(name);
  if (it != connectors_.end()) it->second.topics.clear();
  return absl::OkStatus();
}

void FakeHerder::GetConnectorOffsets(const std::string& name,
                                     herder::Callback<herder::ConnectorOffsets> done) {
  Record(absl::StrCat("GetConnectorOffsets(", name, ")"));
  std::optional<absl::Status> failure = TakeFailure();
  absl::StatusOr<herder::ConnectorOffsets> result = ConnectorNotFound(name);
  {
    std::lock_guard lock(mu_);
    auto it = connectors_.find(name);
    if (it != connectors_.end()) result = it->second.offsets;
  }
  if (failure) result = *failure;
  Answer([done, result] { done(result); });
}

void FakeHerder::AlterConnectorOffsets(const std::string& name,
                                       const herder::ConnectorOffsets& offsets,
                                       herder::Callback<std::string> done) {
  Record(absl::StrCat("AlterConnectorOffsets(", name, ")"));
  std::optional<absl::Status> failure = TakeFailure();
  absl::StatusOr<std::string> result = ConnectorNotFound(name);
  {
    std::lock_guard lock(mu_);
    last_altered_offsets = offsets;
    auto it = connectors_.find(name);
    if (it != connectors_.end()) {
      if (it->second.target != herder::TargetState::kStopped) {
        result = herder::WithHttpStatus(
            absl::FailedPreconditionError(absl::StrCat(
                "Connectors must be in the STOPPED state before their offsets can be modified. "
                "This can be done for the specified connector by issuing a 'PUT' request to the "
                "'/connectors/",
                name, "/stop' endpoint")),
            400);
      } else {
        it->second.offsets = offsets;
        result = std::string("The offsets for this connector have been altered successfully");
      }
    }
  }
  if (failure) result = *failure;
  Answer([done, result] { done(result); });
}

void FakeHerder::ResetConnectorOffsets(const std::string& name,
                                       herder::Callback<std::string> done) {
  Record(absl::StrCat("ResetConnectorOffsets(", name, ")"));
  std::optional<absl::Status> failure = TakeFailure();
  absl::StatusOr<std::string> result = ConnectorNotFound(name);
  {
    std::lock_guard lock(mu_);
    auto it = connectors_.find(name);
    if (it != connectors_.end()) {
      it->second.offsets.offsets.clear();
      result = std::string(
          "The Connect framework-managed offsets for this connector have been reset successfully. "
          "However, if this connector manages offsets externally, they will need to be manually "
          "reset in the system that the connector uses.");
    }
  }
  if (failure) result = *failure;
  Answer([done, result] { done(result); });
}

std::vector<herder::PluginInfo> FakeHerder::ConnectorPlugins(bool connectors_only) {
  Record(absl::StrCat("ConnectorPlugins(", connectors_only, ")"));
  std::vector<herder::PluginInfo> out;
  for (const herder::PluginInfo& p : plugins_) {
    if (!connectors_only || p.type == "sink" || p.type == "source") out.push_back(p);
  }
  return out;
}

absl::StatusOr<std::vector<herder::ConfigKeyInfo>> FakeHerder::ConnectorPluginConfig(
    const std::string& plugin, const std::optional<std::string>& version) {
  (void)version;
  Record(absl::StrCat("ConnectorPluginConfig(", plugin, ")"));
  if (std::optional<absl::Status> failure = TakeFailure()) return *failure;
  std::lock_guard lock(mu_);
  auto it = plugin_configs_.find(plugin);
  if (it == plugin_configs_.end()) {
    return absl::NotFoundError(absl::StrCat("Unknown plugin ", plugin, "."));
  }
  return it->second;
}

void FakeHerder::ValidateConnectorConfig(const herder::ConfigMap& config,
                                         herder::Callback<herder::ConfigInfos> done) {
  Record("ValidateConnectorConfig()");
  std::optional<absl::Status> failure = TakeFailure();
  absl::StatusOr<herder::ConfigInfos> result;
  {
    std::lock_guard lock(mu_);
    last_validated = config;
    herder::ConfigInfos infos = validation_.value_or(herder::ConfigInfos{});
    auto cls = config.find("connector.class");
    infos.name = cls == config.end() ? "" : cls->second;
    result = infos;
  }
  if (failure) result = *failure;
  Answer([done, result] { done(result); });
}

herder::ServerInfo FakeHerder::GetServerInfo() {
  Record("GetServerInfo()");
  return {"4.4.0", "0123456789abcdef", "kafka-cluster-1"};
}

void FakeHerder::Health(herder::DoneCallback done) {
  Record("Health()");
  std::optional<absl::Status> failure = TakeFailure();
  Answer([done, failure] { done(failure.value_or(absl::OkStatus())); });
}

absl::Status FakeHerder::SetClusterLoggerLevel(const std::string& logger,
                                               const std::string& level) {
  Record(absl::StrCat("SetClusterLoggerLevel(", logger, ",", level, ")"));
  if (std::optional<absl::Status> failure = TakeFailure()) return *failure;
  std::lock_guard lock(mu_);
  last_cluster_logger = {logger, level};
  return absl::OkStatus();
}

void FakeHerder::PutTaskConfigs(const std::string& name,
                                const std::vector<herder::ConfigMap>& configs,
                                std::optional<herder::InternalRequestSignature> signature,
                                herder::DoneCallback done) {
  Record("PutTaskConfigs(" + name + ")");
  if (put_task_configs_hook) {
    put_task_configs_hook(name, configs, std::move(signature), std::move(done));
  } else {
    herder::Herder::PutTaskConfigs(name, configs, std::move(signature), std::move(done));
  }
}

void FakeHerder::FenceZombieSourceTasks(const std::string& name,
                                        std::optional<herder::InternalRequestSignature> signature,
                                        herder::DoneCallback done) {
  Record("FenceZombieSourceTasks(" + name + ")");
  if (fence_hook) {
    fence_hook(name, std::move(signature), std::move(done));
  } else {
    herder::Herder::FenceZombieSourceTasks(name, std::move(signature), std::move(done));
  }
}

}  // namespace connectd::rest::testing
