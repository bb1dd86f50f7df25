// LoggingResource: GET/PUT /admin/loggers (worker scope here, cluster scope through the herder).
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "rest/json_entities.h"
#include "rest/resources/resources.h"
#include "runtime/common/logging.h"
#include "runtime/common/strings.h"

namespace connectd::rest {
namespace {

constexpr char kLogger[] = "org.apache.kafka.connect.runtime.rest.resources.LoggingResource";

void SetLevel(ResourceContext& ctx, RestRequest request, Responder respond) {
  const std::string& name_space = request.path_params[0];
  absl::StatusOr<std::optional<std::string>> level_text = ParseLoggerLevelBody(request.body);
  if (!level_text.ok()) {
    respond(ErrorResponse(level_text.status()));
    return;
  }
  if (!level_text->has_value()) {
    respond(ErrorResponse(400, "Desired 'level' parameter was not specified in request."));
    return;
  }
  const std::string& text = **level_text;
  std::optional<log::Level> level = LoggerLevels::ParseLog4jLevel(text);
  if (!level) {
    // Connect answers 404 here (NotFoundException), not 400.
    respond(ErrorResponse(404, absl::StrCat("invalid log level '", text, "'.")));
    return;
  }
  std::string scope = absl::AsciiStrToLower(request.Query("scope").value_or("worker"));
  if (scope == "cluster") {
    absl::Status s = ctx.herder.SetClusterLoggerLevel(name_space, text);
    respond(s.ok() ? EmptyResponse(204) : ErrorResponse(s));
    return;
  }
  if (scope != "worker") {
    CONNECTD_LOG(kWarn, kLogger) << "Received invalid scope '" << scope
                                 << "' in request to adjust logging level; will default to worker";
  }
  CONNECTD_LOG(kInfo, kLogger) << "Setting level of namespace " << name_space << " and children to "
                               << log::LevelName(*level);
  respond(JsonResponse(200, StringArrayJson(ctx.loggers.SetLevel(name_space, *level))));
}

}  // namespace

void AddLoggersResource(Router& router, ResourceContext& ctx) {
  LoggerLevels& loggers = ctx.loggers;
  router.Add("GET", "/admin/loggers", [&loggers](RestRequest, Responder respond) {
    respond(JsonResponse(200, LoggerLevelsJson(loggers.AllLevels())));
  });
  router.Add("GET", "/admin/loggers/{logger}", [&loggers](RestRequest request, Responder respond) {
    const std::string& name = request.path_params[0];
    std::optional<LoggerLevel> level = loggers.Level(name);
    respond(level ? JsonResponse(200, LoggerLevelJson(*level))
                  : ErrorResponse(404, absl::StrCat("Logger ", name, " not found.")));
  });
  router.Add("PUT", "/admin/loggers/{logger}", [&ctx](RestRequest request, Responder respond) {
    SetLevel(ctx, std::move(request), std::move(respond));
  });
}

}  // namespace connectd::rest
