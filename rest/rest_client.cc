#include "rest/rest_client.h"

#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <condition_variable>
#include <cstdint>
#include <type_traits>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "rest/json_entities.h"
#include "runtime/common/strings.h"
#include "runtime/herder_api/herder.h"

namespace connectd::rest {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using Strand = asio::strand<asio::io_context::executor_type>;

bool IsIpLiteral(const std::string& host) {
  boost::system::error_code ec;
  asio::ip::make_address(host, ec);
  return !ec;
}

// The Host header: host[:port], the port left out when it is the scheme's default.
std::string HostHeader(const ParsedUrl& url) {
  std::string host =
      url.host.find(':') != std::string::npos ? absl::StrCat("[", url.host, "]") : url.host;
  bool default_port = url.port == (url.https ? 443 : 80);
  return default_port ? host : absl::StrCat(host, ":", url.port);
}

http::request<http::string_body> BuildRequest(const HttpClientRequest& in, const ParsedUrl& url,
                                              const std::string& user_agent) {
  http::request<http::string_body> request;
  request.method_string(in.method);
  request.target(url.target);
  request.version(11);
  for (const auto& [name, value] : in.headers) request.insert(name, value);
  if (request.find(http::field::host) == request.end()) {
    request.set(http::field::host, HostHeader(url));
  }
  if (request.find(http::field::user_agent) == request.end() && !user_agent.empty()) {
    request.set(http::field::user_agent, user_agent);
  }
  bool has_body =
      !in.body.empty() || in.method == "POST" || in.method == "PUT" || in.method == "PATCH";
  if (has_body) {
    request.body() = in.body;
    request.prepare_payload();
  }
  request.keep_alive(false);  // one request per connection
  return request;
}

// One request on its own connection and strand; owns itself through the pending handlers.
template <bool kTls>
class Exchange : public std::enable_shared_from_this<Exchange<kTls>> {
 public:
  using Stream = std::conditional_t<kTls, beast::ssl_stream<beast::tcp_stream>, beast::tcp_stream>;

  Exchange(asio::io_context& ioc, ParsedUrl url, http::request<http::string_body> request,
           ClientTlsContext tls, const RestClient::Options& options,
           RestClient::ResponseCallback done)
      : strand_(asio::make_strand(ioc)),
        resolver_(strand_),
        tls_(std::move(tls)),
        stream_(MakeStream(strand_, tls_.context.get())),
        timer_(strand_),
        url_(std::move(url)),
        request_(std::move(request)),
        options_(options),
        done_(std::move(done)) {}

  void Start() {
    asio::dispatch(strand_, [self = this->shared_from_this()] { self->Resolve(); });
  }

 private:
  static Stream MakeStream(const Strand& strand, asio::ssl::context* tls) {
    if constexpr (kTls) {
      return Stream(strand, *tls);
    } else {
      (void)tls;
      return Stream(strand);
    }
  }

  beast::tcp_stream& Lowest() { return beast::get_lowest_layer(stream_); }

  // Arms the deadline of a phase: when it passes, pending operations are aborted and the
  // request fails with kDeadlineExceeded naming `phase`.
  void Arm(std::chrono::milliseconds timeout, const char* phase) {
    phase_ = phase;
    phase_timeout_ = timeout;
    uint64_t generation = ++phase_generation_;
    timer_.expires_after(timeout);
    timer_.async_wait([self = this->shared_from_this(), generation](boost::system::error_code ec) {
      if (ec || self->finished_ || generation != self->phase_generation_) return;
      self->timed_out_ = true;
      self->resolver_.cancel();
      boost::system::error_code ignored;
      self->Lowest().socket().close(ignored);
    });
  }

  std::string Where() const { return absl::StrCat(url_.host, ":", url_.port); }

  void Fail(const char* action, boost::system::error_code ec) {
    if (timed_out_) {
      Finish(absl::DeadlineExceededError(absl::StrCat("Timed out ", phase_, " ", Where(), " after ",
                                                      phase_timeout_.count(), " ms")));
      return;
    }
    Finish(absl::UnavailableError(absl::StrCat(action, " ", Where(), " failed: ", ec.message())));
  }

  void Resolve() {
    Arm(options_.connect_timeout, "connecting to");
    resolver_.async_resolve(
        url_.host, std::to_string(url_.port),
        [self = this->shared_from_this()](boost::system::error_code ec,
                                          const tcp::resolver::results_type& results) {
          if (ec) {
            self->Fail("Resolving", ec);
            return;
          }
          self->Connect(results);
        });
  }

  void Connect(const tcp::resolver::results_type& results) {
    Lowest().async_connect(results, [self = this->shared_from_this()](boost::system::error_code ec,
                                                                      const tcp::endpoint&) {
      if (ec) {
        self->Fail("Connecting to", ec);
        return;
      }
      self->Handshake();
    });
  }

  void Handshake() {
    if constexpr (kTls) {
      SSL* ssl = stream_.native_handle();
      bool ip = IsIpLiteral(url_.host);
      if (!ip) SSL_set_tlsext_host_name(ssl, url_.host.c_str());
      if (tls_.verify_host_name) {
        X509_VERIFY_PARAM* param = SSL_get0_param(ssl);
        int set = ip ? X509_VERIFY_PARAM_set1_ip_asc(param, url_.host.c_str())
                     : X509_VERIFY_PARAM_set1_host(param, url_.host.c_str(), 0);
        if (set != 1) {
          Finish(
              absl::UnavailableError(absl::StrCat("Cannot check the TLS host name ", url_.host)));
          return;
        }
      }
      stream_.async_handshake(asio::ssl::stream_base::client,
                              [self = this->shared_from_this()](boost::system::error_code ec) {
                                if (ec) {
                                  self->Fail("TLS handshake with", ec);
                                  return;
                                }
                                self->Write();
                              });
    } else {
      Write();
    }
  }

  void Write() {
    Arm(options_.request_timeout, "waiting for");
    http::async_write(stream_, request_,
                      [self = this->shared_from_this()](boost::system::error_code ec, std::size_t) {
                        if (ec) {
                          self->Fail("Sending the request to", ec);
                          return;
                        }
                        self->Read();
                      });
  }

  void Read() {
    parser_.body_limit(options_.max_response_body_bytes);
    if (request_.method() == http::verb::head) parser_.skip(true);
    http::async_read(stream_, buffer_, parser_,
                     [self = this->shared_from_this()](boost::system::error_code ec, std::size_t) {
                       if (ec) {
                         self->Fail("Reading the response from", ec);
                         return;
                       }
                       self->Done();
                     });
  }

  void Done() {
    auto& message = parser_.get();
    HttpClientResponse response;
    response.status = static_cast<int>(message.result_int());
    for (const auto& field : message) {
      response.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
    }
    response.body = std::move(message.body());
    Finish(std::move(response));
  }

  void Finish(absl::StatusOr<HttpClientResponse> result) {
    if (finished_) return;
    finished_ = true;
    timer_.cancel();
    boost::system::error_code ignored;
    Lowest().socket().shutdown(tcp::socket::shutdown_both, ignored);
    Lowest().socket().close(ignored);
    RestClient::ResponseCallback done = std::move(done_);
    done_ = nullptr;
    if (done) done(std::move(result));
  }

  Strand strand_;
  tcp::resolver resolver_;
  ClientTlsContext tls_;  // before stream_, which uses it
  Stream stream_;
  asio::steady_timer timer_;
  ParsedUrl url_;
  http::request<http::string_body> request_;
  const RestClient::Options options_;
  RestClient::ResponseCallback done_;
  beast::flat_buffer buffer_;
  http::response_parser<http::string_body> parser_;
  const char* phase_ = "";  // what the current deadline covers, for the timeout message
  std::chrono::milliseconds phase_timeout_{0};
  uint64_t phase_generation_ = 0;
  bool timed_out_ = false;
  bool finished_ = false;
};

}  // namespace

absl::StatusOr<ParsedUrl> ParseHttpUrl(std::string_view text) {
  auto invalid = [&](std::string_view why) {
    return absl::InvalidArgumentError(
        absl::StrCat("Invalid URL '", AsAbsl(text), "': ", AsAbsl(why)));
  };
  ParsedUrl url;
  size_t scheme_end = text.find("://");
  if (scheme_end == std::string_view::npos) return invalid("not an absolute http(s) URL");
  std::string scheme = absl::AsciiStrToLower(AsAbsl(text.substr(0, scheme_end)));
  if (scheme != "http" && scheme != "https") return invalid("the scheme must be http or https");
  url.https = scheme == "https";
  std::string_view rest = text.substr(scheme_end + 3);
  size_t authority_end = rest.find_first_of("/?#");
  std::string_view authority = rest.substr(0, authority_end);
  std::string_view target =
      authority_end == std::string_view::npos ? std::string_view() : rest.substr(authority_end);
  if (target.find('#') != std::string_view::npos) return invalid("fragments are not allowed");
  if (authority.find('@') != std::string_view::npos) return invalid("user info is not allowed");
  std::string_view port_text;
  if (!authority.empty() && authority.front() == '[') {
    size_t close = authority.find(']');
    if (close == std::string_view::npos) return invalid("unterminated IPv6 address");
    url.host = std::string(authority.substr(1, close - 1));
    std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return invalid("unexpected text after the IPv6 address");
      port_text = after.substr(1);
    }
  } else {
    size_t colon = authority.rfind(':');
    url.host = std::string(authority.substr(0, colon));
    if (colon != std::string_view::npos) port_text = authority.substr(colon + 1);
  }
  if (url.host.empty()) return invalid("no host");
  url.port = url.https ? 443 : 80;
  if (!port_text.empty()) {
    if (!absl::SimpleAtoi(AsAbsl(port_text), &url.port) || url.port <= 0 || url.port > 65535) {
      return invalid("bad port");
    }
  }
  url.target = target.empty() || target.front() == '?' ? absl::StrCat("/", AsAbsl(target))
                                                       : std::string(target);
  return url;
}

absl::Status ResponseAsStatus(const absl::StatusOr<HttpClientResponse>& response) {
  if (!response.ok()) {
    const absl::Status& error = response.status();
    std::string message =
        absl::IsFailedPrecondition(error)
            ? absl::StrCat("Failed to start RestClient: ", error.message())
            : absl::StrCat("IO Error trying to forward REST request: ", error.message());
    absl::StatusCode code =
        absl::IsFailedPrecondition(error) ? absl::StatusCode::kInternal : error.code();
    return herder::WithHttpStatus(absl::Status(code, message), 500);
  }
  int status = response->status;
  if (status >= 200 && status < 300) return absl::OkStatus();
  if (status < 400) {
    return herder::WithHttpStatus(
        absl::InternalError(
            absl::StrCat("Unexpected status code when handling forwarded request: ", status)),
        500);
  }
  absl::StatusOr<ErrorMessageBody> error = ParseErrorMessage(response->body);
  if (!error.ok()) {
    return herder::WithHttpStatus(
        absl::InternalError(
            absl::StrCat("IO Error trying to forward REST request: ", error.status().message())),
        500);
  }
  absl::StatusCode code = status == 400   ? absl::StatusCode::kInvalidArgument
                          : status == 403 ? absl::StatusCode::kPermissionDenied
                          : status == 404 ? absl::StatusCode::kNotFound
                          : status == 409 ? absl::StatusCode::kFailedPrecondition
                          : status == 503 ? absl::StatusCode::kUnavailable
                                          : absl::StatusCode::kInternal;
  return herder::WithHttpStatus(absl::Status(code, error->message.value_or("")), status);
}

RestClient::RestClient(asio::io_context& ioc, TlsConfig tls, Options options)
    : ioc_(ioc), options_(std::move(options)), tls_config_(std::move(tls)) {}

RestClient::RestClient(asio::io_context& ioc, ClientTlsContext tls, Options options)
    : ioc_(ioc), options_(std::move(options)), tls_(std::move(tls)) {}

RestClient::~RestClient() = default;

absl::StatusOr<ClientTlsContext> RestClient::Tls() {
  std::lock_guard lock(mu_);
  if (tls_) return *tls_;
  if (!tls_config_) return absl::FailedPreconditionError("No TLS settings for https requests");
  absl::StatusOr<ClientTlsContext> made = MakeClientTlsContext(*tls_config_);
  if (!made.ok()) return absl::FailedPreconditionError(made.status().message());
  tls_ = *made;
  return *made;
}

void RestClient::Send(HttpClientRequest request, ResponseCallback done) {
  auto fail = [this, &done](absl::Status status) {
    asio::post(ioc_, [done = std::move(done), status = std::move(status)] { done(status); });
  };
  absl::StatusOr<ParsedUrl> url = ParseHttpUrl(request.url);
  if (!url.ok()) {
    fail(url.status());
    return;
  }
  http::request<http::string_body> message = BuildRequest(request, *url, options_.user_agent);
  if (url->https) {
    absl::StatusOr<ClientTlsContext> tls = Tls();
    if (!tls.ok()) {
      fail(tls.status());
      return;
    }
    std::make_shared<Exchange<true>>(ioc_, std::move(*url), std::move(message), std::move(*tls),
                                     options_, std::move(done))
        ->Start();
  } else {
    std::make_shared<Exchange<false>>(ioc_, std::move(*url), std::move(message), ClientTlsContext{},
                                      options_, std::move(done))
        ->Start();
  }
}

absl::StatusOr<HttpClientResponse> RestClient::SendAndWait(HttpClientRequest request) {
  struct Waiter {
    std::mutex mu;
    std::condition_variable cv;
    std::optional<absl::StatusOr<HttpClientResponse>> result;  // guarded by mu
  };
  auto waiter = std::make_shared<Waiter>();
  Send(std::move(request), [waiter](absl::StatusOr<HttpClientResponse> result) {
    std::lock_guard lock(waiter->mu);
    waiter->result = std::move(result);
    waiter->cv.notify_all();
  });
  auto limit = options_.connect_timeout + options_.request_timeout + std::chrono::seconds(1);
  std::unique_lock lock(waiter->mu);
  if (!waiter->cv.wait_for(lock, limit, [&] { return waiter->result.has_value(); })) {
    return absl::DeadlineExceededError("The request did not complete in time");
  }
  return std::move(*waiter->result);
}

}  // namespace connectd::rest
