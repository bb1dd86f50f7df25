// File: rebalance_metrics.h
//
// RebalanceMetrics: Connect's kafka.connect:type=connect-worker-rebalance-metrics (Java's
// DistributedHerder.HerderMetrics) for a distributed worker:
//   epoch                          the generation of the last assignment received
//   rebalancing                    1 from an assignment's arrival until it is applied, else 0
//   completed-rebalances-total     assignments applied
//   rebalance-max/avg-time-ms      from an assignment's arrival to its application
//   time-since-last-rebalance-ms   since the last one was applied (+Inf before the first)
// and kafka.connect:type=connect-coordinator-metrics,client-id=<the group client's id>:
//   assigned-connectors, assigned-tasks   this worker's share of the last assignment applied
// Java's two string-valued attributes, connect-protocol and leader-name, have no numeric form
// for GET /metrics (Prometheus text); the leader is in the worker's log and GET /connectors.
//
// Threads: Started/Completed on the herder thread; the gauges on the metrics reader's thread.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "runtime/metrics/metrics.h"

namespace connectd::distributed {

class RebalanceMetrics {
 public:
  // Publishes nothing when `registry` is null.
  RebalanceMetrics(metrics::MetricsRegistry* registry, const std::string& client_id);

  // An assignment of generation `generation` arrived.
  void Started(int32_t generation);
  // It was applied (the worker runs what it was given): `connectors` and `tasks` of its own.
  void Completed(size_t connectors, size_t tasks);

 private:
  struct State {
    std::mutex mu;
    int32_t epoch = -1;
    bool rebalancing = false;
    int64_t started_ms = 0;
    int64_t last_completed_ms = -1;
    size_t connectors = 0;
    size_t tasks = 0;
  };
  std::shared_ptr<State> state_ = std::make_shared<State>();
  std::unique_ptr<metrics::MetricsScope> scope_;
  metrics::Sensor* completed_ = nullptr;
  metrics::Sensor* time_ = nullptr;
};

}  // namespace connectd::distributed
