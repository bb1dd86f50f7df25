// File: dispatcher.h
//
// Dispatcher: the HTTP-independent half of the server. It owns the route table and the
// resources, and turns one IncomingRequest into exactly one RestResponse:
//   1. CORS headers for the request's Origin (cors.h);
//   2. routing: 404 `HTTP 404 Not Found`, 405 `HTTP 405 Method Not Allowed` (+ Allow), OPTIONS
//      answered with the allowed methods, 415 for a non-JSON Content-Type on a JSON resource,
//      406 when Accept excludes application/json;
//   3. HTTP Basic authentication when configured (basic_auth.h; before OPTIONS answers too);
//   4. the resource handler, which answers through a Responder from any thread;
//   5. on the way out: Content-Type: application/json, CORS headers, response.http.headers.config
//      rules (the resource's own fields win, as with Jetty filters running first).
// A handler that throws is answered with 500 and the exception's text.
//
// Threads: Dispatch() may run on any thread (the session strand); the sink runs on whichever
// thread answers first.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "rest/cors.h"
#include "rest/http_types.h"
#include "rest/logger_levels.h"
#include "rest/rest_config.h"
#include "rest/rest_server.h"
#include "rest/router.h"
#include "rest/scheduler.h"
#include "runtime/herder_api/herder.h"
#include "runtime/metrics/metrics.h"
#include "runtime/mirror_maker/failover/group_failover_view.h"
#include "runtime/mirror_maker/health/flow_health_view.h"

namespace connectd::rest {

struct ResourceContext;
class RestClient;

// One request as the transport read it.
struct IncomingRequest {
  std::string method;
  std::string target;  // path and query, still encoded
  std::string body;
  std::string base_url;  // "http://host:port" as the client addressed us
  std::optional<std::string> content_type;
  std::optional<std::string> accept;
  std::optional<std::string> origin;
  std::optional<std::string> access_control_request_method;
  std::optional<std::string> access_control_request_headers;
  HeaderList headers;  // every header field, in order
};

class Dispatcher {
 public:
  struct Options {
    std::chrono::milliseconds health_check_timeout{10000};
    // Wall clock for date header rules (injectable for tests).
    std::function<std::chrono::system_clock::time_point()> now;
    // Served by GET /metrics; null: /metrics answers 404.
    const metrics::MetricsRegistry* metrics = nullptr;
    // Forwards requests to other workers (forwarding.h); must outlive the Dispatcher. Null:
    // a request that must be forwarded fails with 500.
    RestClient* rest_client = nullptr;
    // Set: only MirrorMaker's namespaced internal endpoints (RestServer::Options).
    const MirrorHerders* mirror_herders = nullptr;
    // Serves GET /mirror/flows... (runtime/mirror_maker/health); null: not served.
    const health::FlowHealthView* flow_health = nullptr;
    // Serves the group failover routes of /mirror/flows (RestServer::Options); null: not served.
    mirror_maker::GroupFailoverView* group_failover = nullptr;
    // An admin listener's dispatcher (admin.listeners): /admin/* and nothing else.
    bool admin_only = false;
  };

  // `herder`, `config`, `scheduler` and `loggers` must outlive the Dispatcher and every response
  // it hands out.
  Dispatcher(herder::Herder& herder, const RestConfig& config, Scheduler& scheduler,
             LoggerLevels& loggers, Options options);
  ~Dispatcher();
  Dispatcher(const Dispatcher&) = delete;
  Dispatcher& operator=(const Dispatcher&) = delete;

  // Routes `request` and answers through `sink` once, with final headers. Returns the request's
  // Responder so the transport can answer first (request timeout); the first answer wins.
  Responder Dispatch(IncomingRequest request, Responder::Sink sink);

  // Final headers (Content-Type, header rules) for a response the transport makes itself
  // (413, 431, 400 on an unreadable request).
  RestResponse Finalize(RestResponse response) const;

 private:
  struct Decorator;

  Router router_;
  // A 401 (or 500 for undecodable credentials) when the request fails Basic authentication.
  std::optional<RestResponse> Authenticate(const IncomingRequest& in, std::string_view path,
                                           const char* unauthorized_type) const;

  CorsFilter cors_;
  std::shared_ptr<const BasicAuth> basic_auth_;  // null: no authentication
  std::shared_ptr<const Decorator> decorator_;
  std::unique_ptr<ResourceContext> context_;
};

}  // namespace connectd::rest
