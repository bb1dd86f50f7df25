// HTTPS listeners with certificates made at test time (test_certs.h; no files from the tree,
// no network).
#include <fstream>
#include <iterator>

#include <gtest/gtest.h>
#include <boost/asio/ssl.hpp>

#include "rest/tls_context.h"
#include "tests/unit/rest/rest_test_env.h"
#include "tests/unit/rest/test_certs.h"

namespace connectd::rest::testing {
namespace {

namespace ssl = boost::asio::ssl;

// A client that trusts exactly the test server certificate.
std::shared_ptr<ssl::context> TrustingClient() {
  auto ctx = std::make_shared<ssl::context>(ssl::context::tls_client);
  boost::system::error_code ec;
  ctx->add_certificate_authority(boost::asio::buffer(ServerCert().cert_pem), ec);
  EXPECT_FALSE(ec) << ec.message();
  ctx->set_verify_mode(ssl::verify_peer, ec);
  return ctx;
}

TEST(HttpsTest, PemKeystoreFile) {
  TempFile pem("server.pem", ServerCert().key_pem + ServerCert().cert_pem);
  RestTestEnv env(Props{{"listeners", "https://127.0.0.1:0"},
                        {"ssl.keystore.type", "PEM"},
                        {"ssl.keystore.location", pem.path()}});
  ASSERT_EQ(env.bound().at(0).scheme, "https");
  TestHttpClient client(env.port(), TrustingClient());
  HttpResult r = client.Send("GET", "/connectors");
  EXPECT_EQ(r.status, 200) << r.error;
  EXPECT_EQ(r.body, "[]");
  // Keep-alive works over TLS too.
  EXPECT_EQ(client.Send("GET", "/").status, 200);
  EXPECT_EQ(env.server().AdvertisedUrl(), "https://127.0.0.1:" + std::to_string(env.port()) + "/");
  // Plain HTTP on the TLS port gets no answer.
  EXPECT_EQ(HttpRequest(env.port(), "GET", "/").status, 0);
}

TEST(HttpsTest, InlinePemWithEncryptedKey) {
  RestTestEnv env(Props{{"listeners", "https://127.0.0.1:0"},
                        {"listeners.https.ssl.keystore.type", "PEM"},
                        {"listeners.https.ssl.keystore.key", ServerCert().encrypted_key_pem},
                        {"listeners.https.ssl.key.password", "keypass"},
                        {"listeners.https.ssl.keystore.certificate.chain", ServerCert().cert_pem}});
  TestHttpClient client(env.port(), TrustingClient());
  EXPECT_EQ(client.Send("GET", "/").status, 200);
}

TEST(HttpsTest, Pkcs12Keystore) {
  TempFile p12("server.p12", ServerCert().pkcs12);
  RestTestEnv env(Props{{"listeners", "http://127.0.0.1:0,https://127.0.0.1:0"},
                        {"ssl.keystore.type", "PKCS12"},
                        {"ssl.keystore.location", p12.path()},
                        {"ssl.keystore.password", "storepass"}});
  ASSERT_EQ(env.bound().size(), 2u);
  TestHttpClient client(env.bound()[1].port, TrustingClient());
  EXPECT_EQ(client.Send("GET", "/").status, 200);
  EXPECT_EQ(HttpRequest(env.bound()[0].port, "GET", "/").status, 200);
  // "http://" appears in the listeners, so the http listener is advertised.
  EXPECT_EQ(env.server().AdvertisedUrl(),
            "http://127.0.0.1:" + std::to_string(env.bound()[0].port) + "/");
}

TEST(HttpsTest, Pkcs12ThroughJksTypeIsReadLikeJava) {
  TempFile p12("compat.p12", ServerCert().pkcs12);
  TlsConfig tls;
  tls.keystore_location = p12.path();
  tls.keystore_password = "storepass";
  EXPECT_TRUE(MakeServerTlsContext(tls).ok());
}

TEST(HttpsTest, UnusableKeystoresAreRefusedNamingTheKey) {
  TlsConfig jks;  // a damaged JKS store (only its header)
  TempFile jks_file("store.jks", std::string("\xFE\xED\xFE\xED\x00\x00\x00\x02", 8));
  jks.keystore_location = jks_file.path();
  auto refused = MakeServerTlsContext(jks);
  EXPECT_TRUE(absl::IsInvalidArgument(refused.status()));
  EXPECT_NE(refused.status().message().find("ssl.keystore.location: "), absl::string_view::npos)
      << refused.status();
  EXPECT_NE(refused.status().message().find("truncated or damaged"), absl::string_view::npos)
      << refused.status();

  TlsConfig prefixed = jks;
  prefixed.prefix = "listeners.https.";
  EXPECT_NE(MakeServerTlsContext(prefixed).status().message().find(
                "listeners.https.ssl.keystore.location"),
            absl::string_view::npos);

  TlsConfig nothing;  // default JKS type, no location
  EXPECT_TRUE(absl::IsInvalidArgument(MakeServerTlsContext(nothing).status()));

  TlsConfig wrong_password;
  wrong_password.keystore_type = "PKCS12";
  TempFile wrong_file("wrong.p12", ServerCert().pkcs12);
  wrong_password.keystore_location = wrong_file.path();
  wrong_password.keystore_password = "nope";
  EXPECT_TRUE(absl::IsInvalidArgument(MakeServerTlsContext(wrong_password).status()));

  TlsConfig missing;
  missing.keystore_type = "PEM";
  missing.keystore_location = "/nonexistent/connectd.pem";
  auto not_found = MakeServerTlsContext(missing);
  EXPECT_TRUE(absl::IsNotFound(not_found.status()));
  EXPECT_NE(not_found.status().message().find("ssl.keystore.location"), absl::string_view::npos);

  TlsConfig encrypted_without_password;
  encrypted_without_password.keystore_type = "PEM";
  encrypted_without_password.keystore_key = ServerCert().encrypted_key_pem;
  encrypted_without_password.keystore_certificate_chain = ServerCert().cert_pem;
  EXPECT_TRUE(absl::IsInvalidArgument(MakeServerTlsContext(encrypted_without_password).status()));

  TlsConfig mismatched;
  mismatched.keystore_type = "PEM";
  mismatched.keystore_key = MakeCert("other").key_pem;
  mismatched.keystore_certificate_chain = ServerCert().cert_pem;
  EXPECT_TRUE(absl::IsInvalidArgument(MakeServerTlsContext(mismatched).status()));

  TlsConfig bad_protocol;
  bad_protocol.keystore_type = "PEM";
  bad_protocol.keystore_key = ServerCert().key_pem;
  bad_protocol.keystore_certificate_chain = ServerCert().cert_pem;
  bad_protocol.enabled_protocols = {"SSLv3"};
  EXPECT_NE(MakeServerTlsContext(bad_protocol).status().message().find("ssl.enabled.protocols"),
            absl::string_view::npos);
}

TEST(HttpsTest, StartFailsOnBadTlsConfig) {
  FakeHerder herder;
  boost::asio::io_context ioc;
  absl::StatusOr<RestConfig> config = ParseRestConfig({{"listeners", "https://127.0.0.1:0"}});
  ASSERT_TRUE(config.ok());
  RestServer server(ioc, herder, *config);
  absl::StatusOr<std::vector<BoundListener>> bound = server.Start();
  EXPECT_TRUE(absl::IsInvalidArgument(bound.status()));
  EXPECT_NE(bound.status().message().find("ssl.keystore.location"), absl::string_view::npos);
}

TEST(HttpsTest, CipherSuitesByIanaName) {
  TlsConfig tls;
  tls.keystore_type = "PEM";
  tls.keystore_key = ServerCert().key_pem;
  tls.keystore_certificate_chain = ServerCert().cert_pem;
  tls.cipher_suites = {"TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "TLS_AES_128_GCM_SHA256"};
  EXPECT_TRUE(MakeServerTlsContext(tls).ok()) << MakeServerTlsContext(tls).status();
  tls.cipher_suites = {"TLS_MADE_UP"};
  EXPECT_TRUE(absl::IsInvalidArgument(MakeServerTlsContext(tls).status()));
}

TEST(HttpsTest, ClientAuthRequired) {
  TestCert client_cert = MakeCert("client");
  RestTestEnv env(Props{{"listeners", "https://127.0.0.1:0"},
                        {"ssl.keystore.type", "PEM"},
                        {"ssl.keystore.key", ServerCert().key_pem},
                        {"ssl.keystore.certificate.chain", ServerCert().cert_pem},
                        {"ssl.client.auth", "required"},
                        {"ssl.truststore.type", "PEM"},
                        {"ssl.truststore.certificates", client_cert.cert_pem}});
  TestHttpClient anonymous(env.port(), TrustingClient());
  EXPECT_EQ(anonymous.Send("GET", "/").status, 0);

  auto with_cert = TrustingClient();
  boost::system::error_code ec;
  with_cert->use_certificate(boost::asio::buffer(client_cert.cert_pem), ssl::context::pem, ec);
  ASSERT_FALSE(ec) << ec.message();
  with_cert->use_private_key(boost::asio::buffer(client_cert.key_pem), ssl::context::pem, ec);
  ASSERT_FALSE(ec) << ec.message();
  TestHttpClient authenticated(env.port(), with_cert);
  HttpResult r = authenticated.Send("GET", "/");
  EXPECT_EQ(r.status, 200) << r.error;
}

// The JKS stores a Java worker's HTTPS listener names (written by keytool,
// tests/golden/keystores): its key and chain from a JKS keystore, client certificates checked
// against a JKS truststore (mutual TLS).
TEST(HttpsTest, JksKeystoreAndTruststoreWithClientAuth) {
  const std::string dir = CONNECTD_SOURCE_DIR "/tests/golden/keystores/";
  auto read = [&](const std::string& name) {
    std::ifstream in(dir + name, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  RestTestEnv env(Props{{"listeners", "https://127.0.0.1:0"},
                        {"listeners.https.ssl.keystore.location", dir + "keystore-keypass.jks"},
                        {"listeners.https.ssl.keystore.password", "changeit"},
                        {"listeners.https.ssl.key.password", "keypass"},
                        {"listeners.https.ssl.client.auth", "required"},
                        {"listeners.https.ssl.truststore.location", dir + "truststore.jks"},
                        {"listeners.https.ssl.truststore.password", "changeit"}});
  auto client_ctx = [&](bool with_cert) {
    auto ctx = std::make_shared<ssl::context>(ssl::context::tls_client);
    boost::system::error_code ec;
    ctx->add_certificate_authority(boost::asio::buffer(read("ca.pem")), ec);
    EXPECT_FALSE(ec) << ec.message();
    ctx->set_verify_mode(ssl::verify_peer, ec);
    if (with_cert) {
      ctx->use_certificate(boost::asio::buffer(read("client.pem")), ssl::context::pem, ec);
      EXPECT_FALSE(ec) << ec.message();
      ctx->use_private_key(boost::asio::buffer(read("client-key.pem")), ssl::context::pem, ec);
      EXPECT_FALSE(ec) << ec.message();
    }
    return ctx;
  };
  TestHttpClient anonymous(env.port(), client_ctx(false));
  EXPECT_EQ(anonymous.Send("GET", "/").status, 0);
  TestHttpClient authenticated(env.port(), client_ctx(true));
  HttpResult r = authenticated.Send("GET", "/");
  EXPECT_EQ(r.status, 200) << r.error;
}

}  // namespace
}  // namespace connectd::rest::testing
