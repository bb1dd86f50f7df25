// MirrorFlowsResource (connectd's own, not Kafka Connect's): the flow-health service's answers
// (runtime/mirror_maker/health/README.md), read-only, on every worker:
//   GET /mirror/flows                    {"worker_id","time_ms","flows":[flow...]}
//   GET /mirror/flows/{source}/{target}  one flow; 404 with Connect's error body if unknown
//   GET /mirror/task-metrics             this worker's MirrorSource task metrics (JSON), which
//                                        other workers read to tell a silent task from a dead one
//   GET /mirror/flows/{source}/{target}/groups/{group}/offsets
//                                        where the group resumes on the target, from the
//                                        checkpoints there (mirror_maker::GroupTranslationJson)
//   POST /mirror/flows/{source}/{target}/groups/{group}/failover[?dry_run=true]
//                                        commits them to the group on the target: 409 while the
//                                        group has members there, nothing committed
// The flow-health handlers only read what the service already holds; the group routes hand
// the work to the failover service's thread and answer from there: none waits for Kafka.
#include "absl/strings/str_cat.h"
#include "rest/resources/resources.h"
#include "runtime/mirror_maker/health/flow_report_json.h"
#include "runtime/mirror_maker/health/mirror_task_metrics.h"

namespace connectd::rest {

namespace {

void AddGroupFailoverRoutes(Router& router, mirror_maker::GroupFailoverView* failover) {
  auto answer = [](Responder respond) {
    return [respond = std::move(respond)](absl::StatusOr<mirror_maker::GroupTranslation> result) {
      respond(result.ok() ? JsonResponse(200, mirror_maker::GroupTranslationJson(*result))
                          : ErrorResponse(result.status()));
    };
  };
  router.Add("GET", "/mirror/flows/{source}/{target}/groups/{group}/offsets",
             [failover, answer](RestRequest request, Responder respond) {
               failover->Translate(request.path_params.at(0), request.path_params.at(1),
                                   request.path_params.at(2), answer(std::move(respond)));
             });
  router.Add("POST", "/mirror/flows/{source}/{target}/groups/{group}/failover",
             [failover, answer](RestRequest request, Responder respond) {
               failover->Failover(request.path_params.at(0), request.path_params.at(1),
                                  request.path_params.at(2), request.QueryBool("dry_run", false),
                                  answer(std::move(respond)));
             });
}

}  // namespace

void AddMirrorFlowsResource(Router& router, ResourceContext& ctx,
                            const health::FlowHealthView* flows,
                            mirror_maker::GroupFailoverView* failover) {
  if (flows == nullptr) return;
  if (failover != nullptr) AddGroupFailoverRoutes(router, failover);
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
