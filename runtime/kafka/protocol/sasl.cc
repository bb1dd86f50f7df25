#include "runtime/kafka/protocol/sasl.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <map>
#include <vector>

#include "absl/strings/escaping.h"

namespace connectd::kafka::protocol {
namespace {

const EVP_MD* Digest(ScramClient::Hash hash) {
  return hash == ScramClient::kSha512 ? EVP_sha512() : EVP_sha256();
}

std::string Hmac(const EVP_MD* md, std::string_view key, std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  HMAC(md, key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), out, &len);
  return std::string(reinterpret_cast<char*>(out), len);
}

std::string MessageDigest(const EVP_MD* md, std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_Digest(data.data(), data.size(), out, &len, md, nullptr);
  return std::string(reinterpret_cast<char*>(out), len);
}

// RFC 5802 saslname: ',' and '=' escaped.
std::string SaslName(std::string_view user) {
  std::string out;
  for (char c : user) {
    if (c == ',') {
      out += "=2C";
    } else if (c == '=') {
      out += "=3D";
    } else {
      out += c;
    }
  }
  return out;
}

// "k=v,k=v" attributes of a SCRAM message (values may contain '=').
std::map<char, std::string> Attributes(std::string_view message) {
  std::map<char, std::string> out;
  while (!message.empty()) {
    size_t comma = message.find(',');
    std::string_view part = message.substr(0, comma);
    if (part.size() >= 2 && part[1] == '=') out[part[0]] = std::string(part.substr(2));
    message = comma == std::string_view::npos ? std::string_view() : message.substr(comma + 1);
  }
  return out;
}

}  // namespace

std::string PlainInitialResponse(std::string_view user, std::string_view password) {
  std::string out;
  out += '\0';
  out.append(user);
  out += '\0';
  out.append(password);
  return out;
}

ScramClient::ScramClient(Hash hash, std::string user, std::string password, std::string nonce)
    : hash_(hash), user_(std::move(user)), password_(std::move(password)), nonce_(std::move(nonce)) {
  if (nonce_.empty()) {
    unsigned char random[24];
    RAND_bytes(random, sizeof random);
    nonce_ = absl::Base64Escape(absl::string_view(reinterpret_cast<char*>(random), sizeof random));
  }
}

absl::StatusOr<ScramClient::Hash> ScramClient::HashOf(std::string_view mechanism) {
  if (mechanism == "SCRAM-SHA-256") return kSha256;
  if (mechanism == "SCRAM-SHA-512") return kSha512;
  return absl::InvalidArgumentError("not a SCRAM mechanism: " + std::string(mechanism));
}

std::string ScramClient::ClientFirstBare() const { return "n=" + SaslName(user_) + ",r=" + nonce_; }

std::string ScramClient::ClientFirstMessage() const { return "n,," + ClientFirstBare(); }

absl::StatusOr<std::string> ScramClient::ClientFinalMessage(std::string_view server_first) {
  std::map<char, std::string> attrs = Attributes(server_first);
  if (attrs.count('e')) {
    return absl::UnauthenticatedError("SCRAM server error: " + attrs['e']);
  }
  const std::string& server_nonce = attrs['r'];
  if (server_nonce.size() <= nonce_.size() || server_nonce.compare(0, nonce_.size(), nonce_) != 0) {
    return absl::InvalidArgumentError("SCRAM server nonce does not extend the client nonce");
  }
  std::string salt;
  if (!absl::Base64Unescape(attrs['s'], &salt) || salt.empty()) {
    return absl::InvalidArgumentError("SCRAM server-first message has no valid salt");
  }
  int iterations = 0;
  try {
    iterations = std::stoi(attrs['i']);
  } catch (...) {
  }
  if (iterations < 4096) {
    return absl::InvalidArgumentError("SCRAM iteration count missing or below 4096");
  }
  // Kafka's controller stores no credential above 16384 iterations (ScramControlManager
  // MAX_ITERATIONS, "Too many iterations"); a larger count would hold this thread in PBKDF2 for
  // up to half an hour (2^31 rounds), so only a hostile server sends one.
  if (iterations > 16384) {
    return absl::InvalidArgumentError("SCRAM iteration count above 16384");
  }
  const EVP_MD* md = Digest(hash_);
  const size_t size = static_cast<size_t>(EVP_MD_size(md));
  std::string salted(size, '\0');
  PKCS5_PBKDF2_HMAC(password_.data(), static_cast<int>(password_.size()),
                    reinterpret_cast<const unsigned char*>(salt.data()),
                    static_cast<int>(salt.size()), iterations, md, static_cast<int>(size),
                    reinterpret_cast<unsigned char*>(salted.data()));
  std::string client_key = Hmac(md, salted, "Client Key");
  std::string stored_key = MessageDigest(md, client_key);
  std::string without_proof = "c=biws,r=" + server_nonce;
  std::string auth_message =
      ClientFirstBare() + "," + std::string(server_first) + "," + without_proof;
  std::string signature = Hmac(md, stored_key, auth_message);
  std::string proof = client_key;
  for (size_t i = 0; i < proof.size(); ++i) proof[i] = static_cast<char>(proof[i] ^ signature[i]);
  expected_server_signature_ = Hmac(md, Hmac(md, salted, "Server Key"), auth_message);
  return without_proof + ",p=" + absl::Base64Escape(absl::string_view(proof.data(), proof.size()));
}

absl::Status ScramClient::VerifyServerFinal(std::string_view server_final) const {
  std::map<char, std::string> attrs = Attributes(server_final);
  if (attrs.count('e')) return absl::UnauthenticatedError("SCRAM server error: " + attrs.at('e'));
  std::string signature;
  if (expected_server_signature_.empty() || !absl::Base64Unescape(attrs['v'], &signature) ||
      CRYPTO_memcmp(signature.data(), expected_server_signature_.data(),
                    std::min(signature.size(), expected_server_signature_.size())) != 0 ||
      signature.size() != expected_server_signature_.size()) {
    return absl::UnauthenticatedError("SCRAM server signature is invalid");
  }
  return absl::OkStatus();
}

}  // namespace connectd::kafka::protocol
