// Java 4.4's client defaults (jvm/java_client_defaults.h) against Kafka's own
// ConfigDefs, read from the 4.4 jars into tests/golden/client_defaults/java_client_defaults.tsv,
// and against librdkafka's defaults as the linked library reports them.
#include "jvm/java_client_defaults.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <librdkafka/rdkafka.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "jvm/java_client_config.h"

namespace connectd::jvm {
namespace {

const char* RoleName(ClientRole role) {
  switch (role) {
    case ClientRole::kProducer:
      return "producer";
    case ClientRole::kConsumer:
      return "consumer";
    case ClientRole::kAdmin:
      return "admin";
  }
  return "?";
}
constexpr ClientRole kRoles[] = {ClientRole::kProducer, ClientRole::kConsumer, ClientRole::kAdmin};

// (client, key) -> Java's default, from the golden file.
std::map<std::pair<std::string, std::string>, std::string> JavaGolden() {
  const char* env = std::getenv("CONNECTD_SOURCE_DIR");
  std::ifstream in(std::string(env != nullptr ? env : CONNECTD_SOURCE_DIR) +
                   "/tests/golden/client_defaults/java_client_defaults.tsv");
  std::map<std::pair<std::string, std::string>, std::string> out;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::stringstream split(line);
    std::string field;
    while (std::getline(split, field, '\t')) fields.push_back(field);
    if (fields.size() == 2) fields.emplace_back();  // an empty default
    if (fields.size() != 3) continue;
    out[{fields[0], fields[1]}] = fields[2];
  }
  return out;
}

// librdkafka's value of `key` on a conf where `value` was set (nullopt: librdkafka's default),
// global or topic-level; nullopt when the key is unknown or the value refused.
std::optional<std::string> Librdkafka(const std::string& key,
                                      const std::optional<std::string>& value) {
  char err[256];
  char buf[1024];
  size_t size = sizeof(buf);
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  std::optional<std::string> out;
  if ((!value || rd_kafka_conf_set(conf, key.c_str(), value->c_str(), err, sizeof(err)) ==
                     RD_KAFKA_CONF_OK) &&
      rd_kafka_conf_get(conf, key.c_str(), buf, &size) == RD_KAFKA_CONF_OK) {
    out = std::string(buf);
  }
  rd_kafka_conf_destroy(conf);
  if (out) return out;
  rd_kafka_topic_conf_t* topic = rd_kafka_topic_conf_new();
  size = sizeof(buf);
  if ((!value || rd_kafka_topic_conf_set(topic, key.c_str(), value->c_str(), err, sizeof(err)) ==
                     RD_KAFKA_CONF_OK) &&
      rd_kafka_topic_conf_get(topic, key.c_str(), buf, &size) == RD_KAFKA_CONF_OK) {
    out = std::string(buf);
  }
  rd_kafka_topic_conf_destroy(topic);
  return out;
}

TEST(JavaClientDefaultsTest, EveryRowNamesJavasDefaultAsKafkasConfigDefGivesIt) {
  const auto golden = JavaGolden();
  ASSERT_GT(golden.size(), 300u) << "tests/golden/client_defaults/java_client_defaults.tsv";
  for (const JavaClientDefault& row : JavaClientDefaults()) {
    for (ClientRole role : kRoles) {
      if ((row.roles & RoleBit(role)) == 0) continue;
      auto it = golden.find({RoleName(role), std::string(row.java_key)});
      ASSERT_NE(it, golden.end()) << RoleName(role) << " " << row.java_key;
      EXPECT_EQ(it->second, row.java_default) << RoleName(role) << " " << row.java_key;
    }
    EXPECT_EQ(row.librdkafka_value.empty(), !row.why_not_applied.empty()) << row.java_key;
  }
}

TEST(JavaClientDefaultsTest, EveryRowIsADifferenceLibrdkafkaReallyHas) {
  for (const JavaClientDefault& row : JavaClientDefaults()) {
    const std::string key(row.librdkafka_key);
    std::optional<std::string> library_default = Librdkafka(key, std::nullopt);
    ASSERT_TRUE(library_default) << "librdkafka does not know " << key;
    if (row.librdkafka_value.empty()) continue;
    std::optional<std::string> applied = Librdkafka(key, std::string(row.librdkafka_value));
    ASSERT_TRUE(applied) << "librdkafka refuses " << key << "=" << row.librdkafka_value;
    EXPECT_NE(*applied, *library_default) << key << ": the row changes nothing";
  }
}

// Every Java key the translation passes on (under its own or a librdkafka name) with Java's
// default: where librdkafka's default differs, the table must say so (applied or not, and why).
TEST(JavaClientDefaultsTest, NoTranslatedKeyDiffersFromJavaOutsideTheTable) {
  std::set<std::pair<std::string, std::string>> tabled;  // (client, java key)
  for (const JavaClientDefault& row : JavaClientDefaults()) {
    for (ClientRole role : kRoles) {
      if (row.roles & RoleBit(role)) tabled.emplace(RoleName(role), row.java_key);
    }
  }
  std::vector<std::string> untabled;
  for (const auto& [client_key, java_default] : JavaGolden()) {
    const auto& [client, key] = client_key;
    if (java_default.rfind('<', 0) == 0 || tabled.count(client_key)) continue;
    ClientRole role = client == "producer"   ? ClientRole::kProducer
                      : client == "consumer" ? ClientRole::kConsumer
                                             : ClientRole::kAdmin;
    TranslatedConfig translated = TranslateJavaClientConfig({{key, java_default}}, role);
    for (const auto& [rd_key, rd_value] : translated.properties) {
      if (translated.java_defaults.count(rd_key)) continue;
      std::optional<std::string> library_default = Librdkafka(rd_key, std::nullopt);
      std::optional<std::string> java_value = Librdkafka(rd_key, rd_value);
      if (!library_default || !java_value || *library_default == *java_value) continue;
      untabled.push_back(client + " " + key + "=" + java_default + " -> " + rd_key + " " +
                         *java_value + " (librdkafka " + *library_default + ")");
    }
  }
  EXPECT_THAT(untabled, ::testing::IsEmpty());
}

TEST(JavaClientDefaultsTest, TranslationAppliesJavasDefaultsPerRoleUnlessSet) {
  TranslatedConfig producer = TranslateJavaClientConfig({}, ClientRole::kProducer);
  EXPECT_EQ(producer.properties.at("message.max.bytes"), "1048576");
  EXPECT_EQ(producer.properties.at("partitioner"), "murmur2_random");
  EXPECT_EQ(producer.properties.count("isolation.level"), 0u);
  TranslatedConfig consumer = TranslateJavaClientConfig({}, ClientRole::kConsumer);
  EXPECT_EQ(consumer.properties.at("isolation.level"), "read_uncommitted");
  EXPECT_EQ(consumer.properties.at("socket.timeout.ms"), "30000");
  EXPECT_EQ(consumer.properties.count("message.max.bytes"), 0u);

  TranslatedConfig set = TranslateJavaClientConfig(
      {{"max.request.size", "2000000"}, {"delivery.timeout.ms", "5000"}}, ClientRole::kProducer);
  EXPECT_EQ(set.properties.at("message.max.bytes"), "2000000");
  EXPECT_EQ(set.properties.at("message.timeout.ms"), "5000");
  EXPECT_EQ(set.properties.count("delivery.timeout.ms"), 0u);
  EXPECT_EQ(set.java_defaults.count("message.max.bytes"), 0u);

  // request.timeout.ms is the producer's own in librdkafka; other clients' is socket.timeout.ms.
  EXPECT_EQ(TranslateJavaClientConfig({{"request.timeout.ms", "40000"}}, ClientRole::kProducer)
                .properties.at("request.timeout.ms"),
            "40000");
  EXPECT_EQ(TranslateJavaClientConfig({{"request.timeout.ms", "40000"}}, ClientRole::kAdmin)
                .properties.at("socket.timeout.ms"),
            "40000");
}

TEST(JavaClientDefaultsTest, CallersSettingsOutrankJavasDefaultsButNotTheUsers) {
  TranslatedConfig translated = TranslateJavaClientConfig({{"acks", "1"}}, ClientRole::kProducer);
  std::map<std::string, std::string> merged =
      OverlayOn({{"acks", "all"}, {"max.in.flight.requests.per.connection", "1"}}, translated);
  EXPECT_EQ(merged.at("acks"), "1");                                   // the user's
  EXPECT_EQ(merged.at("max.in.flight.requests.per.connection"), "1");  // Connect's over Java's 5
  EXPECT_EQ(merged.at("message.max.bytes"), "1048576");                // Java's
}

}  // namespace
}  // namespace connectd::jvm
