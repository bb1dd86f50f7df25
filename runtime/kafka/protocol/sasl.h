// File: sasl.h
//
// Client sides of the SASL mechanisms Kafka brokers accept from connectd's own protocol client:
// PLAIN (RFC 4616) and SCRAM-SHA-256/-512 (RFC 5802/7677, as Kafka's ScramSaslClient speaks
// it: GS2 header "n,,", no channel binding, no extensions).
//
//   ScramClient scram(ScramClient::kSha256, "alice", "secret");
//   send(scram.ClientFirstMessage());
//   auto final_message = scram.ClientFinalMessage(server_first);   // StatusOr
//   absl::Status verified = scram.VerifyServerFinal(server_final);
//
// Secrets stay inside these objects; no message here ever contains the password.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace connectd::kafka::protocol {

// The PLAIN initial response: authzid (empty) NUL user NUL password.
std::string PlainInitialResponse(std::string_view user, std::string_view password);

class ScramClient {
 public:
  enum Hash { kSha256, kSha512 };

  // `nonce` empty: a random one (24 bytes, base64). Tests pass RFC 7677's.
  ScramClient(Hash hash, std::string user, std::string password, std::string nonce = "");

  std::string ClientFirstMessage() const;
  // The client-final message for the server-first message, or InvalidArgument when the server
  // answer is malformed (nonce not extending ours, missing salt, iterations outside
  // 4096..16384, the range Kafka's brokers store credentials with).
  absl::StatusOr<std::string> ClientFinalMessage(std::string_view server_first);
  // Unauthenticated when the server's signature does not prove it knows the password.
  absl::Status VerifyServerFinal(std::string_view server_final) const;

  static absl::StatusOr<Hash> HashOf(std::string_view mechanism);  // "SCRAM-SHA-256" ...

 private:
  std::string ClientFirstBare() const;

  Hash hash_;
  std::string user_;
  std::string password_;
  std::string nonce_;
  std::string expected_server_signature_;
};

}  // namespace connectd::kafka::protocol
