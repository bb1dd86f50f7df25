// HeartbeatLeg (runtime/mirror_maker/health/heartbeat_leg.h) on librdkafka's mock cluster: history
// read at start counts as arrived at its own timestamp, later heartbeats as arrived when read (with
// their latency), other flows' keys are ignored, a heartbeat from the future is skew evidence,
// and a broker that goes down shows up as the leg's error.
#include "runtime/mirror_maker/health/heartbeat_leg.h"

#include <chrono>
#include <thread>

#include "connectors/mirror_client/records.h"
#include "gtest/gtest.h"
#include "runtime/kafka/mock_cluster.h"

namespace connectd::health {
namespace {

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

class HeartbeatLegTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto cluster = kafka::MockKafkaCluster::Start(1);
    ASSERT_TRUE(cluster.ok()) << cluster.status();
    cluster_ = *std::move(cluster);
    ASSERT_TRUE(cluster_->CreateTopic("heartbeats", 1).ok());
    char err[512];
    rd_kafka_conf_t* conf = rd_kafka_conf_new();
    rd_kafka_conf_set(conf, "bootstrap.servers", cluster_->bootstrap_servers().c_str(), err,
                      sizeof(err));
    producer_.reset(rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof(err)));
    ASSERT_NE(producer_, nullptr) << err;
  }

  void Produce(const std::string& source, const std::string& target, int64_t timestamp) {
    mirror::Heartbeat heartbeat{source, target, timestamp};
    std::string key = mirror::EncodeHeartbeatKey(heartbeat);
    std::string value = mirror::EncodeHeartbeatValue(heartbeat);
    ASSERT_EQ(rd_kafka_producev(producer_.get(), RD_KAFKA_V_TOPIC("heartbeats"),
                                RD_KAFKA_V_PARTITION(0), RD_KAFKA_V_KEY(key.data(), key.size()),
                                RD_KAFKA_V_VALUE(value.data(), value.size()),
                                RD_KAFKA_V_TIMESTAMP(timestamp),
                                RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END),
              RD_KAFKA_RESP_ERR_NO_ERROR);
    ASSERT_EQ(rd_kafka_flush(producer_.get(), 10000), RD_KAFKA_RESP_ERR_NO_ERROR);
  }

  // Polls `leg` until `done` holds (at most 20 s).
  template <typename Done>
  bool PollUntil(HeartbeatLeg& leg, Done done) {
    for (int i = 0; i < 200; ++i) {
      leg.Poll(NowMs(), 5000);
      if (done(leg.facts())) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
  }

  LegSpec Spec() const {
    return LegSpec{"A",
                   "heartbeats",
                   std::make_pair(std::string("A"), std::string("B")),
                   {{"bootstrap.servers", cluster_->bootstrap_servers()}}};
  }

  std::unique_ptr<kafka::MockKafkaCluster> cluster_;
  kafka::RdKafkaPtr producer_;
};

TEST_F(HeartbeatLegTest, HistoryThenLiveArrivalsWithLatencyOfTheFlowOnly) {
  const int64_t old = NowMs() - 60'000;
  Produce("A", "B", old);
  Produce("A", "C", NowMs());  // another flow's heartbeat, newer
  HeartbeatLeg leg(Spec(), NowMs());
  EXPECT_GT(leg.facts().watching_since_ms, 0);
  ASSERT_TRUE(PollUntil(leg, [](const LegFacts& f) { return f.last_arrival_ms.has_value(); }));
  // History: arrived at its own timestamp, no latency sample, the other flow ignored.
  EXPECT_EQ(leg.facts().last_arrival_ms, old);
  EXPECT_EQ(leg.facts().newest_timestamp_ms, old);
  EXPECT_FALSE(leg.facts().latency_ms.has_value());

  // Wait for the end of the partition (live from then on), then a live heartbeat 250 ms old.
  ASSERT_TRUE(PollUntil(leg, [&leg](const LegFacts&) { return leg.caught_up(); }));
  const int64_t emitted = NowMs() - 250;
  Produce("A", "B", emitted);
  ASSERT_TRUE(PollUntil(leg, [&](const LegFacts& f) { return f.newest_timestamp_ms == emitted; }));
  ASSERT_TRUE(leg.facts().latency_ms.has_value());
  EXPECT_GE(*leg.facts().latency_ms, 250);
  EXPECT_LT(*leg.facts().latency_ms, 10'000);
  EXPECT_GE(*leg.facts().last_arrival_ms, emitted + 250);
  EXPECT_EQ(leg.facts().latency_history.size(), 1u);
  EXPECT_FALSE(leg.facts().skew_seen_ms.has_value());
  EXPECT_FALSE(leg.facts().error.has_value());
}

TEST_F(HeartbeatLegTest, AHeartbeatFromTheFutureIsSkewEvidence) {
  HeartbeatLeg leg(Spec(), NowMs());
  // The (empty) end reached: live from now on (librdkafka 2.14 takes longer than 0.5 s).
  ASSERT_TRUE(PollUntil(leg, [&leg](const LegFacts&) { return leg.caught_up(); }));
  Produce("A", "B", NowMs() + 3'600'000);
  ASSERT_TRUE(PollUntil(leg, [](const LegFacts& f) { return f.skew_seen_ms.has_value(); }));
  EXPECT_GT(leg.facts().skew_ms, 3'500'000);
  EXPECT_LT(*leg.facts().latency_ms, -3'500'000);
}

TEST_F(HeartbeatLegTest, ABrokerDownIsTheLegsError) {
  HeartbeatLeg leg(Spec(), NowMs());
  Produce("A", "B", NowMs());
  ASSERT_TRUE(PollUntil(leg, [](const LegFacts& f) { return f.last_arrival_ms.has_value(); }));
  ASSERT_TRUE(cluster_->SetBrokerDown(1).ok());
  EXPECT_TRUE(PollUntil(leg, [](const LegFacts& f) { return f.error.has_value(); }));
  ASSERT_TRUE(cluster_->SetBrokerUp(1).ok());
}

TEST(HeartbeatLegConfigTest, AClientSettingLibrdkafkaRefusesIsTheLegsError) {
  HeartbeatLeg leg(LegSpec{"A",
                           "heartbeats",
                           std::nullopt,
                           {{"bootstrap.servers", "127.0.0.1:1"}, {"fetch.max.bytes", "banana"}}},
                   NowMs());
  EXPECT_EQ(leg.facts().watching_since_ms, 0);
  ASSERT_TRUE(leg.facts().error.has_value());
  EXPECT_NE(leg.facts().error->message.find("fetch.max.bytes"), std::string::npos);
  leg.Poll(NowMs(), 5000);  // nothing to poll, no crash
}

}  // namespace
}  // namespace connectd::health
