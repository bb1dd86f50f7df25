// connectd's group client over SASL/OAUTHBEARER against a real Kafka 4.4 broker (fixture cluster
// ctest-a, `scripts/kafka start --oauth`): its OAUTH listener validates RS256 JWTs with the JWKS
// of the test identity provider (scripts/lib/oidc_server.py), whose token endpoint gives the
// client connectd-oauth tokens for User:connectd-oauth, a principal that only the ACLs granted
// here empower. Tokens live 30 s and the listener ends a session after 20 s (or at the token's
// expiry) unless the client re-authenticates (KIP-368), so a member that stays stable for 45 s
// has fetched new tokens and re-authenticated on its open connections.
//
// Security settings come from a Java worker's keys through the translation `connectd
// distributed` uses: KIP-768's OAuthBearerLoginCallbackHandler with
// sasl.oauthbearer.token.endpoint.url and the JAAS options clientId/clientSecret, or Kafka's
// unsecured login (unsecuredLoginStringClaim_sub) on the OAUTH_UNSECURED listener.
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "runtime/kafka/protocol/broker_connection.h"
#include "tests/common/kafka_test_env.h"
#include "tests/unit/jvm/scoped_kafka_opts.h"
#include "tests/integration/kafka/worker_group_fixture.h"

namespace connectd::distributed {
namespace {

using kafka::protocol::ApiKey;
using kafka::protocol::BrokerConnection;
using kafka::protocol::SecurityConfig;
using ::testing::HasSubstr;

constexpr char kGroupPrefix[] = "connect-oauth";

class OAuthGroupTest : public WorkerGroupFixture {
 protected:
  OAuthGroupTest() : WorkerGroupFixture("connectd-oauth-test", kGroupPrefix) {}

  void SetUp() override {
    WorkerGroupFixture::SetUp();
    absl::StatusOr<testing::TestKafkaOAuth> oauth = testing::TestKafkaOAuthListeners("ctest-a");
    ASSERT_TRUE(oauth.ok()) << oauth.status();
    oauth_ = *oauth;
    // Java 4.x fetches tokens only from URLs listed here; so does connectd.
    allowed_urls_.emplace("-Dorg.apache.kafka.sasl.oauthbearer.allowed.urls=" + oauth_.token_url +
                          ",http://127.0.0.1:1/token");
    absl::StatusOr<std::string> plaintext = testing::TestKafkaBootstrap("ctest-a");
    ASSERT_TRUE(plaintext.ok()) << plaintext.status();
    GrantGroupAcls(*plaintext, "User:" + oauth_.client_id, kGroupPrefix);
    UseBootstrap(oauth_.bootstrap);
  }

  // A Java worker's OIDC client-credentials settings.
  absl::StatusOr<SecurityConfig> Oidc(const std::string& secret, const std::string& url = "") {
    return SecurityFromJava(
        {{"security.protocol", "SASL_PLAINTEXT"},
         {"sasl.mechanism", "OAUTHBEARER"},
         {"sasl.login.callback.handler.class",
          "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler"},
         {"sasl.oauthbearer.token.endpoint.url", url.empty() ? oauth_.token_url : url},
         {"sasl.jaas.config",
          "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required "
          "clientId=\"" +
              oauth_.client_id + "\" clientSecret=\"" + secret + "\";"}});
  }

  absl::Status ConnectTo(const std::string& bootstrap, const SecurityConfig& security,
                         std::shared_ptr<BrokerConnection>* out = nullptr) {
    UseBootstrap(bootstrap);
    absl::Status status = Connect("127.0.0.1", security, out);
    UseBootstrap(oauth_.bootstrap);
    return status;
  }

  testing::TestKafkaOAuth oauth_;
  std::optional<jvm::ScopedKafkaOpts> allowed_urls_;
};

TEST_F(OAuthGroupTest, AuthenticatesWithATokenFromTheTokenEndpoint) {
  absl::StatusOr<SecurityConfig> security = Oidc(oauth_.client_secret);
  ASSERT_TRUE(security.ok()) << security.status();
  ASSERT_TRUE(security->uses_sasl());
  EXPECT_EQ(security->sasl_mechanism, "OAUTHBEARER");
  ASSERT_NE(security->oauthbearer, nullptr);
  std::shared_ptr<BrokerConnection> connection;
  absl::Status status = ConnectTo(oauth_.bootstrap, *security, &connection);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(connection->VersionOf(ApiKey::kJoinGroup), 9);
  connection->Close();
}

TEST_F(OAuthGroupTest, TwoMembersStayStableAcrossTokenExpiryAndReauthentication) {
  absl::StatusOr<SecurityConfig> security = Oidc(oauth_.client_secret);
  ASSERT_TRUE(security.ok()) << security.status();
  Worker& w1 =
      StartWorker("http://w1:8083/", ConnectProtocolMode::kSessioned, GroupConfig(*security));
  Worker& w2 =
      StartWorker("http://w2:8083/", ConnectProtocolMode::kSessioned, GroupConfig(*security));
  std::vector<size_t> loads = AwaitStableSplit(std::chrono::seconds(40));
  ASSERT_EQ(loads.size(), 2u) << "no stable split over OAUTHBEARER";
  const int32_t generation = w1.Last().generation;
  const size_t rounds = w1.Count() + w2.Count();
  // Past the first tokens' expiry (30 s) and two session limits (20 s): the members' connections
  // re-authenticated with new tokens, or the broker would have closed them, which shows as a
  // new round.
  std::this_thread::sleep_for(std::chrono::seconds(45));
  EXPECT_EQ(w1.member->snapshot().state, GroupMember::State::kStable);
  EXPECT_EQ(w2.member->snapshot().state, GroupMember::State::kStable);
  EXPECT_EQ(w1.Last().generation, generation);
  EXPECT_EQ(w1.Count() + w2.Count(), rounds) << "a rebalance happened: a connection was lost";
  for (Worker* w : {&w1, &w2}) {
    std::lock_guard lock(w->mu);
    EXPECT_THAT(w->errors, ::testing::IsEmpty());
  }
}

TEST_F(OAuthGroupTest, AWrongSecretIsNamedAsTheTokenEndpointsRefusal) {
  absl::StatusOr<SecurityConfig> security = Oidc("not-the-secret");
  ASSERT_TRUE(security.ok()) << security.status();
  absl::Status status = ConnectTo(oauth_.bootstrap, *security);
  EXPECT_EQ(status.code(), absl::StatusCode::kUnauthenticated) << status;
  EXPECT_THAT(status.message(), HasSubstr("The response code 401 and error response"));
  EXPECT_THAT(status.message(), HasSubstr(oauth_.token_url));
  EXPECT_THAT(status.message(), ::testing::Not(HasSubstr("not-the-secret")));

  ErrorRecordingListener listener;
  auto member = GroupMember::Create(io_, GroupConfig(*security), &listener);
  member->Start();
  std::optional<absl::Status> error = listener.AwaitError(std::chrono::seconds(20));
  ASSERT_TRUE(error.has_value()) << "the listener never heard why the member cannot join";
  EXPECT_EQ(error->code(), absl::StatusCode::kUnauthenticated) << *error;
  StopAndWait(*member);
  EXPECT_FALSE(listener.joined());
}

TEST_F(OAuthGroupTest, AnUnreachableTokenEndpointIsUnavailable) {
  absl::StatusOr<SecurityConfig> security = Oidc(oauth_.client_secret, "http://127.0.0.1:1/token");
  ASSERT_TRUE(security.ok()) << security.status();
  absl::Status status = ConnectTo(oauth_.bootstrap, *security);
  EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable) << status;
  EXPECT_THAT(status.message(), HasSubstr("could not be reached"));
}

TEST_F(OAuthGroupTest, UnsecuredTokensPassOnlyWhereTheBrokerTakesThem) {
  absl::StatusOr<SecurityConfig> security = SecurityFromJava(
      {{"security.protocol", "SASL_PLAINTEXT"},
       {"sasl.mechanism", "OAUTHBEARER"},
       {"sasl.jaas.config",
        "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required "
        "unsecuredLoginStringClaim_sub=\"" +
            oauth_.client_id + "\";"}});
  ASSERT_TRUE(security.ok()) << security.status();
  std::shared_ptr<BrokerConnection> connection;
  absl::Status status = ConnectTo(oauth_.unsecured_bootstrap, *security, &connection);
  ASSERT_TRUE(status.ok()) << status;
  connection->Close();
  // The JWKS listener checks signatures: an unsigned token is refused there, in the broker's
  // words.
  status = ConnectTo(oauth_.bootstrap, *security);
  EXPECT_EQ(status.code(), absl::StatusCode::kUnauthenticated) << status;
  EXPECT_THAT(status.message(), HasSubstr("SASL authentication failed"));
}

}  // namespace
}  // namespace connectd::distributed
