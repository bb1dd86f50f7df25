#include "runtime/storage/status_state.h"

#include <set>

#include "absl/status/status.h"

namespace connectd::storage {

int32_t Murmur2(std::string_view bytes) {
  // MurmurHash2, 32-bit, as Kafka's Utils.murmur2: little-endian 4-byte blocks, then the tail.
  constexpr uint32_t kSeed = 0x9747b28c;
  constexpr uint32_t kM = 0x5bd1e995;
  constexpr int kR = 24;
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  const size_t length = bytes.size();
  uint32_t h = kSeed ^ static_cast<uint32_t>(length);
  const size_t blocks = length / 4;
  for (size_t i = 0; i < blocks; ++i) {
    const uint8_t* p = data + i * 4;
    uint32_t k = static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
                 (static_cast<uint32_t>(p[2]) << 16) | (static_cast<uint32_t>(p[3]) << 24);
    k *= kM;
    k ^= k >> kR;
    k *= kM;
    h *= kM;
    h ^= k;
  }
  const uint8_t* tail = data + blocks * 4;
  switch (length % 4) {
    case 3:
      h ^= static_cast<uint32_t>(tail[2]) << 16;
      [[fallthrough]];
    case 2:
      h ^= static_cast<uint32_t>(tail[1]) << 8;
      [[fallthrough]];
    case 1:
      h ^= static_cast<uint32_t>(tail[0]);
      h *= kM;
      break;
    default:
      break;
  }
  h ^= h >> 13;
  h *= kM;
  h ^= h >> 15;
  return static_cast<int32_t>(h);
}

int32_t PartitionForKey(std::string_view key, int32_t partition_count) {
  return ToPositive(Murmur2(key)) % partition_count;
}

WriteMode HerderWriteMode(worker::State state) {
  return state == worker::State::kUnassigned || state == worker::State::kFailed
             ? WriteMode::kSafe
             : WriteMode::kNormal;
}

namespace {

// CacheEntry.canWriteSafely. Java compares worker ids with value.workerId().equals(...), which
// throws when the cached value has no worker_id; here such a value is simply another worker's.
bool CanWriteSafely(const std::optional<StatusValue>& cached, const StatusValue& status) {
  return !cached.has_value() ||
         (cached->worker_id.has_value() && cached->worker_id == status.worker_id) ||
         cached->generation <= status.generation;
}

// An UNASSIGNED that arrives after a RUNNING of the same or a later generation is the late write of
// the worker the connector or task was taken from (queued while it could not reach the cluster).
bool IsStaleUnassigned(const std::optional<StatusValue>& cached, const StatusValue& incoming) {
  return incoming.state == worker::State::kUnassigned && cached.has_value() &&
         cached->state == worker::State::kRunning && cached->generation >= incoming.generation;
}

}  // namespace

StatusCache::Entry& StatusCache::GetOrAdd(std::string_view connector) {
  auto it = connectors_.find(connector);
  if (it == connectors_.end()) {
    it =
        connectors_.emplace(std::string(connector), Entry{next_entry_id_++, std::nullopt, 0}).first;
  }
  return it->second;
}

StatusCache::Entry& StatusCache::GetOrAdd(const herder::ConnectorTaskId& id) {
  auto row = tasks_.find(id.connector);
  if (row == tasks_.end()) row = tasks_.emplace(id.connector, std::map<int32_t, Entry>()).first;
  auto it = row->second.find(id.task);
  if (it == row->second.end()) {
    it = row->second.emplace(id.task, Entry{next_entry_id_++, std::nullopt, 0}).first;
  }
  return it->second;
}

const StatusCache::Entry* StatusCache::Find(const StatusWrite& write) const {
  if (write.kind == StatusWrite::Kind::kConnector) {
    const auto it = connectors_.find(write.id.connector);
    return it == connectors_.end() ? nullptr : &it->second;
  }
  const auto row = tasks_.find(write.id.connector);
  if (row == tasks_.end()) return nullptr;
  const auto it = row->second.find(write.id.task);
  return it == row->second.end() ? nullptr : &it->second;
}

absl::StatusOr<std::optional<StatusWrite>> StatusCache::Prepare(Entry& entry, StatusWrite write,
                                                                WriteMode mode) {
  generation_ = write.status.generation;
  if (mode == WriteMode::kSafe && !CanWriteSafely(entry.value, write.status)) {
    return std::optional<StatusWrite>();
  }
  write.entry_id = entry.id;
  write.sequence = ++entry.sequence;
  write.safe = mode == WriteMode::kSafe;
  return std::optional<StatusWrite>(std::move(write));
}

absl::StatusOr<std::optional<StatusWrite>> StatusCache::PutConnector(std::string_view connector,
                                                                     const StatusValue& status,
                                                                     WriteMode mode) {
  auto value = EncodeStatusValue(status);
  if (!value.ok()) return value.status();
  StatusWrite write;
  write.kind = StatusWrite::Kind::kConnector;
  write.key = ConnectorStatusKey(connector);
  write.value = std::move(*value);
  write.id.connector = std::string(connector);
  write.status = status;
  return Prepare(GetOrAdd(connector), std::move(write), mode);
}

absl::StatusOr<std::optional<StatusWrite>> StatusCache::PutTask(const herder::ConnectorTaskId& id,
                                                                const StatusValue& status,
                                                                WriteMode mode) {
  auto value = EncodeStatusValue(status);
  if (!value.ok()) return value.status();
  StatusWrite write;
  write.kind = StatusWrite::Kind::kTask;
  write.key = TaskStatusKey(id);
  write.value = std::move(*value);
  write.id = id;
  write.status = status;
  return Prepare(GetOrAdd(id), std::move(write), mode);
}

StatusWrite StatusCache::PutTopic(const TopicStatusValue& status) const {
  StatusWrite write;
  write.kind = StatusWrite::Kind::kTopic;
  write.key = TopicStatusKey(status.topic, status.connector);
  write.value = EncodeTopicStatusValue(status);
  write.id.connector = status.connector;
  return write;
}

StatusWrite StatusCache::DeleteTopic(std::string_view connector, std::string_view topic) const {
  StatusWrite write;
  write.kind = StatusWrite::Kind::kTopic;
  write.key = TopicStatusKey(topic, connector);
  write.id.connector = std::string(connector);
  return write;
}

bool StatusCache::ShouldRetry(const StatusWrite& write) const {
  if (write.kind == StatusWrite::Kind::kTopic) return true;
  const Entry* entry = Find(write);
  if (entry == nullptr || entry->id != write.entry_id) return false;  // deleted
  if (write.status.generation != generation_) return false;
  if (write.safe &&
      (!CanWriteSafely(entry->value, write.status) || entry->sequence != write.sequence)) {
    return false;
  }
  return true;
}

StatusCache::ReadOutcome StatusCache::Read(std::string_view key,
                                           std::optional<std::string_view> value) {
  const auto parsed = ParseStatusKey(key);
  if (!parsed.ok()) return ReadOutcome::kInvalidKey;
  switch (parsed->kind) {
    case StatusKey::Kind::kConnector: {
      if (!value.has_value()) {
        connectors_.erase(parsed->connector);
        tasks_.erase(parsed->connector);
        return ReadOutcome::kRemoved;
      }
      auto status = DecodeStatusValue(*value);
      if (!status.ok()) return ReadOutcome::kInvalidValue;
      Entry& entry = GetOrAdd(parsed->connector);
      if (IsStaleUnassigned(entry.value, *status)) return ReadOutcome::kIgnoredStale;
      entry.value = std::move(*status);
      return ReadOutcome::kApplied;
    }
    case StatusKey::Kind::kTask: {
      const herder::ConnectorTaskId id{parsed->connector, parsed->task};
      if (!value.has_value()) {
        const auto row = tasks_.find(id.connector);
        if (row != tasks_.end()) row->second.erase(id.task);
        return ReadOutcome::kRemoved;
      }
      auto status = DecodeStatusValue(*value);
      if (!status.ok()) return ReadOutcome::kInvalidValue;
      Entry& entry = GetOrAdd(id);
      if (IsStaleUnassigned(entry.value, *status)) return ReadOutcome::kIgnoredStale;
      entry.value = std::move(*status);
      return ReadOutcome::kApplied;
    }
    case StatusKey::Kind::kTopic: {
      if (!value.has_value()) {
        const auto row = topics_.find(parsed->connector);
        if (row != topics_.end()) row->second.erase(parsed->topic);
        return ReadOutcome::kRemoved;
      }
      auto status = DecodeTopicStatusValue(*value);
      if (!status.ok()) return ReadOutcome::kInvalidValue;
      topics_[parsed->connector][parsed->topic] = std::move(*status);
      return ReadOutcome::kApplied;
    }
  }
  return ReadOutcome::kInvalidKey;
}

std::optional<StatusValue> StatusCache::Connector(std::string_view connector) const {
  const auto it = connectors_.find(connector);
  return it == connectors_.end() ? std::nullopt : it->second.value;
}

std::optional<StatusValue> StatusCache::Task(const herder::ConnectorTaskId& id) const {
  const auto row = tasks_.find(id.connector);
  if (row == tasks_.end()) return std::nullopt;
  const auto it = row->second.find(id.task);
  return it == row->second.end() ? std::nullopt : it->second.value;
}

std::vector<std::pair<int32_t, StatusValue>> StatusCache::Tasks(std::string_view connector) const {
  std::vector<std::pair<int32_t, StatusValue>> out;
  const auto row = tasks_.find(connector);
  if (row == tasks_.end()) return out;
  for (const auto& [task, entry] : row->second) {
    if (entry.value.has_value()) out.emplace_back(task, *entry.value);
  }
  return out;
}

std::vector<std::string> StatusCache::Connectors() const {
  std::vector<std::string> out;
  out.reserve(connectors_.size());
  for (const auto& [name, entry] : connectors_) out.push_back(name);
  return out;
}

std::optional<TopicStatusValue> StatusCache::Topic(std::string_view connector,
                                                   std::string_view topic) const {
  const auto row = topics_.find(connector);
  if (row == topics_.end()) return std::nullopt;
  const auto it = row->second.find(std::string(topic));
  if (it == row->second.end()) return std::nullopt;
  return it->second;
}

std::map<std::string, TopicStatusValue> StatusCache::Topics(std::string_view connector) const {
  const auto row = topics_.find(connector);
  return row == topics_.end() ? std::map<std::string, TopicStatusValue>() : row->second;
}

std::vector<std::string> StatusCache::ConnectorsWithTasksOrTopics() const {
  std::set<std::string> names;
  for (const auto& [name, row] : tasks_) names.insert(name);
  for (const auto& [name, row] : topics_) names.insert(name);
  return std::vector<std::string>(names.begin(), names.end());
}

}  // namespace connectd::storage
