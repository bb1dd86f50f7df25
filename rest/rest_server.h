// File: rest_server.h
//
// RestServer: Kafka Connect's REST API over HTTP/1.1 (Boost.Beast) on an io_context the caller
// owns and runs. Every request becomes calls on a herder::Herder; see README.md for the model.
//
//   boost::asio::io_context ioc;
//   auto config = ParseRestConfig(worker_props);                 // rest_config.h
//   RestServer server(ioc, herder, *config);
//   auto bound = server.Start();                                 // binds every listener
//   ... ioc.run() on one or more threads ...
//   server.Stop();
//
// Limits (Options): request bodies up to 8 MiB (413 beyond), 8 KiB of request header (431
// beyond), 30 s to deliver a request's header and body, 30 s idle keep-alive, at most 1000 open
// connections (further ones are closed at once), 90 s for the herder to answer (then 500
// `Request timed out`).
//
// Threads: Start, Stop and the accessors may be called from any thread. Sessions run on
// per-connection strands of the io_context; herder callbacks may complete on any thread and are
// posted back to their session's strand.
//
// Lifetime: `herder` must outlive every herder callback the server hands out. The server's own
// state is reference-counted by its sessions, so destroying the RestServer (which calls Stop())
// while the io_context still runs is safe.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "rest/rest_config.h"
#include "runtime/herder_api/herder.h"
#include "runtime/metrics/metrics.h"
#include "runtime/mirror_maker/failover/group_failover_view.h"
#include "runtime/mirror_maker/health/flow_health_view.h"

namespace boost::asio {
class io_context;
}  // namespace boost::asio

namespace connectd::rest {

class RestClient;

// Dedicated MirrorMaker mode (KIP-710): the herder of each replication flow, by (source alias,
// target alias). The herders must outlive the server.
using MirrorHerders = std::map<std::pair<std::string, std::string>, herder::Herder*>;

namespace internal {
struct ServerState;
class Listener;
}  // namespace internal

// A listener after binding: `port` is the actual port (useful with port 0).
struct BoundListener {
  std::string scheme;
  std::string host;
  int port = 0;
};

class RestServer {
 public:
  struct Options {
    // Connect's DEFAULT_REST_REQUEST_TIMEOUT_MS: the herder's time to answer.
    std::chrono::milliseconds request_timeout{90000};
    // Connect's DEFAULT_HEALTH_CHECK_TIMEOUT_MS for GET /health.
    std::chrono::milliseconds health_check_timeout{10000};
    // Time to receive a request's header and body (and to write a response).
    std::chrono::milliseconds header_read_timeout{30000};
    // Time a keep-alive connection may wait for its next request.
    std::chrono::milliseconds idle_timeout{30000};
    size_t max_body_bytes = 8 * 1024 * 1024;
    size_t max_header_bytes = 8 * 1024;
    int max_connections = 1000;
    // Wall clock in ms for loggers' last_modified; default: the system clock.
    std::function<int64_t()> now_ms;
    // The address advertised when neither a listener nor rest.advertised.host.name names a
    // host (Java: InetAddress.getLocalHost().getHostAddress()); default: resolve gethostname().
    std::function<std::string()> local_host_address;
    // The registry GET /metrics serves (Prometheus text); null: /metrics answers 404.
    const metrics::MetricsRegistry* metrics = nullptr;
    // Forwards requests that another worker must serve (Connect's RestClient). Null: a client on
    // the server's io_context with the REST TLS settings (listeners.https.ssl.* or ssl.*).
    std::shared_ptr<RestClient> rest_client;
    // Non-empty: serve only MirrorMaker's internal endpoints (Java's MirrorRestServer), POST
    // /{source}/{target}/connectors/{c}/tasks and PUT /{source}/{target}/connectors/{c}/fence,
    // each flow on its own herder; the constructor's `herder` then serves nothing.
    MirrorHerders mirror_herders;
    // The flow-health service behind GET /mirror/flows (runtime/mirror_maker/health); null: not
    // served. Must outlive the server.
    const health::FlowHealthView* flow_health = nullptr;
    // Runs a flow's group translation and failover behind GET .../groups/{g}/offsets and POST
    // .../groups/{g}/failover (runtime/mirror_maker/failover); null: not served. Must outlive
    // the server.
    mirror_maker::GroupFailoverView* group_failover = nullptr;
  };

  RestServer(boost::asio::io_context& ioc, herder::Herder& herder, RestConfig config);
  RestServer(boost::asio::io_context& ioc, herder::Herder& herder, RestConfig config,
             Options options);
  ~RestServer();
  RestServer(const RestServer&) = delete;
  RestServer& operator=(const RestServer&) = delete;

  // Builds the TLS context (if a listener is https) and binds every listener, in order. Fails
  // without leaving anything bound: kInvalidArgument/kUnimplemented/kNotFound for TLS settings,
  // kUnavailable when a listener cannot bind. Call once.
  absl::StatusOr<std::vector<BoundListener>> Start();

  // Closes the listeners (synchronously: no connection is accepted after Stop returns) and
  // every open connection (asynchronously, on their strands), and cancels pending timers.
  // Idempotent.
  void Stop();

  // The URL given to peers, e.g. "http://10.0.0.5:8083/", derived as Connect's
  // RestServer.advertisedUrl(). REQUIRES: Start() succeeded.
  std::string AdvertisedUrl() const;
  // Connect's worker id: advertised host + ":" + advertised port. REQUIRES: Start() succeeded.
  std::string WorkerId() const;

  // The admin.listeners after Start() (empty unless admin.listeners lists some).
  const std::vector<BoundListener>& admin_bound() const { return admin_bound_; }

  // Open connections right now.
  int active_connections() const;

 private:
  std::shared_ptr<internal::ServerState> state_;
  std::vector<std::shared_ptr<internal::Listener>> listeners_;
  std::vector<std::shared_ptr<internal::Listener>> admin_listeners_;
  std::vector<BoundListener> bound_;
  std::vector<BoundListener> admin_bound_;
  std::string advertised_host_;
  int advertised_port_ = 0;
  std::string advertised_scheme_;
  bool started_ = false;
};

}  // namespace connectd::rest
