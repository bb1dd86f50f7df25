// File: rdkafka_handles.h
//
// Owning handles for librdkafka objects and a Status-returning way to build a client config.
// librdkafka error codes never travel further than this module: they become absl::Status here
// (retriable -> kUnavailable, anything else -> the closest canonical code).
#pragma once

#include <librdkafka/rdkafka.h>

#include <map>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace connectd::kafka {

struct RdKafkaDeleter {
  void operator()(rd_kafka_t* rk) const { rd_kafka_destroy(rk); }
};
struct ConfDeleter {
  void operator()(rd_kafka_conf_t* conf) const { rd_kafka_conf_destroy(conf); }
};
struct TopicPartitionListDeleter {
  void operator()(rd_kafka_topic_partition_list_t* list) const {
    rd_kafka_topic_partition_list_destroy(list);
  }
};
struct MessageDeleter {
  void operator()(rd_kafka_message_t* message) const { rd_kafka_message_destroy(message); }
};
struct ErrorDeleter {
  void operator()(rd_kafka_error_t* error) const { rd_kafka_error_destroy(error); }
};
struct QueueDeleter {
  void operator()(rd_kafka_queue_t* queue) const { rd_kafka_queue_destroy(queue); }
};

using RdKafkaPtr = std::unique_ptr<rd_kafka_t, RdKafkaDeleter>;
using ConfPtr = std::unique_ptr<rd_kafka_conf_t, ConfDeleter>;
using TopicPartitionListPtr =
    std::unique_ptr<rd_kafka_topic_partition_list_t, TopicPartitionListDeleter>;
using MessagePtr = std::unique_ptr<rd_kafka_message_t, MessageDeleter>;
using ErrorPtr = std::unique_ptr<rd_kafka_error_t, ErrorDeleter>;
using QueuePtr = std::unique_ptr<rd_kafka_queue_t, QueueDeleter>;

// Builds a librdkafka config from Kafka client properties through jvm::MakeClientConf (see
// client_config.h). A key librdkafka rejects or does not know fails with kInvalidArgument naming
// the key (its value is not echoed: it may be a secret).
absl::StatusOr<ConfPtr> MakeConf(const std::map<std::string, std::string>& properties);

// Creates a producer or consumer from `conf` (ownership taken).
absl::StatusOr<RdKafkaPtr> MakeClient(rd_kafka_type_t type, ConfPtr conf);

// Converts a librdkafka error code into a Status carrying `context`.
absl::Status ToStatus(rd_kafka_resp_err_t err, std::string_view context);

// Asks the cluster for `topic`'s metadata now (one round trip, at most `timeout_ms`), so that
// `rk` knows the topic's partitions, or that it does not exist yet, before the first record to
// it: a missing topic is then refused at produce time and waited for as Java's producer waits
// (metadata_wait.h), instead of failing later in a delivery report. (Written for librdkafka
// 2.0.2, which learnt a new topic on its 1 s timer scan; on 2.14.2 the first record to an
// existing topic is delivered in 7-31 ms with or without it, measured 6 Dec 2026.) Best effort:
// the partition count, or 0 when the topic is not (yet) known.
int32_t WarmTopicMetadata(rd_kafka_t* rk, const std::string& topic, int timeout_ms);

}  // namespace connectd::kafka
