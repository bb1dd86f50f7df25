// File: dead_letter_queue.h
//
// Connect's DeadLetterQueueReporter for sink tasks (errors.deadletterqueue.topic.name): a
// record that failed conversion or transformation, tolerated by errors.tolerance=all, is sent
// as it was consumed (key, value, timestamp, headers) to the dead-letter topic, and with
// errors.deadletterqueue.context.headers.enable also with Connect's context headers:
//   __connect.errors.topic / .partition / .offset      where the record came from
//   __connect.errors.connector.name / .task.id
//   __connect.errors.stage / .class.name               KEY_CONVERTER ..., the failing class
//   __connect.errors.exception.class.name / .exception.message / .exception.stacktrace
// all UTF-8 text. Make creates the topic when it is missing (1 partition, the configured
// replication factor), as Java does at task start.
//
// Delivery is asynchronous; the task serves delivery reports with Poll() and waits for them
// with Flush() before it commits offsets, so a skipped record's offset is never committed
// before its dead-letter copy is acknowledged (failures are logged, as Java's are).
//
// Threads: the task thread.
#pragma once

#include <librdkafka/rdkafka.h>

#include <chrono>
#include <map>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "runtime/herder_api/herder_types.h"
#include "runtime/kafka/rdkafka_handles.h"
#include "runtime/worker/record_pipeline.h"

namespace connectd::worker {

class DeadLetterQueueReporter {
 public:
  static absl::StatusOr<std::unique_ptr<DeadLetterQueueReporter>> Make(
      const ErrorHandlingConfig& errors, herder::ConnectorTaskId id,
      const std::map<std::string, std::string>& producer_config);
  ~DeadLetterQueueReporter();

  // Sends the consumed record `original` (its offset `offset`) with the failure's context.
  void Report(const KafkaRecord& original, int64_t offset, const ProcessingError& error);
  void Poll() { rd_kafka_poll(producer_.get(), 0); }
  // Waits for every report sent so far; false on timeout.
  bool Flush(std::chrono::milliseconds timeout);

  // deadletterqueue-produce-requests/-failures go to `metrics` too (may be null).
  void set_metrics(TaskErrorMetrics* metrics) { metrics_ = metrics; }
  int64_t produce_requests() const { return produce_requests_; }
  int64_t produce_failures() const { return produce_failures_; }

 private:
  DeadLetterQueueReporter(ErrorHandlingConfig errors, herder::ConnectorTaskId id,
                          kafka::RdKafkaPtr producer);
  static void OnDelivery(rd_kafka_t*, const rd_kafka_message_t* message, void* opaque);
  void CountFailure();

  ErrorHandlingConfig errors_;
  herder::ConnectorTaskId id_;
  kafka::RdKafkaPtr producer_;
  int64_t produce_requests_ = 0;
  int64_t produce_failures_ = 0;
  TaskErrorMetrics* metrics_ = nullptr;
};

}  // namespace connectd::worker
