#include "runtime/kafka/protocol/messages.h"

#include "runtime/kafka/protocol/wire.h"

namespace connectd::kafka::protocol {
namespace {

constexpr int16_t kNeverFlexible = 0x7fff;

// Finishes a decode: the reader's error if any, else the value.
template <typename T>
absl::StatusOr<T> Done(const WireReader& r, T value) {
  if (!r.ok()) return r.status();
  return value;
}

}  // namespace

ApiRange SupportedVersions(ApiKey key) {
  switch (key) {
    case ApiKey::kApiVersions:
      return {0, 3, 3};
    case ApiKey::kFindCoordinator:
      return {1, 3, 3};
    case ApiKey::kJoinGroup:
      return {2, 9, 6};
    case ApiKey::kSyncGroup:
      return {0, 5, 4};
    case ApiKey::kHeartbeat:
      return {0, 4, 4};
    case ApiKey::kLeaveGroup:
      return {0, 5, 4};
    case ApiKey::kSaslHandshake:
      return {0, 1, kNeverFlexible};
    case ApiKey::kSaslAuthenticate:
      return {0, 2, 2};
    // Pass-through's data path (data_messages.h): one version each.
    case ApiKey::kProduce:
      return {9, 9, 9};
    case ApiKey::kFetch:
      return {12, 12, 12};
    case ApiKey::kMetadata:
      return {12, 12, 9};
    case ApiKey::kInitProducerId:
      return {4, 4, 2};
  }
  return {0, -1, kNeverFlexible};  // an API connectd does not speak: no version
}

std::string EncodeRequestFrame(ApiKey key, int16_t version, int32_t correlation_id,
                               const std::optional<std::string>& client_id, std::string_view body) {
  std::string out = EncodeRequestHead(key, version, correlation_id, client_id, body.size());
  out.append(body);
  return out;
}

std::string EncodeRequestHead(ApiKey key, int16_t version, int32_t correlation_id,
                              const std::optional<std::string>& client_id, size_t body_size) {
  WireWriter header;
  header.Int16(static_cast<int16_t>(key)).Int16(version).Int32(correlation_id);
  header.NullableString(client_id);  // classic even in header v2
  header.TaggedFields(IsFlexible(key, version));
  WireWriter frame;
  frame.Int32(static_cast<int32_t>(header.data().size() + body_size));
  std::string out = frame.Take();
  out += header.data();
  return out;
}

absl::StatusOr<std::string_view> DecodeResponseHeader(ApiKey key, int16_t version,
                                                      std::string_view frame,
                                                      int32_t* correlation_id) {
  WireReader r(frame);
  *correlation_id = r.Int32();
  if (key != ApiKey::kApiVersions) r.TaggedFields(IsFlexible(key, version));
  if (!r.ok()) return r.status();
  return frame.substr(frame.size() - r.remaining());
}

// ---- ApiVersions ------------------------------------------------------------------------------
std::string ApiVersionsRequest::Encode(int16_t version) const {
  WireWriter w;
  if (version >= 3) {
    w.CompactString(client_software_name).CompactString(client_software_version);
    w.EmptyTaggedFields();
  }
  return w.Take();
}

absl::StatusOr<ApiVersionsResponse> ApiVersionsResponse::Decode(std::string_view body,
                                                                int16_t version) {
  const bool flexible = version >= 3;
  WireReader r(body);
  ApiVersionsResponse out;
  out.error_code = r.Int16();
  int32_t n = r.ArrayLen(flexible);
  for (int32_t i = 0; i < n && r.ok(); ++i) {
    Api api{};
    api.key = r.Int16();
    api.min_version = r.Int16();
    api.max_version = r.Int16();
    r.TaggedFields(flexible);
    out.apis.push_back(api);
  }
  if (version >= 1) out.throttle_time_ms = r.Int32();
  r.TaggedFields(flexible);
  return Done(r, std::move(out));
}

// ---- FindCoordinator --------------------------------------------------------------------------
std::string FindCoordinatorRequest::Encode(int16_t version) const {
  const bool flexible = IsFlexible(ApiKey::kFindCoordinator, version);
  WireWriter w;
  w.Str(flexible, key).Int8(key_type).TaggedFields(flexible);
  return w.Take();
}

absl::StatusOr<FindCoordinatorResponse> FindCoordinatorResponse::Decode(std::string_view body,
                                                                        int16_t version) {
  const bool flexible = IsFlexible(ApiKey::kFindCoordinator, version);
  WireReader r(body);
  FindCoordinatorResponse out;
  out.throttle_time_ms = r.Int32();
  out.error_code = r.Int16();
  out.error_message = r.NullableStr(flexible);
  out.node_id = r.Int32();
  out.host = r.Str(flexible);
  out.port = r.Int32();
  r.TaggedFields(flexible);
  return Done(r, std::move(out));
}

// ---- JoinGroup --------------------------------------------------------------------------------
std::string JoinGroupRequest::Encode(int16_t version) const {
  const bool flexible = IsFlexible(ApiKey::kJoinGroup, version);
  WireWriter w;
  w.Str(flexible, group_id).Int32(session_timeout_ms).Int32(rebalance_timeout_ms);
  w.Str(flexible, member_id);
  if (version >= 5) w.NullableStr(flexible, group_instance_id);
  w.Str(flexible, protocol_type);
  w.ArrayLen(flexible, static_cast<int32_t>(protocols.size()));
  for (const Protocol& p : protocols) {
    w.Str(flexible, p.name).Blob(flexible, p.metadata).TaggedFields(flexible);
  }
  if (version >= 8) w.NullableStr(flexible, reason);
  w.TaggedFields(flexible);
  return w.Take();
}

absl::StatusOr<JoinGroupResponse> JoinGroupResponse::Decode(std::string_view body,
                                                            int16_t version) {
  const bool flexible = IsFlexible(ApiKey::kJoinGroup, version);
  WireReader r(body);
  JoinGroupResponse out;
  out.throttle_time_ms = r.Int32();
  out.error_code = r.Int16();
  out.generation_id = r.Int32();
  if (version >= 7) {
    out.protocol_type = r.NullableStr(flexible);
    out.protocol_name = r.NullableStr(flexible);
  } else {
    out.protocol_name = r.Str(flexible);
  }
  out.leader = r.Str(flexible);
  if (version >= 9) out.skip_assignment = r.Bool();
  out.member_id = r.Str(flexible);
  int32_t n = r.ArrayLen(flexible);
  for (int32_t i = 0; i < n && r.ok(); ++i) {
    Member m;
    m.member_id = r.Str(flexible);
    if (version >= 5) m.group_instance_id = r.NullableStr(flexible);
    m.metadata = r.Blob(flexible);
    r.TaggedFields(flexible);
    out.members.push_back(std::move(m));
  }
  r.TaggedFields(flexible);
  return Done(r, std::move(out));
}

// ---- SyncGroup --------------------------------------------------------------------------------
std::string SyncGroupRequest::Encode(int16_t version) const {
  const bool flexible = IsFlexible(ApiKey::kSyncGroup, version);
  WireWriter w;
  w.Str(flexible, group_id).Int32(generation_id).Str(flexible, member_id);
  if (version >= 3) w.NullableStr(flexible, group_instance_id);
  if (version >= 5) w.NullableStr(flexible, protocol_type).NullableStr(flexible, protocol_name);
  w.ArrayLen(flexible, static_cast<int32_t>(assignments.size()));
  for (const Assignment& a : assignments) {
    w.Str(flexible, a.member_id).Blob(flexible, a.assignment).TaggedFields(flexible);
  }
  w.TaggedFields(flexible);
  return w.Take();
}

absl::StatusOr<SyncGroupResponse> SyncGroupResponse::Decode(std::string_view body,
                                                            int16_t version) {
  const bool flexible = IsFlexible(ApiKey::kSyncGroup, version);
  WireReader r(body);
  SyncGroupResponse out;
  if (version >= 1) out.throttle_time_ms = r.Int32();
  out.error_code = r.Int16();
  if (version >= 5) {
    out.protocol_type = r.NullableStr(flexible);
    out.protocol_name = r.NullableStr(flexible);
  }
  out.assignment = r.Blob(flexible);
  r.TaggedFields(flexible);
  return Done(r, std::move(out));
}

// ---- Heartbeat --------------------------------------------------------------------------------
std::string HeartbeatRequest::Encode(int16_t version) const {
  const bool flexible = IsFlexible(ApiKey::kHeartbeat, version);
  WireWriter w;
  w.Str(flexible, group_id).Int32(generation_id).Str(flexible, member_id);
  if (version >= 3) w.NullableStr(flexible, group_instance_id);
  w.TaggedFields(flexible);
  return w.Take();
}

absl::StatusOr<HeartbeatResponse> HeartbeatResponse::Decode(std::string_view body,
                                                            int16_t version) {
  const bool flexible = IsFlexible(ApiKey::kHeartbeat, version);
  WireReader r(body);
  HeartbeatResponse out;
  if (version >= 1) out.throttle_time_ms = r.Int32();
  out.error_code = r.Int16();
  r.TaggedFields(flexible);
  return Done(r, out);
}

// ---- LeaveGroup -------------------------------------------------------------------------------
std::string LeaveGroupRequest::Encode(int16_t version) const {
  const bool flexible = IsFlexible(ApiKey::kLeaveGroup, version);
  WireWriter w;
  w.Str(flexible, group_id);
  if (version < 3) {
    w.Str(flexible, member_id);
  } else {
    w.ArrayLen(flexible, 1);
    w.Str(flexible, member_id).NullableStr(flexible, group_instance_id);
    if (version >= 5) w.NullableStr(flexible, reason);
    w.TaggedFields(flexible);
  }
  w.TaggedFields(flexible);
  return w.Take();
}

absl::StatusOr<LeaveGroupResponse> LeaveGroupResponse::Decode(std::string_view body,
                                                              int16_t version) {
  const bool flexible = IsFlexible(ApiKey::kLeaveGroup, version);
  WireReader r(body);
  LeaveGroupResponse out;
  if (version >= 1) out.throttle_time_ms = r.Int32();
  out.error_code = r.Int16();
  if (version >= 3) {
    int32_t n = r.ArrayLen(flexible);
    for (int32_t i = 0; i < n && r.ok(); ++i) {
      r.Str(flexible);
      r.NullableStr(flexible);
      int16_t error = r.Int16();
      if (out.member_error_code == 0) out.member_error_code = error;
      r.TaggedFields(flexible);
    }
  }
  r.TaggedFields(flexible);
  return Done(r, out);
}

// ---- SASL -------------------------------------------------------------------------------------
std::string SaslHandshakeRequest::Encode(int16_t) const {
  WireWriter w;
  w.String(mechanism);
  return w.Take();
}

absl::StatusOr<SaslHandshakeResponse> SaslHandshakeResponse::Decode(std::string_view body,
                                                                    int16_t) {
  WireReader r(body);
  SaslHandshakeResponse out;
  out.error_code = r.Int16();
  int32_t n = r.ArrayLength();
  for (int32_t i = 0; i < n && r.ok(); ++i) out.mechanisms.push_back(r.String());
  return Done(r, std::move(out));
}

std::string SaslAuthenticateRequest::Encode(int16_t version) const {
  const bool flexible = IsFlexible(ApiKey::kSaslAuthenticate, version);
  WireWriter w;
  w.Blob(flexible, auth_bytes).TaggedFields(flexible);
  return w.Take();
}

absl::StatusOr<SaslAuthenticateResponse> SaslAuthenticateResponse::Decode(std::string_view body,
                                                                          int16_t version) {
  const bool flexible = IsFlexible(ApiKey::kSaslAuthenticate, version);
  WireReader r(body);
  SaslAuthenticateResponse out;
  out.error_code = r.Int16();
  out.error_message = r.NullableStr(flexible);
  out.auth_bytes = r.Blob(flexible);
  if (version >= 1) out.session_lifetime_ms = r.Int64();
  r.TaggedFields(flexible);
  return Done(r, std::move(out));
}

}  // namespace connectd::kafka::protocol
