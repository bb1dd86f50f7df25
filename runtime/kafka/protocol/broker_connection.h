// File: broker_connection.h
//
// One connection to one Kafka broker for the requests connectd sends itself (group membership):
// TCP or TLS, ApiVersions negotiation (each request goes out in the highest version both sides
// support), SASL PLAIN, SCRAM-SHA-256/512, OAUTHBEARER or GSSAPI (SaslHandshake v1 +
// SaslAuthenticate)
// with KIP-368 re-authentication when the broker limits the session (connections.max.reauth.ms),
// requests pipelined and matched to responses by correlation id, a per-request timeout after
// which the connection is closed (as Kafka's clients do) and every pending request fails.
//
//   auto conn = BrokerConnection::Create(io, {"127.0.0.1", 9092, security, "connect-w1"});
//   conn->Connect([conn](absl::Status s) {
//     conn->Call<JoinGroupResponse>(ApiKey::kJoinGroup, request, [](auto response) { ... });
//   });
//
// Security settings are librdkafka's property names (what jvm/java_client_config.h
// makes of a worker's Java client keys), so the group client reaches whatever the worker's
// librdkafka clients reach: security.protocol PLAINTEXT|SSL|SASL_PLAINTEXT|SASL_SSL,
// sasl.mechanisms PLAIN|SCRAM-SHA-256|SCRAM-SHA-512|OAUTHBEARER|GSSAPI, sasl.username/password
// (OAUTHBEARER's token properties: oauthbearer.h; GSSAPI's: gssapi.h), ssl.ca.location or
// ssl.ca.pem, ssl.certificate.location+ssl.key.location(+ssl.key.password) or their .pem forms,
// ssl.endpoint.identification.algorithm (https or none).
//
// Threads: every method and callback runs on the connection's strand (its own, or one the
// caller shares); methods may be called from any thread. Callbacks never run inside the call
// that registers them.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

#include "absl/status/statusor.h"
#include "runtime/kafka/protocol/frame_buffer_pool.h"
#include "runtime/kafka/protocol/gathered_body.h"
#include "runtime/kafka/protocol/gssapi.h"
#include "runtime/kafka/protocol/messages.h"
#include "runtime/kafka/protocol/oauthbearer.h"

namespace connectd::kafka::protocol {

// How to reach and authenticate to brokers (librdkafka property names, see above).
struct SecurityConfig {
  std::string protocol = "PLAINTEXT";
  std::string sasl_mechanism;
  std::string sasl_username;
  std::string sasl_password;
  std::shared_ptr<OAuthBearerTokenSource> oauthbearer;  // set for OAUTHBEARER
  std::shared_ptr<KerberosClient> kerberos;             // set for GSSAPI
  std::shared_ptr<boost::asio::ssl::context> tls;       // set for SSL and SASL_SSL
  bool verify_hostname = true;

  // kInvalidArgument naming the property on a bad or unsupported setting.
  static absl::StatusOr<SecurityConfig> FromProperties(
      const std::map<std::string, std::string>& librdkafka_properties);
  bool uses_tls() const { return protocol == "SSL" || protocol == "SASL_SSL"; }
  bool uses_sasl() const { return protocol == "SASL_PLAINTEXT" || protocol == "SASL_SSL"; }
};

class BrokerConnection : public std::enable_shared_from_this<BrokerConnection> {
 public:
  struct Options {
    std::string host;
    uint16_t port = 0;
    SecurityConfig security;
    std::optional<std::string> client_id;
    std::chrono::milliseconds request_timeout{30000};
    // Where response frames' bytes come from (null: allocated for each).
    std::shared_ptr<FrameBufferPool> frame_buffers;
  };
  // The body of a response and the version it was sent in.
  using RawCallback = std::function<void(absl::StatusOr<std::string> body, int16_t version)>;
  // A response as read from the socket (its bytes, not copied again) and where its body starts.
  struct ResponseFrame {
    std::shared_ptr<char[]> bytes;
    size_t size = 0;
    size_t body_offset = 0;
    std::string_view body() const { return {bytes.get() + body_offset, size - body_offset}; }
  };
  using FrameCallback = std::function<void(absl::StatusOr<ResponseFrame> frame, int16_t version)>;

  using Strand = boost::asio::strand<boost::asio::io_context::executor_type>;
  static std::shared_ptr<BrokerConnection> Create(boost::asio::io_context& io, Options options);
  // On the caller's strand: its callbacks then run serialised with the caller's own handlers.
  static std::shared_ptr<BrokerConnection> Create(Strand strand, Options options);
  ~BrokerConnection();

  // Resolves, connects, handshakes TLS, negotiates API versions and authenticates; `done` gets
  // OK or why not (kUnavailable for network failures, kUnauthenticated for SASL and for a TLS
  // handshake that refused the broker's certificate, e.g. an unknown CA or a host mismatch).
  void Connect(std::function<void(absl::Status)> done);

  // Sends a request in the best common version (kUnimplemented if there is none; the
  // connection must be connected). `encode` writes the body for a version.
  void Send(ApiKey key, std::function<std::string(int16_t version)> encode, RawCallback done);
  // The same for bulk data (record batches): a body of views written to a plaintext socket
  // without copying them (TLS encrypts a flattened copy), and the response frame handed over as
  // read. `encode` is called once; the views' bytes must not change until `done` runs.
  void SendGathered(ApiKey key, std::function<GatheredBody(int16_t version)> encode,
                    FrameCallback done);

  // Send + decode with Response::Decode.
  template <typename Response, typename Request>
  void Call(ApiKey key, Request request, std::function<void(absl::StatusOr<Response>)> done) {
    Send(
        key, [request = std::move(request)](int16_t v) { return request.Encode(v); },
        [done = std::move(done)](absl::StatusOr<std::string> body, int16_t version) {
          if (!body.ok()) return done(body.status());
          done(Response::Decode(*body, version));
        });
  }

  // Closes the socket; pending and later requests fail with kCancelled. Idempotent.
  void Close();

  const Options& options() const { return options_; }
  // The negotiated version of `key`, or nullopt before Connect finished / when unsupported.
  std::optional<int16_t> VersionOf(ApiKey key) const;

 private:
  struct Pending {
    ApiKey key;
    int16_t version;
    FrameCallback done;
    std::chrono::steady_clock::time_point deadline;
  };
  using Socket = boost::asio::ip::tcp::socket;
  using TlsStream = boost::asio::ssl::stream<Socket&>;

  BrokerConnection(Strand strand, Options options);

  void OnConnected(std::function<void(absl::Status)> done);
  // Why the TLS handshake failed: kUnauthenticated when TLS refused the peer (its certificate,
  // host name or protocol settings; with OpenSSL's verify result), kUnavailable when the
  // connection broke off.
  absl::Status TlsHandshakeError(const boost::system::error_code& ec) const;
  void NegotiateVersions(std::function<void(absl::Status)> done);
  void NegotiateVersions(int16_t version, std::function<void(absl::Status)> done);
  // SaslHandshake and the mechanism's rounds (on connect, and again to re-authenticate).
  void Authenticate(std::function<void(absl::Status)> done);
  void Handshake(std::shared_ptr<class SaslExchange> exchange,
                 std::function<void(absl::Status)> done);
  void SaslRounds(std::shared_ptr<class SaslExchange> exchange, std::string token,
                  std::function<void(absl::Status)> done);
  // KIP-368: a broker that answered SaslAuthenticate with a session lifetime closes the
  // connection at its end unless the client authenticates again; this does so at 85-95% of it
  // (Java's window), holding the requests sent meanwhile until it is done.
  void ScheduleReauthentication(int64_t session_lifetime_ms);
  void Reauthenticate();
  // Queues a frame with an explicit version (used before negotiation finished).
  void SendVersion(ApiKey key, int16_t version, std::string body, RawCallback done);
  void SendVersion(ApiKey key, int16_t version, GatheredBody body, FrameCallback done);
  void WriteNext();
  void ReadHeader();
  void ReadBody(size_t size);
  void OnFrame(ResponseFrame frame);
  void ArmTimeoutCheck();
  // Fails everything pending and closes (on the strand).
  void Fail(const absl::Status& status);

  template <typename Fn>
  void Post(Fn fn);

  Strand strand_;
  boost::asio::ip::tcp::resolver resolver_;
  Socket socket_;
  std::unique_ptr<TlsStream> tls_;
  boost::asio::steady_timer timeout_timer_;
  boost::asio::steady_timer reauth_timer_;
  const Options options_;

  // Strand only.
  int32_t next_correlation_id_ = 1;
  // A request to write: the size prefix and header, then the body's pieces (TLS: all in head).
  struct OutFrame {
    std::string head;
    GatheredBody body;
  };
  std::deque<OutFrame> write_queue_;
  bool writing_ = false;
  std::map<int32_t, Pending> pending_;
  std::map<int16_t, int16_t> versions_;  // api key -> negotiated version
  bool closed_ = false;
  bool reauthenticating_ = false;
  // Requests sent while re-authenticating: encoded and queued when it is done.
  struct Held {
    ApiKey key;
    std::function<GatheredBody(int16_t)> encode;
    FrameCallback done;
  };
  std::deque<Held> held_;
  absl::Status close_reason_ = absl::CancelledError("connection closed");
  char size_buffer_[4];
  ResponseFrame read_frame_;  // being read (allocated, not zeroed)
};

}  // namespace connectd::kafka::protocol
