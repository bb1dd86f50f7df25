// KafkaStatusBackingStore against a real Kafka 4.4 broker: statuses one worker writes are read by
// another; a safe write (UNASSIGNED on shutdown) does not overwrite a newer status written by
// another worker; DESTROYED removes the status; active-topic records come and go.
#include "runtime/storage/kafka_status_backing_store.h"

#include <gtest/gtest.h>

#include "tests/common/kafka_test_env.h"

namespace connectd::storage {
namespace {

class KafkaStatusBackingStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::string> bootstrap = testing::TestKafkaBootstrap("ctest-a");
    ASSERT_TRUE(bootstrap.ok()) << bootstrap.status();
    options_.topic = testing::UniqueName("connect-status");
    options_.topic_property = "status.storage.topic";
    options_.producer = options_.consumer = options_.admin = {{"bootstrap.servers", *bootstrap}};
    options_.partitions = 5;
    options_.replication_factor = 1;
    options_.start_timeout = std::chrono::seconds(30);
  }
  static StatusValue Status(worker::State state, const std::string& worker, int32_t generation) {
    StatusValue v;
    v.state = state;
    v.worker_id = worker;
    v.generation = generation;
    return v;
  }
  void Sync(KafkaStatusBackingStore& writer, KafkaStatusBackingStore& reader) {
    ASSERT_TRUE(writer.Flush(std::chrono::seconds(10)).ok());
    ASSERT_TRUE(reader.Refresh(std::chrono::seconds(10)).ok());
  }
  KafkaBasedLog::Options options_;
};

TEST_F(KafkaStatusBackingStoreTest, WorkersShareStatusesWithConnectsRules) {
  KafkaStatusBackingStore w1(options_), w2(options_);
  ASSERT_TRUE(w1.Start().ok());
  ASSERT_TRUE(w2.Start().ok());

  w1.PutConnector("src", Status(worker::State::kRunning, "w1:8083", 3), WriteMode::kNormal);
  w1.PutTask({"src", 0}, Status(worker::State::kRunning, "w1:8083", 3), WriteMode::kNormal);
  StatusValue failed = Status(worker::State::kFailed, "w1:8083", 3);
  failed.trace = "java.lang.RuntimeException: \"boom\"\n\tat Task.poll";
  w1.PutTask({"src", 1}, failed, WriteMode::kSafe);
  Sync(w1, w2);
  ASSERT_EQ(w2.Connector("src"), Status(worker::State::kRunning, "w1:8083", 3));
  ASSERT_EQ(w2.Tasks("src").size(), 2u);
  EXPECT_EQ(w2.Task({"src", 1}), failed);

  // The task moved to w2 in generation 4; w1's late UNASSIGNED (a safe write of generation 3)
  // must not overwrite it.
  w2.PutTask({"src", 0}, Status(worker::State::kRunning, "w2:8083", 4), WriteMode::kNormal);
  Sync(w2, w1);
  w1.PutTask({"src", 0}, Status(worker::State::kUnassigned, "w1:8083", 3), WriteMode::kSafe);
  Sync(w1, w2);
  EXPECT_EQ(w2.Task({"src", 0}), Status(worker::State::kRunning, "w2:8083", 4));
  EXPECT_EQ(w1.Task({"src", 0}), Status(worker::State::kRunning, "w2:8083", 4));

  // Active topics (KIP-558), then their reset.
  w1.PutTopic({"orders", "src", 0, 1700000000000});
  Sync(w1, w2);
  ASSERT_EQ(w2.Topics("src").size(), 1u);
  EXPECT_EQ(w2.Topics("src").at("orders").discover_timestamp, 1700000000000);
  w1.DeleteTopic("src", "orders");
  Sync(w1, w2);
  EXPECT_TRUE(w2.Topics("src").empty());

  // A worker started later reads the current statuses.
  KafkaStatusBackingStore w3(options_);
  ASSERT_TRUE(w3.Start().ok());
  EXPECT_EQ(w3.Task({"src", 1}), failed);
  EXPECT_EQ(w3.Task({"src", 0}), Status(worker::State::kRunning, "w2:8083", 4));

  // Deleting the connector: DESTROYED is written as a tombstone, which also drops the
  // connector's task statuses from every reader's cache (Java's rule).
  w2.PutConnector("src", Status(worker::State::kDestroyed, "w2:8083", 5), WriteMode::kNormal);
  Sync(w2, w3);
  EXPECT_EQ(w3.Connector("src"), std::nullopt);
  EXPECT_TRUE(w3.Tasks("src").empty());
}

}  // namespace
}  // namespace connectd::storage
