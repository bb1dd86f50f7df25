// File: task_metrics.h
//
// Connect's per-task metrics, named as Java's worker names them (MBeans in domain
// `kafka.connect`, tags connector and task), published in the task's metrics scope so they
// vanish with the task:
//   connector-task-metrics  running-ratio, pause-ratio   share of the task's life in a state
//                        batch-size-max/-avg              records of one batch sent or put
//                        offset-commit-max/avg-time-ms    time of a successful offset commit
//                        offset-commit-success/failure-percentage  of commit attempts (0..1)
//   source-task-metrics  source-record-poll-rate/-total   records the plugin's poll returned
//                        source-record-write-rate/-total  records the target acknowledged
//                        poll-batch-max-time-ms/-avg-time-ms  time of one poll() call
//                        source-record-active-count(-max/-avg)  polled, not yet acknowledged
//   sink-task-metrics    sink-record-read-rate/-total     records read from Kafka
//                        sink-record-send-rate/-total     records handed to put()
//                        put-batch-max/avg-time-ms        time of one put() call
//                        partition-count                  partitions assigned to the task
//                        offset-commit-seq-no             commits attempted so far
//                        offset-commit-completion-rate/-total  commits that succeeded
//                        offset-commit-skip-rate/-total   always 0: connectd's commit results
//                                                         are never stale
//                        sink-record-active-count(-max/-avg)  read, offset not yet committed
//   task-error-metrics   total-record-failures, total-record-errors, total-records-skipped,
//                        total-retries, total-errors-logged, deadletterqueue-produce-requests,
//                        deadletterqueue-produce-failures (counts), last-error-timestamp (ms)
// Rates are per second over Kafka's two 30 s samples, totals are cumulative sums.
//
// Threads: Record* on the task thread (the sensors lock internally).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>

#include "runtime/herder_api/herder_types.h"
#include "runtime/herder_api/task_status.h"
#include "runtime/metrics/metrics.h"

namespace connectd::worker {

// connector-task-metrics (Java's WorkerTask.TaskMetricsGroup). RecordState from any thread.
class TaskMetricsGroup {
 public:
  TaskMetricsGroup(metrics::MetricsScope& scope, const herder::ConnectorTaskId& id, State initial);
  void RecordState(State state);
  void RecordBatchSize(int64_t records);
  // One offset commit attempt; a successful one's duration counts in the commit times.
  void RecordCommit(bool success, int64_t duration_ms);

 private:
  // Time spent in each state since the first, shared with the ratio gauges.
  struct StateTimes {
    std::mutex mu;
    int64_t first_ms = 0;
    State current = State::kUnassigned;
    int64_t since_ms = 0;
    std::map<State, int64_t> spent_ms;
    double Ratio(State state, int64_t now_ms);
  };
  std::shared_ptr<StateTimes> times_ = std::make_shared<StateTimes>();
  metrics::Sensor* batch_size_;
  metrics::Sensor* commit_time_;
  metrics::Sensor* commit_success_;
  metrics::Sensor* commit_failure_;
};

class SourceTaskMetrics {
 public:
  SourceTaskMetrics(metrics::MetricsScope& scope, const herder::ConnectorTaskId& id);
  void RecordPoll(int64_t records, int64_t poll_ms);
  void RecordWrite(int64_t records);
  // Records polled and not yet acknowledged by the target.
  void RecordActive(int64_t records);
  // Exactly-once tasks: transaction-size-min/-max/-avg, records of each committed transaction.
  void RecordTransactionSize(metrics::MetricsScope& scope, const herder::ConnectorTaskId& id,
                             int64_t records);

 private:
  metrics::Sensor* poll_;
  metrics::Sensor* poll_time_;
  metrics::Sensor* write_;
  metrics::Sensor* active_;
  metrics::Sensor* transaction_size_ = nullptr;  // added by the first transaction
};

class SinkTaskMetrics {
 public:
  SinkTaskMetrics(metrics::MetricsScope& scope, const herder::ConnectorTaskId& id);
  void RecordRead(int64_t records);
  void RecordSend(int64_t records);
  void RecordPut(int64_t put_ms);
  void RecordPartitionCount(int64_t partitions);
  // One commit attempt (its sequence number is the count of attempts so far).
  void RecordCommit(bool success);
  // Records read whose offsets are not yet committed.
  void RecordActive(int64_t records);

 private:
  metrics::Sensor* read_;
  metrics::Sensor* send_;
  metrics::Sensor* put_time_;
  metrics::Sensor* partitions_;
  metrics::Sensor* commit_seq_;
  metrics::Sensor* commit_completion_;
  metrics::Sensor* commit_skip_;
  metrics::Sensor* active_;
  int64_t commit_attempts_ = 0;
};

// Connect's ErrorHandlingMetrics, counted as RetryWithToleranceOperator counts them: every failed
// attempt of an operation is a failure (a retriable one also a retry when it is tried again); a
// record that failed for good is an error, and with errors.tolerance=all also skipped.
class TaskErrorMetrics {
 public:
  TaskErrorMetrics(metrics::MetricsScope& scope, const herder::ConnectorTaskId& id);
  void RecordFailure();
  void RecordRetry();
  // A record failed for good; sets last-error-timestamp.
  void RecordError();
  void RecordSkipped();
  void RecordErrorLogged();
  void RecordDeadLetterQueueProduceRequest();
  void RecordDeadLetterQueueProduceFailed();

 private:
  metrics::Sensor* failures_;
  metrics::Sensor* errors_;
  metrics::Sensor* skipped_;
  metrics::Sensor* retries_;
  metrics::Sensor* logged_;
  metrics::Sensor* dlq_requests_;
  metrics::Sensor* dlq_failures_;
  metrics::Sensor* last_error_;
};

}  // namespace connectd::worker
