// File: flow_health_view.h
//
// FlowHealthView: what the REST API (rest/resources/mirror_flows_resource.cc) needs from the
// flow-health service, so that rest/ depends on an interface and not on librdkafka consumers.
//
// Threads: implementations are thread-safe; calls never block on Kafka or the herder.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "runtime/mirror_maker/health/flow_verdict.h"

namespace connectd::health {

// How to reach a flow's target cluster: the Java client properties of `target.cluster.*` (the
// checkpoint connector's, else the source or heartbeat connector's; config providers resolved)
// and the replication.policy.* keys that name its internal topics.
struct FlowTarget {
  std::map<std::string, std::string> client;
  std::map<std::string, std::string> policy;
};

class FlowHealthView {
 public:
  virtual ~FlowHealthView() = default;
  // Every flow the worker's herder(s) hold, evaluated now, sorted by (source, target).
  virtual std::vector<FlowReport> Reports() const = 0;
  // This worker's id (advertised host:port); "" until the REST server is bound.
  virtual std::string WorkerId() const = 0;
  // The flow's target, as of the last refresh; nullopt for a flow the worker does not know.
  virtual std::optional<FlowTarget> Target(const std::string& source,
                                           const std::string& target) const = 0;
};

}  // namespace connectd::health
