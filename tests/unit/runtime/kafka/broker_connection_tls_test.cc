// BrokerConnection's TLS checks against an in-process TLS server (no Kafka behind it: every case
// here ends in the handshake): the broker's certificate must chain to the configured CA and
// name the host connected to (an IP address in its IP SANs, a host name in its DNS SANs), and a
// refusal is a clear kUnauthenticated status saying why.
#include <future>
#include <thread>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "runtime/kafka/protocol/broker_connection.h"
#include "tests/unit/rest/test_certs.h"

namespace connectd::kafka::protocol {
namespace {

namespace asio = boost::asio;
using ::testing::HasSubstr;

// Accepts TLS connections on 127.0.0.1 with one self-signed certificate, handshakes and then
// holds them open without answering.
class TlsServer {
 public:
  explicit TlsServer(const rest::testing::TestCert& cert)
      : context_(asio::ssl::context::tls_server),
        acceptor_(io_, {asio::ip::make_address("127.0.0.1"), 0}) {
    context_.use_certificate_chain(asio::buffer(cert.cert_pem));
    context_.use_private_key(asio::buffer(cert.key_pem), asio::ssl::context::pem);
    Accept();
    thread_ = std::thread([this] { io_.run(); });
  }
  ~TlsServer() {
    io_.stop();
    thread_.join();
  }
  uint16_t port() const { return acceptor_.local_endpoint().port(); }

 private:
  void Accept() {
    acceptor_.async_accept([this](boost::system::error_code ec, asio::ip::tcp::socket socket) {
      if (ec) return;
      auto stream = std::make_shared<asio::ssl::stream<asio::ip::tcp::socket>>(std::move(socket),
                                                                                context_);
      stream->async_handshake(asio::ssl::stream_base::server, [](boost::system::error_code) {});
      streams_.push_back(std::move(stream));
      Accept();
    });
  }

  asio::io_context io_;
  asio::ssl::context context_;
  asio::ip::tcp::acceptor acceptor_;
  std::vector<std::shared_ptr<asio::ssl::stream<asio::ip::tcp::socket>>> streams_;  // io_ only
  std::thread thread_;
};

class BrokerConnectionTlsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    thread_ = std::thread([this] { io_.run(); });
  }
  void TearDown() override {
    work_.reset();
    io_.stop();
    thread_.join();
  }

  // Connects to `host`:`port` trusting `ca_pem`; the status of the handshake (and, when it
  // passes, of the ApiVersions request that no broker answers: timed out).
  absl::Status Connect(const std::string& host, uint16_t port, const std::string& ca_pem,
                       bool verify_hostname = true) {
    std::map<std::string, std::string> properties = {{"security.protocol", "SSL"},
                                                     {"ssl.ca.pem", ca_pem}};
    if (!verify_hostname) properties["ssl.endpoint.identification.algorithm"] = "none";
    absl::StatusOr<SecurityConfig> security = SecurityConfig::FromProperties(properties);
    EXPECT_TRUE(security.ok()) << security.status();
    BrokerConnection::Options options;
    options.host = host;
    options.port = port;
    options.security = *security;
    options.request_timeout = std::chrono::milliseconds(300);
    auto connection = BrokerConnection::Create(io_, options);
    std::promise<absl::Status> connected;
    connection->Connect([&connected](absl::Status s) { connected.set_value(s); });
    return connected.get_future().get();
  }

  asio::io_context io_;
  asio::executor_work_guard<asio::io_context::executor_type> work_ = asio::make_work_guard(io_);
  std::thread thread_;
};

TEST_F(BrokerConnectionTlsTest, TheCertificateMustNameTheHostConnectedTo) {
  rest::testing::TestCert named = rest::testing::MakeCert("broker", "IP:127.0.0.1,DNS:localhost");
  TlsServer server(named);
  // The handshake passes; only the ApiVersions request (no broker) times out.
  EXPECT_EQ(Connect("127.0.0.1", server.port(), named.cert_pem).code(),
            absl::StatusCode::kDeadlineExceeded);
  EXPECT_EQ(Connect("localhost", server.port(), named.cert_pem).code(),
            absl::StatusCode::kDeadlineExceeded);
}

TEST_F(BrokerConnectionTlsTest, AHostMismatchIsAnAuthenticationFailureSayingSo) {
  rest::testing::TestCert elsewhere = rest::testing::MakeCert("elsewhere", "DNS:elsewhere.test");
  TlsServer server(elsewhere);
  absl::Status by_ip = Connect("127.0.0.1", server.port(), elsewhere.cert_pem);
  EXPECT_EQ(by_ip.code(), absl::StatusCode::kUnauthenticated) << by_ip;
  EXPECT_THAT(by_ip.message(), HasSubstr("TLS handshake with 127.0.0.1:"));
  EXPECT_THAT(by_ip.message(), HasSubstr("IP address mismatch"));
  absl::Status by_name = Connect("localhost", server.port(), elsewhere.cert_pem);
  EXPECT_EQ(by_name.code(), absl::StatusCode::kUnauthenticated) << by_name;
  EXPECT_THAT(by_name.message(), HasSubstr("hostname mismatch"));
  // ssl.endpoint.identification.algorithm=none: the chain is still checked, the name is not.
  EXPECT_EQ(Connect("127.0.0.1", server.port(), elsewhere.cert_pem, false).code(),
            absl::StatusCode::kDeadlineExceeded);
}

TEST_F(BrokerConnectionTlsTest, AnUnknownCaIsAnAuthenticationFailureSayingSo) {
  TlsServer server(rest::testing::MakeCert("broker", "IP:127.0.0.1"));
  rest::testing::TestCert other = rest::testing::MakeCert("another CA");
  for (bool verify_hostname : {true, false}) {
    absl::Status status = Connect("127.0.0.1", server.port(), other.cert_pem, verify_hostname);
    EXPECT_EQ(status.code(), absl::StatusCode::kUnauthenticated) << status;
    EXPECT_THAT(status.message(), HasSubstr("certificate verify failed"));
    EXPECT_THAT(std::string(status.message()), ::testing::ContainsRegex("self.signed certificate"));
  }
}

TEST_F(BrokerConnectionTlsTest, APeerThatIsNotTlsIsANetworkOrTlsFailureNotAHang) {
  // A plain TCP listener that closes every connection at once.
  asio::io_context server_io;
  asio::ip::tcp::acceptor acceptor(server_io, {asio::ip::make_address("127.0.0.1"), 0});
  std::thread server([&] {
    boost::system::error_code ec;
    asio::ip::tcp::socket socket = acceptor.accept(ec);
  });
  rest::testing::TestCert cert = rest::testing::MakeCert("broker");
  absl::Status status = Connect("127.0.0.1", acceptor.local_endpoint().port(), cert.cert_pem);
  server.join();
  EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable) << status;
  EXPECT_THAT(status.message(), HasSubstr("TLS handshake with 127.0.0.1:"));
}

}  // namespace
}  // namespace connectd::kafka::protocol
