// kafka::PartitionMetadataWait against a real broker: a record for a partition the producer's
// metadata does not know yet (a remote topic whose partitions MirrorSource just grew) is held
// until the partition exists, as Java's producer holds it in waitOnMetadata, and then
// delivered to that partition; a stopping task stops waiting at once.
#include "runtime/kafka/metadata_wait.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "runtime/kafka/rdkafka_handles.h"
#include "tests/common/kafka_test_clients.h"
#include "tests/common/kafka_test_env.h"

namespace connectd::testing {
namespace {

using Clock = std::chrono::steady_clock;

// Grows `topic` to `total` partitions (Admin CreatePartitions); "" on success.
std::string GrowPartitions(const std::string& bootstrap, const std::string& topic, int total) {
  absl::StatusOr<kafka::ConfPtr> conf = kafka::MakeConf({{"bootstrap.servers", bootstrap}});
  if (!conf.ok()) return std::string(conf.status().message());
  absl::StatusOr<kafka::RdKafkaPtr> admin = kafka::MakeClient(RD_KAFKA_PRODUCER, *std::move(conf));
  if (!admin.ok()) return std::string(admin.status().message());
  char err[256];
  rd_kafka_NewPartitions_t* grow =
      rd_kafka_NewPartitions_new(topic.c_str(), static_cast<size_t>(total), err, sizeof(err));
  rd_kafka_queue_t* queue = rd_kafka_queue_new(admin->get());
  rd_kafka_CreatePartitions(admin->get(), &grow, 1, nullptr, queue);
  rd_kafka_event_t* event = rd_kafka_queue_poll(queue, 30000);
  std::string out = event == nullptr ? "no CreatePartitions result" : "";
  if (event != nullptr) {
    size_t n = 0;
    const rd_kafka_topic_result_t** results =
        rd_kafka_CreatePartitions_result_topics(rd_kafka_event_CreatePartitions_result(event), &n);
    if (rd_kafka_event_error(event)) out = rd_kafka_event_error_string(event);
    for (size_t i = 0; i < n; ++i) {
      if (rd_kafka_topic_result_error(results[i]))
        out = rd_kafka_topic_result_error_string(results[i]);
    }
    rd_kafka_event_destroy(event);
  }
  rd_kafka_queue_destroy(queue);
  rd_kafka_NewPartitions_destroy(grow);
  return out;
}

class MetadataWaitTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::string> bootstrap = TestKafkaBootstrap("ctest-a");
    ASSERT_TRUE(bootstrap.ok()) << bootstrap.status();
    bootstrap_ = *bootstrap;
    topic_ = UniqueName("metadata-wait");
    ASSERT_TRUE(CreateTopic(bootstrap_, topic_, 1).ok());
    absl::StatusOr<kafka::ConfPtr> conf = kafka::MakeConf({{"bootstrap.servers", bootstrap_}});
    ASSERT_TRUE(conf.ok()) << conf.status();
    rd_kafka_conf_set_dr_msg_cb(conf->get(), &MetadataWaitTest::OnDelivery);
    absl::StatusOr<kafka::RdKafkaPtr> producer =
        kafka::MakeClient(RD_KAFKA_PRODUCER, *std::move(conf));
    ASSERT_TRUE(producer.ok()) << producer.status();
    producer_ = *std::move(producer);
    // A topic just created reaches every broker's metadata a moment later (KRaft): ask until it
    // is there, as a task's metadata wait would.
    int32_t partitions = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (partitions == 0 && std::chrono::steady_clock::now() < deadline) {
      partitions = kafka::WarmTopicMetadata(producer_.get(), topic_, 1000);
      if (partitions == 0) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ASSERT_EQ(partitions, 1);
  }

  static void OnDelivery(rd_kafka_t*, const rd_kafka_message_t* message, void*) {
    delivered_partition_ = message->err ? -2 : message->partition;
  }

  rd_kafka_resp_err_t Produce(int32_t partition) {
    static const char kValue[] = "held until its partition exists";
    return rd_kafka_producev(producer_.get(), RD_KAFKA_V_TOPIC(topic_.c_str()),
                             RD_KAFKA_V_PARTITION(partition),
                             RD_KAFKA_V_VALUE(const_cast<char*>(kValue), sizeof(kValue) - 1),
                             RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END);
  }

  std::string bootstrap_;
  std::string topic_;
  kafka::RdKafkaPtr producer_;
  static inline std::atomic<int32_t> delivered_partition_{-1};
};

TEST_F(MetadataWaitTest, ARecordForAPartitionNotYetKnownWaitsForItAndIsDelivered) {
  // What librdkafka answers at once (Java's producer would block instead).
  ASSERT_TRUE(kafka::IsMissingFromMetadata(Produce(2))) << "partition 2 of a 1-partition topic";

  std::string grown = "not yet";
  std::thread grow([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    grown = GrowPartitions(bootstrap_, topic_, 3);
  });
  const auto started = Clock::now();
  const auto deadline = started + std::chrono::seconds(60);
  int rounds = 0;
  absl::Status waited;
  {
    kafka::PartitionMetadataWait wait;
    rd_kafka_resp_err_t err;
    while (kafka::IsMissingFromMetadata(err = Produce(2))) {
      ++rounds;
      waited = wait.Wait(producer_.get(), topic_, 2, err, [&] { return Clock::now() > deadline; });
      if (!waited.ok()) break;
    }
    EXPECT_EQ(err, RD_KAFKA_RESP_ERR_NO_ERROR) << rd_kafka_err2str(err);
  }
  grow.join();
  ASSERT_EQ(grown, "");
  ASSERT_TRUE(waited.ok()) << waited;
  EXPECT_GE(rounds, 2);  // it really waited, across the growth
  EXPECT_GE(Clock::now() - started, std::chrono::milliseconds(1400));
  ASSERT_EQ(rd_kafka_flush(producer_.get(), 30000), RD_KAFKA_RESP_ERR_NO_ERROR);
  EXPECT_EQ(delivered_partition_.load(), 2);
  absl::StatusOr<std::vector<TestRecord>> read = ReadTopic(bootstrap_, topic_, 1);
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_EQ(read->size(), 1u);
  EXPECT_EQ((*read)[0].partition, 2);
}

TEST_F(MetadataWaitTest, AStoppingTaskStopsWaiting) {
  rd_kafka_resp_err_t err = Produce(5);
  ASSERT_TRUE(kafka::IsMissingFromMetadata(err));
  std::atomic<bool> stopping{false};
  std::thread stop([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    stopping = true;
  });
  const auto started = Clock::now();
  kafka::PartitionMetadataWait wait;
  absl::Status waited;
  while (
      (waited = wait.Wait(producer_.get(), topic_, 5, err, [&] { return stopping.load(); })).ok() &&
      Clock::now() - started < std::chrono::seconds(30)) {
  }
  stop.join();
  EXPECT_EQ(waited.code(), absl::StatusCode::kCancelled);
  EXPECT_LT(Clock::now() - started, std::chrono::seconds(5));
}

}  // namespace
}  // namespace connectd::testing
