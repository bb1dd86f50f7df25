#include "connectors/mirror/internal_topic_reader.h"

#include <algorithm>
#include <vector>

namespace connectd::mirror {
namespace {

void ConfigureReader(rd_kafka_conf_t* conf, void*) {
  char err[256];
  // End-of-partition events complete the first read-to-end when the last offsets before the
  // high watermark hold no record (transaction markers).
  rd_kafka_conf_set(conf, "enable.partition.eof", "true", err, sizeof(err));
}

}  // namespace

std::unique_ptr<InternalTopicReader> InternalTopicReader::Make(const Props& consumer_props,
                                                               Options options,
                                                               std::string* error) {
  Props props = consumer_props;
  props["enable.auto.commit"] = "false";
  props["auto.offset.reset"] = "earliest";
  // assign() needs no group, but librdkafka's consumer wants a group.id; it is never joined.
  props.emplace("group.id", "connectd-mirror-internal-topic-reader");
  KafkaHandle consumer = MakeClient(RD_KAFKA_CONSUMER, props, error, &ConfigureReader);
  if (!consumer) return nullptr;
  rd_kafka_poll_set_consumer(consumer.get());
  return std::unique_ptr<InternalTopicReader>(
      new InternalTopicReader(std::move(consumer), std::move(options)));
}

InternalTopicReader::InternalTopicReader(KafkaHandle consumer, Options options)
    : consumer_(std::move(consumer)), options_(std::move(options)) {}

InternalTopicReader::~InternalTopicReader() { Stop(); }

void InternalTopicReader::Start(RecordHandler on_record, std::function<void()> on_read_to_end) {
  {
    std::lock_guard lock(mu_);
    if (thread_.joinable() || stopping_) return;
  }
  on_record_ = std::move(on_record);
  on_read_to_end_ = std::move(on_read_to_end);
  thread_ = std::thread([this] { Run(); });
}

void InternalTopicReader::Stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  if (consumer_) {
    rd_kafka_consumer_close(consumer_.get());
    consumer_.reset();
  }
}

bool InternalTopicReader::WaitForReadToEnd(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mu_);
  cv_.wait_for(lock, timeout, [this] { return stopping_ || read_to_end_.load(); });
  return read_to_end_.load();
}

bool InternalTopicReader::SleepOrStop(std::chrono::milliseconds d) {
  std::unique_lock lock(mu_);
  return cv_.wait_for(lock, d, [this] { return stopping_; });
}

bool InternalTopicReader::stopping() const {
  std::lock_guard lock(mu_);
  return stopping_;
}

void InternalTopicReader::CompleteReadToEnd(int64_t position) {
  if (on_read_to_end_) on_read_to_end_();
  {
    std::lock_guard lock(mu_);
    read_to_end_ = true;
  }
  cv_.notify_all();
  sdk::Log(CONNECTD_LOG_INFO, options_.logger,
           "Read " + options_.description + " " + options_.topic + " to its end (offset " +
               std::to_string(position) + ")");
}

void InternalTopicReader::Run() {
  rd_kafka_t* rk = consumer_.get();
  const std::string& topic = options_.topic;
  // The end of the initial read: the high watermark when reading begins.
  int64_t low = 0, high = 0;
  for (int attempt = 0;; ++attempt) {
    rd_kafka_resp_err_t err =
        rd_kafka_query_watermark_offsets(rk, topic.c_str(), 0, &low, &high, 500);
    if (!err) break;
    if (attempt % 60 == 0) {
      sdk::Log(options_.missing_topic_log_level, options_.logger,
               "Cannot read the end offset of " + options_.description + " " + topic + " (" +
                   rd_kafka_err2str(err) + "); asking again every second");
    }
    if (SleepOrStop(std::chrono::milliseconds(1000))) return;
  }
  rd_kafka_topic_partition_list_t* assignment = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(assignment, topic.c_str(), 0)->offset =
      RD_KAFKA_OFFSET_BEGINNING;
  rd_kafka_resp_err_t err = rd_kafka_assign(rk, assignment);
  rd_kafka_topic_partition_list_destroy(assignment);
  if (err) {
    sdk::Log(CONNECTD_LOG_ERROR, options_.logger,
             "Cannot assign " + options_.description + " " + topic + ": " + rd_kafka_err2str(err));
    return;
  }
  if (high <= low) CompleteReadToEnd(high);

  rd_kafka_queue_t* queue = rd_kafka_queue_get_consumer(rk);
  std::vector<rd_kafka_message_t*> messages(1000);
  int64_t position = 0;
  int64_t skipped = 0;
  auto last_error_log = std::chrono::steady_clock::time_point();
  while (!stopping()) {
    ssize_t n = rd_kafka_consume_batch_queue(queue, 200, messages.data(), messages.size());
    if (n <= 0) continue;
    bool reached_end = false;
    for (ssize_t i = 0; i < n; ++i) {
      const rd_kafka_message_t* m = messages[i];
      if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
        reached_end = true;
        position = std::max(position, m->offset);
      } else if (m->err) {
        auto now = std::chrono::steady_clock::now();
        if (now - last_error_log > std::chrono::seconds(30)) {
          last_error_log = now;
          sdk::Log(CONNECTD_LOG_WARN, options_.logger,
                   "Error reading " + options_.description + " " + topic + ": " +
                       rd_kafka_message_errstr(m));
        }
      } else {
        position = m->offset + 1;
        std::string_view key(static_cast<const char*>(m->key), m->key_len);
        std::string_view value(static_cast<const char*>(m->payload), m->len);
        if (!on_record_(key, value)) ++skipped;
      }
    }
    for (ssize_t i = 0; i < n; ++i) rd_kafka_message_destroy(messages[i]);
    if (skipped > 0) {
      sdk::Log(CONNECTD_LOG_WARN, options_.logger,
               "Skipped " + std::to_string(skipped) + " undecodable records in " + topic);
      skipped = 0;
    }
    if (!read_to_end_.load() && (reached_end || position >= high)) CompleteReadToEnd(position);
  }
  rd_kafka_queue_destroy(queue);
}

}  // namespace connectd::mirror
