// Exactly-once source support (KIP-618): transactional ids, the forced producer settings, the
// transaction boundary keys, the leader's zombie-fencing decision and the worker key, as Java's
// Worker, SourceConnectorConfig, DistributedConfig and DistributedHerder define them.
#include "runtime/kafka/exactly_once.h"

#include <gtest/gtest.h>

#include "runtime/config/worker_config.h"

namespace connectd::worker {
namespace {

TEST(ExactlyOnceTest, TransactionalIdsAsJava) {
  EXPECT_EQ(kafka::TaskTransactionalId("connect-cluster", "mirror-src", 3),
            "connect-cluster-mirror-src-3");
  EXPECT_EQ(kafka::LeaderTransactionalId("mm2"), "connect-cluster-mm2");
}

TEST(ExactlyOnceTest, TransactionBoundaryDefaultsToPoll) {
  EXPECT_EQ(*kafka::ParseTransactionBoundary({}), kafka::TransactionBoundary::kPoll);
  EXPECT_EQ(*kafka::ParseTransactionBoundary({{"transaction.boundary", "INTERVAL"}}),
            kafka::TransactionBoundary::kInterval);
  EXPECT_EQ(*kafka::ParseTransactionBoundary({{"transaction.boundary", "connector"}}),
            kafka::TransactionBoundary::kConnector);
  absl::StatusOr<kafka::TransactionBoundary> bad =
      kafka::ParseTransactionBoundary({{"transaction.boundary", "batch"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "Invalid value batch for configuration transaction.boundary: String must be one of "
            "(case insensitive): poll, interval, connector");
}

TEST(ExactlyOnceTest, IntervalFallsBackToOffsetFlushInterval) {
  EXPECT_EQ(kafka::TransactionBoundaryInterval({}, 5000), std::chrono::milliseconds(5000));
  EXPECT_EQ(kafka::TransactionBoundaryInterval({{"transaction.boundary.interval.ms", "250"}}, 5000),
            std::chrono::milliseconds(250));
  EXPECT_EQ(kafka::TransactionBoundaryInterval({{"transaction.boundary.interval.ms", ""}}, 60000),
            std::chrono::milliseconds(60000));
}

TEST(ExactlyOnceTest, ProducerConfigForcesIdempotenceAndTransactionalId) {
  std::vector<std::string> warnings;
  std::map<std::string, std::string> config = kafka::ExactlyOnceProducerConfig(
      {{"acks", "all"},
       {"enable.idempotence", "false"},  // Connect's base default, not a user's choice
       {"message.timeout.ms", "2147483647"},
       {"transactional.id", "mine"},
       {"client.id", "connector-producer-c-0"}},
      "g-c-0", &warnings);
  EXPECT_EQ(config["enable.idempotence"], "true");
  EXPECT_EQ(config["transactional.id"], "g-c-0");
  EXPECT_EQ(config["acks"], "all");
  EXPECT_EQ(config["client.id"], "connector-producer-c-0");
  // librdkafka: message.timeout.ms <= transaction.timeout.ms (default 60000).
  EXPECT_EQ(config["message.timeout.ms"], "60000");
  ASSERT_EQ(warnings.size(), 1u);  // only the user's transactional.id is worth a warning
  EXPECT_NE(warnings[0].find("'transactional.id'"), std::string::npos);

  config = kafka::ExactlyOnceProducerConfig(
      {{"transaction.timeout.ms", "900000"}, {"message.timeout.ms", "2147483647"}}, "g-c-1");
  EXPECT_EQ(config["message.timeout.ms"], "900000");
  config = kafka::ExactlyOnceProducerConfig({{"message.timeout.ms", "30000"}}, "g-c-1");
  EXPECT_EQ(config["message.timeout.ms"], "30000");
}

TEST(ExactlyOnceTest, FencingDecisionAsDistributedHerder) {
  // Not pending: every older generation is fenced already; nothing written.
  kafka::FencingDecision d = kafka::DecideFencing(false, 3, 3);
  EXPECT_FALSE(d.write_task_count);
  // First time with exactly-once: no record, nothing to fence, but the record is written.
  d = kafka::DecideFencing(true, std::nullopt, 4);
  EXPECT_TRUE(d.write_task_count);
  EXPECT_EQ(d.fence_count, 0);
  EXPECT_EQ(d.task_count, 4);
  // One task before and after: the new task's own InitProducerId fences the old one.
  d = kafka::DecideFencing(true, 1, 1);
  EXPECT_TRUE(d.write_task_count);
  EXPECT_EQ(d.fence_count, 0);
  // Otherwise every transactional id of the old generation.
  d = kafka::DecideFencing(true, 1, 2);
  EXPECT_EQ(d.fence_count, 1);
  EXPECT_EQ(d.task_count, 2);
  d = kafka::DecideFencing(true, 3, 1);
  EXPECT_EQ(d.fence_count, 3);
  EXPECT_EQ(d.task_count, 1);
  d = kafka::DecideFencing(true, 2, 0);  // stopped connector (KIP-875 offsets)
  EXPECT_EQ(d.fence_count, 2);
  EXPECT_EQ(d.task_count, 0);
}

TEST(ExactlyOnceTest, WorkerKeyCaseInsensitiveAndDistributedOnly) {
  std::map<std::string, std::string> props = {{"group.id", "g"},
                                              {"config.storage.topic", "c"},
                                              {"offset.storage.topic", "o"},
                                              {"status.storage.topic", "s"},
                                              {"key.converter", "x"},
                                              {"value.converter", "x"}};
  absl::StatusOr<config::WorkerConfig> worker =
      config::WorkerConfig::Create(props, config::WorkerMode::kDistributed);
  ASSERT_TRUE(worker.ok()) << worker.status();
  EXPECT_EQ(worker->exactly_once_source_support(), config::ExactlyOnceSourceSupport::kDisabled);
  EXPECT_FALSE(worker->transactional_leader_enabled());

  props["exactly.once.source.support"] = "Preparing";
  worker = config::WorkerConfig::Create(props, config::WorkerMode::kDistributed);
  ASSERT_TRUE(worker.ok()) << worker.status();
  EXPECT_TRUE(worker->transactional_leader_enabled());
  EXPECT_FALSE(worker->exactly_once_source_enabled());

  props["exactly.once.source.support"] = "ENABLED";
  worker = config::WorkerConfig::Create(props, config::WorkerMode::kDistributed);
  ASSERT_TRUE(worker.ok()) << worker.status();
  EXPECT_TRUE(worker->exactly_once_source_enabled());

  props["exactly.once.source.support"] = "on";
  worker = config::WorkerConfig::Create(props, config::WorkerMode::kDistributed);
  ASSERT_FALSE(worker.ok());
  EXPECT_EQ(worker.status().message(),
            "Invalid value on for configuration exactly.once.source.support: String must be one "
            "of (case insensitive): disabled, preparing, enabled");
}

}  // namespace
}  // namespace connectd::worker
