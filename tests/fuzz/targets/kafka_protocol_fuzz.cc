// libFuzzer target: the broker's bytes as connectd's own Kafka client reads them
// (runtime/kafka/protocol/): a response frame through DecodeResponseHeader and the body decoder
// of the request it answers (ApiVersions, FindCoordinator, JoinGroup, SyncGroup, Heartbeat,
// LeaveGroup, SaslHandshake, SaslAuthenticate, and the data path's Metadata, Fetch, Produce,
// InitProducerId), in every version the client speaks, exactly as BrokerConnection hands them
// over; and the SCRAM server messages (sasl.h) a broker sends during authentication.
// Input: API selector byte, version byte, then the frame after its size prefix. Selector (mod
// 13) 8: SCRAM, with server-first NUL server-final (client nonce and password of RFC 7677's
// example); 0-7 the group APIs, 9-12 the data path's.
// Properties: the body is the frame's tail; decoders never read past it; a SCRAM exchange that
// completes has verified a server signature.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "runtime/kafka/protocol/data_messages.h"
#include "runtime/kafka/protocol/messages.h"
#include "runtime/kafka/protocol/record_batch.h"
#include "runtime/kafka/protocol/sasl.h"
#include "tests/fuzz/targets/fuzz_check.h"

namespace kp = connectd::kafka::protocol;

namespace {

constexpr kp::ApiKey kApis[] = {kp::ApiKey::kApiVersions,   kp::ApiKey::kFindCoordinator,
                                kp::ApiKey::kJoinGroup,     kp::ApiKey::kSyncGroup,
                                kp::ApiKey::kHeartbeat,     kp::ApiKey::kLeaveGroup,
                                kp::ApiKey::kSaslHandshake, kp::ApiKey::kSaslAuthenticate};
constexpr kp::ApiKey kDataApis[] = {kp::ApiKey::kMetadata, kp::ApiKey::kFetch,
                                    kp::ApiKey::kProduce, kp::ApiKey::kInitProducerId};

void Response(kp::ApiKey key, uint8_t version_byte, std::string_view frame) {
  kp::ApiRange range = kp::SupportedVersions(key);
  auto version = static_cast<int16_t>(range.min + version_byte % (range.max - range.min + 1));
  int32_t correlation_id = 0;
  absl::StatusOr<std::string_view> body =
      kp::DecodeResponseHeader(key, version, frame, &correlation_id);
  if (!body.ok()) return;
  FUZZ_CHECK(body->size() + 4 <= frame.size());
  FUZZ_CHECK(body->data() + body->size() == frame.data() + frame.size());
  switch (key) {
    case kp::ApiKey::kApiVersions: {
      auto r = kp::ApiVersionsResponse::Decode(*body, version);
      if (r.ok()) FUZZ_CHECK(r->apis.size() <= body->size());
      break;
    }
    case kp::ApiKey::kFindCoordinator:
      (void)kp::FindCoordinatorResponse::Decode(*body, version);
      break;
    case kp::ApiKey::kJoinGroup: {
      auto r = kp::JoinGroupResponse::Decode(*body, version);
      if (r.ok()) {
        size_t bytes = r->leader.size() + r->member_id.size();
        for (const auto& m : r->members) bytes += m.member_id.size() + m.metadata.size();
        FUZZ_CHECK(bytes <= body->size());
      }
      break;
    }
    case kp::ApiKey::kSyncGroup: {
      auto r = kp::SyncGroupResponse::Decode(*body, version);
      if (r.ok()) FUZZ_CHECK(r->assignment.size() <= body->size());
      break;
    }
    case kp::ApiKey::kHeartbeat:
      (void)kp::HeartbeatResponse::Decode(*body, version);
      break;
    case kp::ApiKey::kLeaveGroup:
      (void)kp::LeaveGroupResponse::Decode(*body, version);
      break;
    case kp::ApiKey::kSaslHandshake: {
      auto r = kp::SaslHandshakeResponse::Decode(*body, version);
      if (r.ok()) FUZZ_CHECK(r->mechanisms.size() <= body->size());
      break;
    }
    case kp::ApiKey::kSaslAuthenticate:
      (void)kp::SaslAuthenticateResponse::Decode(*body, version);
      break;
    case kp::ApiKey::kMetadata: {
      auto r = kp::MetadataResponse::Decode(*body);
      if (r.ok()) FUZZ_CHECK(r->brokers.size() + r->topics.size() <= body->size());
      break;
    }
    case kp::ApiKey::kFetch: {
      auto r = kp::FetchResponse::Decode(*body);
      if (!r.ok()) break;
      for (const auto& t : r->topics) {
        for (const auto& p : t.partitions) {
          if (!p.records || p.records->empty()) continue;
          // Record data is a view inside the body, split without reading past it.
          FUZZ_CHECK(p.records->data() >= body->data() &&
                     p.records->data() + p.records->size() <= body->data() + body->size());
          (void)kp::SplitRecordBatches(*p.records);
        }
      }
      break;
    }
    case kp::ApiKey::kProduce:
      (void)kp::ProduceResponse::Decode(*body);
      break;
    case kp::ApiKey::kInitProducerId:
      (void)kp::InitProducerIdResponse::Decode(*body);
      break;
  }
}

void Scram(uint8_t hash_byte, std::string_view server_first, std::string_view server_final) {
  kp::ScramClient client(hash_byte % 2 ? kp::ScramClient::kSha512 : kp::ScramClient::kSha256,
                         "user", "pencil", "rOprNGfwEbeRWgbNEkqO");
  // A server-final before any server-first never verifies.
  FUZZ_CHECK(!client.VerifyServerFinal(server_final).ok());
  absl::StatusOr<std::string> final_message = client.ClientFinalMessage(server_first);
  if (!final_message.ok()) return;
  FUZZ_CHECK(final_message->rfind("c=biws,r=rOprNGfwEbeRWgbNEkqO", 0) == 0);
  (void)client.VerifyServerFinal(server_final);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  connectd::fuzz::FuzzInput input(data, size);
  uint8_t which = input.Byte();
  uint8_t version = input.Byte();
  const int selector = which % 13;
  if (selector == 8) {
    std::string_view server_first = input.Piece();
    Scram(version, server_first, input.Rest());
  } else {
    Response(selector < 8 ? kApis[selector] : kDataApis[selector - 9], version, input.Rest());
  }
  return 0;
}
