// MirrorFlowsResource (connectd's own, not Kafka Connect's): the flow-health service's answers
// (runtime/mirror_maker/health/README.md), read-only, on every worker:
//   GET /mirror/flows                    {"worker_id","time_ms","flows":[flow...]}
//   GET /mirror/flows/{source}/{target}  one flow; 404 with Connect's error body if unknown
//   GET /mirror/task-metrics             this worker's MirrorSource task metrics (JSON), which
//                                        other workers read to tell a silent task from a dead one
// The handlers only read what the service already holds; they never wait for Kafka.
#include "absl/strings/str_cat.h"
#include "rest/resources/resources.h"
#include "runtime/mirror_maker/health/flow_report_json.h"
#include "runtime/mirror_maker/health/mirror_task_metrics.h"

namespace connectd::rest {

void AddMirrorFlowsResource(Router& router, ResourceContext& ctx,
                            const health::FlowHealthView* flows) {
  if (flows == nullptr) return;
  router.Add("GET", "/mirror/flows", [flows](RestRequest, Responder respond) {
    respond(JsonResponse(
        200, health::FlowReportsJson(flows->Reports(), flows->WorkerId(), metrics::NowMs())));
  });
  router.Add("GET", "/mirror/flows/{source}/{target}",
             [flows](RestRequest request, Responder respond) {
               const std::string& source = request.path_params.at(0);
               const std::string& target = request.path_params.at(1);
               for (const health::FlowReport& report : flows->Reports()) {
                 if (report.source == source && report.target == target) {
                   respond(JsonResponse(200, health::FlowReportJson(report)));
                   return;
                 }
               }
               respond(ErrorResponse(404, absl::StrCat("No replication flow found for source '",
                                                       source, "' and target '", target, "'")));
             });
  router.Add("GET", "/mirror/task-metrics", [&ctx, flows](RestRequest, Responder respond) {
    health::WorkerMirrorMetrics worker;
    if (ctx.metrics != nullptr)
      worker = health::ReadWorkerMirrorMetrics(*ctx.metrics, metrics::NowMs());
    respond(JsonResponse(200, health::WorkerMirrorMetricsJson(worker, flows->WorkerId())));
  });
}

}  // namespace connectd::rest
