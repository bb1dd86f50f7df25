// File: exactly_once.h
//
// Exactly-once source support (KIP-618) pieces the worker, the herder and the config store
// share: the transactional ids Connect uses, the producer settings it forces, the zombie-fencing
// decision, fencing itself, and a small transactional producer wrapper over librdkafka.
//
// Fencing: Java's leader calls Admin.fenceProducers(ids). librdkafka has no FenceProducers admin
// call (2.14.2 neither); on the wire Admin.fenceProducers is, per transactional id, FindCoordinator
// (TRANSACTION) + InitProducerId with that id, which bumps the id's producer epoch: the old
// holder's next transactional request fails with PRODUCER_FENCED and its open transaction is
// aborted. FenceProducers does exactly that with one short-lived transactional producer per id
// (rd_kafka_init_transactions, then destroy without touching the transaction state).
//
// Thread safety: the free functions are pure or block the calling thread (never call them on
// an Asio handler); TransactionalProducer is used by one thread at a time.
#pragma once

#include <librdkafka/rdkafka.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "runtime/kafka/rdkafka_handles.h"

namespace connectd::kafka {

// Worker.taskTransactionalId: "{group.id}-{connector}-{task}".
std::string TaskTransactionalId(std::string_view group_id, std::string_view connector,
                                int32_t task);
// DistributedConfig.transactionalProducerId: "connect-cluster-{group.id}".
std::string LeaderTransactionalId(std::string_view group_id);

// transaction.boundary of a source connector config.
enum class TransactionBoundary { kPoll, kInterval, kConnector };
// Parses `transaction.boundary` (case-insensitive, default poll); kInvalidArgument otherwise.
absl::StatusOr<TransactionBoundary> ParseTransactionBoundary(
    const std::map<std::string, std::string>& connector_config);
// transaction.boundary.interval.ms, else `offset_flush_interval_ms` (Java's fallback).
std::chrono::milliseconds TransactionBoundaryInterval(
    const std::map<std::string, std::string>& connector_config, int64_t offset_flush_interval_ms);

// Worker.exactlyOnceSourceTaskProducerConfigs on librdkafka properties: `base` is the task's
// producer config as built for at-least-once tasks (Connect's defaults, producer.*, then
// producer.override.*). Idempotence is forced on and transactional.id forced to
// `transactional_id` (Java logs and overrides a user value); librdkafka's rule that
// message.timeout.ms may not exceed transaction.timeout.ms is met by lowering the former.
std::map<std::string, std::string> ExactlyOnceProducerConfig(
    std::map<std::string, std::string> base, const std::string& transactional_id,
    std::vector<std::string>* warnings = nullptr);

// The leader's zombie-fencing decision (DistributedHerder.doFenceZombieSourceTasks) from the
// config snapshot: nothing to do unless the connector is pending fencing; then a task-count
// record is written, after fencing `fence_count` old task producers when a task-count record
// exists and the old and new counts are not both 1.
struct FencingDecision {
  bool write_task_count = false;  // false: every older generation is already fenced
  int32_t fence_count = 0;        // transactional ids {group}-{c}-0..fence_count-1
  int32_t task_count = 0;         // the task-count record to write
};
FencingDecision DecideFencing(bool pending_fencing, std::optional<int32_t> task_count_record,
                              int32_t task_count);

// Fences the producers of `transactional_ids` (see the file comment): `client_config` holds the
// connection settings (bootstrap, security); each id gets InitProducerId within `timeout`.
absl::Status FenceProducers(const std::map<std::string, std::string>& client_config,
                            const std::vector<std::string>& transactional_ids,
                            std::chrono::milliseconds timeout);

// Turns a librdkafka transactional error into a Status (fatal/abortable noted in the message).
absl::Status TransactionError(rd_kafka_error_t* error, std::string_view what);

// One record of a transaction (offset records, config-topic records).
struct TransactionalRecord {
  std::string topic;
  std::optional<std::string> key;
  std::optional<std::string> value;  // nullopt: a tombstone
};

// A transactional producer that writes whole batches: Begin/Send.../Commit, Abort on failure.
class TransactionalProducer {
 public:
  // Creates the producer and runs init_transactions (fencing any older instance of the id).
  static absl::StatusOr<std::unique_ptr<TransactionalProducer>> Create(
      std::map<std::string, std::string> config, std::chrono::milliseconds timeout);
  ~TransactionalProducer();

  // begin_transaction; sends `records` (murmur2 partitioning on the key, as Java's producer);
  // commit_transaction. On failure the transaction is aborted when librdkafka allows it; the
  // producer is unusable afterwards if the error was fatal (e.g. fenced).
  absl::Status SendInTransaction(const std::vector<TransactionalRecord>& records,
                                 std::chrono::milliseconds timeout);
  rd_kafka_t* get() const { return producer_.get(); }

 private:
  explicit TransactionalProducer(kafka::RdKafkaPtr producer) : producer_(std::move(producer)) {}
  kafka::RdKafkaPtr producer_;
};

}  // namespace connectd::kafka
