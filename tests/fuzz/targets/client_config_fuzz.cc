// libFuzzer target: the choke point for hostile client configs, TranslateJavaClientConfig
// (jvm/java_client_config.h), which every Kafka client connectd makes goes through. Input: a
// role byte, then pairs of pieces, each key either a name from the dictionary below (a first byte
// 0x01..0x7f picks one: Java's keys, librdkafka's, the ones that load code or run commands) or
// the piece's own text, and its value.
//
// Properties, whatever the config: the librdkafka config it makes holds only allow-listed
// properties (librdkafka_properties.h: no row refused or kept for connectd's own code), never
// sasl.kerberos.kinit.cmd, plugin.library.paths or another key that loads code; a Kerberos
// principal and keytab in the output pass their syntax checks (no shell metacharacter, an
// absolute path); no OAuth token URL leaves (org.apache.kafka.sasl.oauthbearer.allowed.urls is
// empty here, as by default); and a refusal never echoes the value of a secret key (one with a
// byte no message holds, sharing nothing with a key or a setting a message may quote).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "jvm/java_client_config.h"
#include "jvm/java_kerberos_config.h"
#include "jvm/librdkafka_properties.h"
#include "tests/fuzz/targets/fuzz_check.h"

namespace jvm = connectd::jvm;

namespace {

constexpr const char* kKeys[] = {
    "security.protocol",
    "sasl.mechanism",
    "sasl.mechanisms",
    "sasl.jaas.config",
    "sasl.kerberos.service.name",
    "sasl.kerberos.kinit.cmd",
    "sasl.kerberos.keytab",
    "sasl.kerberos.principal",
    "sasl.kerberos.min.time.before.relogin",
    "sasl.login.callback.handler.class",
    "sasl.oauthbearer.token.endpoint.url",
    "sasl.oauthbearer.method",
    "sasl.oauthbearer.client.credentials.client.id",
    "sasl.oauthbearer.client.credentials.client.secret",
    "sasl.oauthbearer.assertion.file",
    "sasl.oauthbearer.metadata.authentication.type",
    "plugin.library.paths",
    "ssl.engine.location",
    "ssl.engine.id",
    "ssl.providers",
    "ssl.truststore.location",
    "ssl.truststore.type",
    "ssl.keystore.location",
    "ssl.ca.location",
    "ssl.key.location",
    "https.ca.location",
    "offset.store.method",
    "offset.store.path",
    "topic.offset.store.path",
    "test.mock.num.brokers",
    "ut_handle_ProduceResponse",
    "enable.partition.eof",
    "log.queue",
    "interceptors",
    "opaque",
    "debug",
    "bootstrap.servers",
    "client.id",
    "acks",
    "linger.ms",
    "partitioner.class",
    "config.providers",
    "interceptor.classes",
    "ssl.protocol",
    "ssl.cipher.suites",
    "ssl.endpoint.identification.algorithm",
    "sasl.username",
    "sasl.password",
    "max.request.size",
    "request.timeout.ms",
    "group.id",
    "isolation.level",
};
constexpr size_t kKeyCount = sizeof(kKeys) / sizeof(kKeys[0]);

// Values a refusal must not echo (they hold secrets).
bool IsSecretKey(const std::string& key) {
  return key == "sasl.jaas.config" || key == "sasl.password" ||
         key == "sasl.oauthbearer.client.credentials.client.secret" ||
         key.find("password") != std::string::npos;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  connectd::fuzz::FuzzInput input(data, size);
  const jvm::ClientRole role = static_cast<jvm::ClientRole>(input.Byte() % 3);
  std::map<std::string, std::string> java;
  for (int i = 0; i < 24; ++i) {
    std::string_view key = input.Piece();
    std::string_view value = input.Piece();
    if (key.empty() && value.empty()) break;
    std::string name(key);
    if (key.size() == 1 && static_cast<uint8_t>(key[0]) >= 1 &&
        static_cast<uint8_t>(key[0]) < 0x80) {
      name = kKeys[static_cast<uint8_t>(key[0]) % kKeyCount];
    }
    java[name] = std::string(value);
  }
  const jvm::TranslatedConfig out = jvm::TranslateJavaClientConfig(java, role);
  for (const auto& [key, value] : out.properties) {
    const jvm::LibrdkafkaProperty* property = jvm::FindLibrdkafkaProperty(key);
    FUZZ_CHECK(property != nullptr);
    FUZZ_CHECK(property->use != jvm::PropertyUse::kRefused);
    FUZZ_CHECK(property->use != jvm::PropertyUse::kConnectdOnly);
    FUZZ_CHECK(property->use != jvm::PropertyUse::kOAuthUrl);  // none allowed by default
    FUZZ_CHECK(jvm::LibrdkafkaPropertyRefusal(key, value).empty());
    if (key == "sasl.kerberos.principal") FUZZ_CHECK(jvm::PrincipalSyntaxError(value).empty());
    if (key == "sasl.kerberos.keytab") FUZZ_CHECK(jvm::KeytabPathError(value).empty());
  }
  FUZZ_CHECK(out.properties.count("sasl.kerberos.kinit.cmd") == 0);
  FUZZ_CHECK(out.properties.count("plugin.library.paths") == 0);
  for (const auto& [key, value] : java) {
    // Only a secret no message could hold by chance: with a byte outside printable ASCII, which
    // every message of the translation is written in (the fuzzer finds message words otherwise).
    const bool unlike_any_message = std::any_of(value.begin(), value.end(), [](char c) {
      return static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f;
    });
    if (!IsSecretKey(key) || value.size() < 8 || !unlike_any_message) continue;
    // Refusals name keys and quote settings that are no secret (a class name, a URL): a secret
    // sharing any four bytes with one of those may appear through it.
    bool said_elsewhere = false;
    for (size_t i = 0; i + 4 <= value.size() && !said_elsewhere; ++i) {
      const std::string_view gram = std::string_view(value).substr(i, 4);
      for (const auto& [other_key, other_value] : java) {
        said_elsewhere |= other_key.find(gram) != std::string::npos ||
                          (other_key != key && other_value.find(gram) != std::string::npos);
      }
    }
    if (said_elsewhere) continue;
    for (const std::string& error : out.errors) FUZZ_CHECK(error.find(value) == std::string::npos);
    for (const std::string& warning : out.warnings) {
      FUZZ_CHECK(warning.find(value) == std::string::npos);
    }
  }
  return 0;
}
