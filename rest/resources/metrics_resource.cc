// MetricsResource: GET /metrics, the worker's metrics in Prometheus text format (0.0.4), then the
// process's own (process_metrics.h). Not a Kafka Connect endpoint: Java exposes metrics over JMX
// only.
#include "rest/resources/resources.h"
#include "runtime/metrics/process_metrics.h"
#include "runtime/metrics/prometheus.h"

namespace connectd::rest {

void AddMetricsResource(Router& router, ResourceContext& ctx) {
  if (ctx.metrics == nullptr) return;
  RouteOptions text{.consumes_json = false, .produces_json = false};
  router.Add(
      "GET", "/metrics",
      [&ctx](RestRequest, Responder respond) {
        RestResponse response;
        response.status = 200;
        response.body = metrics::PrometheusText(ctx.metrics->Snapshot(metrics::NowMs())) +
                        metrics::ProcessMetricsText(metrics::ReadProcessFigures());
        response.headers.emplace_back("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
        respond(std::move(response));
      },
      text);
}

}  // namespace connectd::rest
