// librdkafka's in-process mock cluster: the JVM-free demo backend and the fault injector.
#include "runtime/kafka/mock_cluster.h"

#include <chrono>
#include <thread>

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

// Latency on demand: with a 300 ms round trip on the only broker, produce and read back take
// longer, and still every record arrives once, in order.
TEST(MockClusterTest, BrokerLatencyDelaysButLosesNothing) {
  auto cluster = kafka::MockKafkaCluster::Start(1);
  ASSERT_TRUE(cluster.ok()) << cluster.status();
  ASSERT_TRUE((*cluster)->CreateTopic("slow", 1).ok());
  ASSERT_TRUE((*cluster)->SetBrokerRtt(1, 300).ok());
  std::vector<TestRecord> sent;
  for (int i = 0; i < 20; ++i) sent.push_back({.key = std::to_string(i), .value = "v"});
  const auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(ProduceRecords((*cluster)->bootstrap_servers(), "slow", sent).ok());
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(300));
  auto received = ReadTopic((*cluster)->bootstrap_servers(), "slow", sent.size());
  ASSERT_TRUE(received.ok()) << received.status();
  ASSERT_EQ(received->size(), sent.size());
  for (size_t i = 0; i < received->size(); ++i) EXPECT_EQ((*received)[i].key, std::to_string(i));
}

// Fetch requests failing with retriable errors (leadership moved, broker busy) are retried by
// the consumer: it reads every record once, in order.
TEST(MockClusterTest, RetriableFetchErrorsLoseNothing) {
  auto cluster = kafka::MockKafkaCluster::Start(1);
  ASSERT_TRUE(cluster.ok()) << cluster.status();
  ASSERT_TRUE((*cluster)->CreateTopic("f", 1).ok());
  std::vector<TestRecord> sent;
  for (int i = 0; i < 50; ++i) sent.push_back({.key = std::to_string(i), .value = "v"});
  ASSERT_TRUE(ProduceRecords((*cluster)->bootstrap_servers(), "f", sent).ok());
  (*cluster)->PushRequestErrors(/*Fetch*/ 1, 2, RD_KAFKA_RESP_ERR_NOT_LEADER_FOR_PARTITION);
  (*cluster)->PushRequestErrors(/*Fetch*/ 1, 2, RD_KAFKA_RESP_ERR_REQUEST_TIMED_OUT);
  auto received = ReadTopic((*cluster)->bootstrap_servers(), "f", sent.size());
  ASSERT_TRUE(received.ok()) << received.status();
  ASSERT_EQ(received->size(), sent.size());
  for (size_t i = 0; i < received->size(); ++i) {
    EXPECT_EQ((*received)[i].key, std::to_string(i));
    EXPECT_EQ((*received)[i].offset, static_cast<int64_t>(i));
  }
}

// A broker down while records are in flight: the idempotent producer holds them and delivers
// them, once and in order, when the broker is back.
TEST(MockClusterTest, BrokerDownThenUpDeliversEverything) {
  auto cluster = kafka::MockKafkaCluster::Start(1);
  ASSERT_TRUE(cluster.ok()) << cluster.status();
  ASSERT_TRUE((*cluster)->CreateTopic("d", 1).ok());
  ASSERT_TRUE((*cluster)->SetBrokerDown(1).ok());
  std::vector<TestRecord> sent;
  for (int i = 0; i < 30; ++i) sent.push_back({.key = std::to_string(i), .value = "v"});
  absl::Status produced;
  std::thread producer(
      [&] { produced = ProduceRecords((*cluster)->bootstrap_servers(), "d", sent); });
  std::this_thread::sleep_for(std::chrono::seconds(2));
  ASSERT_TRUE((*cluster)->SetBrokerUp(1).ok());
  producer.join();
  ASSERT_TRUE(produced.ok()) << produced;
  auto received = ReadTopic((*cluster)->bootstrap_servers(), "d", sent.size());
  ASSERT_TRUE(received.ok()) << received.status();
  ASSERT_EQ(received->size(), sent.size());
  for (size_t i = 0; i < received->size(); ++i) EXPECT_EQ((*received)[i].key, std::to_string(i));
}

TEST(MockClusterTest, StartRejectsZeroBrokers) {
  EXPECT_EQ(kafka::MockKafkaCluster::Start(0).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace connectd::testing
