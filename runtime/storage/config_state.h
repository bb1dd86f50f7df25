// File: config_state.h
//
// The cluster's configuration as the config topic defines it, built by applying its records in
// order with the reading rules of Java's KafkaConfigBackingStore (ConsumeCallback and the
// process*Record methods), and snapshotted as Java's ClusterConfigState. Also the ordered
// records each of KafkaConfigBackingStore's writes produces.
//
// Reading rules (Kafka 4.4.0 KafkaConfigBackingStore):
//  - A record whose value fails JSON conversion is skipped and does not advance the offset; any
//    other record sets offset = its offset + 1, also when its key is unknown or it is ignored.
//  - connector-{c}: applied at once; the target state defaults to STARTED if none is known. A
//    tombstone removes the config, task count, task configs, deferred task configs and applied
//    config (not the target state, task-count record, generation or pending-fencing mark).
//  - task-{c}-{n}: kept as a deferred config of c, invisible until a commit.
//  - commit-{c} {"tasks":N}: if c has no config, everything of c above is removed and the record
//    is otherwise ignored. Else if the deferred configs hold ids 0..N-1 (extra ids are allowed:
//    compaction) they become live, c's task-config generation goes 0, 1, 2... (unless no task
//    config of c was read since c was last removed: Java keeps c's emptied deferred map, so a
//    later commit of 0 tasks still counts), c stops being inconsistent and its applied config
//    becomes the current config; if not, c is marked inconsistent (Tasks() is empty). Either way
//    the deferred configs are dropped, the task count becomes N and c is pending fencing.
//  - target-state-{c}: sets the state, even for a connector without config. A tombstone removes
//    it, but c gets STARTED back if it still has a config.
//  - tasks-fencing-{c}: records the task count and clears c's pending fencing.
//  - session-key: replaces the session key.
//  - restart-connector-{c} and logger-cluster-{ns}: only reported, and only once started.
//  - Listener calls happen only once started (MarkStarted, after the initial read to the end):
//    config update/remove for every connector record, task configs for every applied commit
//    (tasks updated, possibly none), target state when it changed for an existing connector
//    (not for tombstones), session key, restart, logger level.
//
// Not modelled: WorkerConfigTransformer (config providers); snapshots hold raw configs.
//
// Thread safety: ConfigStateTracker is not thread-safe; its owner (the config-topic consumer or
// herder strand) serializes Apply and Snapshot. Listener calls run inside Apply, on the caller's
// thread. ClusterConfigState is an immutable value once built.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "runtime/herder_api/herder_types.h"
#include "runtime/storage/config_records.h"

namespace connectd::storage {

// ClusterConfigState: a consistent snapshot of the config topic (Java's ClusterConfigState).
class ClusterConfigState {
 public:
  static constexpr int64_t kNoOffset = -1;

  // The offset after the last record read (the "config offset" of the group protocol).
  int64_t offset() const { return offset_; }
  const std::optional<SessionKey>& session_key() const { return session_key_; }

  bool Contains(std::string_view connector) const;
  // Connectors with a config, sorted.
  std::vector<std::string> Connectors() const;
  // The raw connector config, or nullptr.
  const ConfigProperties* RawConnectorConfig(std::string_view connector) const;
  // The config at the last complete task-config commit, or nullptr.
  const ConfigProperties* AppliedConnectorConfig(std::string_view connector) const;
  std::optional<herder::TargetState> TargetState(std::string_view connector) const;
  // A committed task config, or nullptr.
  const ConfigProperties* RawTaskConfig(const herder::ConnectorTaskId& task) const;
  // The task count of the last commit; 0 if none.
  int32_t TaskCount(std::string_view connector) const;
  // connector-0..n-1 per the last commit; empty if inconsistent or never committed.
  std::vector<herder::ConnectorTaskId> Tasks(std::string_view connector) const;
  bool PendingFencing(std::string_view connector) const;
  std::optional<int32_t> TaskCountRecord(std::string_view connector) const;
  std::optional<int32_t> TaskConfigGeneration(std::string_view connector) const;
  const std::set<std::string, std::less<>>& InconsistentConnectors() const { return inconsistent_; }

 private:
  friend class ConfigStateTracker;

  int64_t offset_ = kNoOffset;
  std::optional<SessionKey> session_key_;
  std::map<std::string, int32_t, std::less<>> task_counts_;
  std::map<std::string, ConfigProperties, std::less<>> connector_configs_;
  std::map<std::string, herder::TargetState, std::less<>> target_states_;
  std::map<herder::ConnectorTaskId, ConfigProperties> task_configs_;
  std::map<std::string, int32_t, std::less<>> task_count_records_;
  std::map<std::string, int32_t, std::less<>> task_config_generations_;
  std::map<std::string, ConfigProperties, std::less<>> applied_connector_configs_;
  std::set<std::string, std::less<>> pending_fencing_;
  std::set<std::string, std::less<>> inconsistent_;
};

// ConfigStateListener: what a herder reacts to (Java's ConfigBackingStore.UpdateListener).
// Called synchronously from ConfigStateTracker::Apply, after the state changed.
class ConfigStateListener {
 public:
  virtual ~ConfigStateListener() = default;
  virtual void OnConnectorConfigRemove(const std::string& connector) = 0;
  virtual void OnConnectorConfigUpdate(const std::string& connector) = 0;
  // The tasks whose configs a commit applied, sorted (empty for a commit of 0 tasks).
  virtual void OnTaskConfigUpdate(const std::vector<herder::ConnectorTaskId>& tasks) = 0;
  virtual void OnConnectorTargetStateChange(const std::string& connector) = 0;
  virtual void OnSessionKeyUpdate(const SessionKey& key) = 0;
  virtual void OnRestartRequest(const herder::RestartRequest& request) = 0;
  virtual void OnLoggingLevelUpdate(const std::string& logging_namespace,
                                    const std::string& level) = 0;
};

// ConfigStateTracker: the reading half of KafkaConfigBackingStore.
//
// Lifecycle: create, Apply every record from the beginning of the topic, MarkStarted once the
// initial read reached the end, keep applying. `listener` may be null and must outlive this.
class ConfigStateTracker {
 public:
  explicit ConfigStateTracker(ConfigStateListener* listener = nullptr) : listener_(listener) {}

  // Apply one consumed record (`offset` is its Kafka offset; nullopt value = tombstone).
  // Returns OK when Java acts on the record (including the silent cases: records read before
  // start that only notify, a commit for a deleted connector); kInvalidArgument with Java's
  // log reason when it ignores the record (the offset still advances); kDataLoss when the value
  // is not JSON (the offset does not advance). A commit or task count whose count is not an
  // integer makes Java throw out of its poll loop, losing the rest of that poll's batch;
  // connectd reports kInvalidArgument and keeps going.
  absl::Status Apply(int64_t offset, std::string_view key, std::optional<std::string_view> value);

  // MarkStarted: the initial read reached the end; listeners are called from now on and
  // restart/logger records take effect.
  void MarkStarted() { started_ = true; }
  bool started() const { return started_; }

  const ClusterConfigState& state() const { return state_; }
  ClusterConfigState Snapshot() const { return state_; }
  // Deferred (uncommitted) task configs of `connector`, by task number; for tests and logging.
  std::map<int32_t, ConfigProperties> DeferredTaskConfigs(std::string_view connector) const;

 private:
  absl::Status ApplyConnectorConfig(const ConfigRecord& record);
  absl::Status ApplyTaskConfig(const ConfigRecord& record);
  absl::Status ApplyTasksCommit(const ConfigRecord& record);
  absl::Status ApplyTargetState(const ConfigRecord& record);
  void RemoveConnector(const std::string& connector);

  ConfigStateListener* const listener_;
  bool started_ = false;
  ClusterConfigState state_;
  // connector -> task number -> deferred config
  std::map<std::string, std::map<int32_t, ConfigProperties>, std::less<>> deferred_;
};

// ---- Write sequences (KafkaConfigBackingStore's put*/remove* methods) -------------------------
//
// Every privileged write (all but target state and logger level) goes through the leader's
// transactional producer when exactly-once source support is on; each returned batch is one
// send (one transaction), after which the writer reads the topic to the end.

// putConnectorConfig: target-state-{c} (only when `initial_state` is given) then connector-{c},
// sent together.
std::vector<ConfigTopicRecord> ConnectorConfigWrite(
    std::string_view connector, const ConfigProperties& properties,
    std::optional<herder::TargetState> initial_state = std::nullopt);

// putTaskConfigs: read to end; send `task_records` (task-{c}-0..N-1, one batch); read to end
// if N > 0; send `commit`; read to end.
struct TaskConfigsWrite {
  std::vector<ConfigTopicRecord> task_records;
  ConfigTopicRecord commit;
};
TaskConfigsWrite TaskConfigsWriteFor(std::string_view connector,
                                     const std::vector<ConfigProperties>& task_configs);

// putTargetState (not privileged, no read to end afterwards).
ConfigTopicRecord TargetStateWrite(std::string_view connector, herder::TargetState state);

// DistributedHerder.stopConnector: the task configs write of 0 tasks (just commit-{c} {"tasks":0})
// and then the target state STOPPED.
struct StopConnectorWrite {
  TaskConfigsWrite task_configs;
  ConfigTopicRecord target_state;
};
StopConnectorWrite StopConnectorWriteFor(std::string_view connector);

// removeConnectorConfig: tombstones connector-{c} then target-state-{c}, one batch.
std::vector<ConfigTopicRecord> RemoveConnectorWrite(std::string_view connector);

ConfigTopicRecord RestartRequestWrite(const herder::RestartRequest& request);
ConfigTopicRecord TaskCountRecordWrite(std::string_view connector, int32_t task_count);
ConfigTopicRecord SessionKeyWrite(const SessionKey& key);
ConfigTopicRecord LoggerLevelWrite(std::string_view logging_namespace, std::string_view level);

}  // namespace connectd::storage
