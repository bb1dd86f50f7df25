// BatchCopier against two fake clusters (tests/common/fake_kafka_cluster.h): every error path of
// the pass-through copy loop, each ending in what the owner sees — the target holding exactly
// the source's records, once, in order, every acknowledged batch an exact offset pair — or the
// partition returned to the record path with its reason and the offset it stops at. Errors
// are attributed to the side that gave them (source_error_code / target_error_code).
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "runtime/kafka/batch_copier.h"
#include "runtime/kafka/protocol/errors.h"
#include "runtime/kafka/protocol/frame_buffer_pool.h"
#include "runtime/kafka/protocol/record_batch.h"
#include "tests/common/fake_kafka_cluster.h"
#include "tests/common/record_batch_builder.h"

namespace connectd::kafka {
namespace {

using namespace std::chrono_literals;
using protocol::Code;
using protocol::Error;
using testing::BuildRecordBatch;
using testing::FakeKafkaCluster;
using testing::NumberedRecords;
using testing::ReadRecords;
using testing::TestBatchOptions;
using testing::TestRecord;
using Kind = BatchCopyEvent::Kind;

class BatchCopierTest : public ::testing::Test {
 protected:
  void SetUp() override {
    a_.CreateTopic("orders", 2);
    b_.CreateTopic("a.orders", 2);
  }

  // Appends `batches` batches of `records` records each to A's orders-`partition`, numbered
  // on from what is there.
  void Produce(int32_t partition, int batches, int records = 5, size_t value_bytes = 0) {
    for (int i = 0; i < batches; ++i) {
      const auto first = static_cast<int>(a_.EndOffset("orders", partition));
      a_.Append("orders", partition,
                BuildRecordBatch(NumberedRecords(first, records, value_bytes)));
    }
  }

  void Start(std::vector<int32_t> partitions = {0},
             const std::function<void(BatchCopierOptions&)>& adjust = {}, int64_t start = 0) {
    BatchCopierOptions options;
    options.source["bootstrap.servers"] = a_.bootstrap_servers();
    options.target["bootstrap.servers"] = b_.bootstrap_servers();
    options.source_links = a_.Links();
    options.target_links = b_.Links();
    options.missing_topic_timeout = 1s;
    options.request_timeout = 5s;
    options.on_produce_throttle = [this](int32_t ms) { produce_throttle_ms_ = ms; };
    if (adjust) adjust(options);
    absl::StatusOr<std::unique_ptr<BatchCopier>> copier = BatchCopier::Create(options);
    ASSERT_TRUE(copier.ok()) << copier.status();
    copier_ = *std::move(copier);
    std::vector<BatchCopyPartition> specs;
    for (int32_t p : partitions) specs.push_back({"orders", p, "a.orders", start});
    copier_->Add(std::move(specs));
  }

  // Takes events until `done` holds (true) or 15 s passed (false).
  bool WaitFor(const std::function<bool()>& done, std::chrono::seconds most = 15s) {
    const auto deadline = std::chrono::steady_clock::now() + most;
    while (std::chrono::steady_clock::now() < deadline) {
      for (BatchCopyEvent& e : copier_->TakeEvents()) events_.push_back(std::move(e));
      if (done()) return true;
      std::this_thread::sleep_for(10ms);
    }
    return false;
  }

  // The position the last kAcked or kProgress event of partition `index` reported (-1: none).
  int64_t Position(size_t index) const {
    int64_t position = -1;
    for (const BatchCopyEvent& e : events_) {
      if (e.index == index && e.kind != Kind::kReturned) position = e.position;
    }
    return position;
  }
  bool CaughtUp(size_t index, int32_t partition) const {
    return Position(index) == a_.EndOffset("orders", partition);
  }
  std::optional<BatchCopyEvent> Returned(size_t index) const {
    for (const BatchCopyEvent& e : events_) {
      if (e.index == index && e.kind == Kind::kReturned) return e;
    }
    return std::nullopt;
  }
  bool Progress(const std::function<bool(const BatchCopyEvent&)>& match) const {
    for (const BatchCopyEvent& e : events_) {
      if (e.kind == Kind::kProgress && match(e)) return true;
    }
    return false;
  }

  // Whether a kProgress event named exactly these errors (0: that side copies).
  bool ProgressNamed(int32_t source_error, int32_t target_error) const {
    return Progress([=](const BatchCopyEvent& e) {
      return e.source_error_code == source_error && e.target_error_code == target_error;
    });
  }

  // B's a.orders-`partition` holds A's orders-`partition` records (key, value, timestamp) from
  // `from` to `to` (-1: A's end), each once and in order, and every kAcked event of `index`
  // pairs each of its upstream offsets with the downstream offset of the same record.
  void ExpectExactCopy(size_t index, int32_t partition, int64_t from = 0, int64_t to = -1) {
    std::vector<TestRecord> source = ReadRecords(a_.Log("orders", partition));
    std::vector<TestRecord> target = ReadRecords(b_.Log("a.orders", partition));
    std::vector<TestRecord> expected;
    for (const TestRecord& r : source) {
      if (r.offset >= from && (to < 0 || r.offset < to)) expected.push_back(r);
    }
    ASSERT_EQ(target.size(), expected.size()) << "records on the target";
    for (size_t i = 0; i < target.size(); ++i) {
      EXPECT_EQ(target[i].key, expected[i].key) << i;
      EXPECT_EQ(target[i].value, expected[i].value) << i;
      EXPECT_EQ(target[i].timestamp_ms, expected[i].timestamp_ms) << i;
    }
    std::map<int64_t, const TestRecord*> upstream;
    std::map<int64_t, const TestRecord*> downstream;
    for (const TestRecord& r : source) upstream[r.offset] = &r;
    for (const TestRecord& r : target) downstream[r.offset] = &r;
    int acked = 0;
    for (const BatchCopyEvent& e : events_) {
      if (e.index != index || e.kind != Kind::kAcked) continue;
      ++acked;
      ASSERT_GE(e.downstream_base, 0) << "an acknowledged batch without its downstream offset";
      for (int64_t up = e.upstream_first; up <= e.upstream_last; ++up) {
        const int64_t down = e.downstream_base + (up - e.upstream_first);
        ASSERT_TRUE(upstream.count(up) && downstream.count(down)) << up << " -> " << down;
        EXPECT_EQ(upstream[up]->key, downstream[down]->key) << up << " -> " << down;
      }
    }
    EXPECT_GT(acked, 0);
  }

  FakeKafkaCluster a_{"a"};
  FakeKafkaCluster b_{"b"};
  std::unique_ptr<BatchCopier> copier_;  // stopped before the clusters go
  std::vector<BatchCopyEvent> events_;
  std::atomic<int32_t> produce_throttle_ms_{0};
};

TEST_F(BatchCopierTest, CopiesEveryBatchOnceWithExactOffsetPairs) {
  Produce(0, 20);
  Produce(1, 7, 3);
  Start({0, 1});
  Produce(0, 10);  // while copying
  ASSERT_TRUE(WaitFor([&] { return CaughtUp(0, 0) && CaughtUp(1, 1); }));
  ExpectExactCopy(0, 0);
  ExpectExactCopy(1, 1);
  EXPECT_EQ(b_.producer_ids_issued(), 1);
  EXPECT_EQ(copier_->producer_resets(), 0);
  EXPECT_FALSE(Returned(0) || Returned(1));
}

TEST_F(BatchCopierTest, ABatchStampedForTheTargetKeepsTheSourcesRecordBytes) {
  Produce(0, 3, 4, 100);
  Start();
  ASSERT_TRUE(WaitFor([&] { return CaughtUp(0, 0); }));
  const std::string source = a_.Log("orders", 0);
  const std::string target = b_.Log("a.orders", 0);
  ASSERT_EQ(source.size(), target.size());
  // The records (from byte 61 of each batch) are the source's bytes; the header says who wrote.
  for (size_t at = 0, batches = 0; at < source.size(); ++batches) {
    absl::StatusOr<protocol::RecordBatchHeader> h =
        protocol::ParseRecordBatchHeader(std::string_view(source).substr(at));
    ASSERT_TRUE(h.ok()) << h.status();
    EXPECT_EQ(source.substr(at + 61, h->size() - 61), target.substr(at + 61, h->size() - 61))
        << "batch " << batches;
    at += h->size();
  }
}

TEST_F(BatchCopierTest, ANewTargetLeaderGetsTheRestOnceWithoutANewProducerId) {
  Produce(0, 10);
  b_.FailProduces("a.orders", 0, Code(Error::kNotLeaderOrFollower), 2);
  Start();
  ASSERT_TRUE(WaitFor([&] { return Position(0) >= 20; }));
  b_.SetLeader("a.orders", 0, 2);  // an election on the target while the copy goes on
  Produce(0, 10);
  ASSERT_TRUE(WaitFor([&] { return CaughtUp(0, 0); }));
  ExpectExactCopy(0, 0);
  EXPECT_EQ(b_.producer_ids_issued(), 1) << "a leader change needs no new producer id";
  EXPECT_EQ(copier_->producer_resets(), 0);
}

TEST_F(BatchCopierTest, NotEnoughReplicasIsRetriedAndNamedAsTheTargets) {
  Produce(0, 10);
  b_.FailProduces("a.orders", 0, Code(Error::kNotEnoughReplicas), 1000000);
  Start();
  ASSERT_TRUE(WaitFor([&] { return ProgressNamed(0, Code(Error::kNotEnoughReplicas)); }));
  EXPECT_EQ(Position(0), 0) << "nothing is acknowledged while the target refuses";
  b_.ClearFaults("a.orders", 0);  // min.insync.replicas met again
  ASSERT_TRUE(WaitFor([&] { return CaughtUp(0, 0); }));
  ExpectExactCopy(0, 0);
  EXPECT_FALSE(Returned(0));
  const size_t caught_up = events_.size();
  std::optional<BatchCopyEvent> progress;
  ASSERT_TRUE(WaitFor([&] {
    for (size_t i = caught_up; i < events_.size() && !progress; ++i) {
      if (events_[i].kind == Kind::kProgress) progress = events_[i];
    }
    return progress.has_value();
  }));
  EXPECT_EQ(progress->target_error_code, 0) << "the error went with the fault";
}

TEST_F(BatchCopierTest, OutOfOrderSequenceStartsOverWithANewProducerIdAndLosesNothing) {
  Produce(0, 10);
  Start();
  ASSERT_TRUE(WaitFor([&] { return Position(0) >= 10; }));
  b_.FailProduces("a.orders", 0, Code(Error::kOutOfOrderSequenceNumber), 1);
  Produce(0, 10);
  ASSERT_TRUE(WaitFor([&] { return CaughtUp(0, 0); }));
  ExpectExactCopy(0, 0);
  EXPECT_EQ(copier_->producer_resets(), 1);
  EXPECT_EQ(b_.producer_ids_issued(), 2);
}

TEST_F(BatchCopierTest, AnUnknownProducerIdStartsOverToo) {
  Produce(0, 4);
  b_.FailProduces("a.orders", 0, Code(Error::kUnknownProducerId), 1);
  Start();
  ASSERT_TRUE(WaitFor([&] { return CaughtUp(0, 0); }));
  ExpectExactCopy(0, 0);
  EXPECT_EQ(copier_->producer_resets(), 1);
}

TEST_F(BatchCopierTest, ABatchWrittenButNotAcknowledgedIsNotWrittenTwice) {
  Start();
  ASSERT_TRUE(WaitFor([&] { return b_.producer_ids_issued() == 1; }));
  std::this_thread::sleep_for(200ms);
  b_.SetHeld(1, true);  // B writes what it gets and answers nothing
  Produce(0, 3);
  ASSERT_TRUE(WaitFor([&] { return b_.EndOffset("a.orders", 0) > 0; }));
  b_.SetDown(1, true);  // the answers are lost with the connection
  std::this_thread::sleep_for(300ms);
  b_.SetHeld(1, false);
  b_.SetDown(1, false);
  Produce(0, 3);
  ASSERT_TRUE(WaitFor([&] { return CaughtUp(0, 0); }));
  ExpectExactCopy(0, 0);  // the retries carried the same sequences: B kept one copy
  EXPECT_EQ(copier_->producer_resets(), 0);
}

TEST_F(BatchCopierTest, AnswersOfTheOldLeaderArePairedWithTheBatchesSentToIt) {
  Produce(0, 1);
  Start();
  ASSERT_TRUE(WaitFor([&] { return CaughtUp(0, 0); }));  // batches may go five at a time
  b_.SetHeld(1, true);
  Produce(0, 3);
  ASSERT_TRUE(WaitFor([&] { return b_.EndOffset("a.orders", 0) == 20; }));
  b_.SetLeader("a.orders", 0, 2);  // the leader moves with three batches unanswered
  Produce(0, 5);
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(b_.EndOffset("a.orders", 0), 20)
      << "nothing goes to the new leader before the old one answered";
  b_.SetHeld(1, false);
  ASSERT_TRUE(WaitFor([&] { return CaughtUp(0, 0); }));
  ExpectExactCopy(0, 0);
}

TEST_F(BatchCopierTest, ABatchTheTargetFindsTooLargeReturnsThePartitionAfterTheOnesBefore) {
  b_.CreateTopic("a.orders", 2, -1, 2000);  // max.message.bytes
  Produce(0, 2, 5, 10);
  Produce(0, 1, 5, 1000);  // about 5 KB
  Produce(0, 2, 5, 10);
  Start();
  ASSERT_TRUE(WaitFor([&] { return Returned(0).has_value(); }));
  const BatchCopyEvent returned = *Returned(0);
  EXPECT_EQ(returned.position, 10);
  EXPECT_EQ(returned.error_code, Code(Error::kMessageTooLarge));
  EXPECT_NE(returned.reason.find("MESSAGE_TOO_LARGE"), std::string::npos) << returned.reason;
  EXPECT_EQ(returned.copy_again_at, -1);
  ExpectExactCopy(0, 0, 0, 10);
}

TEST_F(BatchCopierTest, ACorruptSourceBatchGoesToTheRecordPathAndBatchesResumeAfterIt) {
  Produce(0, 2);
  std::string corrupt = BuildRecordBatch(NumberedRecords(10, 5));
  corrupt[corrupt.size() - 3] ^= 0x5a;  // a record byte: the CRC no longer matches
  a_.Append("orders", 0, corrupt);
  Produce(0, 2);
  Start();
  ASSERT_TRUE(WaitFor([&] { return Returned(0).has_value(); }));
  const BatchCopyEvent returned = *Returned(0);
  EXPECT_EQ(returned.position, 10);
  EXPECT_EQ(returned.error_code, Code(Error::kCorruptMessage));
  EXPECT_EQ(returned.copy_again_at, 15);
  ExpectExactCopy(0, 0, 0, 10);
}

TEST_F(BatchCopierTest, ABatchLargerThanThePartitionFetchSizeIsFetchedWhole) {
  // Partition 0 always has data ahead, so partition 1's large batch never comes first in a
  // response and Kafka cuts it off at the partition's fetch size.
  Produce(0, 40, 1, 700);
  Produce(1, 1, 4, 1500);  // about 6 KB, over the 1 KiB fetch size
  Produce(1, 2);
  Start({0, 1}, [](BatchCopierOptions& o) { o.source["max.partition.fetch.bytes"] = "1024"; });
  ASSERT_TRUE(WaitFor([&] { return CaughtUp(0, 0) && CaughtUp(1, 1); }));
  ExpectExactCopy(1, 1);
  ExpectExactCopy(0, 0);
}

TEST_F(BatchCopierTest, ATrailingTransactionMarkerIsPassed) {
  TestBatchOptions transactional{
      .producer_id = 7, .producer_epoch = 0, .base_sequence = 0, .transactional = true};
  a_.Append("orders", 0, BuildRecordBatch(NumberedRecords(0, 3), transactional));
  TestBatchOptions commit{
      .producer_id = 7, .producer_epoch = 0, .transactional = true, .control_type = 1};
  a_.Append("orders", 0, BuildRecordBatch({}, commit));
  ASSERT_EQ(a_.EndOffset("orders", 0), 4);
  Start();
  ASSERT_TRUE(WaitFor([&] { return Position(0) == 4; }))
      << "the position stops before the marker: " << Position(0);
  ExpectExactCopy(0, 0);
  EXPECT_EQ(ReadRecords(b_.Log("a.orders", 0)).size(), 3u);
}

TEST_F(BatchCopierTest, ReadCommittedLeavesAnAbortedTransactionOut) {
  TestBatchOptions transactional{
      .producer_id = 7, .producer_epoch = 0, .base_sequence = 0, .transactional = true};
  a_.Append("orders", 0, BuildRecordBatch(NumberedRecords(0, 3), transactional));
  TestBatchOptions abort{
      .producer_id = 7, .producer_epoch = 0, .transactional = true, .control_type = 0};
  a_.Append("orders", 0, BuildRecordBatch({}, abort));
  a_.AddAbortedTransaction("orders", 0, 7, 0);
  Produce(0, 1, 2);  // offsets 4 and 5
  Start({0}, [](BatchCopierOptions& o) { o.source["isolation.level"] = "read_committed"; });
  ASSERT_TRUE(WaitFor([&] { return Position(0) == 6; }));
  ExpectExactCopy(0, 0, 4);
}

TEST_F(BatchCopierTest, AnOffsetOutOfRangeReturnsThePartition) {
  Produce(0, 4);
  a_.DeleteRecordsBefore("orders", 0, 10);  // retention passed the start
  Start();
  ASSERT_TRUE(WaitFor([&] { return Returned(0).has_value(); }));
  EXPECT_EQ(Returned(0)->error_code, Code(Error::kOffsetOutOfRange));
  EXPECT_EQ(Returned(0)->position, 0);
  EXPECT_NE(Returned(0)->reason.find("out of range on the source"), std::string::npos);
}

TEST_F(BatchCopierTest, ADeletedSourceTopicReturnsItsPartitionsAfterTheMissingTopicTimeout) {
  Produce(0, 2);
  Start();
  ASSERT_TRUE(WaitFor([&] { return CaughtUp(0, 0); }));
  a_.DeleteTopic("orders");
  ASSERT_TRUE(WaitFor([&] { return Returned(0).has_value(); }));
  EXPECT_EQ(Returned(0)->error_code, Code(Error::kUnknownTopicOrPartition));
  EXPECT_EQ(Returned(0)->position, 10);
  EXPECT_NE(Returned(0)->reason.find("the source has no partition 0 of orders"), std::string::npos)
      << Returned(0)->reason;
}

TEST_F(BatchCopierTest, ATargetTopicMadeWithinTheTimeoutIsWaitedFor) {
  b_.DeleteTopic("a.orders");
  Produce(0, 2);
  Start({0}, [](BatchCopierOptions& o) { o.missing_topic_timeout = 5s; });
  std::this_thread::sleep_for(1s);
  b_.CreateTopic("a.orders", 2);
  ASSERT_TRUE(WaitFor([&] { return CaughtUp(0, 0); }));
  ExpectExactCopy(0, 0);
  EXPECT_FALSE(Returned(0));
}

TEST_F(BatchCopierTest, ASourcePartitionWithoutALeaderIsTheSourcesError) {
  Produce(0, 2);
  a_.SetLeader("orders", 0, -1);
  Start();
  ASSERT_TRUE(WaitFor([&] { return ProgressNamed(Code(Error::kLeaderNotAvailable), 0); }));
  a_.SetLeader("orders", 0, 3);
  ASSERT_TRUE(WaitFor([&] { return CaughtUp(0, 0); }));
  ExpectExactCopy(0, 0);
}

TEST_F(BatchCopierTest, ATargetPartitionWithoutALeaderIsTheTargetsError) {
  Produce(0, 2);
  b_.SetLeader("a.orders", 0, -1);
  Start();
  ASSERT_TRUE(WaitFor([&] { return ProgressNamed(0, Code(Error::kLeaderNotAvailable)); }));
  b_.SetLeader("a.orders", 0, 2);
  ASSERT_TRUE(WaitFor([&] { return CaughtUp(0, 0); }));
  ExpectExactCopy(0, 0);
}

TEST_F(BatchCopierTest, ATargetLeaderThatIsDownIsTheTargetsAndItsSuccessorTakesOver) {
  Produce(0, 2);
  Start();
  ASSERT_TRUE(WaitFor([&] { return CaughtUp(0, 0); }));
  b_.SetDown(1, true);
  Produce(0, 2);
  ASSERT_TRUE(WaitFor([&] { return ProgressNamed(0, -195); }));
  b_.SetLeader("a.orders", 0, 2);  // the controller elects another replica
  ASSERT_TRUE(WaitFor([&] { return CaughtUp(0, 0); }));
  ExpectExactCopy(0, 0);
}

TEST_F(BatchCopierTest, AFetchWithAnOldLeaderEpochIsFencedAndGoesOnAfterMetadata) {
  Produce(0, 2);
  Start();
  ASSERT_TRUE(WaitFor([&] { return CaughtUp(0, 0); }));
  a_.SetLeader("orders", 0, 1);  // the same broker leads again, in a new epoch
  Produce(0, 3);
  ASSERT_TRUE(WaitFor([&] { return CaughtUp(0, 0); }));
  ExpectExactCopy(0, 0);
  EXPECT_GE(a_.fetch_errors(Code(Error::kFencedLeaderEpoch)), 1)
      << "the copier's fetches name the leader epoch Metadata gave";
  EXPECT_FALSE(Returned(0));
}

TEST_F(BatchCopierTest, ASourceTruncatedByAnUncleanElectionIsNamedAndItsNewRecordsFollow) {
  Produce(0, 6);  // offsets 0..29 in leader epoch 0
  Start();
  ASSERT_TRUE(WaitFor([&] { return CaughtUp(0, 0); }));
  a_.Truncate("orders", 0, 20);  // the new leader had only 0..19
  a_.SetLeader("orders", 0, 2);
  Produce(0, 2, 5, 40);  // new records at 20..29, in the new leader's epoch
  ASSERT_TRUE(WaitFor([&] { return Returned(0).has_value(); }));
  const BatchCopyEvent returned = *Returned(0);
  EXPECT_EQ(returned.position, 20) << "the record path copies the new records from 20";
  EXPECT_EQ(returned.copy_again_at, 21);
  EXPECT_EQ(returned.truncated_offsets, 10) << "B holds 20..29 of the old leader";
  EXPECT_NE(returned.reason.find("the source truncated orders-0 at offset 20"), std::string::npos)
      << returned.reason;
  EXPECT_NE(returned.reason.find("offsets [20, 30) were fetched before"), std::string::npos)
      << returned.reason;
  EXPECT_EQ(b_.EndOffset("a.orders", 0), 30) << "nothing of the new records went as batches";
}

TEST_F(BatchCopierTest, AFetchErrorOfTheSourceLeaderIsRetriedAsTheSources) {
  Produce(0, 4);
  a_.FailFetches("orders", 0, Code(Error::kNotLeaderOrFollower), 3);
  Start();
  ASSERT_TRUE(WaitFor([&] { return CaughtUp(0, 0); }));
  ExpectExactCopy(0, 0);
  EXPECT_FALSE(Returned(0));
}

TEST_F(BatchCopierTest, AFetchErrorThatWillNotPassReturnsThePartitionNamingTheSource) {
  Produce(0, 2);
  a_.FailFetches("orders", 0, Code(Error::kTopicAuthorizationFailed), 1);
  Start();
  ASSERT_TRUE(WaitFor([&] { return Returned(0).has_value(); }));
  EXPECT_EQ(Returned(0)->error_code, Code(Error::kTopicAuthorizationFailed));
  EXPECT_NE(Returned(0)->reason.find("the source answered a fetch with TOPIC_AUTHORIZATION_FAILED"),
            std::string::npos)
      << Returned(0)->reason;
}

TEST_F(BatchCopierTest, ATargetRefusingTheCredentialsReturnsEveryPartition) {
  Produce(0, 2);
  Produce(1, 2);
  b_.RefuseConnections(absl::UnauthenticatedError("SASL authentication failed"));
  Start({0, 1});
  ASSERT_TRUE(WaitFor([&] { return Returned(0) && Returned(1); }));
  for (size_t i : {0u, 1u}) {
    EXPECT_EQ(Returned(i)->error_code, -1);
    EXPECT_EQ(Returned(i)->position, 0);
    EXPECT_NE(Returned(i)->reason.find("the target cluster refused the batch copier's connection"),
              std::string::npos)
        << Returned(i)->reason;
  }
  EXPECT_EQ(b_.EndOffset("a.orders", 0), 0);
}

TEST_F(BatchCopierTest, AProducerIdTheTargetDeniesReturnsEveryPartition) {
  Produce(0, 2);
  b_.FailInitProducerId(Code(Error::kClusterAuthorizationFailed));
  Start();
  ASSERT_TRUE(WaitFor([&] { return Returned(0).has_value(); }));
  EXPECT_EQ(Returned(0)->error_code, Code(Error::kClusterAuthorizationFailed));
  EXPECT_NE(Returned(0)->reason.find("idempotent producer id"), std::string::npos);
}

TEST_F(BatchCopierTest, AProducerIdNotGivenYetIsAskedForAgain) {
  Produce(0, 2);
  b_.FailInitProducerId(Code(Error::kCoordinatorLoadInProgress), 3);
  Start();
  ASSERT_TRUE(WaitFor([&] { return CaughtUp(0, 0); }));
  ExpectExactCopy(0, 0);
}

TEST_F(BatchCopierTest, TheTargetsProduceThrottleIsReportedToTheOwner) {
  Produce(0, 2);
  b_.SetProduceThrottleMs(150);
  Start();
  ASSERT_TRUE(WaitFor([&] { return CaughtUp(0, 0); }));
  EXPECT_EQ(produce_throttle_ms_.load(), 150);
  ExpectExactCopy(0, 0);
}

TEST_F(BatchCopierTest, TheSourcesFetchThrottleIsReportedInProgress) {
  Produce(0, 2);
  a_.SetFetchThrottleMs(120);
  Start();
  ASSERT_TRUE(WaitFor([&] {
    return Progress([](const BatchCopyEvent& e) { return e.fetch_throttle_ms == 120; });
  }));
}

TEST_F(BatchCopierTest, BatchesOfAnotherCodecThanTheProducersGoToTheRecordPath) {
  Produce(0, 2);
  Start({0}, [](BatchCopierOptions& o) { o.target["compression.type"] = "zstd"; });
  ASSERT_TRUE(WaitFor([&] { return Returned(0).has_value(); }));
  EXPECT_EQ(Returned(0)->position, 0);
  EXPECT_NE(Returned(0)->reason.find("compression.type is zstd"), std::string::npos)
      << Returned(0)->reason;
  EXPECT_EQ(b_.EndOffset("a.orders", 0), 0);
}

TEST_F(BatchCopierTest, LogAppendTimeAndCompactedBatchesGoToTheRecordPathSayingWhereToResume) {
  Produce(0, 1);
  TestBatchOptions log_append{.base_offset = 0, .log_append_time = true};
  a_.Append("orders", 0, BuildRecordBatch(NumberedRecords(5, 2), log_append));
  Start();
  ASSERT_TRUE(WaitFor([&] { return Returned(0).has_value(); }));
  EXPECT_EQ(Returned(0)->position, 5);
  EXPECT_EQ(Returned(0)->copy_again_at, -1) << "LogAppendTime: every batch after it too";

  // A compacted batch: records at 7 and 10 of 7..11 (delta 4 is its last).
  std::vector<TestRecord> kept = NumberedRecords(0, 2);
  kept[0].offset = 7;
  kept[1].offset = 10;
  a_.Append("orders", 1, BuildRecordBatch(NumberedRecords(0, 7)));
  a_.Append("orders", 1, BuildRecordBatch(kept, {.base_offset = 7, .last_offset_delta = 4}));
  events_.clear();
  copier_->Add({{"orders", 1, "a.orders", 0}});
  ASSERT_TRUE(WaitFor([&] { return Returned(1).has_value(); }));
  EXPECT_EQ(Returned(1)->position, 7);
  EXPECT_EQ(Returned(1)->copy_again_at, 12);
  EXPECT_NE(Returned(1)->reason.find("gap"), std::string::npos) << Returned(1)->reason;
}

TEST_F(BatchCopierTest, AStartInsideASourceBatchGoesToTheRecordPathUntilItsEnd) {
  Produce(0, 3);
  Start({0}, {}, 7);
  ASSERT_TRUE(WaitFor([&] { return Returned(0).has_value(); }));
  EXPECT_EQ(Returned(0)->position, 7);
  EXPECT_EQ(Returned(0)->copy_again_at, 10);
  EXPECT_EQ(b_.EndOffset("a.orders", 0), 0);
}

TEST_F(BatchCopierTest, ABoundedBufferPoolStillCopiesEveryPartition) {
  a_.SetLeader("orders", 1, 2);  // two fetches at once, one of them waits for room
  for (int32_t p : {0, 1}) Produce(p, 30, 5, 200);
  auto pool = std::make_shared<protocol::FrameBufferPool>(0, 64 << 10, 200 << 10);
  Start({0, 1}, [&](BatchCopierOptions& o) {
    o.fetch_buffers = pool;
    o.source["max.partition.fetch.bytes"] = "65536";
  });
  ASSERT_TRUE(WaitFor([&] { return CaughtUp(0, 0) && CaughtUp(1, 1); }));
  ExpectExactCopy(0, 0);
  ExpectExactCopy(1, 1);
}

TEST_F(BatchCopierTest, StopWaitsForTheProducesInFlightAndReportsTheirAcknowledgements) {
  Produce(0, 4);
  Start();
  ASSERT_TRUE(WaitFor([&] { return CaughtUp(0, 0); }));
  b_.SetHeld(1, true);
  Produce(0, 1);
  ASSERT_TRUE(WaitFor([&] { return b_.EndOffset("a.orders", 0) == 25; }));
  std::thread release([this] {
    std::this_thread::sleep_for(300ms);
    b_.SetHeld(1, false);
  });
  copier_->Stop(5s);
  release.join();
  for (BatchCopyEvent& e : copier_->TakeEvents()) events_.push_back(std::move(e));
  EXPECT_EQ(Position(0), 25) << "the batch in flight at Stop was acknowledged and reported";
}

TEST(BatchCopierOptionsTest, ABootstrapListThatDoesNotParseIsRefusedNamingTheEntry) {
  BatchCopierOptions options;
  options.source["bootstrap.servers"] = "a:9092,b";
  options.target["bootstrap.servers"] = "c:9092";
  absl::StatusOr<std::unique_ptr<BatchCopier>> copier = BatchCopier::Create(options);
  ASSERT_FALSE(copier.ok());
  EXPECT_EQ(copier.status().message(), "the source cluster: Invalid url in bootstrap.servers: b");
}

}  // namespace
}  // namespace connectd::kafka
