// File: mirror_source_task.h
//
// MirrorSourceTask: consumes its assigned source partitions (assign(), no consumer group) and
// hands each record to the worker zero-copy: key, value and headers are read in place from the
// librdkafka message until the target acknowledges it. Records keep key, value, headers,
// timestamp and partition number; the topic is renamed by the replication policy. Source
// offsets are Kafka's ({cluster,partition,topic} -> {offset}), so a task resumes where Java
// MM2 stopped and the reverse. Acknowledged records feed the offset-syncs writer.
//
// Data gaps are not silent. librdkafka resets nothing by itself (its auto.offset.reset is
// "error"): when a partition's position is out of range, the task asks the source for the
// partition's log start and end and applies the user's auto.offset.reset (Java MM2's default,
// earliest) itself. A position below the log start is a retention gap: the offsets skipped are
// counted per partition (`skipped-offset-count`) and logged at WARN with topic, old and new
// offsets; a position beyond the log end (a truncated or re-created topic) is logged the same way.
//
// Re-created topics: the source offsets this task writes carry the source topic's ID next to
// Kafka's offset ({"offset":N,"topic_id":"<base64>"}; Java reads {"offset":N} and ignores the
// rest). When the connector's task config (kTaskAssignedTopicIds) names another ID for the topic
// than a stored offset does, the topic was deleted and re-created since: the partition starts from
// the new topic's beginning instead of from offset N+1 of the old one (which would skip the new
// topic's first N+1 records), logged at WARN and counted (`source-topic-recreated-count`).
//
// The consumer's throttling by the source's brokers is Java's consumer metric
// (kafka.consumer:type=consumer-fetch-manager-metrics,client-id=<A->B|name-N|replication-consumer>
// fetch-throttle-time-avg/-max), which flow health names when the source's quota slows a flow.
//
// Metrics, per assigned partition, with Kafka's names and tags
// (kafka.connect.mirror:type=MirrorSourceConnector,source=,target=,topic=<remote>,partition=):
// record-count/-rate and replication-latency-ms(-min/-max/-avg) when the target acknowledges a
// record; byte-count/-rate and record-age-ms(-min/-max/-avg) when it is polled. connectd's own,
// the truth per partition that flow health reads (runtime/mirror_maker/health), at Kafka's DEBUG
// recording level (served by GET /metrics with metrics.recording.level=DEBUG; flow health publishes
// them per topic at INFO) except the two counts:
//   source-end-offset, source-position  every second: the source partition's end (high
//                                       watermark, or last stable offset under
//                                       read_committed, as of the last fetch) and the
//                                       consumer's position (the next offset to copy)
//   oldest-unreplicated-age-ms          every second: the age of the oldest record not yet
//                                       acknowledged by the target, 0 when caught up. For a
//                                       record read, from its timestamp; for records that wait
//                                       unread (a partition that cannot be read, a backlog), a
//                                       lower bound: the time since the task first saw the
//                                       source's end pass the position
//   source-topic-recreated-count        stored offsets found to belong to a re-created
//                                       topic's earlier life (see above)
//   fetch-error-code, -count,           what the consumer reported for the partition
//   -first-ms, -last-ms                 (authorization, unknown topic, ...): Kafka's or
//                                       librdkafka's error code, 0 once records flow again;
//                                       made on the first error only
//   produce-error-code, -count,         pass-through only: what the target answered the
//   -first-ms, -last-ms                 partition's batches (not leader, not enough replicas,
//                                       -195 unreachable), 0 once a batch is acknowledged;
//                                       made on the first error only
//
// Pass-through (passthrough.enabled, default true; issue 31). At start the task hands every
// partition with a concrete start offset to the worker to copy as record batches (plugin ABI
// 1.7); the worker refuses when the connector's config needs records (transforms, converters
// other than ByteArrayConverter, exactly-once delivery), and the task then consumes them as
// before (logged once). Acknowledged batches feed the same metrics (record-count per record,
// byte-count with the batch's bytes, replication-latency and record-age from the batch's newest
// timestamp), the offset syncs and the exact offset index (one run per batch); `passthrough`
// (1/0, per partition) says which path copies it. A partition the worker returns (a batch that
// cannot travel as bytes, an offset out of range, a refused batch) is consumed from the
// returned position; when the worker says from where batches could be copied again (the end
// of a compacted batch, of the batch a stored offset points into), the records up to there are
// copied one by one and the partition is handed over again.
//
// Threads: start/poll/commit/commitRecord/batchCopyEvent on the task thread; stop from any
// thread.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "connectd/sdk/sdk.h"
#include "connectors/mirror/fifo.h"
#include "connectors/mirror/kafka_clients.h"
#include "connectors/mirror/offset_sync_writer.h"
#include "connectors/mirror_client/replication_policy.h"

namespace connectd::mirror {

class MirrorSourceTask : public sdk::SourceTask {
 public:
  ~MirrorSourceTask() override;
  void start(const sdk::Props& props) override;
  void poll(sdk::SourceBatch& batch) override;
  void commit() override;
  void commitRecord(const sdk::SourceRecordView& record,
                    const sdk::RecordMetadata* metadata) override;
  void batchCopyEvent(const sdk::BatchCopyEvent& event) override;
  void stop() override;

 private:
  struct PartitionMetrics {
    sdk::Sensor records;                  // at ack: record-count, record-rate
    sdk::Sensor replication_latency;      // at ack: now - source timestamp
    sdk::Sensor bytes;                    // at poll: value bytes
    sdk::Sensor record_age;               // at poll: now - source timestamp
    sdk::Sensor skipped_offsets;          // offsets lost to resets (connectd's own)
    sdk::Sensor truncated_offsets;        // copied offsets the source lost (connectd's own)
    sdk::Sensor recreations;              // stored offsets of a re-created topic (connectd's own)
    sdk::Sensor end_offset;               // every second (connectd's own)
    sdk::Sensor position;                 // every second (connectd's own)
    sdk::Sensor oldest_unreplicated_age;  // every second (connectd's own)
    sdk::Sensor passthrough;              // 1 while copied as batches (connectd's own)
    // metric.names.formats=new (KIP-1280): Java's four under kafka.connect:type=plugins.
    sdk::Sensor new_records;
    sdk::Sensor new_replication_latency;
    sdk::Sensor new_bytes;
    sdk::Sensor new_record_age;
  };
  // A partition's consumer errors (made on its first error).
  struct PartitionErrors {
    sdk::Sensor code;
    sdk::Sensor count;
    sdk::Sensor first_ms;
    sdk::Sensor last_ms;
    bool active = false;
  };
  struct PartitionInfo {
    std::string source_topic;
    const std::string* remote_topic;  // owned by remote_topics_
    std::string partition_json;
    int64_t next_offset = -1;  // expected next upstream offset, -1 unknown
    // What follows the offset in this partition's source offsets: `,"topic_id":"<id>"}` or `}`.
    std::string offset_suffix = "}";
    int64_t recorded_end_offset = -1;  // the last values given to the metrics
    int64_t recorded_position = -1;
    double recorded_age = 0.0;
    // (offset, timestamp or -1) of each record polled and not yet acknowledged, oldest first.
    Fifo<std::pair<int64_t, int64_t>> unacked;
    // (end offset, when first seen) at each change of the source's end while it was ahead of
    // the position, oldest first: the record at the position was written before the first
    // entry whose end is past it (kMaxEndSamples at most; dropping the oldest keeps a bound).
    Fifo<std::pair<int64_t, int64_t>> end_samples;
    PartitionMetrics metrics;
    std::unique_ptr<PartitionErrors> errors;         // the source's (fetch-error-*)
    std::unique_ptr<PartitionErrors> target_errors;  // pass-through's target (produce-error-*)
    // Pass-through: the worker copies the partition as batches (the consumer does not hold it).
    bool copied_as_batches = false;
    // Returned by the worker with an offset from which it could copy batches again: records are
    // copied up to it, then the partition is handed over anew (-1: none).
    int64_t hand_back_at = -1;
    bool unassigned = false;  // taken from the consumer, waiting to be handed over
  };
  PartitionMetrics MakeMetrics(const std::string& remote_topic, int32_t partition);
  sdk::MetricTags Tags(const std::string& remote_topic, int32_t partition) const;
  void RecordError(PartitionInfo& info, int32_t partition, int code, int64_t now);
  // The target's error for the partition's batches (pass-through), 0 once one is acknowledged.
  void RecordTargetError(PartitionInfo& info, int32_t partition, int code, int64_t now);
  // One side's error sensors (`prefix`: fetch or produce), made on its first error.
  std::unique_ptr<PartitionErrors> MakeErrorSensors(const PartitionInfo& info, int32_t partition,
                                                    const std::string& prefix,
                                                    const std::string& whose);
  // Records `code` (0: the side works again) in `e`.
  static void RecordErrorIn(PartitionErrors& e, int code, int64_t now);
  // A pass-through progress event's errors, by the side that gave them (ABI 1.8; an older
  // host's event has one error_code, counted as the source's as before).
  void RecordBatchCopyErrors(PartitionInfo& info, const sdk::BatchCopyEvent& event, int64_t now);
  // Every second: each partition's end offset and position.
  void RecordProgress(int64_t now);
  PartitionInfo& Info(const std::string& topic, int32_t partition);
  void OnConsumerError(const rd_kafka_message_t* message);
  // A partition's end reached: its position moves to the end, past offsets that hold no record.
  void OnEndOfPartition(const rd_kafka_message_t* message);
  // Where partition `partition` of `topic` starts: its stored offset + 1, or where
  // auto.offset.reset says when there is none or it belongs to an earlier life of the topic.
  int64_t StartOffset(const std::string& topic, int32_t partition, PartitionInfo& info);
  // Applies auto.offset.reset to the partitions whose position was out of range (at most once a
  // second while the source cannot be asked).
  void HandleResets(int64_t now);
  // Restarts fetching `topic`-`partition` at `offset`.
  // Replaces the BEGINNING/END offsets of `assignment` by the offsets they stand for now (one
  // ListOffsets round trip; unanswered ones stay logical).
  void ResolveLogicalOffsets(rd_kafka_topic_partition_list_t* assignment);
  void Reposition(const std::string& topic, int32_t partition, int64_t offset);
  // The gauges of a partition's end and position, and the age of its oldest unreplicated
  // record, from the source's end `high` and the next offset to copy `position`.
  void RecordPosition(PartitionInfo& info, int64_t high, int64_t position, int64_t now);

  // ---- Batch pass-through (passthrough.enabled) ----
  // Hands `partitions` (source topic, partition, next offset) to the worker to copy as
  // batches; those it takes are marked. Returns whether it took them (else the reason is
  // logged, once per task).
  bool HandOver(const std::vector<std::tuple<std::string, int32_t, int64_t>>& partitions);
  // The consumer starts or stops fetching one partition.
  void AssignAt(const std::string& topic, int32_t partition, int64_t offset);
  void Unassign(const std::string& topic, int32_t partition);
  // Partitions copied as records up to their hand_back_at go back to the worker.
  void HandBack();

  std::string source_alias_;
  std::string target_alias_;
  // KIP-1280 `new` names: kafka.connect:type=plugins,connector=<name>,task=<task.index>,...
  bool new_metric_names_ = false;
  std::string connector_name_;
  std::string task_index_;
  std::unique_ptr<ReplicationPolicy> policy_;
  // How long the source's brokers throttled the consumer (its quota): Java's consumer metric
  // kafka.consumer:type=consumer-fetch-manager-metrics,client-id= fetch-throttle-time-avg/-max.
  // Declared before consumer_, whose callbacks use it until it is destroyed.
  sdk::Sensor consumer_throttle_;
  KafkaHandle consumer_;
  std::unique_ptr<OffsetSyncWriter> offset_syncs_;
  int poll_timeout_ms_ = 1000;
  int max_poll_records_ = 500;                                     // Java's consumer default
  std::map<std::string, std::string> remote_topics_;               // source -> remote
  std::map<std::string, std::string, std::less<>> source_topics_;  // remote -> source
  std::map<std::pair<std::string, int32_t>, PartitionInfo> partitions_;
  // The partition of the last acknowledged record (acks come in runs per partition).
  const std::string* last_acked_topic_ = nullptr;  // remote name, owned by remote_topics_
  int32_t last_acked_partition_ = -1;
  PartitionInfo* last_acked_ = nullptr;
  // The partition of the last polled record (fetches come in runs per partition too).
  PartitionInfo* last_polled_ = nullptr;
  int32_t last_polled_partition_ = -1;
  // The PartitionInfo of an acknowledged record of remote topic `remote`, or nullptr.
  PartitionInfo* AckedPartition(std::string_view remote, int32_t partition);
  std::string reset_policy_;                      // the user's auto.offset.reset
  std::map<std::string, std::string> topic_ids_;  // source topic -> ID (kTaskAssignedTopicIds)
  // Partitions whose position `second` was out of range, waiting for HandleResets.
  std::map<std::pair<std::string, int32_t>, int64_t> pending_resets_;
  int64_t next_reset_attempt_ms_ = 0;
  int64_t next_progress_ms_ = 0;
  std::atomic<bool> stopping_{false};
  bool passthrough_enabled_ = true;
  bool passthrough_refusal_logged_ = false;
  std::map<std::string, std::string> source_client_;      // librdkafka properties of the source
  std::set<std::pair<std::string, int32_t>> hand_backs_;  // partitions with hand_back_at set
};

}  // namespace connectd::mirror
