#include "runtime/kafka/client_config.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace connectd::kafka {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(ClientConfigTest, TranslatesJavaNamesAndDropsJavaOnlyOnes) {
  jvm::TranslatedConfig out = jvm::TranslateJavaClientConfig(
      {
          {"bootstrap.servers", "a:1"},
          {"security.protocol", "SASL_SSL"},
          {"sasl.mechanism", "SCRAM-SHA-512"},
          {"sasl.jaas.config",
           "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"u\" "
           "password=\"p w\";"},
          {"key.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer"},
          {"partition.assignment.strategy",
           "org.apache.kafka.clients.consumer.CooperativeStickyAssignor"},
          {"buffer.memory", "33554432"},
          {"ssl.truststore.location", "/etc/ca.pem"},
          {"ssl.truststore.type", "PEM"},
          {"ssl.keystore.location", "/etc/ks.jks"},
          {"ssl.endpoint.identification.algorithm", ""},
      },
      jvm::ClientRole::kAdmin);
  EXPECT_EQ(out.properties, (std::map<std::string, std::string>{
                                {"bootstrap.servers", "a:1"},
                                {"security.protocol", "SASL_SSL"},
                                {"enable.metrics.push", "false"},  // Java's admin default
                                {"sasl.mechanisms", "SCRAM-SHA-512"},
                                {"sasl.username", "u"},
                                {"sasl.password", "p w"},
                                {"partition.assignment.strategy", "cooperative-sticky"},
                                {"queue.buffering.max.kbytes", "32768"},
                                {"ssl.ca.location", "/etc/ca.pem"},
                                {"ssl.endpoint.identification.algorithm", "none"},
                                {"reconnect.backoff.ms", "50"},
                                {"reconnect.backoff.max.ms", "1000"},
                                {"socket.connection.setup.timeout.ms", "10000"},
                                {"socket.timeout.ms", "30000"},
                            }));
  // A keystore (JKS: Java's default type) that cannot be read is an error, never ignored.
  EXPECT_THAT(out.errors, ElementsAre("ssl.keystore.location: /etc/ks.jks: cannot be read"));
  EXPECT_TRUE(out.warnings.empty());
}

TEST(ClientConfigTest, ReconnectBackoffDefaultsToJavasUnlessSet) {
  jvm::TranslatedConfig defaults =
      jvm::TranslateJavaClientConfig({{"bootstrap.servers", "a:1"}}, jvm::ClientRole::kConsumer);
  EXPECT_EQ(defaults.properties.at("reconnect.backoff.max.ms"), "1000");
  EXPECT_EQ(defaults.properties.at("reconnect.backoff.ms"), "50");
  jvm::TranslatedConfig set = jvm::TranslateJavaClientConfig(
      {{"reconnect.backoff.max.ms", "30000"}}, jvm::ClientRole::kProducer);
  EXPECT_EQ(set.properties.at("reconnect.backoff.max.ms"), "30000");
  EXPECT_EQ(set.properties.at("reconnect.backoff.ms"), "50");
}

// Through jvm::MakeClientConf: a name librdkafka's allow-list does not have is refused naming it;
// a bad value fails as librdkafka says.
TEST(ClientConfigTest, UnknownKeysAndBadValuesFailNamingTheKey) {
  std::vector<std::string> warnings;
  auto conf = MakeConfWithWarnings({{"linger.ms", "5"}, {"no.such.key", "1"}}, warnings);
  ASSERT_FALSE(conf.ok());
  EXPECT_EQ(conf.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(conf.status().message()), HasSubstr("no.such.key"));
  auto bad = MakeConfWithWarnings({{"linger.ms", "not-a-number"}}, warnings);
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("linger.ms"));
  auto good = MakeConfWithWarnings({{"linger.ms", "5"}}, warnings);
  EXPECT_TRUE(good.ok()) << good.status();
  EXPECT_THAT(warnings, ::testing::IsEmpty());
}

}  // namespace
}  // namespace connectd::kafka
