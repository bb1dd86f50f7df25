// HTTP/1.1 sessions: one per connection, plain or TLS, on its own strand.
//
// Flow: [TLS handshake] -> read header (header timeout on the first request, idle timeout on a
// kept-alive connection) -> [100 Continue] -> read body -> dispatch -> wait for the Responder
// (request timeout) -> write -> read the next request or close. One request at a time.
#include <array>
#include <chrono>
#include <ctime>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include "absl/strings/str_cat.h"
#include "rest/error_mapping.h"
#include "rest/server_state.h"
#include "runtime/common/logging.h"

namespace connectd::rest::internal {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

constexpr char kLogger[] = "connectd.rest.HttpSession";
constexpr char kRequestLogger[] = "connectd.rest.RestServer";
constexpr std::chrono::seconds kTlsShutdownTimeout{5};
// After a final response, unread request bytes are read and dropped for a while before the
// socket closes, so the client sees the response rather than a reset.
constexpr std::chrono::seconds kDrainTimeout{2};
constexpr std::size_t kMaxDrainBytes = 64 * 1024 * 1024;

// Jetty's request log time: [30/Nov/2026:10:00:00 +0000].
std::string RequestLogTime() {
  std::time_t now = std::time(nullptr);
  std::tm tm_utc;
  gmtime_r(&now, &tm_utc);
  char buffer[40];
  std::strftime(buffer, sizeof(buffer), "[%d/%b/%Y:%H:%M:%S +0000]", &tm_utc);
  return buffer;
}

std::string OrDash(std::string_view value) { return value.empty() ? "-" : std::string(value); }

const boost::system::error_category& HttpErrorCategory() {
  static const boost::system::error_category& category =
      http::make_error_code(http::error::bad_target).category();
  return category;
}

template <bool kTls>
class HttpSession : public Session, public std::enable_shared_from_this<HttpSession<kTls>> {
 public:
  using Stream = std::conditional_t<kTls, beast::ssl_stream<beast::tcp_stream>, beast::tcp_stream>;

  HttpSession(tcp::socket&& socket, std::shared_ptr<ServerState> state, std::string scheme,
              std::shared_ptr<asio::ssl::context> tls, Dispatcher* dispatcher)
      : tls_(std::move(tls)),
        stream_(MakeStream(std::move(socket), tls_.get())),
        request_timer_(stream_.get_executor()),
        state_(std::move(state)),
        dispatcher_(dispatcher),
        scheme_(std::move(scheme)) {
    state_->connections.fetch_add(1);
    beast::error_code ec;
    tcp::endpoint remote = beast::get_lowest_layer(stream_).socket().remote_endpoint(ec);
    if (!ec) remote_address_ = remote.address().to_string();
    tcp::endpoint local = beast::get_lowest_layer(stream_).socket().local_endpoint(ec);
    if (!ec) {
      std::string address = local.address().to_string();
      if (local.address().is_v6()) address = absl::StrCat("[", address, "]");
      local_authority_ = absl::StrCat(address, ":", local.port());
    }
  }

  ~HttpSession() override { state_->connections.fetch_sub(1); }

  void Run() {
    asio::dispatch(stream_.get_executor(), [self = this->shared_from_this()] { self->Begin(); });
  }

  void Close() override {
    asio::post(stream_.get_executor(), [self = this->shared_from_this()] { self->DoClose(); });
  }

 private:
  static Stream MakeStream(tcp::socket&& socket, asio::ssl::context* tls) {
    if constexpr (kTls) {
      return Stream(std::move(socket), *tls);
    } else {
      (void)tls;
      return Stream(std::move(socket));
    }
  }

  beast::tcp_stream& Lowest() { return beast::get_lowest_layer(stream_); }
  const RestServer::Options& options() const { return state_->options; }

  void Begin() {
    if (closed_) return;
    if constexpr (kTls) {
      Lowest().expires_after(options().header_read_timeout);
      stream_.async_handshake(
          asio::ssl::stream_base::server, [self = this->shared_from_this()](beast::error_code ec) {
            if (self->closed_) return;
            if (ec) {
              CONNECTD_LOG(kDebug, kLogger) << "TLS handshake failed: " << ec.message();
              self->DoClose();
              return;
            }
            self->DoRead();
          });
    } else {
      DoRead();
    }
  }

  void DoRead() {
    if (closed_) return;
    parser_.emplace();
    parser_->body_limit(options().max_body_bytes);
    parser_->header_limit(static_cast<std::uint32_t>(options().max_header_bytes));
    Lowest().expires_after(first_request_ ? options().header_read_timeout : options().idle_timeout);
    http::async_read_header(stream_, buffer_, *parser_,
                            [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
                              self->OnHeader(ec);
                            });
  }

  void OnHeader(beast::error_code ec) {
    if (closed_) return;
    if (ec) {
      HandleReadError(ec);
      return;
    }
    first_request_ = false;
    auto& request = parser_->get();
    if (beast::iequals(request[http::field::expect], "100-continue") && !parser_->is_done()) {
      auto go_on = std::make_shared<http::response<http::empty_body>>(http::status::continue_,
                                                                      request.version());
      Lowest().expires_after(options().header_read_timeout);
      http::async_write(
          stream_, *go_on,
          [self = this->shared_from_this(), go_on](beast::error_code ec2, std::size_t) {
            if (self->closed_) return;
            if (ec2) {
              self->DoClose();
              return;
            }
            self->ReadBody();
          });
      return;
    }
    ReadBody();
  }

  void ReadBody() {
    if (parser_->is_done()) {
      OnRequest();
      return;
    }
    Lowest().expires_after(options().header_read_timeout);
    http::async_read(stream_, buffer_, *parser_,
                     [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
                       if (self->closed_) return;
                       if (ec) {
                         self->HandleReadError(ec);
                         return;
                       }
                       self->OnRequest();
                     });
  }

  void HandleReadError(beast::error_code ec) {
    if (ec == http::error::body_limit) {
      SendTransportError(413, absl::StrCat("Request body is larger than the limit of ",
                                           options().max_body_bytes, " bytes"));
    } else if (ec == http::error::header_limit) {
      SendTransportError(431, "Request header fields too large");
    } else if (ec.category() == HttpErrorCategory() && ec != http::error::end_of_stream &&
               ec != http::error::partial_message) {
      SendTransportError(400, absl::StrCat("Bad request: ", ec.message()));
    } else {
      // End of stream, timeout, reset: nothing to answer.
      DoClose();
    }
  }

  void SendTransportError(int status, std::string message) {
    keep_alive_ = false;
    head_ = false;
    request_line_ = "-";
    user_agent_.clear();
    referer_.clear();
    started_ = std::chrono::steady_clock::now();
    ++generation_;
    WriteResponse(dispatcher_->Finalize(ErrorResponse(status, message)));
  }

  static std::optional<std::string> Field(const http::request<http::string_body>& request,
                                          http::field field) {
    auto it = request.find(field);
    if (it == request.end()) return std::nullopt;
    return std::string(it->value());
  }

  void OnRequest() {
    http::request<http::string_body> request = parser_->release();
    keep_alive_ = request.keep_alive();
    version_ = request.version();
    head_ = request.method() == http::verb::head;
    Lowest().expires_never();

    IncomingRequest in;
    in.method = std::string(request.method_string());
    in.target = std::string(request.target());
    std::string host(request[http::field::host]);
    in.base_url = absl::StrCat(scheme_, "://", host.empty() ? local_authority_ : host);
    in.content_type = Field(request, http::field::content_type);
    in.accept = Field(request, http::field::accept);
    in.origin = Field(request, http::field::origin);
    in.access_control_request_method = Field(request, http::field::access_control_request_method);
    in.access_control_request_headers = Field(request, http::field::access_control_request_headers);
    for (const auto& field : request) {
      in.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
    }
    in.body = std::move(request.body());
    request_line_ =
        absl::StrCat(in.method, " ", in.target, " HTTP/", version_ / 10, ".", version_ % 10);
    user_agent_ = std::string(request[http::field::user_agent]);
    referer_ = std::string(request[http::field::referer]);
    started_ = std::chrono::steady_clock::now();

    uint64_t generation = ++generation_;
    auto self = this->shared_from_this();
    Responder respond =
        dispatcher_->Dispatch(std::move(in), [self, generation](RestResponse response) {
          // Any thread: hop back onto the session's strand.
          asio::post(self->stream_.get_executor(),
                     [self, generation, response = std::move(response)]() mutable {
                       self->OnResponse(generation, std::move(response));
                     });
        });
    if (!respond.done()) {
      request_timer_.expires_after(options().request_timeout);
      request_timer_.async_wait([respond](beast::error_code ec) {
        if (!ec) respond(ErrorResponse(500, "Request timed out"));
      });
    }
  }

  void OnResponse(uint64_t generation, RestResponse response) {
    if (closed_ || generation != generation_) return;
    request_timer_.cancel();
    WriteResponse(std::move(response));
  }

  // One line per request, in Connect's (Jetty's extended NCSA) request log format.
  void LogRequest(int status, std::size_t bytes) {
    if (!log::IsEnabled(log::Level::kInfo, kRequestLogger)) return;
    auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - started_);
    CONNECTD_LOG(kInfo, kRequestLogger)
        << OrDash(remote_address_) << " - - " << RequestLogTime() << " \"" << request_line_ << "\" "
        << status << " " << bytes << " \"" << OrDash(referer_) << "\" \"" << OrDash(user_agent_)
        << "\" " << elapsed.count();
  }

  void WriteResponse(RestResponse response) {
    LogRequest(response.status, response.body.size());
    auto message = std::make_shared<http::response<http::string_body>>();
    message->version(version_);
    message->result(static_cast<unsigned>(response.status));
    for (auto& [name, value] : response.headers) message->insert(name, value);
    bool keep_alive = keep_alive_ && !state_->stopping.load();
    message->keep_alive(keep_alive);
    bool no_body = response.status == 204 || response.status == 304 || response.status < 200;
    if (head_ || no_body) {
      if (!no_body) message->content_length(response.body.size());
    } else {
      message->body() = std::move(response.body);
      message->prepare_payload();
    }
    Lowest().expires_after(options().header_read_timeout);
    http::async_write(
        stream_, *message,
        [self = this->shared_from_this(), message, keep_alive](beast::error_code ec, std::size_t) {
          if (self->closed_) return;
          if (ec) {
            self->DoClose();
          } else if (!keep_alive) {
            self->DoShutdown();
          } else {
            self->DoRead();
          }
        });
  }

  void DoShutdown() {
    if constexpr (kTls) {
      Lowest().expires_after(kTlsShutdownTimeout);
      stream_.async_shutdown(
          [self = this->shared_from_this()](beast::error_code) { self->DoClose(); });
    } else {
      beast::error_code ec;
      Lowest().socket().shutdown(tcp::socket::shutdown_send, ec);
      if (ec) {
        DoClose();
        return;
      }
      Lowest().expires_after(kDrainTimeout);
      Drain();
    }
  }

  void Drain() {
    Lowest().async_read_some(asio::buffer(drain_buffer_), [self = this->shared_from_this()](
                                                              beast::error_code ec, std::size_t n) {
      if (self->closed_) return;
      self->drained_ += n;
      if (ec || self->drained_ > kMaxDrainBytes) {
        self->DoClose();
      } else {
        self->Drain();
      }
    });
  }

  void DoClose() {
    if (closed_) return;
    closed_ = true;
    request_timer_.cancel();
    beast::error_code ec;
    Lowest().socket().shutdown(tcp::socket::shutdown_both, ec);
    Lowest().close();
  }

  std::shared_ptr<asio::ssl::context> tls_;  // before stream_, which uses it
  Stream stream_;
  asio::steady_timer request_timer_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::shared_ptr<ServerState> state_;
  Dispatcher* dispatcher_;  // state_'s main or admin dispatcher, as the listener's
  std::string scheme_;
  std::string local_authority_;
  std::string remote_address_;
  // For the request log line.
  std::string request_line_ = "-";
  std::string user_agent_;
  std::string referer_;
  std::chrono::steady_clock::time_point started_;
  bool closed_ = false;
  bool first_request_ = true;
  bool keep_alive_ = false;
  bool head_ = false;
  unsigned version_ = 11;
  uint64_t generation_ = 0;
  std::array<char, 16 * 1024> drain_buffer_;
  std::size_t drained_ = 0;
};

}  // namespace

void StartSession(tcp::socket socket, std::shared_ptr<ServerState> state, std::string scheme,
                  std::shared_ptr<asio::ssl::context> tls, Dispatcher* dispatcher) {
  if (tls) {
    auto session = std::make_shared<HttpSession<true>>(std::move(socket), state, std::move(scheme),
                                                       std::move(tls), dispatcher);
    state->Track(session);
    session->Run();
  } else {
    auto session = std::make_shared<HttpSession<false>>(std::move(socket), state, std::move(scheme),
                                                        nullptr, dispatcher);
    state->Track(session);
    session->Run();
  }
}

}  // namespace connectd::rest::internal
