// KafkaBasedLog against a real Kafka 4.4 broker: the internal topic is created compacted, writes
// are read back in partition order by the writer and by a later reader from the beginning,
// tombstones stay tombstones, ReadToEnd sees everything written before it, a topic that is
// not compacted is refused with Connect's message, and a reader whose consumer stops fetching
// gets a new one and misses nothing.
#include "runtime/storage/kafka_based_log.h"

#include <map>
#include <mutex>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/common/kafka_test_clients.h"
#include "tests/common/kafka_test_env.h"

namespace connectd::storage {
namespace {

using ::testing::HasSubstr;

class KafkaBasedLogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::string> bootstrap = testing::TestKafkaBootstrap("ctest-a");
    ASSERT_TRUE(bootstrap.ok()) << bootstrap.status();
    bootstrap_ = *bootstrap;
  }
  KafkaBasedLog::Options Options(const std::string& topic, int32_t partitions) {
    KafkaBasedLog::Options options;
    options.topic = topic;
    options.producer = options.consumer = options.admin = {{"bootstrap.servers", bootstrap_}};
    options.partitions = partitions;
    options.replication_factor = 1;
    options.start_timeout = std::chrono::seconds(30);
    return options;
  }

  // Everything a log consumed, in the order its thread handed it over.
  struct Seen {
    std::mutex mu;
    std::vector<LogRecord> records;
    void Add(const LogRecord& r) {
      std::lock_guard lock(mu);
      records.push_back(r);
    }
    std::vector<LogRecord> Get() {
      std::lock_guard lock(mu);
      return records;
    }
  };

  std::string bootstrap_;
};

TEST_F(KafkaBasedLogTest, WritesAreReadBackByTheWriterAndByLaterReaders) {
  const std::string topic = testing::UniqueName("connect-configs");
  Seen first;
  auto log =
      KafkaBasedLog::Start(Options(topic, 3), [&first](const LogRecord& r) { first.Add(r); });
  ASSERT_TRUE(log.ok()) << log.status();
  EXPECT_EQ((*log)->partitions(), 3);
  EXPECT_TRUE(first.Get().empty());

  std::atomic<int> acked{0};
  for (int i = 0; i < 30; ++i) {
    (*log)->Send("key-" + std::to_string(i % 10), "value-" + std::to_string(i),
                 [&acked](absl::Status s) {
                   EXPECT_TRUE(s.ok()) << s;
                   ++acked;
                 });
  }
  (*log)->Send("key-0", std::nullopt);  // a tombstone
  ASSERT_TRUE((*log)->Flush(std::chrono::seconds(10)).ok());
  EXPECT_EQ(acked.load(), 30);
  ASSERT_TRUE((*log)->ReadToEndSync(std::chrono::seconds(10)).ok());
  std::vector<LogRecord> records = first.Get();
  ASSERT_EQ(records.size(), 31u) << "ReadToEnd returned before everything written was read";

  // Per partition in offset order; one key always lands on one partition.
  std::map<std::string, int32_t> partition_of;
  std::map<int32_t, int64_t> last_offset;
  for (const LogRecord& r : records) {
    ASSERT_TRUE(r.key.has_value());
    auto [it, inserted] = partition_of.emplace(*r.key, r.partition);
    EXPECT_EQ(it->second, r.partition) << "key " << *r.key << " moved partition";
    if (last_offset.count(r.partition)) {
      EXPECT_GT(r.offset, last_offset[r.partition]);
    }
    last_offset[r.partition] = r.offset;
  }
  // One key's history, in write order, ending with its tombstone.
  std::vector<std::optional<std::string>> key0;
  for (const LogRecord& r : records) {
    if (r.key == "key-0") key0.push_back(r.value);
  }
  EXPECT_EQ(key0, (std::vector<std::optional<std::string>>{"value-0", "value-10", "value-20",
                                                           std::nullopt}));

  // A second reader (a worker that starts later) has read everything when Start returns.
  Seen second;
  auto reader =
      KafkaBasedLog::Start(Options(topic, 3), [&second](const LogRecord& r) { second.Add(r); });
  ASSERT_TRUE(reader.ok()) << reader.status();
  EXPECT_EQ(second.Get().size(), 31u);
  (*reader)->Stop();
  (*log)->Stop();
}

// A topic the log creates is not read at start (it is empty), except with
// await_leaders_when_created (the config topic), whose Start() returns once its partitions have
// leaders; either way what is written next is read back, by this log and by a later one, and the
// creating Start() says it was ready (on_topic_ready) exactly when asked to wait.
TEST_F(KafkaBasedLogTest, ATopicItCreatesIsUsableAtOnceWithOrWithoutWaitingForItsLeaders) {
  for (const bool await_leaders : {true, false}) {
    SCOPED_TRACE(await_leaders ? "await_leaders_when_created" : "not awaited");
    const std::string topic = testing::UniqueName("connect-offsets");
    KafkaBasedLog::Options options = Options(topic, await_leaders ? 1 : 25);
    options.await_leaders_when_created = await_leaders;
    std::atomic<int> ready_calls{0};
    options.on_topic_ready = [&ready_calls] { ++ready_calls; };
    Seen seen;
    auto log = KafkaBasedLog::Start(options, [&seen](const LogRecord& r) { seen.Add(r); });
    ASSERT_TRUE(log.ok()) << log.status();
    EXPECT_EQ((*log)->partitions(), options.partitions);
    EXPECT_EQ(ready_calls.load(), await_leaders ? 1 : 0);
    for (int i = 0; i < 50; ++i) (*log)->Send("key-" + std::to_string(i), "v");
    ASSERT_TRUE((*log)->Flush(std::chrono::seconds(20)).ok());
    ASSERT_TRUE((*log)->ReadToEndSync(std::chrono::seconds(20)).ok());
    EXPECT_EQ(seen.Get().size(), 50u);

    Seen later;
    options.on_topic_ready = [&ready_calls] { ++ready_calls; };
    auto reader = KafkaBasedLog::Start(options, [&later](const LogRecord& r) { later.Add(r); });
    ASSERT_TRUE(reader.ok()) << reader.status();
    EXPECT_EQ(later.Get().size(), 50u) << "a log of an existing topic reads it to its end at start";
    EXPECT_EQ(ready_calls.load(), await_leaders ? 2 : 1) << "an existing topic is ready at once";
  }
}

TEST_F(KafkaBasedLogTest, RefusesATopicThatIsNotCompacted) {
  const std::string topic = testing::UniqueName("not-compacted");
  ASSERT_TRUE(testing::CreateTopic(bootstrap_, topic, 1).ok());
  auto log = KafkaBasedLog::Start(Options(topic, 1), [](const LogRecord&) {});
  ASSERT_FALSE(log.ok());
  EXPECT_EQ(log.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(log.status().message(), HasSubstr("'cleanup.policy=compact'"));
  // Not required (e.g. a per-connector offsets topic Connect does not own): accepted.
  auto options = Options(topic, 1);
  options.require_compaction = false;
  EXPECT_TRUE(KafkaBasedLog::Start(options, [](const LogRecord&) {}).ok());
}

TEST_F(KafkaBasedLogTest, AnUnreachableClusterFailsStartWithinItsTimeout) {
  auto options = Options(testing::UniqueName("unreachable"), 1);
  options.producer = options.consumer = options.admin = {{"bootstrap.servers", "127.0.0.1:1"}};
  auto start = std::chrono::steady_clock::now();
  auto log = KafkaBasedLog::Start(options, [](const LogRecord&) {});
  EXPECT_FALSE(log.ok());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(40));
}

// A consumer that stops fetching (as librdkafka's can after a broker restart) is noticed within a
// few stall checks and replaced: the records written meanwhile arrive, once each, in order, and
// ReadToEnd completes; without the replacement it would wait forever.
TEST_F(KafkaBasedLogTest, AReaderWhoseConsumerStopsFetchingGetsANewOneAndMissesNothing) {
  const std::string topic = testing::UniqueName("connect-status");
  auto options = Options(topic, 2);
  options.stall_check_interval = std::chrono::milliseconds(200);
  Seen seen;
  auto log = KafkaBasedLog::Start(options, [&seen](const LogRecord& r) { seen.Add(r); });
  ASSERT_TRUE(log.ok()) << log.status();
  for (int i = 0; i < 6; ++i) (*log)->Send("key-" + std::to_string(i), "before");
  ASSERT_TRUE((*log)->Flush(std::chrono::seconds(10)).ok());
  ASSERT_TRUE((*log)->ReadToEndSync(std::chrono::seconds(10)).ok());
  ASSERT_EQ(seen.Get().size(), 6u);

  (*log)->PauseFetchingForTest();
  for (int i = 0; i < 6; ++i) (*log)->Send("key-" + std::to_string(i), "after");
  ASSERT_TRUE((*log)->Flush(std::chrono::seconds(10)).ok());
  absl::Status read = (*log)->ReadToEndSync(std::chrono::seconds(15));
  ASSERT_TRUE(read.ok()) << read << ": the stalled reader was not replaced";

  std::vector<LogRecord> records = seen.Get();
  ASSERT_EQ(records.size(), 12u) << "a record was read twice or not at all";
  std::map<int32_t, int64_t> last_offset;
  int after = 0;
  for (const LogRecord& r : records) {
    if (last_offset.count(r.partition)) {
      EXPECT_EQ(r.offset, last_offset[r.partition] + 1);
    }
    last_offset[r.partition] = r.offset;
    after += r.value == "after" ? 1 : 0;
  }
  EXPECT_EQ(after, 6);
  (*log)->Stop();
}

}  // namespace
}  // namespace connectd::storage
