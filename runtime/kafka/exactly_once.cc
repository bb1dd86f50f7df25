#include "runtime/kafka/exactly_once.h"

#include <thread>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "runtime/common/logging.h"

namespace connectd::kafka {
namespace {

constexpr char kLogger[] = "connectd.worker.ExactlyOnce";
constexpr int64_t kDefaultTransactionTimeoutMs = 60000;  // librdkafka's and Java's default

std::string Get(const std::map<std::string, std::string>& config, const std::string& key) {
  auto it = config.find(key);
  return it == config.end() ? std::string() : it->second;
}

// ConnectUtils.ensureProperty: forces `key` to `value`, noting a user value that differs.
void Ensure(std::map<std::string, std::string>& config, const std::string& key,
            const std::string& value, bool case_sensitive, std::vector<std::string>* warnings) {
  auto it = config.find(key);
  if (it != config.end()) {
    const bool same = case_sensitive
                          ? it->second == value
                          : absl::AsciiStrToLower(it->second) == absl::AsciiStrToLower(value);
    if (!same && warnings != nullptr) {
      warnings->push_back(absl::StrCat("The value '", it->second, "' for the '", key,
                                       "' property will be ignored as it cannot be overridden for "
                                       "connectors when exactly-once source support is enabled. "
                                       "The value '",
                                       value, "' will be used instead."));
    }
  }
  config[key] = value;
}

}  // namespace

std::string TaskTransactionalId(std::string_view group_id, std::string_view connector,
                                int32_t task) {
  return absl::StrCat(std::string(group_id), "-", std::string(connector), "-", task);
}

std::string LeaderTransactionalId(std::string_view group_id) {
  return absl::StrCat("connect-cluster-", std::string(group_id));
}

absl::StatusOr<TransactionBoundary> ParseTransactionBoundary(
    const std::map<std::string, std::string>& connector_config) {
  auto it = connector_config.find("transaction.boundary");
  const std::string value =
      it == connector_config.end() ? "poll" : absl::AsciiStrToLower(it->second);
  if (value == "poll") return TransactionBoundary::kPoll;
  if (value == "interval") return TransactionBoundary::kInterval;
  if (value == "connector") return TransactionBoundary::kConnector;
  return absl::InvalidArgumentError(
      absl::StrCat("Invalid value ", it->second,
                   " for configuration transaction.boundary: String must be one of (case "
                   "insensitive): poll, interval, connector"));
}

std::chrono::milliseconds TransactionBoundaryInterval(
    const std::map<std::string, std::string>& connector_config, int64_t offset_flush_interval_ms) {
  int64_t interval = 0;
  const std::string value = Get(connector_config, "transaction.boundary.interval.ms");
  if (!value.empty() && absl::SimpleAtoi(value, &interval) && interval >= 0) {
    return std::chrono::milliseconds(interval);
  }
  return std::chrono::milliseconds(offset_flush_interval_ms);
}

std::map<std::string, std::string> ExactlyOnceProducerConfig(
    std::map<std::string, std::string> base, const std::string& transactional_id,
    std::vector<std::string>* warnings) {
  // Connect's base producer config disables idempotence; exactly-once forces it on (and Java
  // drops the base "false" first, so only a user's explicit value is worth a warning).
  base.erase("enable.idempotence");
  Ensure(base, "enable.idempotence", "true", false, warnings);
  Ensure(base, "transactional.id", transactional_id, true, warnings);
  // librdkafka refuses a transactional producer whose message.timeout.ms (Java's
  // delivery.timeout.ms, Integer.MAX_VALUE in Connect's base config) exceeds
  // transaction.timeout.ms; a record cannot outlive its transaction anyway.
  int64_t transaction_timeout = 0;
  if (!absl::SimpleAtoi(Get(base, "transaction.timeout.ms"), &transaction_timeout) ||
      transaction_timeout <= 0) {
    transaction_timeout = kDefaultTransactionTimeoutMs;
  }
  int64_t message_timeout = 0;
  if (!absl::SimpleAtoi(Get(base, "message.timeout.ms"), &message_timeout) ||
      message_timeout > transaction_timeout || message_timeout == 0) {
    base["message.timeout.ms"] = std::to_string(transaction_timeout);
  }
  base.erase("delivery.timeout.ms");
  return base;
}

FencingDecision DecideFencing(bool pending_fencing, std::optional<int32_t> task_count_record,
                              int32_t task_count) {
  FencingDecision decision;
  if (!pending_fencing) return decision;  // the newest task configs are already fenced for
  decision.write_task_count = true;
  decision.task_count = task_count;
  // No record: no transactional producer was ever brought up for the connector. Both 1: the new
  // task's own InitProducerId fences the old one.
  if (task_count_record && (*task_count_record != 1 || task_count != 1)) {
    decision.fence_count = *task_count_record;
  }
  return decision;
}

absl::Status TransactionError(rd_kafka_error_t* error, std::string_view what) {
  kafka::ErrorPtr owned(error);
  const rd_kafka_resp_err_t code = rd_kafka_error_code(error);
  std::string message = absl::StrCat(std::string(what), ": ", rd_kafka_error_string(error));
  if (rd_kafka_error_is_fatal(error)) absl::StrAppend(&message, " (fatal)");
  if (code == RD_KAFKA_RESP_ERR__FENCED || code == RD_KAFKA_RESP_ERR_PRODUCER_FENCED ||
      code == RD_KAFKA_RESP_ERR_INVALID_PRODUCER_EPOCH) {
    return absl::AbortedError(message);
  }
  if (rd_kafka_error_is_retriable(error)) return absl::UnavailableError(message);
  return kafka::ToStatus(code, message);
}

absl::Status FenceProducers(const std::map<std::string, std::string>& client_config,
                            const std::vector<std::string>& transactional_ids,
                            std::chrono::milliseconds timeout) {
  for (const std::string& id : transactional_ids) {
    std::map<std::string, std::string> config = client_config;
    config["transactional.id"] = id;
    config["enable.idempotence"] = "true";
    config["acks"] = "all";
    config.erase("partitioner");
    absl::StatusOr<std::unique_ptr<TransactionalProducer>> fencer =
        TransactionalProducer::Create(std::move(config), timeout);
    if (!fencer.ok()) {
      return absl::Status(fencer.status().code(),
                          absl::StrCat("Failed to fence the producer of transactional id ", id,
                                       ": ", fencer.status().message()));
    }
    CONNECTD_LOG(kDebug, kLogger) << "Fenced out the producer of transactional id " << id;
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<TransactionalProducer>> TransactionalProducer::Create(
    std::map<std::string, std::string> config, std::chrono::milliseconds timeout) {
  // librdkafka refuses a transactional producer whose message.timeout.ms (Java's
  // delivery.timeout.ms: 120000 by default, MAX_INT in Connect's config-topic producer)
  // exceeds transaction.timeout.ms; a record cannot outlive its transaction anyway.
  int64_t transaction_timeout = 0, message_timeout = 0;
  if (!absl::SimpleAtoi(Get(config, "transaction.timeout.ms"), &transaction_timeout) ||
      transaction_timeout <= 0) {
    transaction_timeout = kDefaultTransactionTimeoutMs;
  }
  if (absl::SimpleAtoi(Get(config, "message.timeout.ms"), &message_timeout) &&
      (message_timeout > transaction_timeout || message_timeout == 0)) {
    config["message.timeout.ms"] = std::to_string(transaction_timeout);
  }
  absl::StatusOr<kafka::ConfPtr> conf = kafka::MakeConf(config);
  if (!conf.ok()) return conf.status();
  absl::StatusOr<kafka::RdKafkaPtr> producer =
      kafka::MakeClient(RD_KAFKA_PRODUCER, *std::move(conf));
  if (!producer.ok()) return producer.status();
  // A coordinator that is still loading answers retriably; init_transactions may be called
  // again after a retriable error (librdkafka resumes where it stopped).
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    rd_kafka_error_t* error = rd_kafka_init_transactions(
        producer->get(), static_cast<int>(std::max<int64_t>(left.count(), 1)));
    if (error == nullptr) break;
    const bool retriable = rd_kafka_error_is_retriable(error);
    absl::Status status = TransactionError(error, "init_transactions");
    if (!retriable || std::chrono::steady_clock::now() >= deadline) return status;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return std::unique_ptr<TransactionalProducer>(new TransactionalProducer(*std::move(producer)));
}

TransactionalProducer::~TransactionalProducer() = default;

absl::Status TransactionalProducer::SendInTransaction(
    const std::vector<TransactionalRecord>& records, std::chrono::milliseconds timeout) {
  rd_kafka_t* rk = producer_.get();
  if (rd_kafka_error_t* error = rd_kafka_begin_transaction(rk)) {
    return TransactionError(error, "begin_transaction");
  }
  for (const TransactionalRecord& record : records) {
    const void* key = record.key ? record.key->data() : nullptr;
    const size_t key_size = record.key ? record.key->size() : 0;
    void* value = record.value ? const_cast<char*>(record.value->data()) : nullptr;
    const size_t value_size = record.value ? record.value->size() : 0;
    while (true) {
      rd_kafka_resp_err_t err =
          rd_kafka_producev(rk, RD_KAFKA_V_TOPIC(record.topic.c_str()),
                            RD_KAFKA_V_KEY(key, key_size), RD_KAFKA_V_VALUE(value, value_size),
                            RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END);
      if (err == RD_KAFKA_RESP_ERR_NO_ERROR) break;
      if (err != RD_KAFKA_RESP_ERR__QUEUE_FULL) {
        absl::Status failed = kafka::ToStatus(err, "sending to topic " + record.topic);
        if (rd_kafka_error_t* abort = rd_kafka_abort_transaction(rk, 5000)) {
          rd_kafka_error_destroy(abort);
        }
        return failed;
      }
      rd_kafka_poll(rk, 50);
    }
  }
  rd_kafka_error_t* error = rd_kafka_commit_transaction(rk, static_cast<int>(timeout.count()));
  if (error == nullptr) return absl::OkStatus();
  const bool abortable = rd_kafka_error_txn_requires_abort(error);
  absl::Status failed = TransactionError(error, "commit_transaction");
  if (abortable) {
    if (rd_kafka_error_t* abort = rd_kafka_abort_transaction(rk, 5000)) {
      rd_kafka_error_destroy(abort);
    }
  }
  return failed;
}

}  // namespace connectd::kafka
