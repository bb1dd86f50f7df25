// The v2 record batch layer (runtime/kafka/protocol/record_batch.h) against batches written by
// Kafka's own MemoryRecords (tests/golden/record_batch/batches.tsv): headers read as Java wrote
// them, CRCs checked, and a fetched batch stamped for the target producer byte for byte what
// Java's producer sends, for every compression codec; plus what must not be copied, split
// fetch data with a cut-off tail, and corruption.
#include "runtime/kafka/protocol/record_batch.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "runtime/kafka/protocol/crc32c.h"

namespace connectd::kafka::protocol {
namespace {

struct GoldenBatch {
  std::string name, source, target;  // target empty: not to be copied
  std::vector<int64_t> fields;       // base_offset ... base_sequence (10 numbers)
  ProducerStamp stamp;
};

std::vector<GoldenBatch> ReadGolden() {
  std::ifstream in(std::string(CONNECTD_SOURCE_DIR) + "/tests/golden/record_batch/batches.tsv");
  std::vector<GoldenBatch> out;
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> f = absl::StrSplit(line, '\t');
    if (f.size() != 13) continue;
    GoldenBatch b;
    b.name = f[0];
    b.source = absl::HexStringToBytes(f[1]);
    if (f[2] != "~") b.target = absl::HexStringToBytes(f[2]);
    for (int i = 3; i <= 11; ++i) {
      int64_t v = 0;
      EXPECT_TRUE(absl::SimpleAtoi(f[i], &v)) << line;
      b.fields.push_back(v);
    }
    if (f[12] != "~") {
      std::vector<std::string> s = absl::StrSplit(f[12], '/');
      int64_t pid = 0, epoch = 0, seq = 0, tx = 0;
      EXPECT_TRUE(absl::SimpleAtoi(s[0], &pid) && absl::SimpleAtoi(s[1], &epoch) &&
                  absl::SimpleAtoi(s[2], &seq) && absl::SimpleAtoi(s[3], &tx));
      b.stamp = {pid, static_cast<int16_t>(epoch), static_cast<int32_t>(seq), tx == 1};
    }
    out.push_back(std::move(b));
  }
  return out;
}

TEST(Crc32cTest, KnownVectors) {
  EXPECT_EQ(Crc32c(std::string_view("123456789")), 0xE3069283u);
  EXPECT_EQ(Crc32c(std::string_view("")), 0u);
  EXPECT_EQ(Crc32c(std::string(32, '\0')), 0x8A9136AAu);  // RFC 3720 B.4
  EXPECT_EQ(Crc32c(std::string(32, '\xff')), 0x62A8AB43u);
}

TEST(Crc32cTest, TheTableAndTheCpuInstructionAgree) {
  std::string bytes;
  uint32_t state = 12345;
  for (int i = 0; i < 4099; ++i) {
    state = state * 1103515245 + 12345;
    bytes.push_back(static_cast<char>(state >> 16));
  }
  for (size_t offset : {0, 1, 3, 7}) {
    for (size_t size : {0, 1, 7, 8, 9, 63, 64, 65, 4092}) {
      EXPECT_EQ(Crc32c(bytes.data() + offset, size),
                internal::Crc32cPortable(bytes.data() + offset, size))
          << offset << "+" << size;
    }
  }
  EXPECT_EQ(internal::Crc32cPortable("123456789", 9), 0xE3069283u);
}

TEST(Crc32cTest, AChangeUpdatesTheCrcAsRecomputingWould) {
  std::string bytes;
  uint32_t state = 777;
  auto next = [&state] { return state = state * 1103515245 + 12345; };
  for (int i = 0; i < (1 << 20) + 13; ++i) bytes.push_back(static_cast<char>(next() >> 16));
  int checked = 0;
  for (size_t size : {1, 2, 8, 36, 61, 4096, 65537, (1 << 20) + 13}) {
    for (int round = 0; round < 6; ++round) {
      const size_t length = 1 + next() % std::min<size_t>(size, 36);
      const size_t at = next() % (size - length + 1);
      std::string changed = bytes.substr(0, size);
      std::string xor_bytes(length, '\0');
      for (size_t i = 0; i < length; ++i) {
        xor_bytes[i] = static_cast<char>(next() >> 16);
        changed[at + i] ^= xor_bytes[i];
      }
      const uint32_t before = Crc32c(bytes.data(), size);
      EXPECT_EQ(Crc32cAfterChange(before, size, at, xor_bytes), Crc32c(changed))
          << size << " bytes, " << length << " changed at " << at;
      // A CRC that was wrong stays wrong by the same difference.
      EXPECT_EQ(Crc32cAfterChange(before ^ 0x10, size, at, xor_bytes), Crc32c(changed) ^ 0x10);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 48);
}

TEST(RecordBatchGoldenTest, HeadersAndStampsMatchJava) {
  std::vector<GoldenBatch> golden = ReadGolden();
  ASSERT_EQ(golden.size(), 20u);
  int copied = 0;
  for (const GoldenBatch& g : golden) {
    SCOPED_TRACE(g.name);
    absl::StatusOr<SplitBatches> split = SplitRecordBatches(g.source);
    ASSERT_TRUE(split.ok()) << split.status();
    ASSERT_EQ(split->batches.size(), 1u);
    EXPECT_EQ(split->partial_bytes, 0u);
    absl::StatusOr<RecordBatchHeader> h = ParseRecordBatchHeader(g.source);
    ASSERT_TRUE(h.ok()) << h.status();
    EXPECT_EQ(h->size(), g.source.size());
    EXPECT_EQ((std::vector<int64_t>{h->base_offset, h->last_offset_delta, h->record_count,
                                    h->compression(), h->attributes, h->max_timestamp,
                                    h->producer_id, h->producer_epoch, h->base_sequence}),
              g.fields);
    if (g.target.empty()) {
      EXPECT_TRUE(PassThroughObstacle(*h).has_value());
      continue;
    }
    EXPECT_EQ(PassThroughObstacle(*h), std::nullopt);
    std::string stamped = g.source;
    StampForProduce(stamped, g.stamp);
    EXPECT_EQ(absl::BytesToHexString(stamped), absl::BytesToHexString(g.target));
    EXPECT_TRUE(RecordBatchCrcMatches(stamped));
    ++copied;
  }
  EXPECT_EQ(copied, 16);
}

TEST(RecordBatchGoldenTest, ObstaclesSayWhy) {
  for (const GoldenBatch& g : ReadGolden()) {
    absl::StatusOr<RecordBatchHeader> h = ParseRecordBatchHeader(g.source);
    ASSERT_TRUE(h.ok());
    std::optional<std::string> why = PassThroughObstacle(*h);
    if (g.name == "control-commit" || g.name == "control-abort") {
      EXPECT_EQ(why, "a control batch (transaction marker)");
    } else if (g.name == "log-append-time") {
      EXPECT_EQ(why, "LogAppendTime timestamps");
    } else if (g.name == "compacted-gaps") {
      EXPECT_EQ(why, "offset gaps inside (3 records over 6 offsets)");
    } else {
      EXPECT_EQ(why, std::nullopt);
    }
  }
}

const GoldenBatch& Named(const std::vector<GoldenBatch>& golden, const std::string& name) {
  for (const GoldenBatch& g : golden) {
    if (g.name == name) return g;
  }
  ADD_FAILURE() << name;
  return golden.front();
}

TEST(RecordBatchGoldenTest, ControlMarkersReadAsJavaWroteThem) {
  std::vector<GoldenBatch> golden = ReadGolden();
  EXPECT_EQ(ControlRecordType(Named(golden, "control-commit").source), 1);
  EXPECT_EQ(ControlRecordType(Named(golden, "control-abort").source), 0);
  EXPECT_EQ(ControlRecordType(Named(golden, "transactional-none").source), std::nullopt);
  std::string cut = Named(golden, "control-abort").source;
  EXPECT_EQ(ControlRecordType(cut.substr(0, kRecordBatchHeaderSize + 3)), std::nullopt);
}

// A data batch of `producer_id` over [first, last].
RecordBatchHeader Data(int64_t producer_id, bool transactional, int64_t first, int64_t last) {
  RecordBatchHeader h;
  h.base_offset = first;
  h.last_offset_delta = static_cast<int32_t>(last - first);
  h.record_count = static_cast<int32_t>(last - first + 1);
  h.producer_id = producer_id;
  h.attributes = transactional ? 0x10 : 0;
  return h;
}

TEST(ReadCommittedFilterTest, SkipsAbortedTransactionsUpToTheirMarkerAndEveryMarker) {
  std::vector<GoldenBatch> golden = ReadGolden();
  const std::string& abort = Named(golden, "control-abort").source;
  const std::string& commit = Named(golden, "control-commit").source;
  RecordBatchHeader abort_7 = *ParseRecordBatchHeader(abort);
  abort_7.producer_id = 7;
  abort_7.base_offset = 30;
  RecordBatchHeader commit_8 = *ParseRecordBatchHeader(commit);
  commit_8.producer_id = 8;
  commit_8.base_offset = 36;

  ReadCommittedFilter filter({{5, 50}, {7, 10}});
  EXPECT_FALSE(filter.Copy(Data(7, true, 10, 14), ""));  // aborted
  EXPECT_TRUE(filter.Copy(Data(8, true, 15, 19), ""));   // another producer's transaction
  EXPECT_TRUE(filter.Copy(Data(9, false, 20, 24), ""));  // not transactional
  EXPECT_FALSE(filter.Copy(Data(7, true, 25, 29), ""));  // still inside the aborted one
  EXPECT_FALSE(filter.Copy(abort_7, abort));             // its ABORT marker ends it
  EXPECT_TRUE(filter.Copy(Data(7, true, 31, 35), ""));   // its next transaction
  EXPECT_FALSE(filter.Copy(commit_8, commit));           // markers are never copied
  EXPECT_TRUE(filter.Copy(Data(5, true, 40, 44), ""));   // before its aborted one starts
  EXPECT_FALSE(filter.Copy(Data(5, true, 48, 52), ""));  // reaches it
}

TEST(RecordBatchTest, FetchDataSplitsIntoWholeBatchesAndLeavesACutOffTail) {
  std::vector<GoldenBatch> golden = ReadGolden();
  std::string data = golden[0].source + golden[6].source + golden[15].source;
  const std::string tail = golden[3].source.substr(0, golden[3].source.size() - 5);
  for (size_t cut : {size_t{0}, size_t{3}, size_t{61}, tail.size()}) {
    const std::string fetched = data + tail.substr(0, cut);  // the views point into it
    absl::StatusOr<SplitBatches> split = SplitRecordBatches(fetched);
    ASSERT_TRUE(split.ok()) << split.status();
    ASSERT_EQ(split->batches.size(), 3u);
    EXPECT_EQ(split->batches[1], golden[6].source);
    EXPECT_EQ(split->partial_bytes, cut);
  }
  absl::StatusOr<SplitBatches> empty = SplitRecordBatches("");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->batches.empty());
}

TEST(RecordBatchTest, CorruptionAndOldFormatsAreRefused) {
  std::string batch = ReadGolden()[0].source;
  std::string flipped = batch;
  flipped[flipped.size() - 1] ^= 0x01;  // a record byte
  EXPECT_EQ(SplitRecordBatches(flipped).status().code(), absl::StatusCode::kDataLoss);
  EXPECT_FALSE(RecordBatchCrcMatches(flipped));
  // Left to the target: split without reading the records, and still corrupt once stamped
  // (the target broker refuses it).
  absl::StatusOr<SplitBatches> unchecked = SplitRecordBatches(flipped, CrcCheck::kLeaveToTheTarget);
  ASSERT_TRUE(unchecked.ok()) << unchecked.status();
  EXPECT_EQ(unchecked->batches.size(), 1u);
  StampForProduce(flipped, {1000, 2, 30, false});
  EXPECT_FALSE(RecordBatchCrcMatches(flipped));
  std::string whole = batch;
  StampForProduce(whole, {1000, 2, 30, true});
  EXPECT_TRUE(RecordBatchCrcMatches(whole));
  std::string old_format = batch;
  old_format[16] = 1;  // magic v1
  EXPECT_EQ(SplitRecordBatches(old_format).status().code(), absl::StatusCode::kUnimplemented);
  std::string short_length = batch;
  short_length[11] = 10;  // batchLength below the header
  short_length[10] = short_length[9] = short_length[8] = 0;
  EXPECT_EQ(ParseRecordBatchHeader(short_length).status().code(), absl::StatusCode::kDataLoss);
  std::string negative_count = batch;
  negative_count[57] = '\xff';
  EXPECT_EQ(ParseRecordBatchHeader(negative_count).status().code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(ParseRecordBatchHeader(batch.substr(0, 10)).status().code(),
            absl::StatusCode::kDataLoss);
}

}  // namespace
}  // namespace connectd::kafka::protocol
