// RestClient against loopback servers in this process: the CaptureServer (exact request bytes,
// canned answers, silence) and real RestServers over HTTP and HTTPS.
#include "rest/rest_client.h"

#include <future>
#include <thread>

#include <gtest/gtest.h>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include "absl/strings/match.h"
#include "runtime/herder_api/herder.h"
#include "tests/unit/rest/capture_server.h"
#include "tests/unit/rest/rest_test_env.h"
#include "tests/unit/rest/test_certs.h"

namespace connectd::rest::testing {
namespace {

// An io_context run by one thread for the client.
class ClientThread {
 public:
  ClientThread() : work_(boost::asio::make_work_guard(ioc_)), thread_([this] { ioc_.run(); }) {}
  ~ClientThread() {
    work_.reset();
    ioc_.stop();
    thread_.join();
  }
  boost::asio::io_context& ioc() { return ioc_; }

 private:
  boost::asio::io_context ioc_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
  std::thread thread_;
};

// A port nothing listens on (bound, then closed).
int ClosedPort() {
  boost::asio::io_context ioc;
  boost::asio::ip::tcp::acceptor acceptor(ioc, {boost::asio::ip::make_address("127.0.0.1"), 0});
  return acceptor.local_endpoint().port();
}

std::string Find(const HeaderList& headers, const std::string& name) {
  return FindHeader(headers, name).value_or("");
}

TEST(ParseHttpUrlTest, SplitsAbsoluteUrls) {
  absl::StatusOr<ParsedUrl> url = ParseHttpUrl("HTTP://worker-1:8083/connectors/a%20b?x=1");
  ASSERT_TRUE(url.ok()) << url.status();
  EXPECT_FALSE(url->https);
  EXPECT_EQ(url->host, "worker-1");
  EXPECT_EQ(url->port, 8083);
  EXPECT_EQ(url->target, "/connectors/a%20b?x=1");

  url = ParseHttpUrl("https://[::1]/");
  ASSERT_TRUE(url.ok());
  EXPECT_TRUE(url->https);
  EXPECT_EQ(url->host, "::1");
  EXPECT_EQ(url->port, 443);
  EXPECT_EQ(ParseHttpUrl("http://h")->target, "/");
  EXPECT_EQ(ParseHttpUrl("http://h?q=1")->target, "/?q=1");
  EXPECT_EQ(ParseHttpUrl("http://h")->port, 80);

  for (const char* bad : {"worker:8083/x", "ftp://h/", "http:///x", "http://h:0/",
                          "http://h:99999/", "http://u@h/", "http://h/#f", "http://[::1/"}) {
    EXPECT_TRUE(absl::IsInvalidArgument(ParseHttpUrl(bad).status())) << bad;
  }
}

TEST(RestClientTest, SendsTheRequestAndReturnsTheResponse) {
  CaptureServer server;
  server.Respond(201, R"({"ok":true})", {{"Location", "/x"}});
  ClientThread thread;
  RestClient client(thread.ioc(), TlsConfig{});
  HttpClientRequest request{"POST",
                            server.url() + "connectors?forward=true",
                            {{"Authorization", "Basic dTpw"}, {"Content-Type", "application/json"}},
                            R"({"name":"c"})"};
  absl::StatusOr<HttpClientResponse> response = client.SendAndWait(request);
  ASSERT_TRUE(response.ok()) << response.status();
  EXPECT_EQ(response->status, 201);
  EXPECT_EQ(response->body, R"({"ok":true})");
  EXPECT_EQ(Find(response->headers, "Location"), "/x");

  ASSERT_EQ(server.requests().size(), 1u);
  const CapturedRequest sent = server.requests()[0];
  EXPECT_EQ(sent.method, "POST");
  EXPECT_EQ(sent.target, "/connectors?forward=true");
  EXPECT_EQ(sent.body, R"({"name":"c"})");
  EXPECT_EQ(sent.Header("Authorization"), "Basic dTpw");
  EXPECT_EQ(sent.Header("Content-Type"), "application/json");
  EXPECT_EQ(sent.Header("Content-Length"), "12");
  EXPECT_EQ(sent.Header("User-Agent"), "kafka-connect");
  EXPECT_EQ(sent.Header("Host"), "127.0.0.1:" + std::to_string(server.port()));
}

TEST(RestClientTest, PutWithoutBodySendsContentLengthZeroAndGetSendsNone) {
  CaptureServer server;
  server.Respond(204, "");
  ClientThread thread;
  RestClient client(thread.ioc(), TlsConfig{});
  absl::StatusOr<HttpClientResponse> put = client.SendAndWait({"PUT", server.url() + "x", {}, ""});
  ASSERT_TRUE(put.ok()) << put.status();
  EXPECT_EQ(put->status, 204);
  EXPECT_EQ(put->body, "");
  ASSERT_TRUE(client.SendAndWait({"GET", server.url() + "y", {}, ""}).ok());
  ASSERT_EQ(server.requests().size(), 2u);
  EXPECT_EQ(server.requests()[0].Header("Content-Length"), "0");
  EXPECT_FALSE(server.requests()[1].HasHeader("Content-Length"));
}

TEST(RestClientTest, DoesNotFollowRedirects) {
  CaptureServer server;
  server.Respond(307, "", {{"Location", server.url() + "elsewhere"}});
  ClientThread thread;
  RestClient client(thread.ioc(), TlsConfig{});
  absl::StatusOr<HttpClientResponse> response =
      client.SendAndWait({"GET", server.url() + "here", {}, ""});
  ASSERT_TRUE(response.ok()) << response.status();
  EXPECT_EQ(response->status, 307);
  EXPECT_EQ(server.requests().size(), 1u);
}

TEST(RestClientTest, TransportFailuresAreStatuses) {
  ClientThread thread;
  RestClient::Options options;
  options.connect_timeout = std::chrono::milliseconds(2000);
  options.request_timeout = std::chrono::milliseconds(200);
  RestClient client(thread.ioc(), TlsConfig{}, options);

  absl::StatusOr<HttpClientResponse> refused =
      client.SendAndWait({"GET", "http://127.0.0.1:" + std::to_string(ClosedPort()) + "/", {}, ""});
  EXPECT_TRUE(absl::IsUnavailable(refused.status())) << refused.status();

  CaptureServer silent;
  silent.set_silent(true);
  absl::StatusOr<HttpClientResponse> timed_out = client.SendAndWait({"GET", silent.url(), {}, ""});
  EXPECT_TRUE(absl::IsDeadlineExceeded(timed_out.status())) << timed_out.status();

  EXPECT_TRUE(absl::IsInvalidArgument(client.SendAndWait({"GET", "nope", {}, ""}).status()));
}

TEST(RestClientTest, CallbackRunsOnTheIoContextForErrorsToo) {
  ClientThread thread;
  RestClient client(thread.ioc(), TlsConfig{});
  std::promise<std::thread::id> ran_on;
  client.Send({"GET", "bad url", {}, ""}, [&](absl::StatusOr<HttpClientResponse>) {
    ran_on.set_value(std::this_thread::get_id());
  });
  auto future = ran_on.get_future();
  ASSERT_EQ(future.wait_for(std::chrono::seconds(5)), std::future_status::ready);
  EXPECT_NE(future.get(), std::this_thread::get_id());
}

TEST(RestClientTest, TalksToARestServer) {
  RestTestEnv env;
  env.herder().AddConnector("c");
  ClientThread thread;
  RestClient client(thread.ioc(), TlsConfig{});
  absl::StatusOr<HttpClientResponse> response = client.SendAndWait(
      {"GET", "http://127.0.0.1:" + std::to_string(env.port()) + "/connectors", {}, ""});
  ASSERT_TRUE(response.ok()) << response.status();
  EXPECT_EQ(response->status, 200);
  EXPECT_EQ(response->body, R"(["c"])");
}

TEST(ResponseAsStatusTest, FollowsJavaRestClient) {
  EXPECT_TRUE(ResponseAsStatus(HttpClientResponse{204, {}, ""}).ok());
  EXPECT_TRUE(ResponseAsStatus(HttpClientResponse{200, {}, "{}"}).ok());

  absl::Status forbidden = ResponseAsStatus(HttpClientResponse{
      403, {}, R"({"error_code":403,"message":"Internal request contained invalid signature."})"});
  EXPECT_TRUE(absl::IsPermissionDenied(forbidden));
  EXPECT_EQ(herder::HttpStatusOf(forbidden), 403);
  EXPECT_EQ(forbidden.message(), "Internal request contained invalid signature.");

  absl::Status conflict =
      ResponseAsStatus(HttpClientResponse{409, {}, R"({"error_code":409,"message":"busy"})"});
  EXPECT_TRUE(absl::IsFailedPrecondition(conflict));
  EXPECT_EQ(herder::HttpStatusOf(conflict), 409);

  absl::Status redirect = ResponseAsStatus(HttpClientResponse{301, {}, ""});
  EXPECT_EQ(herder::HttpStatusOf(redirect), 500);
  EXPECT_EQ(redirect.message(), "Unexpected status code when handling forwarded request: 301");

  absl::Status garbled = ResponseAsStatus(HttpClientResponse{500, {}, "<html>"});
  EXPECT_EQ(herder::HttpStatusOf(garbled), 500);
  EXPECT_TRUE(absl::StartsWith(garbled.message(), "IO Error trying to forward REST request: "));

  absl::Status io = ResponseAsStatus(absl::UnavailableError("Connecting to h:1 failed"));
  EXPECT_TRUE(absl::IsUnavailable(io));
  EXPECT_EQ(io.message(), "IO Error trying to forward REST request: Connecting to h:1 failed");
  absl::Status tls = ResponseAsStatus(absl::FailedPreconditionError("bad truststore"));
  EXPECT_EQ(tls.message(), "Failed to start RestClient: bad truststore");
  EXPECT_EQ(herder::HttpStatusOf(tls), 500);
}

// ---- HTTPS ------------------------------------------------------------------------------------

class RestClientHttpsTest : public ::testing::Test {
 protected:
  // An HTTPS RestServer with `cert`.
  static Props ServerProps(const TestCert& cert) {
    return {{"listeners", "https://127.0.0.1:0"},
            {"ssl.keystore.type", "PEM"},
            {"ssl.keystore.key", cert.key_pem},
            {"ssl.keystore.certificate.chain", cert.cert_pem}};
  }
  static std::string UrlOf(RestTestEnv& env, const std::string& host = "127.0.0.1") {
    return "https://" + host + ":" + std::to_string(env.port()) + "/";
  }
  // The client's TLS settings as a worker config would give them.
  static TlsConfig ClientTls(const Props& props) { return ParseRestConfig(props)->tls; }

  ClientThread thread_;
};

TEST_F(RestClientHttpsTest, TrustsThePemTruststoreAndChecksTheHostName) {
  RestTestEnv env(ServerProps(ServerCert()));
  RestClient client(thread_.ioc(),
                    ClientTls({{"ssl.truststore.type", "PEM"},
                               {"ssl.truststore.certificates", ServerCert().cert_pem}}));
  absl::StatusOr<HttpClientResponse> by_ip = client.SendAndWait({"GET", UrlOf(env), {}, ""});
  ASSERT_TRUE(by_ip.ok()) << by_ip.status();
  EXPECT_EQ(by_ip->status, 200);
  absl::StatusOr<HttpClientResponse> by_name =
      client.SendAndWait({"GET", UrlOf(env, "localhost"), {}, ""});
  // localhost may resolve to ::1 first while the server listens on 127.0.0.1 only; the
  // resolver's endpoint list covers both, so this still connects.
  ASSERT_TRUE(by_name.ok()) << by_name.status();
  EXPECT_EQ(by_name->status, 200);
}

TEST_F(RestClientHttpsTest, Pkcs12TruststoreFromPrefixedKeys) {
  RestTestEnv env(ServerProps(ServerCert()));
  TempFile p12("trust.p12", ServerCert().pkcs12);
  RestClient client(thread_.ioc(),
                    ClientTls({{"listeners.https.ssl.truststore.type", "PKCS12"},
                               {"listeners.https.ssl.truststore.location", p12.path()},
                               {"listeners.https.ssl.truststore.password", "storepass"},
                               // Unprefixed keys are ignored once any prefixed key is set.
                               {"ssl.truststore.location", "/nonexistent"}}));
  absl::StatusOr<HttpClientResponse> response = client.SendAndWait({"GET", UrlOf(env), {}, ""});
  ASSERT_TRUE(response.ok()) << response.status();
  EXPECT_EQ(response->status, 200);
}

TEST_F(RestClientHttpsTest, HostNameMismatchFailsUnlessIdentificationIsOff) {
  TestCert other = MakeCert("other", "DNS:other.example");
  RestTestEnv env(ServerProps(other));
  Props trust{{"ssl.truststore.type", "PEM"}, {"ssl.truststore.certificates", other.cert_pem}};
  RestClient checking(thread_.ioc(), ClientTls(trust));
  EXPECT_TRUE(absl::IsUnavailable(checking.SendAndWait({"GET", UrlOf(env), {}, ""}).status()));

  trust["ssl.endpoint.identification.algorithm"] = "";
  RestClient lenient(thread_.ioc(), ClientTls(trust));
  absl::StatusOr<HttpClientResponse> response = lenient.SendAndWait({"GET", UrlOf(env), {}, ""});
  ASSERT_TRUE(response.ok()) << response.status();
  EXPECT_EQ(response->status, 200);
}

TEST_F(RestClientHttpsTest, UntrustedServerFails) {
  RestTestEnv env(ServerProps(ServerCert()));
  RestClient client(thread_.ioc(), ClientTls({}));  // system CAs only
  EXPECT_TRUE(absl::IsUnavailable(client.SendAndWait({"GET", UrlOf(env), {}, ""}).status()));
}

TEST_F(RestClientHttpsTest, PresentsTheKeystoreAsClientCertificate) {
  TestCert client_cert = MakeCert("client");
  Props server = ServerProps(ServerCert());
  server["ssl.client.auth"] = "required";
  server["ssl.truststore.type"] = "PEM";
  server["ssl.truststore.certificates"] = client_cert.cert_pem;
  RestTestEnv env(server);
  Props trust{{"ssl.truststore.type", "PEM"},
              {"ssl.truststore.certificates", ServerCert().cert_pem}};
  RestClient anonymous(thread_.ioc(), ClientTls(trust));
  EXPECT_FALSE(anonymous.SendAndWait({"GET", UrlOf(env), {}, ""}).ok());

  Props with_key = trust;
  with_key["ssl.keystore.type"] = "PEM";
  with_key["ssl.keystore.key"] = client_cert.key_pem;
  with_key["ssl.keystore.certificate.chain"] = client_cert.cert_pem;
  RestClient authenticated(thread_.ioc(), ClientTls(with_key));
  absl::StatusOr<HttpClientResponse> response =
      authenticated.SendAndWait({"GET", UrlOf(env), {}, ""});
  ASSERT_TRUE(response.ok()) << response.status();
  EXPECT_EQ(response->status, 200);
}

TEST_F(RestClientHttpsTest, UnusableTlsSettingsFailAsFailedPrecondition) {
  TempFile jks("trust.jks", std::string("\xFE\xED\xFE\xED\x00\x00\x00\x02", 8));
  RestClient client(thread_.ioc(), ClientTls({{"ssl.truststore.location", jks.path()}}));
  absl::StatusOr<HttpClientResponse> response =
      client.SendAndWait({"GET", "https://127.0.0.1:1/", {}, ""});
  EXPECT_TRUE(absl::IsFailedPrecondition(response.status())) << response.status();
  EXPECT_NE(response.status().message().find("ssl.truststore.location: "), absl::string_view::npos)
      << response.status();
  // Plain http never needs them (Java loads SSL settings only for https URLs).
  CaptureServer server;
  EXPECT_TRUE(client.SendAndWait({"GET", server.url(), {}, ""}).ok());
}

}  // namespace
}  // namespace connectd::rest::testing
