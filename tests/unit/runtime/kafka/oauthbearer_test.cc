// The group client's OAUTHBEARER pieces: the first SASL message as Kafka's
// OAuthBearerClientInitialResponse writes it, unsecured JWTs as Kafka's unsecured validator reads
// them, what a JWT says about itself, and the token sources the properties describe. The token
// endpoint itself is exercised against the test identity provider in
// tests/integration/kafka/oauth_group_test.cc.
#include "runtime/kafka/protocol/oauthbearer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <future>

#include "absl/strings/escaping.h"
#include "absl/strings/str_split.h"
#include "tests/unit/jvm/scoped_kafka_opts.h"

namespace connectd::kafka::protocol {
namespace {

using ::testing::HasSubstr;

TEST(OAuthBearerTest, InitialResponseIsKafkasGs2HeaderTokenAndExtensions) {
  // OAuthBearerClientInitialResponse: "n,%s,%sauth=Bearer %s%s%s%s" with 0x01 separators.
  EXPECT_EQ(OAuthBearerInitialResponse("abc.def.", {}),
            "n,,\x01"
            "auth=Bearer abc.def.\x01\x01");
  EXPECT_EQ(OAuthBearerInitialResponse("t", {{"a", "1"}, {"b", "2"}}),
            "n,,\x01"
            "auth=Bearer t\x01"
            "a=1\x01"
            "b=2\x01\x01");
}

TEST(OAuthBearerTest, UnsecuredJwtCarriesThePrincipalScopeAndLifetime) {
  const auto issued = std::chrono::system_clock::time_point(std::chrono::seconds(1700000000));
  std::string jwt =
      UnsecuredJwt("sub", "alice", "scope", {"read", "write"}, issued, std::chrono::seconds(600));
  std::vector<std::string> parts = absl::StrSplit(jwt, '.');
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[2], "") << "an unsecured JWS has an empty signature";
  std::string header, claims;
  ASSERT_TRUE(absl::WebSafeBase64Unescape(parts[0], &header));
  ASSERT_TRUE(absl::WebSafeBase64Unescape(parts[1], &claims));
  EXPECT_EQ(header, R"({"alg":"none"})");
  EXPECT_EQ(claims,
            R"({"iat":1700000000,"exp":1700000600,"sub":"alice","scope":["read","write"]})");

  absl::StatusOr<OAuthBearerToken> token = ParseJwtClaims(jwt);
  ASSERT_TRUE(token.ok()) << token.status();
  EXPECT_EQ(token->principal, "alice");
  EXPECT_EQ(token->expires, issued + std::chrono::seconds(600));
  EXPECT_EQ(token->refresh_at, issued + std::chrono::seconds(480)) << "80% of the lifetime";
}

TEST(OAuthBearerTest, ParseJwtClaimsRefusesWhatIsNoJwt) {
  EXPECT_FALSE(ParseJwtClaims("not-a-jwt").ok());
  EXPECT_FALSE(ParseJwtClaims("a.b").ok());
  std::string no_exp;
  absl::WebSafeBase64Escape(R"({"sub":"x"})", &no_exp);
  absl::StatusOr<OAuthBearerToken> token = ParseJwtClaims("e30." + no_exp + ".sig");
  EXPECT_EQ(token.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(token.status().message(), HasSubstr("exp"));
}

absl::StatusOr<OAuthBearerToken> GetNow(OAuthBearerTokenSource& source) {
  std::promise<absl::StatusOr<OAuthBearerToken>> got;
  source.Get([&got](absl::StatusOr<OAuthBearerToken> t) { got.set_value(std::move(t)); });
  return got.get_future().get();
}

TEST(OAuthBearerTest, AnUnsecuredSourceFromLibrdkafkasConfigString) {
  auto source = OAuthBearerTokenSource::FromProperties(
      {{"enable.sasl.oauthbearer.unsecure.jwt", "true"},
       {"sasl.oauthbearer.config",
        "principalClaimName=azp principal=svc scope=a,b lifeSeconds=60 extension_x=1"},
       {"sasl.oauthbearer.extensions", "y=2"}});
  ASSERT_TRUE(source.ok()) << source.status();
  EXPECT_EQ((*source)->extensions(), (std::map<std::string, std::string>{{"x", "1"}, {"y", "2"}}));
  absl::StatusOr<OAuthBearerToken> token = GetNow(**source);
  ASSERT_TRUE(token.ok()) << token.status();
  EXPECT_EQ(token->principal, "svc");
  EXPECT_EQ(ParseJwtClaims(token->value, "azp")->principal, "svc");
  const auto now = std::chrono::system_clock::now();
  EXPECT_GT(token->expires, now + std::chrono::seconds(58));
  EXPECT_LE(token->expires, now + std::chrono::seconds(60));
}

TEST(OAuthBearerTest, IncompleteSettingsNameWhatIsMissing) {
  struct Case {
    std::map<std::string, std::string> properties;
    std::string named;
  };
  for (const Case& c : std::vector<Case>{
           {{}, "needs a token source"},
           {{{"enable.sasl.oauthbearer.unsecure.jwt", "true"}}, "principal="},
           {{{"enable.sasl.oauthbearer.unsecure.jwt", "true"},
             {"sasl.oauthbearer.config", "principal=a colour=blue"}},
            "colour"},
           {{{"sasl.oauthbearer.method", "oidc"},
             {"sasl.oauthbearer.client.id", "c"},
             {"sasl.oauthbearer.client.secret", "s"}},
            "sasl.oauthbearer.token.endpoint.url"},
           {{{"sasl.oauthbearer.method", "oidc"},
             {"sasl.oauthbearer.token.endpoint.url", "ftp://idp/token"},
             {"sasl.oauthbearer.client.id", "c"},
             {"sasl.oauthbearer.client.secret", "s"}},
            "not an http"},
           {{{"sasl.oauthbearer.method", "magic"}}, "sasl.oauthbearer.method"},
           {{{"enable.sasl.oauthbearer.unsecure.jwt", "true"},
             {"sasl.oauthbearer.config", "principal=a"},
             {"sasl.oauthbearer.extensions", "novalue"}},
            "sasl.oauthbearer.extensions"},
       }) {
    auto source = OAuthBearerTokenSource::FromProperties(c.properties);
    EXPECT_EQ(source.status().code(), absl::StatusCode::kInvalidArgument) << c.named;
    EXPECT_THAT(source.status().message(), HasSubstr(c.named));
  }
}

TEST(OAuthBearerTest, AnOidcSourceOnlyForAnAllowedUrl) {
  auto source = OAuthBearerTokenSource::FromProperties(
      {{"sasl.oauthbearer.method", "oidc"},
       {"sasl.oauthbearer.token.endpoint.url", "http://127.0.0.1:1/other"},
       {"sasl.oauthbearer.client.id", "c"},
       {"sasl.oauthbearer.client.secret", "never-printed"}});
  EXPECT_EQ(source.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_THAT(source.status().message(),
              HasSubstr("org.apache.kafka.sasl.oauthbearer.allowed.urls"));
}

TEST(OAuthBearerTest, AnOidcSourceThatCannotReachItsEndpointSaysSoAndCanBeDestroyed) {
  jvm::ScopedKafkaOpts opts(
      "-Dorg.apache.kafka.sasl.oauthbearer.allowed.urls=http://127.0.0.1:1/token");
  auto source = OAuthBearerTokenSource::FromProperties(
      {{"sasl.oauthbearer.method", "oidc"},
       {"sasl.oauthbearer.token.endpoint.url", "http://127.0.0.1:1/token"},
       {"sasl.oauthbearer.client.id", "c"},
       {"sasl.oauthbearer.client.secret", "never-printed"}});
  ASSERT_TRUE(source.ok()) << source.status();
  absl::StatusOr<OAuthBearerToken> token = GetNow(**source);
  EXPECT_EQ(token.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(token.status().message(), HasSubstr("http://127.0.0.1:1/token"));
  EXPECT_THAT(token.status().message(), ::testing::Not(HasSubstr("never-printed")));
  source->reset();  // joins its fetch thread
}

}  // namespace
}  // namespace connectd::kafka::protocol
