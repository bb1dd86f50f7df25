// The group-membership messages, byte for byte against Kafka's own generated classes
// (tests/golden/protocol/messages.tsv, written by GenerateProtocolGolden.java with the same
// field values as below), in every version connectd speaks.
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "absl/strings/escaping.h"
#include "runtime/kafka/protocol/messages.h"

namespace connectd::kafka::protocol {
namespace {

// (message, version) -> bytes.
std::map<std::pair<std::string, int>, std::string> LoadGolden() {
  std::ifstream in(std::string(CONNECTD_SOURCE_DIR) + "/tests/golden/protocol/messages.tsv");
  std::map<std::pair<std::string, int>, std::string> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string name, version, hex;
    std::getline(fields, name, '\t');
    std::getline(fields, version, '\t');
    std::getline(fields, hex, '\t');
    rows[{name, std::stoi(version)}] = absl::HexStringToBytes(hex);
  }
  return rows;
}

class ProtocolGoldenTest : public ::testing::Test {
 protected:
  const std::string& Golden(const std::string& name, int version) {
    auto it = golden_.find({name, version});
    EXPECT_NE(it, golden_.end()) << name << " v" << version << " missing from messages.tsv";
    static const std::string kEmpty;
    return it == golden_.end() ? kEmpty : it->second;
  }
  // Every version connectd implements has a golden row.
  void ExpectRange(ApiKey key, const std::string& name) {
    ApiRange range = SupportedVersions(key);
    for (int v = range.min; v <= range.max; ++v) {
      EXPECT_TRUE(golden_.count({name + "Request", v})) << name << " v" << v;
    }
  }

  std::map<std::pair<std::string, int>, std::string> golden_ = LoadGolden();
};

const std::string kMeta1("\x00\x02\x00\x03url\x00\x00\x00\x00\x00\x00\x00\x2a\xff\xff\xff\xff", 19);
const std::string kMeta2("\x00\x01\x00\x00", 4);
const std::string kAssign1("\x00\x02\x00\x00\x09\x08\x07", 7);

std::string Hex(const std::string& bytes) { return absl::BytesToHexString(bytes); }

TEST_F(ProtocolGoldenTest, GoldenCoversEveryImplementedVersion) {
  ASSERT_GT(golden_.size(), 70u);
  ExpectRange(ApiKey::kApiVersions, "ApiVersions");
  ExpectRange(ApiKey::kFindCoordinator, "FindCoordinator");
  ExpectRange(ApiKey::kJoinGroup, "JoinGroup");
  ExpectRange(ApiKey::kSyncGroup, "SyncGroup");
  ExpectRange(ApiKey::kHeartbeat, "Heartbeat");
  ExpectRange(ApiKey::kLeaveGroup, "LeaveGroup");
  ExpectRange(ApiKey::kSaslHandshake, "SaslHandshake");
  ExpectRange(ApiKey::kSaslAuthenticate, "SaslAuthenticate");
}

TEST_F(ProtocolGoldenTest, ApiVersions) {
  for (int16_t v = 0; v <= 3; ++v) {
    ApiVersionsRequest request{"connectd", "0.1.0"};
    EXPECT_EQ(Hex(request.Encode(v)), Hex(Golden("ApiVersionsRequest", v))) << "v" << v;
    auto response = ApiVersionsResponse::Decode(Golden("ApiVersionsResponse", v), v);
    ASSERT_TRUE(response.ok()) << response.status();
    EXPECT_EQ(response->error_code, 0);
    ASSERT_EQ(response->apis.size(), 2u);
    EXPECT_EQ(response->apis[0].key, 11);
    EXPECT_EQ(response->apis[0].min_version, 2);
    EXPECT_EQ(response->apis[0].max_version, 9);
    EXPECT_EQ(response->apis[1].key, 14);
    EXPECT_EQ(response->throttle_time_ms, v >= 1 ? 7 : 0);
  }
}

TEST_F(ProtocolGoldenTest, FindCoordinator) {
  for (int16_t v = 1; v <= 3; ++v) {
    FindCoordinatorRequest request{"connect-cluster", 0};
    EXPECT_EQ(Hex(request.Encode(v)), Hex(Golden("FindCoordinatorRequest", v))) << "v" << v;
    auto response = FindCoordinatorResponse::Decode(Golden("FindCoordinatorResponse", v), v);
    ASSERT_TRUE(response.ok()) << response.status();
    EXPECT_EQ(response->throttle_time_ms, 3);
    EXPECT_EQ(response->error_message, std::nullopt);
    EXPECT_EQ(response->node_id, 1);
    EXPECT_EQ(response->host, "broker-1.example");
    EXPECT_EQ(response->port, 9092);
  }
}

TEST_F(ProtocolGoldenTest, JoinGroup) {
  for (int16_t v = 2; v <= 9; ++v) {
    JoinGroupRequest request;
    request.group_id = "connect-cluster";
    request.member_id = "connect-1-abc";
    request.protocol_type = "connect";
    request.protocols = {{"sessioned", kMeta1}, {"default", kMeta2}};
    request.reason = "rebalance needed";
    EXPECT_EQ(Hex(request.Encode(v)), Hex(Golden("JoinGroupRequest", v))) << "v" << v;
    auto response = JoinGroupResponse::Decode(Golden("JoinGroupResponse", v), v);
    ASSERT_TRUE(response.ok()) << response.status();
    EXPECT_EQ(response->throttle_time_ms, 5);
    EXPECT_EQ(response->generation_id, 7);
    EXPECT_EQ(response->protocol_type,
              v >= 7 ? std::optional<std::string>("connect") : std::nullopt);
    EXPECT_EQ(response->protocol_name, "sessioned");
    EXPECT_EQ(response->leader, "connect-1-abc");
    EXPECT_EQ(response->member_id, "connect-2-def");
    ASSERT_EQ(response->members.size(), 2u);
    EXPECT_EQ(response->members[0].member_id, "connect-1-abc");
    EXPECT_EQ(response->members[0].metadata, kMeta1);
    EXPECT_EQ(response->members[1].metadata, kMeta2);
  }
}

TEST_F(ProtocolGoldenTest, SyncGroup) {
  for (int16_t v = 0; v <= 5; ++v) {
    SyncGroupRequest request;
    request.group_id = "connect-cluster";
    request.generation_id = 7;
    request.member_id = "connect-1-abc";
    request.protocol_type = "connect";
    request.protocol_name = "sessioned";
    request.assignments = {{"connect-1-abc", kAssign1}, {"connect-2-def", ""}};
    EXPECT_EQ(Hex(request.Encode(v)), Hex(Golden("SyncGroupRequest", v))) << "v" << v;
    auto response = SyncGroupResponse::Decode(Golden("SyncGroupResponse", v), v);
    ASSERT_TRUE(response.ok()) << response.status();
    EXPECT_EQ(response->throttle_time_ms, v >= 1 ? 2 : 0);
    EXPECT_EQ(response->assignment, kAssign1);
    EXPECT_EQ(response->protocol_name,
              v >= 5 ? std::optional<std::string>("sessioned") : std::nullopt);
  }
}

TEST_F(ProtocolGoldenTest, Heartbeat) {
  for (int16_t v = 0; v <= 4; ++v) {
    HeartbeatRequest request{"connect-cluster", 7, "connect-1-abc", std::nullopt};
    EXPECT_EQ(Hex(request.Encode(v)), Hex(Golden("HeartbeatRequest", v))) << "v" << v;
    auto response = HeartbeatResponse::Decode(Golden("HeartbeatResponse", v), v);
    ASSERT_TRUE(response.ok()) << response.status();
    EXPECT_EQ(response->error_code, Error::kRebalanceInProgress);
    EXPECT_EQ(response->throttle_time_ms, v >= 1 ? 1 : 0);
  }
}

TEST_F(ProtocolGoldenTest, LeaveGroup) {
  for (int16_t v = 0; v <= 5; ++v) {
    LeaveGroupRequest request{"connect-cluster", "connect-1-abc", std::nullopt,
                              "the worker is stopping"};
    EXPECT_EQ(Hex(request.Encode(v)), Hex(Golden("LeaveGroupRequest", v))) << "v" << v;
    auto response = LeaveGroupResponse::Decode(Golden("LeaveGroupResponse", v), v);
    ASSERT_TRUE(response.ok()) << response.status();
    EXPECT_EQ(response->throttle_time_ms, v >= 1 ? 4 : 0);
    EXPECT_EQ(response->member_error_code, v >= 3 ? Code(Error::kUnknownMemberId) : 0);
  }
}

TEST_F(ProtocolGoldenTest, Sasl) {
  for (int16_t v = 0; v <= 1; ++v) {
    EXPECT_EQ(Hex(SaslHandshakeRequest{"SCRAM-SHA-256"}.Encode(v)),
              Hex(Golden("SaslHandshakeRequest", v)));
    auto response = SaslHandshakeResponse::Decode(Golden("SaslHandshakeResponse", v), v);
    ASSERT_TRUE(response.ok()) << response.status();
    EXPECT_EQ(response->mechanisms, (std::vector<std::string>{"PLAIN", "SCRAM-SHA-256"}));
  }
  for (int16_t v = 0; v <= 2; ++v) {
    EXPECT_EQ(Hex(SaslAuthenticateRequest{"n,,n=user,r=abc"}.Encode(v)),
              Hex(Golden("SaslAuthenticateRequest", v)));
    auto response = SaslAuthenticateResponse::Decode(Golden("SaslAuthenticateResponse", v), v);
    ASSERT_TRUE(response.ok()) << response.status();
    EXPECT_EQ(response->auth_bytes, "r=abcdef,s=c2FsdA==,i=4096");
    EXPECT_EQ(response->session_lifetime_ms, v >= 1 ? 3600000 : 0);
  }
}

TEST_F(ProtocolGoldenTest, RequestHeadersAreV1ThenV2ForFlexibleVersions) {
  for (int16_t v : {5, 6}) {
    std::string frame =
        EncodeRequestFrame(ApiKey::kJoinGroup, v, 42, std::string("connect-w1:8083"), "BODY");
    std::string header = Golden("RequestHeader.JoinGroup", v);
    ASSERT_EQ(frame.size(), 4 + header.size() + 4);
    EXPECT_EQ(Hex(frame.substr(4, header.size())), Hex(header)) << "v" << v;
    EXPECT_EQ(frame.substr(4 + header.size()), "BODY");
    EXPECT_EQ(frame.substr(0, 4),
              std::string("\x00\x00\x00", 3) + static_cast<char>(header.size() + 4));
  }
}

TEST(ProtocolTest, ResponseHeadersAndTruncation) {
  int32_t correlation = 0;
  // The body is a view into the frame: the frames outlive it.
  const std::string join_frame("\x00\x00\x00\x09\x00XY", 7);
  const std::string api_versions_frame("\x00\x00\x00\x05\x00XY", 7);
  // Flexible JoinGroup response header v1: correlation id + empty tagged fields.
  auto body = DecodeResponseHeader(ApiKey::kJoinGroup, 6, join_frame, &correlation);
  ASSERT_TRUE(body.ok());
  EXPECT_EQ(correlation, 9);
  EXPECT_EQ(*body, "XY");
  // ApiVersions v3 responses keep header v0.
  body = DecodeResponseHeader(ApiKey::kApiVersions, 3, api_versions_frame, &correlation);
  ASSERT_TRUE(body.ok());
  EXPECT_EQ(body->size(), 3u);
  // Every truncation of a valid JoinGroup response is rejected, never read past its end.
  const std::string full = [] {
    std::ifstream in(std::string(CONNECTD_SOURCE_DIR) + "/tests/golden/protocol/messages.tsv");
    std::string line;
    while (std::getline(in, line)) {
      if (line.rfind("JoinGroupResponse\t9\t", 0) == 0) {
        return absl::HexStringToBytes(line.substr(line.rfind('\t') + 1));
      }
    }
    return std::string();
  }();
  ASSERT_FALSE(full.empty());
  for (size_t n = 0; n < full.size(); ++n) {
    EXPECT_FALSE(JoinGroupResponse::Decode(full.substr(0, n), 9).ok()) << n;
  }
  EXPECT_EQ(ErrorName(27), "REBALANCE_IN_PROGRESS");
  EXPECT_EQ(ErrorName(999), "UNKNOWN(999)");
}

}  // namespace
}  // namespace connectd::kafka::protocol
