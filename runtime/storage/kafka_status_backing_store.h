// File: kafka_status_backing_store.h
//
// KafkaStatusBackingStore: connector, task and active-topic statuses in `status.storage.topic`,
// written and read as Java's KafkaStatusBackingStore does (records: status_records.h; cache,
// safe-write and retry rules: status_state.h), so every worker of a cluster, Java or connectd,
// answers GET .../status from the same data.
//
// Writes are asynchronous: Put* prepares the record under the store's lock (a safe write that
// must not overwrite a newer status is dropped there) and sends it; a send that fails with a
// retriable error is sent again while the cache says it is still wanted, as Java does. Reads
// come from the cache, which the log's thread keeps current.
//
// Threads: any; the log's thread applies consumed records under the store's lock.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "runtime/storage/kafka_based_log.h"
#include "runtime/storage/status_state.h"

namespace connectd::storage {

class KafkaStatusBackingStore {
 public:
  // `log_options.partitions` is status.storage.partitions (Connect's default 5).
  // `open_log` null: the topic on Kafka (see TopicLogOpener).
  explicit KafkaStatusBackingStore(KafkaBasedLog::Options log_options,
                                   TopicLogOpener open_log = nullptr);
  ~KafkaStatusBackingStore();

  absl::Status Start();
  void Stop();

  void PutConnector(const std::string& connector, const StatusValue& status, WriteMode mode);
  void PutTask(const herder::ConnectorTaskId& id, const StatusValue& status, WriteMode mode);
  void PutTopic(const TopicStatusValue& status);
  void DeleteTopic(const std::string& connector, const std::string& topic);

  std::optional<StatusValue> Connector(const std::string& connector) const;
  std::optional<StatusValue> Task(const herder::ConnectorTaskId& id) const;
  std::vector<std::pair<int32_t, StatusValue>> Tasks(const std::string& connector) const;
  std::map<std::string, TopicStatusValue> Topics(const std::string& connector) const;
  // Every connector with a status, task statuses or topic records.
  std::set<std::string> Connectors() const;

  // Waits until every write so far is acknowledged (Java flushes before a rebalance completes).
  absl::Status Flush(std::chrono::milliseconds timeout);
  // Reads the topic to its end.
  absl::Status Refresh(std::chrono::milliseconds timeout);

 private:
  void Send(StatusWrite write);

  const KafkaBasedLog::Options log_options_;
  const TopicLogOpener open_log_;
  mutable std::mutex mu_;
  StatusCache cache_;  // guarded by mu_
  std::unique_ptr<TopicLog> log_;
};

}  // namespace connectd::storage
