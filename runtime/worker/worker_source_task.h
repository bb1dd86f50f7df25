// File: worker_source_task.h
//
// WorkerSourceTask: runs one source task (Connect's AbstractWorkerSourceTask, at-least-once):
// poll the plugin -> produce each record with the task's own producer -> on acknowledgement
// call commitRecord and make its source offset committable -> every offset.flush.interval.ms
// (and on stop) commit the committable offsets, then call the plugin's commit.
//
// No data loss: an offset is committed only for records the broker acknowledged, together with
// every earlier record of the same source partition (SubmittedRecords). Records handed over
// zero-copy go to librdkafka without a copy and are released after their delivery report.
//
// Exactly-once mode (KIP-618, SourceTaskOptions::exactly_once; Connect's
// ExactlyOnceWorkerSourceTask): before the plugin starts, a zombie-fencing round
// (pre_producer_check), init_transactions on the task's transactional producer, then a check that
// the task's configs are still current (post_producer_check); a failure fails the task. Each
// transaction holds the records of one or more poll batches (transaction.boundary poll or
// interval) plus their source offsets, written by the same producer to the connector's offsets
// topic; commitRecord and commit run only after the transaction committed. A failed commit
// aborts the transaction and fails the task, so no offset is ever stored for records that were
// not committed with it.
//
// Transforms and converters (RecordPipeline), when the connector has any that change bytes, run
// on each polled record before it is produced; commitRecord still sees the record as the plugin
// made it (Connect's preTransformRecord). A record a transform drops, or that errors.tolerance=all
// skips after a failure, is acknowledged at once: commitRecord without metadata, and its source
// offset becomes committable in order.
//
// Threads: everything on the task thread (delivery reports run inside rd_kafka_poll there);
// Stop()/Transition() from any thread.
#pragma once

#include <librdkafka/rdkafka.h>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/container/node_hash_set.h"
#include "runtime/kafka/exactly_once.h"
#include "runtime/kafka/rdkafka_handles.h"
#include "runtime/plugin/plugin_instances.h"
#include "runtime/plugin/plugin_registry.h"
#include "runtime/worker/record_pipeline.h"
#include "runtime/worker/source_offsets.h"
#include "runtime/worker/task_metrics.h"
#include "runtime/worker/topic_creation.h"
#include "runtime/worker/worker_task.h"

namespace connectd::worker {

struct ExactlyOnceTaskOptions {
  kafka::TransactionBoundary boundary = kafka::TransactionBoundary::kPoll;
  std::chrono::milliseconds boundary_interval{60000};  // kInterval only
  std::string offsets_topic;  // the connector's primary offsets topic (written in transactions)
  // Blocking checks on the task thread (Connect's pre/postProducerCheck); `stopping` says the
  // task was asked to stop (a check should give up then). Null: nothing to check.
  std::function<absl::Status(const std::function<bool()>& stopping)> pre_producer_check;
  std::function<absl::Status(const std::function<bool()>& stopping)> post_producer_check;
  std::chrono::milliseconds transaction_timeout{60000};  // init and commit of a transaction
};

struct SourceTaskOptions {
  plugin::Props task_config;                    // resolved (config providers applied)
  std::map<std::string, std::string> producer;  // librdkafka properties, final
  std::chrono::milliseconds offset_flush_interval{60000};
  std::chrono::milliseconds offset_flush_timeout{5000};
  std::chrono::milliseconds poll_timeout{1000};
  metrics::MetricsRegistry* metrics = nullptr;  // not null
  // Set: the task runs transactionally; `producer` then carries the transactional settings.
  std::optional<ExactlyOnceTaskOptions> exactly_once;
  // Transforms, converters and errors.tolerance (record_pipeline.h); null or pass-through:
  // records are produced as the plugin handed them over.
  std::shared_ptr<RecordPipeline> pipeline;
  // topic.creation.* (KIP-158); null: topics are left to the broker's auto-creation.
  std::shared_ptr<TopicCreation> topic_creation;
};

class WorkerSourceTask : public WorkerTask, private plugin::SourceTaskContextHost {
 public:
  WorkerSourceTask(herder::ConnectorTaskId id, StatusListener& listener,
                   herder::TargetState initial_state, const plugin::ConnectorPlugin& plugin,
                   SourceTaskOptions options, std::shared_ptr<ConnectorOffsetStore> offsets);
  ~WorkerSourceTask() override;

  // Counters for tests and metrics (read from any thread).
  int64_t records_polled() const { return records_polled_.load(); }
  int64_t records_acked() const { return records_acked_.load(); }
  int64_t offset_commits() const { return offset_commits_.load(); }

 private:
  struct InFlight;
  class Batch;

  absl::Status Initialize() override;
  absl::Status Iterate() override;
  void Close() override;
  void SignalPluginStop() override;

  // SourceTaskContextHost
  std::optional<std::string> Offset(std::string_view source_partition) override;
  metrics::MetricsScope* Metrics() override { return &metrics_scope_; }

  // Java's "Failed to fetch offsets.": set when a lookup of the plugin could not read the
  // store. The plugin was told "no offset", so the task fails before it sends anything more.
  absl::Status OffsetReadFailure();

  void RecordPolled(const Batch& batch, std::chrono::steady_clock::time_point poll_start);
  void RecordAcknowledged();
  absl::Status Send(std::unique_ptr<InFlight> record);
  // Runs a record through the pipeline: true to produce its transformed bytes, false when a
  // transform dropped it or errors.tolerance=all skipped it (then it counts as acknowledged:
  // commitRecord without metadata, its offset committable); an intolerable failure is returned.
  absl::StatusOr<bool> Transform(InFlight& record);
  // The interned copy of `topic` (stable, NUL-terminated).
  std::string_view Intern(std::string_view topic);
  void OnDelivery(const rd_kafka_message_t* message);
  static void DeliveryCallback(rd_kafka_t* rk, const rd_kafka_message_t* message, void* opaque);
  // librdkafka's throttle callback (task thread, inside rd_kafka_poll/flush): a broker delayed a
  // response of the producer for a quota.
  static void ThrottleCallback(rd_kafka_t* rk, const char* broker_name, int32_t broker_id,
                               int throttle_time_ms, void* opaque);
  void CommitOffsets();
  // Exactly-once: the poll loop, and the commit of the open transaction with the offsets of its
  // records (then commitRecord for each, then the plugin's commit).
  absl::Status IterateTransactional();
  absl::Status CommitTransaction();
  void AbortTransaction();
  void OnPause() override;
  // Purges the producer's queued and in-flight records (they fail, so their offsets are never
  // committed). The task thread is stopping by then; records it still sends before it notices
  // (at most the rest of the batch at hand) are dropped by Close() unless delivered first.
  void Cancel() override;
  void ForgetProducer();  // before producer_ is destroyed

  const plugin::ConnectorPlugin& plugin_;
  SourceTaskOptions options_;
  std::shared_ptr<ConnectorOffsetStore> offsets_;

  std::mutex instance_mu_;
  std::shared_ptr<plugin::SourceTaskInstance> instance_;  // guarded by instance_mu_

  // Task thread only.
  kafka::RdKafkaPtr producer_;
  // producer_ for Cancel() on another thread: set once created, cleared before it is destroyed.
  std::mutex cancel_mu_;
  rd_kafka_t* cancellable_producer_ = nullptr;  // guarded by cancel_mu_
  bool cancelled_ = false;                      // guarded by cancel_mu_
  SubmittedRecords submitted_;
  absl::Status send_failure_;
  std::mutex offset_read_mu_;         // the plugin may look offsets up from any thread
  absl::Status offset_read_failure_;  // guarded by offset_read_mu_
  std::chrono::steady_clock::time_point next_commit_;
  // Every topic the task wrote to, interned: records point at these (NUL-terminated) strings.
  absl::node_hash_set<std::string> topics_;
  // The interned topics a record was produced to (created first, with topic.creation.*).
  absl::flat_hash_set<const char*> produced_topics_;
  const char* last_produced_topic_ = nullptr;  // in produced_topics_: skips the lookup

  std::atomic<int64_t> records_polled_{0};
  std::atomic<int64_t> records_acked_{0};
  int64_t acked_published_ = 0;  // task thread: acks already recorded in task_metrics_
  SourceTaskMetrics task_metrics_;
  TaskErrorMetrics error_metrics_;  // task-error-metrics
  // Kafka's producer-metrics produce-throttle-time-avg/-max of the task's producer (client-id
  // tag), recorded by ThrottleCallback; flow health names the quota with it.
  metrics::Sensor* producer_throttle_ = nullptr;
  int64_t in_flight_ = 0;  // task thread: produced, delivery report not yet served
  // The longest plugin poll while records await their acknowledgement.
  static constexpr std::chrono::milliseconds kAckPollInterval{20};
  std::atomic<int64_t> offset_commits_{0};

  // Exactly-once state, task thread only.
  struct Delivered {
    std::unique_ptr<InFlight> record;
    std::string topic;
    int32_t partition = 0;
    int64_t offset = 0;
    int64_t timestamp_ms = 0;
  };
  bool transaction_open_ = false;
  bool eos_failed_ = false;   // a transaction failed: no final commit
  absl::Status eos_failure_;  // why, for the next iteration (a failed commit on pause)
  std::map<std::string, std::string> transaction_offsets_;  // partition JSON -> newest offset
  std::vector<Delivered> transaction_delivered_;            // acked, awaiting the commit
  std::chrono::steady_clock::time_point last_transaction_commit_;
};

}  // namespace connectd::worker
