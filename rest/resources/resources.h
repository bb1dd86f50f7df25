// File: resources/resources.h
//
// One function per Kafka Connect resource class registers that class's routes on a Router:
//   root_resource.cc               GET /, GET /health                         (RootResource)
//   connectors_resource.cc         /connectors/...                            (ConnectorsResource)
//   connector_plugins_resource.cc  /connector-plugins/... (ConnectorPluginsResource)
//   loggers_resource.cc            /admin/loggers/...                         (LoggingResource)
//   internal_resource.cc           POST .../tasks, PUT .../fence (InternalConnectResource)
//   metrics_resource.cc            GET /metrics, Prometheus text (connectd's own)
//
// Handlers run on the session's strand and translate each request into Herder calls; herder
// callbacks may answer from any thread through the Responder. Every handler answers exactly once.
#pragma once

#include <chrono>
#include <exception>
#include <utility>

#include "absl/status/statusor.h"
#include "rest/error_mapping.h"
#include "rest/forwarding.h"
#include "rest/http_types.h"
#include "rest/logger_levels.h"
#include "rest/rest_client.h"
#include "rest/rest_config.h"
#include "rest/rest_server.h"
#include "rest/router.h"
#include "rest/scheduler.h"
#include "runtime/herder_api/herder.h"
#include "runtime/metrics/metrics.h"
#include "runtime/mirror_maker/failover/group_failover_view.h"
#include "runtime/mirror_maker/health/flow_health_view.h"

namespace connectd::rest {

// What the resources share; owned by the Dispatcher and outlives every route.
struct ResourceContext {
  herder::Herder& herder;
  const RestConfig& config;
  LoggerLevels& loggers;
  Scheduler& scheduler;
  std::chrono::milliseconds health_check_timeout;
  const metrics::MetricsRegistry* metrics;  // may be null
  RestClient* rest_client;                  // forwards requests to other workers; may be null
  // Prepended to the paths of forwarded internal requests: "" normally, "/{source}/{target}"
  // (encoded) for a MirrorMaker flow's herder.
  std::string path_prefix = {};
};

void AddRootResource(Router& router, ResourceContext& ctx);
void AddConnectorsResource(Router& router, ResourceContext& ctx);
void AddConnectorPluginsResource(Router& router, ResourceContext& ctx);
void AddLoggersResource(Router& router, ResourceContext& ctx);
void AddInternalResource(Router& router, ResourceContext& ctx);
// MirrorMaker's InternalMirrorResource: the internal endpoints under /{source}/{target}, each
// flow on its herder; an unknown flow is 404 "No replication flow found for source 'A' and
// target 'B'".
void AddMirrorInternalResource(Router& router, ResourceContext& ctx, const MirrorHerders& herders);
void AddMetricsResource(Router& router, ResourceContext& ctx);
// MirrorMaker's dedicated mode: GET /health answers healthy when every flow's herder is (else
// the first other answer, as GET /health on a worker).
void AddMirrorHealthResource(Router& router, ResourceContext& ctx, const MirrorHerders& herders);
// connectd's flow health: GET /mirror/flows[/{source}/{target}], GET /mirror/task-metrics.
// Nothing is added when `flows` is null. With `failover`, also GET
// /mirror/flows/{source}/{target}/groups/{group}/offsets and POST .../failover[?dry_run=true].
void AddMirrorFlowsResource(Router& router, ResourceContext& ctx,
                            const health::FlowHealthView* flows,
                            mirror_maker::GroupFailoverView* failover = nullptr);

// A herder callback that answers `on_ok(value)` on success and Connect's error body otherwise.
// The callback may run on any thread; nothing it does may throw into the herder.
template <typename T, typename OnOk>
herder::Callback<T> Reply(Responder respond, OnOk on_ok) {
  return [respond = std::move(respond), on_ok = std::move(on_ok)](absl::StatusOr<T> result) {
    try {
      if (!result.ok()) {
        respond(ErrorResponse(result.status()));
      } else {
        respond(on_ok(std::move(*result)));
      }
    } catch (const std::exception& e) {
      respond(ErrorResponse(500, e.what()));
    }
  };
}

// A herder DoneCallback answering an empty `status` (202, 204) on success.
inline herder::DoneCallback ReplyEmpty(Responder respond, int status) {
  return [respond = std::move(respond), status](absl::Status result) {
    respond(result.ok() ? EmptyResponse(status) : ErrorResponse(result));
  };
}

// Reply() for the endpoints Connect forwards (HerderRequestHandler.completeOrForwardRequest):
// a failure goes through CompleteOrForward (forwarding.h), and `on_remote` turns another
// worker's 2xx answer into this request's response.
template <typename T, typename OnOk>
herder::Callback<T> ReplyOrForward(ResourceContext& ctx, const RestRequest& request,
                                   ForwardRequest forward, Responder respond, OnOk on_ok,
                                   RemoteTranslator on_remote) {
  return [client = ctx.rest_client, origin = OriginOf(request), forward = std::move(forward),
          respond = std::move(respond), on_ok = std::move(on_ok),
          on_remote = std::move(on_remote)](absl::StatusOr<T> result) {
    try {
      if (result.ok()) {
        respond(on_ok(std::move(*result)));
      } else {
        CompleteOrForward(client, result.status(), origin, forward, respond, on_remote);
      }
    } catch (const std::exception& e) {
      respond(ErrorResponse(500, e.what()));
    }
  };
}

// ReplyEmpty() for the forwarded endpoints: an empty `status` locally, and after forwarding
// (whatever 2xx the remote worker answered, as Connect's void resources do).
inline herder::DoneCallback ReplyEmptyOrForward(ResourceContext& ctx, const RestRequest& request,
                                                ForwardRequest forward, Responder respond,
                                                int status) {
  return [client = ctx.rest_client, origin = OriginOf(request), forward = std::move(forward),
          respond = std::move(respond), status](absl::Status result) {
    if (result.ok()) {
      respond(EmptyResponse(status));
      return;
    }
    try {
      CompleteOrForward(
          client, result, origin, forward, respond,
          [status](int, std::optional<std::string>) { return EmptyResponse(status); });
    } catch (const std::exception& e) {
      respond(ErrorResponse(500, e.what()));
    }
  };
}

}  // namespace connectd::rest
