// InternalConnectResource: the worker-to-worker endpoints POST /connectors/{c}/tasks and
// PUT /connectors/{c}/fence.
//
// The Herder interface has no task-config write or zombie fencing yet, so these answer as
// Connect's StandaloneHerder does: it throws UnsupportedOperationException, which Connect's
// exception mapper turns into 500 with the exception's message. The task-config body is still
// parsed first, as Connect does.
#include "rest/json_entities.h"
#include "rest/resources/resources.h"

namespace connectd::rest {

void AddInternalResource(Router& router, ResourceContext& /*ctx*/) {
  RouteOptions raw_body{.consumes_json = false};  // Connect reads these bodies as byte[]
  router.Add(
      "POST", "/connectors/{connector}/tasks",
      [](RestRequest request, Responder respond) {
        absl::StatusOr<std::vector<herder::ConfigMap>> configs = ParseTaskConfigs(request.body);
        if (!configs.ok()) {
          respond(ErrorResponse(configs.status()));
          return;
        }
        respond(ErrorResponse(500,
                              "Kafka Connect in standalone mode does not support externally "
                              "setting task configurations."));
      },
      raw_body);
  router.Add(
      "PUT", "/connectors/{connector}/fence",
      [](RestRequest, Responder respond) {
        respond(ErrorResponse(
            500,
            "Kafka Connect in standalone mode does not support exactly-once source connectors."));
      },
      raw_body);
}

}  // namespace connectd::rest
