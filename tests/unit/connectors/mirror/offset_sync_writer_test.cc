// OffsetSyncWriter against librdkafka's in-process mock cluster: syncs held back by the
// in-flight limit must still be sent when the task only keeps polling (no new records, no
// offset commit), because serving the delivery reports is what frees the slots.
#include "connectors/mirror/offset_sync_writer.h"

#include <gtest/gtest.h>
#include <librdkafka/rdkafka.h>

#include <librdkafka/rdkafka_mock.h>

#include <chrono>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "connectors/mirror_client/records.h"

namespace connectd::mirror {
namespace {

KafkaHandle MockProducer() {
  char err[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  EXPECT_EQ(rd_kafka_conf_set(conf, "test.mock.num.brokers", "1", err, sizeof(err)),
            RD_KAFKA_CONF_OK)
      << err;
  rd_kafka_conf_set_dr_msg_cb(conf, &OffsetSyncWriter::DeliveryCallback);
  rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof(err));
  EXPECT_NE(rk, nullptr) << err;
  return KafkaHandle(rk);
}

TEST(OffsetSyncWriterTest, SyncsHeldBackByTheInFlightLimitAreSentByPoll) {
  OffsetSyncWriter writer(MockProducer(), "mm2-offset-syncs.B.internal", 100);
  // The first record of each of 25 partitions: every one is a due sync, 10 may be in flight.
  constexpr int kPartitions = 25;
  for (int32_t p = 0; p < kPartitions; ++p) writer.Update("orders", p, 0, 0);
  EXPECT_LT(writer.syncs_sent(), kPartitions);

  // The source goes quiet: only Poll() is called from now on.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (writer.syncs_sent() < kPartitions && std::chrono::steady_clock::now() < deadline) {
    writer.Poll();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(writer.syncs_sent(), kPartitions);
}

// Every sync record in the mock cluster's `topic`, in log order, as (partition, upstream).
std::vector<std::pair<int32_t, int64_t>> ReadSyncs(rd_kafka_t* producer, const std::string& topic,
                                                   size_t expected) {
  char err[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  const char* bootstraps = rd_kafka_mock_cluster_bootstraps(rd_kafka_handle_mock_cluster(producer));
  rd_kafka_conf_set(conf, "bootstrap.servers", bootstraps, err, sizeof(err));
  rd_kafka_conf_set(conf, "group.id", "offset-sync-reader", err, sizeof(err));
  KafkaHandle consumer(rd_kafka_new(RD_KAFKA_CONSUMER, conf, err, sizeof(err)));
  rd_kafka_topic_partition_list_t* assignment = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(assignment, topic.c_str(), 0)->offset =
      RD_KAFKA_OFFSET_BEGINNING;
  rd_kafka_assign(consumer.get(), assignment);
  rd_kafka_topic_partition_list_destroy(assignment);
  std::vector<std::pair<int32_t, int64_t>> syncs;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (syncs.size() < expected && std::chrono::steady_clock::now() < deadline) {
    rd_kafka_message_t* m = rd_kafka_consumer_poll(consumer.get(), 100);
    if (m == nullptr) continue;
    if (!m->err) {
      auto sync = DecodeOffsetSync(
          std::string_view(static_cast<const char*>(m->key), m->key_len),
          std::string_view(static_cast<const char*>(m->payload), m->len));
      if (sync) syncs.emplace_back(sync->partition, sync->upstream_offset);
    }
    rd_kafka_message_destroy(m);
  }
  rd_kafka_consumer_close(consumer.get());
  return syncs;
}

TEST(OffsetSyncWriterTest, HeldBackSyncsGoOutOldestFirstSoNoPartitionStarves) {
  KafkaHandle producer = MockProducer();
  rd_kafka_t* rk = producer.get();
  // Acks take 300 ms: the 10 in-flight slots stay taken while the updates below run.
  rd_kafka_mock_broker_set_rtt(rd_kafka_handle_mock_cluster(rk), 1, 300);
  OffsetSyncWriter writer(std::move(producer), "syncs", /*offset_lag_max=*/0);
  for (int32_t p = 0; p < 12; ++p) writer.Update("t", p, 0, 0);  // p0..p9 out, p10, p11 wait
  for (int32_t p = 0; p < 10; ++p) writer.Update("t", p, 1, 1);  // queued after them
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (writer.syncs_sent() < 22 && std::chrono::steady_clock::now() < deadline) {
    writer.Poll();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(writer.syncs_sent(), 22);
  std::vector<std::pair<int32_t, int64_t>> syncs = ReadSyncs(rk, "syncs", 22);
  ASSERT_EQ(syncs.size(), 22u);
  // p10 and p11 waited longest: they go before the partitions queued again later.
  EXPECT_EQ(syncs[10], std::make_pair(10, int64_t{0}));
  EXPECT_EQ(syncs[11], std::make_pair(11, int64_t{0}));
  EXPECT_EQ(syncs[12], std::make_pair(0, int64_t{1}));
  EXPECT_EQ(syncs[21], std::make_pair(9, int64_t{1}));
}

TEST(OffsetSyncWriterTest, WithoutAProducerNothingIsSentAndPollIsHarmless) {
  OffsetSyncWriter writer(nullptr, "mm2-offset-syncs.B.internal", 100);
  writer.Update("orders", 0, 0, 0);
  writer.PromoteDelayedSyncs();
  writer.Poll();
  EXPECT_EQ(writer.syncs_sent(), 0);
}

}  // namespace
}  // namespace connectd::mirror
