#include "runtime/main/flow_health_setup.h"

#include <boost/asio/io_context.hpp>

#include "rest/rest_client.h"

namespace connectd::main {

std::unique_ptr<health::FlowHealth> MakeFlowHealth(herder::Herder& herder,
                                                   metrics::MetricsRegistry& metrics,
                                                   const config::ConfigProviders& providers,
                                                   boost::asio::io_context& control,
                                                   const rest::RestConfig* peers) {
  health::FlowHealth::Options options;
  options.providers = providers;
  if (peers != nullptr) {
    // Short timeouts: an owner that does not answer within seconds is evidence, not a wait.
    rest::RestClient::Options client_options;
    client_options.connect_timeout = std::chrono::milliseconds(2000);
    client_options.request_timeout = std::chrono::milliseconds(5000);
    auto client = std::make_shared<rest::RestClient>(control, peers->tls, client_options);
    options.http_get = [client](const std::string& url,
                                std::function<void(absl::StatusOr<std::string>)> done) {
      client->Send({.method = "GET", .url = url, .headers = {}, .body = {}},
                   [done = std::move(done)](absl::StatusOr<rest::HttpClientResponse> response) {
                     if (!response.ok()) return done(response.status());
                     if (response->status != 200) {
                       return done(absl::UnavailableError("answered HTTP " +
                                                          std::to_string(response->status)));
                     }
                     done(std::move(response->body));
                   });
    };
    std::string scheme = peers->advertised_listener.value_or(
        peers->listeners.empty() ? "http" : peers->listeners.front().scheme);
    options.peer_scheme = scheme == "https" ? "https" : "http";
  }
  return std::make_unique<health::FlowHealth>(herder, metrics, std::move(options));
}

std::unique_ptr<mirror_maker::GroupFailoverService> MakeGroupFailover(
    const health::FlowHealth& health) {
  return std::make_unique<mirror_maker::GroupFailoverService>(
      [&health](
          const std::string& source,
          const std::string& target) -> std::optional<mirror_maker::GroupFailoverService::Target> {
        std::optional<health::FlowTarget> flow = health.Target(source, target);
        if (!flow) return std::nullopt;
        return mirror_maker::GroupFailoverService::Target{std::move(flow->client),
                                                          std::move(flow->policy)};
      });
}

}  // namespace connectd::main
