#include "connectors/mirror/mirror_heartbeat_connector.h"

#include "connectors/mirror/mirror_config.h"
#include "connectors/mirror_client/records.h"
#include "connectors/mirror_client/replication_policy.h"

namespace connectd::mirror {
namespace {

constexpr char kLogger[] = "org.apache.kafka.connect.mirror.MirrorHeartbeatConnector";

bool OnSource(const sdk::Props& props) {
  return GetString(props, "heartbeats.topic.location", "source") != "target";
}

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void OnHeartbeatDelivery(rd_kafka_t*, const rd_kafka_message_t* message, void*) {
  if (message->err) {
    sdk::Log(CONNECTD_LOG_WARN, kLogger,
             std::string("Heartbeat not delivered: ") + rd_kafka_err2str(message->err));
  }
}

void ConfigureHeartbeatProducer(rd_kafka_conf_t* conf, void*) {
  rd_kafka_conf_set_dr_msg_cb(conf, &OnHeartbeatDelivery);
  char err[256];
  // A heartbeat older than a few intervals is worthless; do not queue them for minutes.
  rd_kafka_conf_set(conf, "message.timeout.ms", "30000", err, sizeof(err));
}

}  // namespace

sdk::ConfigDef MirrorHeartbeatConnector::configDef() { return MirrorHeartbeatConfigDef(); }

void MirrorHeartbeatConnector::start(const sdk::Props& props) {
  props_ = props;
  std::string error;
  std::unique_ptr<ReplicationPolicy> policy = MakeReplicationPolicy(props, &error);
  if (!policy) throw sdk::ConfigException(error);
  std::string side = OnSource(props) ? "source" : "target";
  KafkaHandle admin =
      MakeClient(RD_KAFKA_PRODUCER,
                 ClientProps(props, side, "admin", "heartbeats-" + side + "-admin"), &error);
  if (!admin) throw sdk::ConnectException("cannot create the " + side + " admin client: " + error);
  NewTopic spec{policy->HeartbeatsTopic(),
                1,
                static_cast<int>(GetLong(props, "heartbeats.topic.replication.factor", 3)),
                {{"cleanup.policy", "compact"}}};
  for (const auto& [topic, message] : CreateTopics(
           admin.get(), {spec}, static_cast<int>(GetLong(props, "admin.timeout.ms", 60000)))) {
    sdk::Log(CONNECTD_LOG_WARN, kLogger,
             "Could not create " + topic + " on the " + side + " cluster: " + message.message);
  }
}

std::vector<sdk::Props> MirrorHeartbeatConnector::taskConfigs(int /*max_tasks*/) {
  // Java: no task when emitHeartbeatsInterval() is negative, i.e. emission disabled or a
  // negative emit.heartbeats.interval.seconds.
  if (!GetBool(props_, "emit.heartbeats.enabled", true) ||
      GetLong(props_, "emit.heartbeats.interval.seconds", 1) < 0) {
    return {};
  }
  return {props_};  // always exactly one task, with the connector config (Java's originals)
}

bool MirrorHeartbeatConnector::alterOffsets(const sdk::Props&,
                                            const std::vector<sdk::OffsetChange>& changes) {
  // Kafka: heartbeat offsets are meaningless; only {"offset":0} or null is accepted.
  for (const sdk::OffsetChange& change : changes) {
    if (change.offset && ParseSourceOffset(*change.offset) != std::optional<int64_t>(0)) {
      throw sdk::ConnectException("Offset for MirrorHeartbeatConnector must be {\"offset\":0}",
                                  CONNECTD_STATUS_INVALID_ARGUMENT);
    }
  }
  return true;
}

MirrorHeartbeatTask::~MirrorHeartbeatTask() {
  if (producer_) rd_kafka_flush(producer_.get(), 2000);
}

void MirrorHeartbeatTask::start(const sdk::Props& props) {
  source_alias_ = GetString(props, "source.cluster.alias", "source");
  target_alias_ = GetString(props, "target.cluster.alias", "target");
  std::string error;
  std::unique_ptr<ReplicationPolicy> policy = MakeReplicationPolicy(props, &error);
  if (!policy) throw sdk::ConfigException(error);
  topic_ = policy->HeartbeatsTopic();
  partition_json_ = HeartbeatPartitionJson(source_alias_, target_alias_);
  interval_ = std::chrono::milliseconds(
      std::max<int64_t>(1, GetLong(props, "emit.heartbeats.interval.seconds", 1)) * 1000);
  on_source_ = OnSource(props);
  if (on_source_) {
    producer_ = MakeClient(RD_KAFKA_PRODUCER,
                           ClientProps(props, "source", "producer", "heartbeats-source-producer"),
                           &error, &ConfigureHeartbeatProducer);
    if (!producer_) throw sdk::ConnectException("cannot create the heartbeat producer: " + error);
  }
  next_ = std::chrono::steady_clock::now();
}

void MirrorHeartbeatTask::poll(sdk::SourceBatch& batch) {
  if (producer_) rd_kafka_poll(producer_.get(), 0);
  {
    std::unique_lock lock(mu_);
    auto wait =
        std::min(next_ - std::chrono::steady_clock::now(),
                 std::chrono::steady_clock::duration(std::chrono::milliseconds(batch.timeoutMs())));
    if (cv_.wait_for(lock, wait, [this] { return stopping_; })) return;
  }
  if (std::chrono::steady_clock::now() < next_) return;
  next_ += interval_;
  if (next_ < std::chrono::steady_clock::now())
    next_ = std::chrono::steady_clock::now() + interval_;

  Heartbeat heartbeat{source_alias_, target_alias_, NowMs()};
  std::string key = EncodeHeartbeatKey(heartbeat);
  std::string value = EncodeHeartbeatValue(heartbeat);
  if (on_source_) {
    rd_kafka_resp_err_t err = rd_kafka_producev(
        producer_.get(), RD_KAFKA_V_TOPIC(topic_.c_str()), RD_KAFKA_V_PARTITION(0),
        RD_KAFKA_V_KEY(key.data(), key.size()), RD_KAFKA_V_VALUE(value.data(), value.size()),
        RD_KAFKA_V_TIMESTAMP(heartbeat.timestamp_ms), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
        RD_KAFKA_V_END);
    if (err) {
      sdk::Log(CONNECTD_LOG_WARN, kLogger,
               std::string("Heartbeat not sent: ") + rd_kafka_err2str(err));
    }
    return;
  }
  sdk::SourceRecord record;
  record.source_partition = partition_json_;
  record.source_offset = SourceOffsetJson(0);
  record.topic = topic_;
  record.partition = 0;
  record.key = std::move(key);
  record.value = std::move(value);
  record.timestamp_ms = heartbeat.timestamp_ms;
  batch.add(record);
}

void MirrorHeartbeatTask::stop() {
  std::lock_guard lock(mu_);
  stopping_ = true;
  cv_.notify_all();
}

}  // namespace connectd::mirror
