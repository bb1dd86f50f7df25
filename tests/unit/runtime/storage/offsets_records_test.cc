// Offsets-topic records: key bytes through the offset codec against Java's JsonConverter, and
// their partition against Kafka's producer (tests/golden/status_topic/partitions.tsv).
#include "runtime/storage/offsets_records.h"

#include <gtest/gtest.h>

#include "absl/strings/numbers.h"
#include "tests/unit/runtime/storage/status_golden.h"

namespace connectd::storage {
namespace {

using testing::FromHex;
using testing::LoadStatusGolden;
using testing::ToHex;

TEST(OffsetsRecordsTest, KeysAndPartitionsMatchJava) {
  int rows = 0;
  for (const auto& row : LoadStatusGolden("partitions.tsv")) {
    if (row[0] != "offsets") continue;
    ASSERT_EQ(row.size(), 8u);
    SCOPED_TRACE(row[3]);
    ++rows;
    const std::string connector = *FromHex(row[1]);
    const std::string partition = *FromHex(row[2]);
    int32_t p1 = 0, p5 = 0, p25 = 0;
    ASSERT_TRUE(absl::SimpleAtoi(row[5], &p1));
    ASSERT_TRUE(absl::SimpleAtoi(row[6], &p5));
    ASSERT_TRUE(absl::SimpleAtoi(row[7], &p25));
    const auto record = MakeOffsetsTopicRecord(connector, partition, R"({"position":1})", 25);
    ASSERT_TRUE(record.ok()) << record.status();
    EXPECT_EQ(ToHex(record->key), row[3]);
    EXPECT_EQ(record->value, R"({"position":1})");
    EXPECT_EQ(record->partition, p25);
    EXPECT_EQ(OffsetsTopicPartition(record->key, 1), p1);
    EXPECT_EQ(OffsetsTopicPartition(record->key, 5), p5);
    const auto parsed = ParseOffsetsTopicKey(record->key);
    ASSERT_TRUE(parsed.has_value());
    EXPECT_EQ(parsed->connector, connector);
  }
  EXPECT_EQ(rows, 7);
}

TEST(OffsetsRecordsTest, TombstoneRecord) {
  const auto record = MakeOffsetsTopicRecord("src", R"({"p":3})", std::nullopt, 5);
  ASSERT_TRUE(record.ok());
  EXPECT_EQ(record->key, R"(["src",{"p":3}])");
  EXPECT_FALSE(record->value.has_value());
  EXPECT_EQ(record->partition, OffsetsTopicPartition(record->key, 5));
  EXPECT_FALSE(MakeOffsetsTopicRecord("src", "[1]", std::nullopt, 5).ok());
}

TEST(OffsetsRecordsTest, IgnoresKeysThatAreNotStringAndMap) {
  const auto ok = ParseOffsetsTopicKey(R"(["src",{"filename":"/in.txt"}])");
  ASSERT_TRUE(ok.has_value());
  EXPECT_EQ(ok->connector, "src");
  EXPECT_EQ(ok->partition_json, R"({"filename":"/in.txt"})");
  EXPECT_FALSE(ParseOffsetsTopicKey(std::nullopt).has_value());
  for (const char* bad : {R"(["src",null])", R"(["src"])", R"([1,{}])", R"({"a":1})", R"("x")",
                          R"(["src",{},3])", R"(["src",[1]])", "not json", ""}) {
    EXPECT_FALSE(ParseOffsetsTopicKey(bad).has_value()) << bad;
  }
}

}  // namespace
}  // namespace connectd::storage
