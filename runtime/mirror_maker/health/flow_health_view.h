// File: flow_health_view.h
//
// FlowHealthView: what the REST API (rest/resources/mirror_flows_resource.cc) needs from the
// flow-health service, so that rest/ depends on an interface and not on librdkafka consumers.
//
// Threads: implementations are thread-safe; calls never block on Kafka or the herder.
#pragma once

#include <string>
#include <vector>

#include "runtime/mirror_maker/health/flow_verdict.h"

namespace connectd::health {

class FlowHealthView {
 public:
  virtual ~FlowHealthView() = default;
  // Every flow the worker's herder(s) hold, evaluated now, sorted by (source, target).
  virtual std::vector<FlowReport> Reports() const = 0;
  // This worker's id (advertised host:port); "" until the REST server is bound.
  virtual std::string WorkerId() const = 0;
};

}  // namespace connectd::health
