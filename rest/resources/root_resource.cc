// RootResource: GET / (ServerInfo) and GET /health (KIP-1017).
#include <memory>
#include <mutex>

#include "rest/json_entities.h"
#include "rest/resources/resources.h"

namespace connectd::rest {
namespace {

constexpr char kHealthyMessage[] = "Worker has completed startup and is ready to handle requests.";
constexpr char kStartingMessage[] = "Worker is still starting up.";
constexpr char kUnhealthyMessage[] =
    "Worker was unable to handle this request and may be unable to handle other requests.";

RestResponse Starting() {
  return JsonResponse(503, WorkerStatusJson("starting", kStartingMessage));
}

void HealthCheck(ResourceContext& ctx, herder::Herder& herder, Responder respond) {
  // The herder's no-op and the deadline race; the Responder keeps only the first answer.
  struct State {
    std::mutex mu;
    std::function<void()> cancel_timer;
    bool answered = false;
  };
  auto state = std::make_shared<State>();

  std::function<void()> cancel =
      ctx.scheduler.RunAfter(ctx.health_check_timeout, [respond, state, &herder] {
        {
          std::lock_guard lock(state->mu);
          state->answered = true;
        }
        if (!herder.Ready()) {
          respond(Starting());
        } else {
          respond(JsonResponse(500, WorkerStatusJson("unhealthy", kUnhealthyMessage)));
        }
      });
  {
    std::lock_guard lock(state->mu);
    if (!state->answered) state->cancel_timer = cancel;
  }

  herder.Health([respond, state, &herder](absl::Status status) {
    std::function<void()> cancel_timer;
    {
      std::lock_guard lock(state->mu);
      state->answered = true;
      cancel_timer = std::move(state->cancel_timer);
    }
    if (cancel_timer) cancel_timer();
    if (!status.ok()) {
      respond(ErrorResponse(status));
    } else if (!herder.Ready()) {
      respond(Starting());
    } else {
      respond(JsonResponse(200, WorkerStatusJson("healthy", kHealthyMessage)));
    }
  });
}

// Healthy when every herder is, checked one after the other; the first other answer is the
// answer.
void HealthCheckEach(ResourceContext& ctx, std::shared_ptr<const std::vector<herder::Herder*>> all,
                     size_t i, Responder respond) {
  HealthCheck(ctx, *(*all)[i], Responder([&ctx, all, i, respond](RestResponse response) {
                if (response.status == 200 && i + 1 < all->size()) {
                  HealthCheckEach(ctx, all, i + 1, respond);
                } else {
                  respond(std::move(response));
                }
              }));
}

}  // namespace

void AddMirrorHealthResource(Router& router, ResourceContext& ctx, const MirrorHerders& herders) {
  auto all = std::make_shared<std::vector<herder::Herder*>>();
  for (const auto& [flow, herder] : herders) all->push_back(herder);
  RouteOptions no_body{.consumes_json = false};
  router.Add(
      "GET", "/health",
      [&ctx, all](RestRequest, Responder respond) {
        if (all->empty()) {
          respond(JsonResponse(200, WorkerStatusJson("healthy", kHealthyMessage)));
          return;
        }
        HealthCheckEach(ctx, all, 0, std::move(respond));
      },
      no_body);
}

void AddRootResource(Router& router, ResourceContext& ctx) {
  RouteOptions no_body{.consumes_json = false};  // RootResource declares no @Consumes
  router.Add(
      "GET", "/",
      [&ctx](RestRequest, Responder respond) {
        respond(JsonResponse(200, ServerInfoJson(ctx.herder.GetServerInfo())));
      },
      no_body);
  router.Add(
      "GET", "/health",
      [&ctx](RestRequest, Responder respond) { HealthCheck(ctx, ctx.herder, std::move(respond)); },
      no_body);
}

}  // namespace connectd::rest
