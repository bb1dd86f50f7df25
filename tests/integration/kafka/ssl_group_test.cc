// connectd's group client over TLS, against the SSL listener of a real Kafka 4.4 broker (fixture
// cluster ctest-a, started with `scripts/kafka start --ssl`: a throw-away CA signed the broker's
// certificate for IP:127.0.0.1 and DNS:localhost). Security settings come from a worker's Java
// keys (security.protocol=SSL, ssl.truststore.type=PEM, ssl.truststore.location) through the
// translation `connectd distributed` uses, with hostname verification on (Java's default,
// ssl.endpoint.identification.algorithm=https). Two WorkerCoordinators join one `connect` group
// and split the work; a wrong CA or a PLAINTEXT client fails with a clear error and no crash.
#include <chrono>
#include <map>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "runtime/kafka/protocol/broker_connection.h"
#include "tests/common/kafka_test_env.h"
#include "tests/integration/kafka/worker_group_fixture.h"
#include "tests/unit/rest/test_certs.h"

namespace connectd::distributed {
namespace {

using kafka::protocol::ApiKey;
using kafka::protocol::BrokerConnection;
using kafka::protocol::SecurityConfig;
using ::testing::HasSubstr;

// What `connectd distributed` makes of a worker's Java client keys.
absl::StatusOr<SecurityConfig> FromJava(const std::map<std::string, std::string>& java) {
  return SecurityFromJava(java);
}

std::map<std::string, std::string> JavaSsl(const std::string& ca_location) {
  return {{"security.protocol", "SSL"},
          {"ssl.truststore.type", "PEM"},
          {"ssl.truststore.location", ca_location}};
}

// A CA that did not sign the broker's certificate, given inline as Java's
// ssl.truststore.certificates.
std::map<std::string, std::string> JavaSslWithWrongCa() {
  return {{"security.protocol", "SSL"},
          {"ssl.truststore.type", "PEM"},
          {"ssl.truststore.certificates", rest::testing::MakeCert("not the test CA").cert_pem}};
}

class SslGroupTest : public WorkerGroupFixture {
 protected:
  SslGroupTest() : WorkerGroupFixture("connectd-ssl-test", "connect-ssl") {}

  void SetUp() override {
    WorkerGroupFixture::SetUp();
    absl::StatusOr<testing::TestKafkaSsl> ssl = testing::TestKafkaSslListener("ctest-a");
    ASSERT_TRUE(ssl.ok()) << ssl.status();
    ssl_ = *ssl;
    UseBootstrap(ssl_.bootstrap);
  }

  Worker& AddWorker(const std::string& url, const SecurityConfig& security) {
    return StartWorker(url, ConnectProtocolMode::kSessioned, GroupConfig(security));
  }

  testing::TestKafkaSsl ssl_;
};

TEST_F(SslGroupTest, ConnectsWithTheClusterCaAndVerifiesTheHostName) {
  absl::StatusOr<SecurityConfig> security = FromJava(JavaSsl(ssl_.ca_location));
  ASSERT_TRUE(security.ok()) << security.status();
  ASSERT_TRUE(security->uses_tls());
  EXPECT_TRUE(security->verify_hostname) << "Java's default: https";
  // The certificate names both: IP:127.0.0.1 and DNS:localhost.
  for (const std::string host : {"127.0.0.1", "localhost"}) {
    std::shared_ptr<BrokerConnection> connection;
    absl::Status status = Connect(host, *security, &connection);
    ASSERT_TRUE(status.ok()) << host << ": " << status;
    EXPECT_EQ(connection->VersionOf(ApiKey::kJoinGroup), 9) << host;
    connection->Close();
  }
}

TEST_F(SslGroupTest, TwoWorkerCoordinatorsJoinOverSslAndBalance) {
  absl::StatusOr<SecurityConfig> security = FromJava(JavaSsl(ssl_.ca_location));
  ASSERT_TRUE(security.ok()) << security.status();
  Worker& w1 = AddWorker("http://w1:8083/", *security);
  ASSERT_EQ(AwaitStableSplit(std::chrono::seconds(30)), std::vector<size_t>{9});
  {
    std::lock_guard lock(w1.mu);
    EXPECT_EQ(w1.events.back().protocol, "sessioned");
    EXPECT_EQ(w1.events.back().assignment.leader_url, "http://w1:8083/");
  }
  // The coordinator FindCoordinator named is the SSL listener the request came in on.
  EXPECT_EQ(w1.member->snapshot().coordinator, ssl_.bootstrap);

  Worker& w2 = AddWorker("http://w2:8083/", *security);
  std::vector<size_t> loads = AwaitStableSplit(std::chrono::seconds(40));
  ASSERT_EQ(loads.size(), 2u) << "no stable, complete and disjoint split over SSL";
  EXPECT_LE(std::max(loads[0], loads[1]) - std::min(loads[0], loads[1]), 1u)
      << loads[0] << " vs " << loads[1];
  EXPECT_EQ(w1.member->snapshot().state, GroupMember::State::kStable);
  EXPECT_EQ(w2.member->snapshot().state, GroupMember::State::kStable);
  for (Worker* w : {&w1, &w2}) {
    std::lock_guard lock(w->mu);
    EXPECT_THAT(w->errors, ::testing::IsEmpty());
  }
}

TEST_F(SslGroupTest, WrongCaFailsTheHandshakeWithAClearError) {
  absl::StatusOr<SecurityConfig> security = FromJava(JavaSslWithWrongCa());
  ASSERT_TRUE(security.ok()) << security.status();
  absl::Status status = Connect("127.0.0.1", *security);
  EXPECT_EQ(status.code(), absl::StatusCode::kUnauthenticated) << status;
  EXPECT_THAT(status.message(), HasSubstr("TLS handshake with 127.0.0.1:" + std::to_string(port_)));
  EXPECT_THAT(status.message(), HasSubstr("certificate verify failed"));

  // A group member keeps retrying, tells its listener why it cannot join, and stops cleanly.
  ErrorRecordingListener listener;
  auto member = GroupMember::Create(io_, GroupConfig(*security), &listener);
  member->Start();
  std::optional<absl::Status> error = listener.AwaitError(std::chrono::seconds(20));
  ASSERT_TRUE(error.has_value()) << "the listener never heard why the member cannot join";
  EXPECT_EQ(error->code(), absl::StatusCode::kUnauthenticated) << *error;
  EXPECT_THAT(error->message(), HasSubstr("certificate verify failed"));
  EXPECT_NE(member->snapshot().state, GroupMember::State::kStable);
  StopAndWait(*member);
  EXPECT_EQ(member->snapshot().state, GroupMember::State::kStopped);
  EXPECT_FALSE(listener.joined());
}

TEST_F(SslGroupTest, PlaintextClientOnTheSslListenerFailsWithoutHanging) {
  absl::StatusOr<SecurityConfig> plaintext = FromJava({});
  ASSERT_TRUE(plaintext.ok());
  auto started = std::chrono::steady_clock::now();
  absl::Status status = Connect("127.0.0.1", *plaintext);
  // The broker's TLS engine answers the ApiVersions request with a TLS alert.
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << status;
  EXPECT_THAT(status.message(), HasSubstr("the broker speaks TLS on this port"));
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(15)) << status;
}

}  // namespace
}  // namespace connectd::distributed
