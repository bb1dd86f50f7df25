// File: abstract_worker_source_task.h
//
// AbstractWorkerSourceTask: what every source task does, whatever its delivery guarantee
// (Connect's AbstractWorkerSourceTask): the task's producer, poll -> transforms and converters ->
// produce, topic creation, the task's metrics, offset lookups for the plugin, cancellation and
// the plugin's stop. What becomes of a record's source offset is the subclass's, through the
// hooks Connect names the same way: WorkerSourceTask (at-least-once, worker_source_task.h) and
// ExactlyOnceWorkerSourceTask (KIP-618, exactly_once_worker_source_task.h).
//
// Records handed over zero-copy go to librdkafka without a copy and are released after their
// delivery report. Transforms and converters (RecordPipeline), when the connector has any that
// change bytes, run on each polled record before it is produced; commitRecord still sees the
// record as the plugin made it (Connect's preTransformRecord). A record a transform drops, or
// that errors.tolerance=all skips after a failure, goes to RecordDropped.
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
#include "runtime/kafka/batch_copier.h"
#include "runtime/kafka/client_metrics.h"
#include "runtime/kafka/exactly_once.h"
#include "runtime/kafka/rdkafka_handles.h"
#include "runtime/plugin/abi_strings.h"
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
  // The worker's memory for batch pass-through (passthrough.buffer.memory), shared by every
  // task's copier; null: the copier's own, unbounded.
  std::shared_ptr<kafka::protocol::FrameBufferPool> batch_copy_buffers;
};

class AbstractWorkerSourceTask : public WorkerTask, private plugin::SourceTaskContextHost {
 public:
  ~AbstractWorkerSourceTask() override;

  // Counters for tests and metrics (read from any thread).
  int64_t records_polled() const { return records_polled_.load(); }
  int64_t records_acked() const { return records_acked_.load(); }
  int64_t offset_commits() const { return offset_commits_.load(); }

 protected:
  AbstractWorkerSourceTask(herder::ConnectorTaskId id, StatusListener& listener,
                           herder::TargetState initial_state, const plugin::ConnectorPlugin& plugin,
                           SourceTaskOptions options,
                           std::shared_ptr<ConnectorOffsetStore> offsets);

  // One record between poll and its delivery report. Holds the plugin's memory until release
  // (zero-copy) or owns copies of the record's bytes; `view` is what commitRecord sees. The
  // topic points into the task's interned topics; a record whose offset the subclass tracks
  // (SubmitOffset) has its source partition and offset pointing into that entry. A zero-copy
  // record of bytes that no transform touches (MirrorMaker's) is this small object alone: it
  // lives from poll to ack, so its size is what a copy's in-flight window costs in cache
  // misses and allocation (perf: the former 780-byte record was 5-8% of a 100 B copy's CPU).
  struct InFlight {
    // What other records need: copies, Connect data, the transformed record.
    struct Extra {
      std::string owned_partition, owned_offset;  // untracked records only
      std::optional<std::string> owned_key, owned_value;
      std::vector<std::string> owned_header_keys;
      std::vector<std::optional<std::string>> owned_header_values;
      std::vector<connectd_header> headers;
      // The key or value as Connect data (ABI 1.5), which replaces its bytes.
      std::unique_ptr<SourceData> data;
      // After the pipeline: what is produced (`produced` views `transformed`).
      std::optional<KafkaRecord> transformed;
      std::vector<connectd_header> transformed_headers;
      std::optional<connectd_source_record> produced;
    };

    SubmittedRecords::Entry* entry = nullptr;  // null: no source offset, or not tracked
    connectd_source_record view{};
    std::unique_ptr<Extra> extra;  // null until a record needs it

    Extra& extras() {
      if (!extra) extra = std::make_unique<Extra>();
      return *extra;
    }
    bool has_data() const { return extra && extra->data; }
    // The record as produced: transformed when a transform changed it, else `view`.
    const connectd_source_record& produced() const {
      return extra && extra->produced ? *extra->produced : view;
    }

    ~InFlight() {
      if (view.release != nullptr) view.release(view.release_opaque);
    }
  };

  // ---- The subclass's part (Connect's hooks of the same names) ----------------------------
  // After the producer exists and before the plugin starts (prepareToInitializeTask); a
  // failure fails the task.
  virtual absl::Status PrepareToInitializeTask() { return absl::OkStatus(); }
  // A polled record with a source offset, in poll order: the entry that keeps its offset until
  // it is committable, or null when the subclass keeps offsets otherwise.
  virtual SubmittedRecords::Entry* SubmitOffset(std::string_view partition,
                                                std::string_view offset) = 0;
  // A transform dropped the record or errors.tolerance=all skipped it, after commitRecord
  // without metadata (recordDropped): its offset counts as delivered.
  virtual void RecordDropped(InFlight& record) = 0;
  // The producer took the record (recordDispatched).
  virtual void RecordDispatched(const connectd_source_record& record) { (void)record; }
  // The target acknowledged the record (recordSent); `message` is its delivery report.
  virtual void RecordSent(std::unique_ptr<InFlight> record, const rd_kafka_message_t& message) = 0;
  // Close(), before the producer's unsent records are purged and it is destroyed: commit what
  // may be committed (finalOffsetCommit).
  virtual void FinalOffsetCommit() = 0;
  // Batch pass-through (ABI 1.7): the target acknowledged a copied batch whose source offset is
  // `offset` under `partition` (both JSON), after the plugin heard of it. Only tasks that let
  // plugins copy batches (WorkerSourceTask) receive any.
  virtual void BatchAcknowledged(std::string_view partition, std::string_view offset) {
    (void)partition;
    (void)offset;
  }

  // ---- For the subclasses -----------------------------------------------------------------
  // The plugin's poll for at most `timeout` (a retriable failure is logged and yields nothing);
  // fails when an offset lookup of the plugin failed ("Failed to fetch offsets").
  absl::StatusOr<std::vector<std::unique_ptr<InFlight>>> Poll(std::chrono::milliseconds timeout);
  // Transforms (when any) and produces one record; its delivery report comes later.
  absl::Status Send(std::unique_ptr<InFlight> record);
  // Publishes the acknowledgements counted since the last call to the task's metrics.
  void RecordAcknowledged();
  // Cancel() was called: the task was abandoned (a wait should give up).
  bool cancelled();
  // commitRecord with the record's metadata (or none for a dropped record), errors logged.
  void CommitRecord(const connectd_source_record& record, const connectd_record_metadata* metadata);
  // The plugin's SourceTask.commit(), errors logged.
  void CommitTask();
  // Batch pass-through: hands the copier's events to the plugin (batch_copy_event) and each
  // acknowledged batch's offset to BatchAcknowledged, in order; counts the batches' records as
  // polled and written. A failing hook fails the task.
  absl::Status ServeBatchCopies();
  // Whether a copier runs for this task (the plugin handed partitions over).
  bool copying_batches() const { return copier_ != nullptr; }
  // Stops the copier, giving the batches in flight `timeout` to be acknowledged (their events
  // wait for ServeBatchCopies).
  void StopBatchCopies(std::chrono::milliseconds timeout);
  void PauseBatchCopies(bool paused) {
    if (copier_) copier_->SetPaused(paused);
  }

  const SourceTaskOptions& options() const { return options_; }
  ConnectorOffsetStore& offsets() { return *offsets_; }
  rd_kafka_t* producer() { return producer_.get(); }
  plugin::SourceTaskInstance& instance() { return *instance_; }
  bool has_instance() const { return instance_ != nullptr; }
  // The first failure of a send, from a delivery report (task thread).
  const absl::Status& send_failure() const { return send_failure_; }
  int64_t in_flight() const { return in_flight_; }
  // source-task-metrics transaction-size-*: one committed transaction's records.
  void RecordTransactionSize(int64_t records) {
    task_metrics_.RecordTransactionSize(metrics_scope_, id_, records);
  }
  void CountOffsetCommit() { ++offset_commits_; }

 private:
  class Batch;

  absl::Status Initialize() override;
  void Close() override;
  void SignalPluginStop() override;

  // SourceTaskContextHost
  std::optional<std::string> Offset(std::string_view source_partition) override;
  absl::Status CopyBatches(const connectd_batch_copy_request& request) override;
  metrics::MetricsScope* Metrics() override { return &metrics_scope_; }

  // Java's "Failed to fetch offsets.": set when a lookup of the plugin could not read the
  // store. The plugin was told "no offset", so the task fails before it sends anything more.
  absl::Status OffsetReadFailure();

  void RecordPolled(const Batch& batch, std::chrono::steady_clock::time_point poll_start);
  // Runs a record through the pipeline: true to produce its transformed bytes, false when a
  // transform dropped it or errors.tolerance=all skipped it (then it counts as acknowledged:
  // commitRecord without metadata, RecordDropped); an intolerable failure is returned.
  absl::StatusOr<bool> Transform(InFlight& record);
  // The interned copy of `topic` (stable, NUL-terminated).
  std::string_view Intern(std::string_view topic);
  void OnDelivery(const rd_kafka_message_t* message);
  static void DeliveryCallback(rd_kafka_t* rk, const rd_kafka_message_t* message, void* opaque);
  // librdkafka's throttle callback (task thread, inside rd_kafka_poll/flush): a broker delayed a
  // response of the producer for a quota.
  // librdkafka's statistics into client_metrics_ (served on the task thread by rd_kafka_poll).
  static int StatsCallback(rd_kafka_t* rk, char* json, size_t json_len, void* opaque);
  static void ThrottleCallback(rd_kafka_t* rk, const char* broker_name, int32_t broker_id,
                               int throttle_time_ms, void* opaque);
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
  // Declared before producer_: destroyed after it.
  std::unique_ptr<kafka::ClientMetrics> client_metrics_;  // the producer's producer-metrics
  kafka::RdKafkaPtr producer_;
  // producer_ for Cancel() on another thread: set once created, cleared before it is destroyed.
  std::mutex cancel_mu_;
  rd_kafka_t* cancellable_producer_ = nullptr;  // guarded by cancel_mu_
  bool cancelled_ = false;                      // guarded by cancel_mu_
  absl::Status send_failure_;
  std::mutex offset_read_mu_;         // the plugin may look offsets up from any thread
  absl::Status offset_read_failure_;  // guarded by offset_read_mu_
  // Every topic the task wrote to, interned: records point at these (NUL-terminated) strings.
  absl::node_hash_set<std::string> topics_;
  std::string_view last_interned_;  // the last Intern's answer (an element of topics_)
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
  std::atomic<int64_t> offset_commits_{0};

  // Batch pass-through (task thread only). A partition handed to the copier, by its index.
  struct CopiedPartition {
    std::string source_topic;
    std::string target_topic;
    int32_t partition = 0;
    std::string source_partition;  // JSON
    std::string offset_prefix;
    std::string offset_suffix;
  };
  std::unique_ptr<kafka::BatchCopier> copier_;
  std::vector<CopiedPartition> copied_;
  std::set<std::pair<std::string, int32_t>> copying_;  // source partitions the copier holds
};

}  // namespace connectd::worker
