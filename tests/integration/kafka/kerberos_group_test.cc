// connectd's group client over SASL/GSSAPI (Kerberos) against a real Kafka 4.4 broker (fixture
// cluster ctest-a, `scripts/kafka start --kerberos`): its GSSAPI listener, advertised as
// localhost, accepts tickets for kafka/localhost@CONNECTD.TEST from a throw-away MIT KDC, and the
// client principal connectd-krb is User:connectd-krb, which only the ACLs granted here empower;
// a session ends after 20 s unless the client re-authenticates (KIP-368).
// Security settings come from a Java worker's keys (Krb5LoginModule with useKeyTab, keyTab and
// principal; sasl.kerberos.service.name) through the translation `connectd distributed` uses;
// MIT's library finds the KDC through KRB5_CONFIG, as a Java worker through
// -Djava.security.krb5.conf.
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <thread>
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

constexpr char kGroupPrefix[] = "connect-krb";

class KerberosGroupTest : public WorkerGroupFixture {
 protected:
  KerberosGroupTest() : WorkerGroupFixture("connectd-krb-test", kGroupPrefix) {}

  void SetUp() override {
    WorkerGroupFixture::SetUp();
    absl::StatusOr<testing::TestKafkaKerberos> kerberos =
        testing::TestKafkaKerberosListener("ctest-a");
    ASSERT_TRUE(kerberos.ok()) << kerberos.status();
    kerberos_ = *kerberos;
    // Before any Kerberos call in this process (MIT reads it when a context is made).
    setenv("KRB5_CONFIG", kerberos_.krb5_conf.c_str(), 1);
    absl::StatusOr<std::string> plaintext = testing::TestKafkaBootstrap("ctest-a");
    ASSERT_TRUE(plaintext.ok()) << plaintext.status();
    const std::string user = kerberos_.principal.substr(0, kerberos_.principal.find('@'));
    GrantGroupAcls(*plaintext, "User:" + user, kGroupPrefix);
    UseBootstrap(kerberos_.bootstrap);
  }

  // A Java worker's keytab login.
  absl::StatusOr<SecurityConfig> Keytab(const std::string& principal, const std::string& keytab,
                                        const std::string& service = "kafka") {
    return SecurityFromJava(
        {{"security.protocol", "SASL_PLAINTEXT"},
         {"sasl.mechanism", "GSSAPI"},
         {"sasl.kerberos.service.name", service},
         {"sasl.jaas.config",
          "com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true storeKey=true "
          "keyTab=\"" +
              keytab + "\" principal=\"" + principal + "\";"}});
  }

  absl::Status ConnectToBroker(const SecurityConfig& security,
                               std::shared_ptr<BrokerConnection>* out = nullptr) {
    return Connect("localhost", security, out);
  }

  testing::TestKafkaKerberos kerberos_;
};

TEST_F(KerberosGroupTest, AuthenticatesWithAKeytab) {
  absl::StatusOr<SecurityConfig> security = Keytab(kerberos_.principal, kerberos_.keytab);
  ASSERT_TRUE(security.ok()) << security.status();
  EXPECT_EQ(security->sasl_mechanism, "GSSAPI");
  ASSERT_NE(security->kerberos, nullptr);
  std::shared_ptr<BrokerConnection> connection;
  absl::Status status = ConnectToBroker(*security, &connection);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(connection->VersionOf(ApiKey::kJoinGroup), 9);
  connection->Close();
}

TEST_F(KerberosGroupTest, TwoWorkerCoordinatorsJoinOverKerberosAndBalance) {
  absl::StatusOr<SecurityConfig> security = Keytab(kerberos_.principal, kerberos_.keytab);
  ASSERT_TRUE(security.ok()) << security.status();
  Worker& w1 =
      StartWorker("http://w1:8083/", ConnectProtocolMode::kSessioned, GroupConfig(*security));
  Worker& w2 =
      StartWorker("http://w2:8083/", ConnectProtocolMode::kSessioned, GroupConfig(*security));
  std::vector<size_t> loads = AwaitStableSplit(std::chrono::seconds(40));
  ASSERT_EQ(loads.size(), 2u) << "no stable split over GSSAPI";
  // The coordinator FindCoordinator named is the GSSAPI listener, by its advertised name.
  EXPECT_EQ(w1.member->snapshot().coordinator, kerberos_.bootstrap);
  for (Worker* w : {&w1, &w2}) {
    std::lock_guard lock(w->mu);
    EXPECT_THAT(w->errors, ::testing::IsEmpty());
  }
}

TEST_F(KerberosGroupTest, TwoMembersStayStableAcrossSessionLimits) {
  // The listener ends a session after 20 s unless the client re-authenticates (KIP-368): a
  // member whose connection were cut would rejoin, which shows as a new round.
  absl::StatusOr<SecurityConfig> security = Keytab(kerberos_.principal, kerberos_.keytab);
  ASSERT_TRUE(security.ok()) << security.status();
  Worker& w1 =
      StartWorker("http://w1:8083/", ConnectProtocolMode::kSessioned, GroupConfig(*security));
  Worker& w2 =
      StartWorker("http://w2:8083/", ConnectProtocolMode::kSessioned, GroupConfig(*security));
  ASSERT_EQ(AwaitStableSplit(std::chrono::seconds(40)).size(), 2u);
  const int32_t generation = w1.Last().generation;
  const size_t rounds = w1.Count() + w2.Count();
  std::this_thread::sleep_for(std::chrono::seconds(45));
  EXPECT_EQ(w1.member->snapshot().state, GroupMember::State::kStable);
  EXPECT_EQ(w2.member->snapshot().state, GroupMember::State::kStable);
  EXPECT_EQ(w1.Last().generation, generation);
  EXPECT_EQ(w1.Count() + w2.Count(), rounds) << "a rebalance happened: a connection was lost";
}

TEST_F(KerberosGroupTest, FailuresSayWhatKerberosSaid) {
  // A principal the KDC does not know.
  absl::StatusOr<SecurityConfig> stranger = Keytab("nobody@CONNECTD.TEST", kerberos_.keytab);
  ASSERT_TRUE(stranger.ok()) << stranger.status();
  absl::Status status = ConnectToBroker(*stranger);
  EXPECT_EQ(status.code(), absl::StatusCode::kUnauthenticated) << status;
  EXPECT_THAT(status.message(), HasSubstr("GSSAPI"));
  EXPECT_THAT(status.message(), HasSubstr("nobody@CONNECTD.TEST"));

  // A service the KDC has no principal for.
  absl::StatusOr<SecurityConfig> wrong_service =
      Keytab(kerberos_.principal, kerberos_.keytab, "zookeeper");
  ASSERT_TRUE(wrong_service.ok()) << wrong_service.status();
  status = ConnectToBroker(*wrong_service);
  EXPECT_EQ(status.code(), absl::StatusCode::kUnauthenticated) << status;
  EXPECT_THAT(status.message(), HasSubstr("zookeeper@localhost"));

  // The group member reports it and keeps retrying until stopped.
  ErrorRecordingListener listener;
  auto member = GroupMember::Create(io_, GroupConfig(*stranger), &listener);
  member->Start();
  std::optional<absl::Status> error = listener.AwaitError(std::chrono::seconds(20));
  ASSERT_TRUE(error.has_value()) << "the listener never heard why the member cannot join";
  EXPECT_EQ(error->code(), absl::StatusCode::kUnauthenticated) << *error;
  StopAndWait(*member);
  EXPECT_FALSE(listener.joined());
}

}  // namespace
}  // namespace connectd::distributed
