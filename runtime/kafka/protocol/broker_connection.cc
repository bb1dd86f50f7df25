#include "runtime/kafka/protocol/broker_connection.h"

#include <algorithm>
#include <random>

#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <boost/asio/bind_executor.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>

#include "runtime/kafka/protocol/sasl.h"

namespace connectd::kafka::protocol {

namespace asio = boost::asio;

// One SASL mechanism's client side: the first token, then one token per server answer until
// done (nullopt).
class SaslExchange {
 public:
  virtual ~SaslExchange() = default;
  virtual std::string Initial() = 0;
  virtual absl::StatusOr<std::optional<std::string>> Next(const std::string& server) = 0;
};

namespace {

constexpr size_t kMaxResponseBytes = 100 * 1024 * 1024;

class PlainExchange : public SaslExchange {
 public:
  PlainExchange(std::string user, std::string password)
      : user_(std::move(user)), password_(std::move(password)) {}
  std::string Initial() override { return PlainInitialResponse(user_, password_); }
  absl::StatusOr<std::optional<std::string>> Next(const std::string&) override {
    return std::optional<std::string>();
  }

 private:
  std::string user_, password_;
};

class ScramExchange : public SaslExchange {
 public:
  explicit ScramExchange(ScramClient client) : client_(std::move(client)) {}
  std::string Initial() override { return client_.ClientFirstMessage(); }
  absl::StatusOr<std::optional<std::string>> Next(const std::string& server) override {
    if (++round_ == 1) {
      absl::StatusOr<std::string> final_message = client_.ClientFinalMessage(server);
      if (!final_message.ok()) return final_message.status();
      return std::optional<std::string>(*std::move(final_message));
    }
    absl::Status verified = client_.VerifyServerFinal(server);
    if (!verified.ok()) return verified;
    return std::optional<std::string>();
  }

 private:
  ScramClient client_;
  int round_ = 0;
};

// RFC 7628: the token in the first message; a broker that refuses it answers with an error
// document, to which the client sends a lone 0x01 and the broker then fails the exchange.
class OAuthBearerExchange : public SaslExchange {
 public:
  explicit OAuthBearerExchange(std::string initial) : initial_(std::move(initial)) {}
  std::string Initial() override { return initial_; }
  absl::StatusOr<std::optional<std::string>> Next(const std::string& server) override {
    if (server.empty()) return std::optional<std::string>();
    return std::optional<std::string>(std::string(1, '\x01'));
  }

 private:
  std::string initial_;
};

// RFC 4752 through a GssapiContext: its tokens until the context is established, then the
// security layer answer.
class GssapiExchange : public SaslExchange {
 public:
  explicit GssapiExchange(std::unique_ptr<GssapiContext> context) : context_(std::move(context)) {}
  std::string Initial() override { return context_->first_token(); }
  absl::StatusOr<std::optional<std::string>> Next(const std::string& server) override {
    return context_->Next(server);
  }

 private:
  std::unique_ptr<GssapiContext> context_;
};

absl::Status LoadPem(asio::ssl::context& ctx, const std::map<std::string, std::string>& p,
                     const std::string& file_key, const std::string& pem_key, bool ca) {
  boost::system::error_code ec;
  auto file = p.find(file_key);
  auto pem = p.find(pem_key);
  if (file != p.end() && !file->second.empty()) {
    if (ca) {
      ctx.load_verify_file(file->second, ec);
    } else if (file_key == "ssl.certificate.location") {
      ctx.use_certificate_chain_file(file->second, ec);
    } else {
      ctx.use_private_key_file(file->second, asio::ssl::context::pem, ec);
    }
    if (ec) return absl::InvalidArgumentError(file_key + "=" + file->second + ": " + ec.message());
  } else if (pem != p.end() && !pem->second.empty()) {
    asio::const_buffer buffer(pem->second.data(), pem->second.size());
    if (ca) {
      ctx.add_certificate_authority(buffer, ec);
    } else if (pem_key == "ssl.certificate.pem") {
      ctx.use_certificate_chain(buffer, ec);
    } else {
      ctx.use_private_key(buffer, asio::ssl::context::pem, ec);
    }
    if (ec) return absl::InvalidArgumentError(pem_key + ": " + ec.message());
  } else if (ca) {
    ctx.set_default_verify_paths(ec);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<SecurityConfig> SecurityConfig::FromProperties(
    const std::map<std::string, std::string>& p) {
  auto get = [&p](const std::string& key, std::string fallback = "") {
    auto it = p.find(key);
    return it == p.end() ? fallback : it->second;
  };
  SecurityConfig config;
  config.protocol = get("security.protocol", "PLAINTEXT");
  for (char& c : config.protocol)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (config.protocol != "PLAINTEXT" && config.protocol != "SSL" &&
      config.protocol != "SASL_PLAINTEXT" && config.protocol != "SASL_SSL") {
    return absl::InvalidArgumentError("security.protocol=" + config.protocol +
                                      " is not one of PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL");
  }
  if (config.uses_sasl()) {
    config.sasl_mechanism = get("sasl.mechanisms", "GSSAPI");
    if (config.sasl_mechanism == "OAUTHBEARER") {
      absl::StatusOr<std::shared_ptr<OAuthBearerTokenSource>> source =
          OAuthBearerTokenSource::FromProperties(p);
      if (!source.ok()) return source.status();
      config.oauthbearer = *std::move(source);
    } else if (config.sasl_mechanism == "GSSAPI") {
      absl::StatusOr<std::shared_ptr<KerberosClient>> kerberos = KerberosClient::FromProperties(p);
      if (!kerberos.ok()) return kerberos.status();
      config.kerberos = *std::move(kerberos);
    } else if (config.sasl_mechanism != "PLAIN" &&
               !ScramClient::HashOf(config.sasl_mechanism).ok()) {
      return absl::InvalidArgumentError("sasl.mechanism=" + config.sasl_mechanism +
                                        " is not supported by connectd's group client: use PLAIN, "
                                        "SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER or GSSAPI");
    }
    config.sasl_username = get("sasl.username");
    config.sasl_password = get("sasl.password");
  }
  if (config.uses_tls()) {
    auto ctx = std::make_shared<asio::ssl::context>(asio::ssl::context::tls_client);
    ctx->set_verify_mode(asio::ssl::verify_peer);
    absl::Status loaded = LoadPem(*ctx, p, "ssl.ca.location", "ssl.ca.pem", true);
    if (loaded.ok())
      loaded = LoadPem(*ctx, p, "ssl.certificate.location", "ssl.certificate.pem", false);
    if (loaded.ok()) {
      if (!get("ssl.key.password").empty()) {
        std::string password = get("ssl.key.password");
        ctx->set_password_callback(
            [password](size_t, asio::ssl::context::password_purpose) { return password; });
      }
      loaded = LoadPem(*ctx, p, "ssl.key.location", "ssl.key.pem", false);
    }
    if (!loaded.ok()) return loaded;
    if (!get("ssl.keystore.location").empty()) {
      return absl::InvalidArgumentError(
          "ssl.keystore.location (PKCS12) is not supported by connectd's group client yet: use "
          "ssl.keystore.type=PEM");
    }
    config.tls = std::move(ctx);
    config.verify_hostname = get("ssl.endpoint.identification.algorithm", "https") == "https";
  }
  return config;
}

std::shared_ptr<BrokerConnection> BrokerConnection::Create(asio::io_context& io, Options options) {
  return Create(asio::make_strand(io), std::move(options));
}

std::shared_ptr<BrokerConnection> BrokerConnection::Create(Strand strand, Options options) {
  return std::shared_ptr<BrokerConnection>(new BrokerConnection(strand, std::move(options)));
}

BrokerConnection::BrokerConnection(Strand strand, Options options)
    : strand_(std::move(strand)),
      resolver_(strand_),
      socket_(strand_),
      timeout_timer_(strand_),
      reauth_timer_(strand_),
      options_(std::move(options)) {}

BrokerConnection::~BrokerConnection() = default;

template <typename Fn>
void BrokerConnection::Post(Fn fn) {
  asio::post(strand_, [self = shared_from_this(), fn = std::move(fn)]() mutable { fn(); });
}

std::optional<int16_t> BrokerConnection::VersionOf(ApiKey key) const {
  auto it = versions_.find(static_cast<int16_t>(key));
  if (it == versions_.end()) return std::nullopt;
  return it->second;
}

void BrokerConnection::Connect(std::function<void(absl::Status)> done) {
  Post([this, done = std::move(done)]() mutable {
    auto self = shared_from_this();
    resolver_.async_resolve(
        options_.host, std::to_string(options_.port),
        asio::bind_executor(strand_, [this, self, done = std::move(done)](
                                         boost::system::error_code ec,
                                         asio::ip::tcp::resolver::results_type results) mutable {
          if (ec) {
            absl::Status status =
                absl::UnavailableError("cannot resolve " + options_.host + ": " + ec.message());
            Fail(status);
            return done(status);
          }
          asio::async_connect(
              socket_, results,
              asio::bind_executor(strand_, [this, self, done = std::move(done)](
                                               boost::system::error_code ec,
                                               const asio::ip::tcp::endpoint&) mutable {
                if (ec) {
                  absl::Status status =
                      absl::UnavailableError("cannot connect to " + options_.host + ":" +
                                             std::to_string(options_.port) + ": " + ec.message());
                  Fail(status);
                  return done(status);
                }
                socket_.set_option(asio::ip::tcp::no_delay(true));
                OnConnected(std::move(done));
              }));
        }));
  });
}

void BrokerConnection::OnConnected(std::function<void(absl::Status)> done) {
  auto self = shared_from_this();
  // Any failure of the set-up closes the connection before `done` hears of it.
  auto finish = [this, self, done = std::move(done)](absl::Status status) {
    if (!status.ok()) Fail(status);
    done(status);
  };
  auto negotiate = [this, self, finish]() {
    ReadHeader();
    NegotiateVersions([this, self, finish](absl::Status status) {
      if (!status.ok() || !options_.security.uses_sasl()) return finish(status);
      Authenticate(finish);
    });
  };
  if (!options_.security.uses_tls()) return negotiate();
  tls_ = std::make_unique<TlsStream>(socket_, *options_.security.tls);
  SSL* ssl = tls_->native_handle();
  boost::system::error_code not_an_ip;
  asio::ip::make_address(options_.host, not_an_ip);
  if (not_an_ip) SSL_set_tlsext_host_name(ssl, options_.host.c_str());  // SNI takes names only
  if (options_.security.verify_hostname) {
    // OpenSSL checks the name while it verifies the chain (an IP address against the
    // certificate's IP SANs, a host name against its DNS SANs, as Java's HTTPS endpoint
    // identification does), so a mismatch is reported as one.
    int set = not_an_ip ? SSL_set1_host(ssl, options_.host.c_str())
                        : X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), options_.host.c_str());
    if (set != 1) {
      return finish(
          absl::InternalError("cannot set up hostname verification for " + options_.host));
    }
  }
  tls_->async_handshake(
      asio::ssl::stream_base::client,
      asio::bind_executor(strand_, [this, self, negotiate, finish](boost::system::error_code ec) {
        if (ec) return finish(TlsHandshakeError(ec));
        negotiate();
      }));
}

absl::Status BrokerConnection::TlsHandshakeError(const boost::system::error_code& ec) const {
  std::string message = "TLS handshake with " + options_.host + ":" +
                        std::to_string(options_.port) + " failed: " + ec.message();
  // A connection that broke off is a network failure, worth retrying as is.
  if (ec.category() != asio::error::get_ssl_category()) return absl::UnavailableError(message);
  // The peer's certificate or TLS settings were refused: as Java's clients (an
  // SslAuthenticationException) connectd reports it as an authentication failure.
  long verify = SSL_get_verify_result(tls_->native_handle());
  if (verify != X509_V_OK) {
    message += std::string(" (") + X509_verify_cert_error_string(verify) + ")";
  }
  return absl::UnauthenticatedError(message);
}

void BrokerConnection::NegotiateVersions(std::function<void(absl::Status)> done) {
  NegotiateVersions(SupportedVersions(ApiKey::kApiVersions).max, std::move(done));
}

void BrokerConnection::NegotiateVersions(int16_t version, std::function<void(absl::Status)> done) {
  ApiVersionsRequest request;
  request.client_software_version = CONNECTD_VERSION_STRING;
  SendVersion(
      ApiKey::kApiVersions, version, request.Encode(version),
      [this, done = std::move(done)](absl::StatusOr<std::string> body, int16_t v) mutable {
        if (!body.ok()) return done(body.status());
        absl::StatusOr<ApiVersionsResponse> response = ApiVersionsResponse::Decode(*body, v);
        if (v > 0 && (!response.ok() || response->error_code == Error::kUnsupportedVersion)) {
          // A broker that does not know version v answers (Kafka: in version 0) listing, if
          // anything, the versions of ApiVersions it knows: ask again in the highest of them, or
          // in version 0, as Java's NetworkClient does.
          absl::StatusOr<ApiVersionsResponse> v0 = ApiVersionsResponse::Decode(*body, 0);
          const ApiVersionsResponse* refused = nullptr;
          if (v0.ok() && v0->error_code == Error::kUnsupportedVersion) {
            refused = &*v0;
          } else if (response.ok()) {
            refused = &*response;
          }
          if (refused != nullptr) {
            int16_t retry = 0;
            for (const ApiVersionsResponse::Api& api : refused->apis) {
              if (api.key == static_cast<int16_t>(ApiKey::kApiVersions)) retry = api.max_version;
            }
            return NegotiateVersions(std::clamp<int16_t>(retry, 0, v - 1), std::move(done));
          }
        }
        if (!response.ok()) return done(response.status());
        if (response->error_code != Error::kNone) {
          return done(absl::FailedPreconditionError("ApiVersions v" + std::to_string(v) +
                                                    " failed: " + ErrorName(response->error_code)));
        }
        for (const ApiVersionsResponse::Api& api : response->apis) {
          ApiRange ours = SupportedVersions(static_cast<ApiKey>(api.key));  // empty if unknown
          int16_t best = std::min(ours.max, api.max_version);
          if (best >= std::max(ours.min, api.min_version)) versions_[api.key] = best;
        }
        done(absl::OkStatus());
      });
}

void BrokerConnection::Authenticate(std::function<void(absl::Status)> done) {
  const SecurityConfig& security = options_.security;
  if (security.sasl_mechanism == "OAUTHBEARER") {
    // The token may come from the token endpoint, on the source's thread: back to the strand.
    auto self = shared_from_this();
    security.oauthbearer->Get(
        [this, self, done = std::move(done)](absl::StatusOr<OAuthBearerToken> token) mutable {
          Post([this, token = std::move(token), done = std::move(done)]() mutable {
            if (closed_) return done(close_reason_);
            if (!token.ok()) {
              return done(absl::Status(
                  token.status().code(),
                  "cannot get an OAUTHBEARER token: " + std::string(token.status().message())));
            }
            Handshake(std::make_shared<OAuthBearerExchange>(OAuthBearerInitialResponse(
                          token->value, options_.security.oauthbearer->extensions())),
                      std::move(done));
          });
        });
    return;
  }
  if (security.sasl_mechanism == "GSSAPI") {
    // The first step asks the KDC for the broker's service ticket, on the client's thread.
    auto self = shared_from_this();
    security.kerberos->Begin(
        options_.host, [this, self, done = std::move(done)](
                           absl::StatusOr<std::unique_ptr<GssapiContext>> context) mutable {
          Post([this, context = std::make_shared<decltype(context)>(std::move(context)),
                done = std::move(done)]() mutable {
            if (closed_) return done(close_reason_);
            if (!context->ok()) return done(context->status());
            Handshake(std::make_shared<GssapiExchange>(*std::move(*context)), std::move(done));
          });
        });
    return;
  }
  if (security.sasl_mechanism == "PLAIN") {
    return Handshake(
        std::make_shared<PlainExchange>(security.sasl_username, security.sasl_password),
        std::move(done));
  }
  Handshake(
      std::make_shared<ScramExchange>(ScramClient(*ScramClient::HashOf(security.sasl_mechanism),
                                                  security.sasl_username, security.sasl_password)),
      std::move(done));
}

void BrokerConnection::Handshake(std::shared_ptr<SaslExchange> exchange,
                                 std::function<void(absl::Status)> done) {
  SaslHandshakeRequest handshake{options_.security.sasl_mechanism};
  SendVersion(ApiKey::kSaslHandshake, 1, handshake.Encode(1),
              [this, exchange, done = std::move(done)](absl::StatusOr<std::string> body,
                                                       int16_t v) mutable {
                if (!body.ok()) return done(body.status());
                absl::StatusOr<SaslHandshakeResponse> response =
                    SaslHandshakeResponse::Decode(*body, v);
                if (!response.ok()) return done(response.status());
                if (response->error_code != Error::kNone) {
                  std::string offered;
                  for (const std::string& m : response->mechanisms) {
                    offered += (offered.empty() ? "" : ", ") + m;
                  }
                  return done(absl::UnauthenticatedError(
                      "the broker refused SASL mechanism " + options_.security.sasl_mechanism +
                      " (" + ErrorName(response->error_code) + "); it offers: " + offered));
                }
                SaslRounds(exchange, exchange->Initial(), std::move(done));
              });
}

void BrokerConnection::SaslRounds(std::shared_ptr<SaslExchange> exchange, std::string token,
                                  std::function<void(absl::Status)> done) {
  std::optional<int16_t> version = VersionOf(ApiKey::kSaslAuthenticate);
  if (!version) {
    return done(absl::UnimplementedError("the broker does not support SaslAuthenticate"));
  }
  SaslAuthenticateRequest request{std::move(token)};
  SendVersion(ApiKey::kSaslAuthenticate, *version, request.Encode(*version),
              [this, exchange, done = std::move(done)](absl::StatusOr<std::string> body,
                                                       int16_t v) mutable {
                if (!body.ok()) return done(body.status());
                absl::StatusOr<SaslAuthenticateResponse> response =
                    SaslAuthenticateResponse::Decode(*body, v);
                if (!response.ok()) return done(response.status());
                if (response->error_code != Error::kNone) {
                  return done(absl::UnauthenticatedError(
                      "SASL authentication failed: " +
                      response->error_message.value_or(ErrorName(response->error_code))));
                }
                absl::StatusOr<std::optional<std::string>> next =
                    exchange->Next(response->auth_bytes);
                if (!next.ok()) return done(next.status());
                if (!*next) {
                  ScheduleReauthentication(response->session_lifetime_ms);
                  return done(absl::OkStatus());
                }
                SaslRounds(exchange, **next, std::move(done));
              });
}

void BrokerConnection::ScheduleReauthentication(int64_t session_lifetime_ms) {
  if (session_lifetime_ms <= 0) return;
  static thread_local std::mt19937 random{std::random_device{}()};
  const double share = std::uniform_real_distribution<double>(0.85, 0.95)(random);
  reauth_timer_.expires_after(
      std::chrono::milliseconds(static_cast<int64_t>(session_lifetime_ms * share)));
  auto self = shared_from_this();
  reauth_timer_.async_wait(asio::bind_executor(strand_, [this, self](boost::system::error_code ec) {
    if (ec || closed_) return;
    Reauthenticate();
  }));
}

void BrokerConnection::Reauthenticate() {
  reauthenticating_ = true;
  Authenticate([this, self = shared_from_this()](absl::Status status) {
    reauthenticating_ = false;
    if (!status.ok()) {
      return Fail(absl::Status(status.code(), "re-authentication to " + options_.host + ":" +
                                                  std::to_string(options_.port) +
                                                  " failed: " + std::string(status.message())));
    }
    std::deque<Held> held;
    held.swap(held_);
    for (Held& h : held) SendGathered(h.key, std::move(h.encode), std::move(h.done));
  });
}

namespace {
// A RawCallback as a FrameCallback: the body copied out of the frame.
BrokerConnection::FrameCallback CopyingBody(BrokerConnection::RawCallback done) {
  return [done = std::move(done)](absl::StatusOr<BrokerConnection::ResponseFrame> frame,
                                  int16_t version) {
    if (!frame.ok()) return done(frame.status(), version);
    done(std::string(frame->body()), version);
  };
}
}  // namespace

void BrokerConnection::Send(ApiKey key, std::function<std::string(int16_t)> encode,
                            RawCallback done) {
  SendGathered(
      key, [encode = std::move(encode)](int16_t v) { return GatheredBody(encode(v)); },
      CopyingBody(std::move(done)));
}

void BrokerConnection::SendGathered(ApiKey key, std::function<GatheredBody(int16_t)> encode,
                                    FrameCallback done) {
  Post([this, key, encode = std::move(encode), done = std::move(done)]() mutable {
    std::optional<int16_t> version = VersionOf(key);
    if (closed_) return done(close_reason_, 0);
    if (reauthenticating_) {
      held_.push_back(Held{key, std::move(encode), std::move(done)});
      return;
    }
    if (!version) {
      return done(absl::UnimplementedError(
                      "the broker at " + options_.host + ":" + std::to_string(options_.port) +
                      " supports no version of API key " + std::to_string(static_cast<int>(key)) +
                      " that connectd speaks"),
                  0);
    }
    SendVersion(key, *version, encode(*version), std::move(done));
  });
}

void BrokerConnection::SendVersion(ApiKey key, int16_t version, std::string body,
                                   RawCallback done) {
  SendVersion(key, version, GatheredBody(std::move(body)), CopyingBody(std::move(done)));
}

void BrokerConnection::SendVersion(ApiKey key, int16_t version, GatheredBody body,
                                   FrameCallback done) {
  if (closed_) {
    Post([done = std::move(done), status = close_reason_] { done(status, 0); });
    return;
  }
  const int32_t correlation_id = next_correlation_id_++;
  OutFrame frame{EncodeRequestHead(key, version, correlation_id, options_.client_id, body.size()),
                 {}};
  if (tls_) {
    frame.head += body.Flatten();  // one TLS record per piece would be worse than the copy
  } else {
    frame.body = std::move(body);
  }
  write_queue_.push_back(std::move(frame));
  pending_[correlation_id] = Pending{key, version, std::move(done),
                                     std::chrono::steady_clock::now() + options_.request_timeout};
  ArmTimeoutCheck();
  WriteNext();
}

void BrokerConnection::WriteNext() {
  if (writing_ || write_queue_.empty() || closed_) return;
  writing_ = true;
  auto self = shared_from_this();
  auto on_written = asio::bind_executor(strand_, [this, self](boost::system::error_code ec,
                                                              size_t) {
    writing_ = false;
    if (closed_) {
      write_queue_.clear();  // Fail() left the frame being written alive until now
      return;
    }
    if (ec)
      return Fail(absl::UnavailableError("write to " + options_.host + " failed: " + ec.message()));
    write_queue_.pop_front();
    WriteNext();
  });
  const OutFrame& frame = write_queue_.front();
  if (tls_) {
    asio::async_write(*tls_, asio::buffer(frame.head), std::move(on_written));
    return;
  }
  std::vector<asio::const_buffer> buffers{asio::buffer(frame.head)};
  for (std::string_view piece : frame.body.Pieces()) {
    buffers.push_back(asio::buffer(piece.data(), piece.size()));
  }
  asio::async_write(socket_, buffers, std::move(on_written));
}

void BrokerConnection::ReadHeader() {
  if (closed_) return;
  auto self = shared_from_this();
  auto on_read = asio::bind_executor(strand_, [this, self](boost::system::error_code ec, size_t) {
    if (ec)
      return Fail(absl::UnavailableError("connection to " + options_.host + ":" +
                                         std::to_string(options_.port) + " lost: " + ec.message()));
    uint32_t size = 0;
    for (char c : size_buffer_) size = (size << 8) | static_cast<unsigned char>(c);
    if (size < 4 || size > kMaxResponseBytes) {
      std::string message = "bad response size " + std::to_string(size) + " from " + options_.host +
                            ":" + std::to_string(options_.port);
      // A TLS record (alert 0x15 or handshake 0x16, version 3.x) where a size should be.
      if (!tls_ && (size_buffer_[0] == 0x15 || size_buffer_[0] == 0x16) && size_buffer_[1] == 3) {
        message += ": the broker speaks TLS on this port (security.protocol=" +
                   options_.security.protocol + "; SSL or SASL_SSL expected)";
      }
      return Fail(absl::DataLossError(message));
    }
    ReadBody(size);
  });
  asio::mutable_buffer buffer(size_buffer_, sizeof size_buffer_);
  if (tls_) {
    asio::async_read(*tls_, buffer, std::move(on_read));
  } else {
    asio::async_read(socket_, buffer, std::move(on_read));
  }
}

void BrokerConnection::ReadBody(size_t size) {
  read_frame_ =
      ResponseFrame{options_.frame_buffers != nullptr ? options_.frame_buffers->Get(size)
                                                      : std::shared_ptr<char[]>(new char[size]),
                    size, 0};
  auto self = shared_from_this();
  auto on_read = asio::bind_executor(strand_, [this, self](boost::system::error_code ec, size_t) {
    if (ec)
      return Fail(
          absl::UnavailableError("connection to " + options_.host + " lost: " + ec.message()));
    OnFrame(std::move(read_frame_));
    read_frame_ = {};
    ReadHeader();
  });
  asio::mutable_buffer buffer(read_frame_.bytes.get(), read_frame_.size);
  if (tls_) {
    asio::async_read(*tls_, buffer, std::move(on_read));
  } else {
    asio::async_read(socket_, buffer, std::move(on_read));
  }
}

void BrokerConnection::OnFrame(ResponseFrame frame) {
  if (frame.size < 4) return Fail(absl::DataLossError("response shorter than its header"));
  int32_t correlation_id = 0;
  for (size_t i = 0; i < 4; ++i) {
    correlation_id = (correlation_id << 8) | static_cast<unsigned char>(frame.bytes[i]);
  }
  auto it = pending_.find(correlation_id);
  if (it == pending_.end()) {
    return Fail(absl::DataLossError("response with unknown correlation id " +
                                    std::to_string(correlation_id)));
  }
  Pending pending = std::move(it->second);
  pending_.erase(it);
  int32_t decoded_id = 0;
  absl::StatusOr<std::string_view> body = DecodeResponseHeader(
      pending.key, pending.version, std::string_view(frame.bytes.get(), frame.size), &decoded_id);
  if (!body.ok()) {
    pending.done(body.status(), pending.version);
  } else {
    frame.body_offset = static_cast<size_t>(body->data() - frame.bytes.get());
    pending.done(std::move(frame), pending.version);
  }
}

void BrokerConnection::ArmTimeoutCheck() {
  if (closed_ || pending_.empty()) return;
  if (timeout_timer_.expiry() > std::chrono::steady_clock::now()) return;  // already armed
  timeout_timer_.expires_after(std::chrono::milliseconds(100));
  auto self = shared_from_this();
  timeout_timer_.async_wait(
      asio::bind_executor(strand_, [this, self](boost::system::error_code ec) {
        if (ec || closed_) return;
        auto now = std::chrono::steady_clock::now();
        for (const auto& [id, pending] : pending_) {
          if (pending.deadline <= now) {
            return Fail(absl::DeadlineExceededError(
                "request (API key " + std::to_string(static_cast<int>(pending.key)) + ") to " +
                options_.host + ":" + std::to_string(options_.port) + " timed out after " +
                std::to_string(options_.request_timeout.count()) + " ms"));
          }
        }
        ArmTimeoutCheck();
      }));
}

void BrokerConnection::Close() {
  Post([this] { Fail(absl::CancelledError("connection closed")); });
}

void BrokerConnection::Fail(const absl::Status& status) {
  if (closed_) return;
  closed_ = true;
  close_reason_ = status;
  boost::system::error_code ignored;
  resolver_.cancel();
  timeout_timer_.cancel();
  reauth_timer_.cancel();
  socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
  socket_.close(ignored);
  std::map<int32_t, Pending> pending;
  pending.swap(pending_);
  // A frame an async_write is still sending must outlive it: its handler clears the rest.
  if (writing_) {
    write_queue_.erase(write_queue_.begin() + 1, write_queue_.end());
  } else {
    write_queue_.clear();
  }
  for (auto& [id, p] : pending) p.done(status, p.version);
  std::deque<Held> held;
  held.swap(held_);
  for (Held& h : held) h.done(status, 0);
}

}  // namespace connectd::kafka::protocol
