// InternalConnectResource: the worker-to-worker endpoints POST /connectors/{c}/tasks and
// PUT /connectors/{c}/fence (Connect's InternalClusterResource).
//
// As in Connect: the task-config body is parsed first; the KIP-507 signature headers become a
// herder::InternalRequestSignature (nullopt when either header is missing), and a signature
// naming an unknown Mac or carrying bad Base64 is refused with 400 before the herder sees it
// (InternalRequestSignature.fromHeaders). The herder verifies the signature itself and may ask
// for the request to be forwarded to the leader, which happens as for the other forwarded
// endpoints (forwarding.h). A forwarded request carries only the user's Authorization header,
// so it arrives unsigned, as Connect's does; the fence body is forwarded as Jackson writes a
// byte[]: a JSON string of its Base64.
//
// MirrorMaker's dedicated mode (InternalMirrorResource, KIP-710) serves the same two endpoints
// under /{source}/{target}, one herder per replication flow (AddMirrorInternalResource).
#include <map>
#include <memory>

#include "jvm/java_base64.h"
#include "rest/json_entities.h"
#include "rest/resources/resources.h"
#include "runtime/distributed/request_signing.h"

namespace connectd::rest {
namespace {

// InternalRequestSignature.fromHeaders: nullopt unless both headers are present; 400 for an
// unknown algorithm or a malformed signature.
absl::StatusOr<std::optional<herder::InternalRequestSignature>> SignatureOf(
    const RestRequest& request) {
  std::optional<std::string> algorithm =
      FindHeader(request.headers, distributed::kSignatureAlgorithmHeader);
  std::optional<std::string> signature = FindHeader(request.headers, distributed::kSignatureHeader);
  if (!algorithm || !signature) return std::nullopt;
  herder::InternalRequestSignature out{std::move(*algorithm), std::move(*signature), request.body};
  if (absl::Status format = distributed::CheckSignatureFormat(out); !format.ok()) return format;
  return out;
}

std::string TasksPath(const ResourceContext& ctx, const std::string& connector,
                      std::string_view suffix) {
  return ctx.path_prefix + "/connectors/" + EncodePathSegment(connector) + std::string(suffix);
}

void PutTaskConfigs(ResourceContext& ctx, RestRequest request, Responder respond) {
  absl::StatusOr<std::vector<herder::ConfigMap>> configs = ParseTaskConfigs(request.body);
  if (!configs.ok()) {
    respond(ErrorResponse(configs.status()));
    return;
  }
  absl::StatusOr<std::optional<herder::InternalRequestSignature>> signature = SignatureOf(request);
  if (!signature.ok()) {
    respond(ErrorResponse(signature.status()));
    return;
  }
  const std::string& name = request.path_params[0];
  ForwardRequest forward{"POST", TasksPath(ctx, name, "/tasks"), {}, TaskConfigsJson(*configs)};
  ctx.herder.PutTaskConfigs(
      name, *configs, std::move(*signature),
      ReplyEmptyOrForward(ctx, request, std::move(forward), std::move(respond), 204));
}

void FenceZombies(ResourceContext& ctx, RestRequest request, Responder respond) {
  absl::StatusOr<std::optional<herder::InternalRequestSignature>> signature = SignatureOf(request);
  if (!signature.ok()) {
    respond(ErrorResponse(signature.status()));
    return;
  }
  const std::string& name = request.path_params[0];
  ForwardRequest forward{"PUT",
                         TasksPath(ctx, name, "/fence"),
                         {},
                         JsonStringLiteral(jvm::JavaBase64Encode(request.body))};
  ctx.herder.FenceZombieSourceTasks(
      name, std::move(*signature),
      ReplyEmptyOrForward(ctx, request, std::move(forward), std::move(respond), 204));
}

}  // namespace

void AddInternalResource(Router& router, ResourceContext& ctx) {
  RouteOptions raw_body{.consumes_json = false};  // Connect reads these bodies as byte[]
  router.Add(
      "POST", "/connectors/{connector}/tasks",
      [&ctx](RestRequest request, Responder respond) {
        PutTaskConfigs(ctx, std::move(request), std::move(respond));
      },
      raw_body);
  router.Add(
      "PUT", "/connectors/{connector}/fence",
      [&ctx](RestRequest request, Responder respond) {
        FenceZombies(ctx, std::move(request), std::move(respond));
      },
      raw_body);
}

void AddMirrorInternalResource(Router& router, ResourceContext& ctx, const MirrorHerders& herders) {
  // One context per flow: its herder, and its namespace as the prefix of forwarded paths (Java
  // forwards uriInfo.getPath(), which includes the namespace).
  using Contexts = std::map<std::pair<std::string, std::string>, std::unique_ptr<ResourceContext>>;
  auto contexts = std::make_shared<Contexts>();
  for (const auto& [flow, herder] : herders) {
    (*contexts)[flow] = std::make_unique<ResourceContext>(ResourceContext{
        *herder, ctx.config, ctx.loggers, ctx.scheduler, ctx.health_check_timeout, ctx.metrics,
        ctx.rest_client,
        "/" + EncodePathSegment(flow.first) + "/" + EncodePathSegment(flow.second)});
  }
  using Handler = void (*)(ResourceContext&, RestRequest, Responder);
  auto on_flow = [contexts](Handler handler) {
    return [contexts, handler](RestRequest request, Responder respond) {
      const std::string& source = request.path_params[0];
      const std::string& target = request.path_params[1];
      auto it = contexts->find({source, target});
      if (it == contexts->end()) {
        respond(ErrorResponse(404, "No replication flow found for source '" + source +
                                       "' and target '" + target + "'"));
        return;
      }
      request.path_params.erase(request.path_params.begin(), request.path_params.begin() + 2);
      handler(*it->second, std::move(request), std::move(respond));
    };
  };
  RouteOptions raw_body{.consumes_json = false};
  router.Add("POST", "/{source}/{target}/connectors/{connector}/tasks", on_flow(&PutTaskConfigs),
             raw_body);
  router.Add("PUT", "/{source}/{target}/connectors/{connector}/fence", on_flow(&FenceZombies),
             raw_body);
}

}  // namespace connectd::rest
