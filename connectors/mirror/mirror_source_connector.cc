#include "connectors/mirror/mirror_source_connector.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "connectors/mirror/acl_sync.h"
#include "connectors/mirror/mirror_config.h"
#include "connectors/mirror/topic_config_sync.h"
#include "connectors/mirror_client/records.h"
#include "jvm/java_hash_order.h"

namespace connectd::mirror {
namespace {
constexpr char kLogger[] = "org.apache.kafka.connect.mirror.MirrorSourceConnector";

void Debug(const std::string& message) { sdk::Log(CONNECTD_LOG_DEBUG, kLogger, message); }
void Info(const std::string& message) { sdk::Log(CONNECTD_LOG_INFO, kLogger, message); }
void Warn(const std::string& message) { sdk::Log(CONNECTD_LOG_WARN, kLogger, message); }

void Error(const std::string& message) { sdk::Log(CONNECTD_LOG_ERROR, kLogger, message); }

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// The source partitions to mirror as Java's MirrorSourceConnector.findSourceTopicPartitions
// lists them, the order its taskConfigs deals them to tasks in and so task.assigned.partitions
// (java_hash_order.h): Admin.listTopics() puts the Metadata response's non-internal topics into
// a HashMap and names() copies its keys into a HashSet; the topics to replicate are collected
// with Collectors.toSet(); DescribeTopics keeps them in a HashMap(n), returns a copy of it, and
// allTopicNames() gathers the descriptions into another HashMap(n), whose values come out in
// the final order, each topic's partitions ascending.
std::vector<std::string> JavaSourcePartitionOrder(
    const std::vector<std::string>& response_order, const std::map<std::string, int>& counts,
    const std::function<bool(const std::string&)>& replicate) {
  std::vector<std::string> listed;
  for (const std::string& topic : response_order) {
    // Topic.isInternal: listTopics() leaves these out.
    if (topic != "__consumer_offsets" && topic != "__transaction_state" &&
        topic != "__share_group_state") {
      listed.push_back(topic);
    }
  }
  const size_t all = listed.size();
  listed = jvm::JavaHashMapOrder(std::move(listed), std::nullopt);
  listed = jvm::JavaHashMapOrder(std::move(listed), jvm::JavaHashSetCopyCapacity(all));
  std::vector<std::string> topics;
  for (const std::string& topic : listed) {
    if (replicate(topic)) topics.push_back(topic);
  }
  const size_t n = topics.size();
  topics = jvm::JavaHashMapOrder(std::move(topics), std::nullopt);
  topics = jvm::JavaHashMapOrder(std::move(topics), n);
  topics = jvm::JavaHashMapOrder(std::move(topics), jvm::JavaCopyCapacity(n));
  topics = jvm::JavaHashMapOrder(std::move(topics), n);
  std::vector<std::string> partitions;
  for (const std::string& topic : topics) {
    auto count = counts.find(topic);
    for (int p = 0; count != counts.end() && p < count->second; ++p) {
      partitions.push_back(topic + "-" + std::to_string(p));
    }
  }
  return partitions;
}

// A job's period: Java's rule (disabled or negative = not scheduled), with 0 read as 1 s
// (Java's executor would refuse a zero period).
std::optional<std::chrono::seconds> JobInterval(const sdk::Props& props, const char* enabled_key,
                                                const char* interval_key, int64_t fallback) {
  if (!GetBool(props, enabled_key, true)) return std::nullopt;
  int64_t seconds = GetLong(props, interval_key, fallback);
  if (seconds < 0) return std::nullopt;
  return std::chrono::seconds(std::max<int64_t>(1, seconds));
}

std::string Join(const std::map<std::string, std::string>& configs) {
  std::string out;
  for (const auto& [k, v] : configs) out += (out.empty() ? "" : ", ") + k + "=" + v;
  return "{" + out + "}";
}

std::string Join(const std::set<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return "{" + out + "}";
}

KafkaHandle AdminFor(const sdk::Props& props, const std::string& side) {
  std::string error;
  KafkaHandle client =
      MakeClient(RD_KAFKA_PRODUCER,
                 ClientProps(props, side, "admin", "replication-" + side + "-admin"), &error);
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
  ValidateForwardingAdmin(props, validation);
  ValidateClientConfigs(props, validation);
}

void MirrorSourceConnector::start(const sdk::Props& props) {
  props_ = props;
  stopping_ = false;
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
  source_admin_ = AdminFor(props, "source");
  target_admin_ = AdminFor(props, "target");
  remote_topic_errors_.emplace(context().metrics(), source_alias_, target_alias_);
  if (GetBool(props, "emit.offset-syncs.enabled", true)) CreateOffsetSyncsTopics();
  Refresh();

  // Java's order: ACL sync and config sync now, the next refresh after one interval.
  const auto now = std::chrono::steady_clock::now();
  jobs_.clear();
  if (auto every =
          JobInterval(props, "sync.topic.acls.enabled", "sync.topic.acls.interval.seconds", 600)) {
    jobs_.push_back({"topic ACL sync", *every, now, [this] { SyncTopicAcls(); }});
  }
  if (auto every = JobInterval(props, "sync.topic.configs.enabled",
                               "sync.topic.configs.interval.seconds", 600)) {
    jobs_.push_back({"topic config sync", *every, now, [this] { SyncTopicConfigs(); }});
  }
  if (auto every =
          JobInterval(props, "refresh.topics.enabled", "refresh.topics.interval.seconds", 5)) {
    jobs_.push_back({"topic refresh", *every, now + *every, [this] { RefreshJob(); }});
  }
  if (!jobs_.empty()) scheduler_ = std::thread([this] { RunScheduler(); });
}

void MirrorSourceConnector::CreateOffsetSyncsTopics() {
  bool on_target = GetString(props_, "offset-syncs.topic.location", "source") == "target";
  std::string topic = policy_->OffsetSyncsTopic(on_target ? source_alias_ : target_alias_);
  NewTopic spec{topic,
                1,
                static_cast<int>(GetLong(props_, "offset-syncs.topic.replication.factor", 3)),
                {{"cleanup.policy", "compact"}}};
  std::vector<NewTopic> specs{spec};
  if (GetBool(props_, "emit.offset-index.enabled", true)) {
    // The exact offset index: compacted (a growing run overwrites its record), and runs that
    // stopped growing a week ago expire (a transactional source leaves one per transaction).
    spec.name = policy_->OffsetIndexTopic(on_target ? source_alias_ : target_alias_);
    spec.configs["cleanup.policy"] = "compact,delete";
    spec.configs["retention.ms"] = "604800000";
    specs.push_back(spec);
  }
  auto errors =
      CreateTopics(on_target ? target_admin_.get() : source_admin_.get(), specs, admin_timeout_ms_);
  for (const auto& [name, error] : errors) {
    Warn("Could not create internal topic " + name + ": " + error.message);
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
  std::vector<std::string> response_order;
  std::optional<std::map<std::string, int>> source =
      ListTopics(source_admin_.get(), admin_timeout_ms_, &error, &response_order);
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
  std::vector<std::string> partitions = JavaSourcePartitionOrder(
      response_order, *source, [this](const std::string& topic) { return ShouldReplicate(topic); });
  std::set<std::string> replicated;
  std::vector<NewTopic> create;
  std::map<std::string, int> grow;
  std::vector<std::string> to_replicate;
  for (const auto& [topic, count] : *source) {
    if (!ShouldReplicate(topic)) continue;
    to_replicate.push_back(topic);
    std::string remote = policy_->FormatRemoteTopic(source_alias_, topic);
    auto existing = target->find(remote);
    if (existing == target->end()) {
      NewTopic spec{remote, count, static_cast<int>(GetLong(props_, "replication.factor", 2)), {}};
      std::string describe_error;
      auto configs = DescribeTopicConfigs(source_admin_.get(), topic, admin_timeout_ms_,
                                          &describe_error, &stopping_);
      if (!configs) {
        Warn("Could not describe the configs of source topic " + topic + " (" + describe_error +
             "); not creating " + remote + " this round");
        continue;
      }
      spec.configs = CreationConfigs(*configs, *config_filter_);
      create.push_back(std::move(spec));
    } else {
      replicated.insert(topic);
      remote_topic_errors_->Succeeded(remote, kCreateTopics, NowMs());
      if (existing->second < count) {
        grow[remote] = count;
      } else {
        remote_topic_errors_->Succeeded(remote, kCreatePartitions, NowMs());
      }
    }
  }
  // Errors become evidence of flow health (remote_topic_errors.h): the task's records for such
  // a topic wait (as Java's producer waits for metadata) until it exists.
  //
  // Remote heartbeats topics go first, in a request of their own: a broker opens the partitions
  // of one request together (a new 100-partition topic took it 1-2 s here), and the flow's
  // heartbeats, which prove it alive, should not wait for a large data topic.
  auto data_topics = std::stable_partition(create.begin(), create.end(), [this](const NewTopic& t) {
    return policy_->IsHeartbeatsTopic(t.name);
  });
  std::map<std::string, AdminError> create_errors;
  for (auto [begin, end] : {std::pair{create.begin(), data_topics}, {data_topics, create.end()}}) {
    if (begin == end) continue;
    std::map<std::string, AdminError> errors = CreateTopics(
        target_admin_.get(), std::vector<NewTopic>(begin, end), admin_timeout_ms_, &stopping_);
    create_errors.insert(errors.begin(), errors.end());
  }
  for (const auto& [topic, error] : create_errors) {
    Warn("Could not create remote topic " + topic + " on " + target_alias_ + ": " + error.message +
         "; its records wait until it exists (retried every refresh)");
    remote_topic_errors_->Failed(topic, kCreateTopics, error, NowMs());
  }
  for (const NewTopic& spec : create) {
    if (create_errors.count(spec.name)) continue;
    remote_topic_errors_->Succeeded(spec.name, kCreateTopics, NowMs());
    Info("Created remote topic " + spec.name + " with " + std::to_string(spec.partitions) +
         " partitions");
  }
  std::map<std::string, AdminError> grow_errors =
      CreatePartitions(target_admin_.get(), grow, admin_timeout_ms_, &stopping_);
  for (const auto& [topic, error] : grow_errors) {
    Warn("Could not add partitions to " + topic + " on " + target_alias_ + ": " + error.message);
    remote_topic_errors_->Failed(topic, kCreatePartitions, error, NowMs());
  }
  for (const auto& [topic, count] : grow) {
    if (grow_errors.count(topic) == 0) {
      remote_topic_errors_->Succeeded(topic, kCreatePartitions, NowMs());
    }
  }
  // The source topics' IDs: a topic deleted and re-created under the same name keeps its name
  // and partitions but not its ID, and the offsets its tasks stored belong to the old topic.
  std::string ids_error;
  std::optional<std::map<std::string, std::string>> described = DescribeTopicIds(
      source_admin_.get(), to_replicate, admin_timeout_ms_, &ids_error, &stopping_);
  if (!described && !topic_ids_error_logged_) {
    Warn("Could not describe the topic IDs of the source topics on " + source_alias_ + " (" +
         ids_error + "); a topic deleted and re-created meanwhile is not told apart this round");
  }
  topic_ids_error_logged_ = !described;
  bool changed;
  {
    std::lock_guard lock(mu_);
    // Java compares the sets and keeps its list (and so the task configs) while they are equal.
    changed = std::set<std::string>(partitions.begin(), partitions.end()) !=
              std::set<std::string>(partitions_.begin(), partitions_.end());
    if (changed) partitions_ = std::move(partitions);
    replicated_topics_ = std::move(replicated);
    // A topic not described this round keeps the ID it had.
    std::map<std::string, std::string> ids;
    for (const std::string& topic : to_replicate) {
      if (described) {
        if (auto id = described->find(topic); id != described->end()) {
          ids[topic] = id->second;
          continue;
        }
      }
      if (auto old = topic_ids_.find(topic); old != topic_ids_.end()) ids[topic] = old->second;
    }
    for (const auto& [topic, id] : ids) {
      auto old = topic_ids_.find(topic);
      if (old == topic_ids_.end() || old->second == id) continue;
      Warn("Source topic " + topic + " on " + source_alias_ +
           " was deleted and re-created (topic ID " + old->second + ", now " + id +
           "); its tasks restart and copy the new topic from its beginning");
    }
    // Task configs carry the IDs: a changed ID reconfigures (and so restarts) the tasks.
    changed = changed || ids != topic_ids_;
    topic_ids_ = std::move(ids);
  }
  return changed;
}

void MirrorSourceConnector::RefreshJob() {
  if (Refresh()) {
    Info("Found a new set of topic-partitions to replicate; requesting task reconfiguration");
    context().requestTaskReconfiguration();
  }
}

void MirrorSourceConnector::SyncTopicAcls() {
  std::string error;
  bool security_disabled = false;
  std::optional<std::vector<TopicAclBinding>> source = DescribeTopicAcls(
      source_admin_.get(), admin_timeout_ms_, &security_disabled, &error, &stopping_);
  if (!source) {
    if (!security_disabled) {
      Warn("Could not describe the topic ACLs of the source cluster " + source_alias_ + ": " +
           error);
    } else if (!no_acl_authorizer_logged_) {
      no_acl_authorizer_logged_ = true;
      Info(
          "No ACL authorizer is configured on the source Kafka cluster, so no topic ACL "
          "syncing will take place. Consider disabling topic ACL syncing by setting "
          "sync.topic.acls.enabled to 'false'.");
    } else {
      Debug("Source-side ACL authorizer still not found; skipping topic ACL sync");
    }
    return;
  }
  std::vector<TopicAclBinding> bindings = TargetAclBindings(
      *source, [this](const std::string& topic) { return ShouldReplicate(topic); },
      [this](const std::string& topic) {
        return policy_->FormatRemoteTopic(source_alias_, topic);
      });
  // Additive, as Java: CreateAcls of a binding the target already has changes nothing there.
  for (const std::string& failure :
       CreateTopicAcls(target_admin_.get(), bindings, admin_timeout_ms_, &stopping_)) {
    Warn("Could not sync topic ACL to the target cluster " + target_alias_ + ": " + failure);
  }
  Debug("Synced " + std::to_string(bindings.size()) + " topic ACL bindings to " + target_alias_);
}

void MirrorSourceConnector::SyncTopicConfigs() {
  std::vector<std::string> topics;
  {
    std::lock_guard lock(mu_);
    topics.assign(replicated_topics_.begin(), replicated_topics_.end());
  }
  if (topics.empty()) return;
  std::string error;
  std::map<std::string, std::string> source_errors;
  auto source = DescribeConfigsOfTopics(source_admin_.get(), topics, admin_timeout_ms_,
                                        &source_errors, &error, &stopping_);
  if (!source) {
    Warn("Could not describe topic configs on the source cluster " + source_alias_ + ": " + error);
    return;
  }
  // Java's incremental ops (SET each synced source entry, DELETE a source default), sent every
  // round as Java sends them; configs they do not name keep what the remote topic has.
  std::map<std::string, ConfigOps> ops;
  for (const std::string& topic : topics) {
    auto source_configs = source->find(topic);
    if (source_configs == source->end()) {
      Warn("Could not sync the configs of topic " + topic + ": " +
           (source_errors.count(topic) ? source_errors[topic] : "no configs returned"));
      continue;
    }
    ConfigOps topic_ops = SourceConfigOps(source_configs->second, *config_filter_);
    if (topic_ops.set.empty() && topic_ops.remove.empty()) continue;
    ops[policy_->FormatRemoteTopic(source_alias_, topic)] = std::move(topic_ops);
  }
  std::map<std::string, AdminError> failures =
      AlterTopicConfigsIncrementally(target_admin_.get(), ops, admin_timeout_ms_, &stopping_);
  for (const auto& [remote, topic_ops] : ops) {
    auto failure = failures.find(remote);
    if (failure == failures.end()) {
      // Said once per change of what the source asks for, not every round.
      std::string described = "set " + Join(topic_ops.set) + ", delete " + Join(topic_ops.remove);
      if (synced_config_ops_[remote] != described) {
        Info("Synced the configs of remote topic " + remote + " with " + described);
        synced_config_ops_[remote] = std::move(described);
      }
    } else if (failure->second.unsupported) {
      std::string message =
          "the target cluster '" + target_alias_ +
          "' is not compatible with the IncrementalAlterConfigs API: " + failure->second.message;
      Error("Failed to sync configs for topic " + remote + " on cluster " + target_alias_ + ": " +
            failure->second.message);
      context().raiseError(message);
      return;
    } else {
      synced_config_ops_.erase(remote);
      Warn("Could not alter configuration of topic " + remote + ": " + failure->second.message);
    }
  }
}

void MirrorSourceConnector::RunScheduler() {
  std::unique_lock lock(mu_);
  while (!stopping_) {
    auto next = std::min_element(jobs_.begin(), jobs_.end(), [](const Job& a, const Job& b) {
      return a.next_run < b.next_run;
    });
    if (cv_.wait_until(lock, next->next_run, [this] { return stopping_.load(); })) return;
    if (std::chrono::steady_clock::now() < next->next_run) continue;
    lock.unlock();
    try {
      next->run();
    } catch (const std::exception& e) {
      Warn(std::string("The ") + next->name + " failed: " + e.what());
    }
    // Fixed rate; a run that overran its slot is not made up in a burst.
    const auto now = std::chrono::steady_clock::now();
    next->next_run += next->interval;
    if (next->next_run < now) next->next_run = now + next->interval;
    lock.lock();
  }
}

std::vector<sdk::Props> MirrorSourceConnector::taskConfigs(int max_tasks) {
  std::vector<std::string> partitions;
  std::map<std::string, std::string> topic_ids;
  {
    std::lock_guard lock(mu_);
    partitions = partitions_;
    topic_ids = topic_ids_;
  }
  if (!enabled_ || partitions.empty() || max_tasks < 1) return {};
  size_t n = std::min(static_cast<size_t>(max_tasks), partitions.size());
  std::vector<std::string> assigned(n);
  for (size_t i = 0; i < partitions.size(); ++i) {
    std::string& list = assigned[i % n];
    if (!list.empty()) list += ",";
    list += partitions[i];
  }
  std::vector<std::string> assigned_ids(n);
  std::vector<std::set<std::string>> listed(n);
  for (size_t i = 0; i < partitions.size(); ++i) {
    const std::string topic = partitions[i].substr(0, partitions[i].rfind('-'));
    auto id = topic_ids.find(topic);
    if (id == topic_ids.end() || !listed[i % n].insert(topic).second) continue;
    std::string& list = assigned_ids[i % n];
    if (!list.empty()) list += ",";
    list += topic + ":" + id->second;
  }
  std::vector<sdk::Props> configs;
  for (size_t i = 0; i < n; ++i) {
    sdk::Props config = props_;
    config["task.assigned.partitions"] = assigned[i];
    if (!assigned_ids[i].empty()) config[kTaskAssignedTopicIds] = assigned_ids[i];
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
  if (scheduler_.joinable()) scheduler_.join();
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

sdk::ExactlyOnceSupport MirrorSourceConnector::exactlyOnceSupport(const sdk::Props& config) {
  // MirrorSourceConnector.consumerUsesReadCommitted: the replication consumer's config as Java
  // builds it (source.cluster.*, then the consumer overrides); no default applies.
  const sdk::Props consumer = ClientProps(config, "source", "consumer");
  auto it = consumer.find("isolation.level");
  return it != consumer.end() && it->second == "read_committed"
             ? sdk::ExactlyOnceSupport::kSupported
             : sdk::ExactlyOnceSupport::kUnsupported;
}

}  // namespace connectd::mirror
