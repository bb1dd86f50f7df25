#include "runtime/mirror_maker/health/heartbeat_leg.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "connectors/mirror_client/records.h"
#include "runtime/kafka/client_config.h"

namespace connectd::health {
namespace {

// Records read back from the end at start: enough to find a flow's newest heartbeat in a
// compacted topic shared by many flows.
constexpr int64_t kTailRecords = 2000;
constexpr int64_t kHistoryMs = 5 * 60 * 1000;

}  // namespace

HeartbeatLeg::HeartbeatLeg(LegSpec spec, int64_t now_ms) : spec_(std::move(spec)) {
  facts_.cluster = spec_.cluster;
  facts_.topic = spec_.topic;
  jvm::TranslatedConfig translated =
      jvm::TranslateJavaClientConfig(spec_.java_client_props, jvm::ClientRole::kConsumer);
  if (!translated.errors.empty()) {
    std::string message = "the flow's client settings cannot be honoured:";
    for (const std::string& e : translated.errors) message += " " + e + ";";
    message.pop_back();
    facts_.error = ClientError{message, now_ms};
    return;
  }
  std::map<std::string, std::string> props = std::move(translated.properties);
  props["group.id"] = "connectd-flow-health";  // never joined: assign() only
  props["enable.auto.commit"] = "false";
  props["enable.auto.offset.store"] = "false";
  props["enable.partition.eof"] = "true";
  props["auto.offset.reset"] = "earliest";
  props["topic.metadata.refresh.interval.ms"] = "5000";
  props["reconnect.backoff.max.ms"] = "2000";
  props["client.id"] = props.count("client.id") ? props["client.id"] + "|flow-health"
                                                : std::string("connectd-flow-health");
  std::vector<std::string> warnings;
  absl::StatusOr<kafka::ConfPtr> conf = kafka::MakeConfWithWarnings(props, warnings);
  if (!conf.ok()) {
    facts_.error = ClientError{std::string(conf.status().message()), now_ms};
    return;
  }
  rd_kafka_conf_set_error_cb(conf->get(), &HeartbeatLeg::OnError);
  rd_kafka_conf_set_opaque(conf->get(), this);
  absl::StatusOr<kafka::RdKafkaPtr> consumer =
      kafka::MakeClient(RD_KAFKA_CONSUMER, *std::move(conf));
  if (!consumer.ok()) {
    facts_.error = ClientError{std::string(consumer.status().message()), now_ms};
    return;
  }
  consumer_ = *std::move(consumer);
  rd_kafka_poll_set_consumer(consumer_.get());
  kafka::TopicPartitionListPtr assignment(rd_kafka_topic_partition_list_new(1));
  rd_kafka_topic_partition_list_add(assignment.get(), spec_.topic.c_str(), 0)->offset =
      RD_KAFKA_OFFSET_TAIL(kTailRecords);
  if (rd_kafka_resp_err_t err = rd_kafka_assign(consumer_.get(), assignment.get())) {
    facts_.error = ClientError{absl::StrCat("assign: ", rd_kafka_err2str(err)), now_ms};
    consumer_.reset();
    return;
  }
  facts_.watching_since_ms = now_ms;
}

HeartbeatLeg::~HeartbeatLeg() {
  if (consumer_) rd_kafka_consumer_close(consumer_.get());
}

void HeartbeatLeg::OnError(rd_kafka_t*, int err, const char* reason, void* opaque) {
  auto* self = static_cast<HeartbeatLeg*>(opaque);
  self->pending_error_ =
      absl::StrCat(rd_kafka_err2name(static_cast<rd_kafka_resp_err_t>(err)), ": ", reason);
  self->has_pending_error_ = true;
  if (err == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN) self->pending_all_down_ = true;
}

void HeartbeatLeg::Poll(int64_t now_ms, int64_t skew_tolerance_ms) {
  if (!consumer_) return;
  for (int i = 0; i < 10000; ++i) {
    kafka::MessagePtr message(rd_kafka_consumer_poll(consumer_.get(), 0));
    if (has_pending_error_) {
      facts_.error = ClientError{pending_error_, now_ms};
      has_pending_error_ = false;
    }
    if (pending_all_down_) {
      facts_.all_brokers_down = true;
      pending_all_down_ = false;
    }
    if (!message) break;
    if (message->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
      caught_up_ = true;
      facts_.error.reset();  // the partition answers
      facts_.all_brokers_down = false;
      continue;
    }
    if (message->err) {
      facts_.error = ClientError{absl::StrCat(rd_kafka_err2name(message->err), ": ",
                                              rd_kafka_message_errstr(message.get())),
                                 now_ms};
      continue;
    }
    facts_.error.reset();
    facts_.all_brokers_down = false;
    OnMessage(*message, now_ms, skew_tolerance_ms);
  }
  while (!facts_.latency_history.empty() &&
         now_ms - facts_.latency_history.front().first > kHistoryMs) {
    facts_.latency_history.erase(facts_.latency_history.begin());
  }
}

void HeartbeatLeg::OnMessage(const rd_kafka_message_t& message, int64_t now_ms,
                             int64_t skew_tolerance_ms) {
  std::string_view key(static_cast<const char*>(message.key), message.key ? message.key_len : 0);
  std::string_view value(static_cast<const char*>(message.payload),
                         message.payload ? message.len : 0);
  std::optional<mirror::Heartbeat> heartbeat = mirror::DecodeHeartbeat(key, value);
  if (!heartbeat) return;
  if (spec_.key && (heartbeat->source_cluster_alias != spec_.key->first ||
                    heartbeat->target_cluster_alias != spec_.key->second)) {
    return;
  }
  const int64_t timestamp = heartbeat->timestamp_ms;
  if (!caught_up_) {
    // History: it arrived about when it was emitted (never later than now).
    int64_t arrival = std::min(timestamp, now_ms);
    if (!facts_.last_arrival_ms || arrival >= *facts_.last_arrival_ms) {
      facts_.last_arrival_ms = arrival;
      facts_.newest_timestamp_ms = timestamp;
    }
    return;
  }
  facts_.last_arrival_ms = now_ms;
  facts_.newest_timestamp_ms = timestamp;
  facts_.latency_ms = now_ms - timestamp;
  facts_.latency_history.emplace_back(now_ms, now_ms - timestamp);
  if (timestamp - now_ms > skew_tolerance_ms) {
    facts_.skew_seen_ms = now_ms;
    facts_.skew_ms = timestamp - now_ms;
  }
}

}  // namespace connectd::health
