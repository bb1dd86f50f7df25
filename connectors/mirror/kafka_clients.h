// File: kafka_clients.h
//
// The librdkafka clients MirrorMaker's connectors own (source consumer, admin work on either
// cluster, the offset-syncs producer), built from a connector's config as Connect's
// MirrorConnectorConfig builds them: `<side>.cluster.*` connection settings, then the
// connector-wide `<role>.*`, then `<side>.<role>.*` (side: source|target; role: consumer,
// producer, admin). Java property names are translated for librdkafka.
//
// Standard library + librdkafka only (this code lives in plugin shared objects). Failures are
// returned as messages; callers turn them into Connect exceptions.
#pragma once

#include <librdkafka/rdkafka.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace connectd::mirror {

struct KafkaDeleter {
  void operator()(rd_kafka_t* rk) const { rd_kafka_destroy(rk); }
};
using KafkaHandle = std::unique_ptr<rd_kafka_t, KafkaDeleter>;

using Props = std::map<std::string, std::string>;

// The Java client properties of `side` ("source"|"target") and `role` ("consumer",
// "producer", "admin") from a connector config.
Props ClientProps(const Props& connector, const std::string& side, const std::string& role);

// Creates a librdkafka client from Java client properties; nullptr with `error` set on failure.
// `configure` may adjust the librdkafka conf (callbacks) before creation.
KafkaHandle MakeClient(rd_kafka_type_t type, const Props& java_props, std::string* error,
                       void (*configure)(rd_kafka_conf_t*, void*) = nullptr,
                       void* opaque = nullptr);

// Every topic of the cluster with its partition count.
std::optional<std::map<std::string, int>> ListTopics(rd_kafka_t* rk, int timeout_ms,
                                                     std::string* error);

struct NewTopic {
  std::string name;
  int partitions = 1;
  int replication_factor = -1;  // -1: the broker's default
  std::map<std::string, std::string> configs;
};

// Creates topics; a topic that exists already counts as success. Returns per-topic errors.
std::map<std::string, std::string> CreateTopics(rd_kafka_t* rk, const std::vector<NewTopic>& topics,
                                                int timeout_ms);

// Raises partition counts; returns per-topic errors.
std::map<std::string, std::string> CreatePartitions(rd_kafka_t* rk,
                                                    const std::map<std::string, int>& counts,
                                                    int timeout_ms);

struct ConfigEntry {
  std::string value;
  bool is_default = false;
  bool is_read_only = false;
  bool is_sensitive = false;
  bool is_static_broker = false;
};

// A topic's configs (DescribeConfigs); nullopt with `error` on failure.
std::optional<std::map<std::string, ConfigEntry>> DescribeTopicConfigs(rd_kafka_t* rk,
                                                                       const std::string& topic,
                                                                       int timeout_ms,
                                                                       std::string* error);

}  // namespace connectd::mirror
