#include "connectors/mirror/mirror_source_connector.h"

#include <algorithm>
#include <set>

#include "connectors/mirror/mirror_config.h"
#include "connectors/mirror_client/records.h"

namespace connectd::mirror {
namespace {
constexpr char kLogger[] = "org.apache.kafka.connect.mirror.MirrorSourceConnector";

void Info(const std::string& message) { sdk::Log(CONNECTD_LOG_INFO, kLogger, message); }
void Warn(const std::string& message) { sdk::Log(CONNECTD_LOG_WARN, kLogger, message); }

KafkaHandle AdminFor(const sdk::Props& props, const std::string& side) {
  std::string error;
  KafkaHandle client = MakeClient(RD_KAFKA_PRODUCER, ClientProps(props, side, "admin"), &error);
  if (!client) throw sdk::ConnectException("cannot create the " + side + " admin client: " + error);
  return client;
}

}  // namespace

sdk::ConfigDef MirrorSourceConnector::configDef() { return MirrorSourceConfigDef(); }

MirrorSourceConnector::~MirrorSourceConnector() { stop(); }

void MirrorSourceConnector::validate(const sdk::Props& props, sdk::Validation& validation) {
  if (!GetBool(props, "emit.offset-syncs.enabled", true)) {
    for (const auto& [key, value] : props) {
      if (key.rfind("offset-syncs-", 0) == 0 || key.rfind("offset-syncs.topic.", 0) == 0) {
        validation.addError("emit.offset-syncs.enabled",
                            "MirrorSourceConnector can't setup offset-syncs feature while "
                            "emit.offset-syncs.enabled set to false");
        break;
      }
    }
  }
  std::string error;
  if (!MakeReplicationPolicy(props, &error)) validation.addError("replication.policy.class", error);
  if (!TopicFilter::Make(props, &error)) validation.addError("topics", error);
}

void MirrorSourceConnector::start(const sdk::Props& props) {
  props_ = props;
  enabled_ = GetBool(props, "enabled", true);
  source_alias_ = GetString(props, "source.cluster.alias", "source");
  target_alias_ = GetString(props, "target.cluster.alias", "target");
  std::string error;
  policy_ = MakeReplicationPolicy(props, &error);
  if (!policy_) throw sdk::ConfigException(error);
  topic_filter_ = TopicFilter::Make(props, &error);
  if (!topic_filter_) throw sdk::ConfigException(error);
  config_filter_ = ConfigPropertyFilter::Make(props, &error);
  if (!config_filter_) throw sdk::ConfigException(error);
  admin_timeout_ms_ = static_cast<int>(GetLong(props, "admin.timeout.ms", 60000));
  if (!enabled_) {
    Info("Connector is disabled: replicating nothing from " + source_alias_ + " to " +
         target_alias_);
    return;
  }
  if (GetBool(props, "sync.topic.acls.enabled", true)) {
    Warn(
        "sync.topic.acls.enabled: ACL sync is not implemented by connectd yet; remote topic "
        "ACLs are not created");
  }
  if (GetBool(props, "sync.topic.configs.enabled", true)) {
    Warn(
        "sync.topic.configs.enabled: periodic topic config sync is not implemented by connectd "
        "yet; configs are copied when a remote topic is created");
  }
  source_admin_ = AdminFor(props, "source");
  target_admin_ = AdminFor(props, "target");
  if (GetBool(props, "emit.offset-syncs.enabled", true)) CreateOffsetSyncsTopic();
  Refresh();
  if (GetBool(props, "refresh.topics.enabled", true)) {
    refresher_ = std::thread([this] { RefreshLoop(); });
  }
}

void MirrorSourceConnector::CreateOffsetSyncsTopic() {
  bool on_target = GetString(props_, "offset-syncs.topic.location", "source") == "target";
  std::string topic = policy_->OffsetSyncsTopic(on_target ? source_alias_ : target_alias_);
  NewTopic spec{topic,
                1,
                static_cast<int>(GetLong(props_, "offset-syncs.topic.replication.factor", 3)),
                {{"cleanup.policy", "compact"}}};
  auto errors = CreateTopics(on_target ? target_admin_.get() : source_admin_.get(), {spec},
                             admin_timeout_ms_);
  for (const auto& [name, error] : errors) {
    Warn("Could not create offset-syncs topic " + name + ": " + error);
  }
}

bool MirrorSourceConnector::ShouldReplicate(const std::string& topic) const {
  bool heartbeats =
      GetBool(props_, "heartbeats.replication.enabled", true) && policy_->IsHeartbeatsTopic(topic);
  return (topic_filter_->ShouldReplicateTopic(topic) || heartbeats) &&
         !policy_->IsInternalTopic(topic) && !IsCycle(*policy_, target_alias_, topic);
}

bool MirrorSourceConnector::Refresh() {
  std::string error;
  std::optional<std::map<std::string, int>> source =
      ListTopics(source_admin_.get(), admin_timeout_ms_, &error);
  if (!source) {
    Warn("Could not list topics on the source cluster " + source_alias_ + ": " + error);
    return false;
  }
  std::optional<std::map<std::string, int>> target =
      ListTopics(target_admin_.get(), admin_timeout_ms_, &error);
  if (!target) {
    Warn("Could not list topics on the target cluster " + target_alias_ + ": " + error);
    return false;
  }
  std::vector<std::string> partitions;
  std::vector<NewTopic> create;
  std::map<std::string, int> grow;
  for (const auto& [topic, count] : *source) {
    if (!ShouldReplicate(topic)) continue;
    for (int p = 0; p < count; ++p) partitions.push_back(topic + "-" + std::to_string(p));
    std::string remote = policy_->FormatRemoteTopic(source_alias_, topic);
    auto existing = target->find(remote);
    if (existing == target->end()) {
      NewTopic spec{remote, count, static_cast<int>(GetLong(props_, "replication.factor", 2)), {}};
      std::string describe_error;
      auto configs =
          DescribeTopicConfigs(source_admin_.get(), topic, admin_timeout_ms_, &describe_error);
      if (!configs) {
        Warn("Could not describe the configs of source topic " + topic + " (" + describe_error +
             "); not creating " + remote + " this round");
        continue;
      }
      for (const auto& [name, entry] : *configs) {
        bool use_default = entry.is_default && !config_filter_->ShouldReplicateSourceDefault(name);
        if (use_default || entry.is_read_only || entry.is_sensitive || entry.is_static_broker ||
            !config_filter_->ShouldReplicateConfigProperty(name)) {
          continue;
        }
        spec.configs[name] = entry.value;
      }
      create.push_back(std::move(spec));
    } else if (existing->second < count) {
      grow[remote] = count;
    }
  }
  for (const auto& [topic, error_text] :
       CreateTopics(target_admin_.get(), create, admin_timeout_ms_)) {
    Warn("Could not create remote topic " + topic + ": " + error_text);
  }
  for (const NewTopic& spec : create) {
    Info("Created remote topic " + spec.name + " with " + std::to_string(spec.partitions) +
         " partitions");
  }
  for (const auto& [topic, error_text] :
       CreatePartitions(target_admin_.get(), grow, admin_timeout_ms_)) {
    Warn("Could not add partitions to " + topic + ": " + error_text);
  }
  bool changed;
  {
    std::lock_guard lock(mu_);
    changed = partitions != partitions_;
    partitions_ = std::move(partitions);
  }
  return changed;
}

void MirrorSourceConnector::RefreshLoop() {
  const auto interval = std::chrono::seconds(
      std::max<int64_t>(1, GetLong(props_, "refresh.topics.interval.seconds", 5)));
  while (true) {
    {
      std::unique_lock lock(mu_);
      if (cv_.wait_for(lock, interval, [this] { return stopping_; })) return;
    }
    if (Refresh()) {
      Info("Found a new set of topic-partitions to replicate; requesting task reconfiguration");
      context().requestTaskReconfiguration();
    }
  }
}

std::vector<sdk::Props> MirrorSourceConnector::taskConfigs(int max_tasks) {
  std::vector<std::string> partitions;
  {
    std::lock_guard lock(mu_);
    partitions = partitions_;
  }
  if (!enabled_ || partitions.empty() || max_tasks < 1) return {};
  size_t n = std::min(static_cast<size_t>(max_tasks), partitions.size());
  std::vector<std::string> assigned(n);
  for (size_t i = 0; i < partitions.size(); ++i) {
    std::string& list = assigned[i % n];
    if (!list.empty()) list += ",";
    list += partitions[i];
  }
  std::vector<sdk::Props> configs;
  for (size_t i = 0; i < n; ++i) {
    sdk::Props config = props_;
    config["task.assigned.partitions"] = assigned[i];
    config["task.index"] = std::to_string(i);
    configs.push_back(std::move(config));
  }
  return configs;
}

void MirrorSourceConnector::stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (refresher_.joinable()) refresher_.join();
  source_admin_.reset();
  target_admin_.reset();
}

bool MirrorSourceConnector::alterOffsets(const sdk::Props&,
                                         const std::vector<sdk::OffsetChange>& changes) {
  // Kafka's rules (KIP-875): string cluster and topic, non-negative integer partition, and an
  // offset of {"offset": non-negative integer}; null offsets are always allowed.
  for (const sdk::OffsetChange& change : changes) {
    for (const char* key : {"\"cluster\"", "\"topic\"", "\"partition\""}) {
      if (change.partition.find(key) == std::string::npos) {
        throw sdk::ConnectException(std::string("Source partition must contain ") + key,
                                    CONNECTD_STATUS_INVALID_ARGUMENT);
      }
    }
    if (change.offset) {
      std::optional<int64_t> offset = ParseSourceOffset(*change.offset);
      if (!offset || *offset < 0) {
        throw sdk::ConnectException("Offset must be {\"offset\": <non-negative integer>}",
                                    CONNECTD_STATUS_INVALID_ARGUMENT);
      }
    }
  }
  return true;
}

}  // namespace connectd::mirror
