// KafkaOffsetBackingStore against a real Kafka 4.4 broker: offsets written by one worker's store
// are read by another's (Java's key and value bytes), tombstones remove them, a store started
// later sees everything, and Get sees what another store wrote after it started.
#include "runtime/storage/kafka_offset_backing_store.h"

#include <future>

#include <gtest/gtest.h>

#include "runtime/storage/offset_codec.h"
#include "tests/common/kafka_test_env.h"

namespace connectd::storage {
namespace {

class KafkaOffsetBackingStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::string> bootstrap = testing::TestKafkaBootstrap("ctest-a");
    ASSERT_TRUE(bootstrap.ok()) << bootstrap.status();
    options_.topic = testing::UniqueName("connect-offsets");
    options_.topic_property = "offset.storage.topic";
    options_.producer = options_.consumer = options_.admin = {{"bootstrap.servers", *bootstrap}};
    options_.partitions = 5;
    options_.replication_factor = 1;
    options_.start_timeout = std::chrono::seconds(30);
  }
  static std::string Key(const std::string& connector, const std::string& partition) {
    return *storage::SerializeOffsetKey(connector, partition);
  }
  static std::string Value(const std::string& offset) {
    return **storage::SerializeOffsetValue(offset);
  }
  static absl::Status SetAndWait(KafkaOffsetBackingStore& store, storage::OffsetWrites writes) {
    std::promise<absl::Status> done;
    store.Set(std::move(writes), [&done](absl::Status s) { done.set_value(s); });
    return done.get_future().get();
  }

  KafkaBasedLog::Options options_;
};

TEST_F(KafkaOffsetBackingStoreTest, OffsetsAreSharedThroughTheTopic) {
  KafkaOffsetBackingStore writer(options_);
  ASSERT_TRUE(writer.Start().ok());
  const std::string a = Key("file-src", R"({"filename":"/data/a.txt"})");
  const std::string b = Key("file-src", R"({"filename":"/data/b.txt"})");
  const std::string other = Key("mirror", R"({"cluster":"A","partition":0,"topic":"t"})");
  ASSERT_TRUE(SetAndWait(writer, {{a, Value(R"({"position":10})")},
                                  {b, Value(R"({"position":20})")},
                                  {other, Value(R"({"offset":99})")}})
                  .ok());
  // Visible to the writer at once.
  auto mine = writer.Get({a, b});
  ASSERT_TRUE(mine.ok());
  EXPECT_EQ(mine->at(a), Value(R"({"position":10})"));

  // Another worker's store, started later, has read everything.
  KafkaOffsetBackingStore reader(options_);
  ASSERT_TRUE(reader.Start().ok());
  auto read = reader.Get({a, b, other});
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->size(), 3u);
  EXPECT_EQ(read->at(other), Value(R"({"offset":99})"));
  EXPECT_EQ(reader.ConnectorPartitions("file-src").size(), 2u);
  auto found = reader.FindOffset("mirror", R"({"topic":"t","partition":0,"cluster":"A"})");
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(*found, Value(R"({"offset":99})")) << "found whatever the key order";

  // Writes after the reader started: Get reads the topic to its end first.
  ASSERT_TRUE(SetAndWait(writer, {{a, Value(R"({"position":11})")}, {b, std::nullopt}}).ok());
  auto later = reader.Get({a, b});
  ASSERT_TRUE(later.ok());
  EXPECT_EQ(later->at(a), Value(R"({"position":11})"));
  EXPECT_EQ(later->count(b), 0u) << "a tombstone removes the offset";
  EXPECT_EQ(reader.ConnectorPartitions("file-src").size(), 1u);
  reader.Stop();
  writer.Stop();
}

TEST_F(KafkaOffsetBackingStoreTest, UseBeforeStartFails) {
  KafkaOffsetBackingStore store(options_);
  EXPECT_EQ(store.Get({"k"}).status().code(), absl::StatusCode::kFailedPrecondition);
  std::promise<absl::Status> done;
  store.Set({{"k", "v"}}, [&done](absl::Status s) { done.set_value(s); });
  EXPECT_EQ(done.get_future().get().code(), absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace connectd::storage
