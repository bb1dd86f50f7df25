// librdkafka (Debian's 2.0.2) against a real Apache Kafka 4.x broker from the test harness:
// create topics, produce, consume in a group and commit offsets. Everything connectd does with
// Kafka rests on these four working.
#include <chrono>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/common/kafka_test_clients.h"
#include "tests/common/kafka_test_env.h"

namespace connectd::testing {
namespace {

// Timestamps are recent: records older than the brokers' retention (7 days) would be deleted.
std::vector<TestRecord> NumberedRecords(int count, int partitions) {
  const int64_t base = std::chrono::duration_cast<std::chrono::milliseconds>(
                           std::chrono::system_clock::now().time_since_epoch())
                           .count();
  std::vector<TestRecord> records;
  for (int i = 0; i < count; ++i) {
    TestRecord record;
    record.key = "key-" + std::to_string(i);
    record.value = "value-" + std::to_string(i);
    record.headers = {{"seq", std::to_string(i)}, {"empty", ""}};
    record.partition = i % partitions;
    record.timestamp_ms = base + i;
    records.push_back(record);
  }
  return records;
}

class RealBrokerTest : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    absl::StatusOr<std::string> bootstrap = TestKafkaBootstrap(GetParam());
    ASSERT_TRUE(bootstrap.ok()) << bootstrap.status();
    bootstrap_ = *bootstrap;
  }
  std::string bootstrap_;
};

TEST_P(RealBrokerTest, CreateProduceConsumeCommit) {
  const std::string topic = UniqueName("roundtrip");
  const std::string group = UniqueName("roundtrip-group");
  constexpr int kPartitions = 3;
  constexpr int kRecords = 300;
  ASSERT_TRUE(CreateTopic(bootstrap_, topic, kPartitions).ok());

  std::vector<TestRecord> sent = NumberedRecords(kRecords, kPartitions);
  absl::Status produced = ProduceRecords(bootstrap_, topic, sent);
  ASSERT_TRUE(produced.ok()) << produced;

  absl::StatusOr<std::vector<TestRecord>> received =
      ConsumeRecords(bootstrap_, topic, group, kRecords);
  ASSERT_TRUE(received.ok()) << received.status();

  // Every record arrives once, intact, on its partition, in order within the partition.
  std::vector<int64_t> next_offset(kPartitions, 0);
  std::vector<bool> seen(kRecords, false);
  for (const TestRecord& record : *received) {
    int seq = std::stoi(record.key.substr(4));
    ASSERT_GE(seq, 0);
    ASSERT_LT(seq, kRecords);
    EXPECT_FALSE(seen[seq]) << "duplicate " << record.key;
    seen[seq] = true;
    TestRecord expected = sent[seq];
    expected.offset = next_offset[record.partition]++;
    EXPECT_EQ(record, expected);
  }
  for (int p = 0; p < kPartitions; ++p) {
    absl::StatusOr<int64_t> committed = CommittedOffset(bootstrap_, group, topic, p);
    ASSERT_TRUE(committed.ok()) << committed.status();
    EXPECT_EQ(*committed, kRecords / kPartitions) << "partition " << p;
  }
}

TEST_P(RealBrokerTest, CreatingAnExistingTopicIsAlreadyExists) {
  const std::string topic = UniqueName("exists");
  ASSERT_TRUE(CreateTopic(bootstrap_, topic, 1).ok());
  absl::Status again = CreateTopic(bootstrap_, topic, 1);
  EXPECT_EQ(again.code(), absl::StatusCode::kAlreadyExists) << again;
}

TEST_P(RealBrokerTest, CompactedTopicWithConfigs) {
  const std::string topic = UniqueName("compacted");
  absl::Status created = CreateTopic(bootstrap_, topic, 1, {{"cleanup.policy", "compact"}});
  ASSERT_TRUE(created.ok()) << created;
  TestRecord record{.key = "k", .value = "v", .headers = {}, .partition = 0};
  ASSERT_TRUE(ProduceRecords(bootstrap_, topic, {record}).ok());
}

// "ctest-a" and "ctest-b": MirrorMaker tests need two independent clusters.
INSTANTIATE_TEST_SUITE_P(BothClusters, RealBrokerTest, ::testing::Values("ctest-a", "ctest-b"),
                         [](const auto& info) { return info.index == 0 ? "A" : "B"; });

}  // namespace
}  // namespace connectd::testing
