// File: request_signing.h
//
// KIP-507 internal request signing, as Kafka Connect's InternalRequestSignature and
// DistributedHerder do it (KIP-507: InternalRequestSignature, DistributedHerder):
//
//   sender:   X-Connect-Authorization               = Base64(HMAC(algorithm, key, body))
//             X-Connect-Request-Signature-Algorithm = algorithm   (e.g. "HmacSHA256")
//   receiver: VerifyInternalRequest(signature, inter.worker.verification.algorithms, key)
//
// Algorithm names are the JVM's (JCA) names. Lookups ignore case, as the JCA provider lookup
// does, but the name is otherwise kept as given: a request signed with "hmacsha256" is checked
// against the verification list verbatim, as Java compares Mac.getAlgorithm() there.
//
//   Mac (signature) algorithms  HmacMD5 HmacSHA1 HmacSHA224 HmacSHA256 HmacSHA384 HmacSHA512
//                               HmacSHA512/224 HmacSHA512/256 HmacSHA3-224 HmacSHA3-256
//                               HmacSHA3-384 HmacSHA3-512
//   KeyGenerator algorithms     the same names, plus AES
//
// Base64 is the standard alphabet with padding (java.util.Base64.getEncoder()). Decoding follows
// java.util.Base64.getDecoder(), including its error messages, which Connect sends back in 400s.
//
// Errors carry the exact HTTP status a REST client must see (herder::WithHttpStatus).
//
// Threads: pure functions (GenerateKey reads OpenSSL's RNG), any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "runtime/herder_api/herder.h"
#include "runtime/storage/config_records.h"

namespace connectd::distributed {

// The request headers that carry a signature.
inline constexpr std::string_view kSignatureHeader = "X-Connect-Authorization";
inline constexpr std::string_view kSignatureAlgorithmHeader =
    "X-Connect-Request-Signature-Algorithm";

// True if `algorithm` names a Mac the JVM's default providers offer (see the table above).
bool IsSupportedMacAlgorithm(std::string_view algorithm);

// The raw MAC of `body` under `key`. kInvalidArgument "Algorithm X not available" for an
// unknown algorithm (Java's NoSuchAlgorithmException message).
absl::StatusOr<std::string> ComputeMac(std::string_view key, std::string_view algorithm,
                                       std::string_view body);

// Base64 (standard, padded) of ComputeMac: the X-Connect-Authorization header value. An empty
// body signs the empty input, as Java does for a request without a body.
absl::StatusOr<std::string> Sign(std::string_view key, std::string_view algorithm,
                                 std::string_view body);

// The two headers a sender adds (InternalRequestSignature.addToRequest):
// {{kSignatureHeader, Sign(...)}, {kSignatureAlgorithmHeader, algorithm}}. Errors as Sign.
absl::StatusOr<std::vector<std::pair<std::string, std::string>>> SignatureHeaders(
    std::string_view key, std::string_view algorithm, std::string_view body);

// A new random key (OpenSSL RAND_bytes) for KeyGenerator `algorithm`. Without `size_bits`, the
// JVM's default size: HmacSHA256 256 bits, HmacSHA384 384, HmacSHA512 512, HmacSHA224 and the
// */224 variants 224, HmacMD5 and HmacSHA1 512, AES 128. With `size_bits`, Java's rules:
// SHA-2/SHA-3 HMACs need at least 40 bits, AES takes 128/192/256 only, sizes round up to whole
// bytes. kInvalidArgument with Java's message ("X KeyGenerator not available", "Key length must
// be at least 40 bits", ...) otherwise.
absl::StatusOr<std::string> GenerateKey(std::string_view algorithm,
                                        std::optional<int> size_bits = std::nullopt);

// What Java's InternalRequestSignature.fromHeaders checks before the herder sees a request:
// the algorithm names a known Mac and the signature is valid Base64. 400 with Java's message
// (the NoSuchAlgorithmException or IllegalArgumentException text) otherwise.
absl::Status CheckSignatureFormat(const herder::InternalRequestSignature& signature);

// DistributedHerder.requestNotSignedProperly (call only while request validation is enabled,
// i.e. the group protocol is `sessioned`), checked in Java's order:
//   no signature                         400 Internal request missing required signature
//   unknown Mac / bad Base64             400 (CheckSignatureFormat)
//   algorithm not in `verification_algorithms`
//                                        400 This worker does not support the '<alg>' key
//                                            signing algorithm used by other workers. ...
//   no session key yet                   503 This worker is still starting up and has not been
//                                            able to read a session key from the config topic yet
//   MAC mismatch (constant-time compare) 403 Internal request contained invalid signature.
// The MAC is computed with the signature's algorithm over `key->key`, whatever algorithm the
// key was generated with (as Java's Mac.init accepts any raw key).
absl::Status VerifyInternalRequest(const std::optional<herder::InternalRequestSignature>& signature,
                                   const std::vector<std::string>& verification_algorithms,
                                   const std::optional<storage::SessionKey>& key);

}  // namespace connectd::distributed
