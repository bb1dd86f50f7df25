#include "runtime/worker/task_metrics.h"

#include <algorithm>
#include <string>
#include <tuple>
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

// "<prefix>-max", "<prefix>-avg" (and with `with_value`, "<prefix>" itself: Value).
std::vector<StatSpec> MaxAvg(const std::string& prefix, const std::string& what,
                             bool with_value = false) {
  std::vector<StatSpec> specs;
  if (with_value) specs.push_back({prefix, "The number of " + what, StatKind::kValue});
  specs.push_back({prefix + "-max", "The maximum number of " + what, StatKind::kMax});
  specs.push_back({prefix + "-avg", "The average number of " + what, StatKind::kAvg});
  return specs;
}

}  // namespace

double TaskMetricsGroup::StateTimes::Ratio(State state, int64_t now_ms) {
  std::lock_guard lock(mu);
  const int64_t total = now_ms - first_ms;
  if (total <= 0) return 0;
  int64_t spent = spent_ms[state];
  if (current == state) spent += now_ms - since_ms;
  return static_cast<double>(spent) / static_cast<double>(total);
}

TaskMetricsGroup::TaskMetricsGroup(metrics::MetricsScope& scope, const herder::ConnectorTaskId& id,
                                   State initial) {
  const int64_t now = metrics::NowMs();
  times_->first_ms = times_->since_ms = now;
  times_->current = initial;
  const char* group = "connector-task-metrics";
  for (auto [name, state, description] :
       {std::tuple{"running-ratio", State::kRunning,
                   "The fraction of time this task has spent in the running state."},
        std::tuple{"pause-ratio", State::kPaused,
                   "The fraction of time this task has spent in the pause state."}}) {
    std::shared_ptr<StateTimes> times = times_;
    const State counted = state;
    scope.AddGauge(kDomain, group, TaskTags(id), {name, description, StatKind::kGauge},
                   [times, counted](int64_t now_ms) { return times->Ratio(counted, now_ms); });
  }
  batch_size_ = scope.AddSensor(
      kDomain, group, TaskTags(id),
      {{"batch-size-max",
        "The number of records in the largest batch the task has processed so far.",
        StatKind::kMax},
       {"batch-size-avg",
        "The average number of records in the batches the task has processed so far.",
        StatKind::kAvg}},
      now);
  commit_time_ = scope.AddSensor(
      kDomain, group, TaskTags(id),
      {{"offset-commit-max-time-ms",
        "The maximum time in milliseconds taken by this task to commit offsets.", StatKind::kMax},
       {"offset-commit-avg-time-ms",
        "The average time in milliseconds taken by this task to commit offsets.", StatKind::kAvg}},
      now);
  commit_success_ = scope.AddSensor(
      kDomain, group, TaskTags(id),
      {{"offset-commit-success-percentage",
        "The average percentage of this task's offset commit attempts that succeeded.",
        StatKind::kAvg}},
      now);
  commit_failure_ =
      scope.AddSensor(kDomain, group, TaskTags(id),
                      {{"offset-commit-failure-percentage",
                        "The average percentage of this task's offset commit attempts that failed.",
                        StatKind::kAvg}},
                      now);
}

void TaskMetricsGroup::RecordState(State state) {
  const int64_t now = metrics::NowMs();
  std::lock_guard lock(times_->mu);
  if (state == times_->current) return;
  times_->spent_ms[times_->current] += now - times_->since_ms;
  times_->current = state;
  times_->since_ms = now;
}

void TaskMetricsGroup::RecordBatchSize(int64_t records) {
  Record(batch_size_, static_cast<double>(records));
}

void TaskMetricsGroup::RecordCommit(bool success, int64_t duration_ms) {
  if (success) Record(commit_time_, static_cast<double>(duration_ms));
  Record(commit_success_, success ? 1 : 0);
  Record(commit_failure_, success ? 0 : 1);
}

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
  active_ = scope.AddSensor(kDomain, "source-task-metrics", TaskTags(id),
                            MaxAvg("source-record-active-count",
                                   "records that have been produced by this task but not yet "
                                   "completely written to Kafka.",
                                   /*with_value=*/true),
                            now);
}

void SourceTaskMetrics::RecordActive(int64_t records) {
  Record(active_, static_cast<double>(std::max<int64_t>(0, records)));
}

void SourceTaskMetrics::RecordTransactionSize(metrics::MetricsScope& scope,
                                              const herder::ConnectorTaskId& id, int64_t records) {
  if (transaction_size_ == nullptr) {
    transaction_size_ = scope.AddSensor(
        kDomain, "source-task-metrics", TaskTags(id),
        {{"transaction-size-min",
          "The number of records in the smallest transaction the task has committed so far.",
          StatKind::kMin},
         {"transaction-size-max",
          "The number of records in the largest transaction the task has committed so far.",
          StatKind::kMax},
         {"transaction-size-avg",
          "The average number of records in the transactions the task has committed so far.",
          StatKind::kAvg}},
        metrics::NowMs());
  }
  Record(transaction_size_, static_cast<double>(records));
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
  const std::string group = "sink-task-metrics";
  put_time_ = scope.AddSensor(
      kDomain, group, TaskTags(id),
      {{"put-batch-max-time-ms",
        "The maximum time taken by this task to put a batch of sinks records.", StatKind::kMax},
       {"put-batch-avg-time-ms",
        "The average time taken by this task to put a batch of sinks records.", StatKind::kAvg}},
      now);
  partitions_ = scope.AddSensor(
      kDomain, group, TaskTags(id),
      {{"partition-count",
        "The number of topic partitions assigned to this task belonging to the named sink "
        "connector in this worker.",
        StatKind::kValue}},
      now);
  commit_seq_ =
      scope.AddSensor(kDomain, group, TaskTags(id),
                      {{"offset-commit-seq-no", "The current sequence number for offset commits.",
                        StatKind::kValue}},
                      now);
  commit_completion_ =
      scope.AddSensor(kDomain, group, TaskTags(id),
                      RateAndTotal("offset-commit-completion",
                                   "offset commit completions that were completed successfully."),
                      now);
  commit_skip_ = scope.AddSensor(
      kDomain, group, TaskTags(id),
      RateAndTotal("offset-commit-skip",
                   "offset commit completions that were received too late and skipped/ignored."),
      now);
  active_ = scope.AddSensor(kDomain, group, TaskTags(id),
                            MaxAvg("sink-record-active-count",
                                   "records that have been read from Kafka but not yet "
                                   "completely committed/flushed/acknowledged by the sink task.",
                                   /*with_value=*/true),
                            now);
  Record(commit_seq_, 0);
}

void SinkTaskMetrics::RecordPut(int64_t put_ms) { Record(put_time_, static_cast<double>(put_ms)); }

void SinkTaskMetrics::RecordPartitionCount(int64_t partitions) {
  Record(partitions_, static_cast<double>(partitions));
}

void SinkTaskMetrics::RecordCommit(bool success) {
  Record(commit_seq_, static_cast<double>(++commit_attempts_));
  if (success) Record(commit_completion_, 1);
}

void SinkTaskMetrics::RecordActive(int64_t records) {
  Record(active_, static_cast<double>(std::max<int64_t>(0, records)));
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
