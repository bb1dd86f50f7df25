#include "connectors/mirror/kafka_clients.h"

#include <algorithm>
#include <string_view>

#include <chrono>

#include "connectd/sdk/host.h"
#include "jvm/client_conf.h"
#include "jvm/java_client_config.h"
#include "jvm/kerberos_login.h"

namespace connectd::mirror {
namespace {

// librdkafka's log lines through the worker's logger (its format and levels), as the runtime's
// own clients do; called on librdkafka's threads.
void LogThroughHost(const rd_kafka_t* rk, int level, const char* facility, const char* line) {
  const int32_t mapped = level <= 3   ? CONNECTD_LOG_ERROR
                         : level == 4 ? CONNECTD_LOG_WARN
                         : level <= 6 ? CONNECTD_LOG_INFO
                                      : CONNECTD_LOG_DEBUG;
  constexpr std::string_view kLogger = "connectd.kafka.librdkafka";
  if (!sdk::LogEnabled(mapped, kLogger)) return;
  sdk::Log(mapped, kLogger, std::string("[") + rd_kafka_name(rk) + "] " + facility + ": " + line);
}

// A Kerberos login's renewal failures (jvm/kerberos_login.h), through the worker's logger.
void LogKerberos(const std::string& message) {
  if (sdk::HasHost()) sdk::Log(CONNECTD_LOG_WARN, "connectd.kafka.kerberos", message);
}

}  // namespace

namespace {

struct QueueDeleter {
  void operator()(rd_kafka_queue_t* q) const { rd_kafka_queue_destroy(q); }
};
struct EventDeleter {
  void operator()(rd_kafka_event_t* e) const { rd_kafka_event_destroy(e); }
};
struct OptionsDeleter {
  void operator()(rd_kafka_AdminOptions_t* o) const { rd_kafka_AdminOptions_destroy(o); }
};

std::unique_ptr<rd_kafka_event_t, EventDeleter> Await(rd_kafka_queue_t* queue, int timeout_ms) {
  return std::unique_ptr<rd_kafka_event_t, EventDeleter>(
      rd_kafka_queue_poll(queue, timeout_ms + 1000));
}

// The admin APIs copy their arguments, so requests are destroyed as soon as they are sent.

// Await with a cancel flag, checked every 100 ms. Null on timeout or cancellation
// (`*cancelled` tells which).
std::unique_ptr<rd_kafka_event_t, EventDeleter> AwaitCancellable(rd_kafka_queue_t* queue,
                                                                 int timeout_ms,
                                                                 const std::atomic<bool>* cancel,
                                                                 bool* cancelled) {
  *cancelled = false;
  if (cancel == nullptr) return Await(queue, timeout_ms);
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms + 1000);
  while (true) {
    if (cancel->load()) {
      *cancelled = true;
      return nullptr;
    }
    auto event = std::unique_ptr<rd_kafka_event_t, EventDeleter>(rd_kafka_queue_poll(queue, 100));
    if (event || std::chrono::steady_clock::now() >= deadline) return event;
  }
}

std::string WaitFailure(bool cancelled) { return cancelled ? "cancelled" : "timed out"; }

// A request that got no answer in time (or was cancelled), per topic.
AdminError NoAnswer(bool cancelled) {
  return AdminError{WaitFailure(cancelled), false, RD_KAFKA_RESP_ERR__TIMED_OUT};
}

// Waits for the result event of a request that fails as a whole or succeeds: null, with `*error`
// set ("<what>: timed out", "<what>: cancelled" or the request's error), when it did not succeed.
std::unique_ptr<rd_kafka_event_t, EventDeleter> AwaitResult(rd_kafka_queue_t* queue, int timeout_ms,
                                                            const std::atomic<bool>* cancel,
                                                            const std::string& what,
                                                            std::string* error) {
  bool cancelled = false;
  auto event = AwaitCancellable(queue, timeout_ms, cancel, &cancelled);
  if (!event) {
    *error = what + ": " + WaitFailure(cancelled);
    return nullptr;
  }
  if (rd_kafka_event_error(event.get())) {
    *error = rd_kafka_event_error_string(event.get());
    return nullptr;
  }
  return event;
}

bool IsUnsupported(rd_kafka_resp_err_t err) {
  return err == RD_KAFKA_RESP_ERR_UNSUPPORTED_VERSION ||
         err == RD_KAFKA_RESP_ERR__UNSUPPORTED_FEATURE;
}

std::unique_ptr<rd_kafka_AdminOptions_t, OptionsDeleter> Options(rd_kafka_t* rk,
                                                                 rd_kafka_admin_op_t op,
                                                                 int timeout_ms) {
  char errstr[512];
  std::unique_ptr<rd_kafka_AdminOptions_t, OptionsDeleter> options(
      rd_kafka_AdminOptions_new(rk, op));
  rd_kafka_AdminOptions_set_request_timeout(options.get(), timeout_ms, errstr, sizeof(errstr));
  return options;
}

// "LITERAL topic X: User:dummy@* ALLOW READ", for messages.
std::string AclText(const TopicAclBinding& b) {
  return std::string(AclPatternTypeName(b.pattern_type)) + " topic " + b.topic + ": " +
         b.principal + "@" + b.host + " " + AclPermissionTypeName(b.permission) + " " +
         AclOperationName(b.operation);
}

TopicConfigs ParseConfigs(const rd_kafka_ConfigResource_t* resource) {
  TopicConfigs out;
  size_t count = 0;
  const rd_kafka_ConfigEntry_t** entries = rd_kafka_ConfigResource_configs(resource, &count);
  for (size_t e = 0; e < count; ++e) {
    const char* value = rd_kafka_ConfigEntry_value(entries[e]);
    rd_kafka_ConfigSource_t source = rd_kafka_ConfigEntry_source(entries[e]);
    ConfigEntry entry;
    entry.value = value ? value : "";
    entry.is_default = rd_kafka_ConfigEntry_is_default(entries[e]) != 0;
    entry.is_read_only = rd_kafka_ConfigEntry_is_read_only(entries[e]) != 0;
    entry.is_sensitive = rd_kafka_ConfigEntry_is_sensitive(entries[e]) != 0;
    entry.is_static_broker = source == RD_KAFKA_CONFIG_SOURCE_STATIC_BROKER_CONFIG;
    entry.is_dynamic_topic = source == RD_KAFKA_CONFIG_SOURCE_DYNAMIC_TOPIC_CONFIG;
    out[rd_kafka_ConfigEntry_name(entries[e])] = entry;
  }
  return out;
}

}  // namespace

KafkaHandle MakeClient(rd_kafka_type_t type, const Props& java_props, std::string* error,
                       void (*configure)(rd_kafka_conf_t*, void*), void* opaque) {
  // Java's client defaults by role (admin clients are librdkafka producers here: they get the
  // producer's, which change nothing an admin request does). A consumer reads uncommitted
  // records unless told otherwise, as Java's: MirrorSource copies open transactions' records
  // as Java's does (KIP-618: `source.consumer.isolation.level=read_committed` asks for
  // committed only).
  jvm::TranslatedConfig translated = jvm::TranslateJavaClientConfig(
      java_props,
      type == RD_KAFKA_CONSUMER ? jvm::ClientRole::kConsumer : jvm::ClientRole::kProducer);
  if (!translated.errors.empty()) {
    *error = "Kafka client config cannot be honoured:";
    for (const std::string& e : translated.errors) *error += " " + e + ";";
    error->pop_back();
    return nullptr;
  }
  static const bool kerberos_logged = (jvm::SetKerberosLoginLogSink(&LogKerberos), true);
  (void)kerberos_logged;
  std::vector<std::string> warnings;
  std::string conf_error;
  rd_kafka_conf_t* conf = jvm::MakeClientConf(translated.properties, warnings, conf_error);
  if (conf == nullptr) {
    *error = "Kafka client config cannot be honoured: " + conf_error;
    return nullptr;
  }
  if (sdk::HasHost()) {
    warnings.insert(warnings.end(), translated.warnings.begin(), translated.warnings.end());
    for (const std::string& warning : warnings) {
      sdk::Log(CONNECTD_LOG_WARN, "connectd.kafka.clients", warning);
    }
  }
  char errstr[512];
  if (configure) configure(conf, opaque);
  if (sdk::HasHost()) rd_kafka_conf_set_log_cb(conf, &LogThroughHost);
  rd_kafka_t* rk = rd_kafka_new(type, conf, errstr, sizeof(errstr));
  if (rk == nullptr) {
    *error = std::string("cannot create Kafka client: ") + errstr;
    rd_kafka_conf_destroy(conf);
    return nullptr;
  }
  return KafkaHandle(rk);
}

std::optional<std::map<std::string, int>> ListTopics(rd_kafka_t* rk, int timeout_ms,
                                                     std::string* error,
                                                     std::vector<std::string>* order) {
  const rd_kafka_metadata_t* md = nullptr;
  rd_kafka_resp_err_t err = rd_kafka_metadata(rk, 1, nullptr, &md, timeout_ms);
  if (err) {
    *error = std::string("listing topics: ") + rd_kafka_err2str(err);
    return std::nullopt;
  }
  std::map<std::string, int> topics;
  for (int i = 0; i < md->topic_cnt; ++i) {
    if (md->topics[i].err == RD_KAFKA_RESP_ERR_NO_ERROR) {
      topics[md->topics[i].topic] = md->topics[i].partition_cnt;
      if (order != nullptr) order->emplace_back(md->topics[i].topic);
    }
  }
  rd_kafka_metadata_destroy(md);
  return topics;
}

namespace {

// One CreateTopics request for `topics`; adds the per-topic errors to `errors`.
void CreateTopicsRequest(rd_kafka_t* rk, const std::vector<NewTopic>& topics, int timeout_ms,
                         const std::atomic<bool>* cancel,
                         std::map<std::string, AdminError>& errors) {
  char errstr[512];
  std::vector<rd_kafka_NewTopic_t*> requests;
  for (const NewTopic& t : topics) {
    rd_kafka_NewTopic_t* nt = rd_kafka_NewTopic_new(t.name.c_str(), t.partitions,
                                                    t.replication_factor, errstr, sizeof(errstr));
    if (nt == nullptr) {
      errors[t.name] = AdminError{errstr, false, RD_KAFKA_RESP_ERR__INVALID_ARG};
      continue;
    }
    for (const auto& [k, v] : t.configs) rd_kafka_NewTopic_set_config(nt, k.c_str(), v.c_str());
    requests.push_back(nt);
  }
  std::unique_ptr<rd_kafka_queue_t, QueueDeleter> queue(rd_kafka_queue_new(rk));
  std::unique_ptr<rd_kafka_AdminOptions_t, OptionsDeleter> options(
      rd_kafka_AdminOptions_new(rk, RD_KAFKA_ADMIN_OP_CREATETOPICS));
  rd_kafka_AdminOptions_set_request_timeout(options.get(), timeout_ms, errstr, sizeof(errstr));
  rd_kafka_AdminOptions_set_operation_timeout(options.get(), timeout_ms, errstr, sizeof(errstr));
  rd_kafka_CreateTopics(rk, requests.data(), requests.size(), options.get(), queue.get());
  bool cancelled = false;
  auto event = AwaitCancellable(queue.get(), timeout_ms, cancel, &cancelled);
  rd_kafka_NewTopic_destroy_array(requests.data(), requests.size());
  if (!event) {
    for (const NewTopic& t : topics) errors[t.name] = NoAnswer(cancelled);
    return;
  }
  size_t count = 0;
  const rd_kafka_topic_result_t** results =
      rd_kafka_CreateTopics_result_topics(rd_kafka_event_CreateTopics_result(event.get()), &count);
  for (size_t i = 0; i < count; ++i) {
    rd_kafka_resp_err_t err = rd_kafka_topic_result_error(results[i]);
    if (err && err != RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS) {
      const char* msg = rd_kafka_topic_result_error_string(results[i]);
      errors[rd_kafka_topic_result_name(results[i])] =
          AdminError{msg ? msg : rd_kafka_err2str(err), false, err};
    }
  }
}

}  // namespace

std::vector<std::vector<NewTopic>> CreateTopicsBatches(const std::vector<NewTopic>& topics,
                                                       int max_partitions) {
  std::vector<std::vector<NewTopic>> batches;
  int in_batch = 0;
  for (const NewTopic& t : topics) {
    if (batches.empty() || in_batch + t.partitions > max_partitions) {
      if (batches.empty() || !batches.back().empty()) batches.emplace_back();
      in_batch = 0;
    }
    batches.back().push_back(t);
    in_batch += t.partitions;
  }
  return batches;
}

std::map<std::string, AdminError> CreateTopics(rd_kafka_t* rk, const std::vector<NewTopic>& topics,
                                               int timeout_ms, const std::atomic<bool>* cancel) {
  std::map<std::string, AdminError> errors;
  for (const std::vector<NewTopic>& batch :
       CreateTopicsBatches(topics, kMaxPartitionsPerCreateTopics)) {
    if (cancel != nullptr && cancel->load()) {
      for (const NewTopic& t : batch) errors[t.name] = NoAnswer(true);
      continue;
    }
    CreateTopicsRequest(rk, batch, timeout_ms, cancel, errors);
  }
  return errors;
}

std::map<std::string, AdminError> CreatePartitions(rd_kafka_t* rk,
                                                   const std::map<std::string, int>& counts,
                                                   int timeout_ms,
                                                   const std::atomic<bool>* cancel) {
  std::map<std::string, AdminError> errors;
  if (counts.empty()) return errors;
  char errstr[512];
  std::vector<rd_kafka_NewPartitions_t*> requests;
  for (const auto& [topic, count] : counts) {
    requests.push_back(rd_kafka_NewPartitions_new(topic.c_str(), static_cast<size_t>(count), errstr,
                                                  sizeof(errstr)));
  }
  std::unique_ptr<rd_kafka_queue_t, QueueDeleter> queue(rd_kafka_queue_new(rk));
  std::unique_ptr<rd_kafka_AdminOptions_t, OptionsDeleter> options(
      rd_kafka_AdminOptions_new(rk, RD_KAFKA_ADMIN_OP_CREATEPARTITIONS));
  rd_kafka_AdminOptions_set_request_timeout(options.get(), timeout_ms, errstr, sizeof(errstr));
  rd_kafka_CreatePartitions(rk, requests.data(), requests.size(), options.get(), queue.get());
  bool cancelled = false;
  auto event = AwaitCancellable(queue.get(), timeout_ms, cancel, &cancelled);
  rd_kafka_NewPartitions_destroy_array(requests.data(), requests.size());
  if (!event) {
    for (const auto& [topic, count] : counts) errors[topic] = NoAnswer(cancelled);
    return errors;
  }
  size_t n = 0;
  const rd_kafka_topic_result_t** results = rd_kafka_CreatePartitions_result_topics(
      rd_kafka_event_CreatePartitions_result(event.get()), &n);
  for (size_t i = 0; i < n; ++i) {
    rd_kafka_resp_err_t err = rd_kafka_topic_result_error(results[i]);
    if (err && err != RD_KAFKA_RESP_ERR_INVALID_PARTITIONS) {
      const char* msg = rd_kafka_topic_result_error_string(results[i]);
      errors[rd_kafka_topic_result_name(results[i])] =
          AdminError{msg ? msg : rd_kafka_err2str(err), false, err};
    }
  }
  return errors;
}

std::optional<std::map<std::string, ConfigEntry>> DescribeTopicConfigs(
    rd_kafka_t* rk, const std::string& topic, int timeout_ms, std::string* error,
    const std::atomic<bool>* cancel) {
  char errstr[512];
  rd_kafka_ConfigResource_t* resource =
      rd_kafka_ConfigResource_new(RD_KAFKA_RESOURCE_TOPIC, topic.c_str());
  std::unique_ptr<rd_kafka_queue_t, QueueDeleter> queue(rd_kafka_queue_new(rk));
  std::unique_ptr<rd_kafka_AdminOptions_t, OptionsDeleter> options(
      rd_kafka_AdminOptions_new(rk, RD_KAFKA_ADMIN_OP_DESCRIBECONFIGS));
  rd_kafka_AdminOptions_set_request_timeout(options.get(), timeout_ms, errstr, sizeof(errstr));
  rd_kafka_DescribeConfigs(rk, &resource, 1, options.get(), queue.get());
  bool cancelled = false;
  auto event = AwaitCancellable(queue.get(), timeout_ms, cancel, &cancelled);
  rd_kafka_ConfigResource_destroy(resource);
  if (!event) {
    *error = "describing configs of " + topic + ": " + WaitFailure(cancelled);
    return std::nullopt;
  }
  if (rd_kafka_event_error(event.get())) {
    *error = rd_kafka_event_error_string(event.get());
    return std::nullopt;
  }
  size_t n = 0;
  const rd_kafka_ConfigResource_t** resources = rd_kafka_DescribeConfigs_result_resources(
      rd_kafka_event_DescribeConfigs_result(event.get()), &n);
  std::map<std::string, ConfigEntry> out;
  for (size_t i = 0; i < n; ++i) {
    if (rd_kafka_ConfigResource_error(resources[i])) {
      *error = rd_kafka_ConfigResource_error_string(resources[i]);
      return std::nullopt;
    }
    for (auto& [name, entry] : ParseConfigs(resources[i])) out[name] = std::move(entry);
  }
  return out;
}

std::optional<std::map<std::string, std::string>> DescribeTopicIds(
    rd_kafka_t* rk, const std::vector<std::string>& topics, int timeout_ms, std::string* error,
    const std::atomic<bool>* cancel) {
  std::map<std::string, std::string> out;
  if (topics.empty()) return out;
  std::vector<const char*> names;
  names.reserve(topics.size());
  for (const std::string& topic : topics) names.push_back(topic.c_str());
  rd_kafka_TopicCollection_t* collection =
      rd_kafka_TopicCollection_of_topic_names(names.data(), names.size());
  std::unique_ptr<rd_kafka_queue_t, QueueDeleter> queue(rd_kafka_queue_new(rk));
  auto options = Options(rk, RD_KAFKA_ADMIN_OP_DESCRIBETOPICS, timeout_ms);
  rd_kafka_DescribeTopics(rk, collection, options.get(), queue.get());
  rd_kafka_TopicCollection_destroy(collection);
  auto event = AwaitResult(queue.get(), timeout_ms, cancel, "describing topics", error);
  if (!event) return std::nullopt;
  size_t n = 0;
  const rd_kafka_TopicDescription_t** results =
      rd_kafka_DescribeTopics_result_topics(rd_kafka_event_DescribeTopics_result(event.get()), &n);
  for (size_t i = 0; i < n; ++i) {
    const rd_kafka_error_t* topic_error = rd_kafka_TopicDescription_error(results[i]);
    if (topic_error != nullptr && rd_kafka_error_code(topic_error)) continue;
    const rd_kafka_Uuid_t* id = rd_kafka_TopicDescription_topic_id(results[i]);
    const char* text = id != nullptr ? rd_kafka_Uuid_base64str(id) : nullptr;
    // A broker without topic IDs answers the zero UUID.
    if (text == nullptr || *text == '\0' || std::string_view(text) == "AAAAAAAAAAAAAAAAAAAAAA") {
      continue;
    }
    // librdkafka writes standard base64; Kafka (Uuid.toString, kafka-topics) the URL-safe form.
    std::string url_safe = text;
    std::replace(url_safe.begin(), url_safe.end(), '+', '-');
    std::replace(url_safe.begin(), url_safe.end(), '/', '_');
    out[rd_kafka_TopicDescription_name(results[i])] = std::move(url_safe);
  }
  return out;
}

std::optional<std::map<std::string, TopicConfigs>> DescribeConfigsOfTopics(
    rd_kafka_t* rk, const std::vector<std::string>& topics, int timeout_ms,
    std::map<std::string, std::string>* topic_errors, std::string* error,
    const std::atomic<bool>* cancel) {
  std::map<std::string, TopicConfigs> out;
  if (topics.empty()) return out;
  std::vector<rd_kafka_ConfigResource_t*> resources;
  for (const std::string& topic : topics) {
    resources.push_back(rd_kafka_ConfigResource_new(RD_KAFKA_RESOURCE_TOPIC, topic.c_str()));
  }
  std::unique_ptr<rd_kafka_queue_t, QueueDeleter> queue(rd_kafka_queue_new(rk));
  auto options = Options(rk, RD_KAFKA_ADMIN_OP_DESCRIBECONFIGS, timeout_ms);
  rd_kafka_DescribeConfigs(rk, resources.data(), resources.size(), options.get(), queue.get());
  rd_kafka_ConfigResource_destroy_array(resources.data(), resources.size());
  auto event = AwaitResult(queue.get(), timeout_ms, cancel, "describing topic configs", error);
  if (!event) return std::nullopt;
  size_t n = 0;
  const rd_kafka_ConfigResource_t** results = rd_kafka_DescribeConfigs_result_resources(
      rd_kafka_event_DescribeConfigs_result(event.get()), &n);
  for (size_t i = 0; i < n; ++i) {
    std::string name = rd_kafka_ConfigResource_name(results[i]);
    rd_kafka_resp_err_t err = rd_kafka_ConfigResource_error(results[i]);
    if (err) {
      const char* message = rd_kafka_ConfigResource_error_string(results[i]);
      (*topic_errors)[name] = message ? message : rd_kafka_err2str(err);
      continue;
    }
    out[name] = ParseConfigs(results[i]);
  }
  return out;
}

std::map<std::string, AdminError> AlterTopicConfigsIncrementally(
    rd_kafka_t* rk, const std::map<std::string, ConfigOps>& ops, int timeout_ms,
    const std::atomic<bool>* cancel) {
  std::map<std::string, AdminError> errors;
  if (ops.empty()) return errors;
  std::vector<rd_kafka_ConfigResource_t*> resources;
  auto add = [&errors](rd_kafka_ConfigResource_t* resource, const std::string& topic,
                       const std::string& name, rd_kafka_AlterConfigOpType_t op,
                       const char* value) {
    if (rd_kafka_error_t* error =
            rd_kafka_ConfigResource_add_incremental_config(resource, name.c_str(), op, value)) {
      errors[topic] = {rd_kafka_error_string(error), false};
      rd_kafka_error_destroy(error);
    }
  };
  for (const auto& [topic, topic_ops] : ops) {
    rd_kafka_ConfigResource_t* resource =
        rd_kafka_ConfigResource_new(RD_KAFKA_RESOURCE_TOPIC, topic.c_str());
    for (const auto& [name, value] : topic_ops.set) {
      add(resource, topic, name, RD_KAFKA_ALTER_CONFIG_OP_TYPE_SET, value.c_str());
    }
    for (const std::string& name : topic_ops.remove) {
      add(resource, topic, name, RD_KAFKA_ALTER_CONFIG_OP_TYPE_DELETE, nullptr);
    }
    resources.push_back(resource);
  }
  if (!errors.empty()) {  // an op librdkafka refused to encode: send nothing, say which
    rd_kafka_ConfigResource_destroy_array(resources.data(), resources.size());
    return errors;
  }
  std::unique_ptr<rd_kafka_queue_t, QueueDeleter> queue(rd_kafka_queue_new(rk));
  auto options = Options(rk, RD_KAFKA_ADMIN_OP_INCREMENTALALTERCONFIGS, timeout_ms);
  rd_kafka_IncrementalAlterConfigs(rk, resources.data(), resources.size(), options.get(),
                                   queue.get());
  rd_kafka_ConfigResource_destroy_array(resources.data(), resources.size());
  bool cancelled = false;
  auto event = AwaitCancellable(queue.get(), timeout_ms, cancel, &cancelled);
  if (!event) {
    for (const auto& [topic, topic_ops] : ops) errors[topic] = {WaitFailure(cancelled), false};
    return errors;
  }
  if (rd_kafka_resp_err_t err = rd_kafka_event_error(event.get())) {
    for (const auto& [topic, topic_ops] : ops) {
      errors[topic] = {rd_kafka_event_error_string(event.get()), IsUnsupported(err)};
    }
    return errors;
  }
  size_t n = 0;
  const rd_kafka_ConfigResource_t** results = rd_kafka_IncrementalAlterConfigs_result_resources(
      rd_kafka_event_IncrementalAlterConfigs_result(event.get()), &n);
  for (size_t i = 0; i < n; ++i) {
    rd_kafka_resp_err_t err = rd_kafka_ConfigResource_error(results[i]);
    if (!err) continue;
    const char* message = rd_kafka_ConfigResource_error_string(results[i]);
    errors[rd_kafka_ConfigResource_name(results[i])] = {message ? message : rd_kafka_err2str(err),
                                                        IsUnsupported(err)};
  }
  return errors;
}

std::optional<std::vector<TopicAclBinding>> DescribeTopicAcls(rd_kafka_t* rk, int timeout_ms,
                                                              bool* security_disabled,
                                                              std::string* error,
                                                              const std::atomic<bool>* cancel) {
  if (security_disabled) *security_disabled = false;
  char errstr[512];
  rd_kafka_AclBindingFilter_t* filter = rd_kafka_AclBindingFilter_new(
      RD_KAFKA_RESOURCE_TOPIC, nullptr, RD_KAFKA_RESOURCE_PATTERN_ANY, nullptr, nullptr,
      RD_KAFKA_ACL_OPERATION_ANY, RD_KAFKA_ACL_PERMISSION_TYPE_ANY, errstr, sizeof(errstr));
  if (filter == nullptr) {
    *error = errstr;
    return std::nullopt;
  }
  std::unique_ptr<rd_kafka_queue_t, QueueDeleter> queue(rd_kafka_queue_new(rk));
  auto options = Options(rk, RD_KAFKA_ADMIN_OP_DESCRIBEACLS, timeout_ms);
  rd_kafka_DescribeAcls(rk, filter, options.get(), queue.get());
  rd_kafka_AclBinding_destroy(filter);
  bool cancelled = false;
  auto event = AwaitCancellable(queue.get(), timeout_ms, cancel, &cancelled);
  if (!event) {
    *error = "describing ACLs: " + WaitFailure(cancelled);
    return std::nullopt;
  }
  if (rd_kafka_resp_err_t err = rd_kafka_event_error(event.get())) {
    if (security_disabled) *security_disabled = err == RD_KAFKA_RESP_ERR_SECURITY_DISABLED;
    *error = rd_kafka_event_error_string(event.get());
    return std::nullopt;
  }
  size_t n = 0;
  const rd_kafka_AclBinding_t** acls =
      rd_kafka_DescribeAcls_result_acls(rd_kafka_event_DescribeAcls_result(event.get()), &n);
  std::vector<TopicAclBinding> out;
  for (size_t i = 0; i < n; ++i) {
    if (rd_kafka_AclBinding_restype(acls[i]) != RD_KAFKA_RESOURCE_TOPIC) continue;
    const char* principal = rd_kafka_AclBinding_principal(acls[i]);
    const char* host = rd_kafka_AclBinding_host(acls[i]);
    TopicAclBinding binding;
    binding.topic = rd_kafka_AclBinding_name(acls[i]);
    binding.pattern_type =
        static_cast<AclPatternType>(rd_kafka_AclBinding_resource_pattern_type(acls[i]));
    binding.principal = principal ? principal : "";
    binding.host = host ? host : "";
    binding.operation = static_cast<AclOperation>(rd_kafka_AclBinding_operation(acls[i]));
    binding.permission =
        static_cast<AclPermissionType>(rd_kafka_AclBinding_permission_type(acls[i]));
    out.push_back(std::move(binding));
  }
  return out;
}

std::vector<std::string> CreateTopicAcls(rd_kafka_t* rk,
                                         const std::vector<TopicAclBinding>& bindings,
                                         int timeout_ms, const std::atomic<bool>* cancel) {
  std::vector<std::string> errors;
  if (bindings.empty()) return errors;
  char errstr[512];
  std::vector<rd_kafka_AclBinding_t*> requests;
  std::vector<const TopicAclBinding*> sent;
  for (const TopicAclBinding& b : bindings) {
    rd_kafka_AclBinding_t* acl = rd_kafka_AclBinding_new(
        RD_KAFKA_RESOURCE_TOPIC, b.topic.c_str(),
        static_cast<rd_kafka_ResourcePatternType_t>(b.pattern_type), b.principal.c_str(),
        b.host.c_str(), static_cast<rd_kafka_AclOperation_t>(b.operation),
        static_cast<rd_kafka_AclPermissionType_t>(b.permission), errstr, sizeof(errstr));
    if (acl == nullptr) {
      errors.push_back("ACL (" + AclText(b) + "): " + errstr);
      continue;
    }
    requests.push_back(acl);
    sent.push_back(&b);
  }
  if (requests.empty()) return errors;
  std::unique_ptr<rd_kafka_queue_t, QueueDeleter> queue(rd_kafka_queue_new(rk));
  auto options = Options(rk, RD_KAFKA_ADMIN_OP_CREATEACLS, timeout_ms);
  rd_kafka_CreateAcls(rk, requests.data(), requests.size(), options.get(), queue.get());
  rd_kafka_AclBinding_destroy_array(requests.data(), requests.size());
  bool cancelled = false;
  auto event = AwaitCancellable(queue.get(), timeout_ms, cancel, &cancelled);
  if (!event) {
    errors.push_back("creating ACLs: " + WaitFailure(cancelled));
    return errors;
  }
  if (rd_kafka_event_error(event.get())) {
    errors.push_back(std::string("creating ACLs: ") + rd_kafka_event_error_string(event.get()));
    return errors;
  }
  size_t n = 0;
  const rd_kafka_acl_result_t** results =
      rd_kafka_CreateAcls_result_acls(rd_kafka_event_CreateAcls_result(event.get()), &n);
  for (size_t i = 0; i < n; ++i) {
    if (const rd_kafka_error_t* err = rd_kafka_acl_result_error(results[i])) {
      // Results come in request order; name the binding when the counts line up.
      std::string what = n == sent.size() ? "ACL (" + AclText(*sent[i]) + ")" : "an ACL";
      errors.push_back(what + ": " + rd_kafka_error_string(err));
    }
  }
  return errors;
}

}  // namespace connectd::mirror
