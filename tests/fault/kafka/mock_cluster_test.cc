// librdkafka's in-process mock cluster: the JVM-free demo backend and the fault injector.
#include "runtime/kafka/mock_cluster.h"

#include <gtest/gtest.h>

#include "tests/common/kafka_test_clients.h"
#include "tests/common/kafka_test_env.h"

namespace connectd::testing {
namespace {

TEST(MockClusterTest, ProduceAndConsume) {
  auto cluster = kafka::MockKafkaCluster::Start(3);
  ASSERT_TRUE(cluster.ok()) << cluster.status();
  ASSERT_TRUE((*cluster)->CreateTopic("orders", 4).ok());
  std::vector<TestRecord> sent;
  for (int i = 0; i < 100; ++i) {
    sent.push_back({.key = std::to_string(i),
                    .value = "v" + std::to_string(i),
                    .headers = {{"h", "x"}},
                    .partition = i % 4});
  }
  ASSERT_TRUE(ProduceRecords((*cluster)->bootstrap_servers(), "orders", sent).ok());
  auto received =
      ConsumeRecords((*cluster)->bootstrap_servers(), "orders", UniqueName("g"), sent.size());
  ASSERT_TRUE(received.ok()) << received.status();
  EXPECT_EQ(received->size(), sent.size());
  for (const TestRecord& record : *received) {
    EXPECT_EQ(record.value, "v" + record.key);
    EXPECT_EQ(record.partition, std::stoi(record.key) % 4);
  }
}

// A produce request that fails with a retriable error is retried by the idempotent producer:
// nothing is lost and nothing duplicated.
TEST(MockClusterTest, RetriableProduceErrorsLoseNothing) {
  auto cluster = kafka::MockKafkaCluster::Start(1);
  ASSERT_TRUE(cluster.ok()) << cluster.status();
  ASSERT_TRUE((*cluster)->CreateTopic("t", 1).ok());
  (*cluster)->PushRequestErrors(/*Produce*/ 0, 3, RD_KAFKA_RESP_ERR_NOT_ENOUGH_REPLICAS);
  std::vector<TestRecord> sent;
  for (int i = 0; i < 50; ++i) sent.push_back({.key = std::to_string(i), .value = "v"});
  absl::Status produced = ProduceRecords((*cluster)->bootstrap_servers(), "t", sent);
  ASSERT_TRUE(produced.ok()) << produced;
  auto received = ConsumeRecords((*cluster)->bootstrap_servers(), "t", UniqueName("g"), 50);
  ASSERT_TRUE(received.ok()) << received.status();
  for (size_t i = 0; i < received->size(); ++i) {
    EXPECT_EQ((*received)[i].key, std::to_string(i));
    EXPECT_EQ((*received)[i].offset, static_cast<int64_t>(i));
  }
}

TEST(MockClusterTest, StartRejectsZeroBrokers) {
  EXPECT_EQ(kafka::MockKafkaCluster::Start(0).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace connectd::testing
