// connectd's own Kafka protocol client against a real Kafka 4.4 broker: version negotiation,
// FindCoordinator, a `connect` group joined, synced, heartbeated and left with the messages of
// runtime/kafka/protocol, and failures reported as statuses.
#include "runtime/kafka/protocol/broker_connection.h"

#include <future>
#include <thread>

#include <gtest/gtest.h>
#include <boost/asio/executor_work_guard.hpp>

#include "tests/common/kafka_test_env.h"

namespace connectd::kafka::protocol {
namespace {

class BrokerConnectionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::string> bootstrap = testing::TestKafkaBootstrap("ctest-a");
    ASSERT_TRUE(bootstrap.ok()) << bootstrap.status();
    size_t colon = bootstrap->rfind(':');
    host_ = bootstrap->substr(0, colon);
    port_ = static_cast<uint16_t>(std::stoi(bootstrap->substr(colon + 1)));
    thread_ = std::thread([this] { io_.run(); });
  }
  void TearDown() override {
    work_.reset();
    io_.stop();
    thread_.join();
  }

  std::shared_ptr<BrokerConnection> Connected(const std::string& host, uint16_t port) {
    BrokerConnection::Options options;
    options.host = host;
    options.port = port;
    options.client_id = "connectd-test";
    options.request_timeout = std::chrono::milliseconds(10000);
    auto connection = BrokerConnection::Create(io_, options);
    std::promise<absl::Status> connected;
    connection->Connect([&connected](absl::Status s) { connected.set_value(s); });
    absl::Status status = connected.get_future().get();
    EXPECT_TRUE(status.ok()) << status;
    return connection;
  }

  template <typename Response, typename Request>
  absl::StatusOr<Response> Call(BrokerConnection& connection, ApiKey key, Request request) {
    std::promise<absl::StatusOr<Response>> done;
    connection.Call<Response>(key, std::move(request), [&done](absl::StatusOr<Response> r) {
      done.set_value(std::move(r));
    });
    return done.get_future().get();
  }

  boost::asio::io_context io_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_ =
      boost::asio::make_work_guard(io_);
  std::thread thread_;
  std::string host_;
  uint16_t port_ = 0;
};

TEST_F(BrokerConnectionTest, NegotiatesTheGroupApisWithKafka4) {
  auto connection = Connected(host_, port_);
  // Kafka 4.x dropped JoinGroup v0-1; connectd speaks up to v9 and the broker too.
  EXPECT_EQ(connection->VersionOf(ApiKey::kJoinGroup), 9);
  EXPECT_EQ(connection->VersionOf(ApiKey::kSyncGroup), 5);
  EXPECT_EQ(connection->VersionOf(ApiKey::kHeartbeat), 4);
  EXPECT_EQ(connection->VersionOf(ApiKey::kLeaveGroup), 5);
  EXPECT_EQ(connection->VersionOf(ApiKey::kFindCoordinator), 3);
  EXPECT_EQ(connection->VersionOf(ApiKey::kApiVersions), 3);
  // The data path's one version each (data_messages.h); ListOffsets is not spoken.
  EXPECT_EQ(connection->VersionOf(ApiKey::kProduce), 9);
  EXPECT_EQ(connection->VersionOf(ApiKey::kFetch), 12);
  EXPECT_EQ(connection->VersionOf(ApiKey::kMetadata), 12);
  EXPECT_EQ(connection->VersionOf(ApiKey::kInitProducerId), 4);
  EXPECT_EQ(connection->VersionOf(static_cast<ApiKey>(2)), std::nullopt) << "ListOffsets";
  connection->Close();
}

TEST_F(BrokerConnectionTest, JoinsSyncsHeartbeatsAndLeavesAConnectGroup) {
  auto bootstrap = Connected(host_, port_);
  const std::string group = testing::UniqueName("connect-group");
  JoinGroupRequest join;
  join.group_id = group;
  join.session_timeout_ms = 10000;
  join.rebalance_timeout_ms = 10000;
  join.protocol_type = "connect";
  join.protocols = {{"sessioned", "metadata-v2"}, {"default", "metadata-v0"}};

  // On a broker that just started, the group coordinator may not be ready (the offsets topic
  // is still being created and loaded): find it and retry like a client would.
  std::shared_ptr<BrokerConnection> connection;
  absl::StatusOr<JoinGroupResponse> first = absl::UnknownError("not tried");
  for (int attempt = 0; attempt < 100; ++attempt) {
    auto coordinator = Call<FindCoordinatorResponse>(*bootstrap, ApiKey::kFindCoordinator,
                                                     FindCoordinatorRequest{group, 0});
    ASSERT_TRUE(coordinator.ok()) << coordinator.status();
    if (coordinator->error_code == Error::kNone) {
      EXPECT_EQ(coordinator->port, port_);
      connection = Connected(coordinator->host, static_cast<uint16_t>(coordinator->port));
      // KIP-394: the first join without a member id is answered with one to use.
      first = Call<JoinGroupResponse>(*connection, ApiKey::kJoinGroup, join);
      ASSERT_TRUE(first.ok()) << first.status();
      if (first->error_code != Error::kNotCoordinator &&
          first->error_code != Error::kCoordinatorNotAvailable &&
          first->error_code != Error::kCoordinatorLoadInProgress) {
        break;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_EQ(first->error_code, Error::kMemberIdRequired) << ErrorName(first->error_code);
  ASSERT_FALSE(first->member_id.empty());
  EXPECT_EQ(first->member_id.rfind("connectd-test-", 0), 0u) << first->member_id;
  join.member_id = first->member_id;
  auto joined = Call<JoinGroupResponse>(*connection, ApiKey::kJoinGroup, join);
  ASSERT_TRUE(joined.ok()) << joined.status();
  ASSERT_EQ(joined->error_code, Error::kNone) << ErrorName(joined->error_code);
  EXPECT_EQ(joined->leader, join.member_id);
  EXPECT_EQ(joined->protocol_type, "connect");
  EXPECT_EQ(joined->protocol_name, "sessioned");
  ASSERT_EQ(joined->members.size(), 1u);
  EXPECT_EQ(joined->members[0].metadata, "metadata-v2");

  SyncGroupRequest sync;
  sync.group_id = group;
  sync.generation_id = joined->generation_id;
  sync.member_id = join.member_id;
  sync.protocol_type = "connect";
  sync.protocol_name = "sessioned";
  sync.assignments = {{join.member_id, std::string("assignment\0bytes", 16)}};
  auto synced = Call<SyncGroupResponse>(*connection, ApiKey::kSyncGroup, sync);
  ASSERT_TRUE(synced.ok()) << synced.status();
  ASSERT_EQ(synced->error_code, Error::kNone) << ErrorName(synced->error_code);
  EXPECT_EQ(synced->assignment, std::string("assignment\0bytes", 16));

  auto beat = Call<HeartbeatResponse>(
      *connection, ApiKey::kHeartbeat,
      HeartbeatRequest{group, joined->generation_id, join.member_id, std::nullopt});
  ASSERT_TRUE(beat.ok()) << beat.status();
  EXPECT_EQ(beat->error_code, Error::kNone);
  auto stale = Call<HeartbeatResponse>(
      *connection, ApiKey::kHeartbeat,
      HeartbeatRequest{group, joined->generation_id + 5, join.member_id, std::nullopt});
  ASSERT_TRUE(stale.ok());
  EXPECT_EQ(stale->error_code, Error::kIllegalGeneration);

  auto left =
      Call<LeaveGroupResponse>(*connection, ApiKey::kLeaveGroup,
                               LeaveGroupRequest{group, join.member_id, std::nullopt, "test done"});
  ASSERT_TRUE(left.ok()) << left.status();
  EXPECT_EQ(left->error_code, Error::kNone);
  EXPECT_EQ(left->member_error_code, Error::kNone);
  auto gone = Call<HeartbeatResponse>(
      *connection, ApiKey::kHeartbeat,
      HeartbeatRequest{group, joined->generation_id, join.member_id, std::nullopt});
  ASSERT_TRUE(gone.ok());
  EXPECT_EQ(gone->error_code, Error::kUnknownMemberId);
}

TEST_F(BrokerConnectionTest, FailuresAreStatuses) {
  BrokerConnection::Options options;
  options.host = "127.0.0.1";
  options.port = 1;  // nothing listens there
  auto connection = BrokerConnection::Create(io_, options);
  std::promise<absl::Status> connected;
  connection->Connect([&connected](absl::Status s) { connected.set_value(s); });
  absl::Status status = connected.get_future().get();
  EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable) << status;
  // A closed connection fails later requests at once.
  auto after = Call<HeartbeatResponse>(*connection, ApiKey::kHeartbeat, HeartbeatRequest{});
  EXPECT_FALSE(after.ok());

  auto live = Connected(host_, port_);
  std::promise<absl::StatusOr<HeartbeatResponse>> pending;
  live->Call<HeartbeatResponse>(ApiKey::kHeartbeat,
                                HeartbeatRequest{"no-such-group", 1, "nobody", std::nullopt},
                                [&pending](auto r) { pending.set_value(std::move(r)); });
  live->Close();
  auto closed = pending.get_future().get();
  // Either the answer arrived before the close or the request was cancelled: never lost.
  if (closed.ok()) {
    EXPECT_NE(closed->error_code, Error::kNone);
  } else {
    EXPECT_EQ(closed.status().code(), absl::StatusCode::kCancelled);
  }
}

TEST(SecurityConfigTest, TranslatesLibrdkafkaPropertiesAndRefusesWhatItCannotDo) {
  auto plain = SecurityConfig::FromProperties({});
  ASSERT_TRUE(plain.ok());
  EXPECT_FALSE(plain->uses_tls());
  auto scram = SecurityConfig::FromProperties({{"security.protocol", "sasl_plaintext"},
                                               {"sasl.mechanisms", "SCRAM-SHA-512"},
                                               {"sasl.username", "u"},
                                               {"sasl.password", "p"}});
  ASSERT_TRUE(scram.ok()) << scram.status();
  EXPECT_TRUE(scram->uses_sasl());
  EXPECT_EQ(scram->sasl_mechanism, "SCRAM-SHA-512");
  // GSSAPI, librdkafka's default mechanism too, needs the brokers' service name.
  auto gssapi = SecurityConfig::FromProperties({{"security.protocol", "SASL_SSL"}});
  EXPECT_EQ(gssapi.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(gssapi.status().message().find("sasl.kerberos.service.name"), std::string::npos);
  auto unknown = SecurityConfig::FromProperties(
      {{"security.protocol", "SASL_SSL"}, {"sasl.mechanisms", "SCRAM-SHA-1"}});
  EXPECT_EQ(unknown.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(unknown.status().message().find("SCRAM-SHA-1"), std::string::npos);
  auto missing_ca = SecurityConfig::FromProperties(
      {{"security.protocol", "SSL"}, {"ssl.ca.location", "/nonexistent/ca.pem"}});
  EXPECT_EQ(missing_ca.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(missing_ca.status().message().find("ssl.ca.location"), std::string::npos);
  auto tls = SecurityConfig::FromProperties(
      {{"security.protocol", "SSL"}, {"ssl.endpoint.identification.algorithm", ""}});
  ASSERT_TRUE(tls.ok()) << tls.status();
  EXPECT_TRUE(tls->uses_tls());
  EXPECT_FALSE(tls->verify_hostname);
  EXPECT_EQ(
      SecurityConfig::FromProperties({{"security.protocol", "SSL_PLAINTEXT"}}).status().code(),
      absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace connectd::kafka::protocol
