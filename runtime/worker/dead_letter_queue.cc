#include "runtime/worker/dead_letter_queue.h"

#include "absl/strings/str_cat.h"
#include "runtime/common/logging.h"

namespace connectd::worker {
namespace {

constexpr char kLogger[] = "org.apache.kafka.connect.runtime.errors.DeadLetterQueueReporter";
constexpr int kCreateTimeoutMs = 30000;

struct QueueDeleter {
  void operator()(rd_kafka_queue_t* q) const { rd_kafka_queue_destroy(q); }
};
struct EventDeleter {
  void operator()(rd_kafka_event_t* e) const { rd_kafka_event_destroy(e); }
};

// Creates `topic` unless it exists (TopicExistsException is not an error, as in Java).
absl::Status EnsureTopic(rd_kafka_t* client, const std::string& topic, int16_t replication) {
  char err[512];
  rd_kafka_NewTopic_t* spec = rd_kafka_NewTopic_new(topic.c_str(), 1, replication, err, sizeof err);
  if (spec == nullptr) return absl::InvalidArgumentError(err);
  std::unique_ptr<rd_kafka_queue_t, QueueDeleter> queue(rd_kafka_queue_new(client));
  rd_kafka_CreateTopics(client, &spec, 1, nullptr, queue.get());
  rd_kafka_NewTopic_destroy(spec);
  std::unique_ptr<rd_kafka_event_t, EventDeleter> event(
      rd_kafka_queue_poll(queue.get(), kCreateTimeoutMs));
  if (!event) return absl::DeadlineExceededError("creating the dead letter queue topic " + topic);
  if (rd_kafka_event_error(event.get())) {
    return kafka::ToStatus(rd_kafka_event_error(event.get()), "creating topic " + topic);
  }
  size_t n = 0;
  const rd_kafka_topic_result_t** results =
      rd_kafka_CreateTopics_result_topics(rd_kafka_event_CreateTopics_result(event.get()), &n);
  for (size_t i = 0; i < n; ++i) {
    const rd_kafka_resp_err_t e = rd_kafka_topic_result_error(results[i]);
    if (e == RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS) return absl::OkStatus();
    if (e) {
      return kafka::ToStatus(e, absl::StrCat("creating topic ", topic, ": ",
                                             rd_kafka_topic_result_error_string(results[i])));
    }
  }
  CONNECTD_LOG(kInfo, kLogger) << "Created dead letter queue topic " << topic;
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::unique_ptr<DeadLetterQueueReporter>> DeadLetterQueueReporter::Make(
    const ErrorHandlingConfig& errors, herder::ConnectorTaskId id,
    const std::map<std::string, std::string>& producer_config) {
  absl::StatusOr<kafka::ConfPtr> conf = kafka::MakeConf(producer_config);
  if (!conf.ok()) return conf.status();
  rd_kafka_conf_set_dr_msg_cb(conf->get(), &DeadLetterQueueReporter::OnDelivery);
  absl::StatusOr<kafka::RdKafkaPtr> producer =
      kafka::MakeClient(RD_KAFKA_PRODUCER, *std::move(conf));
  if (!producer.ok()) return producer.status();
  if (absl::Status created =
          EnsureTopic(producer->get(), errors.dlq_topic, errors.dlq_replication_factor);
      !created.ok()) {
    return absl::Status(created.code(),
                        absl::StrCat("Could not initialize dead letter queue with topic=",
                                     errors.dlq_topic, ": ", created.message()));
  }
  std::unique_ptr<DeadLetterQueueReporter> reporter(
      new DeadLetterQueueReporter(errors, std::move(id), *std::move(producer)));
  return reporter;
}

DeadLetterQueueReporter::DeadLetterQueueReporter(ErrorHandlingConfig errors,
                                                 herder::ConnectorTaskId id,
                                                 kafka::RdKafkaPtr producer)
    : errors_(std::move(errors)), id_(std::move(id)), producer_(std::move(producer)) {}

DeadLetterQueueReporter::~DeadLetterQueueReporter() {
  if (producer_) rd_kafka_flush(producer_.get(), 5000);
}

void DeadLetterQueueReporter::OnDelivery(rd_kafka_t*, const rd_kafka_message_t* message, void*) {
  if (message->err == RD_KAFKA_RESP_ERR_NO_ERROR) return;
  auto* reporter = static_cast<DeadLetterQueueReporter*>(message->_private);
  if (reporter != nullptr) reporter->CountFailure();
  CONNECTD_LOG(kError, kLogger) << "Could not produce message to dead letter queue. topic="
                                << rd_kafka_topic_name(message->rkt) << ": "
                                << rd_kafka_err2str(message->err);
}

void DeadLetterQueueReporter::CountFailure() {
  ++produce_failures_;
  if (metrics_ != nullptr) metrics_->RecordDeadLetterQueueProduceFailed();
}

void DeadLetterQueueReporter::Report(const KafkaRecord& original, int64_t offset,
                                     const ProcessingError& error) {
  ++produce_requests_;
  if (metrics_ != nullptr) metrics_->RecordDeadLetterQueueProduceRequest();
  rd_kafka_headers_t* headers = rd_kafka_headers_new(original.headers.size() + 10);
  for (const auto& [k, v] : original.headers) {
    rd_kafka_header_add(headers, k.data(), static_cast<ssize_t>(k.size()), v ? v->data() : nullptr,
                        v ? static_cast<ssize_t>(v->size()) : 0);
  }
  if (errors_.dlq_context_headers) {
    const auto add = [&](const char* name, const std::string& value) {
      rd_kafka_header_add(headers, name, -1, value.data(), static_cast<ssize_t>(value.size()));
    };
    add("__connect.errors.topic", original.topic);
    add("__connect.errors.partition", std::to_string(original.partition.value_or(-1)));
    add("__connect.errors.offset", std::to_string(offset));
    add("__connect.errors.connector.name", id_.connector);
    add("__connect.errors.task.id", std::to_string(id_.task));
    add("__connect.errors.stage", std::string(StageName(error.stage)));
    add("__connect.errors.class.name", error.executing_class);
    add("__connect.errors.exception.class.name", error.exception_class);
    add("__connect.errors.exception.message", error.message);
    // Java writes the exception's stack trace; its first line is the same.
    add("__connect.errors.exception.stacktrace",
        absl::StrCat(error.exception_class, ": ", error.message, "\n"));
  }
  const void* key_data = original.key ? original.key->data() : nullptr;
  const size_t key_size = original.key ? original.key->size() : 0;
  void* value_data = original.value ? const_cast<char*>(original.value->data()) : nullptr;
  const size_t value_size = original.value ? original.value->size() : 0;
  const rd_kafka_resp_err_t err = rd_kafka_producev(
      producer_.get(), RD_KAFKA_V_TOPIC(errors_.dlq_topic.c_str()),
      RD_KAFKA_V_KEY(key_data, key_size), RD_KAFKA_V_VALUE(value_data, value_size),
      RD_KAFKA_V_TIMESTAMP(original.timestamp_ms < 0 ? 0 : original.timestamp_ms),
      RD_KAFKA_V_HEADERS(headers), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
      RD_KAFKA_V_OPAQUE(this), RD_KAFKA_V_END);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    rd_kafka_headers_destroy(headers);
    CountFailure();
    CONNECTD_LOG(kError, kLogger) << "Could not produce message to dead letter queue. topic="
                                  << errors_.dlq_topic << ": " << rd_kafka_err2str(err);
  }
}

bool DeadLetterQueueReporter::Flush(std::chrono::milliseconds timeout) {
  return rd_kafka_flush(producer_.get(), static_cast<int>(timeout.count())) ==
         RD_KAFKA_RESP_ERR_NO_ERROR;
}

}  // namespace connectd::worker
