#include "runtime/distributed/rebalance_metrics.h"

#include <limits>

namespace connectd::distributed {
namespace {

constexpr char kDomain[] = "kafka.connect";
constexpr char kGroup[] = "connect-worker-rebalance-metrics";

}  // namespace

RebalanceMetrics::RebalanceMetrics(metrics::MetricsRegistry* registry,
                                   const std::string& client_id) {
  if (registry == nullptr) return;
  scope_ = std::make_unique<metrics::MetricsScope>(registry);
  const int64_t now = metrics::NowMs();
  std::shared_ptr<State> state = state_;
  scope_->AddGauge(
      kDomain, kGroup, {},
      {"epoch", "The epoch or generation number of this worker.", metrics::StatKind::kGauge},
      [state](int64_t) {
        std::lock_guard lock(state->mu);
        return static_cast<double>(state->epoch);
      });
  scope_->AddGauge(
      kDomain, kGroup, {},
      {"rebalancing", "Whether this worker is currently rebalancing.", metrics::StatKind::kGauge},
      [state](int64_t) {
        std::lock_guard lock(state->mu);
        return state->rebalancing ? 1.0 : 0.0;
      });
  scope_->AddGauge(
      kDomain, kGroup, {},
      {"time-since-last-rebalance-ms",
       "The time in milliseconds since this worker completed the most recent rebalance.",
       metrics::StatKind::kGauge},
      [state](int64_t now_ms) {
        std::lock_guard lock(state->mu);
        if (state->last_completed_ms < 0) return std::numeric_limits<double>::infinity();
        return static_cast<double>(now_ms - state->last_completed_ms);
      });
  const metrics::Tags client = {{"client-id", client_id}};
  scope_->AddGauge(
      kDomain, "connect-coordinator-metrics", client,
      {"assigned-connectors", "The number of connector instances currently assigned to this worker",
       metrics::StatKind::kGauge},
      [state](int64_t) {
        std::lock_guard lock(state->mu);
        return static_cast<double>(state->connectors);
      });
  scope_->AddGauge(kDomain, "connect-coordinator-metrics", client,
                   {"assigned-tasks", "The number of tasks currently assigned to this worker",
                    metrics::StatKind::kGauge},
                   [state](int64_t) {
                     std::lock_guard lock(state->mu);
                     return static_cast<double>(state->tasks);
                   });
  completed_ = scope_->AddSensor(
      kDomain, kGroup, {},
      {{"completed-rebalances-total", "The total number of rebalances completed by this worker.",
        metrics::StatKind::kCumulativeSum}},
      now);
  time_ = scope_->AddSensor(kDomain, kGroup, {},
                            {{"rebalance-max-time-ms",
                              "The maximum time in milliseconds spent by this worker to rebalance.",
                              metrics::StatKind::kMax},
                             {"rebalance-avg-time-ms",
                              "The average time in milliseconds spent by this worker to rebalance.",
                              metrics::StatKind::kAvg}},
                            now);
}

void RebalanceMetrics::Started(int32_t generation) {
  std::lock_guard lock(state_->mu);
  state_->epoch = generation;
  if (!state_->rebalancing) state_->started_ms = metrics::NowMs();
  state_->rebalancing = true;
}

void RebalanceMetrics::Completed(size_t connectors, size_t tasks) {
  const int64_t now = metrics::NowMs();
  int64_t took = 0;
  {
    std::lock_guard lock(state_->mu);
    state_->connectors = connectors;
    state_->tasks = tasks;
    if (!state_->rebalancing) return;
    state_->rebalancing = false;
    state_->last_completed_ms = now;
    took = std::max<int64_t>(0, now - state_->started_ms);
  }
  if (completed_) completed_->Record(1, now);
  if (time_) time_->Record(static_cast<double>(took), now);
}

}  // namespace connectd::distributed
