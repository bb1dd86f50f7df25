#include "runtime/worker/worker_metrics.h"

#include "absl/strings/str_cat.h"

namespace connectd::worker {
namespace {

constexpr char kDomain[] = "kafka.connect";
constexpr char kGroup[] = "connect-worker-metrics";

using metrics::StatKind;
using metrics::StatSpec;

// The per-connector task counts: (attribute, state counted, Connect's description word).
struct TaskCount {
  const char* name;
  std::optional<State> state;  // nullopt: every task
  const char* description;
};
constexpr TaskCount kTaskCounts[] = {
    {"connector-total-task-count", std::nullopt,
     "The number of tasks of the connector on the worker."},
    {"connector-running-task-count", State::kRunning,
     "The number of running tasks of the connector on the worker."},
    {"connector-paused-task-count", State::kPaused,
     "The number of paused tasks of the connector on the worker."},
    {"connector-failed-task-count", State::kFailed,
     "The number of failed tasks of the connector on the worker."},
    {"connector-unassigned-task-count", State::kUnassigned,
     "The number of unassigned tasks of the connector on the worker."},
    {"connector-destroyed-task-count", State::kDestroyed,
     "The number of destroyed tasks of the connector on the worker."},
    {"connector-restarting-task-count", State::kRestarting,
     "The number of restarting tasks of the connector on the worker."},
};

}  // namespace

WorkerMetricsGroup::WorkerMetricsGroup(metrics::MetricsRegistry& registry,
                                       StatusListener& forward_to, const std::string& worker_id)
    : forward_to_(forward_to),
      scope_(&registry),
      connector_count_(scope_.AddSensor(
          kDomain, kGroup, {},
          {{"connector-count", "The number of connectors run in this worker.", StatKind::kValue}},
          metrics::NowMs())),
      task_count_(scope_.AddSensor(
          kDomain, kGroup, {},
          {{"task-count", "The number of tasks run in this worker.", StatKind::kValue}},
          metrics::NowMs())),
      connector_startups_(AddStartups("connector")),
      task_startups_(AddStartups("task")) {
  // Java's AppInfoParser registers the start time twice: without tags and with the worker id.
  const int64_t now = metrics::NowMs();
  for (const metrics::Tags& tags : {metrics::Tags{}, metrics::Tags{{"client-id", worker_id}}}) {
    if (metrics::Sensor* start = scope_.AddSensor(
            kDomain, "app-info", tags,
            {{"start-time-ms", "Metric indicating start-time-ms", StatKind::kValue}}, now)) {
      start->Record(static_cast<double>(now), now);
    }
  }
}

WorkerMetricsGroup::Startups WorkerMetricsGroup::AddStartups(const std::string& kind) {
  const int64_t now = metrics::NowMs();
  auto one = [&](const std::string& name, const std::string& description, StatKind stat) {
    return scope_.AddSensor(kDomain, kGroup, {}, {{name, description, stat}}, now);
  };
  Startups s;
  s.attempts =
      one(absl::StrCat(kind, "-startup-attempts-total"),
          absl::StrCat("The total number of ", kind, " startups that this worker has attempted."),
          StatKind::kCumulativeSum);
  s.successes = one(absl::StrCat(kind, "-startup-success-total"),
                    absl::StrCat("The total number of ", kind, " starts that succeeded."),
                    StatKind::kCumulativeSum);
  s.failures = one(absl::StrCat(kind, "-startup-failure-total"),
                   absl::StrCat("The total number of ", kind, " starts that failed."),
                   StatKind::kCumulativeSum);
  s.success_ratio = one(
      absl::StrCat(kind, "-startup-success-percentage"),
      absl::StrCat("The average percentage of this worker's ", kind, "s starts that succeeded."),
      StatKind::kAvg);
  s.failure_ratio =
      one(absl::StrCat(kind, "-startup-failure-percentage"),
          absl::StrCat("The average percentage of this worker's ", kind, "s starts that failed."),
          StatKind::kAvg);
  return s;
}

void WorkerMetricsGroup::RecordStartup(const Startups& s, bool success) {
  const int64_t now = metrics::NowMs();
  if (s.attempts) s.attempts->Record(1, now);
  if (s.successes && success) s.successes->Record(1, now);
  if (s.failures && !success) s.failures->Record(1, now);
  if (s.success_ratio) s.success_ratio->Record(success ? 1 : 0, now);
  if (s.failure_ratio) s.failure_ratio->Record(success ? 0 : 1, now);
}

void WorkerMetricsGroup::SetCounts(size_t connectors, size_t tasks) {
  const int64_t now = metrics::NowMs();
  if (connector_count_) connector_count_->Record(static_cast<double>(connectors), now);
  if (task_count_) task_count_->Record(static_cast<double>(tasks), now);
}

void WorkerMetricsGroup::ConnectorStarting(const std::string& connector) {
  std::lock_guard lock(mu_);
  connectors_starting_.insert(connector);
}

void WorkerMetricsGroup::TaskStarting(const herder::ConnectorTaskId& task) {
  {
    std::lock_guard states(task_states_->mu);
    task_states_->states[task] = State::kUnassigned;
  }
  std::lock_guard lock(mu_);
  tasks_starting_.insert(task);
  if (connector_gauges_.count(task.connector) == 0) AddConnectorGauges(task.connector);
}

void WorkerMetricsGroup::TaskRemoved(const herder::ConnectorTaskId& task) {
  bool last = true;
  {
    std::lock_guard states(task_states_->mu);
    task_states_->states.erase(task);
    for (const auto& [id, state] : task_states_->states)
      last = last && id.connector != task.connector;
  }
  std::lock_guard lock(mu_);
  tasks_starting_.erase(task);
  if (last) connector_gauges_.erase(task.connector);
}

void WorkerMetricsGroup::AddConnectorGauges(const std::string& connector) {
  auto scope = std::make_unique<metrics::MetricsScope>(scope_.registry());
  for (const TaskCount& count : kTaskCounts) {
    std::shared_ptr<TaskStates> states = task_states_;
    const std::optional<State> wanted = count.state;
    scope->AddGauge(kDomain, kGroup, {{"connector", connector}},
                    StatSpec{count.name, count.description, StatKind::kGauge},
                    [states, connector, wanted](int64_t) {
                      std::lock_guard lock(states->mu);
                      double n = 0;
                      for (const auto& [id, state] : states->states) {
                        if (id.connector == connector && (!wanted || state == *wanted)) ++n;
                      }
                      return n;
                    });
  }
  connector_gauges_[connector] = std::move(scope);
}

void WorkerMetricsGroup::OnConnectorState(const std::string& connector, State state,
                                          std::optional<std::string> trace) {
  std::optional<bool> outcome;
  {
    std::lock_guard lock(mu_);
    if (connectors_starting_.count(connector) &&
        (state == State::kRunning || state == State::kPaused || state == State::kStopped ||
         state == State::kFailed)) {
      outcome = state != State::kFailed;
      connectors_starting_.erase(connector);
    }
  }
  if (outcome) RecordStartup(connector_startups_, *outcome);
  forward_to_.OnConnectorState(connector, state, std::move(trace));
}

void WorkerMetricsGroup::OnTaskState(const herder::ConnectorTaskId& task, State state,
                                     std::optional<std::string> trace) {
  {
    std::lock_guard states(task_states_->mu);
    if (auto it = task_states_->states.find(task); it != task_states_->states.end()) {
      it->second = state;
    }
  }
  std::optional<bool> outcome;
  {
    std::lock_guard lock(mu_);
    if (tasks_starting_.count(task) &&
        (state == State::kRunning || state == State::kPaused || state == State::kFailed)) {
      outcome = state != State::kFailed;
      tasks_starting_.erase(task);
    }
  }
  if (outcome) RecordStartup(task_startups_, *outcome);
  forward_to_.OnTaskState(task, state, std::move(trace));
}

void WorkerMetricsGroup::OnTopicUsed(const std::string& connector, const std::string& topic) {
  forward_to_.OnTopicUsed(connector, topic);
}

}  // namespace connectd::worker
