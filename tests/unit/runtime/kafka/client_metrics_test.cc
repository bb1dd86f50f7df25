// ClientMetrics: librdkafka statistics JSON (the fields librdkafka 2.14 emits) into the names
// Java's producer and consumer give their metrics.
#include "runtime/kafka/client_metrics.h"

#include <optional>
#include <string>

#include <gtest/gtest.h>

namespace connectd::kafka {
namespace {

class ClientMetricsTest : public ::testing::Test {
 protected:
  // The value of `domain:type=group,...` attribute `name` whose tags include `tags`.
  std::optional<double> Value(const std::string& group, const std::string& name,
                              const metrics::Tags& tags = {{"client-id", "c-1"}}) {
    for (const metrics::MetricValue& v : registry_.Snapshot(metrics::NowMs())) {
      if (v.name.group == group && v.name.name == name && v.name.tags == tags) return v.value;
    }
    return std::nullopt;
  }

  metrics::MetricsRegistry registry_;
  metrics::MetricsScope scope_{&registry_};
};

constexpr char kProducerStats[] = R"({
  "name": "c-1#producer-1", "type": "producer", "msg_size": 100, "msg_size_max": 1000,
  "tx": 3, "rx": 3, "tx_bytes": 1000, "rx_bytes": 200, "txmsgs": 10,
  "brokers": {
    "localhost:9092/bootstrap": {"nodeid": -1, "state": "UP", "rtt": {"avg": 90000, "max": 90000, "cnt": 1}},
    "localhost:9092/1": {"nodeid": 1, "state": "UP", "waitresp_cnt": 1, "connects": 1,
      "disconnects": 0, "rtt": {"avg": 2000, "max": 5000, "cnt": 2},
      "int_latency": {"avg": 1000, "max": 3000, "cnt": 1}, "req": {"Produce": 3}},
    "localhost:9093/2": {"nodeid": 2, "state": "DOWN", "connects": 2, "disconnects": 2,
      "rtt": {"avg": 0, "max": 0, "cnt": 0}}},
  "topics": {"t": {"metadata_age": 4000, "batchsize": {"avg": 500, "max": 800, "cnt": 2},
    "partitions": {"0": {"txmsgs": 10}}}}
})";

TEST_F(ClientMetricsTest, ProducerStatisticsUnderJavasNames) {
  ClientMetrics client(scope_, ClientMetrics::Kind::kProducer, "c-1");
  client.Update(kProducerStats);
  std::string later = kProducerStats;
  later.replace(later.find(R"("txmsgs": 10,)"), 13, R"("txmsgs": 25,)");
  client.Update(later);
  const std::string g = "producer-metrics";
  EXPECT_EQ(Value(g, "record-send-total"), 25);  // the first statistics count whole
  EXPECT_GT(*Value(g, "record-send-rate"), 0);
  EXPECT_EQ(Value(g, "request-total"), 3);  // no growth in the second
  EXPECT_EQ(Value(g, "outgoing-byte-total"), 1000);
  // Latencies in ms from the brokers that have a node id (not the bootstrap connection).
  EXPECT_EQ(Value(g, "request-latency-avg"), 2);
  EXPECT_EQ(Value(g, "request-latency-max"), 5);
  EXPECT_EQ(Value(g, "record-queue-time-max"), 3);
  EXPECT_EQ(Value(g, "batch-size-avg"), 500);
  EXPECT_EQ(Value(g, "buffer-total-bytes"), 1000);
  EXPECT_EQ(Value(g, "buffer-available-bytes"), 900);
  EXPECT_EQ(Value(g, "requests-in-flight"), 1);
  EXPECT_EQ(Value(g, "metadata-age"), 4);  // seconds, as Java's
  EXPECT_EQ(Value(g, "connection-count"), 1);
  EXPECT_EQ(Value(g, "connection-creation-total"), 3);
  EXPECT_EQ(Value(g, "connection-close-total"), 2);
  EXPECT_EQ(Value(g, "records-lag-max"), std::nullopt);
}

TEST_F(ClientMetricsTest, ProducerReadsTopicsAroundTheirLeftOutPartitions) {
  // A producer's statistics are read without their partitions (thousands of them on a worker
  // copying many): the members before and after them, at every level, are still read.
  ClientMetrics client(scope_, ClientMetrics::Kind::kProducer, "c-1");
  client.Update(R"({"msg_size": 100,
    "topics": {
      "a": {"partitions": {"0": {"txmsgs": 1, "nested": [1, {"x": [2, 3]}, null]},
                           "-1": {"partitions": {"deeper": true}}},
            "metadata_age": 9000, "batchsize": {"avg": 100, "max": 100, "cnt": 1}},
      "b": {"batchsize": {"avg": 300, "max": 700, "cnt": 1}, "partitions": {}}},
    "msg_size_max": 1000, "txmsgs": 4})");
  const std::string g = "producer-metrics";
  EXPECT_EQ(Value(g, "batch-size-avg"), 200);
  EXPECT_EQ(Value(g, "batch-size-max"), 700);
  EXPECT_EQ(Value(g, "metadata-age"), 9);
  EXPECT_EQ(Value(g, "buffer-available-bytes"), 900);
  EXPECT_EQ(Value(g, "record-send-total"), 4);
}

TEST_F(ClientMetricsTest, MalformedStatisticsAreIgnored) {
  ClientMetrics producer(scope_, ClientMetrics::Kind::kProducer, "c-1");
  producer.Update(R"({"txmsgs": 4, "topics": {"a": {"partitions": {"0": )");
  producer.Update("[1, 2]");
  ClientMetrics consumer(scope_, ClientMetrics::Kind::kConsumer, "c-2");
  consumer.Update(R"({"rxmsgs": 4, "topics": )");
  EXPECT_TRUE(registry_.Snapshot(metrics::NowMs()).empty());
  producer.Update(kProducerStats);  // and the next good one is read
  EXPECT_EQ(Value("producer-metrics", "record-send-total"), 10);
}

constexpr char kConsumerStats[] = R"({
  "type": "consumer", "rxmsgs": 40, "rxmsg_bytes": 4000,
  "brokers": {"localhost:9092/1": {"nodeid": 1, "state": "UP",
    "throttle": {"avg": 0, "max": 0, "cnt": 1},
    "req": {"Fetch": 5, "OffsetCommit": 2, "Heartbeat": 9, "JoinGroup": 1, "SyncGroup": 1}}},
  "topics": {"t": {"partitions": {
    "0": {"fetch_state": "active", "consumer_lag": 7, "app_offset": 10, "lo_offset": 0},
    "1": {"fetch_state": "none", "consumer_lag": -1, "app_offset": -1001, "lo_offset": -1},
    "-1": {"fetch_state": "none", "consumer_lag": -1}}}},
  "cgrp": {"state": "up", "join_state": "steady", "rebalance_age": 3000, "rebalance_cnt": 2,
    "assignment_size": 1}
})";

TEST_F(ClientMetricsTest, ConsumerLagFetchesAndGroupUnderJavasNames) {
  ClientMetrics client(scope_, ClientMetrics::Kind::kConsumer, "c-1");
  client.Update(kConsumerStats);
  const std::string f = "consumer-fetch-manager-metrics";
  const metrics::Tags p0 = {{"client-id", "c-1"}, {"topic", "t"}, {"partition", "0"}};
  EXPECT_EQ(Value(f, "records-lag", p0), 7);
  EXPECT_EQ(Value(f, "records-lead", p0), 10);
  EXPECT_EQ(Value(f, "records-lag", {{"client-id", "c-1"}, {"topic", "t"}, {"partition", "1"}}),
            std::nullopt);  // not assigned
  EXPECT_EQ(Value(f, "records-lag-max"), 7);
  EXPECT_EQ(Value(f, "records-consumed-total"), 40);
  EXPECT_EQ(Value(f, "bytes-consumed-total"), 4000);
  EXPECT_EQ(Value(f, "fetch-total"), 5);
  const std::string c = "consumer-coordinator-metrics";
  EXPECT_EQ(Value(c, "assigned-partitions"), 1);
  EXPECT_EQ(Value(c, "commit-total"), 2);
  EXPECT_EQ(Value(c, "heartbeat-total"), 9);
  EXPECT_EQ(Value(c, "rebalance-total"), 2);
  EXPECT_EQ(Value(c, "last-rebalance-seconds-ago"), 3);

  // The partition is revoked: its series go.
  std::string revoked = kConsumerStats;
  revoked.replace(revoked.find(R"("fetch_state": "active")"), 23, R"("fetch_state": "none")");
  client.Update(revoked);
  EXPECT_EQ(Value(f, "records-lag", p0), std::nullopt);
  EXPECT_EQ(Value(f, "records-lead", p0), std::nullopt);
  // A document that is not JSON changes nothing.
  client.Update("{not json");
  EXPECT_EQ(Value(f, "records-consumed-total"), 40);
}

}  // namespace
}  // namespace connectd::kafka
