// File: record_pipeline.h
//
// The data plane of one task, between the plugin and Kafka, as Connect runs it: the task's
// converters (key, value, header), the connector's transformation chain, and where a record
// fails, what errors.tolerance says (Connect's RetryWithToleranceOperator with its LogReporter;
// the dead-letter queue is worker_sink_task's).
//
//   source: plugin record (bytes or data) -> transforms -> converters.fromConnectData -> produce
//   sink:   consumed record -> converters.toConnectData -> transforms -> plugin record
//
// A source plugin's key and value enter as Connect BYTES (Schema.OPTIONAL_BYTES, what
// MirrorMaker's records are in Java), or as the Connect data a 1.5 plugin gave (SourceData). A
// sink plugin receives the transformed data (PipelineOutcome::data) and its bytes, written back
// by the same converter (a bytes or string value as it is). Headers the record came with keep their
// bytes unless a transform replaces them; headers a transform adds are written by the header
// converter.
//
// PassThrough(): no transforms and byte-preserving key/value converters; the task then skips
// the pipeline and keeps its zero-copy path.
//
// Thread safety: one task thread.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/converters/converter.h"
#include "runtime/transforms/transformation_chain.h"
#include "runtime/worker/task_metrics.h"

namespace connectd::worker {

// errors.* of a connector (ConnectorConfig / SinkConnectorConfig).
struct ErrorHandlingConfig {
  bool tolerate_all = false;  // errors.tolerance=all
  int64_t retry_timeout_ms = 0;
  int64_t retry_delay_max_ms = 60000;
  bool log_enable = false;
  bool log_include_messages = false;
  std::string dlq_topic;  // sink connectors; empty: no dead-letter queue
  int16_t dlq_replication_factor = 3;
  bool dlq_context_headers = false;

  static absl::StatusOr<ErrorHandlingConfig> FromConnectorConfig(
      const std::map<std::string, std::string>& config);
};

// Connect's Stage: where in the pipeline a record failed.
enum class Stage { kKeyConverter, kValueConverter, kHeaderConverter, kTransformation };
std::string_view StageName(Stage stage);  // "KEY_CONVERTER", ...

struct ProcessingError {
  Stage stage;
  std::string executing_class;  // the converter's or transformation's Java class
  std::string exception_class;  // org.apache.kafka.connect.errors.DataException
  std::string message;
};

// A record in Kafka's terms. timestamp_ms < 0: none.
struct KafkaRecord {
  std::string topic;
  std::optional<int32_t> partition;
  std::optional<std::string> key;
  std::optional<std::string> value;
  int64_t timestamp_ms = -1;
  std::vector<std::pair<std::string, std::optional<std::string>>> headers;
};

// A source plugin's key or value as Connect data (ABI 1.5), instead of its bytes.
struct SourceData {
  std::optional<converters::SchemaAndValue> key;
  std::optional<converters::SchemaAndValue> value;
};

// What became of one record: passed on, dropped by a transform (`filtered`), or failed.
struct PipelineOutcome {
  std::optional<KafkaRecord> record;
  // ToSink: the record as Connect data, after the transforms (what a 1.5 sink plugin sees).
  std::optional<transforms::ConnectRecord> data;
  std::optional<ProcessingError> error;
  bool filtered() const { return !record && !error; }
};

class RecordPipeline {
 public:
  // From the connector config and the worker's config (for converters the connector does not
  // name). kInvalidArgument for an unsupported converter or a bad transform/error config.
  // `plugin_stages` (may be null): transformation and predicate classes plugins provide.
  static absl::StatusOr<std::unique_ptr<RecordPipeline>> Make(
      const std::map<std::string, std::string>& connector_config,
      const std::map<std::string, std::string>& worker_config,
      const transforms::StageClasses* plugin_stages = nullptr);

  ~RecordPipeline();

  bool PassThrough() const { return pass_through_; }
  const ErrorHandlingConfig& errors() const { return errors_; }

  // `data`: the plugin's key or value as Connect data, which replaces the record's bytes.
  PipelineOutcome FromSource(KafkaRecord plugin_record, SourceData data = {});
  // `offset`: the consumed record's offset (SinkRecord.kafkaOffset, for InsertField).
  PipelineOutcome ToSink(KafkaRecord consumed, int64_t offset);

  // errors.retry.timeout / errors.retry.delay.max.ms: a transformation stage failing retriably
  // (a plugin's RetriableException) is tried again with Java's backoff (300 ms doubling; above
  // the max delay a random delay below it) until it succeeds or the timeout passes (-1: no
  // timeout), and no longer once `stopping` answers true. Set by the task before its first
  // record; `stopping` is called from the task thread.
  void SetStopCheck(std::function<bool()> stopping);
  // Where failed attempts and retries are counted (task-error-metrics); the task counts errors,
  // skipped records and DLQ writes itself. May be null; outlives the pipeline's use.
  void SetErrorMetrics(TaskErrorMetrics* metrics);

 private:
  struct Converters {
    std::unique_ptr<converters::Converter> key, value, header;
    std::string key_class, value_class, header_class;
  };

  RecordPipeline() = default;
  ProcessingError Failed(Stage stage, const std::string& executing_class,
                         const absl::Status& status);
  absl::StatusOr<KafkaRecord> Write(const transforms::ConnectRecord& record, Stage* failed_stage,
                                    std::string* failed_class);

  class JavaBackoffRetrier;

  Converters converters_;
  transforms::TransformationChain chain_;
  std::unique_ptr<JavaBackoffRetrier> retrier_;  // null: errors.retry.timeout=0
  TaskErrorMetrics* error_metrics_ = nullptr;
  std::vector<std::string> transform_classes_;  // per stage, for error reports
  ErrorHandlingConfig errors_;
  bool pass_through_ = false;
};

}  // namespace connectd::worker
