// bootstrap.servers by one rule for every client connectd writes (kafka/client/bootstrap.h),
// with Java's messages for what does not parse.
#include "runtime/kafka/client/bootstrap.h"

#include <gtest/gtest.h>

namespace connectd::kafka::client {
namespace {

TEST(ParseBootstrapServersTest, ReadsPrefixesBracketsAndBlanks) {
  absl::StatusOr<std::vector<BrokerAddress>> servers =
      ParseBootstrapServers(" a:9092, SASL_SSL://b.example:9093 ,[::1]:9094,,");
  ASSERT_TRUE(servers.ok()) << servers.status();
  EXPECT_EQ(*servers,
            (std::vector<BrokerAddress>{{"a", 9092}, {"b.example", 9093}, {"::1", 9094}}));
}

TEST(ParseBootstrapServersTest, AnEntryThatIsNotHostAndPortIsAnErrorNamingIt) {
  for (const char* bad : {"a:9092,b", "a:0", "a:65536", ":9092", "a:x", "a b:9092", "a:-1"}) {
    absl::StatusOr<std::vector<BrokerAddress>> servers = ParseBootstrapServers(bad);
    ASSERT_FALSE(servers.ok()) << bad;
    EXPECT_TRUE(absl::IsInvalidArgument(servers.status())) << bad;
    EXPECT_NE(servers.status().message().find("Invalid url in bootstrap.servers: "),
              std::string::npos)
        << servers.status();
  }
}

TEST(ParseBootstrapServersTest, AListWithoutAServerIsAnError) {
  for (const char* empty : {"", " ", ",,"}) {
    absl::StatusOr<std::vector<BrokerAddress>> servers = ParseBootstrapServers(empty);
    ASSERT_FALSE(servers.ok());
    EXPECT_EQ(servers.status().message(),
              "No resolvable bootstrap urls given in bootstrap.servers");
  }
}

}  // namespace
}  // namespace connectd::kafka::client
