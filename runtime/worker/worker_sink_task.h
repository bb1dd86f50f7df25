// File: worker_sink_task.h
//
// WorkerSinkTask: runs one sink task (Connect's WorkerSinkTask): a consumer in group
// `connect-<connector>` (or consumer.override.group.id) subscribed to `topics` or
// `topics.regex`; consumed batches go to put(); every offset.flush.interval.ms (or on
// requestCommit) preCommit() says which offsets are safe and they are committed. Partitions
// assigned and revoked in a rebalance are opened and closed in the plugin, with a synchronous
// commit before revocation. At-least-once: a record's offset is committed only after the plugin
// flushed it.
//
// Records go through the task's RecordPipeline when it has transforms or converters that
// change bytes: a record that fails there fails the task ("Tolerance exceeded in error handler")
// unless errors.tolerance=all, which logs it (errors.log.enable), sends it to the dead-letter
// queue (DeadLetterQueueReporter) and goes on; its offset is committed once the dead-letter copy
// is acknowledged. A record a transform drops is skipped and its offset committed.
//
// Threads: the task thread; the plugin's context calls (seek, pause, resume, requestCommit) may
// come from any thread and are applied on the task thread.
#pragma once

#include <librdkafka/rdkafka.h>

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "runtime/kafka/client_metrics.h"
#include "runtime/kafka/rdkafka_handles.h"
#include "runtime/plugin/plugin_instances.h"
#include "runtime/plugin/plugin_registry.h"
#include "runtime/worker/dead_letter_queue.h"
#include "runtime/worker/record_pipeline.h"
#include "runtime/worker/task_metrics.h"
#include "runtime/worker/worker_task.h"

namespace connectd::worker {

struct SinkTaskOptions {
  plugin::Props task_config;                    // resolved
  std::map<std::string, std::string> consumer;  // librdkafka properties, final (group.id set)
  std::vector<std::string> topics;              // or
  std::string topics_regex;
  std::chrono::milliseconds offset_flush_interval{60000};
  std::chrono::milliseconds offset_flush_timeout{5000};
  int max_batch = 500;
  metrics::MetricsRegistry* metrics = nullptr;  // not null
  // Converters, transforms and errors.tolerance (record_pipeline.h); null or pass-through: the
  // plugin gets the consumed bytes as they are.
  std::shared_ptr<RecordPipeline> pipeline;
  // librdkafka properties of the dead-letter queue producer (errors.deadletterqueue.topic.name).
  std::map<std::string, std::string> dlq_producer;
};

class WorkerSinkTask : public WorkerTask, private plugin::SinkTaskContextHost {
 public:
  WorkerSinkTask(herder::ConnectorTaskId id, StatusListener& listener,
                 herder::TargetState initial_state, const plugin::ConnectorPlugin& plugin,
                 SinkTaskOptions options);
  ~WorkerSinkTask() override;

  int64_t records_put() const { return records_put_.load(); }

 private:
  using TopicPartition = std::pair<std::string, int32_t>;

  absl::Status Initialize() override;
  absl::Status Iterate() override;
  void OnPause() override;
  void OnResume() override;
  void IdleWhilePaused() override;
  void Close() override;
  void SignalPluginStop() override;

  // SinkTaskContextHost (any thread).
  void RequestCommit() override;
  void Seek(std::string_view topic, int32_t partition, int64_t offset) override;
  void Pause(std::string_view topic, int32_t partition) override;
  void Resume(std::string_view topic, int32_t partition) override;
  metrics::MetricsScope* Metrics() override { return &metrics_scope_; }

  // librdkafka's statistics into client_metrics_ (served by rd_kafka_consumer_poll).
  static int StatsCallback(rd_kafka_t* rk, char* json, size_t json_len, void* opaque);
  static void RebalanceCallback(rd_kafka_t* rk, rd_kafka_resp_err_t err,
                                rd_kafka_topic_partition_list_t* partitions, void* opaque);
  void OnRebalance(rd_kafka_resp_err_t err, rd_kafka_topic_partition_list_t* partitions);
  void ApplyContextRequests();
  // Runs each consumed message through the pipeline: the records to put, as bytes and as
  // Connect data (and the messages they came from), are appended; a failure not tolerated is
  // returned.
  absl::Status RunPipeline(const std::vector<kafka::MessagePtr>& messages,
                           std::vector<KafkaRecord>& converted,
                           std::vector<transforms::ConnectRecord>& data,
                           std::vector<const rd_kafka_message_t*>& sources);
  // Commits what preCommit allows; `sync` waits for the broker.
  absl::Status Commit(bool sync);
  void PauseAll(bool pause);

  const plugin::ConnectorPlugin& plugin_;
  SinkTaskOptions options_;
  SinkTaskMetrics task_metrics_;    // task thread
  TaskErrorMetrics error_metrics_;  // task-error-metrics

  std::mutex instance_mu_;
  std::shared_ptr<plugin::SinkTaskInstance> instance_;  // guarded by instance_mu_

  // Task thread only.
  std::unique_ptr<kafka::ClientMetrics> client_metrics_;  // the consumer's metrics
  kafka::RdKafkaPtr consumer_;
  std::map<TopicPartition, int64_t> assigned_;  // partition -> next offset to consume (-1 none)
  // Partition -> the offset last committed (or the first consumed): sink-record-active-count.
  std::map<TopicPartition, int64_t> committed_;
  void PublishActive();
  // One commit attempt: outcome and time into the task's metrics.
  absl::Status RecordCommitAttempt(absl::Status status,
                                   std::chrono::steady_clock::time_point start);
  absl::Status rebalance_failure_;
  std::chrono::steady_clock::time_point next_commit_;
  bool paused_ = false;
  std::set<std::string> topics_seen_;

  std::mutex requests_mu_;
  bool commit_requested_ = false;                  // guarded by requests_mu_
  std::map<TopicPartition, int64_t> seeks_;        // guarded by requests_mu_
  std::map<TopicPartition, bool> pause_requests_;  // guarded by requests_mu_

  std::atomic<int64_t> records_put_{0};
  std::unique_ptr<DeadLetterQueueReporter> dlq_;  // task thread
};

}  // namespace connectd::worker
