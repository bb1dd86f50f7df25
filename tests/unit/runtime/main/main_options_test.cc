// What the connectd binary does with its environment and options before any command runs:
// `-D` options into KAFKA_OPTS (Java's system properties, runtime/main/java_options.h), and
// `properties-from-env` (the container entry point's worker config): values keep every byte, a
// line break in a value never adds a property, and the file reads back as written.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "runtime/config/properties.h"
#include "runtime/main/java_options.h"
#include "runtime/main/properties_from_env_command.h"

namespace connectd::main {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(PropertiesFromEnvTest, KafkaImagesNamesAndWholeValues) {
  const std::string pem =
      "-----BEGIN CERTIFICATE-----\nMIIB\\x=y: #!\n-----END CERTIFICATE-----\n";
  const std::map<std::string, std::string> props = PropertiesFromEnvironment(
      {"CONNECT_BOOTSTRAP_SERVERS=k1:9092,k2:9092", "CONNECT_GROUP_ID=g",
       "CONNECT_A__B___C_D=v", "CONNECT_SSL_TRUSTSTORE_CERTIFICATES=" + pem,
       "CONNECT_X=a\nCONNECT_PLUGIN_PATH=/tmp/evil", "KAFKA_HEAP_OPTS=-Xmx1g", "CONNECT_=empty",
       "CONNECT_LEADING= spaced"},
      "CONNECT_");
  EXPECT_EQ(props.size(), 6u);
  EXPECT_EQ(props.at("bootstrap.servers"), "k1:9092,k2:9092");
  EXPECT_EQ(props.at("a_b-c.d"), "v");
  EXPECT_EQ(props.at("ssl.truststore.certificates"), pem);
  EXPECT_EQ(props.at("x"), "a\nCONNECT_PLUGIN_PATH=/tmp/evil");
  EXPECT_EQ(props.count("plugin.path"), 0u);
  // Written and read back (as the worker reads its file): the same map, one line a property.
  const std::string text = config::FormatProperties(props);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 6);
  absl::StatusOr<config::Properties> read = config::ParseProperties(text);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(*read, props);
}

TEST(PropertiesFromEnvTest, EveryByteRoundTrips) {
  std::string all;
  for (int c = 1; c < 256; ++c) all += static_cast<char>(c);
  const config::Properties props = {{"k=:# !\t", all}, {" lead", " v"}, {"empty", ""}};
  absl::StatusOr<config::Properties> read =
      config::ParseProperties(config::FormatProperties(props));
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(*read, props);
}

TEST(JavaOptionsTest, DOptionsBeforeTheCommandJoinKafkaOpts) {
  setenv("KAFKA_OPTS", "-Xmx1g", 1);
  std::vector<std::string> args = {"-Da.b=c",      "--log-level", "DEBUG", "-Dx=y,z",
                                   "--log-format=json", "distributed", "w.properties", "-Dq=r"};
  ASSERT_TRUE(TakeJavaSystemProperties(args).ok());
  EXPECT_THAT(args, ElementsAre("--log-level", "DEBUG", "--log-format=json", "distributed",
                                "w.properties", "-Dq=r"));
  EXPECT_STREQ(std::getenv("KAFKA_OPTS"), "-Xmx1g -Da.b=c -Dx=y,z");
  std::vector<std::string> bad = {"-D=v", "version"};
  EXPECT_THAT(std::string(TakeJavaSystemProperties(bad).message()), HasSubstr("needs a name"));
  std::vector<std::string> spaced = {"-Da=b c", "version"};
  EXPECT_THAT(std::string(TakeJavaSystemProperties(spaced).message()), HasSubstr("whitespace"));
  unsetenv("KAFKA_OPTS");
}

}  // namespace
}  // namespace connectd::main
