// File: java_client_defaults.h
//
// Java 4.4's client defaults where librdkafka's differ. A Java worker's producers, consumers
// and admin clients behave by Kafka's ConfigDefs (ProducerConfig, ConsumerConfig,
// AdminClientConfig); librdkafka's defaults are its own (a 1,000,000-byte message.max.bytes
// where Java's max.request.size is 1,048,576, read_committed where Java reads uncommitted, a
// CRC32 partitioner where Java hashes keys with murmur2, ...). TranslateJavaClientConfig
// (java_client_config.h) applies each row's Java value unless the user set the key, so a
// connectd client behaves as the Java client the user's properties were written for.
//
// Each row names Java's default exactly as Kafka's ConfigDef gives it; JavaClientDefaultsTest
// checks that against tests/golden/client_defaults/java_client_defaults.tsv (read from the
// 4.4 jars) and that librdkafka's own default really differs. A row that is not applied says
// why; docs/compatibility.md lists those, with the key that restores Java's value.
//
// Standard library only: plugins link it too.
#pragma once

#include <string_view>
#include <vector>

namespace connectd::jvm {

enum class ClientRole { kProducer, kConsumer, kAdmin };

// Bit masks of roles, for JavaClientDefault::roles.
constexpr unsigned RoleBit(ClientRole role) { return 1u << static_cast<unsigned>(role); }
constexpr unsigned kProducerRole = RoleBit(ClientRole::kProducer);
constexpr unsigned kConsumerRole = RoleBit(ClientRole::kConsumer);
constexpr unsigned kAdminRole = RoleBit(ClientRole::kAdmin);

struct JavaClientDefault {
  unsigned roles;                 // the clients the row is about
  std::string_view java_key;      // Java's name
  std::string_view java_default;  // Java 4.4's default, as the golden file prints it
  std::string_view librdkafka_key;
  // Java's default in librdkafka's terms; empty when not applied.
  std::string_view librdkafka_value;
  std::string_view why_not_applied;  // non-empty exactly when librdkafka_value is empty
};

// Every row, in a stable order.
const std::vector<JavaClientDefault>& JavaClientDefaults();

}  // namespace connectd::jvm
