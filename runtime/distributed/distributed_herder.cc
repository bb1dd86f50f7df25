// DistributedHerder: lifecycle, group rounds, config-topic changes and what this worker runs.
// The REST-facing calls are in distributed_herder_api.cc.
#include "runtime/distributed/distributed_herder.h"

#include <algorithm>
#include <future>
#include <memory>
#include <mutex>

#include <boost/asio/post.hpp>

#include "absl/strings/str_cat.h"
#include "runtime/common/logging.h"
#include "runtime/distributed/request_signing.h"
#include "runtime/herder/connector_validation.h"
#include "runtime/kafka/exactly_once.h"
#include "runtime/worker/backing_store_offsets.h"

namespace connectd::distributed {
namespace {

constexpr char kLogger[] = "org.apache.kafka.connect.runtime.distributed.DistributedHerder";
constexpr auto kStatusFlushTimeout = std::chrono::seconds(5);
// How long a member waits for the config topic before it rejoins (OnRevokeAll, cooperative).
constexpr auto kJoinConfigCatchUpTimeout = std::chrono::seconds(3);
constexpr auto kReconfigureBackoffStart = std::chrono::milliseconds(250);
constexpr auto kReconfigureBackoffMax = std::chrono::milliseconds(60000);

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

template <typename T>
bool Contains(const std::vector<T>& items, const T& item) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

// Whether a connector's committed task configs changed between two snapshots (a new commit,
// a different task count, or a change of consistency).
bool TaskConfigsChanged(const storage::ClusterConfigState& before,
                        const storage::ClusterConfigState& after, const std::string& c) {
  return before.TaskConfigGeneration(c) != after.TaskConfigGeneration(c) ||
         before.TaskCount(c) != after.TaskCount(c) || before.Tasks(c) != after.Tasks(c);
}

}  // namespace

DistributedHerder::DistributedHerder(Options options, const plugin::PluginRegistry& plugins,
                                     boost::asio::io_context& control, WorkerFactory make_worker,
                                     TaskConfigForwarder forward_task_configs)
    : options_(std::move(options)),
      plugins_(plugins),
      control_(control),
      make_worker_(std::move(make_worker)),
      forward_task_configs_(std::move(forward_task_configs)),
      work_(io_.get_executor()),
      rejoin_timer_(io_),
      key_rotation_timer_(io_),
      view_(std::make_shared<storage::ClusterConfigState>()) {}

DistributedHerder::~DistributedHerder() { Stop(); }

template <typename Fn>
void DistributedHerder::Post(Fn&& fn) {
  boost::asio::post(io_, std::forward<Fn>(fn));
}

// ---- Lifecycle ---------------------------------------------------------------------------------

absl::Status DistributedHerder::Start() {
  storage::KafkaBasedLog::Options offset_log = options_.offset_log;
  storage::KafkaBasedLog::Options config_log = options_.config_log;
  storage::KafkaBasedLog::Options status_log = options_.status_log;
  // The config topic's partition is opened first when this worker creates topics: the herder
  // writes to it as soon as it joins (the session key), and a broker opens the partitions of
  // topics created together together, so its one partition waited behind the offsets topic's
  // 25 (0.9 s on a new cluster). The offsets and status topics, when they must be created, are
  // created after it (the offsets topic is not waited for: Options::await_leaders_when_created).
  auto config_topic_ready = std::make_shared<std::promise<void>>();
  auto config_topic_signalled = std::make_shared<std::once_flag>();
  auto signal_config_topic = [config_topic_ready, config_topic_signalled] {
    std::call_once(*config_topic_signalled, [&] { config_topic_ready->set_value(); });
  };
  config_log.on_topic_ready = signal_config_topic;
  // Statuses (and the active topics, KIP-558) written in the first moments must be read back
  // at once: the status log waits for its new topic's leaders too (GET /connectors/{c}/topics
  // answered [] for a second on a new cluster, RestParityE2E).
  status_log.await_leaders_when_created = true;
  offset_log.create_after = status_log.create_after = config_topic_ready->get_future().share();
  if (ExactlyOnceEnabled()) {
    // KIP-618: only committed configs and offsets count (Java forces read_committed on both).
    offset_log.consumer["isolation.level"] = "read_committed";
    config_log.consumer["isolation.level"] = "read_committed";
  }
  offset_store_ = std::make_unique<storage::KafkaOffsetBackingStore>(
      offset_log, std::chrono::seconds(30), options_.open_log);
  offset_store_->SetReadToEndOnLookup(ExactlyOnceEnabled());
  status_store_ = std::make_unique<storage::KafkaStatusBackingStore>(status_log, options_.open_log);
  config_store_ = std::make_unique<storage::KafkaConfigBackingStore>(
      config_log, static_cast<storage::ConfigStateListener*>(this), std::chrono::seconds(30),
      options_.open_log);
  if (options_.exactly_once != config::ExactlyOnceSourceSupport::kDisabled) {
    // KafkaConfigBackingStore.fencableProducerProps.
    std::map<std::string, std::string> leader = options_.config_log.producer;
    leader["client.id"] = options_.group.group_id + "-configs-leader";
    leader["acks"] = "all";
    leader["max.in.flight.requests.per.connection"] = "5";
    leader["enable.idempotence"] = "true";
    leader["transactional.id"] = kafka::LeaderTransactionalId(options_.group.group_id);
    config_store_->UseTransactionalLeader(std::move(leader));
  }
  // The three logs start at once: each creates its topic if missing (see above for the order)
  // and reads it to its end, so that start-up waits for the slowest (the three one after the
  // other took 0.92 s). Errors are reported in Java's order.
  std::future<absl::Status> offsets_started =
      std::async(std::launch::async, [this] { return offset_store_->Start(); });
  std::future<absl::Status> status_started =
      std::async(std::launch::async, [this] { return status_store_->Start(); });
  absl::Status config_started = config_store_->Start();
  signal_config_topic();  // also when it failed: the other two must not wait for it
  absl::Status offsets_status = offsets_started.get();
  absl::Status status_status = status_started.get();
  if (!offsets_status.ok()) return offsets_status;
  if (!status_status.ok()) return status_status;
  if (!config_started.ok()) return config_started;
  snapshot_ = config_store_->Snapshot();
  PublishView();

  worker::OffsetStoreFactory offsets = [store = offset_store_.get()](const std::string& c) {
    return std::make_shared<worker::BackingStoreOffsets>(*store, c);
  };
  worker_ = make_worker_(*this, *this, worker_id_, std::move(offsets));
  if (ExactlyOnceEnabled()) worker_->EnableExactlyOnce(MakeExactlyOnceHooks());

  distributed::WorkerCoordinator::Callbacks callbacks;
  callbacks.snapshot = [this] { return AssignorSnapshot(); };
  callbacks.on_assignment = [this](const distributed::AssignmentEvent& event) {
    Post([this, event] { OnAssignment(event); });
  };
  // Eager rounds stop everything on the herder thread; the member's JoinGroup waits for that
  // (confirm_applied) without blocking the control context.
  callbacks.on_revoke_all = [this](bool eager) { Post([this, eager] { OnRevokeAll(eager); }); };
  callbacks.confirm_applied = true;
  callbacks.on_error = [this](const absl::Status& error) {
    if (absl::IsPermissionDenied(error) && options_.on_fatal) {
      bool expected = false;
      if (!fatal_reported_.compare_exchange_strong(expected, true)) return;
      CONNECTD_LOG(kError, kLogger)
          << "Uncaught exception in herder work thread, exiting: " << error.message();
      options_.on_fatal(error);
      return;
    }
    CONNECTD_LOG(kWarn, kLogger) << "Group membership: " << error.message();
  };
  callbacks.request_rejoin = [this](std::string reason) {
    if (member_) member_->RequestRejoin(std::move(reason));
  };
  absl::StatusOr<std::unique_ptr<distributed::WorkerCoordinator>> coordinator =
      distributed::WorkerCoordinator::Create(advertised_url_, options_.protocol,
                                             options_.scheduled_rebalance_max_delay_ms,
                                             std::move(callbacks), NowMs);
  if (!coordinator.ok()) return coordinator.status();
  coordinator_ = *std::move(coordinator);

  member_ = options_.join_group
                ? options_.join_group(control_, coordinator_.get())
                : distributed::GroupMember::Create(control_, options_.group, coordinator_.get());
  thread_ = std::thread([this] {
    log::LogContext context("herder");
    io_.run();
  });
  started_ = true;
  member_->Start();
  CONNECTD_LOG(kInfo, kLogger) << "Herder started; joining group " << options_.group.group_id
                               << " as " << advertised_url_;
  return absl::OkStatus();
}

void DistributedHerder::Stop() {
  if (stopped_.exchange(true)) return;
  CONNECTD_LOG(kInfo, kLogger) << "Herder stopping";
  if (thread_.joinable()) {
    std::promise<void> halted;
    Post([this, &halted] {
      rejoin_timer_.cancel();
      key_rotation_timer_.cancel();
      StopTasks(assignment_.tasks, /*write_unassigned=*/true);
      for (const std::string& c : assignment_.connectors) StopConnectorInstance(c, true);
      assignment_ = {};
      worker_.reset();
      halted.set_value();
    });
    halted.get_future().wait();
  }
  if (member_) {
    auto left = std::make_shared<std::promise<void>>();
    member_->Stop([left] { left->set_value(); });
    if (left->get_future().wait_for(std::chrono::seconds(10)) != std::future_status::ready) {
      CONNECTD_LOG(kWarn, kLogger) << "Leaving the group timed out";
    }
  }
  if (thread_.joinable()) {
    work_.reset();
    io_.stop();
    thread_.join();
  }
  if (status_store_) (void)status_store_->Flush(std::chrono::seconds(5));
  if (config_store_) config_store_->Stop();
  if (status_store_) status_store_->Stop();
  if (offset_store_) offset_store_->Stop();
  ready_ = false;
  CONNECTD_LOG(kInfo, kLogger) << "Herder stopped";
}

// ---- Statuses (any thread)
// -----------------------------------------------------------------------

std::optional<std::string> DistributedHerder::PluginVersionOf(const std::string& connector) const {
  std::shared_ptr<const storage::ClusterConfigState> view = View();
  const storage::ConfigProperties* raw = view->RawConnectorConfig(connector);
  if (raw == nullptr) return std::nullopt;
  std::map<std::string, std::string> config;
  for (const auto& [key, value] : *raw) {
    if (value) config.emplace(key, *value);
  }
  const plugin::ConnectorPlugin* plugin = plugins_.FindForConfig(config);
  if (plugin != nullptr) return plugin->version;
  return std::nullopt;
}

void DistributedHerder::OnConnectorState(const std::string& connector, worker::State state,
                                         std::optional<std::string> trace) {
  storage::StatusValue value{state, std::move(trace), worker_id_, generation_.load(),
                             PluginVersionOf(connector)};
  status_store_->PutConnector(connector, value, storage::HerderWriteMode(state));
}

void DistributedHerder::OnTaskState(const herder::ConnectorTaskId& task, worker::State state,
                                    std::optional<std::string> trace) {
  storage::StatusValue value{state, std::move(trace), worker_id_, generation_.load(),
                             PluginVersionOf(task.connector)};
  status_store_->PutTask(task, value, storage::HerderWriteMode(state));
}

void DistributedHerder::OnTopicUsed(const std::string& connector, const std::string& topic) {
  // The worker reports each topic once per task; the store says whether a record exists (it
  // may have been reset on another worker since).
  if (status_store_->Topics(connector).count(topic) != 0) return;
  status_store_->PutTopic(storage::TopicStatusValue{topic, connector, 0, NowMs()});
}

void DistributedHerder::OnTaskReconfigurationRequest(const std::string& connector) {
  Post([this, connector] { ReconfigureConnectorTasks(connector); });
}

// ---- Config topic (log thread: post only) -------------------------------------------------------

void DistributedHerder::ScheduleSnapshotUpdate() {
  if (snapshot_update_posted_.exchange(true)) return;
  Post([this] {
    snapshot_update_posted_ = false;
    UpdateSnapshot();
  });
}

void DistributedHerder::OnConnectorConfigRemove(const std::string&) { ScheduleSnapshotUpdate(); }
void DistributedHerder::OnConnectorConfigUpdate(const std::string&) { ScheduleSnapshotUpdate(); }
void DistributedHerder::OnTaskConfigUpdate(const std::vector<herder::ConnectorTaskId>&) {
  ScheduleSnapshotUpdate();
}
void DistributedHerder::OnConnectorTargetStateChange(const std::string&) {
  ScheduleSnapshotUpdate();
}
void DistributedHerder::OnSessionKeyUpdate(const storage::SessionKey&) { ScheduleSnapshotUpdate(); }

void DistributedHerder::OnRestartRequest(const herder::RestartRequest& request) {
  // The snapshot first, so the restart sees the configs written before it.
  ScheduleSnapshotUpdate();
  Post([this, request] { ProcessRestartRequest(request); });
}

void DistributedHerder::OnLoggingLevelUpdate(const std::string& logging_namespace,
                                             const std::string& level) {
  std::optional<log::Level> parsed = log::ParseLevel(level);
  if (!parsed) {
    CONNECTD_LOG(kWarn, kLogger) << "Ignoring cluster logger level '" << level << "' for "
                                 << logging_namespace;
    return;
  }
  CONNECTD_LOG(kInfo, kLogger) << "Setting cluster-wide level of " << logging_namespace << " to "
                               << level;
  log::SetLevel(logging_namespace, *parsed);
}

// ---- Config view
// ----------------------------------------------------------------------------------

void DistributedHerder::PublishView() {
  auto view = std::make_shared<const storage::ClusterConfigState>(snapshot_);
  std::lock_guard lock(view_mu_);
  view_ = std::move(view);
  session_key_ = snapshot_.session_key();
}

std::shared_ptr<const storage::ClusterConfigState> DistributedHerder::View() const {
  std::lock_guard lock(view_mu_);
  return view_;
}

ConfigSnapshotView DistributedHerder::AssignorSnapshot() const {
  storage::ClusterConfigState state = config_store_->Snapshot();
  ConfigSnapshotView view;
  view.offset = state.offset();
  for (const std::string& c : state.Connectors()) {
    std::vector<int32_t>& tasks = view.connectors[c];
    if (state.TargetState(c) == herder::TargetState::kStopped) continue;
    for (const herder::ConnectorTaskId& t : state.Tasks(c)) tasks.push_back(t.task);
  }
  return view;
}

// ---- Acting on config changes (herder thread)
// -----------------------------------------------------

void DistributedHerder::UpdateSnapshot() {
  if (!worker_) return;
  storage::ClusterConfigState before = std::move(snapshot_);
  snapshot_ = config_store_->Snapshot();
  PublishView();
  const storage::ClusterConfigState& after = snapshot_;
  bool rejoin = before.Connectors() != after.Connectors();

  std::set<std::string> names;
  for (const std::string& c : before.Connectors()) names.insert(c);
  for (const std::string& c : after.Connectors()) names.insert(c);
  for (const std::string& c : names) {
    if (!after.Contains(c)) {
      // Deleted: stop it here now; the next round revokes it everywhere.
      StopTasks(LocalTasksOf(c), /*write_unassigned=*/false);
      std::erase_if(assignment_.tasks,
                    [&](const herder::ConnectorTaskId& t) { return t.connector == c; });
      if (OwnsConnector(c)) StopConnectorInstance(c, /*write_unassigned=*/false);
      std::erase(assignment_.connectors, c);
      reconfigure_pending_.erase(c);
      CONNECTD_LOG(kInfo, kLogger) << "Connector " << c << " was deleted";
      continue;
    }
    if (!before.Contains(c)) continue;  // new: the next round places it
    const herder::TargetState old_target =
        before.TargetState(c).value_or(herder::TargetState::kStarted);
    const herder::TargetState new_target =
        after.TargetState(c).value_or(herder::TargetState::kStarted);
    const bool config_changed = *before.RawConnectorConfig(c) != *after.RawConnectorConfig(c);
    if (TaskConfigsChanged(before, after, c) ||
        (old_target != new_target && new_target == herder::TargetState::kStopped)) {
      // New task configs (or none, for STOPPED): this worker's tasks of c stop now and, as in
      // Java, stay in its assignment; the next round starts the ones it still owns with their
      // new configs.
      std::vector<herder::ConnectorTaskId> local = LocalTasksOf(c);
      StopTasks(local, /*write_unassigned=*/false);
      tasks_to_restart_.insert(local.begin(), local.end());
      rejoin = true;
    }
    if (config_changed && OwnsConnector(c)) {
      CONNECTD_LOG(kInfo, kLogger) << "Restarting connector " << c << " for its new config";
      StopConnectorInstance(c, /*write_unassigned=*/false);
      StartConnector(c);  // in its current target state; reconfigures its tasks if STARTED
    } else if (old_target != new_target && OwnsConnector(c)) {
      worker_->SetConnectorTargetState(c, new_target);
      if (new_target == herder::TargetState::kStarted) {
        // As Java on every transition to STARTED: a stopped connector's tasks are generated
        // again, and so are those of one created PAUSED (it never ran to make them).
        ReconfigureConnectorTasks(c);
      }
    }
    if (old_target != new_target && new_target != herder::TargetState::kStopped) {
      for (const herder::ConnectorTaskId& t : LocalTasksOf(c)) {
        if (tasks_to_restart_.count(t) == 0) worker_->SetTaskTargetState(t, new_target);
      }
    }
  }
  if (is_leader_ && sessioned_ && snapshot_.session_key() != before.session_key()) {
    EnsureSessionKey();
  }
  if (rejoin) {
    needs_reconfig_rebalance_ = true;
    RequestRejoin("the configured connectors or tasks changed");
  }
}

// ---- Group rounds (herder thread)
// -----------------------------------------------------------------

void DistributedHerder::OnRevokeAll(bool eager) {
  rebalancing_ = true;
  if (!eager) {
    // Cooperative: work keeps running, but new task configs another worker wrote are applied
    // before this member rejoins, so its tasks whose configs changed stop (committing their
    // offsets) before the round hands their partitions to other tasks. Bounded: a config topic
    // that cannot be read now is caught up with after the round (the assignment's offset).
    if (worker_) {
      (void)config_store_->Refresh(kJoinConfigCatchUpTimeout);
      UpdateSnapshot();
    }
    coordinator_->MarkApplied();  // the JoinGroup waited for this
    return;
  }
  if (worker_) {
    StopTasks(assignment_.tasks, /*write_unassigned=*/true);
    for (const std::string& c : assignment_.connectors) StopConnectorInstance(c, true);
    assignment_ = {};
    tasks_to_restart_.clear();
    (void)status_store_->Flush(kStatusFlushTimeout);
  }
  coordinator_->MarkApplied();  // the JoinGroup waited for this
}

void DistributedHerder::OnAssignment(const distributed::AssignmentEvent& event) {
  // The next JoinGroup waits until this round is applied (revoked work stopped first), as
  // Java's member, whose poll thread does this work, cannot join earlier either.
  struct MarkApplied {
    distributed::WorkerCoordinator* coordinator;
    ~MarkApplied() { coordinator->MarkApplied(); }
  } applied{coordinator_.get()};
  if (!worker_) return;
  const distributed::ConnectAssignment& a = event.assignment;
  // A member that rejoins a stable group without changes gets the same round back (the
  // coordinator does not rebalance for it): its delay was already scheduled.
  const bool repeated = event.generation == generation_.load() && event.complete == assignment_ &&
                        a.error == distributed::ConnectAssignment::kNoError;
  if (!repeated) rebalance_metrics_.Started(event.generation);
  generation_ = event.generation;
  member_id_ = event.member_id;
  leader_id_ = a.leader;
  leader_url_ = a.leader_url;
  is_leader_ = !a.leader.empty() && a.leader == event.member_id;
  sessioned_ = event.protocol == "sessioned";
  rebalancing_ = false;
  needs_reconfig_rebalance_ = false;
  UpdateWritePrivileges();  // KIP-618: the leader claims the config topic transactionally
  // Requests that waited for this round run after it (they may wait again for the next one).
  struct DrainWaiting {
    DistributedHerder* herder;
    ~DrainWaiting() {
      std::vector<std::function<void()>> waiting = std::move(herder->waiting_for_rebalance_);
      for (auto& retry : waiting) retry();
    }
  } drain{this};
  if (!repeated) {
    last_rebalance_ms_ = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
    CONNECTD_LOG(kInfo, kLogger) << "Joined group at generation " << event.generation << " with "
                                 << event.protocol << " as " << (is_leader_ ? "leader" : "member")
                                 << "; " << event.complete.connectors.size() << " connectors and "
                                 << event.complete.tasks.size() << " tasks assigned";
  }
  // Revocations first, whatever happens next (Java stops them in onRevoked).
  StopRevoked(event.complete);

  if (a.error == distributed::ConnectAssignment::kConfigMismatch) {
    absl::Status read = config_store_->Refresh(options_.worker_sync_timeout);
    UpdateSnapshot();
    if (read.ok()) {
      RequestRejoin("the leader's config was behind");
    } else {
      ScheduleRejoin(UnsyncBackoff());
    }
    return;
  }
  if (config_store_->Snapshot().offset() < a.config_offset) {
    if (absl::Status read = config_store_->Refresh(options_.worker_sync_timeout); !read.ok()) {
      CONNECTD_LOG(kWarn, kLogger)
          << "Could not read the config topic to offset " << a.config_offset << ": "
          << read.message() << "; starting nothing new and rejoining later";
      ScheduleRejoin(UnsyncBackoff());
      return;
    }
  }
  UpdateSnapshot();
  if (snapshot_.offset() > a.config_offset) {
    // Configs changed after the leader assigned: start nothing new, ask for a round on the
    // newer state (as Java does).
    RequestRejoin("the config topic moved on during the round");
    return;
  }
  Reconcile(event.complete);
  if (is_leader_) LeaderDuties();
  if (!repeated) {
    if (a.delay_ms > 0) {
      ScheduleRejoin(std::chrono::milliseconds(a.delay_ms));
    } else {
      rejoin_timer_.cancel();  // a delay from an earlier round no longer applies
    }
  }
  ready_ = true;
  rebalance_metrics_.Completed(event.complete.connectors.size(), event.complete.tasks.size());
  if (options_.on_rebalance_success) options_.on_rebalance_success(is_leader_);
}

std::chrono::milliseconds DistributedHerder::UnsyncBackoff() const {
  // Java: worker.unsync.backoff.ms under `eager`; a tenth of the scheduled rebalance delay
  // (at least 100 ms) under the cooperative protocols.
  if (options_.protocol == distributed::ConnectProtocolMode::kEager) {
    return options_.worker_unsync_backoff;
  }
  return std::max(std::chrono::milliseconds(100),
                  std::chrono::milliseconds(options_.scheduled_rebalance_max_delay_ms / 10));
}

void DistributedHerder::StopRevoked(const distributed::MemberWork& desired) {
  std::vector<herder::ConnectorTaskId> stop_tasks;
  for (const herder::ConnectorTaskId& t : assignment_.tasks) {
    if (!Contains(desired.tasks, t)) stop_tasks.push_back(t);
  }
  std::vector<std::string> stop_connectors;
  for (const std::string& c : assignment_.connectors) {
    if (!Contains(desired.connectors, c)) stop_connectors.push_back(c);
  }
  if (stop_tasks.empty() && stop_connectors.empty()) return;
  StopTasks(stop_tasks, /*write_unassigned=*/true);
  for (const std::string& c : stop_connectors) StopConnectorInstance(c, /*write_unassigned=*/true);
  std::erase_if(assignment_.tasks,
                [&](const herder::ConnectorTaskId& t) { return Contains(stop_tasks, t); });
  std::erase_if(assignment_.connectors,
                [&](const std::string& c) { return Contains(stop_connectors, c); });
  for (const herder::ConnectorTaskId& t : stop_tasks) tasks_to_restart_.erase(t);
  // Their UNASSIGNED statuses reach the topic before their next owner's RUNNING (Java flushes
  // in onRevoked too).
  (void)status_store_->Flush(kStatusFlushTimeout);
}

void DistributedHerder::Reconcile(const distributed::MemberWork& desired) {
  StopRevoked(desired);
  const distributed::MemberWork before = assignment_;
  assignment_ = desired;
  for (const std::string& c : desired.connectors) {
    if (!Contains(before.connectors, c)) StartConnector(c);
  }
  for (const herder::ConnectorTaskId& t : desired.tasks) {
    const bool restart = tasks_to_restart_.erase(t) != 0;
    // Starting a connector above may have changed what this worker owns.
    if ((restart || !Contains(before.tasks, t)) && OwnsTask(t)) StartTask(t);
  }
  std::erase_if(tasks_to_restart_, [&](const herder::ConnectorTaskId& t) { return !OwnsTask(t); });
}

void DistributedHerder::StartConnector(const std::string& c) {
  const storage::ConfigProperties* raw = snapshot_.RawConnectorConfig(c);
  if (raw == nullptr) return;  // deleted meanwhile; the next round revokes it
  const herder::TargetState target =
      snapshot_.TargetState(c).value_or(herder::TargetState::kStarted);
  absl::Status started = worker_->StartConnector(c, storage::ToConfigMap(*raw), target);
  if (started.ok() && target == herder::TargetState::kStarted) ReconfigureConnectorTasks(c);
}

void DistributedHerder::StartTask(const herder::ConnectorTaskId& t) {
  const storage::ConfigProperties* connector = snapshot_.RawConnectorConfig(t.connector);
  const storage::ConfigProperties* task = snapshot_.RawTaskConfig(t);
  if (connector == nullptr || task == nullptr) {
    CONNECTD_LOG(kWarn, kLogger) << "No config for task " << t.connector << "-" << t.task
                                 << "; not starting it";
    return;
  }
  const herder::TargetState target =
      snapshot_.TargetState(t.connector).value_or(herder::TargetState::kStarted);
  (void)worker_->StartTask(t, storage::ToConfigMap(*connector), storage::ToConfigMap(*task),
                           target);
}

void DistributedHerder::StopTasks(const std::vector<herder::ConnectorTaskId>& tasks,
                                  bool write_unassigned) {
  if (tasks.empty()) return;
  worker_->StopAndAwaitTasks(tasks);
  if (!write_unassigned) return;
  for (const herder::ConnectorTaskId& t : tasks) {
    // A deleted connector's statuses are the leader's to remove: do not bring them back.
    if (snapshot_.Contains(t.connector)) OnTaskState(t, worker::State::kUnassigned, std::nullopt);
  }
}

void DistributedHerder::StopConnectorInstance(const std::string& c, bool write_unassigned) {
  worker_->StopConnector(c);
  if (write_unassigned && snapshot_.Contains(c)) {
    OnConnectorState(c, worker::State::kUnassigned, std::nullopt);
  }
}

std::vector<herder::ConnectorTaskId> DistributedHerder::LocalTasksOf(const std::string& c) const {
  std::vector<herder::ConnectorTaskId> out;
  for (const herder::ConnectorTaskId& t : assignment_.tasks) {
    if (t.connector == c) out.push_back(t);
  }
  return out;
}

bool DistributedHerder::OwnsConnector(const std::string& c) const {
  return Contains(assignment_.connectors, c);
}

bool DistributedHerder::OwnsTask(const herder::ConnectorTaskId& t) const {
  return Contains(assignment_.tasks, t);
}

bool DistributedHerder::DeferWhileRebalancePending(std::function<void()> retry) {
  if (!needs_reconfig_rebalance_) return false;
  waiting_for_rebalance_.push_back(std::move(retry));
  return true;
}

void DistributedHerder::RequestRejoin(const std::string& reason) {
  if (member_) member_->RequestRejoin(reason);
}

void DistributedHerder::ScheduleRejoin(std::chrono::milliseconds delay) {
  rejoin_timer_.expires_after(delay);
  rejoin_timer_.async_wait([this](const boost::system::error_code& ec) {
    if (!ec) RequestRejoin("the scheduled rebalance delay expired");
  });
}

// ---- Task configs (herder thread) -------------------------------------------------------------

void DistributedHerder::ReconfigureConnectorTasks(const std::string& c) {
  reconfigure_pending_.erase(c);
  const storage::ConfigProperties* raw = snapshot_.RawConnectorConfig(c);
  if (raw == nullptr || !OwnsConnector(c) ||
      snapshot_.TargetState(c).value_or(herder::TargetState::kStarted) !=
          herder::TargetState::kStarted ||
      !worker_->IsConnectorRunning(c)) {
    return;
  }
  const herder::ConfigMap config = storage::ToConfigMap(*raw);
  absl::StatusOr<std::vector<herder::ConfigMap>> configs = worker_->ConnectorTaskConfigs(c, config);
  if (!configs.ok()) {
    // A retriable error leaves the connector running (Java's "retrying after backoff"); any
    // other has made it FAILED with the reason.
    if (absl::IsUnavailable(configs.status())) {
      CONNECTD_LOG(kError, kLogger) << "Failed to reconfigure connector's tasks (" << c
                                    << "), retrying after backoff: " << configs.status().message();
      RetryReconfigureLater(c);
    }
    return;
  }
  bool changed = static_cast<size_t>(snapshot_.TaskCount(c)) != configs->size() ||
                 snapshot_.Tasks(c).size() != configs->size();
  for (size_t i = 0; !changed && i < configs->size(); ++i) {
    const storage::ConfigProperties* current = snapshot_.RawTaskConfig({c, static_cast<int>(i)});
    changed = current == nullptr || storage::ToConfigMap(*current) != (*configs)[i];
  }
  // The connector config changed since the tasks were generated (KAFKA-9228).
  const storage::ConfigProperties* applied = snapshot_.AppliedConnectorConfig(c);
  if (!changed && (applied == nullptr || storage::ToConfigMap(*applied) != config)) {
    changed = true;
  }
  if (!changed) {
    reconfigure_backoff_.erase(c);
    return;
  }
  if (is_leader_) {
    std::vector<storage::ConfigProperties> records;
    for (const herder::ConfigMap& task : *configs) records.push_back(storage::FromConfigMap(task));
    absl::Status written = config_store_->PutTaskConfigs(c, records);
    if (!written.ok()) {
      CONNECTD_LOG(kWarn, kLogger)
          << "Failed to write task configs of " << c << ": " << written.message();
      RetryReconfigureLater(c);
      return;
    }
    reconfigure_backoff_.erase(c);
    ScheduleSnapshotUpdate();  // not nested: the caller may be iterating over its work
    return;
  }
  if (leader_url_.empty() || !forward_task_configs_) {
    RetryReconfigureLater(c);
    return;
  }
  forward_task_configs_(
      leader_url_, c, *configs, snapshot_.session_key(), [this, c](absl::Status result) {
        if (result.ok()) {
          Post([this, c] { reconfigure_backoff_.erase(c); });
          return;
        }
        CONNECTD_LOG(kWarn, kLogger)
            << "Failed to hand task configs of " << c << " to the leader: " << result.message();
        Post([this, c] { RetryReconfigureLater(c); });
      });
}

void DistributedHerder::RetryReconfigureLater(const std::string& c) {
  if (stopped_ || !reconfigure_pending_.insert(c).second) return;
  auto [it, fresh] = reconfigure_backoff_.try_emplace(c, kReconfigureBackoffStart);
  if (!fresh) it->second = std::min(it->second * 2, kReconfigureBackoffMax);
  auto timer = std::make_shared<boost::asio::steady_timer>(io_, it->second);
  timer->async_wait([this, timer, c](const boost::system::error_code& ec) {
    if (!ec && reconfigure_pending_.count(c) != 0) ReconfigureConnectorTasks(c);
  });
}

// ---- Restart requests (herder thread) -----------------------------------------------------------

void DistributedHerder::ProcessRestartRequest(const herder::RestartRequest& request) {
  const std::string& c = request.connector;
  if (!snapshot_.Contains(c)) return;
  std::optional<storage::StatusValue> status = status_store_->Connector(c);
  const bool restart_connector =
      !request.only_failed || (status && status->state == worker::State::kFailed);
  if (restart_connector && OwnsConnector(c)) RestartLocalConnector(c);
  if (!request.include_tasks) return;
  for (const herder::ConnectorTaskId& t : LocalTasksOf(c)) {
    std::optional<storage::StatusValue> task = status_store_->Task(t);
    if (!request.only_failed || (task && task->state == worker::State::kFailed)) {
      RestartLocalTask(t);
    }
  }
}

void DistributedHerder::RestartLocalConnector(const std::string& c) {
  worker_->StopConnector(c);
  OnConnectorState(c, worker::State::kRestarting, std::nullopt);
  StartConnector(c);
}

void DistributedHerder::RestartLocalTask(const herder::ConnectorTaskId& t) {
  worker_->StopAndAwaitTasks({t});
  OnTaskState(t, worker::State::kRestarting, std::nullopt);
  StartTask(t);
}

// ---- Leader (herder thread)
// -----------------------------------------------------------------------

void DistributedHerder::LeaderDuties() {
  if (sessioned_) EnsureSessionKey();
  // Statuses of deleted connectors and of tasks their connector no longer has go (Java's
  // leader does this after each round): DESTROYED is written as a tombstone, so GET
  // .../status stops showing them.
  const storage::StatusValue destroyed{worker::State::kDestroyed, std::nullopt, worker_id_,
                                       generation_.load(), std::nullopt};
  for (const std::string& c : status_store_->Connectors()) {
    const bool exists = snapshot_.Contains(c);
    const std::vector<herder::ConnectorTaskId> tasks = snapshot_.Tasks(c);
    for (const auto& [task, status] : status_store_->Tasks(c)) {
      if (exists && Contains(tasks, herder::ConnectorTaskId{c, task})) continue;
      status_store_->PutTask({c, task}, destroyed, storage::WriteMode::kNormal);
    }
    if (exists) continue;
    if (status_store_->Connector(c)) {
      status_store_->PutConnector(c, destroyed, storage::WriteMode::kNormal);
    }
    for (const auto& [topic, status] : status_store_->Topics(c))
      status_store_->DeleteTopic(c, topic);
  }
}

void DistributedHerder::EnsureSessionKey() {
  const std::optional<storage::SessionKey>& current = snapshot_.session_key();
  const int64_t now = NowMs();
  const bool usable = current && current->algorithm == options_.key_generation_algorithm &&
                      (!options_.key_size_bits ||
                       static_cast<int64_t>(current->key.size()) * 8 == *options_.key_size_bits) &&
                      current->creation_timestamp_ms + options_.key_ttl_ms > now;
  int64_t created = usable ? current->creation_timestamp_ms : now;
  if (!usable) {
    absl::StatusOr<std::string> key =
        distributed::GenerateKey(options_.key_generation_algorithm, options_.key_size_bits);
    if (!key.ok()) {
      CONNECTD_LOG(kError, kLogger) << "Cannot generate a session key: " << key.status().message();
      return;
    }
    storage::SessionKey fresh{*std::move(key), options_.key_generation_algorithm, now};
    if (absl::Status written = config_store_->PutSessionKey(fresh); !written.ok()) {
      CONNECTD_LOG(kWarn, kLogger)
          << "Failed to write a new session key: " << written.message() << "; retrying in 1 s";
      created = now - options_.key_ttl_ms;  // retry after the minimum wait below
    } else {
      CONNECTD_LOG(kInfo, kLogger) << "Distributed a new session key";
      ScheduleSnapshotUpdate();  // the key record, diffed like any other change
    }
  }
  key_rotation_timer_.expires_after(
      std::chrono::milliseconds(std::max<int64_t>(created + options_.key_ttl_ms - now, 1000)));
  key_rotation_timer_.async_wait([this](const boost::system::error_code& ec) {
    if (!ec && is_leader_ && sessioned_) EnsureSessionKey();
  });
}

}  // namespace connectd::distributed
