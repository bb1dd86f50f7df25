#include "runtime/storage/config_state.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "runtime/common/strings.h"

namespace connectd::storage {
namespace {

template <typename Map>
const typename Map::mapped_type* FindIn(const Map& map, std::string_view key) {
  auto it = map.find(key);
  return it == map.end() ? nullptr : &it->second;
}

}  // namespace

// ---- ClusterConfigState ------------------------------------------------------------------

bool ClusterConfigState::Contains(std::string_view connector) const {
  return connector_configs_.find(connector) != connector_configs_.end();
}

std::vector<std::string> ClusterConfigState::Connectors() const {
  std::vector<std::string> out;
  out.reserve(connector_configs_.size());
  for (const auto& [name, config] : connector_configs_) out.push_back(name);
  return out;
}

const ConfigProperties* ClusterConfigState::RawConnectorConfig(std::string_view connector) const {
  return FindIn(connector_configs_, connector);
}

const ConfigProperties* ClusterConfigState::AppliedConnectorConfig(
    std::string_view connector) const {
  return FindIn(applied_connector_configs_, connector);
}

std::optional<herder::TargetState> ClusterConfigState::TargetState(
    std::string_view connector) const {
  const herder::TargetState* state = FindIn(target_states_, connector);
  if (state == nullptr) return std::nullopt;
  return *state;
}

const ConfigProperties* ClusterConfigState::RawTaskConfig(
    const herder::ConnectorTaskId& task) const {
  auto it = task_configs_.find(task);
  return it == task_configs_.end() ? nullptr : &it->second;
}

int32_t ClusterConfigState::TaskCount(std::string_view connector) const {
  const int32_t* count = FindIn(task_counts_, connector);
  return count == nullptr ? 0 : *count;
}

std::vector<herder::ConnectorTaskId> ClusterConfigState::Tasks(std::string_view connector) const {
  std::vector<herder::ConnectorTaskId> out;
  if (inconsistent_.find(connector) != inconsistent_.end()) return out;
  const int32_t* count = FindIn(task_counts_, connector);
  if (count == nullptr) return out;
  for (int32_t i = 0; i < *count; ++i) out.push_back({std::string(connector), i});
  return out;
}

bool ClusterConfigState::PendingFencing(std::string_view connector) const {
  return pending_fencing_.find(connector) != pending_fencing_.end();
}

std::optional<int32_t> ClusterConfigState::TaskCountRecord(std::string_view connector) const {
  const int32_t* count = FindIn(task_count_records_, connector);
  if (count == nullptr) return std::nullopt;
  return *count;
}

std::optional<int32_t> ClusterConfigState::TaskConfigGeneration(std::string_view connector) const {
  const int32_t* generation = FindIn(task_config_generations_, connector);
  if (generation == nullptr) return std::nullopt;
  return *generation;
}

// ---- ConfigStateTracker ------------------------------------------------------------------

absl::Status ConfigStateTracker::Apply(int64_t offset, std::string_view key,
                                       std::optional<std::string_view> value) {
  absl::StatusOr<ConfigRecord> parsed = ParseConfigRecord(key, value);
  if (!parsed.ok()) return absl::DataLossError(parsed.status().message());
  // The offset of the next record, as the consumer's position reports it.
  state_.offset_ = offset + 1;
  const ConfigRecord& record = *parsed;

  switch (record.key.type) {
    case ConfigRecordType::kTargetState:
      return ApplyTargetState(record);
    case ConfigRecordType::kConnectorConfig:
      return ApplyConnectorConfig(record);
    case ConfigRecordType::kTaskConfig:
      return ApplyTaskConfig(record);
    case ConfigRecordType::kTasksCommit:
      return ApplyTasksCommit(record);
    case ConfigRecordType::kRestartRequest:
      if (!record.value_status.ok()) return record.value_status;
      if (started_ && listener_ != nullptr) listener_->OnRestartRequest(record.restart);
      return absl::OkStatus();
    case ConfigRecordType::kTaskCountRecord:
      if (!record.value_status.ok()) return record.value_status;
      state_.task_count_records_[record.key.name] = record.count;
      state_.pending_fencing_.erase(record.key.name);
      return absl::OkStatus();
    case ConfigRecordType::kSessionKey:
      if (!record.value_status.ok()) return record.value_status;
      state_.session_key_ = record.session_key;
      if (started_ && listener_ != nullptr) listener_->OnSessionKeyUpdate(*state_.session_key_);
      return absl::OkStatus();
    case ConfigRecordType::kLoggerLevel:
      if (!record.value_status.ok()) return record.value_status;
      // Levels written before this worker started are history; Java ignores them.
      if (started_ && listener_ != nullptr) {
        listener_->OnLoggingLevelUpdate(record.key.name, record.level);
      }
      return absl::OkStatus();
    case ConfigRecordType::kUnknown:
      return record.value_status;
  }
  return absl::OkStatus();
}

absl::Status ConfigStateTracker::ApplyTargetState(const ConfigRecord& record) {
  const std::string& connector = record.key.name;
  if (record.tombstone) {
    state_.target_states_.erase(connector);
    // A connector that still has a config always has a target state.
    if (state_.Contains(connector)) {
      state_.target_states_[connector] = herder::TargetState::kStarted;
    }
    return absl::OkStatus();  // removal is reported through the connector config's tombstone
  }
  if (!record.value_status.ok()) return record.value_status;
  auto [it, inserted] = state_.target_states_.try_emplace(connector, record.target_state);
  const bool changed = inserted || it->second != record.target_state;
  it->second = record.target_state;
  // Not reported for a connector without config (an initial state written before the config).
  if (started_ && changed && state_.Contains(connector) && listener_ != nullptr) {
    listener_->OnConnectorTargetStateChange(connector);
  }
  return absl::OkStatus();
}

absl::Status ConfigStateTracker::ApplyConnectorConfig(const ConfigRecord& record) {
  const std::string& connector = record.key.name;
  if (record.tombstone) {
    RemoveConnector(connector);
    if (started_ && listener_ != nullptr) listener_->OnConnectorConfigRemove(connector);
    return absl::OkStatus();
  }
  if (!record.value_status.ok()) return record.value_status;
  state_.connector_configs_[connector] = record.properties;
  // Connectors created before target states existed start STARTED.
  state_.target_states_.try_emplace(connector, herder::TargetState::kStarted);
  if (started_ && listener_ != nullptr) listener_->OnConnectorConfigUpdate(connector);
  return absl::OkStatus();
}

absl::Status ConfigStateTracker::ApplyTaskConfig(const ConfigRecord& record) {
  if (!record.value_status.ok()) return record.value_status;
  deferred_[record.key.name][record.key.task] = record.properties;
  return absl::OkStatus();
}

absl::Status ConfigStateTracker::ApplyTasksCommit(const ConfigRecord& record) {
  const std::string& connector = record.key.name;
  const ConfigProperties* config = state_.RawConnectorConfig(connector);
  if (config == nullptr) {
    // Deleted, and compaction removed both its config and the tombstone: drop its task configs.
    RemoveConnector(connector);
    return absl::OkStatus();
  }
  if (!record.value_status.ok()) return record.value_status;
  const int32_t task_count = record.count;

  auto deferred_it = deferred_.find(connector);
  std::map<int32_t, ConfigProperties>* deferred =
      deferred_it == deferred_.end() ? nullptr : &deferred_it->second;
  // Complete when ids 0..N-1 are all present (extra ids may remain after compaction).
  bool complete = true;
  for (int32_t i = 0; i < task_count; ++i) {
    if (deferred == nullptr || deferred->find(i) == deferred->end()) {
      complete = false;
      break;
    }
  }
  std::vector<herder::ConnectorTaskId> updated;
  if (!complete) {
    state_.inconsistent_.insert(connector);
  } else {
    if (deferred != nullptr) {
      for (auto& [task, properties] : *deferred) {
        herder::ConnectorTaskId id{connector, task};
        state_.task_configs_[id] = std::move(properties);
        updated.push_back(std::move(id));
      }
      auto [gen, inserted] = state_.task_config_generations_.try_emplace(connector, 0);
      if (!inserted) ++gen->second;
    }
    state_.inconsistent_.erase(connector);
    state_.applied_connector_configs_[connector] = *config;
  }
  if (deferred != nullptr) deferred->clear();
  state_.task_counts_[connector] = task_count;
  // Task configs newer than the last task-count record need a round of zombie fencing.
  state_.pending_fencing_.insert(connector);
  if (started_ && listener_ != nullptr) listener_->OnTaskConfigUpdate(updated);
  return absl::OkStatus();
}

void ConfigStateTracker::RemoveConnector(const std::string& connector) {
  state_.connector_configs_.erase(connector);
  state_.task_counts_.erase(connector);
  for (auto it = state_.task_configs_.begin(); it != state_.task_configs_.end();) {
    it = it->first.connector == connector ? state_.task_configs_.erase(it) : std::next(it);
  }
  deferred_.erase(connector);
  state_.applied_connector_configs_.erase(connector);
}

std::map<int32_t, ConfigProperties> ConfigStateTracker::DeferredTaskConfigs(
    std::string_view connector) const {
  auto it = deferred_.find(connector);
  return it == deferred_.end() ? std::map<int32_t, ConfigProperties>{} : it->second;
}

// ---- Write sequences ---------------------------------------------------------------------

std::vector<ConfigTopicRecord> ConnectorConfigWrite(
    std::string_view connector, const ConfigProperties& properties,
    std::optional<herder::TargetState> initial_state) {
  std::vector<ConfigTopicRecord> out;
  if (initial_state) out.push_back(TargetStateWrite(connector, *initial_state));
  out.push_back({ConnectorConfigKey(connector), EncodeConnectorConfig(properties)});
  return out;
}

TaskConfigsWrite TaskConfigsWriteFor(std::string_view connector,
                                     const std::vector<ConfigProperties>& task_configs) {
  TaskConfigsWrite out;
  int32_t index = 0;
  for (const ConfigProperties& config : task_configs) {
    out.task_records.push_back(
        {TaskConfigKey({std::string(connector), index}), EncodeTaskConfig(config)});
    ++index;
  }
  out.commit = {CommitTasksKey(connector), EncodeTasksCommit(index)};
  return out;
}

ConfigTopicRecord TargetStateWrite(std::string_view connector, herder::TargetState state) {
  return {TargetStateKey(connector), EncodeTargetState(state)};
}

StopConnectorWrite StopConnectorWriteFor(std::string_view connector) {
  return {TaskConfigsWriteFor(connector, {}),
          TargetStateWrite(connector, herder::TargetState::kStopped)};
}

std::vector<ConfigTopicRecord> RemoveConnectorWrite(std::string_view connector) {
  return {{ConnectorConfigKey(connector), std::nullopt}, {TargetStateKey(connector), std::nullopt}};
}

ConfigTopicRecord RestartRequestWrite(const herder::RestartRequest& request) {
  return {RestartKey(request.connector), EncodeRestartRequest(request)};
}

ConfigTopicRecord TaskCountRecordWrite(std::string_view connector, int32_t task_count) {
  return {TaskCountRecordKey(connector), EncodeTaskCountRecord(task_count)};
}

ConfigTopicRecord SessionKeyWrite(const SessionKey& key) {
  return {std::string(kSessionKeyKey), EncodeSessionKey(key)};
}

ConfigTopicRecord LoggerLevelWrite(std::string_view logging_namespace, std::string_view level) {
  return {LoggerClusterKey(logging_namespace), EncodeLoggerLevel(level)};
}

}  // namespace connectd::storage
