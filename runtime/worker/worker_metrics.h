// File: worker_metrics.h
//
// WorkerMetricsGroup: Connect's connect-worker-metrics, as Java's Worker publishes them, fed by
// the state reports of the worker's connectors and tasks (it sits between them and the herder's
// StatusListener and forwards every report unchanged):
//   kafka.connect:type=connect-worker-metrics
//     connector-count, task-count                       connectors and tasks on this worker
//     connector-startup-{attempts,success,failure}-total, -{success,failure}-percentage
//     task-startup-{attempts,success,failure}-total,      -{success,failure}-percentage
//       a start succeeds when the instance first reports RUNNING or PAUSED (Connect's
//       onStartup/onPause), fails when it reports FAILED before that; each counts one attempt.
//       The percentages are fractions (0..1) over Kafka's two 30 s windows.
//   kafka.connect:type=connect-worker-metrics,connector=<c>   while <c> has tasks here:
//     connector-{total,running,paused,failed,unassigned,destroyed,restarting}-task-count
//       by the state each task last reported (unassigned until its first report).
//   kafka.connect:type=app-info and kafka.connect:type=app-info,client-id=<worker id>
//     start-time-ms                                     when the worker started (Unix ms)
//
// Threads: the Start*/Remove* calls on the worker's owner thread; the listener methods on any
// thread (task threads report); the gauges on the metrics reader's thread. One mutex.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "runtime/herder_api/task_status.h"
#include "runtime/metrics/metrics.h"

namespace connectd::worker {

class WorkerMetricsGroup : public StatusListener {
 public:
  WorkerMetricsGroup(metrics::MetricsRegistry& registry, StatusListener& forward_to,
                     const std::string& worker_id);

  // The worker's connector and task counts (connector-count, task-count).
  void SetCounts(size_t connectors, size_t tasks);
  // A new instance is being started: its next report decides its startup's outcome.
  void ConnectorStarting(const std::string& connector);
  void TaskStarting(const herder::ConnectorTaskId& task);
  // The task left this worker; the connector's task-count gauges go with its last task.
  void TaskRemoved(const herder::ConnectorTaskId& task);

  void OnConnectorState(const std::string& connector, State state,
                        std::optional<std::string> trace) override;
  void OnTaskState(const herder::ConnectorTaskId& task, State state,
                   std::optional<std::string> trace) override;
  void OnTopicUsed(const std::string& connector, const std::string& topic) override;

 private:
  // One kind's startup sensors (connector- or task-).
  struct Startups {
    metrics::Sensor* attempts = nullptr;
    metrics::Sensor* successes = nullptr;
    metrics::Sensor* failures = nullptr;
    metrics::Sensor* success_ratio = nullptr;  // records 1 per success, 0 per failure
    metrics::Sensor* failure_ratio = nullptr;  // the complement
  };
  // Task states by connector, shared with the per-connector gauges (which outlive nothing:
  // they read through this shared pointer).
  struct TaskStates {
    std::mutex mu;
    std::map<herder::ConnectorTaskId, State> states;  // guarded by mu
  };

  // `kind`: "connector" or "task".
  Startups AddStartups(const std::string& kind);
  void RecordStartup(const Startups& startups, bool success);
  void AddConnectorGauges(const std::string& connector);

  StatusListener& forward_to_;
  metrics::MetricsScope scope_;
  metrics::Sensor* connector_count_;
  metrics::Sensor* task_count_;
  Startups connector_startups_;
  Startups task_startups_;
  std::shared_ptr<TaskStates> task_states_ = std::make_shared<TaskStates>();

  std::mutex mu_;
  std::set<std::string> connectors_starting_;         // guarded by mu_
  std::set<herder::ConnectorTaskId> tasks_starting_;  // guarded by mu_
  std::map<std::string, std::unique_ptr<metrics::MetricsScope>> connector_gauges_;  // mu_
};

}  // namespace connectd::worker
