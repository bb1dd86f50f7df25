// Exactly-once source support (KIP-618) on a real Kafka 4.4 broker:
//  - zombie fencing as connectd does it without Admin.fenceProducers (an InitProducerId per
//    transactional id): the old generation's producer is fenced, its next commit fails, and a
//    read_committed reader sees only what committed;
//  - the config topic's transactional leader writer (connect-cluster-{group.id}): a new leader's
//    claim fences the old one, whose next privileged write fails and re-claims; tasks-fencing
//    records round-trip through a read_committed store.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "runtime/kafka/exactly_once.h"
#include "runtime/storage/kafka_config_backing_store.h"
#include "tests/common/kafka_test_clients.h"
#include "tests/common/kafka_test_env.h"

namespace connectd::worker {
namespace {

using ::testing::HasSubstr;

class ExactlyOnceIntegrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::string> bootstrap = testing::TestKafkaBootstrap("ctest-a");
    ASSERT_TRUE(bootstrap.ok()) << bootstrap.status();
    bootstrap_ = *bootstrap;
  }
  std::map<std::string, std::string> Producer(const std::string& transactional_id) {
    return {{"bootstrap.servers", bootstrap_},
            {"transactional.id", transactional_id},
            {"enable.idempotence", "true"},
            {"acks", "all"}};
  }
  // Exactly the committed values of `topic` (ReadTopic's consumer is read_committed, librdkafka's
  // default): `count` arrive, and not one more within a few seconds.
  std::vector<std::string> CommittedValues(const std::string& topic, size_t count) {
    absl::StatusOr<std::vector<testing::TestRecord>> records =
        testing::ReadTopic(bootstrap_, topic, count);
    EXPECT_TRUE(records.ok()) << records.status();
    EXPECT_FALSE(testing::ReadTopic(bootstrap_, topic, count + 1, std::chrono::seconds(3)).ok());
    std::vector<std::string> values;
    if (records.ok()) {
      for (const auto& r : *records) values.push_back(r.value);
    }
    return values;
  }
  std::string bootstrap_;
};

TEST_F(ExactlyOnceIntegrationTest, FencingTheOldGenerationFailsItsNextCommit) {
  const std::string topic = testing::UniqueName("eos-data");
  ASSERT_TRUE(testing::CreateTopic(bootstrap_, topic, 1).ok());
  const std::string id = kafka::TaskTransactionalId(testing::UniqueName("group"), "src", 0);
  auto zombie = kafka::TransactionalProducer::Create(Producer(id), std::chrono::seconds(30));
  ASSERT_TRUE(zombie.ok()) << zombie.status();
  ASSERT_TRUE((*zombie)
                  ->SendInTransaction({{topic, std::string("k"), std::string("before")}},
                                      std::chrono::seconds(30))
                  .ok());

  ASSERT_TRUE(
      kafka::FenceProducers({{"bootstrap.servers", bootstrap_}}, {id}, std::chrono::seconds(30))
          .ok());

  absl::Status late = (*zombie)->SendInTransaction(
      {{topic, std::string("k"), std::string("zombie")}}, std::chrono::seconds(30));
  ASSERT_FALSE(late.ok());
  EXPECT_EQ(late.code(), absl::StatusCode::kAborted) << late;  // PRODUCER_FENCED
  EXPECT_THAT(CommittedValues(topic, 1), ::testing::ElementsAre("before"));

  // The new generation's producer with the same id works.
  auto next = kafka::TransactionalProducer::Create(Producer(id), std::chrono::seconds(30));
  ASSERT_TRUE(next.ok()) << next.status();
  ASSERT_TRUE((*next)
                  ->SendInTransaction({{topic, std::string("k"), std::string("after")}},
                                      std::chrono::seconds(30))
                  .ok());
  EXPECT_THAT(CommittedValues(topic, 2), ::testing::ElementsAre("before", "after"));
}

TEST_F(ExactlyOnceIntegrationTest, ANewLeaderFencesTheOldLeadersConfigWriter) {
  storage::KafkaBasedLog::Options options;
  options.topic = testing::UniqueName("eos-configs");
  options.producer = options.admin = {{"bootstrap.servers", bootstrap_}};
  options.consumer = {{"bootstrap.servers", bootstrap_}, {"isolation.level", "read_committed"}};
  options.replication_factor = 1;
  const std::string group = testing::UniqueName("group");
  auto leader_config = Producer(kafka::LeaderTransactionalId(group));

  storage::KafkaConfigBackingStore old_leader(options, nullptr);
  old_leader.UseTransactionalLeader(leader_config);
  ASSERT_TRUE(old_leader.Start().ok());
  ASSERT_TRUE(old_leader.ClaimWritePrivileges().ok());
  ASSERT_TRUE(
      old_leader.PutConnectorConfig("src", {{"connector.class", "X"}, {"name", "src"}}).ok());
  ASSERT_TRUE(
      old_leader.PutTaskConfigs("src", {{{"task.class", "T"}}, {{"task.class", "T"}}}).ok());
  EXPECT_TRUE(old_leader.Snapshot().PendingFencing("src"));

  storage::KafkaConfigBackingStore new_leader(options, nullptr);
  new_leader.UseTransactionalLeader(leader_config);
  ASSERT_TRUE(new_leader.Start().ok());
  ASSERT_EQ(new_leader.Snapshot().TaskCount("src"), 2);  // committed writes, read_committed
  ASSERT_TRUE(new_leader.ClaimWritePrivileges().ok());   // fences the old leader's producer

  absl::Status fenced = old_leader.PutTaskCountRecord("src", 2);
  ASSERT_FALSE(fenced.ok());
  EXPECT_THAT(std::string(fenced.message()),
              HasSubstr("Failed to perform fencable send to config topic"));
  // Target states are not privileged: any worker writes them, fenced or not.
  EXPECT_TRUE(old_leader.PutTargetState("src", herder::TargetState::kPaused).ok());

  ASSERT_TRUE(new_leader.PutTaskCountRecord("src", 2).ok());
  storage::ClusterConfigState state = new_leader.Snapshot();
  EXPECT_EQ(state.TaskCountRecord("src"), 2);
  EXPECT_FALSE(state.PendingFencing("src"));

  // A fenced leader that leads again re-claims on its next privileged write.
  ASSERT_TRUE(old_leader.PutTaskCountRecord("src", 3).ok());
  ASSERT_TRUE(old_leader.Refresh(std::chrono::seconds(30)).ok());
  EXPECT_EQ(old_leader.Snapshot().TaskCountRecord("src"), 3);
  ASSERT_TRUE(new_leader.Refresh(std::chrono::seconds(30)).ok());
  EXPECT_EQ(new_leader.Snapshot().TaskCountRecord("src"), 3);
}

}  // namespace
}  // namespace connectd::worker
