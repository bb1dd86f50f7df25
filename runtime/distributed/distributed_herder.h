// File: distributed_herder.h
//
// DistributedHerder: the Herder of `connectd distributed` (Connect's DistributedHerder). Workers
// with the same group.id share connectors and tasks through the Kafka group coordinator
// (GroupMember + WorkerCoordinator, protocol type `connect`), and keep their state in the three
// internal topics: connector and task configs, target states, restart requests and session keys
// in config.storage.topic, statuses in status.storage.topic, source offsets in
// offset.storage.topic. Java Connect workers can be members of the same cluster.
//
// What runs where: the leader of each round assigns connectors and tasks; every worker runs its
// complete set (cooperatively: what keeps its owner keeps running through a rebalance). A
// connector's owner generates its task configs; the leader writes them (a follower forwards
// them to the leader, signed with the session key under `sessioned`). Writes of connector
// configs happen on the leader; this herder answers ForwardRequiredError elsewhere and the REST
// layer forwards. Pause/resume and cluster logger levels are written by any worker.
//
// Threads: one herder thread (an io_context run by a std::thread) owns all state below and runs
// every blocking call (connector start/stop, task joins, config-topic writes). GroupMember runs
// on the control io_context given to the constructor; the coordinator's callbacks only post to
// the herder thread. Config-topic listener calls (log thread) only post too. Status reads are
// answered on the caller's thread from the status store and a mutex-guarded config view.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "runtime/config/worker_config.h"
#include "runtime/distributed/group_member.h"
#include "runtime/distributed/rebalance_metrics.h"
#include "runtime/distributed/worker_coordinator.h"
#include "runtime/herder/connector_validation.h"
#include "runtime/herder_api/herder.h"
#include "runtime/storage/config_state.h"
#include "runtime/storage/kafka_config_backing_store.h"
#include "runtime/storage/kafka_offset_backing_store.h"
#include "runtime/storage/kafka_status_backing_store.h"
#include "runtime/worker/worker.h"

namespace connectd::distributed {

class DistributedHerder : public herder::Herder,
                          private worker::StatusListener,
                          private worker::ConnectorEvents,
                          private storage::ConfigStateListener {
 public:
  struct Options {
    std::string kafka_cluster_id;
    // Where connect-worker-rebalance-metrics are published; none when null.
    metrics::MetricsRegistry* metrics = nullptr;
    bool topic_tracking = true;
    bool topic_tracking_reset = true;
    // librdkafka properties for the admin client that manages sink connectors' group offsets.
    std::map<std::string, std::string> admin_config;
    // The worker's client-override policy (and exactly-once mode), for validation.
    herder::WorkerValidation validation;

    // The three internal topics.
    storage::KafkaBasedLog::Options config_log;
    storage::KafkaBasedLog::Options status_log;
    storage::KafkaBasedLog::Options offset_log;

    // Group membership (group.id, bootstrap, security, timeouts).
    distributed::GroupMemberConfig group;
    distributed::ConnectProtocolMode protocol = distributed::ConnectProtocolMode::kSessioned;
    int32_t scheduled_rebalance_max_delay_ms = 300000;
    std::chrono::milliseconds worker_sync_timeout{3000};
    std::chrono::milliseconds worker_unsync_backoff{300000};

    // KIP-507 internal request signing.
    std::string key_generation_algorithm = "HmacSHA256";
    std::optional<int32_t> key_size_bits;
    int64_t key_ttl_ms = 3600000;
    std::string signature_algorithm = "HmacSHA256";
    std::vector<std::string> verification_algorithms{"HmacSHA256"};

    // KIP-618 exactly-once source support (exactly.once.source.support): preparing makes the
    // leader write the config topic transactionally; enabled also runs source tasks
    // transactionally, reads the config and offsets topics read_committed and fences zombies.
    config::ExactlyOnceSourceSupport exactly_once = config::ExactlyOnceSourceSupport::kDisabled;
    // Asks the leader's PUT /connectors/{c}/fence (signed with `key` when set) for a round of
    // zombie fencing; `done` on any thread. Wired by the CLI to the REST client; without it a
    // follower's exactly-once tasks cannot start (Java's message names the missing link).
    std::function<void(const std::string& leader_url, const std::string& connector,
                       const std::optional<storage::SessionKey>& key,
                       std::function<void(absl::Status)> done)>
        forward_fence;

    // Where the internal topics live and how the group is met. Null: Kafka (the three logs
    // above; GroupMember with `group` on the control context). Tests give in-memory topics and
    // a fake group (tests/unit/runtime/distributed/). Exactly-once support needs Kafka.
    storage::TopicLogOpener open_log;
    std::function<std::shared_ptr<distributed::GroupMembership>(
        boost::asio::io_context& control, distributed::GroupMemberListener* listener)>
        join_group;

    // Called on the herder thread after each applied rebalance round with whether this worker
    // leads the group (Java's DistributedHerder.rebalanceSuccess(), the hook MirrorMaker's
    // MirrorHerder uses to write its connector configs). Must not block; it may call this
    // herder's public methods, which post to the herder thread. Null: nothing.
    std::function<void(bool is_leader)> on_rebalance_success;
    // Called once, from the control context, when the herder cannot go on: the group refused
    // this worker's principal (GROUP_AUTHORIZATION_FAILED), where Java's herder thread logs
    // "Uncaught exception in herder work thread, exiting" and the JVM exits with status 1. The
    // command shuts the worker down and exits non-zero. Unset: the member keeps retrying.
    std::function<void(const absl::Status& error)> on_fatal;
  };

  // Builds the Worker with this herder as its status listener and event sink and the given
  // source-offset view (the offsets topic).
  using WorkerFactory = std::function<std::unique_ptr<worker::Worker>(
      worker::StatusListener&, worker::ConnectorEvents&, const std::string& worker_id,
      worker::OffsetStoreFactory offsets)>;

  // Sends a connector's task configs to the leader's POST /connectors/{c}/tasks (signed with
  // `key` when set); `done` runs on any thread. Wired by the CLI to the REST client.
  using TaskConfigForwarder = std::function<void(
      const std::string& leader_url, const std::string& connector,
      const std::vector<herder::ConfigMap>& task_configs,
      const std::optional<storage::SessionKey>& key, std::function<void(absl::Status)> done)>;

  DistributedHerder(Options options, const plugin::PluginRegistry& plugins,
                    boost::asio::io_context& control, WorkerFactory make_worker,
                    TaskConfigForwarder forward_task_configs);
  ~DistributedHerder() override;

  // Before Start(): this worker's id (host:port, as statuses show it) and its advertised REST
  // URL (what other workers forward to).
  void SetWorkerId(std::string worker_id) { worker_id_ = std::move(worker_id); }
  void SetAdvertisedUrl(std::string url) { advertised_url_ = std::move(url); }

  // Creates or checks the internal topics, reads them to the end, starts the herder thread and
  // joins the group. Fails with the reason when Kafka or a topic is unusable.
  absl::Status Start();
  // Stops every connector and task (offsets flushed), leaves the group, stops the stores.
  // Idempotent.
  void Stop();

  // Herder
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
  bool Ready() override { return ready_.load(); }
  int64_t LastRebalanceMs() override { return last_rebalance_ms_.load(); }
  absl::Status SetClusterLoggerLevel(const std::string& logger, const std::string& level) override;
  void PutTaskConfigs(const std::string& name, const std::vector<herder::ConfigMap>& configs,
                      std::optional<herder::InternalRequestSignature> signature,
                      herder::DoneCallback done) override;
  void FenceZombieSourceTasks(const std::string& name,
                              std::optional<herder::InternalRequestSignature> signature,
                              herder::DoneCallback done) override;

 private:
  // worker::StatusListener (any thread): statuses go to the status topic.
  void OnConnectorState(const std::string& connector, worker::State state,
                        std::optional<std::string> trace) override;
  void OnTaskState(const herder::ConnectorTaskId& task, worker::State state,
                   std::optional<std::string> trace) override;
  void OnTopicUsed(const std::string& connector, const std::string& topic) override;
  // The version of the plugin `connector` runs, as statuses carry it (any thread).
  std::optional<std::string> PluginVersionOf(const std::string& connector) const;
  // worker::ConnectorEvents (any thread).
  void OnTaskReconfigurationRequest(const std::string& connector) override;

  // storage::ConfigStateListener (the config log's thread, store lock held): post only.
  void OnConnectorConfigRemove(const std::string& connector) override;
  void OnConnectorConfigUpdate(const std::string& connector) override;
  void OnTaskConfigUpdate(const std::vector<herder::ConnectorTaskId>& tasks) override;
  void OnConnectorTargetStateChange(const std::string& connector) override;
  void OnSessionKeyUpdate(const storage::SessionKey& key) override;
  void OnRestartRequest(const herder::RestartRequest& request) override;
  void OnLoggingLevelUpdate(const std::string& logging_namespace,
                            const std::string& level) override;

  // ---- Herder thread only ----------------------------------------------------------------
  template <typename Fn>
  void Post(Fn&& fn);
  // Brings snapshot_ up to the store's state and acts on what changed (distributed_herder.cc).
  void UpdateSnapshot();
  void ScheduleSnapshotUpdate();
  void OnAssignment(const distributed::AssignmentEvent& event);
  void OnRevokeAll(bool eager);
  // Stops what `desired` no longer holds, starts what it adds (and restarts reconfigured tasks).
  void Reconcile(const distributed::MemberWork& desired);
  // Stops what this worker runs and `desired` no longer holds; flushes their statuses.
  void StopRevoked(const distributed::MemberWork& desired);
  // How long to wait before rejoining after failing to read the config topic.
  std::chrono::milliseconds UnsyncBackoff() const;
  void StartConnector(const std::string& connector);
  void StartTask(const herder::ConnectorTaskId& task);
  void StopTasks(const std::vector<herder::ConnectorTaskId>& tasks, bool write_unassigned);
  void StopConnectorInstance(const std::string& connector, bool write_unassigned);
  std::vector<herder::ConnectorTaskId> LocalTasksOf(const std::string& connector) const;
  bool OwnsConnector(const std::string& connector) const;
  bool OwnsTask(const herder::ConnectorTaskId& task) const;
  void ReconfigureConnectorTasks(const std::string& connector);
  void RetryReconfigureLater(const std::string& connector);
  void ProcessRestartRequest(const herder::RestartRequest& request);
  void RestartLocalConnector(const std::string& connector);
  void RestartLocalTask(const herder::ConnectorTaskId& task);
  void LeaderDuties();
  void EnsureSessionKey();
  // While a config change waits for its rebalance, a write request waits for the round instead
  // of failing (Java's herder completes the rebalance before the requests queued behind it).
  // True if `retry` was queued; it runs on the herder thread after the next assignment.
  bool DeferWhileRebalancePending(std::function<void()> retry);
  void RequestRejoin(const std::string& reason);
  void ScheduleRejoin(std::chrono::milliseconds delay);
  // The forwarding answer for a leader-only request on a follower.
  absl::Status NotLeader(const std::string& what) const;
  absl::Status VerifySignature(
      const std::optional<herder::InternalRequestSignature>& signature) const;
  herder::ConnectorInfo InfoOf(const std::string& connector) const;
  herder::ConnectorType TypeOf(const std::string& connector) const;
  absl::Status RequireStoppedForOffsets(const std::string& connector) const;
  // ---- Exactly-once source support (distributed_herder_eos.cc) ----
  bool ExactlyOnceEnabled() const {
    return options_.exactly_once == config::ExactlyOnceSourceSupport::kEnabled;
  }
  // The worker's hooks (fencing before a task's producer starts, generation check after).
  worker::ExactlyOnceHooks MakeExactlyOnceHooks();
  // Leader, herder thread: Connect's doFenceZombieSourceTasks (checks, decision, fencing, the
  // task-count record). 409 when new task configs appeared meanwhile.
  absl::Status DoFenceZombies(const std::string& connector);
  // Task thread: a fencing round for `task`'s connector, on this worker if it leads, else by
  // the leader over signed PUT /connectors/{c}/fence; waits, giving up once `stopping`.
  // A round that fails for a passing reason (unavailable, timed out) is tried again each second
  // for up to 120 s.
  absl::Status FenceForTask(const herder::ConnectorTaskId& task,
                            const std::function<bool()>& stopping);
  absl::Status FenceOnce(const herder::ConnectorTaskId& task,
                         const std::function<bool()>& stopping);
  // Task thread: Connect's verifyTaskGenerationAndOwnership.
  absl::Status VerifyTaskGeneration(const herder::ConnectorTaskId& task,
                                    std::optional<int32_t> generation,
                                    const std::function<bool()>& stopping);
  // Validation of exactly.once.support and transaction.boundary (DistributedHerder's source
  // connector checks) on top of the shared validation.
  void ValidateExactlyOnce(const herder::ConfigMap& config, herder::ConfigInfos& infos) const;
  // KIP-875 alter/reset of an exactly-once source connector: writes the offsets in one
  // transaction of task 0's transactional producer (fencing it), as Java's worker does.
  std::unique_ptr<worker::ConnectorOffsetStore> MakeTransactionalOffsetWriter(
      const std::string& connector, const herder::ConfigMap& config,
      worker::ConnectorOffsetStore& reads);
  // ValidateForWrite plus ValidateExactlyOnce (400 listing every error).
  absl::Status ValidateForWriteWithExactlyOnce(const herder::ConfigMap& config) const;
  // The leader's transactional claim on the config topic follows leadership.
  void UpdateWritePrivileges();
  absl::StatusOr<std::string> ModifyOffsets(
      const std::string& connector,
      const std::map<std::string, std::optional<std::string>>& offsets, bool reset);
  // What the assignor sees (called on the group member's strand; thread-safe).
  ConfigSnapshotView AssignorSnapshot() const;
  void PublishView();
  std::shared_ptr<const storage::ClusterConfigState> View() const;

  const Options options_;
  const plugin::PluginRegistry& plugins_;
  boost::asio::io_context& control_;
  WorkerFactory make_worker_;
  TaskConfigForwarder forward_task_configs_;
  std::string worker_id_;       // set before Start(), then constant
  std::string advertised_url_;  // set before Start(), then constant

  std::unique_ptr<storage::KafkaOffsetBackingStore> offset_store_;
  std::unique_ptr<storage::KafkaStatusBackingStore> status_store_;
  std::unique_ptr<storage::KafkaConfigBackingStore> config_store_;
  std::unique_ptr<distributed::WorkerCoordinator> coordinator_;
  std::shared_ptr<distributed::GroupMembership> member_;

  boost::asio::io_context io_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
  boost::asio::steady_timer rejoin_timer_;
  boost::asio::steady_timer key_rotation_timer_;
  std::thread thread_;
  std::atomic<bool> ready_{false};
  std::atomic<int64_t> last_rebalance_ms_{0};  // LastRebalanceMs
  std::atomic<bool> started_{false};
  std::atomic<bool> stopped_{false};
  std::atomic<bool> fatal_reported_{false};  // Options::on_fatal called (once)
  std::atomic<bool> snapshot_update_posted_{false};
  RebalanceMetrics rebalance_metrics_{options_.metrics, options_.group.client_id};
  std::atomic<int32_t> generation_{-1};  // written on the herder thread, read by status writes

  // Herder thread only.
  std::unique_ptr<worker::Worker> worker_;
  storage::ClusterConfigState snapshot_;
  distributed::MemberWork assignment_;  // what this worker runs
  std::string member_id_;
  std::string leader_id_;
  std::string leader_url_;
  bool is_leader_ = false;
  bool sessioned_ = false;
  // A config change needs a rebalance that has not happened yet (Java's needsReconfigRebalance).
  bool needs_reconfig_rebalance_ = false;
  bool rebalancing_ = true;  // from joining until the round's assignment is applied
  std::vector<std::function<void()>> waiting_for_rebalance_;
  // This worker's tasks stopped for new task configs; the next round restarts those it keeps.
  std::set<herder::ConnectorTaskId> tasks_to_restart_;
  std::map<std::string, std::chrono::milliseconds> reconfigure_backoff_;
  std::set<std::string> reconfigure_pending_;
  bool claimed_leadership_ = false;  // the config store's transactional claim is ours
  // Connectors with a zombie-fencing round running (leader).
  std::set<std::string> fencing_in_progress_;

  // Guarded by view_mu_: what synchronous REST reads see.
  mutable std::mutex view_mu_;
  std::shared_ptr<const storage::ClusterConfigState> view_;
  std::optional<storage::SessionKey> session_key_;
};

}  // namespace connectd::distributed
