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

#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "connectors/mirror/acl_sync.h"
#include "connectors/mirror/topic_config_sync.h"
#include "connectors/mirror_client/client_props.h"

namespace connectd::mirror {

struct KafkaDeleter {
  void operator()(rd_kafka_t* rk) const { rd_kafka_destroy(rk); }
};
using KafkaHandle = std::unique_ptr<rd_kafka_t, KafkaDeleter>;

using Props = std::map<std::string, std::string>;

// ClientProps(connector, side, role): connectors/mirror_client/client_props.h.

// Creates a librdkafka client from Java client properties; nullptr with `error` set on failure.
// `configure` may adjust the librdkafka conf (callbacks) before creation.
KafkaHandle MakeClient(rd_kafka_type_t type, const Props& java_props, std::string* error,
                       void (*configure)(rd_kafka_conf_t*, void*) = nullptr,
                       void* opaque = nullptr);

// Every topic of the cluster with its partition count; with `order`, also their names in the
// order of the Metadata response.
std::optional<std::map<std::string, int>> ListTopics(rd_kafka_t* rk, int timeout_ms,
                                                     std::string* error,
                                                     std::vector<std::string>* order = nullptr);

// The topic IDs (Kafka's base64 form, as Java's Uuid.toString) of `topics` (DescribeTopics).
// Topics the broker answered with an error (deleted meanwhile, not authorized) are left out;
// nullopt with `error` set when the request as a whole failed.
std::optional<std::map<std::string, std::string>> DescribeTopicIds(
    rd_kafka_t* rk, const std::vector<std::string>& topics, int timeout_ms, std::string* error,
    const std::atomic<bool>* cancel = nullptr);

// A failed admin operation on one resource.
struct AdminError {
  std::string message;
  // The broker (or librdkafka) does not support the request: an incompatible cluster, which
  // Java treats as fatal for the connector.
  bool unsupported = false;
  // Kafka's (or librdkafka's local) code, where the caller reports it.
  rd_kafka_resp_err_t code = RD_KAFKA_RESP_ERR_NO_ERROR;
};

struct NewTopic {
  std::string name;
  int partitions = 1;
  int replication_factor = -1;  // -1: the broker's default
  std::map<std::string, std::string> configs;
};

// Creates topics; a topic that exists already counts as success. Returns per-topic errors.
// Kafka 4.x controllers refuse a CreateTopics request of more than 10,000 partitions in all
// ("Excessively large number of partitions per request"), so the topics go in requests of at
// most kMaxPartitionsPerCreateTopics partitions (a larger topic alone), one after the other.
inline constexpr int kMaxPartitionsPerCreateTopics = 5000;
std::map<std::string, AdminError> CreateTopics(rd_kafka_t* rk, const std::vector<NewTopic>& topics,
                                               int timeout_ms,
                                               const std::atomic<bool>* cancel = nullptr);
// The requests CreateTopics sends: `topics` in order, each batch at most `max_partitions`
// partitions in all unless a single topic has more.
std::vector<std::vector<NewTopic>> CreateTopicsBatches(const std::vector<NewTopic>& topics,
                                                       int max_partitions);

// Raises partition counts; returns per-topic errors.
std::map<std::string, AdminError> CreatePartitions(rd_kafka_t* rk,
                                                   const std::map<std::string, int>& counts,
                                                   int timeout_ms,
                                                   const std::atomic<bool>* cancel = nullptr);

// A topic's configs (DescribeConfigs); nullopt with `error` on failure.
std::optional<std::map<std::string, ConfigEntry>> DescribeTopicConfigs(
    rd_kafka_t* rk, const std::string& topic, int timeout_ms, std::string* error,
    const std::atomic<bool>* cancel = nullptr);

// `cancel` (optional, here and below): while a call waits for the broker it checks the flag
// every 100 ms and gives up (reporting "cancelled") once it is set, so a connector's stop() is
// not held up by a slow cluster. Abandoned requests complete inside librdkafka unobserved.

// The configs of many topics in one DescribeConfigs request. Topics the broker answered with
// an error are left out of the result and listed in `topic_errors` (topic -> message); nullopt
// with `error` set when the request as a whole failed.
std::optional<std::map<std::string, TopicConfigs>> DescribeConfigsOfTopics(
    rd_kafka_t* rk, const std::vector<std::string>& topics, int timeout_ms,
    std::map<std::string, std::string>* topic_errors, std::string* error,
    const std::atomic<bool>* cancel = nullptr);

// IncrementalAlterConfigs, as Kafka's MirrorSourceConnector syncs topic configs: per topic, SET
// and DELETE ops (ConfigOps); configs the ops do not name keep whatever the topic has. Returns
// per-topic errors (topic -> error; `unsupported` when the cluster lacks the API).
std::map<std::string, AdminError> AlterTopicConfigsIncrementally(
    rd_kafka_t* rk, const std::map<std::string, ConfigOps>& ops, int timeout_ms,
    const std::atomic<bool>* cancel = nullptr);

// Every ACL binding on a TOPIC resource, any pattern type (DescribeAcls). nullopt on failure,
// with `error` set; `*security_disabled` (if not null) tells whether the failure is the
// cluster having no authorizer (SECURITY_DISABLED).
std::optional<std::vector<TopicAclBinding>> DescribeTopicAcls(
    rd_kafka_t* rk, int timeout_ms, bool* security_disabled, std::string* error,
    const std::atomic<bool>* cancel = nullptr);

// Creates ACL bindings on TOPIC resources (CreateAcls; an existing binding is not an error).
// Returns one message per failed binding, or one for the whole request.
std::vector<std::string> CreateTopicAcls(rd_kafka_t* rk,
                                         const std::vector<TopicAclBinding>& bindings,
                                         int timeout_ms, const std::atomic<bool>* cancel = nullptr);

}  // namespace connectd::mirror
