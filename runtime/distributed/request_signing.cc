#include "runtime/distributed/request_signing.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <array>
#include <cstdint>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "jvm/java_base64.h"
#include "runtime/common/strings.h"

namespace connectd::distributed {
namespace {

// How a JVM KeyGenerator sizes keys for an algorithm.
enum class KeyRule {
  kHmacLegacy,  // HmacMD5/HmacSHA1: any size, rounded up to bytes; 0 bytes is "Empty key"
  kHmacSha2,    // SHA-2/SHA-3 HMACs: at least 40 bits
  kAes,         // 128, 192 or 256 bits
};

struct Algorithm {
  std::string_view name;
  const EVP_MD* (*digest)();  // null: no Mac (AES)
  int default_key_bits;
  KeyRule rule;
};

constexpr std::array<Algorithm, 13> kAlgorithms = {{
    {"HmacMD5", EVP_md5, 512, KeyRule::kHmacLegacy},
    {"HmacSHA1", EVP_sha1, 512, KeyRule::kHmacLegacy},
    {"HmacSHA224", EVP_sha224, 224, KeyRule::kHmacSha2},
    {"HmacSHA256", EVP_sha256, 256, KeyRule::kHmacSha2},
    {"HmacSHA384", EVP_sha384, 384, KeyRule::kHmacSha2},
    {"HmacSHA512", EVP_sha512, 512, KeyRule::kHmacSha2},
    {"HmacSHA512/224", EVP_sha512_224, 224, KeyRule::kHmacSha2},
    {"HmacSHA512/256", EVP_sha512_256, 256, KeyRule::kHmacSha2},
    {"HmacSHA3-224", EVP_sha3_224, 224, KeyRule::kHmacSha2},
    {"HmacSHA3-256", EVP_sha3_256, 256, KeyRule::kHmacSha2},
    {"HmacSHA3-384", EVP_sha3_384, 384, KeyRule::kHmacSha2},
    {"HmacSHA3-512", EVP_sha3_512, 512, KeyRule::kHmacSha2},
    {"AES", nullptr, 128, KeyRule::kAes},
}};

// JCA provider lookups ignore case.
const Algorithm* FindAlgorithm(std::string_view name) {
  for (const Algorithm& algorithm : kAlgorithms) {
    if (absl::EqualsIgnoreCase(AsAbsl(algorithm.name), AsAbsl(name))) return &algorithm;
  }
  return nullptr;
}

const Algorithm* FindMac(std::string_view name) {
  const Algorithm* algorithm = FindAlgorithm(name);
  return algorithm != nullptr && algorithm->digest != nullptr ? algorithm : nullptr;
}

absl::Status BadRequest(std::string_view message) {
  return herder::WithHttpStatus(absl::InvalidArgumentError(AsAbsl(message)), 400);
}

absl::Status NoSuchMac(std::string_view algorithm) {
  return BadRequest(absl::StrCat("Algorithm ", AsAbsl(algorithm), " not available"));
}

// java.util.AbstractCollection.toString: "[a, b]".
std::string JavaListText(const std::vector<std::string>& values) {
  return absl::StrCat("[", absl::StrJoin(values, ", "), "]");
}

}  // namespace

bool IsSupportedMacAlgorithm(std::string_view algorithm) { return FindMac(algorithm) != nullptr; }

absl::StatusOr<std::string> ComputeMac(std::string_view key, std::string_view algorithm,
                                       std::string_view body) {
  const Algorithm* mac = FindMac(algorithm);
  if (mac == nullptr) return NoSuchMac(algorithm);
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  static const unsigned char kEmpty = 0;
  const auto* data = body.empty() ? &kEmpty : reinterpret_cast<const unsigned char*>(body.data());
  const void* key_data = key.empty() ? static_cast<const void*>(&kEmpty) : key.data();
  if (HMAC(mac->digest(), key_data, static_cast<int>(key.size()), data, body.size(), out,
           &length) == nullptr) {
    return absl::InternalError(absl::StrCat("HMAC with ", AsAbsl(algorithm), " failed"));
  }
  return std::string(reinterpret_cast<const char*>(out), length);
}

absl::StatusOr<std::string> Sign(std::string_view key, std::string_view algorithm,
                                 std::string_view body) {
  absl::StatusOr<std::string> mac = ComputeMac(key, algorithm, body);
  if (!mac.ok()) return mac.status();
  return jvm::JavaBase64Encode(*mac);
}

absl::StatusOr<std::vector<std::pair<std::string, std::string>>> SignatureHeaders(
    std::string_view key, std::string_view algorithm, std::string_view body) {
  absl::StatusOr<std::string> signature = Sign(key, algorithm, body);
  if (!signature.ok()) return signature.status();
  return std::vector<std::pair<std::string, std::string>>{
      {std::string(kSignatureHeader), std::move(*signature)},
      {std::string(kSignatureAlgorithmHeader), std::string(algorithm)}};
}

absl::StatusOr<std::string> GenerateKey(std::string_view algorithm, std::optional<int> size_bits) {
  const Algorithm* found = FindAlgorithm(algorithm);
  if (found == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat(AsAbsl(algorithm), " KeyGenerator not available"));
  }
  int bits = size_bits.value_or(found->default_key_bits);
  switch (found->rule) {
    case KeyRule::kHmacSha2:
      if (bits < 40) return absl::InvalidArgumentError("Key length must be at least 40 bits");
      break;
    case KeyRule::kAes:
      if (bits != 128 && bits != 192 && bits != 256) {
        return absl::InvalidArgumentError("Wrong keysize: must be equal to 128, 192 or 256");
      }
      break;
    case KeyRule::kHmacLegacy:
      // Java truncates towards zero: (bits + 7) / 8 is 0 for any bits <= 0.
      if (bits <= 0) return absl::InvalidArgumentError("Empty key");
      break;
  }
  size_t bytes = (static_cast<size_t>(bits) + 7) / 8;
  std::string key(bytes, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(key.data()), static_cast<int>(bytes)) != 1) {
    return absl::InternalError("OpenSSL RAND_bytes failed");
  }
  return key;
}

absl::Status CheckSignatureFormat(const herder::InternalRequestSignature& signature) {
  if (!IsSupportedMacAlgorithm(signature.algorithm)) return NoSuchMac(signature.algorithm);
  std::string error;
  if (!jvm::JavaBase64Decode(signature.signature, &error)) return BadRequest(error);
  return absl::OkStatus();
}

absl::Status VerifyInternalRequest(const std::optional<herder::InternalRequestSignature>& signature,
                                   const std::vector<std::string>& verification_algorithms,
                                   const std::optional<storage::SessionKey>& key) {
  if (!signature) return BadRequest("Internal request missing required signature");
  if (absl::Status format = CheckSignatureFormat(*signature); !format.ok()) return format;
  bool allowed = false;
  for (const std::string& algorithm : verification_algorithms) {
    allowed = allowed || algorithm == signature->algorithm;
  }
  if (!allowed) {
    return BadRequest(absl::StrCat(
        "This worker does not support the '", signature->algorithm,
        "' key signing algorithm used by other workers. This worker is currently configured to "
        "use: ",
        JavaListText(verification_algorithms),
        ". Check that all workers' configuration files permit the same set of signature "
        "algorithms, and correct any misconfigured worker and restart it."));
  }
  if (!key) {
    return herder::WithHttpStatus(
        absl::UnavailableError("This worker is still starting up and has not been able to read a "
                               "session key from the config topic yet"),
        503);
  }
  absl::StatusOr<std::string> expected =
      ComputeMac(key->key, signature->algorithm, signature->body);
  if (!expected.ok()) return expected.status();
  std::string error;
  std::optional<std::string> actual = jvm::JavaBase64Decode(signature->signature, &error);
  if (!actual) return BadRequest(error);
  // MessageDigest.isEqual: lengths first, then a constant-time comparison.
  bool valid = expected->size() == actual->size() &&
               CRYPTO_memcmp(expected->data(), actual->data(), expected->size()) == 0;
  if (!valid) {
    return herder::WithHttpStatus(
        absl::PermissionDeniedError("Internal request contained invalid signature."), 403);
  }
  return absl::OkStatus();
}

}  // namespace connectd::distributed
