#include "runtime/worker/task_metrics.h"

#include <string>
#include <utility>
#include <vector>

namespace connectd::worker {
namespace {

constexpr char kDomain[] = "kafka.connect";
using metrics::StatKind;
using metrics::StatSpec;

metrics::Tags TaskTags(const herder::ConnectorTaskId& id) {
  return {{"connector", id.connector}, {"task", std::to_string(id.task)}};
}

// "<prefix>-rate" and "<prefix>-total" of the values recorded (Java's Rate + CumulativeSum).
std::vector<StatSpec> RateAndTotal(const std::string& prefix, const std::string& what) {
  return {{prefix + "-rate", "The average per-second number of " + what, StatKind::kRate},
          {prefix + "-total", "The total number of " + what, StatKind::kCumulativeSum}};
}

void Record(metrics::Sensor* sensor, double value) {
  if (sensor != nullptr) sensor->Record(value, metrics::NowMs());
}

}  // namespace

SourceTaskMetrics::SourceTaskMetrics(metrics::MetricsScope& scope,
                                     const herder::ConnectorTaskId& id) {
  const int64_t now = metrics::NowMs();
  poll_ = scope.AddSensor(kDomain, "source-task-metrics", TaskTags(id),
                          RateAndTotal("source-record-poll",
                                       "records produced/polled (before transformation) by this "
                                       "task belonging to the named source connector"),
                          now);
  write_ = scope.AddSensor(kDomain, "source-task-metrics", TaskTags(id),
                           RateAndTotal("source-record-write",
                                        "records output from the transformations and written to "
                                        "Kafka for this task belonging to the named source "
                                        "connector"),
                           now);
  poll_time_ = scope.AddSensor(kDomain, "source-task-metrics", TaskTags(id),
                               {{"poll-batch-max-time-ms",
                                 "The maximum time in milliseconds taken by this task to poll "
                                 "for a batch of source records",
                                 StatKind::kMax},
                                {"poll-batch-avg-time-ms",
                                 "The average time in milliseconds taken by this task to poll "
                                 "for a batch of source records",
                                 StatKind::kAvg}},
                               now);
}

void SourceTaskMetrics::RecordPoll(int64_t records, int64_t poll_ms) {
  Record(poll_, static_cast<double>(records));
  Record(poll_time_, static_cast<double>(poll_ms));
}

void SourceTaskMetrics::RecordWrite(int64_t records) {
  Record(write_, static_cast<double>(records));
}

SinkTaskMetrics::SinkTaskMetrics(metrics::MetricsScope& scope, const herder::ConnectorTaskId& id) {
  const int64_t now = metrics::NowMs();
  read_ = scope.AddSensor(kDomain, "sink-task-metrics", TaskTags(id),
                          RateAndTotal("sink-record-read",
                                       "records read from Kafka by this task belonging to the "
                                       "named sink connector in this worker"),
                          now);
  send_ = scope.AddSensor(kDomain, "sink-task-metrics", TaskTags(id),
                          RateAndTotal("sink-record-send",
                                       "records output from the transformations and sent/put to "
                                       "this task belonging to the named sink connector in this "
                                       "worker"),
                          now);
}

void SinkTaskMetrics::RecordRead(int64_t records) { Record(read_, static_cast<double>(records)); }

void SinkTaskMetrics::RecordSend(int64_t records) { Record(send_, static_cast<double>(records)); }

namespace {

metrics::Sensor* Count(metrics::MetricsScope& scope, const herder::ConnectorTaskId& id,
                       const std::string& name, const std::string& doc, int64_t now) {
  return scope.AddSensor(kDomain, "task-error-metrics", TaskTags(id),
                         {{name, doc, StatKind::kCumulativeCount}}, now);
}

}  // namespace

TaskErrorMetrics::TaskErrorMetrics(metrics::MetricsScope& scope,
                                   const herder::ConnectorTaskId& id) {
  const int64_t now = metrics::NowMs();
  failures_ = Count(scope, id, "total-record-failures",
                    "The number of record processing failures in this task.", now);
  errors_ = Count(scope, id, "total-record-errors",
                  "The number of record processing errors in this task. ", now);
  skipped_ = Count(scope, id, "total-records-skipped",
                   "The number of records skipped due to errors.", now);
  retries_ = Count(scope, id, "total-retries", "The number of operations retried.", now);
  logged_ = Count(scope, id, "total-errors-logged", "The number of errors that were logged.", now);
  dlq_requests_ = Count(scope, id, "deadletterqueue-produce-requests",
                        "The number of attempted writes to the dead letter queue.", now);
  dlq_failures_ = Count(scope, id, "deadletterqueue-produce-failures",
                        "The number of failed writes to the dead letter queue.", now);
  last_error_ = scope.AddSensor(
      kDomain, "task-error-metrics", TaskTags(id),
      {{"last-error-timestamp", "The epoch timestamp when this task last encountered an error.",
        StatKind::kValue}},
      now);
  Record(last_error_, 0);  // Java's gauge reads 0 until the first error
}

void TaskErrorMetrics::RecordFailure() { Record(failures_, 1); }
void TaskErrorMetrics::RecordRetry() { Record(retries_, 1); }
void TaskErrorMetrics::RecordError() {
  Record(errors_, 1);
  Record(last_error_, static_cast<double>(metrics::NowMs()));
}
void TaskErrorMetrics::RecordSkipped() { Record(skipped_, 1); }
void TaskErrorMetrics::RecordErrorLogged() { Record(logged_, 1); }
void TaskErrorMetrics::RecordDeadLetterQueueProduceRequest() { Record(dlq_requests_, 1); }
void TaskErrorMetrics::RecordDeadLetterQueueProduceFailed() { Record(dlq_failures_, 1); }

}  // namespace connectd::worker
