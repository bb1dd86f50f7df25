#include "connectors/mirror/checkpoint_task.h"

#include <algorithm>

#include "connectors/mirror/checkpoint_rules.h"
#include "connectors/mirror/mirror_config.h"
#include "connectors/mirror_client/records.h"

namespace connectd::mirror {
namespace {

constexpr char kLogger[] = "org.apache.kafka.connect.mirror.MirrorCheckpointTask";
// How long the checkpoints topic may be missing at start (Kafka's KafkaBasedLog waits 30 s).
constexpr int kCheckpointsTopicWaitMs = 30000;

void Log(int32_t level, const std::string& message) { sdk::Log(level, kLogger, message); }

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Connect's LIST parsing: comma-separated, surrounding whitespace trimmed, empties dropped.
std::set<std::string> ParseList(const std::string& value) {
  std::set<std::string> out;
  size_t start = 0;
  while (start <= value.size()) {
    size_t comma = value.find(',', start);
    if (comma == std::string::npos) comma = value.size();
    std::string item = value.substr(start, comma - start);
    size_t b = item.find_first_not_of(" \t\r\n");
    size_t e = item.find_last_not_of(" \t\r\n");
    if (b != std::string::npos) out.insert(item.substr(b, e - b + 1));
    start = comma + 1;
  }
  return out;
}

std::string Join(const std::set<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

KafkaHandle AdminFor(const sdk::Props& props, const std::string& side) {
  std::string error;
  KafkaHandle client =
      MakeClient(RD_KAFKA_PRODUCER,
                 ClientProps(props, side, "admin", "checkpoint-" + side + "-admin"), &error);
  if (!client) throw sdk::ConnectException("cannot create the " + side + " admin client: " + error);
  return client;
}

// Kafka's `<prefix>.enabled` + `<prefix>.interval.seconds`: disabled, or a negative interval,
// is a negative duration.
std::chrono::milliseconds IntervalOrDisabled(const sdk::Props& props, const std::string& prefix,
                                             bool enabled_default, int64_t seconds_default) {
  const int64_t seconds = GetLong(props, prefix + ".interval.seconds", seconds_default);
  if (!GetBool(props, prefix + ".enabled", enabled_default) || seconds < 0) {
    return std::chrono::milliseconds(-1);
  }
  return std::chrono::milliseconds(seconds * 1000);
}

}  // namespace

MirrorCheckpointTask::~MirrorCheckpointTask() {
  stop();
  if (background_.joinable()) background_.join();
  if (reader_) reader_->Stop();
  if (index_reader_) index_reader_->Stop();
  source_admin_.reset();
  target_admin_.reset();
}

void MirrorCheckpointTask::start(const sdk::Props& props) {
  source_alias_ = GetString(props, "source.cluster.alias", "source");
  target_alias_ = GetString(props, "target.cluster.alias", "target");
  new_metric_names_ =
      ParseList(GetString(props, "metric.names.formats", "legacy")).count("new") > 0;
  connector_name_ = GetString(props, "name", "");
  task_index_ = GetString(props, "task.index", "0");
  std::string error;
  policy_ = MakeReplicationPolicy(props, &error);
  if (!policy_) throw sdk::ConfigException(error);
  topic_filter_ = TopicFilter::Make(props, &error);
  if (!topic_filter_) throw sdk::ConfigException(error);
  groups_ = ParseList(GetString(props, "task.assigned.groups", ""));
  checkpoints_topic_ = policy_->CheckpointsTopic(source_alias_);
  interval_ = IntervalOrDisabled(props, "emit.checkpoints", true, 60);
  sync_interval_ = IntervalOrDisabled(props, "sync.group.offsets", false, 60);
  // Kafka's scheduler cannot run at a period of 0 (it never syncs then); connectd syncs every
  // second instead.
  if (sync_interval_.count() == 0) sync_interval_ = std::chrono::milliseconds(1000);
  admin_timeout_ms_ = static_cast<int>(GetLong(props, "admin.timeout.ms", 60000));
  checkpoints_consumer_props_ =
      ClientProps(props, "target", "consumer", "checkpoints-target-consumer");

  const bool syncs_on_target =
      GetString(props, "offset-syncs.topic.location", "source") == "target";
  const std::string syncs_topic =
      policy_->OffsetSyncsTopic(syncs_on_target ? source_alias_ : target_alias_);
  reader_ =
      OffsetSyncReader::Make(ClientProps(props, syncs_on_target ? "target" : "source", "consumer",
                                         syncs_on_target ? "offset-syncs-target-consumer"
                                                         : "offset-syncs-source-consumer"),
                             syncs_topic, &error);
  if (!reader_) throw sdk::ConnectException("cannot create the offset-syncs consumer: " + error);
  index_reader_ = OffsetIndexReader::Make(
      ClientProps(
          props, syncs_on_target ? "target" : "source", "consumer",
          syncs_on_target ? "offset-index-target-consumer" : "offset-index-source-consumer"),
      policy_->OffsetIndexTopic(syncs_on_target ? source_alias_ : target_alias_), &error);
  if (!index_reader_) {
    throw sdk::ConnectException("cannot create the offset index consumer: " + error);
  }
  source_admin_ = AdminFor(props, "source");
  target_admin_ = AdminFor(props, "target");

  next_emit_ = std::chrono::steady_clock::now() + std::max(interval_, std::chrono::milliseconds(0));
  // Loading the stores may take long; start() must return so the task can be stopped.
  background_ = std::thread([this] { Background(); });
  Log(CONNECTD_LOG_INFO, "Checkpointing " + std::to_string(groups_.size()) + " consumer groups " +
                             source_alias_ + "->" + target_alias_ + ": [" + Join(groups_) + "]");
}

void MirrorCheckpointTask::stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
}

bool MirrorCheckpointTask::SleepOrStop(std::chrono::steady_clock::duration d) {
  std::unique_lock lock(mu_);
  return cv_.wait_for(lock, d, [this] { return stopping_.load(); });
}

void MirrorCheckpointTask::Background() {
  std::string error;
  CheckpointStore loaded;
  const bool load_ok = LoadCheckpoints(checkpoints_consumer_props_, checkpoints_topic_, groups_,
                                       kCheckpointsTopicWaitMs, &stopping_, &loaded, &error);
  if (stopping_) return;
  if (!load_ok) {
    Log(CONNECTD_LOG_INFO,
        "Exception encountered loading checkpoints topic " + checkpoints_topic_ + " (" + error +
            ") - this may degrade offset translation as only checkpoints for "
            "offsets which were mirrored after the task started will be emitted");
  }
  {
    std::lock_guard lock(store_mu_);
    store_ = std::move(loaded);
  }
  store_initialized_ = true;

  // Without the previous checkpoints, older syncs could translate a group behind a checkpoint
  // already emitted: keep only the latest sync read during the initial load.
  reader_->Start(!load_ok);
  index_reader_->Start();
  while (!reader_->WaitForReadToEnd(std::chrono::milliseconds(200))) {
    if (stopping_) return;
  }
  if (sync_interval_.count() < 0) return;

  // Kafka's schedule: the idle-group refresh at once and every interval, the offset sync after
  // each later refresh.
  RefreshIdleConsumerGroupOffset();
  auto next = std::chrono::steady_clock::now() + sync_interval_;
  while (!SleepOrStop(next - std::chrono::steady_clock::now())) {
    RefreshIdleConsumerGroupOffset();
    SyncGroupOffset();
    next += sync_interval_;
  }
}

std::string MirrorCheckpointTask::Rename(const std::string& topic) const {
  return RenameTopic(*policy_, source_alias_, target_alias_, topic);
}

std::vector<sdk::SourceRecord> MirrorCheckpointTask::EmitCheckpoints() {
  std::vector<sdk::SourceRecord> records;
  if (!store_initialized_ || stopping_ || groups_.empty()) return records;
  const int64_t timestamp = NowMs();
  std::vector<std::string> groups(groups_.begin(), groups_.end());
  std::map<std::string, std::string> errors;
  std::optional<std::map<std::string, GroupOffsets>> listed =
      ListConsumerGroupOffsets(source_admin_.get(), groups, admin_timeout_ms_, &stopping_, &errors);
  for (const auto& [group, message] : errors) {
    Log(CONNECTD_LOG_ERROR, "Error querying offsets for consumer group " + group + " on cluster " +
                                source_alias_ + ": " + message);
  }
  if (!listed) return records;

  auto should_checkpoint = [this](const std::string& topic) {
    return topic_filter_->ShouldReplicateTopic(topic);
  };
  // Nothing before the offset syncs were read to their end (Kafka's rule); then the exact index
  // first (a lower bound from it only where the syncs have nothing better).
  auto translate = [this](const std::string& topic, int32_t partition,
                          int64_t offset) -> std::optional<int64_t> {
    if (!reader_->readToEnd()) return std::nullopt;
    return CombineTranslations(index_reader_->Translate(topic, partition, offset),
                               reader_->TranslateDownstream(topic, partition, offset));
  };
  auto rename = [this](const std::string& topic) { return Rename(topic); };
  for (const auto& [group, offsets] : *listed) {
    CheckpointStore::GroupCheckpoints checkpoints;
    {
      std::lock_guard lock(store_mu_);
      checkpoints = CheckpointsForGroup(group, offsets, should_checkpoint, translate, rename,
                                        store_.Get(group));
      store_.Update(group, checkpoints);
    }
    for (const auto& [tp, checkpoint] : checkpoints) {
      sdk::SourceRecord record;
      record.source_partition =
          CheckpointPartitionJson(checkpoint.group, checkpoint.topic, checkpoint.partition);
      record.source_offset = SourceOffsetJson(0);
      record.topic = checkpoints_topic_;
      record.partition = 0;
      record.key = EncodeCheckpointKey(checkpoint);
      record.value = EncodeCheckpointValue(checkpoint);
      record.timestamp_ms = timestamp;
      records.push_back(std::move(record));
    }
  }
  return records;
}

void MirrorCheckpointTask::poll(sdk::SourceBatch& batch) {
  const auto timeout = std::chrono::milliseconds(std::max(0, batch.timeoutMs()));
  if (interval_.count() < 0) {  // emit.checkpoints.enabled=false: nothing to do
    SleepOrStop(timeout);
    return;
  }
  {
    std::unique_lock lock(mu_);
    auto wait = std::min<std::chrono::steady_clock::duration>(
        next_emit_ - std::chrono::steady_clock::now(), timeout);
    if (cv_.wait_for(lock, wait, [this] { return stopping_.load(); })) return;
  }
  if (std::chrono::steady_clock::now() < next_emit_) return;
  try {
    for (const sdk::SourceRecord& record : EmitCheckpoints()) batch.add(record);
  } catch (const sdk::ConnectException&) {
    throw;  // the worker refused a record
  } catch (const std::exception& e) {
    Log(CONNECTD_LOG_WARN,
        std::string("Failure polling consumer state for checkpoints: ") + e.what());
  }
  next_emit_ = std::chrono::steady_clock::now() + interval_;
}

void MirrorCheckpointTask::commitRecord(const sdk::SourceRecordView& record,
                                        const sdk::RecordMetadata* metadata) {
  if (metadata == nullptr || stopping_ || !record.key() || !record.value()) return;
  std::optional<Checkpoint> checkpoint = DecodeCheckpoint(*record.key(), *record.value());
  if (!checkpoint) return;
  auto key = std::make_tuple(checkpoint->group, checkpoint->topic, checkpoint->partition);
  auto it = latency_sensors_.find(key);
  if (it == latency_sensors_.end()) {
    const std::string what = "time for a checkpoint to be written to the target (ms)";
    auto stats = [&what] {
      return std::vector<sdk::MetricStat>{
          {"checkpoint-latency-ms", sdk::Stat::kValue, what},
          {"checkpoint-latency-ms-min", sdk::Stat::kMin, "Min " + what},
          {"checkpoint-latency-ms-max", sdk::Stat::kMax, "Max " + what},
          {"checkpoint-latency-ms-avg", sdk::Stat::kAvg, "Average " + what}};
    };
    const sdk::MetricTags tags = {{"source", source_alias_},
                                  {"target", target_alias_},
                                  {"group", checkpoint->group},
                                  {"topic", checkpoint->topic},
                                  {"partition", std::to_string(checkpoint->partition)}};
    std::pair<sdk::Sensor, sdk::Sensor> sensors;
    sensors.first = context().metrics().sensor("kafka.connect.mirror", "MirrorCheckpointConnector",
                                               tags, stats());
    if (new_metric_names_) {
      sdk::MetricTags plugin_tags = {{"connector", connector_name_}, {"task", task_index_}};
      plugin_tags.insert(plugin_tags.end(), tags.begin(), tags.end());
      sensors.second = context().metrics().sensor("kafka.connect", "plugins", plugin_tags, stats());
    }
    it = latency_sensors_.emplace(key, sensors).first;
  }
  const int64_t now = NowMs();
  it->second.first.record(static_cast<double>(now - record.timestampMs()), now);
  it->second.second.record(static_cast<double>(now - record.timestampMs()), now);
}

void MirrorCheckpointTask::RefreshIdleConsumerGroupOffset() {
  std::vector<std::string> groups(groups_.begin(), groups_.end());
  std::map<std::string, std::string> errors;
  auto states = DescribeConsumerGroupStates(target_admin_.get(), groups, admin_timeout_ms_,
                                            &stopping_, &errors);
  if (!states) {
    Log(CONNECTD_LOG_ERROR, "Could not describe consumer groups on cluster " + target_alias_ +
                                (errors.empty() ? "" : ": " + errors.begin()->second));
    return;
  }
  for (const auto& [group, message] : errors) {
    Log(CONNECTD_LOG_ERROR, "Error querying for consumer group " + group + " on cluster " +
                                target_alias_ + ": " + message);
  }
  // Only EMPTY groups are recorded: active ones must not be touched, absent (DEAD) ones get
  // every checkpoint.
  std::vector<std::string> idle;
  for (const auto& [group, state] : *states) {
    if (state == RD_KAFKA_CONSUMER_GROUP_STATE_EMPTY) idle.push_back(group);
  }
  if (idle.empty()) return;
  errors.clear();
  auto offsets =
      ListConsumerGroupOffsets(target_admin_.get(), idle, admin_timeout_ms_, &stopping_, &errors);
  for (const auto& [group, message] : errors) {
    Log(CONNECTD_LOG_ERROR, "Error querying offsets for consumer group " + group + " on cluster " +
                                target_alias_ + ": " + message);
  }
  if (!offsets) return;
  for (auto& [group, group_offsets] : *offsets) {
    idle_consumer_groups_offset_[group] = std::move(group_offsets);
  }
}

void MirrorCheckpointTask::SyncGroupOffset() {
  std::map<std::string, GroupOffsets> converted;
  {
    std::lock_guard lock(store_mu_);
    converted = store_.ComputeConvertedUpstreamOffset();
  }
  for (const auto& [group, offsets] : converted) {
    auto idle = idle_consumer_groups_offset_.find(group);
    GroupOffsets to_sync = OffsetsToSync(
        offsets, idle == idle_consumer_groups_offset_.end() ? nullptr : &idle->second);
    if (to_sync.empty()) continue;
    rd_kafka_resp_err_t code;
    std::string error;
    if (AlterConsumerGroupOffsets(target_admin_.get(), group, to_sync, admin_timeout_ms_,
                                  &stopping_, &code, &error)) {
      continue;
    }
    if (code == RD_KAFKA_RESP_ERR_UNKNOWN_MEMBER_ID) {
      Log(CONNECTD_LOG_WARN, "Unable to sync offsets for consumer group " + group +
                                 ". This is likely caused by consumers currently using this group "
                                 "in the target cluster.");
    } else {
      Log(CONNECTD_LOG_ERROR, "Unable to sync offsets for consumer group " + group + ": " + error);
    }
  }
  idle_consumer_groups_offset_.clear();
}

}  // namespace connectd::mirror
