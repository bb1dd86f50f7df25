#include "rest/rest_server.h"

#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <arpa/inet.h>

#include <condition_variable>

#include <boost/asio/ip/v6_only.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/strand.hpp>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "rest/server_state.h"
#include "rest/tls_context.h"
#include "runtime/common/logging.h"

namespace connectd::rest {
namespace internal {
namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

constexpr char kLogger[] = "connectd.rest.RestServer";
constexpr std::chrono::milliseconds kAcceptRetryDelay{100};

}  // namespace

// ---- AsioScheduler --------------------------------------------------------------------------

std::function<void()> AsioScheduler::RunAfter(std::chrono::milliseconds delay,
                                              std::function<void()> fn) {
  auto timer = std::make_shared<asio::steady_timer>(asio::make_strand(ioc_), delay);
  {
    std::lock_guard lock(mu_);
    if (stopped_) return [] {};
    // Drop entries of finished timers now and then.
    if (timers_.size() >= 64) {
      std::erase_if(timers_, [](const auto& weak) { return weak.expired(); });
    }
    timers_.push_back(timer);
  }
  timer->async_wait([timer, fn = std::move(fn)](const boost::system::error_code& ec) {
    if (!ec) fn();
  });
  std::weak_ptr<asio::steady_timer> weak = timer;
  return [weak] {
    if (auto t = weak.lock()) asio::post(t->get_executor(), [t] { t->cancel(); });
  };
}

void AsioScheduler::Post(std::function<void()> fn) { asio::post(ioc_, std::move(fn)); }

void AsioScheduler::CancelAll() {
  std::vector<std::weak_ptr<asio::steady_timer>> timers;
  {
    std::lock_guard lock(mu_);
    stopped_ = true;
    timers.swap(timers_);
  }
  for (const auto& weak : timers) {
    if (auto t = weak.lock()) asio::post(t->get_executor(), [t] { t->cancel(); });
  }
}

// ---- ServerState ----------------------------------------------------------------------------

namespace {

// Java's admin context: the REST extensions (Basic authentication) apply, CORS and the response
// header rules do not.
RestConfig AdminConfig(const RestConfig& config) {
  RestConfig admin = config;
  admin.allowed_origins.clear();
  admin.allowed_methods.clear();
  admin.response_headers.clear();
  return admin;
}

}  // namespace

ServerState::ServerState(asio::io_context& io, herder::Herder& herder, RestConfig rest_config,
                         RestServer::Options server_options)
    : ioc(io),
      config(std::move(rest_config)),
      options(std::move(server_options)),
      loggers(options.now_ms),
      scheduler(io),
      rest_client(options.rest_client ? options.rest_client
                                      : std::make_shared<RestClient>(io, config.tls)),
      dispatcher(herder, config, scheduler, loggers,
                 Dispatcher::Options{
                     options.health_check_timeout, nullptr, options.metrics, rest_client.get(),
                     options.mirror_herders.empty() ? nullptr : &options.mirror_herders,
                     options.flow_health, options.group_failover}),
      admin_config(AdminConfig(config)) {
  if (!config.admin_listeners.empty() && options.mirror_herders.empty()) {
    Dispatcher::Options admin;
    admin.health_check_timeout = options.health_check_timeout;
    admin.admin_only = true;
    admin_dispatcher =
        std::make_unique<Dispatcher>(herder, admin_config, scheduler, loggers, std::move(admin));
  }
}

void ServerState::Track(const std::shared_ptr<Session>& session) {
  std::lock_guard lock(mu_);
  if (sessions_.size() >= 64 && sessions_.size() % 64 == 0) {
    std::erase_if(sessions_, [](const auto& weak) { return weak.expired(); });
  }
  sessions_.push_back(session);
}

void ServerState::CloseAllSessions() {
  std::vector<std::weak_ptr<Session>> sessions;
  {
    std::lock_guard lock(mu_);
    sessions.swap(sessions_);
  }
  for (const auto& weak : sessions) {
    if (auto session = weak.lock()) session->Close();
  }
}

// ---- Listener -------------------------------------------------------------------------------

// One bound acceptor. Its async_accept runs on its own strand; `mu_` serializes that with
// Close(), which may come from any thread.
class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(std::shared_ptr<ServerState> state, ListenerSpec spec,
           std::shared_ptr<asio::ssl::context> tls, Dispatcher* dispatcher)
      : state_(std::move(state)),
        spec_(std::move(spec)),
        tls_(std::move(tls)),
        dispatcher_(dispatcher),
        strand_(asio::make_strand(state_->ioc)),
        acceptor_(strand_),
        retry_(strand_) {}

  absl::Status Bind() {
    boost::system::error_code ec;
    tcp::endpoint endpoint;
    if (spec_.host.empty()) {
      // All interfaces: IPv6 any accepting IPv4 too, else IPv4 any.
      endpoint = tcp::endpoint(tcp::v6(), static_cast<unsigned short>(spec_.port));
      acceptor_.open(endpoint.protocol(), ec);
      if (!ec) acceptor_.set_option(asio::ip::v6_only(false), ec);
      if (ec) {
        boost::system::error_code ignored;
        acceptor_.close(ignored);
        endpoint = tcp::endpoint(tcp::v4(), static_cast<unsigned short>(spec_.port));
        ec.clear();
        acceptor_.open(endpoint.protocol(), ec);
      }
    } else {
      tcp::resolver resolver(state_->ioc);
      auto results =
          resolver.resolve(spec_.host, std::to_string(spec_.port), tcp::resolver::passive, ec);
      if (ec || results.empty()) {
        return absl::UnavailableError(absl::StrCat("Unable to resolve REST listener host ",
                                                   spec_.host, " (", spec_.text,
                                                   "): ", ec ? ec.message() : "no address"));
      }
      endpoint = results.begin()->endpoint();
      acceptor_.open(endpoint.protocol(), ec);
    }
    if (!ec) acceptor_.set_option(asio::socket_base::reuse_address(true), ec);
    if (!ec) acceptor_.bind(endpoint, ec);
    if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
    if (!ec) port_ = acceptor_.local_endpoint(ec).port();
    if (ec) {
      boost::system::error_code ignored;
      acceptor_.close(ignored);
      return absl::UnavailableError(
          absl::StrCat("Unable to bind REST listener ", spec_.text, ": ", ec.message()));
    }
    return absl::OkStatus();
  }

  void StartAccepting() {
    asio::post(strand_, [self = shared_from_this()] { self->DoAccept(); });
  }

  void Close() {
    std::lock_guard lock(mu_);
    closed_ = true;
    boost::system::error_code ignored;
    acceptor_.close(ignored);
    retry_.cancel();
  }

  int port() const { return port_; }
  const ListenerSpec& spec() const { return spec_; }

 private:
  void DoAccept() {
    std::lock_guard lock(mu_);
    if (closed_) return;
    acceptor_.async_accept(
        asio::make_strand(state_->ioc),
        [self = shared_from_this()](const boost::system::error_code& ec, tcp::socket socket) {
          self->OnAccept(ec, std::move(socket));
        });
  }

  void OnAccept(const boost::system::error_code& ec, tcp::socket socket) {
    {
      std::lock_guard lock(mu_);
      if (closed_) return;
    }
    if (ec) {
      // EMFILE and friends: log and try again shortly instead of spinning.
      CONNECTD_LOG(kWarn, kLogger)
          << "Accepting a REST connection on " << spec_.text << " failed: " << ec.message();
      std::lock_guard lock(mu_);
      retry_.expires_after(kAcceptRetryDelay);
      retry_.async_wait([self = shared_from_this()](const boost::system::error_code& wait_ec) {
        if (!wait_ec) self->DoAccept();
      });
      return;
    }
    if (state_->stopping.load()) {
      boost::system::error_code ignored;
      socket.close(ignored);
      return;
    }
    if (state_->connections.load() >= state_->options.max_connections) {
      CONNECTD_LOG(kWarn, kLogger)
          << "Refusing a REST connection on " << spec_.text << ": "
          << state_->options.max_connections << " connections are open already";
      boost::system::error_code ignored;
      socket.close(ignored);
    } else {
      StartSession(std::move(socket), state_, spec_.scheme, tls_, dispatcher_);
    }
    DoAccept();
  }

  std::shared_ptr<ServerState> state_;
  const ListenerSpec spec_;
  std::shared_ptr<asio::ssl::context> tls_;
  Dispatcher* dispatcher_;  // state_'s
  asio::strand<asio::io_context::executor_type> strand_;
  std::mutex mu_;
  tcp::acceptor acceptor_;    // guarded by mu_ once accepting
  asio::steady_timer retry_;  // guarded by mu_
  bool closed_ = false;       // guarded by mu_
  int port_ = 0;
};

namespace {

// InetAddress.getLocalHost().getHostAddress(): this host's name resolved, IPv4 first.
std::string LocalHostAddress() {
  char name[256] = {};
  if (gethostname(name, sizeof(name) - 1) != 0) return "127.0.0.1";
  for (int family : {AF_INET, AF_INET6}) {
    addrinfo hints{};
    hints.ai_family = family;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* result = nullptr;
    if (getaddrinfo(name, nullptr, &hints, &result) != 0 || result == nullptr) continue;
    char text[INET6_ADDRSTRLEN] = {};
    const void* addr =
        family == AF_INET
            ? static_cast<const void*>(&reinterpret_cast<sockaddr_in*>(result->ai_addr)->sin_addr)
            : static_cast<const void*>(
                  &reinterpret_cast<sockaddr_in6*>(result->ai_addr)->sin6_addr);
    bool ok = inet_ntop(family, addr, text, sizeof(text)) != nullptr;
    freeaddrinfo(result);
    if (ok) return text;
  }
  return "127.0.0.1";
}

// java.net.URI renders an IPv6 literal host in brackets.
std::string UriHost(const std::string& host) {
  if (host.find(':') != std::string::npos && (host.empty() || host.front() != '[')) {
    return absl::StrCat("[", host, "]");
  }
  return host;
}

}  // namespace
}  // namespace internal

// ---- RestServer -----------------------------------------------------------------------------

RestServer::RestServer(boost::asio::io_context& ioc, herder::Herder& herder, RestConfig config)
    : RestServer(ioc, herder, std::move(config), Options()) {}

RestServer::RestServer(boost::asio::io_context& ioc, herder::Herder& herder, RestConfig config,
                       Options options)
    : state_(std::make_shared<internal::ServerState>(ioc, herder, std::move(config),
                                                     std::move(options))) {}

RestServer::~RestServer() { Stop(); }

absl::StatusOr<std::vector<BoundListener>> RestServer::Start() {
  if (started_) return absl::FailedPreconditionError("RestServer::Start() was called already");
  started_ = true;
  const RestConfig& config = state_->config;

  // The TLS context of a set of listeners, made once if any of them is https.
  auto tls_for = [](const std::vector<ListenerSpec>& specs, const TlsConfig& tls_config)
      -> absl::StatusOr<std::shared_ptr<boost::asio::ssl::context>> {
    for (const ListenerSpec& spec : specs) {
      if (spec.scheme == "https") return MakeServerTlsContext(tls_config);
    }
    return nullptr;
  };
  absl::StatusOr<std::shared_ptr<boost::asio::ssl::context>> tls =
      tls_for(config.listeners, config.tls);
  if (!tls.ok()) return tls.status();
  absl::StatusOr<std::shared_ptr<boost::asio::ssl::context>> admin_tls =
      tls_for(config.admin_listeners, config.admin_tls);
  if (!admin_tls.ok()) return admin_tls.status();

  std::vector<std::shared_ptr<internal::Listener>> listeners;
  std::vector<std::shared_ptr<internal::Listener>> admin_listeners;
  auto bind = [&](const ListenerSpec& spec, const std::shared_ptr<boost::asio::ssl::context>& ctx,
                  Dispatcher* dispatcher, auto& into) -> absl::Status {
    auto listener = std::make_shared<internal::Listener>(
        state_, spec, spec.scheme == "https" ? ctx : nullptr, dispatcher);
    if (absl::Status s = listener->Bind(); !s.ok()) {
      for (auto& bound : listeners) bound->Close();
      for (auto& bound : admin_listeners) bound->Close();
      return s;
    }
    into.push_back(std::move(listener));
    return absl::OkStatus();
  };
  for (const ListenerSpec& spec : config.listeners) {
    if (absl::Status s = bind(spec, *tls, &state_->dispatcher, listeners); !s.ok()) return s;
  }
  if (state_->admin_dispatcher) {
    for (const ListenerSpec& spec : config.admin_listeners) {
      if (absl::Status s = bind(spec, *admin_tls, state_->admin_dispatcher.get(), admin_listeners);
          !s.ok()) {
        return s;
      }
    }
  }

  listeners_ = std::move(listeners);
  bound_.clear();
  for (const auto& listener : listeners_) {
    bound_.push_back({listener->spec().scheme, listener->spec().host, listener->port()});
    CONNECTD_LOG(kInfo, "connectd.rest.RestServer")
        << "Added listener " << listener->spec().text << " (port " << listener->port() << ")";
    listener->StartAccepting();
  }
  admin_bound_.clear();
  for (const auto& listener : admin_listeners) {
    admin_bound_.push_back({listener->spec().scheme, listener->spec().host, listener->port()});
    CONNECTD_LOG(kInfo, "connectd.rest.RestServer")
        << "Added admin listener " << listener->spec().text << " (port " << listener->port()
        << "): /admin/* is served there only";
    listener->StartAccepting();
  }
  admin_listeners_ = std::move(admin_listeners);

  // RestServer.advertisedUrl(): the advertised protocol picks a listener; an advertised host or
  // port overrides it; Jetty's server URI (first listener, local address when its host is
  // empty) fills the rest.
  if (config.advertised_listener) {
    advertised_scheme_ = *config.advertised_listener;
  } else {
    std::string raw = absl::AsciiStrToLower(config.raw_listeners.value_or("http://:8083"));
    advertised_scheme_ = raw.find("http://") != std::string::npos    ? "http"
                         : raw.find("https://") != std::string::npos ? "https"
                                                                     : "http";
  }
  const internal::Listener* chosen = nullptr;
  for (const auto& listener : listeners_) {
    if (listener->spec().scheme == advertised_scheme_) {
      chosen = listener.get();
      break;
    }
  }
  const internal::Listener& first = *listeners_.front();
  advertised_host_ = first.spec().host;
  if (advertised_host_.empty()) {
    advertised_host_ = state_->options.local_host_address ? state_->options.local_host_address()
                                                          : internal::LocalHostAddress();
  }
  if (config.advertised_host_name && !config.advertised_host_name->empty()) {
    advertised_host_ = *config.advertised_host_name;
  } else if (chosen && !chosen->spec().host.empty()) {
    advertised_host_ = chosen->spec().host;
  }
  advertised_host_ = internal::UriHost(advertised_host_);
  advertised_port_ = first.port();
  if (config.advertised_port) {
    advertised_port_ = *config.advertised_port;
  } else if (chosen && chosen->spec().port > 0) {
    advertised_port_ = chosen->spec().port;
  } else if (chosen && chosen->port() > 0) {
    advertised_port_ = chosen->port();
  }
  CONNECTD_LOG(kInfo, "connectd.rest.RestServer")
      << "REST server listening; advertising URL " << AdvertisedUrl();
  return bound_;
}

void RestServer::Stop() {
  if (!state_) return;
  state_->stopping.store(true);
  for (const auto& listener : listeners_) listener->Close();
  for (const auto& listener : admin_listeners_) listener->Close();
  state_->CloseAllSessions();
  state_->scheduler.CancelAll();
}

std::string RestServer::AdvertisedUrl() const {
  return absl::StrCat(advertised_scheme_, "://", advertised_host_, ":", advertised_port_, "/");
}

std::string RestServer::WorkerId() const {
  return absl::StrCat(advertised_host_, ":", advertised_port_);
}

int RestServer::active_connections() const { return state_->connections.load(); }

}  // namespace connectd::rest
