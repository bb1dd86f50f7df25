#include "rest/rest_config.h"

#include <gtest/gtest.h>

#include "rest/cors.h"
#include "rest/response_headers.h"

namespace connectd::rest {
namespace {

using Props = std::map<std::string, std::string>;

std::string ErrorOf(const Props& props) {
  absl::StatusOr<RestConfig> config = ParseRestConfig(props);
  return config.ok() ? "" : std::string(config.status().message());
}

TEST(RestConfigTest, Defaults) {
  absl::StatusOr<RestConfig> config = ParseRestConfig({});
  ASSERT_TRUE(config.ok()) << config.status();
  ASSERT_EQ(config->listeners.size(), 1u);
  EXPECT_EQ(config->listeners[0].scheme, "http");
  EXPECT_EQ(config->listeners[0].host, "");
  EXPECT_EQ(config->listeners[0].port, 8083);
  EXPECT_FALSE(config->raw_listeners.has_value());
  EXPECT_TRUE(config->admin_endpoints_enabled);
  EXPECT_TRUE(config->topic_tracking_enabled);
  EXPECT_TRUE(config->topic_tracking_reset_enabled);
  EXPECT_TRUE(config->response_headers.empty());
  EXPECT_EQ(config->tls.keystore_type, "JKS");
  EXPECT_EQ(config->tls.client_auth, ClientAuth::kNone);
}

TEST(RestConfigTest, ListenersAndAdvertisedSettings) {
  absl::StatusOr<RestConfig> config =
      ParseRestConfig({{"listeners", "HTTP://myhost:8083, https://[::1]:0,http://10.0.0.1:9000"},
                       {"rest.advertised.host.name", "worker-1"},
                       {"rest.advertised.port", " 18083 "},
                       {"rest.advertised.listener", "HTTPS"}});
  ASSERT_TRUE(config.ok()) << config.status();
  ASSERT_EQ(config->listeners.size(), 3u);
  EXPECT_EQ(config->listeners[0].scheme, "http");
  EXPECT_EQ(config->listeners[0].host, "myhost");
  EXPECT_EQ(config->listeners[1].scheme, "https");
  EXPECT_EQ(config->listeners[1].host, "::1");
  EXPECT_EQ(config->listeners[1].port, 0);
  EXPECT_EQ(config->advertised_host_name, "worker-1");
  EXPECT_EQ(config->advertised_port, 18083);
  EXPECT_EQ(config->advertised_listener, "https");
}

TEST(RestConfigTest, ListenerErrorsUseConnectMessages) {
  EXPECT_EQ(ErrorOf({{"listeners", ""}}),
            "Invalid value for listeners, at least one URL is expected, ex: "
            "http://localhost:8080,https://localhost:8443.");
  EXPECT_EQ(ErrorOf({{"listeners", "http://:8083,,http://:8084"}}),
            "Empty URL found when parsing listeners list.");
  EXPECT_EQ(ErrorOf({{"listeners", "localhost:8083"}}),
            "Listener doesn't have the right format (protocol://hostname:port): localhost:8083");
  EXPECT_EQ(ErrorOf({{"listeners", "ftp://:21"}}),
            "Listener protocol must be either \"http\" or \"https\", but is: ftp://:21");
  EXPECT_EQ(ErrorOf({{"listeners", "http://:70000"}}),
            "Listener port must be between 0 and 65535: http://:70000");
  EXPECT_EQ(ErrorOf({{"rest.advertised.port", "abc"}}),
            "Invalid value abc for configuration rest.advertised.port: Not a number of type INT");
  EXPECT_EQ(ErrorOf({{"topic.tracking.enable", "maybe"}}),
            "Invalid value maybe for configuration topic.tracking.enable: Expected value to be "
            "either true or false");
  EXPECT_EQ(ErrorOf({{"ssl.client.auth", "sometimes"}}),
            "Invalid value sometimes for configuration ssl.client.auth: String must be one of: "
            "required, requested, none");
}

TEST(RestConfigTest, AdminListenersAndRestExtensions) {
  absl::StatusOr<RestConfig> blank = ParseRestConfig({{"admin.listeners", " "}});
  ASSERT_TRUE(blank.ok());
  EXPECT_FALSE(blank->admin_endpoints_enabled);
  absl::StatusOr<RestConfig> separate =
      ParseRestConfig({{"admin.listeners", "http://:9093, https://127.0.0.1:9094"},
                       {"admin.listeners.https.ssl.keystore.type", "PKCS12"}});
  ASSERT_TRUE(separate.ok()) << separate.status();
  EXPECT_TRUE(separate->admin_endpoints_enabled);
  ASSERT_EQ(separate->admin_listeners.size(), 2u);
  EXPECT_EQ(separate->admin_listeners[1].scheme, "https");
  EXPECT_EQ(separate->admin_listeners[1].port, 9094);
  EXPECT_EQ(separate->admin_tls.prefix, "admin.listeners.https.");
  EXPECT_EQ(separate->admin_tls.keystore_type, "PKCS12");
  EXPECT_EQ(separate->tls.prefix, "");  // the main listeners' keys are not the admin ones
  EXPECT_EQ(ParseRestConfig({{"admin.listeners", "http://:9093,,http://:9095"}}).status().message(),
            "Empty URL found when parsing admin.listeners list.");
  EXPECT_EQ(ParseRestConfig({{"admin.listeners", "ftp://:21"}}).status().message(),
            "Listener protocol must be either \"http\" or \"https\", but is: ftp://:21");
  absl::StatusOr<RestConfig> extension =
      ParseRestConfig({{"rest.extension.classes", "com.example.AuditExtension"}});
  EXPECT_TRUE(absl::IsUnimplemented(extension.status()));
  EXPECT_NE(extension.status().message().find("rest.extension.classes"), absl::string_view::npos);
  EXPECT_EQ(ParseRestConfig({{"rest.extension.classes", " "}})->basic_auth, nullptr);
}

TEST(RestConfigTest, TlsKeysUseTheHttpsPrefixAllOrNothing) {
  absl::StatusOr<RestConfig> plain = ParseRestConfig({{"ssl.keystore.type", "PEM"},
                                                      {"ssl.keystore.location", "/k.pem"},
                                                      {"ssl.client.auth", "required"},
                                                      {"ssl.enabled.protocols", "TLSv1.3"}});
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->tls.prefix, "");
  EXPECT_EQ(plain->tls.keystore_type, "PEM");
  EXPECT_EQ(plain->tls.keystore_location, "/k.pem");
  EXPECT_EQ(plain->tls.client_auth, ClientAuth::kRequired);
  EXPECT_EQ(plain->tls.enabled_protocols, (std::vector<std::string>{"TLSv1.3"}));

  // Any listeners.https.* key hides every unprefixed ssl.* key.
  absl::StatusOr<RestConfig> prefixed =
      ParseRestConfig({{"ssl.keystore.type", "PEM"},
                       {"ssl.client.auth", "required"},
                       {"listeners.https.ssl.keystore.location", "/p.p12"},
                       {"listeners.https.ssl.keystore.type", "PKCS12"}});
  ASSERT_TRUE(prefixed.ok());
  EXPECT_EQ(prefixed->tls.prefix, "listeners.https.");
  EXPECT_EQ(prefixed->tls.keystore_type, "PKCS12");
  EXPECT_EQ(prefixed->tls.client_auth, ClientAuth::kNone);
  EXPECT_EQ(prefixed->tls.KeyName("ssl.keystore.type"), "listeners.https.ssl.keystore.type");
}

TEST(HeaderRulesTest, ParsesConnectRuleSyntax) {
  auto rules = ParseHeaderRules(
      "set X-Frame-Options: DENY, add Cache-Control: no-cache,\"add X-List: a,b\", "
      "SETDATE Expires: 3600000, addDate X-When: 0");
  ASSERT_TRUE(rules.ok()) << rules.status();
  ASSERT_EQ(rules->size(), 5u);
  EXPECT_EQ((*rules)[0].action, HeaderRule::Action::kSet);
  EXPECT_EQ((*rules)[0].name, "X-Frame-Options");
  EXPECT_EQ((*rules)[0].value, "DENY");
  EXPECT_EQ((*rules)[2].value, "a,b");
  EXPECT_EQ((*rules)[3].action, HeaderRule::Action::kSetDate);
  EXPECT_EQ((*rules)[3].offset_millis, 3600000);
  EXPECT_TRUE(ParseHeaderRules("  ")->empty());
}

TEST(HeaderRulesTest, RejectsWhatConnectRejects) {
  EXPECT_EQ(ParseHeaderRules("set").status().message(),
            "Invalid format of header config 'set'. Expected: '[action] [header name]:[header "
            "value]'");
  EXPECT_EQ(ParseHeaderRules("put X: y").status().message(),
            "Invalid header config action: 'put'. Expected one of [set, add, setDate, addDate]");
  EXPECT_EQ(ParseHeaderRules("set X-Foo").status().message(),
            "Invalid format of header name and header value pair 'X-Foo'. Expected: '[header "
            "name]:[header value]'");
  EXPECT_EQ(ParseHeaderRules("set X Y: z").status().message(),
            "Invalid header name 'X Y'. The '[header name]' cannot contain whitespace");
  EXPECT_FALSE(ParseHeaderRules("set X: a:b").ok());
  EXPECT_FALSE(ParseHeaderRules("setDate X: soon").ok());
  absl::StatusOr<RestConfig> config = ParseRestConfig({{"response.http.headers.config", "bogus"}});
  EXPECT_NE(config.status().message().find("response.http.headers.config"),
            absl::string_view::npos);
}

TEST(HeaderRulesTest, AppliesInOrder) {
  auto rules = ParseHeaderRules("set A: 1, add A: 2, add B: x, set B: y, setDate D: 1000");
  ASSERT_TRUE(rules.ok());
  HeaderList headers;
  ApplyHeaderRules(*rules, std::chrono::system_clock::from_time_t(784111777), headers);
  EXPECT_EQ(
      headers,
      (HeaderList{{"A", "1"}, {"A", "2"}, {"B", "y"}, {"D", "Sun, 06 Nov 1994 08:49:38 GMT"}}));
}

TEST(CorsFilterTest, DisabledWhenOriginBlank) {
  CorsFilter cors("", "");
  EXPECT_FALSE(cors.enabled());
  EXPECT_TRUE(cors.HeadersFor("GET", "http://a", std::nullopt, std::nullopt).empty());
}

TEST(CorsFilterTest, SimpleAndPreflightRequests) {
  CorsFilter cors("http://a.example, https://*.corp.example", "GET,PUT");
  EXPECT_EQ(cors.HeadersFor("GET", "http://a.example", std::nullopt, std::nullopt),
            (HeaderList{{"Access-Control-Allow-Origin", "http://a.example"},
                        {"Vary", "Origin"},
                        {"Access-Control-Allow-Credentials", "true"}}));
  EXPECT_FALSE(
      cors.HeadersFor("GET", "https://x.corp.example", std::nullopt, std::nullopt).empty());
  EXPECT_TRUE(cors.HeadersFor("GET", "http://evil.example", std::nullopt, std::nullopt).empty());
  EXPECT_TRUE(cors.HeadersFor("GET", std::nullopt, std::nullopt, std::nullopt).empty());

  HeaderList preflight = cors.HeadersFor("OPTIONS", "http://a.example", "PUT", "content-type");
  EXPECT_EQ(FindHeader(preflight, "Access-Control-Allow-Methods"), "GET,PUT");
  EXPECT_EQ(FindHeader(preflight, "Access-Control-Max-Age"), "1800");
  EXPECT_EQ(FindHeader(preflight, "Access-Control-Allow-Headers"),
            "X-Requested-With,Content-Type,Accept,Origin");
  // A method or header outside the allowed lists gets no CORS headers.
  EXPECT_TRUE(cors.HeadersFor("OPTIONS", "http://a.example", "DELETE", std::nullopt).empty());
  EXPECT_TRUE(cors.HeadersFor("OPTIONS", "http://a.example", "GET", "X-Secret").empty());

  CorsFilter any("*", "");
  HeaderList star = any.HeadersFor("OPTIONS", "http://z", "POST", std::nullopt);
  EXPECT_EQ(FindHeader(star, "Access-Control-Allow-Origin"), "http://z");
  EXPECT_EQ(FindHeader(star, "Access-Control-Allow-Methods"), "GET,POST,HEAD");
  EXPECT_FALSE(FindHeader(star, "Vary").has_value());
}

}  // namespace
}  // namespace connectd::rest
