// File: rest_client.h
//
// RestClient: an asynchronous HTTP/1.1 client (Boost.Beast, plain or TLS) for requests between
// workers, as Kafka Connect's RestClient: forwarded REST requests and the internal task-config
// and fencing requests a follower sends to the leader.
//
//   RestClient client(ioc, rest_config.tls);
//   client.Send({.method = "POST", .url = "https://leader:8083/connectors/c/tasks",
//                .headers = {{"Content-Type", "application/json"}}, .body = json},
//               [](absl::StatusOr<HttpClientResponse> response) { ... });
//
// Like Java's client, every request uses a fresh connection (no pooling) and redirects are not
// followed: a 3xx comes back as a response. Any status is a response; only transport failures
// are errors:
//   kInvalidArgument    the URL is not an absolute http(s) URL
//   kFailedPrecondition the client TLS context cannot be built from the REST TLS settings
//                       (Java: "Failed to start RestClient"); message names the setting
//   kUnavailable        resolving, connecting, the TLS handshake, writing or reading failed
//   kDeadlineExceeded   connect_timeout or request_timeout passed
// The TLS context is built on the first https request (Java loads its SSL settings only when a
// URL is https, KAFKA-14816) and reused afterwards.
//
// Threads: Send() may be called from any thread and never blocks. `done` runs exactly once, on a
// thread running the io_context; it must not block. SendAndWait() blocks and must not be called
// on a thread that runs the io_context.
//
// Lifetime: the io_context must outlive every request. In-flight requests keep what they need
// alive, so the RestClient may be destroyed while they finish. If the io_context stops before a
// request completes, `done` may never run (SendAndWait then times out).
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "rest/http_types.h"
#include "rest/rest_config.h"
#include "rest/tls_context.h"

namespace boost::asio {
class io_context;
}  // namespace boost::asio

namespace connectd::rest {

struct HttpClientRequest {
  std::string method;  // "GET", "POST", ...
  std::string url;     // absolute: http(s)://host[:port][/path][?query], already encoded
  HeaderList headers;  // sent as given; Host, Content-Length and User-Agent are added if absent
  std::string body;    // sent when non-empty or when the method is POST, PUT or PATCH
};

struct HttpClientResponse {
  int status = 0;
  HeaderList headers;
  std::string body;
};

// An absolute URL split for a request.
struct ParsedUrl {
  bool https = false;
  std::string host;    // without IPv6 brackets
  int port = 0;        // explicit, or 80/443
  std::string target;  // path and query, "/" when the URL has no path
};

// Parses "http(s)://host[:port][/path][?query]" (scheme case-insensitive, IPv6 in brackets,
// userinfo and fragments refused). kInvalidArgument naming the URL otherwise.
absl::StatusOr<ParsedUrl> ParseHttpUrl(std::string_view url);

struct RestClientOptions {
  // Resolving, connecting and the TLS handshake (Jetty HttpClient's default connect timeout).
  std::chrono::milliseconds connect_timeout{15000};
  // Writing the request and reading the whole response (Connect's REST request timeout).
  std::chrono::milliseconds request_timeout{90000};
  // Larger response bodies fail the request (kUnavailable).
  std::size_t max_response_body_bytes = 64 * 1024 * 1024;
  // Java's RestClient identifies itself as "kafka-connect".
  std::string user_agent = "kafka-connect";
};

// Java RestClient.httpRequest's outcome as a Status, for callers that need no response body
// (the herder's task-config and fencing requests to the leader): OK for any 2xx; for >= 400 the
// remote message with the remote HTTP status attached (herder::WithHttpStatus; code
// kInvalidArgument 400, kPermissionDenied 403, kNotFound 404, kFailedPrecondition 409,
// kUnavailable 503, else kInternal); other statuses 500 "Unexpected status code when handling
// forwarded request: N"; transport errors 500 "IO Error trying to forward REST request: ..."
// (kUnavailable/kDeadlineExceeded kept) or "Failed to start RestClient: ..." (TLS settings).
absl::Status ResponseAsStatus(const absl::StatusOr<HttpClientResponse>& response);

class RestClient {
 public:
  using Options = RestClientOptions;
  using ResponseCallback = std::function<void(absl::StatusOr<HttpClientResponse>)>;

  // HTTPS settings come from `tls` (the REST server's TlsConfig, rest_config.h).
  RestClient(boost::asio::io_context& ioc, TlsConfig tls, Options options = {});
  // Uses a prepared client TLS context (tests, or a caller that built one already).
  RestClient(boost::asio::io_context& ioc, ClientTlsContext tls, Options options = {});
  ~RestClient();
  RestClient(const RestClient&) = delete;
  RestClient& operator=(const RestClient&) = delete;

  // Starts `request`; `done` gets the response or a transport error (see the file comment).
  void Send(HttpClientRequest request, ResponseCallback done);

  // Send() and wait for the answer, at most connect_timeout + request_timeout (+1 s), then
  // kDeadlineExceeded. REQUIRES: not called on a thread running the io_context.
  absl::StatusOr<HttpClientResponse> SendAndWait(HttpClientRequest request);

  const Options& options() const { return options_; }

 private:
  // The client TLS context, built on first use. Thread-safe.
  absl::StatusOr<ClientTlsContext> Tls();

  boost::asio::io_context& ioc_;
  const Options options_;
  const std::optional<TlsConfig> tls_config_;  // set when the context is built lazily
  std::mutex mu_;
  std::optional<ClientTlsContext> tls_;  // guarded by mu_
};

}  // namespace connectd::rest
