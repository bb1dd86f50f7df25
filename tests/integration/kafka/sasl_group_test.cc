// connectd's group client over SASL_PLAINTEXT, against the SASL listener of a real Kafka 4.4
// broker (fixture cluster ctest-a, started with `scripts/kafka start --sasl`: mechanisms PLAIN,
// SCRAM-SHA-256 and SCRAM-SHA-512, one user whose SCRAM credentials were created at format time).
// Security settings come from a worker's Java keys (security.protocol, sasl.mechanism and a
// PlainLoginModule / ScramLoginModule sasl.jaas.config) through the translation `connectd
// distributed` uses. For each mechanism, two WorkerCoordinators join one `connect` group and split
// the work; a wrong password fails with a clear authentication error and no crash.
#include <map>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "runtime/kafka/protocol/broker_connection.h"
#include "tests/common/kafka_test_env.h"
#include "tests/integration/kafka/worker_group_fixture.h"

namespace connectd::distributed {
namespace {

using kafka::protocol::ApiKey;
using kafka::protocol::BrokerConnection;
using kafka::protocol::SecurityConfig;
using ::testing::HasSubstr;

// What `connectd distributed` makes of a worker's Java client keys for SASL `mechanism`.
absl::StatusOr<SecurityConfig> JavaSasl(const std::string& mechanism, const std::string& username,
                                        const std::string& password) {
  std::string module = mechanism == "PLAIN"
                           ? "org.apache.kafka.common.security.plain.PlainLoginModule"
                           : "org.apache.kafka.common.security.scram.ScramLoginModule";
  return SecurityFromJava({{"security.protocol", "SASL_PLAINTEXT"},
                           {"sasl.mechanism", mechanism},
                           {"sasl.jaas.config", module + " required username=\"" + username +
                                                    "\" password=\"" + password + "\";"}});
}

// The parameter is the SASL mechanism.
class SaslGroupTest : public WorkerGroupFixture, public ::testing::WithParamInterface<std::string> {
 protected:
  SaslGroupTest() : WorkerGroupFixture("connectd-sasl-test", "connect-sasl") {}

  void SetUp() override {
    WorkerGroupFixture::SetUp();
    absl::StatusOr<testing::TestKafkaSasl> sasl = testing::TestKafkaSaslListener("ctest-a");
    ASSERT_TRUE(sasl.ok()) << sasl.status();
    sasl_ = *sasl;
    UseBootstrap(sasl_.bootstrap);
  }

  absl::StatusOr<SecurityConfig> Security(const std::string& password) {
    return JavaSasl(GetParam(), sasl_.username, password);
  }

  absl::Status Connect(const SecurityConfig& security,
                       std::shared_ptr<BrokerConnection>* out = nullptr) {
    return WorkerGroupFixture::Connect("127.0.0.1", security, out);
  }

  Worker& AddWorker(const std::string& url, const SecurityConfig& security) {
    return StartWorker(url, ConnectProtocolMode::kSessioned, GroupConfig(security));
  }

  testing::TestKafkaSasl sasl_;
};

TEST_P(SaslGroupTest, AuthenticatesAndNegotiatesVersions) {
  absl::StatusOr<SecurityConfig> security = Security(sasl_.password);
  ASSERT_TRUE(security.ok()) << security.status();
  ASSERT_TRUE(security->uses_sasl());
  ASSERT_FALSE(security->uses_tls());
  EXPECT_EQ(security->sasl_mechanism, GetParam());
  std::shared_ptr<BrokerConnection> connection;
  absl::Status status = Connect(*security, &connection);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(connection->VersionOf(ApiKey::kJoinGroup), 9);
  connection->Close();
}

TEST_P(SaslGroupTest, TwoWorkerCoordinatorsJoinOverSaslAndBalance) {
  absl::StatusOr<SecurityConfig> security = Security(sasl_.password);
  ASSERT_TRUE(security.ok()) << security.status();
  Worker& w1 = AddWorker("http://w1:8083/", *security);
  ASSERT_EQ(AwaitStableSplit(std::chrono::seconds(30)), std::vector<size_t>{9});
  {
    std::lock_guard lock(w1.mu);
    EXPECT_EQ(w1.events.back().protocol, "sessioned");
    EXPECT_EQ(w1.events.back().assignment.leader_url, "http://w1:8083/");
  }
  // The coordinator FindCoordinator named is the SASL listener the request came in on.
  EXPECT_EQ(w1.member->snapshot().coordinator, sasl_.bootstrap);

  Worker& w2 = AddWorker("http://w2:8083/", *security);
  std::vector<size_t> loads = AwaitStableSplit(std::chrono::seconds(40));
  ASSERT_EQ(loads.size(), 2u) << "no stable, complete and disjoint split over SASL";
  EXPECT_LE(std::max(loads[0], loads[1]) - std::min(loads[0], loads[1]), 1u)
      << loads[0] << " vs " << loads[1];
  EXPECT_EQ(w1.member->snapshot().state, GroupMember::State::kStable);
  EXPECT_EQ(w2.member->snapshot().state, GroupMember::State::kStable);
  for (Worker* w : {&w1, &w2}) {
    std::lock_guard lock(w->mu);
    EXPECT_THAT(w->errors, ::testing::IsEmpty());
  }
}

TEST_P(SaslGroupTest, WrongPasswordFailsWithAClearAuthenticationError) {
  absl::StatusOr<SecurityConfig> security = Security("not-" + sasl_.password);
  ASSERT_TRUE(security.ok()) << security.status();
  absl::Status status = Connect(*security);
  EXPECT_EQ(status.code(), absl::StatusCode::kUnauthenticated) << status;
  EXPECT_THAT(status.message(), HasSubstr("SASL authentication failed"));
  // The broker's own words (Java's SaslAuthenticationException message).
  EXPECT_THAT(status.message(), HasSubstr("Authentication failed")) << status;

  // A group member keeps retrying, tells its listener why it cannot join, and stops cleanly.
  ErrorRecordingListener listener;
  auto member = GroupMember::Create(io_, GroupConfig(*security), &listener);
  member->Start();
  std::optional<absl::Status> error = listener.AwaitError(std::chrono::seconds(20));
  ASSERT_TRUE(error.has_value()) << "the listener never heard why the member cannot join";
  EXPECT_EQ(error->code(), absl::StatusCode::kUnauthenticated) << *error;
  EXPECT_THAT(error->message(), HasSubstr("SASL authentication failed"));
  EXPECT_NE(member->snapshot().state, GroupMember::State::kStable);
  StopAndWait(*member);
  EXPECT_EQ(member->snapshot().state, GroupMember::State::kStopped);
  EXPECT_FALSE(listener.joined());
}

INSTANTIATE_TEST_SUITE_P(Mechanisms, SaslGroupTest,
                         ::testing::Values("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           std::erase(name, '-');
                           return name;
                         });

}  // namespace
}  // namespace connectd::distributed
