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

}  // namespace connectd::worker
