// libFuzzer target: what the SASL logins parse — a Java client's sasl.jaas.config
// (jvm/java_jaas_config.h) and the JWT a token endpoint answers with (ParseJwtClaims,
// runtime/kafka/protocol/oauthbearer.h), which comes from the network. Input: one selector byte
// (even: JAAS, odd: JWT), then the text. Properties: neither parser crashes or hangs; a JAAS
// config read has a class name and one of Java's four flags, and written back (every value
// quoted and escaped) it reads as the same module; a JWT read has an expiry, and its refresh time
// (when known) is not after it.
#include <cstddef>
#include <cstdint>
#include <string>

#include "jvm/java_jaas_config.h"
#include "runtime/kafka/protocol/oauthbearer.h"
#include "tests/fuzz/targets/fuzz_check.h"

namespace {

std::string Quoted(const std::string& value) {
  std::string out = "\"";
  for (char c : value) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

void Jaas(const std::string& text) {
  std::string error;
  std::optional<connectd::jvm::JaasLoginModule> module =
      connectd::jvm::ParseJaasConfig(text, error);
  if (!module) {
    FUZZ_CHECK(!error.empty());
    return;
  }
  FUZZ_CHECK(!module->class_name.empty());
  FUZZ_CHECK(module->flag == "required" || module->flag == "requisite" ||
             module->flag == "sufficient" || module->flag == "optional");
  std::string again = module->class_name + " " + module->flag;
  for (const auto& [name, value] : module->options) again += " " + name + "=" + Quoted(value);
  again += ";";
  std::optional<connectd::jvm::JaasLoginModule> reread =
      connectd::jvm::ParseJaasConfig(again, error);
  FUZZ_CHECK(reread.has_value());
  FUZZ_CHECK(reread->class_name == module->class_name);
  FUZZ_CHECK(reread->options == module->options);
}

void Jwt(const std::string& text) {
  absl::StatusOr<connectd::kafka::protocol::OAuthBearerToken> token =
      connectd::kafka::protocol::ParseJwtClaims(text);
  if (!token.ok()) {
    FUZZ_CHECK(!token.status().message().empty());
    return;
  }
  FUZZ_CHECK(token->value == text);
  FUZZ_CHECK(token->refresh_at == std::chrono::system_clock::time_point() ||
             token->refresh_at <= token->expires);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  if ((data[0] & 1) == 0) {
    Jaas(text);
  } else {
    Jwt(text);
  }
  return 0;
}
