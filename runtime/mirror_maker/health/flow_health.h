// File: flow_health.h
//
// FlowHealth: the worker's flow-health service (issue #7, "Flow health"). It discovers the
// MirrorMaker 2 flows from the connector configs its herder(s) hold (a flow is the
// (source.cluster.alias, target.cluster.alias) of Mirror{Source,Checkpoint,Heartbeat}Connector
// configs), tails each flow's two heartbeat legs (heartbeat_leg.h) with the flow's own client
// settings (config-provider references resolved as the worker resolves them), reads the states
// of the flow's connectors and tasks, checks that the RUNNING ones report metrics (this worker's
// registry, or GET /mirror/task-metrics on the worker that owns them), counts assignment
// changes, and keeps the facts Evaluate() (flow_verdict.h) turns into a verdict.
//
// It publishes, per flow, gauges in the worker's MetricsRegistry (served by GET /metrics):
//   connectd.mirror:type=flow heartbeat-age-ms{source,target,leg}   since the newest heartbeat
//                                                                    arrived (or since watching)
//   connectd.mirror:type=flow heartbeat-latency-ms{source,target}   replication leg
//   connectd.mirror:type=flow stale-threshold-ms / lag-threshold-ms{source,target}
//   connectd.mirror:type=flow rebalances{source,target}             in the window
//   connectd.mirror:type=flow records-behind, partitions-unreadable{source,target}
//   connectd.mirror:type=flow topic-records-behind, topic-oldest-unreplicated-age-ms,
//                             topic-partitions-unreadable{source,target,topic}  per source topic
//                             (per partition: MirrorSource's DEBUG-level metrics)
//   connectd.mirror:type=flow verdict{source,target,verdict}        1 for the current verdict
//   connectd.mirror:type=flow count                                  flows known
// (Prometheus: connectd_mirror_flow_heartbeat_age_ms{...} etc.)
//
//   FlowHealth health(herder, metrics, {.providers = loaded.providers, .http_get = ...});
//   health.SetWorkerId(server.WorkerId());
//   health.Start();            // own thread
//   ... health.Reports() from any thread ...
//   health.Stop();
//
// Threads: one thread of its own (Start..Stop) does all Kafka and herder work; herder calls
// are asynchronous and awaited there with a timeout, so neither the herder thread nor the
// control io_context ever waits for it. Reports()/WorkerId()/SetWorkerId() are thread-safe.
// http_get's callback may run on any thread.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/config/config_providers.h"
#include "runtime/herder_api/herder.h"
#include "runtime/metrics/metrics.h"
#include "runtime/mirror_maker/health/flow_health_view.h"
#include "runtime/mirror_maker/health/flow_verdict.h"
#include "runtime/mirror_maker/health/mirror_task_metrics.h"

namespace connectd::health {

class FlowHealth : public FlowHealthView {
 public:
  // An asynchronous HTTP GET of an absolute URL: `done` gets the body of a 2xx answer, or an
  // error. Used for other workers' GET /mirror/task-metrics.
  using HttpGet = std::function<void(const std::string& url,
                                     std::function<void(absl::StatusOr<std::string>)> done)>;

  struct Options {
    // Resolves `${provider:path:key}` in connector configs (the worker's config.providers).
    config::ConfigProviders providers;
    // Null: the metrics of tasks on other workers are not checked (standalone has none).
    HttpGet http_get;
    // Scheme of the other workers' REST URLs (their worker ids are host:port).
    std::string peer_scheme = "http";
    // Facts are refreshed (heartbeats read, statuses, gauges) every tick; connector configs,
    // task configs and other workers' metrics every refresh.
    std::chrono::milliseconds tick{500};
    std::chrono::milliseconds refresh{2000};
    // How long a herder call may take before this round skips it.
    std::chrono::milliseconds herder_timeout{5000};
    // Wall clock in Unix ms; default: the system clock.
    std::function<int64_t()> now_ms;
  };

  // `herder` and `metrics` must outlive the service.
  FlowHealth(herder::Herder& herder, metrics::MetricsRegistry& metrics, Options options);
  ~FlowHealth() override;
  FlowHealth(const FlowHealth&) = delete;
  FlowHealth& operator=(const FlowHealth&) = delete;

  // One more herder whose flows to watch (dedicated MirrorMaker mode: one per flow). Call before
  // Start().
  void AddHerder(herder::Herder& herder);
  // This worker's id: tasks whose status names it are read from the local registry.
  void SetWorkerId(std::string worker_id);

  // Starts the service thread. Call once.
  void Start();
  // Stops and joins the thread, closes the consumers and unpublishes the gauges. Idempotent.
  void Stop();

  std::vector<FlowReport> Reports() const override;
  std::optional<FlowTarget> Target(const std::string& source,
                                   const std::string& target) const override;
  std::string WorkerId() const override;

 private:
  struct PositionSeen;
  struct Flow;
  struct TopicGauges;
  struct Peers;
  // A flow's partitions and remote topic errors as the workers' metrics report them, kept
  // until those metrics or the flow's topics change (every refresh at most, not every tick).
  struct MetricsAccount {
    std::vector<std::shared_ptr<const WorkerMirrorMetrics>> sources;  // in the order counted
    uint64_t topics_generation = 0;
    std::vector<PartitionFacts> partitions;  // the first report of each partition
    std::vector<RemoteTopicFacts> remote_topics;
    std::optional<double> latency_max;  // replication-latency-ms-max over the partitions
    std::optional<double> age_max;      // record-age-ms-max
    double skipped = 0;                 // skipped-offset-count, summed
    double recreations = 0;             // source-topic-recreated-count, summed
    double truncated = 0;               // source-truncated-offset-count, summed
  };

  void Run();
  void Tick(bool refresh);
  void RefreshFlows(int64_t now_ms);
  void RefreshUnits(Flow& flow, int64_t now_ms);
  void FetchPeers();
  FlowFacts BuildFacts(Flow& flow, int64_t now_ms);
  const MetricsAccount& Account(Flow& flow,
                                std::vector<std::shared_ptr<const WorkerMirrorMetrics>> sources);
  void Publish(Flow& flow, const FlowFacts& facts, const FlowReport& report, int64_t now_ms);
  void PublishTopics(Flow& flow, const FlowFacts& facts, int64_t now_ms);
  void RemoveGauges(Flow& flow);
  // Copies each flow's FlowTarget for Target() (under mu_).
  void PublishTargets();
  void RemoveTopicGauges(TopicGauges& gauges);

  // Constant after construction (herders_ until Start).
  std::vector<herder::Herder*> herders_;
  metrics::MetricsRegistry& registry_;
  const Options options_;
  metrics::MetricsScope scope_;

  // Service thread only.
  std::map<std::pair<std::string, std::string>, std::unique_ptr<Flow>> flows_;
  metrics::Sensor* flow_count_ = nullptr;
  // This worker's, taken each refresh.
  std::shared_ptr<const WorkerMirrorMetrics> local_ = std::make_shared<WorkerMirrorMetrics>();

  std::shared_ptr<Peers> peers_;  // other workers' metrics; shared with HTTP callbacks

  mutable std::mutex mu_;
  std::vector<FlowFacts> facts_;                                       // guarded by mu_
  std::string worker_id_;                                              // guarded by mu_
  std::map<std::pair<std::string, std::string>, FlowTarget> targets_;  // guarded by mu_
  bool stopping_ = false;                                              // guarded by mu_
  std::condition_variable cv_;
  std::thread thread_;
};

}  // namespace connectd::health
