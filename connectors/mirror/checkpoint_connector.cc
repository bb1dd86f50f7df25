#include "connectors/mirror/checkpoint_connector.h"

#include <algorithm>

#include "connectors/mirror/checkpoint_admin.h"
#include "connectors/mirror/checkpoint_rules.h"
#include "connectors/mirror/mirror_config.h"
#include "jvm/java_hash_order.h"

namespace connectd::mirror {
namespace {

constexpr char kLogger[] = "org.apache.kafka.connect.mirror.MirrorCheckpointConnector";
// connectd: how soon a failed initial group load is retried (Kafka waits for the next refresh,
// or forever with refresh.groups.enabled=false).
constexpr std::chrono::seconds kInitialLoadRetry(5);

void Log(int32_t level, const std::string& message) { sdk::Log(level, kLogger, message); }

KafkaHandle AdminFor(const sdk::Props& props, const std::string& side) {
  std::string error;
  KafkaHandle client =
      MakeClient(RD_KAFKA_PRODUCER,
                 ClientProps(props, side, "admin", "checkpoint-" + side + "-admin"), &error);
  if (!client) throw sdk::ConnectException("cannot create the " + side + " admin client: " + error);
  return client;
}

std::string Join(const std::vector<std::string>& items, const std::string& separator) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : separator) + item;
  return out;
}

}  // namespace

sdk::ConfigDef MirrorCheckpointConnector::configDef() { return MirrorCheckpointConfigDef(); }

MirrorCheckpointConnector::~MirrorCheckpointConnector() { stop(); }

void MirrorCheckpointConnector::validate(const sdk::Props& props, sdk::Validation& validation) {
  // Kafka's MirrorCheckpointConfig.validate: nothing to check for a disabled connector, and the
  // comparisons are with the exact string "false".
  auto is_false = [&props](const std::string& key) {
    auto it = props.find(key);
    return it != props.end() && it->second == "false";
  };
  if (is_false("enabled")) return;
  if (is_false("emit.checkpoints.enabled")) {
    validation.addError("emit.checkpoints.enabled",
                        "MirrorCheckpointConnector can't run with emit.checkpoints.enabled set to "
                        "false");
  }
  if (is_false("emit.offset-syncs.enabled")) {
    validation.addError("emit.offset-syncs.enabled",
                        "MirrorCheckpointConnector can't run without offset syncs");
  }
  std::string error;
  if (!MakeReplicationPolicy(props, &error)) validation.addError("replication.policy.class", error);
  if (!TopicFilter::Make(props, &error)) validation.addError("topics", error);
  if (!GroupFilter::Make(props, &error)) validation.addError("groups", error);
  ValidateForwardingAdmin(props, validation);
  ValidateClientConfigs(props, validation);
}

void MirrorCheckpointConnector::start(const sdk::Props& props) {
  // The worker starts the same instance again after stop() (STOPPED -> STARTED, as Java's
  // WorkerConnector): the group listing below must not see the last stop's flag.
  stopping_ = false;
  props_ = props;
  enabled_ = GetBool(props, "enabled", true);
  if (!enabled_) {
    Log(CONNECTD_LOG_INFO, "Connector is disabled: emitting no checkpoints");
    return;
  }
  source_alias_ = GetString(props, "source.cluster.alias", "source");
  target_alias_ = GetString(props, "target.cluster.alias", "target");
  std::string error;
  policy_ = MakeReplicationPolicy(props, &error);
  if (!policy_) throw sdk::ConfigException(error);
  topic_filter_ = TopicFilter::Make(props, &error);
  if (!topic_filter_) throw sdk::ConfigException(error);
  group_filter_ = GroupFilter::Make(props, &error);
  if (!group_filter_) throw sdk::ConfigException(error);
  admin_timeout_ms_ = static_cast<int>(GetLong(props, "admin.timeout.ms", 60000));
  source_admin_ = AdminFor(props, "source");
  target_admin_ = AdminFor(props, "target");

  CreateInternalTopics();
  std::optional<std::vector<std::string>> groups = FindConsumerGroups();
  if (groups) {
    Log(CONNECTD_LOG_INFO, "Started with " + std::to_string(groups->size()) +
                               " consumer groups: [" + Join(*groups, ", ") + "]");
  }
  {
    std::lock_guard lock(mu_);
    known_groups_ = std::move(groups);
  }
  stopping_ = false;
  refresher_ = std::thread([this] { RefreshLoop(); });
}

void MirrorCheckpointConnector::CreateInternalTopics() {
  NewTopic spec{policy_->CheckpointsTopic(source_alias_),
                1,
                static_cast<int>(GetLong(props_, "checkpoints.topic.replication.factor", 3)),
                {{"cleanup.policy", "compact"}}};
  for (const auto& [topic, message] :
       CreateTopics(target_admin_.get(), {spec}, admin_timeout_ms_)) {
    Log(CONNECTD_LOG_ERROR, "Could not create topic " + topic + " on the target cluster " +
                                target_alias_ + ": " + message.message);
  }
}

std::optional<std::vector<std::string>> MirrorCheckpointConnector::FindConsumerGroups() {
  std::string error;
  std::optional<std::vector<std::string>> ids =
      ListConsumerGroupIds(source_admin_.get(), admin_timeout_ms_, &stopping_, &error);
  if (!ids) {
    Log(CONNECTD_LOG_ERROR,
        "Could not list consumer groups on " + source_alias_ + " cluster: " + error);
    return std::nullopt;
  }
  std::vector<std::string> filtered;
  for (const std::string& id : *ids) {
    if (group_filter_->ShouldReplicateGroup(id)) filtered.push_back(id);
  }
  // Java adds the groups, in the order the source listed them, to a HashSet and deals them to
  // tasks in its iteration order (java_hash_order.h).
  std::vector<std::string> checkpoint_groups;
  if (filtered.empty()) return checkpoint_groups;

  std::map<std::string, std::string> errors;
  auto offsets = ListConsumerGroupOffsets(source_admin_.get(), filtered, admin_timeout_ms_,
                                          &stopping_, &errors);
  if (!offsets || !errors.empty()) {
    Log(CONNECTD_LOG_ERROR,
        "Could not list offsets for consumer groups on " + source_alias_ + " cluster" +
            (errors.empty() ? std::string()
                            : " (" + errors.begin()->first + ": " + errors.begin()->second + ")"));
    return std::nullopt;
  }
  std::vector<std::string> irrelevant;
  for (const std::string& group : filtered) {
    const GroupOffsets& committed = (*offsets)[group];
    bool relevant = std::any_of(committed.begin(), committed.end(), [this](const auto& entry) {
      return topic_filter_->ShouldReplicateTopic(entry.first.topic);
    });
    if (relevant) {
      checkpoint_groups.push_back(group);
    } else {
      irrelevant.push_back(group);
    }
  }
  if (!irrelevant.empty() && sdk::LogEnabled(CONNECTD_LOG_DEBUG, kLogger)) {
    Log(CONNECTD_LOG_DEBUG,
        "Ignoring the following groups which do not have any offsets for topics that are "
        "accepted by the topic filter: [" +
            Join(irrelevant, ", ") + "]");
  }
  return jvm::JavaHashMapOrder(std::move(checkpoint_groups), std::nullopt);
}

void MirrorCheckpointConnector::RefreshLoop() {
  // Disabled, or a negative interval: no refresh (Kafka). An interval of 0 refreshes every
  // second (Kafka's scheduler would refuse it).
  const int64_t seconds = GetLong(props_, "refresh.groups.interval.seconds", 600);
  const bool refresh = GetBool(props_, "refresh.groups.enabled", true) && seconds >= 0;
  const auto interval = std::chrono::seconds(std::max<int64_t>(1, seconds));
  while (true) {
    bool loaded;
    {
      std::lock_guard lock(mu_);
      loaded = known_groups_.has_value();
    }
    if (loaded && !refresh) return;
    const auto wait = loaded ? std::chrono::duration_cast<std::chrono::seconds>(interval)
                             : std::min<std::chrono::seconds>(interval, kInitialLoadRetry);
    {
      std::unique_lock lock(mu_);
      if (cv_.wait_for(lock, wait, [this] { return stopping_.load(); })) return;
    }
    std::optional<std::vector<std::string>> found = FindConsumerGroups();
    if (!found) continue;
    size_t added = 0, removed = 0, previously = 0;
    bool first = false;
    {
      std::lock_guard lock(mu_);
      first = !known_groups_.has_value();
      const std::vector<std::string> none;
      const std::vector<std::string>& known_list = known_groups_ ? *known_groups_ : none;
      const std::set<std::string> known(known_list.begin(), known_list.end());
      const std::set<std::string> now(found->begin(), found->end());
      previously = known.size();
      for (const std::string& g : now) added += known.count(g) == 0 ? 1 : 0;
      for (const std::string& g : known) removed += now.count(g) == 0 ? 1 : 0;
      // Unchanged: Java keeps its set, and so the order the task configs have.
      if (!first && added == 0 && removed == 0) continue;
      known_groups_ = *found;
    }
    Log(CONNECTD_LOG_INFO, "Found " + std::to_string(found->size()) + " consumer groups for " +
                               source_alias_ + "->" + target_alias_ + ". " + std::to_string(added) +
                               " are new. " + std::to_string(removed) +
                               " were removed. Previously had " + std::to_string(previously) + ".");
    context().requestTaskReconfiguration();
  }
}

std::vector<sdk::Props> MirrorCheckpointConnector::taskConfigs(int max_tasks) {
  // Disabled is checked first (KAFKA-18021): a disabled connector never loads groups.
  if (!enabled_) return {};
  std::vector<std::string> groups;
  {
    std::lock_guard lock(mu_);
    if (!known_groups_) {
      throw sdk::RetriableException("Timeout while loading consumer groups.");
    }
    groups.assign(known_groups_->begin(), known_groups_->end());
  }
  // Checkpoints disabled: emit.checkpoints.enabled=false or a negative interval.
  const bool emit = GetBool(props_, "emit.checkpoints.enabled", true) &&
                    GetLong(props_, "emit.checkpoints.interval.seconds", 60) >= 0;
  if (groups.empty() || !emit || max_tasks < 1) return {};
  const int n = static_cast<int>(std::min<size_t>(static_cast<size_t>(max_tasks), groups.size()));
  std::vector<std::vector<std::string>> chunks = GroupPartitions(groups, n);
  std::vector<sdk::Props> configs;
  for (int i = 0; i < n; ++i) {
    sdk::Props config = props_;
    config["task.assigned.groups"] = Join(chunks[static_cast<size_t>(i)], ",");
    config["task.index"] = std::to_string(i);
    configs.push_back(std::move(config));
  }
  return configs;
}

void MirrorCheckpointConnector::stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (refresher_.joinable()) refresher_.join();
  source_admin_.reset();
  target_admin_.reset();
}

bool MirrorCheckpointConnector::alterOffsets(const sdk::Props&,
                                             const std::vector<sdk::OffsetChange>& changes) {
  // Checkpoint offsets are never read by tasks; only their shape is validated (KIP-875).
  for (const sdk::OffsetChange& change : changes) {
    if (std::optional<std::string> message =
            ValidateCheckpointOffset(change.partition, change.offset)) {
      throw sdk::ConnectException(*message, CONNECTD_STATUS_INVALID_ARGUMENT);
    }
  }
  return true;
}

std::optional<std::set<std::string>> MirrorCheckpointConnector::knownConsumerGroupsForTest() {
  std::lock_guard lock(mu_);
  if (!known_groups_) return std::nullopt;
  return std::set<std::string>(known_groups_->begin(), known_groups_->end());
}

}  // namespace connectd::mirror
