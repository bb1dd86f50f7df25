#include "tests/common/kafka_test_clients.h"

#include <atomic>
#include <functional>

#include "absl/strings/str_cat.h"
#include "runtime/common/status_macros.h"
#include "runtime/kafka/rdkafka_handles.h"

namespace connectd::testing {
namespace {

using kafka::ConfPtr;
using kafka::MakeClient;
using kafka::MakeConf;
using kafka::RdKafkaPtr;

struct AdminResultDeleter {
  void operator()(rd_kafka_event_t* event) const { rd_kafka_event_destroy(event); }
};

// Counts delivery reports; the opaque of the producer points at it.
struct DeliveryTally {
  std::atomic<size_t> acknowledged{0};
  std::atomic<size_t> failed{0};
  std::string first_error;
};

void OnDelivery(rd_kafka_t*, const rd_kafka_message_t* message, void* opaque) {
  auto* tally = static_cast<DeliveryTally*>(opaque);
  if (message->err) {
    if (tally->failed.fetch_add(1) == 0) tally->first_error = rd_kafka_err2str(message->err);
  } else {
    tally->acknowledged.fetch_add(1);
  }
}

TestRecord ToTestRecord(const rd_kafka_message_t* message) {
  TestRecord record;
  if (message->key) record.key.assign(static_cast<const char*>(message->key), message->key_len);
  if (message->payload) {
    record.value.assign(static_cast<const char*>(message->payload), message->len);
  }
  rd_kafka_headers_t* headers = nullptr;
  if (rd_kafka_message_headers(message, &headers) == RD_KAFKA_RESP_ERR_NO_ERROR) {
    const char* name;
    const void* value;
    size_t size;
    for (size_t i = 0; !rd_kafka_header_get_all(headers, i, &name, &value, &size); ++i) {
      record.headers.emplace_back(name, std::string(static_cast<const char*>(value), size));
    }
  }
  record.partition = message->partition;
  record.timestamp_ms = rd_kafka_message_timestamp(message, nullptr);
  record.offset = message->offset;
  return record;
}

// Runs one topic Admin API call (`issue` puts it on the queue) and waits for its result: the
// call's error, else the first topic's error (`results` reads them from the event).
absl::Status RunTopicAdmin(
    const std::string& bootstrap, const char* call, const std::string& what,
    const std::function<void(rd_kafka_t*, rd_kafka_AdminOptions_t*, rd_kafka_queue_t*)>& issue,
    const std::function<const rd_kafka_topic_result_t**(rd_kafka_event_t*, size_t*)>& results) {
  CONNECTD_ASSIGN_OR_RETURN(ConfPtr conf, MakeConf({{"bootstrap.servers", bootstrap}}));
  CONNECTD_ASSIGN_OR_RETURN(RdKafkaPtr admin, MakeClient(RD_KAFKA_PRODUCER, std::move(conf)));
  char errstr[512];
  rd_kafka_queue_t* queue = rd_kafka_queue_new(admin.get());
  rd_kafka_AdminOptions_t* options = rd_kafka_AdminOptions_new(admin.get(), RD_KAFKA_ADMIN_OP_ANY);
  rd_kafka_AdminOptions_set_operation_timeout(options, 30000, errstr, sizeof(errstr));
  issue(admin.get(), options, queue);
  std::unique_ptr<rd_kafka_event_t, AdminResultDeleter> event(rd_kafka_queue_poll(queue, 60000));
  rd_kafka_AdminOptions_destroy(options);
  rd_kafka_queue_destroy(queue);
  if (!event) return absl::DeadlineExceededError(absl::StrCat(call, " got no answer in 60 s"));
  if (rd_kafka_event_error(event.get())) {
    return kafka::ToStatus(rd_kafka_event_error(event.get()), call);
  }
  size_t count = 0;
  const rd_kafka_topic_result_t** topics = results(event.get(), &count);
  for (size_t i = 0; i < count; ++i) {
    CONNECTD_RETURN_IF_ERROR(kafka::ToStatus(rd_kafka_topic_result_error(topics[i]), what));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CreateTopic(const std::string& bootstrap, const std::string& topic, int partitions,
                         const std::map<std::string, std::string>& configs) {
  char errstr[512];
  rd_kafka_NewTopic_t* new_topic =
      rd_kafka_NewTopic_new(topic.c_str(), partitions, 1, errstr, sizeof(errstr));
  if (new_topic == nullptr) return absl::InvalidArgumentError(errstr);
  for (const auto& [key, value] : configs) {
    rd_kafka_NewTopic_set_config(new_topic, key.c_str(), value.c_str());
  }
  absl::Status status = RunTopicAdmin(
      bootstrap, "CreateTopics", "creating topic " + topic,
      [&](rd_kafka_t* admin, rd_kafka_AdminOptions_t* options, rd_kafka_queue_t* queue) {
        rd_kafka_CreateTopics(admin, &new_topic, 1, options, queue);
      },
      [](rd_kafka_event_t* event, size_t* count) {
        return rd_kafka_CreateTopics_result_topics(rd_kafka_event_CreateTopics_result(event),
                                                   count);
      });
  rd_kafka_NewTopic_destroy(new_topic);
  return status;
}

absl::Status DeleteTopic(const std::string& bootstrap, const std::string& topic) {
  rd_kafka_DeleteTopic_t* deleted = rd_kafka_DeleteTopic_new(topic.c_str());
  absl::Status status = RunTopicAdmin(
      bootstrap, "DeleteTopics", "deleting topic " + topic,
      [&](rd_kafka_t* admin, rd_kafka_AdminOptions_t* options, rd_kafka_queue_t* queue) {
        rd_kafka_DeleteTopics(admin, &deleted, 1, options, queue);
      },
      [](rd_kafka_event_t* event, size_t* count) {
        return rd_kafka_DeleteTopics_result_topics(rd_kafka_event_DeleteTopics_result(event),
                                                   count);
      });
  rd_kafka_DeleteTopic_destroy(deleted);
  return status;
}

absl::Status ProduceRecords(const std::string& bootstrap, const std::string& topic,
                            const std::vector<TestRecord>& records) {
  DeliveryTally tally;
  CONNECTD_ASSIGN_OR_RETURN(ConfPtr conf, MakeConf({{"bootstrap.servers", bootstrap},
                                                    {"acks", "all"},
                                                    {"enable.idempotence", "true"},
                                                    {"linger.ms", "5"},
                                                    // Java's max.request.size
                                                    {"message.max.bytes", "1048576"}}));
  rd_kafka_conf_set_dr_msg_cb(conf.get(), OnDelivery);
  rd_kafka_conf_set_opaque(conf.get(), &tally);
  CONNECTD_ASSIGN_OR_RETURN(RdKafkaPtr producer, MakeClient(RD_KAFKA_PRODUCER, std::move(conf)));
  for (const TestRecord& record : records) {
    rd_kafka_headers_t* headers = rd_kafka_headers_new(record.headers.size());
    for (const auto& [name, value] : record.headers) {
      rd_kafka_header_add(headers, name.data(), static_cast<ssize_t>(name.size()), value.data(),
                          static_cast<ssize_t>(value.size()));
    }
    rd_kafka_resp_err_t err = rd_kafka_producev(
        producer.get(), RD_KAFKA_V_TOPIC(topic.c_str()), RD_KAFKA_V_PARTITION(record.partition),
        RD_KAFKA_V_KEY(record.key.data(), record.key.size()),
        RD_KAFKA_V_VALUE(const_cast<char*>(record.value.data()), record.value.size()),
        RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_TIMESTAMP(record.timestamp_ms),
        RD_KAFKA_V_HEADERS(headers), RD_KAFKA_V_END);
    if (err) {
      rd_kafka_headers_destroy(headers);
      return kafka::ToStatus(err, "produce");
    }
  }
  CONNECTD_RETURN_IF_ERROR(kafka::ToStatus(rd_kafka_flush(producer.get(), 60000), "flush"));
  if (tally.failed > 0) {
    return absl::UnavailableError(
        absl::StrCat(tally.failed.load(), " records failed: ", tally.first_error));
  }
  if (tally.acknowledged != records.size()) {
    return absl::InternalError(
        absl::StrCat("acknowledged ", tally.acknowledged.load(), " of ", records.size()));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<TestRecord>> ConsumeRecords(const std::string& bootstrap,
                                                       const std::string& topic,
                                                       const std::string& group, size_t count,
                                                       std::chrono::milliseconds timeout) {
  CONNECTD_ASSIGN_OR_RETURN(ConfPtr conf, MakeConf({{"bootstrap.servers", bootstrap},
                                                    {"group.id", group},
                                                    {"auto.offset.reset", "earliest"},
                                                    {"enable.auto.commit", "false"}}));
  CONNECTD_ASSIGN_OR_RETURN(RdKafkaPtr consumer, MakeClient(RD_KAFKA_CONSUMER, std::move(conf)));
  rd_kafka_poll_set_consumer(consumer.get());
  kafka::TopicPartitionListPtr subscription(rd_kafka_topic_partition_list_new(1));
  rd_kafka_topic_partition_list_add(subscription.get(), topic.c_str(), RD_KAFKA_PARTITION_UA);
  CONNECTD_RETURN_IF_ERROR(
      kafka::ToStatus(rd_kafka_subscribe(consumer.get(), subscription.get()), "subscribe"));

  std::vector<TestRecord> records;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (records.size() < count && std::chrono::steady_clock::now() < deadline) {
    kafka::MessagePtr message(rd_kafka_consumer_poll(consumer.get(), 200));
    if (!message) continue;
    if (message->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) continue;
    if (message->err) {
      rd_kafka_consumer_close(consumer.get());
      return kafka::ToStatus(message->err, "consume");
    }
    records.push_back(ToTestRecord(message.get()));
  }
  absl::Status committed = kafka::ToStatus(rd_kafka_commit(consumer.get(), nullptr, 0), "commit");
  rd_kafka_consumer_close(consumer.get());
  if (records.size() < count) {
    return absl::DeadlineExceededError(
        absl::StrCat("consumed ", records.size(), " of ", count, " records from ", topic));
  }
  CONNECTD_RETURN_IF_ERROR(committed);
  return records;
}

absl::StatusOr<int64_t> CommittedOffset(const std::string& bootstrap, const std::string& group,
                                        const std::string& topic, int32_t partition) {
  CONNECTD_ASSIGN_OR_RETURN(ConfPtr conf,
                            MakeConf({{"bootstrap.servers", bootstrap}, {"group.id", group}}));
  CONNECTD_ASSIGN_OR_RETURN(RdKafkaPtr consumer, MakeClient(RD_KAFKA_CONSUMER, std::move(conf)));
  kafka::TopicPartitionListPtr partitions(rd_kafka_topic_partition_list_new(1));
  rd_kafka_topic_partition_list_add(partitions.get(), topic.c_str(), partition);
  CONNECTD_RETURN_IF_ERROR(kafka::ToStatus(
      rd_kafka_committed(consumer.get(), partitions.get(), 30000), "committed offsets"));
  CONNECTD_RETURN_IF_ERROR(kafka::ToStatus(partitions->elems[0].err, "committed offset"));
  int64_t offset = partitions->elems[0].offset;
  rd_kafka_consumer_close(consumer.get());
  return offset;
}

}  // namespace connectd::testing

namespace connectd::testing {

absl::StatusOr<std::vector<TestRecord>> ReadTopic(const std::string& bootstrap,
                                                  const std::string& topic, size_t count,
                                                  std::chrono::milliseconds timeout) {
  CONNECTD_ASSIGN_OR_RETURN(ConfPtr conf, MakeConf({{"bootstrap.servers", bootstrap},
                                                    {"group.id", "unused-assign-only"},
                                                    {"enable.auto.commit", "false"}}));
  CONNECTD_ASSIGN_OR_RETURN(RdKafkaPtr consumer, MakeClient(RD_KAFKA_CONSUMER, std::move(conf)));
  rd_kafka_poll_set_consumer(consumer.get());
  const rd_kafka_metadata_t* metadata = nullptr;
  rd_kafka_topic_t* rkt = rd_kafka_topic_new(consumer.get(), topic.c_str(), nullptr);
  rd_kafka_resp_err_t err = rd_kafka_metadata(consumer.get(), 0, rkt, &metadata, 10000);
  rd_kafka_topic_destroy(rkt);
  CONNECTD_RETURN_IF_ERROR(kafka::ToStatus(err, "metadata"));
  kafka::TopicPartitionListPtr partitions(rd_kafka_topic_partition_list_new(8));
  for (int t = 0; t < metadata->topic_cnt; ++t) {
    for (int p = 0; p < metadata->topics[t].partition_cnt; ++p) {
      rd_kafka_topic_partition_list_add(partitions.get(), topic.c_str(),
                                        metadata->topics[t].partitions[p].id)
          ->offset = RD_KAFKA_OFFSET_BEGINNING;
    }
  }
  rd_kafka_metadata_destroy(metadata);
  CONNECTD_RETURN_IF_ERROR(
      kafka::ToStatus(rd_kafka_assign(consumer.get(), partitions.get()), "assign"));
  std::vector<TestRecord> records;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (records.size() < count && std::chrono::steady_clock::now() < deadline) {
    kafka::MessagePtr message(rd_kafka_consumer_poll(consumer.get(), 200));
    if (!message || message->err) continue;
    records.push_back(ToTestRecord(message.get()));
  }
  rd_kafka_consumer_close(consumer.get());
  if (records.size() < count) {
    return absl::DeadlineExceededError(
        absl::StrCat("read ", records.size(), " of ", count, " records from ", topic));
  }
  return records;
}

}  // namespace connectd::testing
