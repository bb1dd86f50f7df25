#include "runtime/storage/offset_codec.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/unit/runtime/storage/storage_test_util.h"

namespace connectd::storage {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string Key(std::string_view connector, std::string_view partition) {
  absl::StatusOr<std::string> key = SerializeOffsetKey(connector, partition);
  EXPECT_TRUE(key.ok()) << key.status();
  return key.ok() ? *key : "";
}

std::string Value(std::string_view offset) {
  absl::StatusOr<std::optional<std::string>> value = SerializeOffsetValue(offset);
  EXPECT_TRUE(value.ok()) << value.status();
  return value.ok() && value->has_value() ? **value : "";
}

std::string HashOrder(std::string_view object) {
  absl::StatusOr<std::string> ordered = CanonicalJavaHashMapOrder(object);
  EXPECT_TRUE(ordered.ok()) << ordered.status();
  return ordered.ok() ? *ordered : "";
}

void ExpectInvalid(const absl::Status& status, std::string_view message_part) {
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_THAT(std::string(status.message()), HasSubstr(std::string(message_part)));
}

// (c) Java's JsonConverter bytes for a table of maps, byte for byte (json_converter.tsv was
// written by GenerateOffsetGolden.java; "hash" rows are java.util.HashMaps).
TEST(OffsetCodecGoldenTest, MatchesJsonConverterBytes) {
  const std::vector<std::string> lines = testing::GoldenLines("json_converter.tsv");
  ASSERT_GE(lines.size(), 20u);
  for (const std::string& line : lines) {
    const std::vector<std::string> f = testing::Split(line, '\t');
    ASSERT_EQ(f.size(), 7u) << line;
    SCOPED_TRACE(f[0]);
    const bool hash = f[1] == "hash";
    std::string partition = f[3];
    if (hash) partition = HashOrder(partition);
    absl::StatusOr<std::string> key = SerializeOffsetKey(f[2], partition);
    ASSERT_TRUE(key.ok()) << key.status();
    EXPECT_EQ(testing::ToHex(*key), f[5]) << *key;

    std::optional<std::string_view> offset;
    std::string ordered_offset;
    if (f[4] != "null") {
      ordered_offset = hash ? HashOrder(f[4]) : f[4];
      offset = ordered_offset;
    }
    absl::StatusOr<std::optional<std::string>> value = SerializeOffsetValue(offset);
    ASSERT_TRUE(value.ok()) << value.status();
    EXPECT_EQ(value->has_value() ? testing::ToHex(**value) : "null", f[6]);

    // And back: the parsers return what Java wrote.
    absl::StatusOr<OffsetKey> parsed = ParseOffsetKey(testing::FromHex(f[5]));
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    EXPECT_EQ(parsed->connector, f[2]);
    EXPECT_EQ(Key(parsed->connector, parsed->partition_json), testing::FromHex(f[5]));
    if (f[6] != "null") {
      absl::StatusOr<std::string> parsed_value = ParseOffsetValue(testing::FromHex(f[6]));
      ASSERT_TRUE(parsed_value.ok()) << parsed_value.status();
      EXPECT_EQ(*parsed_value, testing::FromHex(f[6]));
    }
  }
}

TEST(OffsetCodecTest, SerializesCompactlyInTextOrder) {
  EXPECT_EQ(Key("file-src", R"( { "filename" : "/in.txt" , "a": 1 } )"),
            R"(["file-src",{"filename":"/in.txt","a":1}])");
  EXPECT_EQ(Value(R"({"position": 1024})"), R"({"position":1024})");
  EXPECT_EQ(Key("c", "{}"), R"(["c",{}])");
}

TEST(OffsetCodecTest, TombstoneIsNoValue) {
  absl::StatusOr<std::optional<std::string>> value = SerializeOffsetValue(std::nullopt);
  ASSERT_TRUE(value.ok());
  EXPECT_FALSE(value->has_value());
}

TEST(OffsetCodecTest, FormatsNumbersAsJackson) {
  EXPECT_EQ(Value(R"({"a":1e10,"b":100,"c":100.0,"d":-0,"e":-0.0,"f":1E2,"g":0.1,"h":1.5e-7})"),
            R"({"a":1.0E10,"b":100,"c":100.0,"d":0,"e":-0.0,"f":100.0,"g":0.1,"h":1.5E-7})");
  EXPECT_EQ(Value(R"({"min":-9223372036854775808,"max":9223372036854775807})"),
            R"({"min":-9223372036854775808,"max":9223372036854775807})");
  EXPECT_EQ(Value(R"({"t":true,"f":false,"n":null})"), R"({"t":true,"f":false,"n":null})");
  // JDK 17 prints some large integral doubles with more digits than needed.
  EXPECT_EQ(Value(R"({"x":4.317978512887089E16})"), R"({"x":4.3179785128870888E16})");
  absl::StatusOr<std::optional<std::string>> jdk19 =
      SerializeOffsetValue(R"({"x":4.317978512887089E16})", jvm::JavaDoubleStyle::kJdk19);
  ASSERT_TRUE(jdk19.ok());
  EXPECT_EQ(**jdk19, R"({"x":4.317978512887089E16})");
}

TEST(OffsetCodecTest, EscapesStringsAsJackson) {
  EXPECT_EQ(Value(R"({"s":"a\/b\u0041\u00e9\u2028\ud83d\ude00\u001f\t"})"),
            "{\"s\":\"a/bA\xc3\xa9\xe2\x80\xa8\\uD83D\\uDE00\\u001F\\t\"}");
  EXPECT_EQ(Key("conn \"x\"", R"({"k\"ey":"v\\"})"), R"(["conn \"x\"",{"k\"ey":"v\\"}])");
}

TEST(OffsetCodecTest, RejectsNestedAndNonObjectInput) {
  ExpectInvalid(SerializeOffsetKey("c", R"({"a":{"b":1}})").status(), "key \"a\" holds an object");
  ExpectInvalid(SerializeOffsetKey("c", R"({"a":[1]})").status(), "key \"a\" holds an array");
  ExpectInvalid(SerializeOffsetValue(R"([1,2])").status(),
                "expected a JSON object, found an array");
  ExpectInvalid(SerializeOffsetValue(R"("text")").status(),
                "expected a JSON object, found a string");
  ExpectInvalid(SerializeOffsetValue("3").status(), "expected a JSON object, found a number");
  ExpectInvalid(SerializeOffsetValue("null").status(), "found null");
  ExpectInvalid(SerializeOffsetValue("").status(), "invalid source offset");
  ExpectInvalid(SerializeOffsetValue(R"({"a":1} x)").status(), "invalid source offset");
  ExpectInvalid(SerializeOffsetValue(R"({"a":1,"a":2})").status(), "duplicate key \"a\"");
  ExpectInvalid(SerializeOffsetValue(R"({"a":9223372036854775808})").status(), "int64 range");
  ExpectInvalid(SerializeOffsetValue(R"({"a":1e400})").status(), "Number too big");
  ExpectInvalid(SerializeOffsetValue(R"({"a":NaN})").status(), "invalid source offset");
  ExpectInvalid(SerializeOffsetValue(std::string_view("{\"a\":1}\0", 8)).status(), "NUL byte");
  ExpectInvalid(SerializeOffsetValue("{\"a\":\"\xff\"}").status(), "invalid source offset");
  ExpectInvalid(SerializeOffsetKey("bad\xc3", "{}").status(), "connector name is not valid UTF-8");
}

TEST(OffsetCodecTest, ParsesKeysInAnyMemberOrder) {
  absl::StatusOr<OffsetKey> key =
      ParseOffsetKey(R"([ "MirrorSourceConnector" , {"topic":"t","partition":3,"cluster":"A"} ])");
  ASSERT_TRUE(key.ok()) << key.status();
  EXPECT_EQ(key->connector, "MirrorSourceConnector");
  EXPECT_EQ(key->partition_json, R"({"topic":"t","partition":3,"cluster":"A"})");
}

TEST(OffsetCodecTest, RejectsMalformedKeys) {
  ExpectInvalid(ParseOffsetKey(R"({"a":1})").status(), "must be a JSON array");
  ExpectInvalid(ParseOffsetKey(R"([1,{}])").status(), "must start with the connector name");
  ExpectInvalid(ParseOffsetKey(R"(["c",null])").status(), "must be a JSON object, found null");
  ExpectInvalid(ParseOffsetKey(R"(["c"])").status(), "two-element array");
  ExpectInvalid(ParseOffsetKey(R"(["c",{},1])").status(), "two-element array");
  ExpectInvalid(ParseOffsetKey(R"(["c",{"a":{}}])").status(), "holds an object");
  ExpectInvalid(ParseOffsetKey(R"(["c",{"a":1})").status(), "invalid offset key");
}

// Found by offsets_topic_fuzz (tests/fuzz/corpus/offsets_topic/regress-truncated-utf8-at-end):
// text ending inside a UTF-8 sequence made RapidJSON read past the copy's NUL terminator
// (heap-buffer-overflow under build-asan); long enough here to live on the heap.
TEST(OffsetCodecTest, RejectsTextEndingInsideAUtf8Sequence) {
  ExpectInvalid(ParseOffsetKey("[\"connector-name\",{\"file\":\"/data/\xe6\x97\xa5\xe6").status(),
                "invalid offset key");
  ExpectInvalid(ParseOffsetKey("[\"connector-name\",{\"file\":\"/data/\xf0").status(),
                "invalid offset key");
  ExpectInvalid(ParseOffsetValue("{\"position-in-file\":\"\xe6").status(), "invalid");
}

TEST(OffsetCodecTest, RoundTrips) {
  const std::string partition =
      R"({"filename":"/d\u00e4ta/x.txt","n":-5,"r":2.5,"b":true,"z":null})";
  const std::string key = Key("src", partition);
  absl::StatusOr<OffsetKey> parsed = ParseOffsetKey(key);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(Key(parsed->connector, parsed->partition_json), key);
  const std::string value = Value(R"({"position":1,"ratio":0.25})");
  absl::StatusOr<std::string> parsed_value = ParseOffsetValue(value);
  ASSERT_TRUE(parsed_value.ok());
  EXPECT_EQ(*parsed_value, value);
}

// A Java String may hold a lone surrogate; Jackson writes it as its own escape. These bytes are
// what Kafka 4.4's JsonConverter (schemas.enable=false) wrote for the connector "a\uD800b\uDFFF",
// the partition {"f":"x\uD800","g":1} (a LinkedHashMap) and the offset {"o":"\uDBFF!"} (a run of
// JsonConverter.fromConnectData on connect-json 4.4.0, 3 Dec 2026). connectd reads them, finds
// them and writes the same bytes back; Java read the key back into the same chars.
TEST(OffsetCodecTest, LoneSurrogatesRoundTripAsJavaWritesThem) {
  const std::string java_key = R"(["a\uD800b\uDFFF",{"f":"x\uD800","g":1}])";
  const std::string java_value = R"({"o":"\uDBFF!"})";
  absl::StatusOr<OffsetKey> key = ParseOffsetKey(java_key);
  ASSERT_TRUE(key.ok()) << key.status();
  EXPECT_EQ(key->connector,
            "a\xED\xA0\x80"
            "b\xED\xBF\xBF");
  EXPECT_EQ(key->partition_json, R"({"f":"x\uD800","g":1})");
  EXPECT_EQ(Key(key->connector, key->partition_json), java_key);
  EXPECT_TRUE(CanonicalOffsetKey(key->connector, key->partition_json).ok());
  absl::StatusOr<std::string> value = ParseOffsetValue(java_value);
  ASSERT_TRUE(value.ok()) << value.status();
  EXPECT_EQ(Value(*value), java_value);

  OffsetLookupIndex index;
  ASSERT_TRUE(index.Apply(java_key, java_value));
  EXPECT_EQ(*index.Find(key->connector, R"({"g":1,"f":"x\uD800"})"),
            std::optional<std::string>(java_value));
  EXPECT_THAT(index.Partitions(key->connector), ElementsAre(key->partition_json));
}

TEST(OffsetCodecTest, SurrogateEscapesReadAsJacksonReadsThem) {
  // A pair is one supplementary character (4 bytes), whatever the hex case.
  EXPECT_EQ(ParseOffsetKey(R"(["\uD83D\ude00",{}])")->connector, "\xF0\x9F\x98\x80");
  // An escaped backslash before "u" is no escape.
  EXPECT_EQ(ParseOffsetKey(R"(["c\\uD800",{}])")->connector, "c\\uD800");
  // Two high surrogates are two lone ones.
  EXPECT_EQ(ParseOffsetValue(R"({"k":"\uDBFF\uDBFF"})").value(), R"({"k":"\uDBFF\uDBFF"})");
  // Jackson refuses a lone surrogate in a field name ("Broken surrogate pair in field name").
  ExpectInvalid(ParseOffsetKey(R"(["c",{"\uD800":1}])").status(), "lone surrogate");
  ExpectInvalid(ParseOffsetValue(R"({"\uDC00":1})").status(), "lone surrogate");
  // Raw bytes stay UTF-8: an encoded surrogate is not text, nor is a name holding a pair's
  // halves one by one (that pair has only its 4-byte form).
  ExpectInvalid(ParseOffsetKey("[\"\xED\xA0\x80\",{}]").status(), "not valid UTF-8");
  ExpectInvalid(SerializeOffsetKey("\xED\xA0\xBD\xED\xB8\x80", "{}").status(),
                "connector name is not valid UTF-8");
  EXPECT_TRUE(SerializeOffsetKey("\xED\xB8\x80\xED\xA0\xBD", "{}").ok());  // low, then high
}

TEST(JavaHashMapOrderTest, SmallMapsFollowBucketOrder) {
  // MirrorMaker 2 partitions: a HashMap of cluster, topic, partition.
  EXPECT_EQ(HashOrder(R"({"topic":"t","partition":0,"cluster":"A"})"),
            R"({"cluster":"A","partition":0,"topic":"t"})");
  EXPECT_EQ(HashOrder(R"({"partition":0,"topic":"t","group":"g"})"),
            R"({"partition":0,"topic":"t","group":"g"})");
}

TEST(JavaHashMapOrderTest, CollisionsKeepInsertionOrder) {
  // "Aa" and "BB" share hash code 2112.
  EXPECT_EQ(HashOrder(R"({"Aa":1,"BB":2})"), R"({"Aa":1,"BB":2})");
  EXPECT_EQ(HashOrder(R"({"BB":2,"Aa":1})"), R"({"BB":2,"Aa":1})");
}

TEST(JavaHashMapOrderTest, ResizesPastTwelveKeys) {
  std::vector<std::string> twelve, thirteen;
  for (int i = 0; i < 13; ++i) {
    std::string key = (i < 10 ? "k0" : "k1") + std::to_string(i % 10);
    if (i < 12) twelve.push_back(key);
    thirteen.push_back(key);
  }
  // 12 keys fit a 16-bucket table; the 13th doubles it to 32 and reorders (checked against
  // Java in json_converter.tsv, case hash-13-keys).
  EXPECT_THAT(jvm::JavaHashMapIterationOrder(thirteen),
              ElementsAre(0, 11, 10, 2, 1, 12, 4, 3, 6, 5, 8, 7, 9));
  EXPECT_THAT(jvm::JavaHashMapIterationOrder(twelve),
              ElementsAre(6, 5, 8, 7, 9, 0, 11, 10, 2, 1, 4, 3));
}

TEST(JavaHashMapOrderTest, NegativeHashesAndEmptyKey) {
  // "polygenelubricants" hashes to Integer.MIN_VALUE: bucket 0, like "" (hash 0).
  EXPECT_EQ(HashOrder(R"({"polygenelubricants":1,"":2,"a":3})"),
            R"({"polygenelubricants":1,"":2,"a":3})");
  EXPECT_EQ(HashOrder(R"({"":2,"polygenelubricants":1,"a":3})"),
            R"({"":2,"polygenelubricants":1,"a":3})");
}

TEST(OffsetLookupIndexTest, FindsOffsetsWhateverTheKeyOrder) {
  OffsetLookupIndex index;
  ASSERT_TRUE(
      index.Apply(R"(["mm2",{"cluster":"A","partition":0,"topic":"t"}])", "{\"offset\":5}"));
  absl::StatusOr<std::optional<std::string>> found =
      index.Find("mm2", R"({"topic":"t","cluster":"A","partition":0})");
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(*found, std::optional<std::string>("{\"offset\":5}"));
  // The latest write wins whatever its key order.
  ASSERT_TRUE(
      index.Apply(R"(["mm2",{"topic":"t","partition":0,"cluster":"A"}])", "{\"offset\":9}"));
  EXPECT_EQ(*index.Find("mm2", R"({"partition":0,"cluster":"A","topic":"t"})"),
            std::optional<std::string>("{\"offset\":9}"));
  EXPECT_EQ(*index.Find("other", R"({"partition":0,"cluster":"A","topic":"t"})"), std::nullopt);
  EXPECT_EQ(index.Find("mm2", "[]").status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(OffsetLookupIndexTest, DistinguishesLongsFromDoubles) {
  OffsetLookupIndex index;
  ASSERT_TRUE(index.Apply(R"(["c",{"p":3}])", "{}"));
  EXPECT_TRUE(index.Find("c", R"({"p":3})")->has_value());
  EXPECT_FALSE(index.Find("c", R"({"p":3.0})")->has_value());
}

TEST(OffsetLookupIndexTest, TracksPartitionsLikeConnect) {
  OffsetLookupIndex index;
  EXPECT_TRUE(index.Apply(R"(["c",{"topic":"t","cluster":"A","partition":1}])", "{\"offset\":1}"));
  EXPECT_TRUE(index.Apply(R"(["c",{"filename":"/x"}])", "{\"position\":1}"));
  EXPECT_TRUE(index.Apply(R"(["d",{"filename":"/y"}])", "{\"position\":1}"));
  EXPECT_FALSE(index.Apply("not json", "{}"));
  EXPECT_FALSE(index.Apply(R"(["c",null])", "{}"));
  // Shown in the HashMap order Java's JsonConverter parses them into, sorted.
  EXPECT_THAT(index.Partitions("c"),
              ElementsAre(R"({"cluster":"A","partition":1,"topic":"t"})", R"({"filename":"/x"})"));
  EXPECT_TRUE(index.Apply(R"(["c",{"filename":"/x"}])", std::nullopt));
  EXPECT_THAT(index.Partitions("c"), ElementsAre(R"({"cluster":"A","partition":1,"topic":"t"})"));
  EXPECT_FALSE(index.Find("c", R"({"filename":"/x"})")->has_value());
  EXPECT_TRUE(index.Partitions("nobody").empty());
}

TEST(OffsetLookupIndexTest, CanonicalKeySortsPartitionKeys) {
  absl::StatusOr<std::string> a = CanonicalOffsetKey("c", R"({"b":1,"a":"x"})");
  absl::StatusOr<std::string> b = CanonicalOffsetKey("c", R"({"a":"x","b":1})");
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(*a, *b);
  EXPECT_EQ(*a, R"(["c",{"a":"x","b":1}])");
}

}  // namespace
}  // namespace connectd::storage
