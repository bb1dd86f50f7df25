#include "connectors/mirror/mirror_source_task.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstring>
#include <vector>

#include "connectors/mirror/mirror_config.h"
#include "connectors/mirror_client/records.h"
#include "jvm/java_client_config.h"

namespace connectd::mirror {
namespace {

constexpr char kLogger[] = "org.apache.kafka.connect.mirror.MirrorSourceTask";

void Log(int32_t level, const std::string& message) { sdk::Log(level, kLogger, message); }

// The memory a zero-copy record points into: the consumed message and, when it has headers,
// the header views. Released by the worker after the target acknowledged the record.
struct HeldRecord {
  rd_kafka_message_t* message;
  std::vector<connectd_header> headers;
};

void ReleaseMessage(void* opaque) {
  rd_kafka_message_destroy(static_cast<rd_kafka_message_t*>(opaque));
}
void ReleaseHeld(void* opaque) {
  auto* held = static_cast<HeldRecord*>(opaque);
  rd_kafka_message_destroy(held->message);
  delete held;
}

// Records a broker's throttle time into the sensor `opaque` (served on the task thread).
void OnConsumerThrottle(rd_kafka_t*, const char*, int32_t, int throttle_time_ms, void* opaque) {
  static_cast<const sdk::Sensor*>(opaque)->record(static_cast<double>(throttle_time_ms));
}

// `opaque`: the sdk::Sensor of the consumer's throttle times.
void ConfigureConsumer(rd_kafka_conf_t* conf, void* opaque) {
  char err[256];
  // The end of a partition says that every offset before it was delivered, records or not
  // (compacted away, transaction markers): the task's position moves there (OnEndOfPartition).
  rd_kafka_conf_set(conf, "enable.partition.eof", "true", err, sizeof(err));
  // An out-of-range position comes back as a consumer error (RD_KAFKA_RESP_ERR__AUTO_OFFSET_RESET)
  // instead of a quiet reset: the task applies the user's policy and counts the gap.
  rd_kafka_conf_set(conf, "auto.offset.reset", "error", err, sizeof(err));
  rd_kafka_conf_set_throttle_cb(conf, &OnConsumerThrottle);
  rd_kafka_conf_set_opaque(conf, opaque);
}

// Parses kTaskAssignedTopicIds ("topic:ID,topic:ID").
std::map<std::string, std::string> ParseTopicIds(const std::string& text) {
  std::map<std::string, std::string> ids;
  size_t start = 0;
  while (start < text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    const std::string item = text.substr(start, comma - start);
    start = comma + 1;
    const size_t colon = item.rfind(':');
    if (colon != std::string::npos && colon > 0 && colon + 1 < item.size()) {
      ids[item.substr(0, colon)] = item.substr(colon + 1);
    }
  }
  return ids;
}

// Errors of the connection or of leadership, which the client rides out by itself: not a
// partition that cannot be read (an unreachable cluster is flow health's to name).
bool IsPassing(rd_kafka_resp_err_t err) {
  switch (err) {
    case RD_KAFKA_RESP_ERR__TRANSPORT:
    case RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN:
    case RD_KAFKA_RESP_ERR__RESOLVE:
    case RD_KAFKA_RESP_ERR__TIMED_OUT:
    case RD_KAFKA_RESP_ERR_REQUEST_TIMED_OUT:
    case RD_KAFKA_RESP_ERR_LEADER_NOT_AVAILABLE:
    case RD_KAFKA_RESP_ERR_NOT_LEADER_FOR_PARTITION:
    case RD_KAFKA_RESP_ERR_BROKER_NOT_AVAILABLE:
    case RD_KAFKA_RESP_ERR_NETWORK_EXCEPTION:
    case RD_KAFKA_RESP_ERR_FENCED_LEADER_EPOCH:
    case RD_KAFKA_RESP_ERR_UNKNOWN_LEADER_EPOCH:
    case RD_KAFKA_RESP_ERR__DESTROY:
      return true;
    default:
      return false;
  }
}

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

constexpr char kMetricsDomain[] = "kafka.connect.mirror";
// The end-offset samples kept per partition (one a second at most while it is behind).
constexpr size_t kMaxEndSamples = 3600;
constexpr char kMetricsGroup[] = "MirrorSourceConnector";

// Kafka's Value, Min, Max and Avg of one measurement: `name`, `name-min`, `name-max`, ...
std::vector<sdk::MetricStat> Distribution(const std::string& name, const std::string& what) {
  return {{name, sdk::Stat::kValue, what},
          {name + "-min", sdk::Stat::kMin, "Min " + what},
          {name + "-max", sdk::Stat::kMax, "Max " + what},
          {name + "-avg", sdk::Stat::kAvg, "Average " + what}};
}

// The most partitions a task fetches with the short default fetch wait (see start()).
constexpr size_t kMaxPartitionsForShortFetchWait = 1000;

void ConfigureSyncProducer(rd_kafka_conf_t* conf, void*) {
  rd_kafka_conf_set_dr_msg_cb(conf, &OffsetSyncWriter::DeliveryCallback);
}

}  // namespace

MirrorSourceTask::~MirrorSourceTask() {
  if (consumer_) rd_kafka_consumer_close(consumer_.get());
}

MirrorSourceTask::PartitionInfo& MirrorSourceTask::Info(const std::string& topic,
                                                        int32_t partition) {
  auto key = std::make_pair(topic, partition);
  auto it = partitions_.find(key);
  if (it != partitions_.end()) return it->second;
  auto remote = remote_topics_.find(topic);
  if (remote == remote_topics_.end()) {
    remote = remote_topics_.emplace(topic, policy_->FormatRemoteTopic(source_alias_, topic)).first;
    source_topics_[remote->second] = topic;
  }
  PartitionInfo info{topic, &remote->second, SourcePartitionJson(source_alias_, topic, partition)};
  if (auto id = topic_ids_.find(topic); id != topic_ids_.end()) {
    info.offset_suffix = ",\"topic_id\":\"" + id->second + "\"}";
  }
  info.metrics = MakeMetrics(remote->second, partition);
  return partitions_.emplace(key, std::move(info)).first->second;
}

sdk::MetricTags MirrorSourceTask::Tags(const std::string& remote_topic, int32_t partition) const {
  return {{"source", source_alias_},
          {"target", target_alias_},
          {"topic", remote_topic},
          {"partition", std::to_string(partition)}};
}

MirrorSourceTask::PartitionMetrics MirrorSourceTask::MakeMetrics(const std::string& remote_topic,
                                                                 int32_t partition) {
  sdk::Metrics metrics = context().metrics();
  const sdk::MetricTags tags = Tags(remote_topic, partition);
  PartitionMetrics m;
  m.records = metrics.sensor(
      kMetricsDomain, kMetricsGroup, tags,
      {{"record-count", sdk::Stat::kCumulativeCount, "Number of replicated records"},
       {"record-rate", sdk::Stat::kRate, "Average number of replicated records per second"}});
  m.replication_latency = metrics.sensor(
      kMetricsDomain, kMetricsGroup, tags,
      Distribution("replication-latency-ms", "time for a record to be replicated (ms)"));
  m.bytes = metrics.sensor(
      kMetricsDomain, kMetricsGroup, tags,
      {{"byte-count", sdk::Stat::kCumulativeSum, "Number of replicated bytes"},
       {"byte-rate", sdk::Stat::kRate, "Average number of replicated bytes per second"}});
  m.record_age =
      metrics.sensor(kMetricsDomain, kMetricsGroup, tags,
                     Distribution("record-age-ms", "age of a record when consumed (ms)"));
  m.skipped_offsets =
      metrics.sensor(kMetricsDomain, kMetricsGroup, tags,
                     {{"skipped-offset-count", sdk::Stat::kCumulativeSum,
                       "Source offsets deleted before they were replicated (connectd)"}});
  m.truncated_offsets = metrics.sensor(
      kMetricsDomain, kMetricsGroup, tags,
      {{"source-truncated-offset-count", sdk::Stat::kCumulativeSum,
        "Offsets copied to the target that the source lost afterwards: its leader's log was "
        "truncated below them (an unclean leader election) (connectd)"}});
  m.recreations =
      metrics.sensor(kMetricsDomain, kMetricsGroup, tags,
                     {{"source-topic-recreated-count", sdk::Stat::kCumulativeCount,
                       "Times the task found its stored offset belonged to a deleted source "
                       "topic of the same name, and started from the new topic's beginning "
                       "(connectd)"}});
  m.end_offset =
      metrics.sensor(kMetricsDomain, kMetricsGroup, tags,
                     {{"source-end-offset", sdk::Stat::kValue,
                       "The source partition's end offset as of the last fetch (connectd)",
                       sdk::RecordingLevel::kDebug}});
  m.oldest_unreplicated_age = metrics.sensor(
      kMetricsDomain, kMetricsGroup, tags,
      {{"oldest-unreplicated-age-ms", sdk::Stat::kValue,
        "Age of the oldest record not yet acknowledged by the target, 0 when caught up; for "
        "records not read yet, at least the time since the source's end passed the position "
        "(connectd)",
        sdk::RecordingLevel::kDebug}});
  m.position = metrics.sensor(
      kMetricsDomain, kMetricsGroup, tags,
      {{"source-position", sdk::Stat::kValue, "The next source offset the task copies (connectd)",
        sdk::RecordingLevel::kDebug}});
  m.passthrough = metrics.sensor(
      kMetricsDomain, kMetricsGroup, tags,
      {{"passthrough", sdk::Stat::kValue,
        "1 while the worker copies the partition as record batches (pass-through), 0 while "
        "the task copies it record by record (connectd)"}});
  if (new_metric_names_) {
    const sdk::MetricTags plugin_tags = {
        {"connector", connector_name_}, {"task", task_index_},
        {"source", source_alias_},      {"target", target_alias_},
        {"topic", remote_topic},        {"partition", std::to_string(partition)}};
    m.new_records = metrics.sensor(
        "kafka.connect", "plugins", plugin_tags,
        {{"record-count", sdk::Stat::kCumulativeCount,
          "Number of source records replicated to the target cluster."},
         {"record-rate", sdk::Stat::kRate,
          "Average number of source records replicated to the target cluster per second."}});
    m.new_record_age = metrics.sensor(
        "kafka.connect", "plugins", plugin_tags,
        Distribution("record-age-ms",
                     "age of incoming source records when replicated to the target cluster."));
    m.new_bytes = metrics.sensor(
        "kafka.connect", "plugins", plugin_tags,
        {{"byte-count", sdk::Stat::kCumulativeSum,
          "Number of bytes replicated to the target cluster."},
         {"byte-rate", sdk::Stat::kRate, "Average number of bytes replicated per second."}});
    m.new_replication_latency = metrics.sensor(
        "kafka.connect", "plugins", plugin_tags,
        Distribution("replication-latency-ms",
                     "time it takes records to replicate from source to target cluster."));
  }
  return m;
}

std::unique_ptr<MirrorSourceTask::PartitionErrors> MirrorSourceTask::MakeErrorSensors(
    const PartitionInfo& info, int32_t partition, const std::string& prefix,
    const std::string& whose) {
  sdk::Metrics metrics = context().metrics();
  const sdk::MetricTags tags = Tags(*info.remote_topic, partition);
  auto gauge = [&](const std::string& name, const std::string& what) {
    return metrics.sensor(kMetricsDomain, kMetricsGroup, tags,
                          {{name, sdk::Stat::kValue, what, sdk::RecordingLevel::kDebug}});
  };
  auto e = std::make_unique<PartitionErrors>();
  e->code = gauge(prefix + "-error-code",
                  whose +
                      "'s error for the partition, 0 once it copies again (Kafka's or "
                      "librdkafka's code; connectd)");
  e->count = metrics.sensor(kMetricsDomain, kMetricsGroup, tags,
                            {{prefix + "-error-count", sdk::Stat::kCumulativeCount,
                              "Errors " + whose + " reported for the partition (connectd)",
                              sdk::RecordingLevel::kDebug}});
  e->first_ms =
      gauge(prefix + "-error-first-ms", "When the current error was first reported (connectd)");
  e->last_ms =
      gauge(prefix + "-error-last-ms", "When the current error was last reported (connectd)");
  return e;
}

void MirrorSourceTask::RecordError(PartitionInfo& info, int32_t partition, int code, int64_t now) {
  if (!info.errors) info.errors = MakeErrorSensors(info, partition, "fetch", "The consumer");
  RecordErrorIn(*info.errors, code, now);
}

void MirrorSourceTask::RecordTargetError(PartitionInfo& info, int32_t partition, int code,
                                         int64_t now) {
  if (!info.target_errors) {
    info.target_errors = MakeErrorSensors(info, partition, "produce", "The target");
  }
  RecordErrorIn(*info.target_errors, code, now);
}

void MirrorSourceTask::RecordErrorIn(PartitionErrors& e, int code, int64_t now) {
  if (code == 0) {
    e.code.record(0.0, now);
    e.active = false;
    return;
  }
  if (!e.active) e.first_ms.record(static_cast<double>(now), now);
  e.active = true;
  e.code.record(static_cast<double>(code), now);
  e.count.record(1.0, now);
  e.last_ms.record(static_cast<double>(now), now);
}

void MirrorSourceTask::RecordPosition(PartitionInfo& info, int64_t high, int64_t position,
                                      int64_t now) {
  // Recorded when they change only (a value stat keeps its last value): an idle partition
  // costs nothing but the lookups.
  if (high >= 0 && high != info.recorded_end_offset) {
    info.metrics.end_offset.record(static_cast<double>(high), now);
    info.recorded_end_offset = high;
  }
  if (position >= 0 && position != info.recorded_position) {
    info.metrics.position.record(static_cast<double>(position), now);
    info.recorded_position = position;
  }
  // Samples of the end while it is ahead of the position, for records that wait unread. A
  // round whose lookup failed keeps the last end known.
  const int64_t end = high >= 0 ? high : info.recorded_end_offset;
  auto& samples = info.end_samples;
  while (!samples.empty() && samples.front().first <= position) samples.pop_front();
  if (end >= 0 && position >= 0 && end > position &&
      (samples.empty() || end > samples.back().first)) {
    if (samples.size() >= kMaxEndSamples) samples.pop_front();
    samples.emplace_back(end, now);
  }
  // The oldest record not yet acknowledged by the target: a record read (unacked) has its
  // timestamp; one that waits unread was written before the end first passed it. 0 when
  // everything is acknowledged and nothing is left to read; NaN if nothing tells.
  double age = 0.0;
  if (!info.unacked.empty()) {
    const int64_t timestamp = info.unacked.front().second;
    age =
        timestamp >= 0 ? static_cast<double>(std::max<int64_t>(0, now - timestamp)) : std::nan("");
  } else if (end >= 0 && position >= 0 && position < end) {
    age = samples.empty() ? std::nan("")
                          : static_cast<double>(std::max<int64_t>(0, now - samples.front().second));
  }
  if (age != 0.0 || info.recorded_age != 0.0) {
    info.metrics.oldest_unreplicated_age.record(age, now);
    info.recorded_age = age;
  }
}

void MirrorSourceTask::RecordProgress(int64_t now) {
  if (now < next_progress_ms_) return;
  next_progress_ms_ = now + 1000;
  rd_kafka_topic_partition_list_t* positions = nullptr;
  if (rd_kafka_assignment(consumer_.get(), &positions) != RD_KAFKA_RESP_ERR_NO_ERROR) return;
  rd_kafka_position(consumer_.get(), positions);
  constexpr int kErroredQueriesPerRound = 4;
  constexpr int kErroredQueryTimeoutMs = 500;
  int errored_queries = 0;
  for (int i = 0; i < positions->cnt; ++i) {
    const rd_kafka_topic_partition_t& tp = positions->elems[i];
    auto it = partitions_.find({tp.topic, tp.partition});
    if (it == partitions_.end()) continue;
    PartitionInfo& info = it->second;
    int64_t low = -1, high = -1;
    if (info.errors && info.errors->active && errored_queries < kErroredQueriesPerRound) {
      // No fetch succeeds, so the cached end is stale: ask the broker (ListOffsets needs
      // DESCRIBE only), a few partitions a round, so that records behind stays the truth.
      ++errored_queries;
      rd_kafka_query_watermark_offsets(consumer_.get(), tp.topic, tp.partition, &low, &high,
                                       kErroredQueryTimeoutMs);
    } else {
      rd_kafka_get_watermark_offsets(consumer_.get(), tp.topic, tp.partition, &low, &high);
    }
    // Before the first fetch the position is a logical one (beginning, end, stored+1 known); at
    // the end of a partition whose last offsets hold no record (compaction, transaction markers)
    // the task's own position is past the consumer's last record.
    RecordPosition(info, high, std::max<int64_t>(tp.offset, info.next_offset), now);
  }
  rd_kafka_topic_partition_list_destroy(positions);
  // A partition taken from the consumer and not yet handed to the worker (hand_backs_) is
  // copied by nobody for a moment: its position and end still tell the truth, so that one that
  // stays there reads as records behind, never as caught up.
  for (const auto& key : hand_backs_) {
    PartitionInfo& info = partitions_.at(key);
    if (!info.unassigned || info.copied_as_batches) continue;
    int64_t low = -1, high = -1;
    if (errored_queries++ < kErroredQueriesPerRound) {
      rd_kafka_query_watermark_offsets(consumer_.get(), key.first.c_str(), key.second, &low, &high,
                                       kErroredQueryTimeoutMs);
    }
    RecordPosition(info, high, info.next_offset, now);
  }
}

void MirrorSourceTask::start(const sdk::Props& props) {
  source_alias_ = GetString(props, "source.cluster.alias", "source");
  target_alias_ = GetString(props, "target.cluster.alias", "target");
  // metric.names.formats: a list of "legacy" and "new" (validated by the connector's ConfigDef).
  const std::string formats = GetString(props, "metric.names.formats", "legacy");
  for (size_t begin = 0; begin <= formats.size();) {
    size_t comma = std::min(formats.find(',', begin), formats.size());
    std::string item = formats.substr(begin, comma - begin);
    item.erase(std::remove(item.begin(), item.end(), ' '), item.end());
    new_metric_names_ = new_metric_names_ || item == "new";
    begin = comma + 1;
  }
  connector_name_ = GetString(props, "name", "");
  task_index_ = GetString(props, "task.index", "0");
  const std::string& target_alias = target_alias_;
  std::string error;
  policy_ = MakeReplicationPolicy(props, &error);
  if (!policy_) throw sdk::ConfigException(error);
  poll_timeout_ms_ = static_cast<int>(GetLong(props, "consumer.poll.timeout.ms", 1000));

  Props consumer_props = ClientProps(props, "source", "consumer", "replication-consumer");
  // One poll returns at most what one Java consumer poll would (max.poll.records, 500): acks,
  // and with them offset syncs, then arrive spread over batches instead of in one burst.
  if (auto it = consumer_props.find("max.poll.records"); it != consumer_props.end()) {
    try {
      max_poll_records_ = std::max(1, std::stoi(it->second));
    } catch (...) {
      throw sdk::ConfigException("max.poll.records must be a positive integer: " + it->second);
    }
  }
  consumer_props["enable.auto.commit"] = "false";
  consumer_props.emplace("auto.offset.reset", "earliest");
  // 100 ms rather than Java's 500 (docs/compatibility.md): a partition librdkafka adds while a
  // fetch waits at the broker joins the next fetch, so at a task's start the heartbeats
  // partition waited up to this long behind idle partitions (a restarted worker's first
  // heartbeat reached the target 0.8-1.8 s after it was written, instead of 0.05 s). 1,000
  // above kMaxPartitionsForShortFetchWait partitions: librdkafka has no fetch sessions, so each
  // idle round sends and parses every partition (166 KB each way for 5,000) and weighs each in
  // its broker thread; records still return as soon as they arrive (fetch.min.bytes=1).
  if (!consumer_props.count("fetch.max.wait.ms") && !consumer_props.count("fetch.wait.max.ms")) {
    const std::string assigned = GetString(props, "task.assigned.partitions", "");
    const size_t partitions =
        assigned.empty() ? 0 : std::count(assigned.begin(), assigned.end(), ',') + 1;
    consumer_props["fetch.max.wait.ms"] =
        partitions > kMaxPartitionsForShortFetchWait ? "1000" : "100";
  }
  reset_policy_ = consumer_props["auto.offset.reset"];  // applied by HandleResets
  topic_ids_ = ParseTopicIds(GetString(props, kTaskAssignedTopicIds, ""));
  // Java's assign() needs no group; librdkafka's consumer API wants a group.id, never joined.
  consumer_props.emplace("group.id", "connectd-mirror-" + source_alias_ + "-" + target_alias);
  consumer_throttle_ =
      context().metrics().sensor("kafka.consumer", "consumer-fetch-manager-metrics",
                                 {{"client-id", consumer_props["client.id"]}},
                                 {{"fetch-throttle-time-avg", sdk::Stat::kAvg,
                                   "The average throttle time in ms (the source's quota)"},
                                  {"fetch-throttle-time-max", sdk::Stat::kMax,
                                   "The maximum throttle time in ms (the source's quota)"}});
  consumer_ = MakeClient(RD_KAFKA_CONSUMER, consumer_props, &error, &ConfigureConsumer,
                         &consumer_throttle_);
  if (!consumer_) throw sdk::ConnectException("cannot create the source consumer: " + error);
  rd_kafka_poll_set_consumer(consumer_.get());

  rd_kafka_topic_partition_list_t* assignment = rd_kafka_topic_partition_list_new(8);
  std::string assigned = GetString(props, "task.assigned.partitions", "");
  size_t start = 0;
  while (start < assigned.size()) {
    size_t comma = assigned.find(',', start);
    std::string item =
        assigned.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    start = comma == std::string::npos ? assigned.size() : comma + 1;
    size_t dash = item.rfind('-');  // topic names may contain '-': split at the last one
    if (dash == std::string::npos) continue;
    std::string topic = item.substr(0, dash);
    int32_t partition = std::stoi(item.substr(dash + 1));
    PartitionInfo& info = Info(topic, partition);
    rd_kafka_topic_partition_list_add(assignment, topic.c_str(), partition)->offset =
        StartOffset(topic, partition, info);
  }
  ResolveLogicalOffsets(assignment);
  const int count = assignment->cnt;
  // Pass-through: the worker copies what it takes as batches; the consumer keeps the rest (and
  // partitions whose start is still a logical offset, resolved by the consumer).
  passthrough_enabled_ = GetBool(props, "passthrough.enabled", true);
  if (passthrough_enabled_) {
    source_client_ =
        jvm::TranslateJavaClientConfig(consumer_props, jvm::ClientRole::kConsumer).properties;
    std::vector<std::tuple<std::string, int32_t, int64_t>> concrete;
    for (int i = 0; i < assignment->cnt; ++i) {
      const rd_kafka_topic_partition_t& tp = assignment->elems[i];
      if (tp.offset >= 0) concrete.emplace_back(tp.topic, tp.partition, tp.offset);
    }
    if (!concrete.empty() && HandOver(concrete)) {
      rd_kafka_topic_partition_list_t* rest = rd_kafka_topic_partition_list_new(assignment->cnt);
      for (int i = 0; i < assignment->cnt; ++i) {
        const rd_kafka_topic_partition_t& tp = assignment->elems[i];
        if (tp.offset >= 0) continue;
        rd_kafka_topic_partition_list_add(rest, tp.topic, tp.partition)->offset = tp.offset;
      }
      rd_kafka_topic_partition_list_destroy(assignment);
      assignment = rest;
    }
  }
  for (auto& [key, info] : partitions_) {
    info.metrics.passthrough.record(info.copied_as_batches ? 1.0 : 0.0, NowMs());
  }
  // One assignment: with their start offsets resolved above, every partition, the heartbeats
  // one included, is in the consumer's first fetch.
  const rd_kafka_resp_err_t err = rd_kafka_assign(consumer_.get(), assignment);
  rd_kafka_topic_partition_list_destroy(assignment);
  if (err) throw sdk::ConnectException(std::string("assign failed: ") + rd_kafka_err2str(err));

  if (GetBool(props, "emit.offset-syncs.enabled", true)) {
    bool on_target = GetString(props, "offset-syncs.topic.location", "source") == "target";
    Props sync_props =
        ClientProps(props, on_target ? "target" : "source", "producer",
                    on_target ? "offset-syncs-target-producer" : "offset-syncs-source-producer");
    sync_props.emplace("linger.ms", "0");  // syncs are few and their acks free writer slots
    KafkaHandle producer =
        MakeClient(RD_KAFKA_PRODUCER, sync_props, &error, &ConfigureSyncProducer);
    if (!producer) throw sdk::ConnectException("cannot create the offset-syncs producer: " + error);
    const std::string& syncs_alias = on_target ? source_alias_ : target_alias;
    offset_syncs_ = std::make_unique<OffsetSyncWriter>(
        std::move(producer), policy_->OffsetSyncsTopic(syncs_alias),
        GetLong(props, "offset.lag.max", 100),
        GetBool(props, "emit.offset-index.enabled", true) ? policy_->OffsetIndexTopic(syncs_alias)
                                                          : "");
  }
  Log(CONNECTD_LOG_INFO, "Replicating " + std::to_string(count) + " topic-partitions " +
                             source_alias_ + "->" + target_alias + ": [" + assigned + "]");
}

int64_t MirrorSourceTask::StartOffset(const std::string& topic, int32_t partition,
                                      PartitionInfo& info) {
  // No usable stored offset: where auto.offset.reset says, without asking a consumer group
  // (Java's assign() has none; librdkafka would look up committed offsets of its group.id).
  // "none" (librdkafka's "error") leaves the position invalid: HandleResets fails the task.
  const int64_t reset = reset_policy_ == "latest"     ? RD_KAFKA_OFFSET_END
                        : reset_policy_ == "earliest" ? RD_KAFKA_OFFSET_BEGINNING
                                                      : RD_KAFKA_OFFSET_INVALID;
  std::optional<std::string> stored = context().offset(info.partition_json);
  if (!stored) return reset;
  std::string stored_id;
  std::optional<int64_t> offset = ParseSourceOffset(*stored, &stored_id);
  if (!offset || *offset < 0) return reset;
  const auto id = topic_ids_.find(topic);
  if (stored_id.empty() || id == topic_ids_.end() || stored_id == id->second) {
    info.next_offset = *offset + 1;  // the stored offset is the last replicated record
    return info.next_offset;
  }
  // The offset belongs to the topic's earlier life: every record of the new topic is new.
  info.metrics.recreations.record(1.0, NowMs());
  Log(CONNECTD_LOG_WARN,
      "Source topic " + topic + " on " + source_alias_ + " was deleted and re-created (topic ID " +
          stored_id + " when offset " + std::to_string(*offset) + " of " + topic + "-" +
          std::to_string(partition) + " was replicated, now " + id->second + "): copying " + topic +
          "-" + std::to_string(partition) + " from the new topic's beginning, not from offset " +
          std::to_string(*offset + 1));
  return RD_KAFKA_OFFSET_BEGINNING;
}

void MirrorSourceTask::ResolveLogicalOffsets(rd_kafka_topic_partition_list_t* assignment) {
  // A partition assigned at BEGINNING or END is resolved by librdkafka only once it knows the
  // leader (else after a 500 ms timer), with a ListOffsets that waits behind the fetch parked on
  // the same connection (fetch.max.wait.ms, 500 ms), and starts fetching with the next fetch
  // (another 500 ms): a new flow's first heartbeat took 1.4 s to reach the target (librdkafka
  // debug log). Asked here in one round trip before the first fetch, they start at once. What
  // is not answered keeps its logical offset.
  //
  // Every assigned partition is in the request (those with an offset ask for the latest, which
  // is ignored): its leader lookup then learns every assigned topic's metadata at once. Asking
  // for some topics only left the others unknown to the consumer until its next once-a-second
  // scan (a restarted flow's first heartbeat reached the target 1.2 s late).
  std::vector<int> logical;
  for (int i = 0; i < assignment->cnt; ++i) {
    const int64_t offset = assignment->elems[i].offset;
    if (offset == RD_KAFKA_OFFSET_BEGINNING || offset == RD_KAFKA_OFFSET_END) logical.push_back(i);
  }
  if (logical.empty()) return;
  rd_kafka_topic_partition_list_t* query = rd_kafka_topic_partition_list_new(assignment->cnt);
  for (int i = 0; i < assignment->cnt; ++i) {
    const rd_kafka_topic_partition_t& tp = assignment->elems[i];
    // As timestamps, BEGINNING (-2) asks for the earliest offset and END (-1) for the latest.
    const bool is_logical =
        tp.offset == RD_KAFKA_OFFSET_BEGINNING || tp.offset == RD_KAFKA_OFFSET_END;
    rd_kafka_topic_partition_list_add(query, tp.topic, tp.partition)->offset =
        is_logical ? tp.offset : RD_KAFKA_OFFSET_END;
  }
  constexpr int kQueryTimeoutMs = 2000;
  if (rd_kafka_offsets_for_times(consumer_.get(), query, kQueryTimeoutMs) ==
      RD_KAFKA_RESP_ERR_NO_ERROR) {
    for (int i : logical) {
      rd_kafka_topic_partition_t& tp = assignment->elems[i];
      const rd_kafka_topic_partition_t* answer =
          rd_kafka_topic_partition_list_find(query, tp.topic, tp.partition);
      if (answer != nullptr && answer->err == RD_KAFKA_RESP_ERR_NO_ERROR && answer->offset >= 0) {
        tp.offset = answer->offset;
      }
    }
  }
  rd_kafka_topic_partition_list_destroy(query);
}

void MirrorSourceTask::Reposition(const std::string& topic, int32_t partition, int64_t offset) {
  // librdkafka stops fetching a partition whose position was out of range, and seek() needs a
  // fetching partition: the partition is unassigned and assigned again at `offset`.
  Unassign(topic, partition);
  AssignAt(topic, partition, offset);
}

bool MirrorSourceTask::HandOver(
    const std::vector<std::tuple<std::string, int32_t, int64_t>>& partitions) {
  std::vector<sdk::BatchCopyPartition> items;
  for (const auto& [topic, partition, offset] : partitions) {
    PartitionInfo& info = Info(topic, partition);
    items.push_back({topic, partition, *info.remote_topic, offset, info.partition_json,
                     "{\"offset\":", info.offset_suffix});
  }
  std::string why;
  if (!context().copyBatches(source_client_, items, &why)) {
    if (!passthrough_refusal_logged_) {
      Log(CONNECTD_LOG_INFO, "Copying " + source_alias_ + "->" + target_alias_ +
                                 " record by record, not as batches (pass-through): " + why);
      passthrough_refusal_logged_ = true;
    }
    return false;
  }
  const int64_t now = NowMs();
  for (const auto& [topic, partition, offset] : partitions) {
    PartitionInfo& info = Info(topic, partition);
    info.copied_as_batches = true;
    info.next_offset = offset;
    info.metrics.passthrough.record(1.0, now);
  }
  return true;
}

void MirrorSourceTask::AssignAt(const std::string& topic, int32_t partition, int64_t offset) {
  rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(list, topic.c_str(), partition)->offset = offset;
  rd_kafka_error_t* error = rd_kafka_incremental_assign(consumer_.get(), list);
  rd_kafka_topic_partition_list_destroy(list);
  if (error != nullptr) {
    const std::string message = rd_kafka_error_string(error);
    rd_kafka_error_destroy(error);
    throw sdk::ConnectException("cannot consume " + topic + "-" + std::to_string(partition) +
                                " from offset " + std::to_string(offset) + ": " + message);
  }
}

void MirrorSourceTask::Unassign(const std::string& topic, int32_t partition) {
  rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(list, topic.c_str(), partition);
  rd_kafka_error_t* error = rd_kafka_incremental_unassign(consumer_.get(), list);
  rd_kafka_topic_partition_list_destroy(list);
  if (error != nullptr) {
    const std::string message = rd_kafka_error_string(error);
    rd_kafka_error_destroy(error);
    throw sdk::ConnectException("cannot stop consuming " + topic + "-" + std::to_string(partition) +
                                ": " + message);
  }
}

void MirrorSourceTask::HandBack() {
  for (auto it = hand_backs_.begin(); it != hand_backs_.end();) {
    PartitionInfo& info = partitions_.at(*it);
    // Every record before hand_back_at acknowledged, none after it handed to the worker.
    if (!info.unacked.empty() || info.next_offset < info.hand_back_at) {
      ++it;
      continue;
    }
    const auto [topic, partition] = *it;
    const int64_t offset = info.hand_back_at;
    if (!info.unassigned) Unassign(topic, partition);
    info.unassigned = false;
    info.hand_back_at = -1;
    it = hand_backs_.erase(it);
    if (!HandOver({{topic, partition, offset}})) AssignAt(topic, partition, offset);
  }
}

void MirrorSourceTask::batchCopyEvent(const sdk::BatchCopyEvent& event) {
  auto it = partitions_.find({std::string(event.source_topic), event.partition});
  if (it == partitions_.end()) return;
  PartitionInfo& info = it->second;
  const int64_t now = NowMs();
  switch (event.kind) {
    case sdk::BatchCopyEvent::Kind::kAcked: {
      info.next_offset = event.position;
      info.metrics.records.recordMany(1.0, event.record_count, now);
      info.metrics.new_records.recordMany(1.0, event.record_count, now);
      info.metrics.bytes.record(static_cast<double>(event.batch_bytes), now);
      info.metrics.new_bytes.record(static_cast<double>(event.batch_bytes), now);
      if (event.max_timestamp_ms >= 0) {
        const double latency = static_cast<double>(now - event.max_timestamp_ms);
        info.metrics.replication_latency.record(latency, now);
        info.metrics.new_replication_latency.record(latency, now);
        info.metrics.record_age.record(latency, now);
        info.metrics.new_record_age.record(latency, now);
      }
      if (info.errors && info.errors->active) RecordError(info, event.partition, 0, now);
      if (info.target_errors && info.target_errors->active) {
        RecordTargetError(info, event.partition, 0, now);
      }
      // A batch has no gap (the worker returns those that have): one exact run.
      if (offset_syncs_ && event.downstream_base >= 0 &&
          event.upstream_last - event.upstream_first + 1 == event.record_count) {
        offset_syncs_->UpdateBatch(info.source_topic, event.partition, event.upstream_first,
                                   event.downstream_base, event.record_count);
      }
      return;
    }
    case sdk::BatchCopyEvent::Kind::kProgress:
      RecordPosition(info, event.source_end_offset, event.position, now);
      // The source's quota on the copy's fetches: the consumer's metric, as on the record path.
      if (event.fetch_throttle_ms > 0) {
        consumer_throttle_.record(static_cast<double>(event.fetch_throttle_ms), now);
      }
      RecordBatchCopyErrors(info, event, now);
      return;
    case sdk::BatchCopyEvent::Kind::kReturned: {
      info.copied_as_batches = false;
      info.next_offset = event.position;
      info.metrics.passthrough.record(0.0, now);
      std::string again = event.copy_again_at >= 0 ? "; as batches again from offset " +
                                                         std::to_string(event.copy_again_at)
                                                   : "";
      Log(CONNECTD_LOG_INFO, "Copying " + info.source_topic + "-" +
                                 std::to_string(event.partition) +
                                 " record by record from offset " + std::to_string(event.position) +
                                 ": " + std::string(event.reason) + again);
      if (event.truncated_offsets > 0) {
        info.metrics.truncated_offsets.record(static_cast<double>(event.truncated_offsets), now);
        const std::string tp = info.source_topic + "-" + std::to_string(event.partition);
        Log(CONNECTD_LOG_WARN,
            "Source truncation on " + tp + " of " + source_alias_ + ": offsets [" +
                std::to_string(event.position) + ", " +
                std::to_string(event.position + event.truncated_offsets) + ") were copied to " +
                *info.remote_topic + " on " + target_alias_ + " and are not on " + source_alias_ +
                " any more (an unclean leader election truncated its log); " + target_alias_ +
                " keeps them (source-truncated-offset-count), the source's new records from " +
                "offset " + std::to_string(event.position) + " follow");
      }
      if (stopping_) return;  // the task's last acknowledgements: nothing to copy any more
      if (event.copy_again_at > event.position && passthrough_enabled_) {
        info.hand_back_at = event.copy_again_at;
        hand_backs_.insert(it->first);
      }
      AssignAt(info.source_topic, event.partition, event.position);
      return;
    }
  }
}

namespace {

// "Broker: Not enough in-sync replicas (19)".
std::string KafkaErrorText(int code) {
  return std::string(rd_kafka_err2str(static_cast<rd_kafka_resp_err_t>(code))) + " (" +
         std::to_string(code) + ")";
}

}  // namespace

void MirrorSourceTask::RecordBatchCopyErrors(PartitionInfo& info, const sdk::BatchCopyEvent& event,
                                             int64_t now) {
  const bool by_side = event.source_error_code != 0 || event.target_error_code != 0;
  const int source_code = by_side ? event.source_error_code : event.error_code;
  const std::string tp = info.source_topic + "-" + std::to_string(event.partition);
  if (source_code != 0) {
    const bool first = !info.errors || !info.errors->active;
    RecordError(info, event.partition, source_code, now);
    if (first) {
      Log(CONNECTD_LOG_WARN, "Cannot read " + tp + " on " + source_alias_ +
                                 " as batches: " + KafkaErrorText(source_code) +
                                 " (counted as fetch-error-count until batches flow again)");
    }
  } else if (info.errors && info.errors->active) {
    RecordError(info, event.partition, 0, now);
  }
  if (event.target_error_code != 0) {
    const bool first = !info.target_errors || !info.target_errors->active;
    RecordTargetError(info, event.partition, event.target_error_code, now);
    if (first) {
      Log(CONNECTD_LOG_WARN, "Cannot write " + tp + "'s batches to " + *info.remote_topic + " on " +
                                 target_alias_ + ": " + KafkaErrorText(event.target_error_code) +
                                 " (counted as produce-error-count until the target "
                                 "acknowledges them)");
    }
  } else if (info.target_errors && info.target_errors->active) {
    RecordTargetError(info, event.partition, 0, now);
  }
}

void MirrorSourceTask::HandleResets(int64_t now) {
  if (pending_resets_.empty() || now < next_reset_attempt_ms_) return;
  next_reset_attempt_ms_ = now + 1000;
  constexpr int kWatermarkTimeoutMs = 2000;
  for (auto it = pending_resets_.begin(); it != pending_resets_.end() && !stopping_;) {
    const std::string topic = it->first.first;
    const int32_t partition = it->first.second;
    const int64_t position = it->second;
    const std::string tp = topic + "-" + std::to_string(partition);
    if (reset_policy_ != "earliest" && reset_policy_ != "latest") {
      throw sdk::ConnectException("No valid position for " + tp + " on " + source_alias_ +
                                  " (position " + std::to_string(position) +
                                  ") and consumer auto.offset.reset is " + reset_policy_);
    }
    int64_t low = -1, high = -1;
    if (rd_kafka_query_watermark_offsets(consumer_.get(), topic.c_str(), partition, &low, &high,
                                         kWatermarkTimeoutMs) != RD_KAFKA_RESP_ERR_NO_ERROR) {
      ++it;  // asked again in a second
      continue;
    }
    const int64_t restart = reset_policy_ == "earliest" ? low : high;
    PartitionInfo& info = Info(topic, partition);
    if (position >= 0 && position < low) {
      const int64_t skipped = restart - position;
      info.metrics.skipped_offsets.record(static_cast<double>(skipped), now);
      Log(CONNECTD_LOG_WARN,
          "Data gap on " + tp + " from " + source_alias_ + ": offsets [" +
              std::to_string(position) + ", " + std::to_string(low) +
              ") were deleted on the source (retention) before they were replicated; " +
              std::to_string(skipped) + " offsets skipped in all (skipped-offset-count), " +
              "replicating from offset " + std::to_string(restart) +
              " (auto.offset.reset=" + reset_policy_ + ")");
    } else if (position > high) {
      Log(CONNECTD_LOG_WARN, "Position " + std::to_string(position) + " of " + tp + " is beyond " +
                                 "the source partition's end " + std::to_string(high) +
                                 " (the topic was truncated, or deleted and re-created); "
                                 "replicating from offset " +
                                 std::to_string(restart) + " (auto.offset.reset=" + reset_policy_ +
                                 ")");
    } else {
      Log(CONNECTD_LOG_WARN, "Position " + std::to_string(position) + " of " + tp +
                                 " was out of range; replicating from offset " +
                                 std::to_string(restart) + " (auto.offset.reset=" + reset_policy_ +
                                 ")");
    }
    Reposition(topic, partition, restart);
    info.next_offset = restart;
    it = pending_resets_.erase(it);
  }
}

void MirrorSourceTask::OnConsumerError(const rd_kafka_message_t* message) {
  if (message->err == RD_KAFKA_RESP_ERR__AUTO_OFFSET_RESET && message->rkt != nullptr &&
      message->partition >= 0) {
    // message->offset: the position that was out of range (or invalid: no starting position).
    pending_resets_[{rd_kafka_topic_name(message->rkt), message->partition}] = message->offset;
    next_reset_attempt_ms_ = 0;
    return;
  }
  if (message->rkt != nullptr && message->partition >= 0 && !IsPassing(message->err)) {
    const std::string topic = rd_kafka_topic_name(message->rkt);
    auto it = partitions_.find({topic, message->partition});
    if (it != partitions_.end()) {
      // Kept as evidence per partition: flow health names the topics that cannot be read.
      const bool first = !it->second.errors || !it->second.errors->active;
      RecordError(it->second, message->partition, message->err, NowMs());
      if (!first) return;  // logged when it began; counted since
      Log(CONNECTD_LOG_WARN, "Cannot read " + topic + "-" + std::to_string(message->partition) +
                                 " from " + source_alias_ + ": " +
                                 rd_kafka_message_errstr(message) +
                                 " (counted as fetch-error-count until records flow again)");
      return;
    }
  }
  Log(CONNECTD_LOG_WARN, std::string("Failure during poll: ") + rd_kafka_message_errstr(message));
}

void MirrorSourceTask::OnEndOfPartition(const rd_kafka_message_t* message) {
  if (message->rkt == nullptr || message->partition < 0) return;
  auto it = partitions_.find({rd_kafka_topic_name(message->rkt), message->partition});
  if (it == partitions_.end()) return;
  // Every record before the end has been delivered (a partition's events come in order).
  it->second.next_offset = std::max(it->second.next_offset, message->offset);
}

void MirrorSourceTask::poll(sdk::SourceBatch& batch) {
  if (offset_syncs_) offset_syncs_->Poll();
  HandleResets(NowMs());
  RecordProgress(NowMs());
  if (!hand_backs_.empty()) HandBack();
  int timeout = std::min(poll_timeout_ms_, batch.timeoutMs());
  // Queued offset syncs leave only as Poll() serves their acks: come back soon while any wait.
  if (offset_syncs_ && offset_syncs_->has_queued()) timeout = std::min(timeout, 5);
  int64_t now = 0;
  for (int n = 0; n < max_poll_records_ && !stopping_; ++n) {
    rd_kafka_message_t* message = rd_kafka_consumer_poll(consumer_.get(), n == 0 ? timeout : 0);
    if (message == nullptr) break;
    if (message->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
      OnEndOfPartition(message);
      rd_kafka_message_destroy(message);
      continue;
    }
    if (message->err) {
      OnConsumerError(message);
      rd_kafka_message_destroy(message);
      continue;
    }
    // Fetched records come in runs per partition: reuse the last lookup (Info() builds a key
    // string per call). The name is compared too: a freed topic handle's address can return.
    const char* topic = rd_kafka_topic_name(message->rkt);
    if (last_polled_ == nullptr || message->partition != last_polled_partition_ ||
        last_polled_->source_topic != topic) {
      last_polled_ = &Info(topic, message->partition);
      last_polled_partition_ = message->partition;
    }
    PartitionInfo& info = *last_polled_;
    if (info.hand_back_at >= 0 && message->offset >= info.hand_back_at) {
      // Records come in order: every record before hand_back_at has come, and the offsets
      // between the last of them and hand_back_at hold none (compacted away, markers). Without
      // this a compacted batch's tail kept the partition from being handed back, and it stalled
      // (issue 49). The worker copies batches from hand_back_at: this record is theirs.
      info.next_offset = std::max(info.next_offset, info.hand_back_at);
      if (!info.unassigned) Unassign(info.source_topic, message->partition);
      info.unassigned = true;
      rd_kafka_message_destroy(message);
      continue;
    }
    if (info.errors && info.errors->active) {
      RecordError(info, message->partition, 0, NowMs());
      Log(CONNECTD_LOG_INFO, std::string("Reading ") + topic + "-" +
                                 std::to_string(message->partition) + " from " + source_alias_ +
                                 " again");
    }
    info.next_offset = message->offset + 1;

    if (now == 0) now = NowMs();
    const double value_bytes = message->payload ? static_cast<double>(message->len) : 0.0;
    info.metrics.bytes.record(value_bytes, now);
    info.metrics.new_bytes.record(value_bytes, now);

    // {"offset":N} or {"offset":N,"topic_id":"<id>"} without printf's machinery (3% of a 100 B
    // copy's CPU, perf).
    char offset_json[128] = "{\"offset\":";
    constexpr size_t kPrefixLength = sizeof("{\"offset\":") - 1;
    char* end = std::to_chars(offset_json + kPrefixLength, offset_json + 32, message->offset).ptr;
    const size_t suffix = std::min(info.offset_suffix.size(),
                                   sizeof(offset_json) - static_cast<size_t>(end - offset_json));
    std::memcpy(end, info.offset_suffix.data(), suffix);
    end += suffix;
    const size_t offset_len = static_cast<size_t>(end - offset_json);
    rd_kafka_timestamp_type_t ts_type;
    int64_t timestamp = rd_kafka_message_timestamp(message, &ts_type);
    if (ts_type != RD_KAFKA_TIMESTAMP_NOT_AVAILABLE && timestamp >= 0) {
      info.metrics.record_age.record(static_cast<double>(now - timestamp), now);
      info.metrics.new_record_age.record(static_cast<double>(now - timestamp), now);
    }
    info.unacked.emplace_back(message->offset,
                              ts_type == RD_KAFKA_TIMESTAMP_NOT_AVAILABLE ? -1 : timestamp);
    connectd_source_record record = sdk::SourceBatch::MakeAbi(
        info.partition_json, std::string_view(offset_json, offset_len), *info.remote_topic,
        message->partition, connectd_bytes{message->key, message->key ? message->key_len : 0},
        connectd_bytes{message->payload, message->payload ? message->len : 0},
        ts_type == RD_KAFKA_TIMESTAMP_NOT_AVAILABLE ? CONNECTD_NO_TIMESTAMP : timestamp);
    rd_kafka_headers_t* headers = nullptr;
    if (rd_kafka_message_headers(message, &headers) == RD_KAFKA_RESP_ERR_NO_ERROR &&
        rd_kafka_header_cnt(headers) > 0) {
      auto* held = new HeldRecord{message, {}};
      const char* name;
      const void* value;
      size_t size;
      for (size_t i = 0; !rd_kafka_header_get_all(headers, i, &name, &value, &size); ++i) {
        held->headers.push_back({{name, std::strlen(name)}, {value, value ? size : 0}});
      }
      record.headers = held->headers.data();
      record.header_count = held->headers.size();
      batch.addZeroCopy(record, &ReleaseHeld, held);
    } else {
      batch.addZeroCopy(record, &ReleaseMessage, message);
    }
  }
}

MirrorSourceTask::PartitionInfo* MirrorSourceTask::AckedPartition(std::string_view remote,
                                                                  int32_t partition) {
  if (last_acked_ != nullptr && partition == last_acked_partition_ &&
      *last_acked_topic_ == remote) {
    return last_acked_;
  }
  auto source = source_topics_.find(remote);
  if (source == source_topics_.end()) return nullptr;
  auto info = partitions_.find({source->second, partition});
  if (info == partitions_.end()) return nullptr;
  last_acked_topic_ = info->second.remote_topic;
  last_acked_partition_ = partition;
  last_acked_ = &info->second;
  return last_acked_;
}

namespace {

// The upstream offset of a record this task made: its source offset is {"offset":N} or
// {"offset":N,"topic_id":"<id>"}. Anything else goes through the full parser.
std::optional<int64_t> UpstreamOffset(std::string_view source_offset) {
  constexpr std::string_view kPrefix = "{\"offset\":";
  if (source_offset.size() > kPrefix.size() + 1 &&
      source_offset.substr(0, kPrefix.size()) == kPrefix && source_offset.back() == '}') {
    int64_t value = 0;
    const char* begin = source_offset.data() + kPrefix.size();
    const char* end = source_offset.data() + source_offset.size();
    auto [ptr, ec] = std::from_chars(begin, end, value);
    if (ec == std::errc() && (*ptr == '}' || *ptr == ',')) return value;
  }
  return ParseSourceOffset(source_offset);
}

}  // namespace

void MirrorSourceTask::commitRecord(const sdk::SourceRecordView& record,
                                    const sdk::RecordMetadata* metadata) {
  // Records an SMT dropped have no metadata. Unlike Java, acks that arrive after stop() still
  // count: the worker's final flush delivers them before the task is destroyed, and their
  // offset syncs are what lets checkpoints translate records copied just before a
  // reconfiguration (the next task life has nothing new to copy, so it would never sync them).
  PartitionInfo* info = AckedPartition(record.topic(), record.partition());
  if (info == nullptr) return;
  std::optional<int64_t> upstream = UpstreamOffset(record.sourceOffset());
  if (upstream) {
    while (!info->unacked.empty() && info->unacked.front().first <= *upstream) {
      info->unacked.pop_front();
    }
  }
  if (metadata == nullptr) return;
  int64_t now = NowMs();
  info->metrics.records.record(1.0, now);
  info->metrics.new_records.record(1.0, now);
  if (record.timestampMs() >= 0) {
    info->metrics.replication_latency.record(static_cast<double>(now - record.timestampMs()), now);
    info->metrics.new_replication_latency.record(static_cast<double>(now - record.timestampMs()),
                                                 now);
  }
  if (!offset_syncs_ || !upstream) return;
  offset_syncs_->Update(info->source_topic, record.partition(), *upstream, metadata->offset);
}

void MirrorSourceTask::commit() {
  if (offset_syncs_) offset_syncs_->PromoteDelayedSyncs();
}

void MirrorSourceTask::stop() { stopping_ = true; }

}  // namespace connectd::mirror
