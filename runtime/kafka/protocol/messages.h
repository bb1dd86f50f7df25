// File: messages.h
//
// The Kafka requests and responses of group membership, SASL and version negotiation, in every
// version connectd speaks (Kafka 4.x brokers dropped the oldest ones): ApiVersions,
// FindCoordinator, JoinGroup, SyncGroup, Heartbeat, LeaveGroup, SaslHandshake,
// SaslAuthenticate. Field layouts follow Kafka's message definitions
// (clients/src/main/resources/common/message/*.json); bytes are checked against Kafka's own
// generated classes in tests/golden/protocol.
//
// Requests encode their body for a version; responses decode a body of a version. Framing
// (size prefix and request/response headers) is in EncodeRequestFrame / DecodeResponseHeader.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/kafka/protocol/errors.h"

namespace connectd::kafka::protocol {

enum class ApiKey : int16_t {
  kProduce = 0,  // data_messages.h
  kFetch = 1,
  kMetadata = 3,
  kFindCoordinator = 10,
  kJoinGroup = 11,
  kHeartbeat = 12,
  kLeaveGroup = 13,
  kSyncGroup = 14,
  kSaslHandshake = 17,
  kApiVersions = 18,
  kInitProducerId = 22,  // data_messages.h
  kSaslAuthenticate = 36,
};

// The versions connectd implements for an API, and the first flexible (KIP-482) one. An API
// connectd does not speak has min > max.
struct ApiRange {
  int16_t min;
  int16_t max;
  int16_t first_flexible;
};
ApiRange SupportedVersions(ApiKey key);
inline bool IsFlexible(ApiKey key, int16_t version) {
  return version >= SupportedVersions(key).first_flexible;
}

// A size-prefixed request frame: header v1 (v2 for flexible versions) and `body`.
std::string EncodeRequestFrame(ApiKey key, int16_t version, int32_t correlation_id,
                               const std::optional<std::string>& client_id, std::string_view body);
// The same frame up to its body, for a body of `body_size` bytes written after it.
std::string EncodeRequestHead(ApiKey key, int16_t version, int32_t correlation_id,
                              const std::optional<std::string>& client_id, size_t body_size);

// Reads a response header (the frame's size prefix already removed) and returns the body.
// ApiVersions responses always use header v0, whatever their version (KIP-511).
absl::StatusOr<std::string_view> DecodeResponseHeader(ApiKey key, int16_t version,
                                                      std::string_view frame,
                                                      int32_t* correlation_id);

// ---- ApiVersions (18) ---------------------------------------------------------------------
struct ApiVersionsRequest {
  std::string client_software_name = "connectd";
  std::string client_software_version;
  std::string Encode(int16_t version) const;
};
struct ApiVersionsResponse {
  struct Api {
    int16_t key;
    int16_t min_version;
    int16_t max_version;
  };
  int16_t error_code = 0;
  std::vector<Api> apis;
  int32_t throttle_time_ms = 0;
  static absl::StatusOr<ApiVersionsResponse> Decode(std::string_view body, int16_t version);
};

// ---- FindCoordinator (10), key type GROUP ---------------------------------------------------
struct FindCoordinatorRequest {
  std::string key;
  int8_t key_type = 0;  // GROUP
  std::string Encode(int16_t version) const;
};
struct FindCoordinatorResponse {
  int32_t throttle_time_ms = 0;
  int16_t error_code = 0;
  std::optional<std::string> error_message;
  int32_t node_id = -1;
  std::string host;
  int32_t port = -1;
  static absl::StatusOr<FindCoordinatorResponse> Decode(std::string_view body, int16_t version);
};

// ---- JoinGroup (11) -------------------------------------------------------------------------
struct JoinGroupRequest {
  struct Protocol {
    std::string name;
    std::string metadata;
  };
  std::string group_id;
  int32_t session_timeout_ms = 10000;
  int32_t rebalance_timeout_ms = 60000;
  std::string member_id;
  std::optional<std::string> group_instance_id;
  std::string protocol_type;
  std::vector<Protocol> protocols;
  std::optional<std::string> reason;
  std::string Encode(int16_t version) const;
};
struct JoinGroupResponse {
  struct Member {
    std::string member_id;
    std::optional<std::string> group_instance_id;
    std::string metadata;
  };
  int32_t throttle_time_ms = 0;
  int16_t error_code = 0;
  int32_t generation_id = -1;
  std::optional<std::string> protocol_type;
  std::optional<std::string> protocol_name;
  std::string leader;
  bool skip_assignment = false;
  std::string member_id;
  std::vector<Member> members;  // the leader's only
  static absl::StatusOr<JoinGroupResponse> Decode(std::string_view body, int16_t version);
};

// ---- SyncGroup (14) -------------------------------------------------------------------------
struct SyncGroupRequest {
  struct Assignment {
    std::string member_id;
    std::string assignment;
  };
  std::string group_id;
  int32_t generation_id = -1;
  std::string member_id;
  std::optional<std::string> group_instance_id;
  std::optional<std::string> protocol_type;
  std::optional<std::string> protocol_name;
  std::vector<Assignment> assignments;  // the leader's only
  std::string Encode(int16_t version) const;
};
struct SyncGroupResponse {
  int32_t throttle_time_ms = 0;
  int16_t error_code = 0;
  std::optional<std::string> protocol_type;
  std::optional<std::string> protocol_name;
  std::string assignment;
  static absl::StatusOr<SyncGroupResponse> Decode(std::string_view body, int16_t version);
};

// ---- Heartbeat (12) -------------------------------------------------------------------------
struct HeartbeatRequest {
  std::string group_id;
  int32_t generation_id = -1;
  std::string member_id;
  std::optional<std::string> group_instance_id;
  std::string Encode(int16_t version) const;
};
struct HeartbeatResponse {
  int32_t throttle_time_ms = 0;
  int16_t error_code = 0;
  static absl::StatusOr<HeartbeatResponse> Decode(std::string_view body, int16_t version);
};

// ---- LeaveGroup (13) ------------------------------------------------------------------------
struct LeaveGroupRequest {
  std::string group_id;
  std::string member_id;  // one member (connectd leaves only itself)
  std::optional<std::string> group_instance_id;
  std::optional<std::string> reason;
  std::string Encode(int16_t version) const;
};
struct LeaveGroupResponse {
  int32_t throttle_time_ms = 0;
  int16_t error_code = 0;
  int16_t member_error_code = 0;  // v3+: the error of our member entry
  static absl::StatusOr<LeaveGroupResponse> Decode(std::string_view body, int16_t version);
};

// ---- SaslHandshake (17) and SaslAuthenticate (36) ----------------------------------------------
struct SaslHandshakeRequest {
  std::string mechanism;
  std::string Encode(int16_t version) const;
};
struct SaslHandshakeResponse {
  int16_t error_code = 0;
  std::vector<std::string> mechanisms;
  static absl::StatusOr<SaslHandshakeResponse> Decode(std::string_view body, int16_t version);
};
struct SaslAuthenticateRequest {
  std::string auth_bytes;
  std::string Encode(int16_t version) const;
};
struct SaslAuthenticateResponse {
  int16_t error_code = 0;
  std::optional<std::string> error_message;
  std::string auth_bytes;
  int64_t session_lifetime_ms = 0;
  static absl::StatusOr<SaslAuthenticateResponse> Decode(std::string_view body, int16_t version);
};

}  // namespace connectd::kafka::protocol
