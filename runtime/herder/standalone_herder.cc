#include "runtime/herder/standalone_herder.h"

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "runtime/common/logging.h"
#include "runtime/herder/connector_offsets.h"
#include "runtime/herder/connector_validation.h"

namespace connectd::herder {
namespace {

constexpr char kLogger[] = "org.apache.kafka.connect.runtime.standalone.StandaloneHerder";
constexpr auto kUpdateBackoffStart = std::chrono::milliseconds(250);
constexpr auto kUpdateBackoffMax = std::chrono::milliseconds(60000);

absl::Status NotFound(const std::string& message) { return absl::NotFoundError(message); }

}  // namespace

StandaloneHerder::StandaloneHerder(Options options, const plugin::PluginRegistry& plugins,
                                   worker::OffsetStoreFactory offsets, WorkerFactory make_worker)
    : options_(std::move(options)),
      plugins_(plugins),
      offsets_(std::move(offsets)),
      make_worker_(std::move(make_worker)),
      work_(io_.get_executor()) {}

StandaloneHerder::~StandaloneHerder() { Stop(); }

template <typename Fn>
void StandaloneHerder::Post(Fn&& fn) {
  boost::asio::post(io_, std::forward<Fn>(fn));
}

void StandaloneHerder::Start() {
  worker_ = make_worker_(*this, *this, worker_id_);
  thread_ = std::thread([this] {
    log::LogContext context("herder");
    io_.run();
  });
  ready_ = true;
  CONNECTD_LOG(kInfo, kLogger) << "Herder started";
}

void StandaloneHerder::Stop() {
  if (stopped_.exchange(true) || !thread_.joinable()) return;
  CONNECTD_LOG(kInfo, kLogger) << "Herder stopping";
  Post([this] {
    for (auto& [name, state] : connectors_) StopConnectorAndTasks(name);
    // The io_context runs on until its queue is empty: work queued behind this one (a request a
    // connector made while being stopped above, a REST call) must find no connector to touch
    // the destroyed worker through, and no retry may hold the thread for its backoff.
    connectors_.clear();
    for (auto& [name, timer] : update_timers_) timer->cancel();
    update_timers_.clear();
    worker_.reset();
    work_.reset();
  });
  thread_.join();
  ready_ = false;
  CONNECTD_LOG(kInfo, kLogger) << "Herder stopped";
}

// ---- Status listener -------------------------------------------------------------------------

void StandaloneHerder::OnConnectorState(const std::string& connector, worker::State state,
                                        std::optional<std::string> trace) {
  std::lock_guard lock(status_mu_);
  if (known_.count(connector) == 0) return;
  StatusEntry& entry = statuses_[connector];
  entry.connector =
      StateInfo{std::string(worker::StateName(state)), worker_id_, std::move(trace), entry.version};
}

void StandaloneHerder::OnTaskState(const ConnectorTaskId& task, worker::State state,
                                   std::optional<std::string> trace) {
  std::lock_guard lock(status_mu_);
  if (known_.count(task.connector) == 0) return;
  StatusEntry& entry = statuses_[task.connector];
  entry.tasks[task.task] =
      StateInfo{std::string(worker::StateName(state)), worker_id_, std::move(trace), entry.version};
}

void StandaloneHerder::OnTopicUsed(const std::string& connector, const std::string& topic) {
  std::lock_guard lock(status_mu_);
  if (known_.count(connector) != 0) statuses_[connector].topics.insert(topic);
}

void StandaloneHerder::OnTaskReconfigurationRequest(const std::string& connector) {
  Post([this, connector] {
    // Once Stop() has begun no task is restarted: Stop stops them all.
    if (!stopped_ && connectors_.count(connector) != 0) UpdateTasks(connector);
  });
}

// ---- Connector lifecycle (herder thread) -----------------------------------------------------

void StandaloneHerder::StartTasks(const std::string& name) {
  ConnectorState& state = connectors_.at(name);
  for (size_t i = 0; i < state.task_configs.size(); ++i) {
    ConnectorTaskId id{name, static_cast<int>(i)};
    (void)worker_->StartTask(id, state.config, state.task_configs[i], state.target);
  }
}

void StandaloneHerder::UpdateTasks(const std::string& name) {
  ConnectorState& state = connectors_.at(name);
  if (state.target == TargetState::kStopped || !worker_->IsConnectorRunning(name)) return;
  absl::StatusOr<std::vector<ConfigMap>> configs =
      worker_->ConnectorTaskConfigs(name, state.config);
  if (!configs.ok()) {
    // A retriable error leaves the connector running; any other has made it FAILED.
    if (absl::IsUnavailable(configs.status())) {
      CONNECTD_LOG(kError, kLogger) << "Failed to reconfigure connector's tasks (" << name
                                    << "), retrying after backoff: " << configs.status().message();
      RetryUpdateTasksLater(name);
    }
    return;
  }
  update_backoff_.erase(name);
  if (*configs == state.task_configs && !worker_->TaskIds(name).empty()) return;
  worker_->StopAndAwaitTasks(worker_->TaskIds(name));
  {
    std::lock_guard lock(status_mu_);
    statuses_[name].tasks.clear();
  }
  state.task_configs = *std::move(configs);
  StartTasks(name);
}

void StandaloneHerder::RetryUpdateTasksLater(const std::string& name) {
  if (stopped_ || update_timers_.count(name) != 0) return;
  auto [it, fresh] = update_backoff_.try_emplace(name, kUpdateBackoffStart);
  if (!fresh) it->second = std::min(it->second * 2, kUpdateBackoffMax);
  auto timer = std::make_shared<boost::asio::steady_timer>(io_, it->second);
  update_timers_[name] = timer;
  timer->async_wait([this, timer, name](const boost::system::error_code& ec) {
    if (ec) return;  // cancelled by Stop()
    update_timers_.erase(name);
    if (connectors_.count(name) != 0) UpdateTasks(name);
  });
}

void StandaloneHerder::StartConnectorAndTasks(const std::string& name) {
  ConnectorState& state = connectors_.at(name);
  // A paused connector is created (and reported PAUSED); its tasks start paused.
  (void)worker_->StartConnector(name, state.config, state.target);
  if (state.target == TargetState::kStarted) {
    UpdateTasks(name);
  } else if (state.target == TargetState::kPaused) {
    StartTasks(name);
  }
}

void StandaloneHerder::StopConnectorAndTasks(const std::string& name) {
  worker_->StopAndAwaitTasks(worker_->TaskIds(name));
  worker_->StopConnector(name);
}

absl::Status StandaloneHerder::ApplyConfig(const std::string& name, const ConfigMap& config,
                                           std::optional<TargetState> initial_state,
                                           bool allow_replace, bool& created) {
  if (!worker_) return absl::UnavailableError("The worker is shutting down");
  if (absl::Status valid = ValidateForWrite(plugins_, options_.validation, config); !valid.ok())
    return valid;
  auto existing = connectors_.find(name);
  created = existing == connectors_.end();
  if (!created && !allow_replace) {
    return absl::AlreadyExistsError(absl::StrCat("Connector ", name, " already exists"));
  }
  TargetState target =
      created ? initial_state.value_or(TargetState::kStarted) : existing->second.target;
  if (!created) StopConnectorAndTasks(name);
  {
    std::lock_guard lock(status_mu_);
    known_.insert(name);
    StatusEntry& entry = statuses_[name];
    entry.tasks.clear();
    entry.type = ConnectorTypeOf(plugins_, config);
    const plugin::ConnectorPlugin* plugin = plugins_.FindForConfig(config);
    entry.version = plugin ? std::optional<std::string>(plugin->version) : std::nullopt;
  }
  ConnectorState& state = connectors_[name];
  state.config = config;
  state.target = target;
  state.task_configs.clear();
  state.type = ConnectorTypeOf(plugins_, config);
  StartConnectorAndTasks(name);
  return absl::OkStatus();
}

ConnectorInfo StandaloneHerder::InfoOf(const std::string& name) const {
  const ConnectorState& state = connectors_.at(name);
  ConnectorInfo info{name, state.config, {}, state.type};
  for (size_t i = 0; i < state.task_configs.size(); ++i) {
    info.tasks.push_back({name, static_cast<int>(i)});
  }
  return info;
}

// ---- Herder API ------------------------------------------------------------------------------

void StandaloneHerder::ListConnectors(Callback<std::vector<std::string>> done) {
  Post([this, done = std::move(done)] {
    std::vector<std::string> names;
    for (const auto& [name, state] : connectors_) names.push_back(name);
    done(std::move(names));
  });
}

void StandaloneHerder::GetConnectorInfo(const std::string& name, Callback<ConnectorInfo> done) {
  Post([this, name, done = std::move(done)] {
    if (connectors_.count(name) == 0)
      return done(NotFound(absl::StrCat("Connector ", name, " not found")));
    done(InfoOf(name));
  });
}

void StandaloneHerder::GetConnectorConfig(const std::string& name, Callback<ConfigMap> done) {
  Post([this, name, done = std::move(done)] {
    auto it = connectors_.find(name);
    if (it == connectors_.end())
      return done(NotFound(absl::StrCat("Connector ", name, " not found")));
    done(it->second.config);
  });
}

void StandaloneHerder::PutConnectorConfig(const std::string& name, const ConfigMap& config,
                                          std::optional<TargetState> initial_state,
                                          bool allow_replace, Callback<Created> done) {
  Post([this, name, config, initial_state, allow_replace, done = std::move(done)] {
    bool created = false;
    absl::Status applied = ApplyConfig(name, config, initial_state, allow_replace, created);
    if (!applied.ok()) return done(applied);
    done(Created{InfoOf(name), created});
  });
}

void StandaloneHerder::PatchConnectorConfig(
    const std::string& name, const std::map<std::string, std::optional<std::string>>& patch,
    Callback<ConnectorInfo> done) {
  Post([this, name, patch, done = std::move(done)] {
    auto it = connectors_.find(name);
    if (it == connectors_.end())
      return done(NotFound(absl::StrCat("Connector ", name, " not found")));
    ConfigMap config = it->second.config;
    for (const auto& [key, value] : patch) {
      if (value) {
        config[key] = *value;
      } else {
        config.erase(key);
      }
    }
    bool created = false;
    absl::Status applied = ApplyConfig(name, config, std::nullopt, true, created);
    if (!applied.ok()) return done(applied);
    done(InfoOf(name));
  });
}

void StandaloneHerder::DeleteConnector(const std::string& name, DoneCallback done) {
  Post([this, name, done = std::move(done)] {
    if (connectors_.count(name) == 0)
      return done(NotFound(absl::StrCat("Connector ", name, " not found")));
    StopConnectorAndTasks(name);
    connectors_.erase(name);
    update_backoff_.erase(name);
    {
      std::lock_guard lock(status_mu_);
      known_.erase(name);
      statuses_.erase(name);
    }
    CONNECTD_LOG(kInfo, kLogger) << "Deleted connector " << name;
    done(absl::OkStatus());
  });
}

void StandaloneHerder::GetTaskConfigs(const std::string& name,
                                      Callback<std::vector<TaskInfo>> done) {
  Post([this, name, done = std::move(done)] {
    auto it = connectors_.find(name);
    if (it == connectors_.end())
      return done(NotFound(absl::StrCat("Connector ", name, " not found")));
    std::vector<TaskInfo> tasks;
    for (size_t i = 0; i < it->second.task_configs.size(); ++i) {
      tasks.push_back({{name, static_cast<int>(i)}, it->second.task_configs[i]});
    }
    done(std::move(tasks));
  });
}

absl::StatusOr<ConnectorStateInfo> StandaloneHerder::ConnectorStatus(const std::string& name) {
  std::lock_guard lock(status_mu_);
  auto it = statuses_.find(name);
  if (it == statuses_.end() || !it->second.connector) {
    return NotFound(absl::StrCat("No status found for connector ", name));
  }
  ConnectorStateInfo info{name, *it->second.connector, {}, it->second.type};
  for (const auto& [id, state] : it->second.tasks) info.tasks.push_back({id, state});
  return info;
}

absl::StatusOr<TaskStateInfo> StandaloneHerder::TaskStatus(const ConnectorTaskId& id) {
  std::lock_guard lock(status_mu_);
  auto it = statuses_.find(id.connector);
  if (it != statuses_.end()) {
    auto task = it->second.tasks.find(id.task);
    if (task != it->second.tasks.end()) return TaskStateInfo{id.task, task->second};
  }
  return NotFound(absl::StrCat("No status found for task ", id.connector, "-", id.task));
}

void StandaloneHerder::RestartConnector(const std::string& name, DoneCallback done) {
  Post([this, name, done = std::move(done)] {
    auto it = connectors_.find(name);
    if (it == connectors_.end()) return done(NotFound(absl::StrCat("Unknown connector: ", name)));
    worker_->StopConnector(name);
    OnConnectorState(name, worker::State::kRestarting, std::nullopt);
    (void)worker_->StartConnector(name, it->second.config, it->second.target);
    done(absl::OkStatus());
  });
}

void StandaloneHerder::Restart(const RestartRequest& request, Callback<ConnectorStateInfo> done) {
  Post([this, request, done = std::move(done)] {
    const std::string& name = request.connector;
    auto it = connectors_.find(name);
    if (it == connectors_.end()) return done(NotFound(absl::StrCat("Unknown connector: ", name)));
    absl::StatusOr<ConnectorStateInfo> plan = ConnectorStatus(name);
    if (!plan.ok())
      return done(NotFound(absl::StrCat("Status for connector ", name, " not found")));
    bool restart_connector = !request.only_failed || plan->connector.state == "FAILED";
    std::vector<ConnectorTaskId> restart_tasks;
    if (request.include_tasks) {
      for (TaskStateInfo& task : plan->tasks) {
        if (!request.only_failed || task.state.state == "FAILED") {
          restart_tasks.push_back({name, task.id});
          task.state.state = "RESTARTING";
          task.state.trace.reset();
        }
      }
    }
    if (restart_connector) {
      plan->connector.state = "RESTARTING";
      plan->connector.trace.reset();
    }
    done(*plan);  // the plan is answered first; the restart follows on this thread
    if (restart_connector) {
      worker_->StopConnector(name);
      OnConnectorState(name, worker::State::kRestarting, std::nullopt);
    }
    for (const ConnectorTaskId& id : restart_tasks) {
      worker_->StopAndAwaitTasks({id});
      OnTaskState(id, worker::State::kRestarting, std::nullopt);
    }
    if (restart_connector)
      (void)worker_->StartConnector(name, it->second.config, it->second.target);
    for (const ConnectorTaskId& id : restart_tasks) {
      if (id.task < static_cast<int>(it->second.task_configs.size())) {
        (void)worker_->StartTask(id, it->second.config, it->second.task_configs[id.task],
                                 it->second.target);
      }
    }
  });
}

void StandaloneHerder::RestartTask(const ConnectorTaskId& id, DoneCallback done) {
  Post([this, id, done = std::move(done)] {
    auto it = connectors_.find(id.connector);
    if (it == connectors_.end())
      return done(NotFound(absl::StrCat("Unknown connector: ", id.connector)));
    if (id.task < 0 || id.task >= static_cast<int>(it->second.task_configs.size())) {
      return done(NotFound(absl::StrCat("Unknown task: ", id.connector, "-", id.task)));
    }
    worker_->StopAndAwaitTasks({id});
    OnTaskState(id, worker::State::kRestarting, std::nullopt);
    absl::Status started = worker_->StartTask(id, it->second.config,
                                              it->second.task_configs[id.task], it->second.target);
    if (!started.ok()) {
      return done(
          absl::InternalError(absl::StrCat("Failed to start task: ", id.connector, "-", id.task)));
    }
    done(absl::OkStatus());
  });
}

absl::Status StandaloneHerder::PauseConnector(const std::string& name) {
  {
    std::lock_guard lock(status_mu_);
    if (known_.count(name) == 0) return NotFound(absl::StrCat("Unknown connector ", name));
  }
  Post([this, name] {
    auto it = connectors_.find(name);
    if (it == connectors_.end() || it->second.target == TargetState::kPaused) return;
    bool was_stopped = it->second.target == TargetState::kStopped;
    it->second.target = TargetState::kPaused;
    worker_->SetConnectorTargetState(name, TargetState::kPaused);
    if (was_stopped) return;
    for (const ConnectorTaskId& id : worker_->TaskIds(name)) {
      worker_->SetTaskTargetState(id, TargetState::kPaused);
    }
  });
  return absl::OkStatus();
}

absl::Status StandaloneHerder::ResumeConnector(const std::string& name) {
  {
    std::lock_guard lock(status_mu_);
    if (known_.count(name) == 0) return NotFound(absl::StrCat("Unknown connector ", name));
  }
  Post([this, name] {
    auto it = connectors_.find(name);
    if (it == connectors_.end() || it->second.target == TargetState::kStarted) return;
    bool was_stopped = it->second.target == TargetState::kStopped;
    it->second.target = TargetState::kStarted;
    worker_->SetConnectorTargetState(name, TargetState::kStarted);
    if (!was_stopped) {
      for (const ConnectorTaskId& id : worker_->TaskIds(name)) {
        worker_->SetTaskTargetState(id, TargetState::kStarted);
      }
    }
    // As Java on every transition to STARTED: the connector's tasks are (re)generated. A
    // stopped connector has none, nor has one created PAUSED (it never ran to make them); for
    // a paused one whose configs did not change this is a no-op.
    UpdateTasks(name);
  });
  return absl::OkStatus();
}

void StandaloneHerder::StopConnector(const std::string& name, DoneCallback done) {
  Post([this, name, done = std::move(done)] {
    auto it = connectors_.find(name);
    if (it == connectors_.end()) return done(NotFound(absl::StrCat("Unknown connector ", name)));
    it->second.target = TargetState::kStopped;
    worker_->StopAndAwaitTasks(worker_->TaskIds(name));
    it->second.task_configs.clear();
    {
      std::lock_guard lock(status_mu_);
      statuses_[name].tasks.clear();
    }
    worker_->SetConnectorTargetState(name, TargetState::kStopped);
    done(absl::OkStatus());
  });
}

absl::StatusOr<std::vector<std::string>> StandaloneHerder::ConnectorActiveTopics(
    const std::string& name) {
  if (!options_.topic_tracking) {
    return WithHttpStatus(absl::PermissionDeniedError("Topic tracking is disabled."), 403);
  }
  std::lock_guard lock(status_mu_);
  auto it = statuses_.find(name);
  if (it == statuses_.end()) return std::vector<std::string>{};
  return std::vector<std::string>(it->second.topics.begin(), it->second.topics.end());
}

absl::Status StandaloneHerder::ResetConnectorActiveTopics(const std::string& name) {
  if (!options_.topic_tracking) {
    return WithHttpStatus(absl::PermissionDeniedError("Topic tracking is disabled."), 403);
  }
  if (!options_.topic_tracking_reset) {
    return WithHttpStatus(absl::PermissionDeniedError("Topic tracking reset is disabled."), 403);
  }
  std::lock_guard lock(status_mu_);
  auto it = statuses_.find(name);
  if (it != statuses_.end()) it->second.topics.clear();
  return absl::OkStatus();
}

void StandaloneHerder::GetConnectorOffsets(const std::string& name,
                                           Callback<ConnectorOffsets> done) {
  Post([this, name, done = std::move(done)] {
    auto it = connectors_.find(name);
    if (it == connectors_.end())
      return done(NotFound(absl::StrCat("Connector ", name, " not found")));
    if (it->second.type == ConnectorType::kSink) {
      return done(ReadSinkOffsets(options_.admin_config, SinkGroupOf(name, it->second.config)));
    }
    absl::StatusOr<std::map<std::string, std::string>> all = offsets_(name)->All();
    if (!all.ok()) return done(all.status());
    ConnectorOffsets offsets;
    for (const auto& [partition, offset] : *all) offsets.offsets.push_back({partition, offset});
    done(std::move(offsets));
  });
}

absl::Status StandaloneHerder::RequireStoppedForOffsets(const std::string& name) const {
  auto it = connectors_.find(name);
  if (it == connectors_.end()) return NotFound(absl::StrCat("Connector ", name, " not found"));
  if (it->second.target != TargetState::kStopped || !it->second.task_configs.empty()) {
    return NotStoppedForOffsetsError(name);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> StandaloneHerder::ModifyOffsets(
    const std::string& name, const std::map<std::string, std::optional<std::string>>& offsets,
    bool reset) {
  const ConnectorState& state = connectors_.at(name);
  std::shared_ptr<worker::ConnectorOffsetStore> source_offsets = offsets_(name);
  OffsetsTarget target{name, state.config, state.type, source_offsets.get(), options_.admin_config};
  return ModifyConnectorOffsets(plugins_, target, offsets, reset);
}

void StandaloneHerder::AlterConnectorOffsets(const std::string& name,
                                             const ConnectorOffsets& offsets,
                                             Callback<std::string> done) {
  Post([this, name, offsets, done = std::move(done)] {
    if (absl::Status stopped = RequireStoppedForOffsets(name); !stopped.ok()) return done(stopped);
    if (offsets.offsets.empty()) {
      return done(absl::InvalidArgumentError(
          "Partitions / offsets need to be provided for an alter offsets request"));
    }
    std::map<std::string, std::optional<std::string>> writes;
    for (const ConnectorOffset& o : offsets.offsets) writes[o.partition_json] = o.offset_json;
    done(ModifyOffsets(name, writes, /*reset=*/false));
  });
}

void StandaloneHerder::ResetConnectorOffsets(const std::string& name, Callback<std::string> done) {
  Post([this, name, done = std::move(done)] {
    if (absl::Status stopped = RequireStoppedForOffsets(name); !stopped.ok()) return done(stopped);
    absl::StatusOr<std::map<std::string, std::string>> all =
        connectors_.at(name).type == ConnectorType::kSource
            ? offsets_(name)->All()
            : absl::StatusOr<std::map<std::string, std::string>>(
                  std::map<std::string, std::string>{});
    if (!all.ok()) return done(all.status());
    std::map<std::string, std::optional<std::string>> tombstones;
    for (const auto& [partition, offset] : *all) tombstones[partition] = std::nullopt;
    done(ModifyOffsets(name, tombstones, /*reset=*/true));
  });
}

std::vector<PluginInfo> StandaloneHerder::ConnectorPlugins(bool connectors_only) {
  return ListConnectorPlugins(plugins_, connectors_only);
}

absl::StatusOr<std::vector<ConfigKeyInfo>> StandaloneHerder::ConnectorPluginConfig(
    const std::string& name, const std::optional<std::string>& version) {
  return ConnectorPluginConfigKeys(plugins_, name, version);
}

void StandaloneHerder::ValidateConnectorConfig(const ConfigMap& config,
                                               Callback<ConfigInfos> done) {
  Post([this, config, done = std::move(done)] {
    done(ValidateForRest(plugins_, options_.validation, config));
  });
}

ServerInfo StandaloneHerder::GetServerInfo() {
  return ServerInfo{CONNECTD_KAFKA_COMPAT_VERSION,
                    absl::StrCat("connectd-", CONNECTD_VERSION_STRING), options_.kafka_cluster_id};
}

void StandaloneHerder::Health(DoneCallback done) {
  Post([done = std::move(done)] { done(absl::OkStatus()); });
}

absl::Status StandaloneHerder::SetClusterLoggerLevel(const std::string& logger,
                                                     const std::string& level) {
  std::optional<log::Level> parsed = log::ParseLevel(level);
  if (!parsed)
    return WithHttpStatus(absl::NotFoundError(absl::StrCat("invalid log level '", level, "'.")),
                          404);
  CONNECTD_LOG(kWarn, kLogger) << "Cluster-wide logger level changes apply to this worker only in "
                                  "standalone mode";
  log::SetLevel(logger, *parsed);
  return absl::OkStatus();
}

}  // namespace connectd::herder
