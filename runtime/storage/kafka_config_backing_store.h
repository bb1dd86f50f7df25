// File: kafka_config_backing_store.h
//
// KafkaConfigBackingStore: connector configs, task configs, target states, restart requests and
// session keys in `config.storage.topic` (one partition, compacted), written and read as Java's
// KafkaConfigBackingStore does (records: config_records.h; read rules: config_state.h), so Java
// and connectd workers share one config topic.
//
// Start reads the whole topic (listeners are told nothing about that history) and then follows
// it; every write waits for the broker's acknowledgement and, where Java does, reads the topic
// to its end before returning so the writer's own snapshot includes the write.
//
// Threads: public methods from any thread (writes block the caller up to the write timeout:
// call them from the herder thread, never from an Asio handler). Listener callbacks run on the
// log's thread while the store's lock is held: a listener must not call back into the store;
// it should post work to the herder.
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "runtime/kafka/exactly_once.h"
#include "runtime/storage/config_state.h"
#include "runtime/storage/kafka_based_log.h"

namespace connectd::storage {

class KafkaConfigBackingStore {
 public:
  // `open_log` null: the topic on Kafka (see TopicLogOpener).
  KafkaConfigBackingStore(KafkaBasedLog::Options log_options, ConfigStateListener* listener,
                          std::chrono::milliseconds write_timeout = std::chrono::seconds(30),
                          TopicLogOpener open_log = nullptr);
  ~KafkaConfigBackingStore();

  // Before Start(), with exactly.once.source.support preparing or enabled: privileged writes
  // (connector configs, task configs and commits, task-count records, session keys, restart
  // requests) go through a transactional producer with these librdkafka properties
  // (transactional.id connect-cluster-{group.id}, idempotent, acks=all), one transaction per
  // batch, as Java's fencable leader writer. Target states and logger levels never do.
  void UseTransactionalLeader(std::map<std::string, std::string> producer_config);
  bool uses_transactional_leader() const { return transactional_config_.has_value(); }
  // The leader's claim (Java's claimWritePrivileges): creates the producer and runs
  // init_transactions, which fences a previous leader's producer. No-op without a transactional
  // leader or when already claimed. A privileged write that fails (e.g. fenced by a newer
  // leader) relinquishes the claim; the next privileged write claims again.
  absl::Status ClaimWritePrivileges();
  void RelinquishWritePrivileges();

  // kFailedPrecondition (Connect's message) if the topic has more than one partition.
  absl::Status Start();
  void Stop();

  // The state as read so far (a copy).
  ClusterConfigState Snapshot() const;
  // Reads the topic to its end (what Java's refresh does before a leader acts).
  absl::Status Refresh(std::chrono::milliseconds timeout);

  absl::Status PutConnectorConfig(const std::string& connector, const ConfigProperties& config,
                                  std::optional<herder::TargetState> initial_state = std::nullopt);
  absl::Status RemoveConnectorConfig(const std::string& connector);
  absl::Status PutTaskConfigs(const std::string& connector,
                              const std::vector<ConfigProperties>& task_configs);
  absl::Status PutTargetState(const std::string& connector, herder::TargetState state);
  absl::Status PutRestartRequest(const herder::RestartRequest& request);
  absl::Status PutSessionKey(const SessionKey& key);
  // logger-cluster-{ns}: every worker applies it when it reads it (not privileged).
  absl::Status PutLoggerLevel(const std::string& logging_namespace, const std::string& level);
  // tasks-fencing-{c} {"task-count":N} (privileged; read to end afterwards).
  absl::Status PutTaskCountRecord(const std::string& connector, int32_t task_count);

 private:
  // Sends `records` as one batch and waits for every acknowledgement; then reads to the end
  // if `read_to_end`.
  absl::Status Write(const std::vector<ConfigTopicRecord>& records, bool read_to_end);
  // A leader-only write: through the transactional producer when there is one, else Write.
  absl::Status WritePrivileged(const std::vector<ConfigTopicRecord>& records, bool read_to_end);

  const KafkaBasedLog::Options log_options_;
  const std::chrono::milliseconds write_timeout_;
  const TopicLogOpener open_log_;
  mutable std::mutex mu_;
  ConfigStateTracker tracker_;  // guarded by mu_
  std::unique_ptr<TopicLog> log_;
  std::optional<std::map<std::string, std::string>> transactional_config_;  // set before Start
  std::mutex leader_mu_;
  std::unique_ptr<kafka::TransactionalProducer> leader_producer_;  // guarded by leader_mu_
};

}  // namespace connectd::storage
