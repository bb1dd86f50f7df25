#include "runtime/storage/java_serialization.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "tests/unit/runtime/storage/storage_test_util.h"

namespace connectd::storage {
namespace {

using ::testing::HasSubstr;
using Entries = std::vector<JavaByteArrayMapEntry>;

// Streams written by OpenJDK 17's ObjectOutputStream (see the README beside the golden files).
constexpr char kJavaEmptyMap[] =
    "aced0005737200116a6176612e7574696c2e486173684d61700507dac1c31660d103000246000a6c6f61644661"
    "63746f724900097468726573686f6c6478703f400000000000007708000000100000000078";
constexpr char kJavaNullKeyAndValue[] =
    "aced0005737200116a6176612e7574696c2e486173684d61700507dac1c31660d103000246000a6c6f61644661"
    "63746f724900097468726573686f6c6478703f4000000000000c77080000001000000001707078";
// {null -> "v", "k" -> null}
constexpr char kJavaNulls[] =
    "aced0005737200116a6176612e7574696c2e486173684d61700507dac1c31660d103000246000a6c6f61644661"
    "63746f724900097468726573686f6c6478703f4000000000000c7708000000100000000270757200025b42acf3"
    "17f8060854e0020000787000000001767571007e0002000000016b7078";
// {"a" -> shared, "b" -> shared}: the second value is a back-reference to the first array.
constexpr char kJavaSharedValue[] =
    "aced0005737200116a6176612e7574696c2e486173684d61700507dac1c31660d103000246000a6c6f61644661"
    "63746f724900097468726573686f6c6478703f4000000000000c77080000001000000002757200025b42acf317"
    "f8060854e0020000787000000001617571007e00020000000473616d657571007e0002000000016271007e0004"
    "78";

Entries Parse(std::string_view hex) {
  absl::StatusOr<Entries> entries = ParseJavaByteArrayHashMap(testing::FromHex(hex));
  EXPECT_TRUE(entries.ok()) << entries.status();
  return entries.ok() ? *entries : Entries{};
}

// (a) A FileOffsetBackingStore file written by Java: same entries as Java lists them, and
// re-serializing them in the file's order gives the file back byte for byte.
TEST(JavaSerializationGoldenTest, ReadsAndRewritesJavasOffsetFile) {
  const std::string file = testing::ReadFileOrDie(testing::GoldenPath("java.offsets"));
  absl::StatusOr<Entries> entries = ParseJavaByteArrayHashMap(file);
  ASSERT_TRUE(entries.ok()) << entries.status();

  std::set<std::string> expected, actual;
  for (const std::string& line : testing::GoldenLines("java.offsets.txt")) {
    if (line.rfind("entry ", 0) == 0) expected.insert(line);
  }
  for (const auto& [key, value] : *entries) {
    ASSERT_TRUE(key.has_value());
    actual.insert("entry " + testing::ToHex(*key) + " " +
                  (value ? testing::ToHex(*value) : "null"));
  }
  EXPECT_EQ(actual, expected);
  EXPECT_EQ(testing::ToHex(SerializeJavaByteArrayHashMap(*entries)), testing::ToHex(file));
}

TEST(JavaSerializationTest, WritesWhatJavaWrites) {
  EXPECT_EQ(testing::ToHex(SerializeJavaByteArrayHashMap({})), kJavaEmptyMap);
  EXPECT_EQ(testing::ToHex(SerializeJavaByteArrayHashMap({{std::nullopt, std::nullopt}})),
            kJavaNullKeyAndValue);
  EXPECT_EQ(
      testing::ToHex(SerializeJavaByteArrayHashMap({{std::nullopt, "v"}, {"k", std::nullopt}})),
      kJavaNulls);
}

TEST(JavaSerializationTest, CapacityGrowsAsJavasHashMap) {
  Entries entries;
  for (int i = 0; i < 13; ++i) entries.emplace_back(std::string(1, static_cast<char>(i)), "");
  const std::string hex = testing::ToHex(SerializeJavaByteArrayHashMap(entries));
  // threshold 24, then block data: capacity 32, size 13 (as OpenJDK 17 writes 13 entries).
  EXPECT_THAT(hex, HasSubstr("3f400000000000187708000000200000000d"));
  absl::StatusOr<Entries> back = ParseJavaByteArrayHashMap(testing::FromHex(hex));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, entries);
}

TEST(JavaSerializationTest, ReadsNullsAndBackReferences) {
  EXPECT_TRUE(Parse(kJavaEmptyMap).empty());
  EXPECT_EQ(Parse(kJavaNullKeyAndValue), (Entries{{std::nullopt, std::nullopt}}));
  EXPECT_EQ(Parse(kJavaNulls), (Entries{{std::nullopt, "v"}, {"k", std::nullopt}}));
  EXPECT_EQ(Parse(kJavaSharedValue), (Entries{{"a", "same"}, {"b", "same"}}));
}

TEST(JavaSerializationTest, ReadsCustomDataSplitAcrossBlocks) {
  // The capacity and size ints in two block data segments, the second a TC_BLOCKDATALONG.
  std::string hex = kJavaNullKeyAndValue;
  const std::string whole = "77080000001000000001";
  ASSERT_NE(hex.find(whole), std::string::npos);
  hex.replace(hex.find(whole), whole.size(),
              "7703000000"
              "7a00000005"
              "1000000001");
  EXPECT_EQ(Parse(hex), (Entries{{std::nullopt, std::nullopt}}));
}

TEST(JavaSerializationTest, RejectsEveryTruncation) {
  const std::string file = testing::ReadFileOrDie(testing::GoldenPath("java.offsets"));
  for (size_t length = 0; length < file.size(); ++length) {
    absl::StatusOr<Entries> entries = ParseJavaByteArrayHashMap(file.substr(0, length));
    ASSERT_FALSE(entries.ok()) << length;
    EXPECT_EQ(entries.status().code(), absl::StatusCode::kDataLoss) << entries.status();
  }
}

TEST(JavaSerializationTest, SurvivesCorruption) {
  // Flip every byte of a real file in turn: the parser must fail cleanly or return entries.
  const std::string file = testing::ReadFileOrDie(testing::GoldenPath("java.offsets"));
  for (size_t i = 0; i < file.size(); ++i) {
    for (unsigned char flip : {0x01, 0x80, 0xFF}) {
      std::string corrupt = file;
      corrupt[i] = static_cast<char>(static_cast<unsigned char>(corrupt[i]) ^ flip);
      absl::StatusOr<Entries> entries = ParseJavaByteArrayHashMap(corrupt);
      if (!entries.ok()) {
        EXPECT_EQ(entries.status().code(), absl::StatusCode::kDataLoss);
      }
    }
  }
}

TEST(JavaSerializationTest, ExplainsWhatIsWrong) {
  const auto error = [](std::string_view hex) {
    return std::string(ParseJavaByteArrayHashMap(testing::FromHex(hex)).status().message());
  };
  EXPECT_THAT(error(""), HasSubstr("truncated"));
  EXPECT_THAT(error("cafebabe"), HasSubstr("not a Java serialization stream"));
  EXPECT_THAT(error("aced00057400036162"), HasSubstr("unexpected type code 0x74"));
  // A java.util.ArrayList instead of a HashMap.
  EXPECT_THAT(error("aced0005737200136a6176612e7574696c2e41727261794c6973747881d21d99c7619d03000149"
                    "000473697a6578700000000077040000000078"),
              HasSubstr("expected a java.util.HashMap, found an instance of java.util.ArrayList"));
  // Trailing garbage after a valid map.
  EXPECT_THAT(error(std::string(kJavaEmptyMap) + "00"),
              HasSubstr("unexpected bytes after the map"));
  // A back-reference to a handle that does not exist.
  std::string bad_ref = kJavaSharedValue;
  bad_ref.replace(bad_ref.rfind("71007e0004"), 10, "71007e0042");
  EXPECT_THAT(error(bad_ref), HasSubstr("unknown handle 0x7e0042"));
  // A negative array length.
  std::string negative = kJavaNulls;
  negative.replace(negative.find("0000000176"), 8, "ffffffff");
  EXPECT_THAT(error(negative), HasSubstr("negative array length"));
  // An absurd size: the entries run out at once.
  std::string huge = kJavaEmptyMap;
  huge.replace(huge.rfind("00000000"), 8, "7fffffff");
  EXPECT_THAT(error(huge), HasSubstr("unexpected type code 0x78, expected a byte[] or null"));
  std::string huge_truncated = huge.substr(0, huge.size() - 2);
  EXPECT_THAT(error(huge_truncated), HasSubstr("truncated"));
}

}  // namespace
}  // namespace connectd::storage
