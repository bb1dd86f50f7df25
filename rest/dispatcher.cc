#include "rest/dispatcher.h"

#include <exception>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "rest/error_mapping.h"
#include "rest/resources/resources.h"
#include "rest/response_headers.h"
#include "runtime/common/logging.h"
#include "runtime/common/strings.h"

namespace connectd::rest {
namespace {

constexpr char kLogger[] = "connectd.rest.Dispatcher";
constexpr char kJson[] = "application/json";

// The media type of a Content-Type or Accept element, lower case, without parameters.
std::string MediaType(absl::string_view value) {
  absl::string_view type = value.substr(0, value.find(';'));
  return absl::AsciiStrToLower(absl::StripAsciiWhitespace(type));
}

bool IsJson(const std::string& content_type) { return MediaType(content_type) == kJson; }

// True if some media range in `accept` admits application/json with q > 0.
bool AcceptsJson(const std::string& accept) {
  if (absl::StripAsciiWhitespace(accept).empty()) return true;
  for (absl::string_view range : absl::StrSplit(accept, ',')) {
    std::string type = MediaType(range);
    if (type != "*/*" && type != "application/*" && type != kJson) continue;
    bool zero_q = false;
    std::vector<absl::string_view> params = absl::StrSplit(range, ';');
    for (size_t i = 1; i < params.size(); ++i) {
      std::string param = absl::AsciiStrToLower(absl::StripAsciiWhitespace(params[i]));
      if (param == "q=0" || param == "q=0.0" || param == "q=0.00" || param == "q=0.000") {
        zero_q = true;
      }
    }
    if (!zero_q) return true;
  }
  return false;
}

}  // namespace

// What every response gets on its way out; shared with in-flight responders.
struct Dispatcher::Decorator {
  std::vector<HeaderRule> rules;
  std::function<std::chrono::system_clock::time_point()> now;

  RestResponse Apply(RestResponse response, const HeaderList& cors) const {
    HeaderList headers = cors;
    ApplyHeaderRules(rules, now ? now() : std::chrono::system_clock::now(), headers);
    bool typed = false;
    for (auto& [name, value] : response.headers) {
      typed = typed || absl::EqualsIgnoreCase(name, "Content-Type");
      SetHeader(headers, name, std::move(value));
    }
    if (!typed) SetHeader(headers, "Content-Type", kJson);
    response.headers = std::move(headers);
    return response;
  }
};

Dispatcher::Dispatcher(herder::Herder& herder, const RestConfig& config, Scheduler& scheduler,
                       LoggerLevels& loggers, Options options)
    : cors_(config.allowed_origins, config.allowed_methods),
      basic_auth_(config.basic_auth),
      decorator_(std::make_shared<Decorator>(Decorator{config.response_headers, options.now})),
      context_(std::make_unique<ResourceContext>(
          ResourceContext{herder, config, loggers, scheduler, options.health_check_timeout,
                          options.metrics, options.rest_client})) {
  if (options.admin_only) {
    AddLoggersResource(router_, *context_);
    return;
  }
  if (options.mirror_herders != nullptr) {
    AddMirrorInternalResource(router_, *context_, *options.mirror_herders);
    AddMirrorFlowsResource(router_, *context_, options.flow_health,
                           options.group_failover);  // connectd's own
    // What an operator scrapes and checks on any node: the node's metrics, its health over
    // every flow, and its loggers.
    AddMetricsResource(router_, *context_);
    AddMirrorHealthResource(router_, *context_, *options.mirror_herders);
    if (config.admin_endpoints_enabled) AddLoggersResource(router_, *context_);
    return;
  }
  AddRootResource(router_, *context_);
  AddConnectorsResource(router_, *context_);
  AddInternalResource(router_, *context_);
  AddConnectorPluginsResource(router_, *context_);
  AddMetricsResource(router_, *context_);
  AddMirrorFlowsResource(router_, *context_, options.flow_health, options.group_failover);
  if (config.admin_endpoints_enabled && config.admin_listeners.empty()) {
    AddLoggersResource(router_, *context_);
  }
}

Dispatcher::~Dispatcher() = default;

RestResponse Dispatcher::Finalize(RestResponse response) const {
  return decorator_->Apply(std::move(response), {});
}

// Connect's BasicAuthSecurityRestExtension runs as a post-matching filter: after routing and
// content negotiation, before the resource (and Jersey's OPTIONS answer).
std::optional<RestResponse> Dispatcher::Authenticate(const IncomingRequest& in,
                                                     std::string_view path,
                                                     const char* unauthorized_type) const {
  if (!basic_auth_) return std::nullopt;
  std::optional<std::string> authorization;
  for (const auto& [name, value] : in.headers) {
    if (absl::EqualsIgnoreCase(name, "Authorization")) {
      authorization = value;
      break;
    }
  }
  BasicAuth::Result result = basic_auth_->Check(in.method, path, authorization);
  switch (result.outcome) {
    case BasicAuth::Outcome::kAllowed:
      return std::nullopt;
    case BasicAuth::Outcome::kMalformed:
      return ErrorResponse(500, result.message);
    case BasicAuth::Outcome::kUnauthorized:
      break;
  }
  RestResponse response;
  response.status = 401;
  response.body = kUnauthorizedMessage;
  SetHeader(response.headers, "Content-Type", unauthorized_type);
  return response;
}

Responder Dispatcher::Dispatch(IncomingRequest in, Responder::Sink sink) {
  HeaderList cors = cors_.HeadersFor(in.method, in.origin, in.access_control_request_method,
                                     in.access_control_request_headers);
  Responder respond([decorator = decorator_, cors, sink = std::move(sink)](RestResponse r) {
    sink(decorator->Apply(std::move(r), cors));
  });

  try {
    std::string_view target = in.target;
    size_t question = target.find('?');
    std::string_view path = target.substr(0, question);
    std::string_view query =
        question == std::string_view::npos ? std::string_view() : target.substr(question + 1);

    absl::StatusOr<Router::Match> match = router_.Find(in.method, path);
    if (!match.ok()) {
      respond(ErrorResponse(match.status()));
      return respond;
    }
    if (match->outcome == Router::Outcome::kNotFound) {
      respond(ErrorResponse(404, kNotFoundMessage));
      return respond;
    }
    if (in.method == "OPTIONS") {
      if (std::optional<RestResponse> denied = Authenticate(in, path, "text/plain")) {
        respond(*std::move(denied));
        return respond;
      }
      RestResponse response = EmptyResponse(200);
      SetHeader(response.headers, "Allow", absl::StrJoin(match->allowed, ","));
      respond(std::move(response));
      return respond;
    }
    if (match->outcome == Router::Outcome::kMethodNotAllowed) {
      RestResponse response = ErrorResponse(405, kMethodNotAllowedMessage);
      SetHeader(response.headers, "Allow", absl::StrJoin(match->allowed, ","));
      respond(std::move(response));
      return respond;
    }
    const Router::Route& route = *match->route;
    if (route.options.consumes_json && in.content_type && !IsJson(*in.content_type)) {
      respond(ErrorResponse(415, kUnsupportedMediaTypeMessage));
      return respond;
    }
    if (route.options.produces_json && in.accept && !AcceptsJson(*in.accept)) {
      respond(ErrorResponse(406, kNotAcceptableMessage));
      return respond;
    }

    if (std::optional<RestResponse> denied = Authenticate(in, path, kJson)) {
      respond(*std::move(denied));
      return respond;
    }

    RestRequest request;
    request.method = route.method;
    request.path_params = std::move(match->params);
    request.query = ParseQuery(query);
    request.body = std::move(in.body);
    request.base_url = std::move(in.base_url);
    request.headers = std::move(in.headers);
    route.handler(std::move(request), respond);
  } catch (const std::exception& e) {
    CONNECTD_LOG(kError, kLogger) << "Uncaught exception in REST call " << in.method << " "
                                  << in.target << ": " << e.what();
    respond(ErrorResponse(500, e.what()));
  }
  return respond;
}

}  // namespace connectd::rest
