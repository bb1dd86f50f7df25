// File: flow_health_setup.h
//
// The flow-health service (runtime/mirror_maker/health/flow_health.h) as `connectd standalone`,
// `connectd distributed` and `connectd mirror-maker` run it: built before the REST server (which
// serves GET /mirror/flows from it), started once the worker id is known, stopped after the
// server.
//
//   auto health = MakeFlowHealth(*herder, metrics, loaded->providers, control, &rest_config);
//   server_options.flow_health = health.get();
//   ... server->Start() ...
//   health->SetWorkerId(server->WorkerId());
//   health->Start();
//   ... server->Stop(); health->Stop();
#pragma once

#include <memory>

#include "rest/rest_config.h"
#include "runtime/config/config_providers.h"
#include "runtime/herder_api/herder.h"
#include "runtime/metrics/metrics.h"
#include "runtime/mirror_maker/failover/group_failover_service.h"
#include "runtime/mirror_maker/health/flow_health.h"

namespace boost::asio {
class io_context;
}  // namespace boost::asio

namespace connectd::main {

// `peers`: the REST settings of the worker (TLS for https peers, their scheme); with it the
// service reads the task metrics of other workers of the cluster over REST on `control` (which
// must run until the service stops). Null (standalone): every task is local.
std::unique_ptr<health::FlowHealth> MakeFlowHealth(herder::Herder& herder,
                                                   metrics::MetricsRegistry& metrics,
                                                   const config::ConfigProviders& providers,
                                                   boost::asio::io_context& control,
                                                   const rest::RestConfig* peers);

// The group failover service of the REST API (runtime/mirror_maker/failover) for the flows
// `health` knows; `health` must outlive it. Stop it after the REST server, before `health`.
std::unique_ptr<mirror_maker::GroupFailoverService> MakeGroupFailover(
    const health::FlowHealth& health);

}  // namespace connectd::main
