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

#include "connectd/sdk/testing/fake_host.h"
#include "connectors/mirror/offset_index.h"
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

// The first `expected` records of partition 0 of `topic` in the mock cluster, as key and value.
std::vector<std::pair<std::string, std::string>> ReadRecords(rd_kafka_t* producer,
                                                             const std::string& topic,
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
  std::vector<std::pair<std::string, std::string>> records;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (records.size() < expected && std::chrono::steady_clock::now() < deadline) {
    rd_kafka_message_t* m = rd_kafka_consumer_poll(consumer.get(), 100);
    if (m == nullptr) continue;
    if (!m->err) {
      records.emplace_back(std::string(static_cast<const char*>(m->key), m->key_len),
                           std::string(static_cast<const char*>(m->payload), m->len));
    }
    rd_kafka_message_destroy(m);
  }
  rd_kafka_consumer_close(consumer.get());
  return records;
}

// Every sync record in `topic`, in log order, as (partition, upstream).
std::vector<std::pair<int32_t, int64_t>> ReadSyncs(rd_kafka_t* producer, const std::string& topic,
                                                   size_t expected) {
  std::vector<std::pair<int32_t, int64_t>> syncs;
  for (const auto& [key, value] : ReadRecords(producer, topic, expected)) {
    if (auto sync = DecodeOffsetSync(key, value)) {
      syncs.emplace_back(sync->partition, sync->upstream_offset);
    }
  }
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

TEST(OffsetSyncWriterTest, EveryCommitWritesTheIndexRunsThatClosedOrGrew) {
  KafkaHandle producer = MockProducer();
  rd_kafka_t* rk = producer.get();
  OffsetSyncWriter writer(std::move(producer), "syncs", 100, "index");
  for (int64_t o = 0; o < 600; ++o) writer.Update("t", 0, o, 1000 + o);          // one run
  for (int64_t o = 700; o < 710; ++o) writer.Update("t", 0, o, 1000 + o - 100);  // upstream gap
  for (int64_t o = 0; o < 5; ++o) writer.Update("t", 1, o, o);
  writer.PromoteDelayedSyncs();
  EXPECT_EQ(writer.runs_sent(), 3);
  writer.PromoteDelayedSyncs();  // nothing grew: nothing written
  EXPECT_EQ(writer.runs_sent(), 3);
  for (int64_t o = 710; o < 800; ++o) writer.Update("t", 0, o, 1000 + o - 100);  // grows
  writer.PromoteDelayedSyncs();
  EXPECT_EQ(writer.runs_sent(), 4);

  OffsetIndex index;
  std::vector<OffsetRunRecord> runs;
  for (const auto& [key, value] : ReadRecords(rk, "index", 4)) {
    std::optional<OffsetRunRecord> run = DecodeOffsetRun(key, value);
    ASSERT_TRUE(run.has_value());
    runs.push_back(*run);
    if (run->partition == 0) index.Add({run->upstream_offset, run->downstream_offset, run->count});
  }
  ASSERT_EQ(runs.size(), 4u);
  EXPECT_EQ(runs[0], (OffsetRunRecord{"t", 0, 0, 1000, 600}));
  EXPECT_EQ(runs[1], (OffsetRunRecord{"t", 0, 700, 1600, 10}));
  EXPECT_EQ(runs[2], (OffsetRunRecord{"t", 1, 0, 0, 5}));
  EXPECT_EQ(runs[3], (OffsetRunRecord{"t", 0, 700, 1600, 100}));  // same key, grown
  EXPECT_EQ(index.Translate(599), (OffsetTranslation{1599, true}));
  EXPECT_EQ(index.Translate(650), (OffsetTranslation{1600, true}));
  EXPECT_EQ(index.Translate(799), (OffsetTranslation{1699, true}));
  EXPECT_EQ(index.Translate(800), (OffsetTranslation{1700, true}));
}

TEST(OffsetSyncWriterTest, ABatchSyncsAndIndexesAsItsRecordsOneByOne) {
  // Batches of 1, 250, 1 and 1,000 records (a gap between the third and the fourth, as a
  // compacted source leaves), offset.lag.max 100: the same syncs and the same index runs.
  const std::vector<std::pair<int64_t, int32_t>> batches = {{0, 1}, {1, 250}, {251, 1}, {400, 1000}};
  OffsetSyncWriter batched(MockProducer(), "mm2-offset-syncs.B.internal", 100,
                           "mm2-offset-index.B.internal");
  OffsetSyncWriter single(MockProducer(), "mm2-offset-syncs.B.internal", 100,
                          "mm2-offset-index.B.internal");
  int64_t downstream = 5000;
  for (const auto& [upstream, count] : batches) {
    batched.UpdateBatch("t", 0, upstream, downstream, count);
    for (int32_t i = 0; i < count; ++i) single.Update("t", 0, upstream + i, downstream + i);
    downstream += count;
  }
  for (OffsetSyncWriter* w : {&batched, &single}) {
    w->PromoteDelayedSyncs();
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (w->has_queued() && std::chrono::steady_clock::now() < deadline) {
      w->Poll();
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  // The first record, one per 101 downstream offsets, the gap, and the delayed last one.
  EXPECT_GE(single.syncs_sent(), 12);
  EXPECT_EQ(batched.syncs_sent(), single.syncs_sent());
  EXPECT_EQ(batched.runs_sent(), single.runs_sent());
  EXPECT_EQ(batched.runs_dropped(), 0);
}

TEST(OffsetSyncWriterTest, RunsBeyondTheBudgetOfASendAreDroppedAndCounted) {
  sdk::testing::FakeHost host;  // takes the warning
  OffsetSyncWriter writer(MockProducer(), "syncs", 100, "index");
  // Every copy a run of its own (a gap after each): 1,500 closed runs in one commit interval.
  for (int64_t o = 0; o <= 1500; ++o) writer.Update("t", 0, 2 * o, o);
  writer.PromoteDelayedSyncs();
  EXPECT_EQ(writer.runs_sent(), 1001);  // the budget, and the open run
  EXPECT_EQ(writer.runs_dropped(), 500);
  ASSERT_FALSE(host.logs().empty());
  EXPECT_NE(host.logs().back().message.find("500 dropped over the budget of a partition per send"),
            std::string::npos)
      << host.logs().back().message;
}

TEST(OffsetSyncWriterTest, PollSendsTheRunsThatChangedEverySecondWithoutACommit) {
  OffsetSyncWriter writer(MockProducer(), "syncs", 100, "index");
  for (int64_t o = 0; o < 50; ++o) writer.Update("t", 0, o, o);
  writer.Poll();  // within the second since the writer began: nothing yet
  EXPECT_EQ(writer.runs_sent(), 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  writer.Poll();
  EXPECT_EQ(writer.runs_sent(), 1);
  writer.Poll();  // unchanged, and within the second
  EXPECT_EQ(writer.runs_sent(), 1);
  for (int64_t o = 50; o < 60; ++o) writer.Update("t", 0, o, o);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  writer.Poll();
  EXPECT_EQ(writer.runs_sent(), 2);  // the grown run again, under the same key
}

}  // namespace
}  // namespace connectd::mirror
