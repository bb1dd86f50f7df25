// DistributedHerder: the calls the REST API makes (Connect's DistributedHerder public methods).
// Writes run on the leader (others answer ForwardRequiredError and REST forwards them); reads
// run on the herder thread or answer from the status store and the config view.
#include <boost/asio/post.hpp>

#include "absl/strings/str_cat.h"
#include "runtime/common/logging.h"
#include "runtime/distributed/distributed_herder.h"
#include "runtime/distributed/request_signing.h"
#include "runtime/herder/connector_offsets.h"
#include "runtime/herder/connector_validation.h"
#include "runtime/worker/backing_store_offsets.h"

namespace connectd::distributed {
namespace {

constexpr char kLogger[] = "org.apache.kafka.connect.runtime.distributed.DistributedHerder";
constexpr auto kConfigReadTimeout = std::chrono::seconds(30);

absl::Status ConnectorNotFound(const std::string& c) {
  return absl::NotFoundError(absl::StrCat("Connector ", c, " not found"));
}

herder::StateInfo ToStateInfo(const storage::StatusValue& value) {
  return herder::StateInfo{std::string(worker::StateName(value.state)),
                           value.worker_id.value_or(""), value.trace, value.version};
}

}  // namespace

template <typename Fn>
void DistributedHerder::Post(Fn&& fn) {
  boost::asio::post(io_, std::forward<Fn>(fn));
}

absl::Status DistributedHerder::NotLeader(const std::string& what) const {
  return herder::ForwardRequiredError(
      absl::StrCat("Only the leader can ", what, "."),
      rebalancing_ && options_.protocol == distributed::ConnectProtocolMode::kEager ? ""
                                                                                    : leader_url_);
}

herder::ConnectorType DistributedHerder::TypeOf(const std::string& c) const {
  const storage::ConfigProperties* raw = snapshot_.RawConnectorConfig(c);
  return raw == nullptr ? herder::ConnectorType::kUnknown
                        : herder::ConnectorTypeOf(plugins_, storage::ToConfigMap(*raw));
}

herder::ConnectorInfo DistributedHerder::InfoOf(const std::string& c) const {
  herder::ConnectorInfo info{
      c, storage::ToConfigMap(*snapshot_.RawConnectorConfig(c)), {}, TypeOf(c)};
  info.tasks = snapshot_.Tasks(c);
  return info;
}

// ---- Connectors ---------------------------------------------------------------------------------

void DistributedHerder::ListConnectors(herder::Callback<std::vector<std::string>> done) {
  done(View()->Connectors());
}

void DistributedHerder::GetConnectorInfo(const std::string& name,
                                         herder::Callback<herder::ConnectorInfo> done) {
  Post([this, name, done = std::move(done)] {
    // Java answers after the pending rebalance (its tick handles it first).
    if (DeferWhileRebalancePending([=, this] { GetConnectorInfo(name, done); })) return;
    if (!snapshot_.Contains(name)) return done(ConnectorNotFound(name));
    done(InfoOf(name));
  });
}

void DistributedHerder::GetConnectorConfig(const std::string& name,
                                           herder::Callback<herder::ConfigMap> done) {
  Post([this, name, done = std::move(done)] {
    // Java answers after the pending rebalance (its tick handles it first).
    if (DeferWhileRebalancePending([=, this] { GetConnectorConfig(name, done); })) return;
    const storage::ConfigProperties* raw = snapshot_.RawConnectorConfig(name);
    if (raw == nullptr) return done(ConnectorNotFound(name));
    done(storage::ToConfigMap(*raw));
  });
}

void DistributedHerder::PutConnectorConfig(const std::string& name, const herder::ConfigMap& config,
                                           std::optional<herder::TargetState> initial_state,
                                           bool allow_replace,
                                           herder::Callback<herder::Created> done) {
  Post([this, name, config, initial_state, allow_replace, done = std::move(done)] {
    if (DeferWhileRebalancePending(
            [=, this] { PutConnectorConfig(name, config, initial_state, allow_replace, done); }))
      return;
    if (absl::Status valid = ValidateForWriteWithExactlyOnce(config); !valid.ok()) {
      return done(valid);
    }
    if (!is_leader_) return done(NotLeader("set connector configs"));
    const bool exists = snapshot_.Contains(name);
    if (exists && !allow_replace) {
      return done(absl::AlreadyExistsError(absl::StrCat("Connector ", name, " already exists")));
    }
    std::vector<herder::ConnectorTaskId> old_tasks = snapshot_.Tasks(name);
    absl::Status written = config_store_->PutConnectorConfig(name, storage::FromConfigMap(config),
                                                             exists ? std::nullopt : initial_state);
    if (!written.ok()) return done(written);
    CONNECTD_LOG(kInfo, kLogger) << (exists ? "Updated" : "Created") << " connector " << name;
    UpdateSnapshot();
    herder::ConnectorInfo info{name, config, std::move(old_tasks),
                               herder::ConnectorTypeOf(plugins_, config)};
    done(herder::Created{std::move(info), !exists});
  });
}

void DistributedHerder::PatchConnectorConfig(
    const std::string& name, const std::map<std::string, std::optional<std::string>>& patch,
    herder::Callback<herder::ConnectorInfo> done) {
  Post([this, name, patch, done = std::move(done)] {
    if (DeferWhileRebalancePending([=, this] { PatchConnectorConfig(name, patch, done); })) return;
    if (!is_leader_) return done(NotLeader("set connector configs"));
    const storage::ConfigProperties* raw = snapshot_.RawConnectorConfig(name);
    if (raw == nullptr) return done(ConnectorNotFound(name));
    herder::ConfigMap config = storage::ToConfigMap(*raw);
    for (const auto& [key, value] : patch) {
      if (value) {
        config[key] = *value;
      } else {
        config.erase(key);
      }
    }
    if (absl::Status valid = ValidateForWriteWithExactlyOnce(config); !valid.ok()) {
      return done(valid);
    }
    std::vector<herder::ConnectorTaskId> old_tasks = snapshot_.Tasks(name);
    absl::Status written = config_store_->PutConnectorConfig(name, storage::FromConfigMap(config));
    if (!written.ok()) return done(written);
    UpdateSnapshot();
    done(herder::ConnectorInfo{name, config, std::move(old_tasks),
                               herder::ConnectorTypeOf(plugins_, config)});
  });
}

void DistributedHerder::DeleteConnector(const std::string& name, herder::DoneCallback done) {
  Post([this, name, done = std::move(done)] {
    if (DeferWhileRebalancePending([=, this] { DeleteConnector(name, done); })) return;
    if (!is_leader_) return done(NotLeader("delete connectors"));
    if (!snapshot_.Contains(name)) return done(ConnectorNotFound(name));
    absl::Status removed = config_store_->RemoveConnectorConfig(name);
    if (!removed.ok()) return done(removed);
    CONNECTD_LOG(kInfo, kLogger) << "Deleted connector " << name;
    UpdateSnapshot();
    done(absl::OkStatus());
  });
}

void DistributedHerder::GetTaskConfigs(const std::string& name,
                                       herder::Callback<std::vector<herder::TaskInfo>> done) {
  Post([this, name, done = std::move(done)] {
    // Java answers after the pending rebalance (its tick handles it first).
    if (DeferWhileRebalancePending([=, this] { GetTaskConfigs(name, done); })) return;
    if (!snapshot_.Contains(name)) return done(ConnectorNotFound(name));
    std::vector<herder::TaskInfo> tasks;
    for (const herder::ConnectorTaskId& t : snapshot_.Tasks(name)) {
      const storage::ConfigProperties* config = snapshot_.RawTaskConfig(t);
      tasks.push_back({t, config ? storage::ToConfigMap(*config) : herder::ConfigMap{}});
    }
    done(std::move(tasks));
  });
}

// ---- Status (any thread) ------------------------------------------------------------------------

absl::StatusOr<herder::ConnectorStateInfo> DistributedHerder::ConnectorStatus(
    const std::string& name) {
  std::optional<storage::StatusValue> connector = status_store_->Connector(name);
  if (!connector) return absl::NotFoundError(absl::StrCat("No status found for connector ", name));
  std::shared_ptr<const storage::ClusterConfigState> view = View();
  const storage::ConfigProperties* raw = view->RawConnectorConfig(name);
  herder::ConnectorStateInfo info{
      name,
      ToStateInfo(*connector),
      {},
      raw == nullptr ? herder::ConnectorType::kUnknown
                     : herder::ConnectorTypeOf(plugins_, storage::ToConfigMap(*raw))};
  for (const auto& [id, value] : status_store_->Tasks(name)) {
    info.tasks.push_back({id, ToStateInfo(value)});
  }
  return info;
}

absl::StatusOr<herder::TaskStateInfo> DistributedHerder::TaskStatus(
    const herder::ConnectorTaskId& id) {
  std::optional<storage::StatusValue> task = status_store_->Task(id);
  if (!task) {
    return absl::NotFoundError(
        absl::StrCat("No status found for task ", id.connector, "-", id.task));
  }
  return herder::TaskStateInfo{id.task, ToStateInfo(*task)};
}

// ---- Lifecycle ----------------------------------------------------------------------------------

void DistributedHerder::RestartConnector(const std::string& name, herder::DoneCallback done) {
  Post([this, name, done = std::move(done)] {
    if (DeferWhileRebalancePending([=, this] { RestartConnector(name, done); })) return;
    if (!snapshot_.Contains(name)) {
      return done(absl::NotFoundError(absl::StrCat("Unknown connector: ", name)));
    }
    if (OwnsConnector(name)) {
      RestartLocalConnector(name);
      return done(absl::OkStatus());
    }
    if (is_leader_) {
      return done(herder::ForwardRequiredError(
          "Cannot restart connector since it is not assigned to this member",
          coordinator_->OwnerUrl(name).value_or("")));
    }
    done(NotLeader("process restart requests"));
  });
}

void DistributedHerder::Restart(const herder::RestartRequest& request,
                                herder::Callback<herder::ConnectorStateInfo> done) {
  Post([this, request, done = std::move(done)] {
    if (DeferWhileRebalancePending([=, this] { Restart(request, done); })) return;
    const std::string& name = request.connector;
    if (!is_leader_) return done(NotLeader("process restart requests"));
    if (!snapshot_.Contains(name)) {
      return done(absl::NotFoundError(absl::StrCat("Unknown connector: ", name)));
    }
    absl::StatusOr<herder::ConnectorStateInfo> plan = ConnectorStatus(name);
    if (!plan.ok()) {
      return done(absl::NotFoundError(absl::StrCat("Status for connector ", name, " not found")));
    }
    if (absl::Status written = config_store_->PutRestartRequest(request); !written.ok()) {
      return done(written);
    }
    // The plan shows what restarts as RESTARTING (traces kept, as Java's plan keeps them).
    if (!request.only_failed || plan->connector.state == "FAILED") {
      plan->connector.state = "RESTARTING";
    }
    if (request.include_tasks) {
      for (herder::TaskStateInfo& task : plan->tasks) {
        if (!request.only_failed || task.state.state == "FAILED") task.state.state = "RESTARTING";
      }
    }
    done(*std::move(plan));
  });
}

void DistributedHerder::RestartTask(const herder::ConnectorTaskId& id, herder::DoneCallback done) {
  Post([this, id, done = std::move(done)] {
    if (DeferWhileRebalancePending([=, this] { RestartTask(id, done); })) return;
    if (!snapshot_.Contains(id.connector)) {
      return done(absl::NotFoundError(absl::StrCat("Unknown connector: ", id.connector)));
    }
    if (snapshot_.RawTaskConfig(id) == nullptr) {
      return done(absl::NotFoundError(absl::StrCat("Unknown task: ", id.connector, "-", id.task)));
    }
    if (OwnsTask(id)) {
      RestartLocalTask(id);
      return done(absl::OkStatus());
    }
    if (is_leader_) {
      return done(herder::ForwardRequiredError(
          "Cannot restart task since it is not assigned to this member",
          coordinator_->OwnerUrl(id).value_or("")));
    }
    done(NotLeader("process restart requests"));
  });
}

absl::Status DistributedHerder::PauseConnector(const std::string& name) {
  if (!View()->Contains(name)) return absl::NotFoundError(absl::StrCat("Unknown connector ", name));
  Post([this, name] {
    if (absl::Status s = config_store_->PutTargetState(name, herder::TargetState::kPaused);
        !s.ok()) {
      CONNECTD_LOG(kError, kLogger) << "Failed to pause " << name << ": " << s.message();
    }
  });
  return absl::OkStatus();
}

absl::Status DistributedHerder::ResumeConnector(const std::string& name) {
  if (!View()->Contains(name)) return absl::NotFoundError(absl::StrCat("Unknown connector ", name));
  Post([this, name] {
    if (absl::Status s = config_store_->PutTargetState(name, herder::TargetState::kStarted);
        !s.ok()) {
      CONNECTD_LOG(kError, kLogger) << "Failed to resume " << name << ": " << s.message();
    }
  });
  return absl::OkStatus();
}

void DistributedHerder::StopConnector(const std::string& name, herder::DoneCallback done) {
  Post([this, name, done = std::move(done)] {
    if (DeferWhileRebalancePending([=, this] { StopConnector(name, done); })) return;
    if (!is_leader_) return done(NotLeader("stop connectors"));
    if (!snapshot_.Contains(name)) {
      return done(absl::NotFoundError(absl::StrCat("Unknown connector ", name)));
    }
    // Connect's order: an empty task set first, then the STOPPED target state.
    absl::Status written = config_store_->PutTaskConfigs(name, {});
    if (written.ok()) written = config_store_->PutTargetState(name, herder::TargetState::kStopped);
    if (written.ok()) written = config_store_->Refresh(kConfigReadTimeout);
    if (!written.ok()) return done(written);
    UpdateSnapshot();
    done(absl::OkStatus());
  });
}

// ---- Topics and offsets -------------------------------------------------------------------------

absl::StatusOr<std::vector<std::string>> DistributedHerder::ConnectorActiveTopics(
    const std::string& name) {
  if (!options_.topic_tracking) {
    return herder::WithHttpStatus(absl::PermissionDeniedError("Topic tracking is disabled."), 403);
  }
  std::vector<std::string> topics;
  for (const auto& [topic, status] : status_store_->Topics(name)) topics.push_back(topic);
  return topics;
}

absl::Status DistributedHerder::ResetConnectorActiveTopics(const std::string& name) {
  if (!options_.topic_tracking) {
    return herder::WithHttpStatus(absl::PermissionDeniedError("Topic tracking is disabled."), 403);
  }
  if (!options_.topic_tracking_reset) {
    return herder::WithHttpStatus(absl::PermissionDeniedError("Topic tracking reset is disabled."),
                                  403);
  }
  for (const auto& [topic, status] : status_store_->Topics(name)) {
    status_store_->DeleteTopic(name, topic);
  }
  return absl::OkStatus();
}

void DistributedHerder::GetConnectorOffsets(const std::string& name,
                                            herder::Callback<herder::ConnectorOffsets> done) {
  Post([this, name, done = std::move(done)] {
    const storage::ConfigProperties* raw = snapshot_.RawConnectorConfig(name);
    if (raw == nullptr) return done(ConnectorNotFound(name));
    const herder::ConfigMap config = storage::ToConfigMap(*raw);
    if (herder::ConnectorTypeOf(plugins_, config) == herder::ConnectorType::kSink) {
      return done(
          herder::ReadSinkOffsets(options_.admin_config, herder::SinkGroupOf(name, config)));
    }
    worker::BackingStoreOffsets offsets(*offset_store_, name);
    absl::StatusOr<std::map<std::string, std::string>> all = offsets.All();
    if (!all.ok()) return done(all.status());
    herder::ConnectorOffsets out;
    for (const auto& [partition, offset] : *all) out.offsets.push_back({partition, offset});
    done(std::move(out));
  });
}

absl::Status DistributedHerder::RequireStoppedForOffsets(const std::string& c) const {
  if (!snapshot_.Contains(c)) return ConnectorNotFound(c);
  if (snapshot_.TargetState(c) != herder::TargetState::kStopped || !snapshot_.Tasks(c).empty()) {
    return herder::NotStoppedForOffsetsError(c);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> DistributedHerder::ModifyOffsets(
    const std::string& c, const std::map<std::string, std::optional<std::string>>& offsets,
    bool reset) {
  if (needs_reconfig_rebalance_) return herder::RebalanceNeededError();
  if (!is_leader_) return NotLeader("modify the offsets of connectors");
  if (absl::Status read = config_store_->Refresh(kConfigReadTimeout); !read.ok()) return read;
  UpdateSnapshot();
  if (absl::Status stopped = RequireStoppedForOffsets(c); !stopped.ok()) return stopped;
  const herder::ConfigMap config = storage::ToConfigMap(*snapshot_.RawConnectorConfig(c));
  worker::BackingStoreOffsets source_offsets(*offset_store_, c);
  herder::OffsetsTarget target{c, config, herder::ConnectorTypeOf(plugins_, config),
                               &source_offsets, options_.admin_config};
  std::unique_ptr<worker::ConnectorOffsetStore> transactional;
  if (target.type == herder::ConnectorType::kSource && ExactlyOnceEnabled()) {
    // KIP-618: a fencing round first, then the offsets in one transaction (Java's order).
    if (absl::Status fenced = DoFenceZombies(c); !fenced.ok()) {
      CONNECTD_LOG(kError, kLogger)
          << "Failed to perform zombie fencing for source connector prior to modifying offsets: "
          << fenced.message();
      return absl::Status(fenced.code(),
                          absl::StrCat("Failed to perform zombie fencing for source connector "
                                       "prior to modifying offsets: ",
                                       fenced.message()));
    }
    if (absl::Status stopped = RequireStoppedForOffsets(c); !stopped.ok()) return stopped;
    transactional = MakeTransactionalOffsetWriter(c, config, source_offsets);
    target.source_offsets = transactional.get();
  }
  std::map<std::string, std::optional<std::string>> writes = offsets;
  if (reset && target.type != herder::ConnectorType::kSink) {
    absl::StatusOr<std::map<std::string, std::string>> all = source_offsets.All();
    if (!all.ok()) return all.status();
    for (const auto& [partition, offset] : *all) writes[partition] = std::nullopt;
  }
  return herder::ModifyConnectorOffsets(plugins_, target, writes, reset);
}

absl::Status DistributedHerder::ValidateForWriteWithExactlyOnce(
    const herder::ConfigMap& config) const {
  absl::StatusOr<herder::ConfigInfos> validation =
      herder::ValidateConnectorConfig(plugins_, options_.validation, config);
  // No connector.class, or one no plugin provides: Java 4.4 answers 400 for both.
  if (!validation.ok()) return herder::WithHttpStatus(validation.status(), 400);
  ValidateExactlyOnce(config, *validation);
  if (validation->error_count > 0) {
    return absl::InvalidArgumentError(herder::ValidationFailureMessage(*validation));
  }
  return absl::OkStatus();
}

void DistributedHerder::AlterConnectorOffsets(const std::string& name,
                                              const herder::ConnectorOffsets& offsets,
                                              herder::Callback<std::string> done) {
  Post([this, name, offsets, done = std::move(done)] {
    if (DeferWhileRebalancePending([=, this] { AlterConnectorOffsets(name, offsets, done); })) {
      return;
    }
    if (offsets.offsets.empty()) {
      return done(absl::InvalidArgumentError(
          "Partitions / offsets need to be provided for an alter offsets request"));
    }
    std::map<std::string, std::optional<std::string>> writes;
    for (const herder::ConnectorOffset& o : offsets.offsets)
      writes[o.partition_json] = o.offset_json;
    done(ModifyOffsets(name, writes, /*reset=*/false));
  });
}

void DistributedHerder::ResetConnectorOffsets(const std::string& name,
                                              herder::Callback<std::string> done) {
  Post([this, name, done = std::move(done)] {
    if (DeferWhileRebalancePending([=, this] { ResetConnectorOffsets(name, done); })) return;
    done(ModifyOffsets(name, {}, /*reset=*/true));
  });
}

// ---- Plugins, worker, internal ------------------------------------------------------------------

std::vector<herder::PluginInfo> DistributedHerder::ConnectorPlugins(bool connectors_only) {
  return herder::ListConnectorPlugins(plugins_, connectors_only);
}

absl::StatusOr<std::vector<herder::ConfigKeyInfo>> DistributedHerder::ConnectorPluginConfig(
    const std::string& name, const std::optional<std::string>& version) {
  return herder::ConnectorPluginConfigKeys(plugins_, name, version);
}

void DistributedHerder::ValidateConnectorConfig(const herder::ConfigMap& config,
                                                herder::Callback<herder::ConfigInfos> done) {
  Post([this, config, done = std::move(done)] {
    absl::StatusOr<herder::ConfigInfos> infos =
        herder::ValidateForRest(plugins_, options_.validation, config);
    if (infos.ok()) ValidateExactlyOnce(config, *infos);
    done(std::move(infos));
  });
}

herder::ServerInfo DistributedHerder::GetServerInfo() {
  return herder::ServerInfo{CONNECTD_KAFKA_COMPAT_VERSION,
                            absl::StrCat("connectd-", CONNECTD_VERSION_STRING),
                            options_.kafka_cluster_id};
}

void DistributedHerder::Health(herder::DoneCallback done) {
  if (!started_) return done(absl::UnavailableError("starting"));
  Post([done = std::move(done)] { done(absl::OkStatus()); });
}

absl::Status DistributedHerder::SetClusterLoggerLevel(const std::string& logger,
                                                      const std::string& level) {
  if (!log::ParseLevel(level)) {
    return herder::WithHttpStatus(
        absl::NotFoundError(absl::StrCat("invalid log level '", level, "'.")), 404);
  }
  Post([this, logger, level] {
    if (absl::Status s = config_store_->PutLoggerLevel(logger, level); !s.ok()) {
      CONNECTD_LOG(kError, kLogger)
          << "Failed to write the cluster logger level of " << logger << ": " << s.message();
    }
  });
  return absl::OkStatus();
}

absl::Status DistributedHerder::VerifySignature(
    const std::optional<herder::InternalRequestSignature>& signature) const {
  if (!sessioned_) return absl::OkStatus();  // Java checks signatures only under `sessioned`
  std::optional<storage::SessionKey> key;
  {
    std::lock_guard lock(view_mu_);
    key = session_key_;
  }
  return distributed::VerifyInternalRequest(signature, options_.verification_algorithms, key);
}

void DistributedHerder::PutTaskConfigs(const std::string& name,
                                       const std::vector<herder::ConfigMap>& configs,
                                       std::optional<herder::InternalRequestSignature> signature,
                                       herder::DoneCallback done) {
  Post([this, name, configs, signature = std::move(signature), done = std::move(done)] {
    if (absl::Status verified = VerifySignature(signature); !verified.ok()) return done(verified);
    if (!is_leader_) return done(NotLeader("set task configs"));
    if (!snapshot_.Contains(name)) return done(ConnectorNotFound(name));
    if (!configs.empty() && snapshot_.TargetState(name) == herder::TargetState::kStopped) {
      return done(absl::InvalidArgumentError(absl::StrCat(
          "Cannot submit non-empty set of task configs for stopped connector ", name)));
    }
    std::vector<storage::ConfigProperties> records;
    for (const herder::ConfigMap& task : configs) records.push_back(storage::FromConfigMap(task));
    absl::Status written = config_store_->PutTaskConfigs(name, records);
    if (written.ok()) UpdateSnapshot();
    done(written);
  });
}

void DistributedHerder::FenceZombieSourceTasks(
    const std::string& name, std::optional<herder::InternalRequestSignature> signature,
    herder::DoneCallback done) {
  Post([this, name, signature = std::move(signature), done = std::move(done)] {
    if (absl::Status verified = VerifySignature(signature); !verified.ok()) return done(verified);
    // No pending-rebalance check (as Java); non-leaders answer for forwarding to the leader.
    done(DoFenceZombies(name));
  });
}

}  // namespace connectd::distributed
