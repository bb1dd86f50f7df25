#include "connectors/mirror_client/records.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "jvm/utf8.h"
#include "tests/unit/connectors/mirror_client/golden.h"

namespace connectd::mirror {
namespace {

using testing::BytesMatch;
using testing::FieldOrDie;
using testing::FromHex;
using testing::GoldenLines;
using testing::Split;
using testing::ToHex;

// ---- Encoding: records.tsv (Java's recordKey()/recordValue()) -------------------------------

struct EncodedCase {
  std::string kind;
  std::string name;
  std::string key;
  std::string value;
};

// The valid records of records.tsv, re-encoded by connectd (after checking them against Java).
std::vector<EncodedCase> ValidGoldenRecords() {
  std::vector<EncodedCase> cases;
  for (const std::string& line : GoldenLines("records.tsv")) {
    const std::vector<std::string> f = Split(line, '\t');
    if (f[0] == "heartbeat" && f[5] != "error") {
      Heartbeat h{FieldOrDie(f[2]), FieldOrDie(f[3]), std::stoll(f[4])};
      cases.push_back({f[0], f[1], EncodeHeartbeatKey(h), EncodeHeartbeatValue(h)});
    } else if (f[0] == "checkpoint" && f[8] != "error") {
      Checkpoint c{FieldOrDie(f[2]), FieldOrDie(f[3]), std::stoi(f[4]),
                   std::stoll(f[5]), std::stoll(f[6]), FieldOrDie(f[7])};
      cases.push_back({f[0], f[1], EncodeCheckpointKey(c), EncodeCheckpointValue(c)});
    } else if (f[0] == "offset_sync" && f[6] != "error") {
      OffsetSync s{FieldOrDie(f[2]), std::stoi(f[3]), std::stoll(f[4]), std::stoll(f[5])};
      cases.push_back({f[0], f[1], EncodeOffsetSyncKey(s), EncodeOffsetSyncValue(s)});
    }
  }
  return cases;
}

TEST(RecordsGoldenTest, HeartbeatBytesMatchJava) {
  int checked = 0;
  for (const std::string& line : GoldenLines("records.tsv")) {
    const std::vector<std::string> f = Split(line, '\t');
    if (f[0] != "heartbeat") continue;
    SCOPED_TRACE(f[1]);
    ASSERT_EQ(f.size(), 7u);
    const Heartbeat h{FieldOrDie(f[2]), FieldOrDie(f[3]), std::stoll(f[4])};
    const std::string key = EncodeHeartbeatKey(h);
    const std::string value = EncodeHeartbeatValue(h);
    ++checked;
    if (f[5] == "error") {  // Java: SchemaException, a string over 32767 bytes
      EXPECT_EQ(key, "");
      continue;
    }
    EXPECT_TRUE(BytesMatch(f[5], key)) << ToHex(key.substr(0, 100));
    EXPECT_TRUE(BytesMatch(f[6], value)) << ToHex(value);
    EXPECT_EQ(DecodeHeartbeat(key, value), h);
  }
  EXPECT_EQ(checked, 9);
}

TEST(RecordsGoldenTest, CheckpointBytesMatchJava) {
  int checked = 0;
  for (const std::string& line : GoldenLines("records.tsv")) {
    const std::vector<std::string> f = Split(line, '\t');
    if (f[0] != "checkpoint") continue;
    SCOPED_TRACE(f[1]);
    ASSERT_EQ(f.size(), 10u);
    const Checkpoint c{FieldOrDie(f[2]), FieldOrDie(f[3]), std::stoi(f[4]),
                       std::stoll(f[5]), std::stoll(f[6]), FieldOrDie(f[7])};
    const std::string key = EncodeCheckpointKey(c);
    const std::string value = EncodeCheckpointValue(c);
    ++checked;
    if (f[8] == "error") {
      EXPECT_TRUE(key.empty() || value.empty()) << f[9];
      EXPECT_EQ(key.empty(), c.group.size() > kMaxRecordStringBytes);
      EXPECT_EQ(value.empty(), c.metadata.size() > kMaxRecordStringBytes);
      continue;
    }
    EXPECT_TRUE(BytesMatch(f[8], key)) << ToHex(key.substr(0, 100));
    EXPECT_TRUE(BytesMatch(f[9], value)) << ToHex(value.substr(0, 100));
    EXPECT_EQ(DecodeCheckpoint(key, value), c);
  }
  EXPECT_EQ(checked, 10);
}

TEST(RecordsGoldenTest, OffsetSyncBytesMatchJava) {
  int checked = 0;
  for (const std::string& line : GoldenLines("records.tsv")) {
    const std::vector<std::string> f = Split(line, '\t');
    if (f[0] != "offset_sync") continue;
    SCOPED_TRACE(f[1]);
    ASSERT_EQ(f.size(), 8u);
    const OffsetSync s{FieldOrDie(f[2]), std::stoi(f[3]), std::stoll(f[4]), std::stoll(f[5])};
    const std::string key = EncodeOffsetSyncKey(s);
    const std::string value = EncodeOffsetSyncValue(s);
    ++checked;
    if (f[6] == "error") {
      EXPECT_EQ(key, "");
      continue;
    }
    EXPECT_TRUE(BytesMatch(f[6], key)) << ToHex(key.substr(0, 100));
    EXPECT_TRUE(BytesMatch(f[7], value)) << ToHex(value);
    EXPECT_EQ(DecodeOffsetSync(key, value), s);
  }
  EXPECT_EQ(checked, 8);
}

TEST(RecordsTest, OffsetRunRoundTripsAndRejectsOtherBytes) {
  const OffsetRunRecord run{"orders", 7, 1234567890123, 42, 77};
  const std::string key = EncodeOffsetRunKey(run);
  const std::string value = EncodeOffsetRunValue(run);
  EXPECT_EQ(key, std::string("\0\6orders\0\0\0\7\0\0\x01\x1f\x71\xfb\x04\xcb", 20));
  EXPECT_EQ(value, std::string("\0\0"
                               "\0\0\0\0\0\0\0\x2a"
                               "\0\0\0\0\0\0\0\x4d",
                               18));
  EXPECT_EQ(DecodeOffsetRun(key, value), run);
  // Exact lengths: a truncated or longer key or value is not a run.
  EXPECT_FALSE(DecodeOffsetRun(key.substr(0, key.size() - 1), value));
  EXPECT_FALSE(DecodeOffsetRun(key + "x", value));
  EXPECT_FALSE(DecodeOffsetRun(key, value.substr(1)));
  EXPECT_FALSE(DecodeOffsetRun(key, value + "x"));
  std::string other_version = value;
  other_version[1] = 1;
  EXPECT_FALSE(DecodeOffsetRun(key, other_version));
  // Empty runs, empty topics and negative offsets are not runs either.
  EXPECT_FALSE(DecodeOffsetRun(key, EncodeOffsetRunValue({"orders", 7, 5, 1, 0})));
  EXPECT_FALSE(DecodeOffsetRun(EncodeOffsetRunKey({"", 7, 5, 1, 1}), value));
  EXPECT_FALSE(DecodeOffsetRun(EncodeOffsetRunKey({"orders", 7, -5, 1, 1}), value));
  EXPECT_FALSE(DecodeOffsetRun(key, EncodeOffsetRunValue({"orders", 7, 5, -1, 1})));
}

TEST(RecordsTest, ReferenceExamples) {
  // Heartbeat, Checkpoint and OffsetSync of connect-mirror-client.
  EXPECT_EQ(ToHex(EncodeHeartbeatKey({"backup", "primary", 1700000000000})),
            "00066261636b757000077072696d617279");
  EXPECT_EQ(ToHex(EncodeHeartbeatValue({"backup", "primary", 1700000000000})),
            "00000000018bcfe56800");
  const Checkpoint c{"my-group", "primary.orders", 3, 1000, 990, ""};
  EXPECT_EQ(ToHex(EncodeCheckpointKey(c)),
            "00086d792d67726f7570000e7072696d6172792e6f726465727300000003");
  EXPECT_EQ(ToHex(EncodeCheckpointValue(c)), "000000000000000003e800000000000003de0000");
  const OffsetSync s{"orders", 3, 1000, 990};
  EXPECT_EQ(ToHex(EncodeOffsetSyncKey(s)), "00066f726465727300000003");
  EXPECT_EQ(ToHex(EncodeOffsetSyncValue(s)), "00000000000003e800000000000003de");
}

TEST(RecordsTest, StringLengthLimitIs32767Bytes) {
  const std::string max(kMaxRecordStringBytes, 'x');
  const std::string over(kMaxRecordStringBytes + 1, 'x');
  EXPECT_EQ(EncodeOffsetSyncKey({max, 0, 0, 0}).size(), 2 + max.size() + 4);
  EXPECT_EQ(EncodeOffsetSyncKey({over, 0, 0, 0}), "");
  EXPECT_EQ(EncodeHeartbeatKey({"a", over, 0}), "");
  EXPECT_EQ(EncodeCheckpointKey({over, "t", 0, 0, 0, ""}), "");
  EXPECT_EQ(EncodeCheckpointValue({"g", "t", 0, 0, 0, over}), "");
  // Bytes, not characters: 16384 two-byte characters are 32768 bytes.
  std::string wide;
  for (int i = 0; i < 16384; ++i) wide += "\xC3\xA9";
  EXPECT_EQ(EncodeHeartbeatKey({wide, "", 0}), "");
  wide.resize(wide.size() - 2);
  EXPECT_NE(EncodeHeartbeatKey({wide, "", 0}), "");
}

// ---- Decoding: records_decode.tsv (Java's deserializeRecord on crafted bytes) ---------------

TEST(RecordsGoldenTest, DecodingMatchesJava) {
  int checked = 0;
  for (const std::string& line : GoldenLines("records_decode.tsv")) {
    const std::vector<std::string> f = Split(line, '\t');
    SCOPED_TRACE(f[0] + " " + f[1]);
    ASSERT_GE(f.size(), 6u);
    const std::string key = FromHex(f[2]);
    const std::string value = FromHex(f[3]);
    const bool ok = f[4] == "ok";
    ++checked;
    // Java decodes strings into UTF-16 (malformed bytes become U+FFFD); connectd keeps bytes.
    auto java = [](const std::string& s) { return jvm::ToJavaString(s); };
    if (f[0] == "heartbeat") {
      std::optional<Heartbeat> h = DecodeHeartbeat(key, value);
      ASSERT_EQ(h.has_value(), ok) << f[5];
      if (!ok) continue;
      ASSERT_EQ(f.size(), 8u);
      EXPECT_EQ(java(h->source_cluster_alias), FieldOrDie(f[5]));
      EXPECT_EQ(java(h->target_cluster_alias), FieldOrDie(f[6]));
      EXPECT_EQ(h->timestamp_ms, std::stoll(f[7]));
    } else if (f[0] == "checkpoint") {
      std::optional<Checkpoint> c = DecodeCheckpoint(key, value);
      ASSERT_EQ(c.has_value(), ok) << f[5];
      if (!ok) continue;
      ASSERT_EQ(f.size(), 11u);
      EXPECT_EQ(java(c->group), FieldOrDie(f[5]));
      EXPECT_EQ(java(c->topic), FieldOrDie(f[6]));
      EXPECT_EQ(c->partition, std::stoi(f[7]));
      EXPECT_EQ(c->upstream_offset, std::stoll(f[8]));
      EXPECT_EQ(c->downstream_offset, std::stoll(f[9]));
      EXPECT_EQ(java(c->metadata), FieldOrDie(f[10]));
    } else {
      ASSERT_EQ(f[0], "offset_sync");
      std::optional<OffsetSync> s = DecodeOffsetSync(key, value);
      ASSERT_EQ(s.has_value(), ok) << f[5];
      if (!ok) continue;
      ASSERT_EQ(f.size(), 9u);
      EXPECT_EQ(java(s->topic), FieldOrDie(f[5]));
      EXPECT_EQ(s->partition, std::stoi(f[6]));
      EXPECT_EQ(s->upstream_offset, std::stoll(f[7]));
      EXPECT_EQ(s->downstream_offset, std::stoll(f[8]));
    }
  }
  EXPECT_EQ(checked, 39);
}

bool Decodes(const std::string& kind, const std::string& key, const std::string& value) {
  if (kind == "heartbeat") return DecodeHeartbeat(key, value).has_value();
  if (kind == "checkpoint") return DecodeCheckpoint(key, value).has_value();
  return DecodeOffsetSync(key, value).has_value();
}

TEST(RecordsTest, EveryTruncationFailsAndTrailingBytesAreIgnored) {
  const std::vector<EncodedCase> cases = ValidGoldenRecords();
  ASSERT_EQ(cases.size(), 23u);
  for (const EncodedCase& c : cases) {
    SCOPED_TRACE(c.kind + " " + c.name);
    ASSERT_TRUE(Decodes(c.kind, c.key, c.value));
    const size_t key_step = c.key.size() > 1000 ? 97 : 1;  // the 32767-byte cases: sample
    for (size_t n = 0; n < c.key.size(); n += key_step) {
      EXPECT_FALSE(Decodes(c.kind, c.key.substr(0, n), c.value)) << "key cut at " << n;
    }
    for (size_t n = 0; n < c.value.size(); n += key_step) {
      EXPECT_FALSE(Decodes(c.kind, c.key, c.value.substr(0, n))) << "value cut at " << n;
    }
    for (const std::string& extra :
         {std::string("\0", 1), std::string("\xff\xff\x7f"), std::string(300, '\x80')}) {
      EXPECT_TRUE(Decodes(c.kind, c.key + extra, c.value + extra));
    }
  }
  // The decoded values are unchanged by trailing bytes.
  const Checkpoint checkpoint{"g", "t", 7, 8, 9, "m"};
  EXPECT_EQ(DecodeCheckpoint(EncodeCheckpointKey(checkpoint) + "junk",
                             EncodeCheckpointValue(checkpoint) + "junk"),
            checkpoint);
}

TEST(RecordsTest, NegativeStringLengthsAreRejected) {
  // Every STRING length prefix set to each negative INT16 pattern class.
  for (const char* length : {"\xff\xff", "\x80\x00", "\xfe\x01"}) {
    const std::string l(length, 2);
    EXPECT_FALSE(DecodeHeartbeat(l + "ab" + std::string("\0\1c", 3), std::string(10, '\0')));
    EXPECT_FALSE(DecodeHeartbeat(std::string("\0\1a", 3) + l + "c", std::string(10, '\0')));
    EXPECT_FALSE(DecodeOffsetSync(l + "t" + std::string(4, '\0'), std::string(16, '\0')));
    const std::string key = EncodeCheckpointKey({"g", "t", 1, 2, 3, ""});
    const std::string value_prefix = std::string(18, '\0');
    EXPECT_TRUE(DecodeCheckpoint(key, value_prefix + std::string(2, '\0')));
    EXPECT_FALSE(DecodeCheckpoint(key, value_prefix + l + "m"));
    EXPECT_FALSE(DecodeCheckpoint(l + "g" + std::string("\0\1t", 3) + std::string(4, '\0'),
                                  value_prefix + std::string(2, '\0')));
    EXPECT_FALSE(DecodeCheckpoint(std::string("\0\1g", 3) + l + "t" + std::string(4, '\0'),
                                  value_prefix + std::string(2, '\0')));
  }
}

TEST(RecordsTest, AnyVersionIsReadAsVersionZero) {
  const std::string key = EncodeHeartbeatKey({"a", "b", 0});
  for (const char* version : {"\x00\x01", "\x7f\xff", "\xff\xff"}) {
    std::string value = EncodeHeartbeatValue({"a", "b", 42});
    value.replace(0, 2, version, 2);
    std::optional<Heartbeat> h = DecodeHeartbeat(key, value);
    ASSERT_TRUE(h);
    EXPECT_EQ(h->timestamp_ms, 42);
  }
}

// Random bytes never crash a decoder, and whatever decodes re-encodes to the bytes it was read
// from (up to the version header and trailing bytes).
TEST(RecordsTest, RandomBytesDecodeSafely) {
  uint64_t state = 0x9E3779B97F4A7C15ull;
  auto next = [&state]() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint32_t>(state >> 33);
  };
  auto random_bytes = [&]() {
    std::string s(next() % 24, '\0');
    for (char& c : s) {
      // Mostly small values so that string lengths are often in range.
      c = static_cast<char>(next() % 4 == 0 ? next() : next() % 6);
    }
    return s;
  };
  int decoded = 0;
  for (int i = 0; i < 20000; ++i) {
    const std::string key = random_bytes();
    const std::string value = random_bytes();
    if (std::optional<Heartbeat> h = DecodeHeartbeat(key, value)) {
      ++decoded;
      const std::string k = EncodeHeartbeatKey(*h);
      EXPECT_EQ(key.substr(0, k.size()), k);
      EXPECT_EQ(value.substr(2, 8), EncodeHeartbeatValue(*h).substr(2));
    }
    if (std::optional<Checkpoint> c = DecodeCheckpoint(key, value)) {
      ++decoded;
      const std::string k = EncodeCheckpointKey(*c);
      const std::string v = EncodeCheckpointValue(*c);
      EXPECT_EQ(key.substr(0, k.size()), k);
      EXPECT_EQ(value.substr(2, v.size() - 2), v.substr(2));
    }
    if (std::optional<OffsetSync> s = DecodeOffsetSync(key, value)) {
      ++decoded;
      const std::string k = EncodeOffsetSyncKey(*s);
      const std::string v = EncodeOffsetSyncValue(*s);
      EXPECT_EQ(key.substr(0, k.size()), k);
      EXPECT_EQ(value.substr(0, v.size()), v);
    }
  }
  EXPECT_GT(decoded, 100);
}

// ---- Connect partitions and offsets: offsets_json.tsv ---------------------------------------

std::string OffsetKey(const std::string& connector, const std::string& partition_json) {
  return "[" + JsonString(connector) + "," + partition_json + "]";
}

TEST(OffsetsJsonGoldenTest, PartitionKeysAndOffsetsMatchJava) {
  int checked = 0;
  for (const std::string& line : GoldenLines("offsets_json.tsv")) {
    const std::vector<std::string> f = Split(line, '\t');
    SCOPED_TRACE(f[0] + " " + f[1]);
    std::string key;
    int64_t offset = 0;
    if (f[0] == "source") {
      ASSERT_EQ(f.size(), 9u);
      offset = std::stoll(f[6]);
      key = OffsetKey(FieldOrDie(f[2]),
                      SourcePartitionJson(FieldOrDie(f[3]), FieldOrDie(f[4]), std::stoi(f[5])));
    } else if (f[0] == "checkpoint") {
      ASSERT_EQ(f.size(), 8u);
      key = OffsetKey(FieldOrDie(f[2]),
                      CheckpointPartitionJson(FieldOrDie(f[3]), FieldOrDie(f[4]), std::stoi(f[5])));
    } else {
      ASSERT_EQ(f[0], "heartbeat");
      ASSERT_EQ(f.size(), 7u);
      key = OffsetKey(FieldOrDie(f[2]), HeartbeatPartitionJson(FieldOrDie(f[3]), FieldOrDie(f[4])));
    }
    const std::string& key_hex = f[f.size() - 2];
    const std::string& value_hex = f[f.size() - 1];
    EXPECT_EQ(ToHex(key), key_hex) << key << "\n" << FromHex(key_hex);
    EXPECT_EQ(ToHex(SourceOffsetJson(offset)), value_hex);
    EXPECT_EQ(ParseSourceOffset(FromHex(value_hex)), offset);
    ++checked;
  }
  EXPECT_EQ(checked, 17);
}

TEST(OffsetsJsonTest, Shapes) {
  EXPECT_EQ(SourcePartitionJson("primary", "orders", 7),
            R"({"cluster":"primary","partition":7,"topic":"orders"})");
  EXPECT_EQ(CheckpointPartitionJson("g1", "primary.orders", 0),
            R"({"partition":0,"topic":"primary.orders","group":"g1"})");
  EXPECT_EQ(HeartbeatPartitionJson("backup", "primary"),
            R"({"sourceClusterAlias":"backup","targetClusterAlias":"primary"})");
  EXPECT_EQ(SourceOffsetJson(-1), R"({"offset":-1})");
  EXPECT_EQ(SourceOffsetJson(std::numeric_limits<int64_t>::min()),
            R"({"offset":-9223372036854775808})");
}

TEST(JsonStringTest, EscapesAsJackson) {
  EXPECT_EQ(JsonString(""), R"("")");
  EXPECT_EQ(JsonString("a\"b\\c/d"), R"("a\"b\\c/d")");
  EXPECT_EQ(JsonString("\b\t\n\f\r"), R"("\b\t\n\f\r")");
  EXPECT_EQ(JsonString(std::string("\0\x01\x1f\x7f", 4)), "\"\\u0000\\u0001\\u001F\x7f\"");
  EXPECT_EQ(JsonString("\xC3\xA9\xE2\x80\xA8"), "\"\xC3\xA9\xE2\x80\xA8\"");  // raw UTF-8
  EXPECT_EQ(JsonString("\xF0\x9F\x98\x80"), R"("\uD83D\uDE00")");
  EXPECT_EQ(JsonString("\xF4\x8F\xBF\xBF"), R"("\uDBFF\uDFFF")");
}

TEST(JsonStringTest, MalformedUtf8BecomesReplacementCharacters) {
  EXPECT_EQ(JsonString("a\xffz"), "\"a\xEF\xBF\xBDz\"");
  EXPECT_EQ(JsonString("\xC3("), "\"\xEF\xBF\xBD(\"");
  EXPECT_EQ(JsonString("\xE2\x82"), "\"\xEF\xBF\xBD\"");  // truncated: one maximal subpart
  EXPECT_EQ(JsonString("\xC0\x80"), "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");  // overlong
}

// What Java's JsonConverter (schemas disabled) makes of stored offsets, probed on the reference
// JVM (connect-json 4.3.1): Long values, the last duplicate, trailing content ignored.
TEST(ParseSourceOffsetTest, ReadsAsJavaJsonConverter) {
  EXPECT_EQ(ParseSourceOffset(R"({"offset":5})"), 5);
  EXPECT_EQ(ParseSourceOffset(" {\n\t\"a\" : [1,{\"b\":[true,false,null,\"x\\\"}\"]}],\r"
                              " \"offset\" : -0 } "),
            0);
  EXPECT_EQ(ParseSourceOffset(R"({"offset":5} x)"), 5);
  EXPECT_EQ(ParseSourceOffset(R"({"offset":5}})"), 5);
  EXPECT_EQ(ParseSourceOffset(R"({"offset":1,"offset":2})"), 2);
  EXPECT_EQ(ParseSourceOffset(R"({"offset":01})"), 1);
  EXPECT_EQ(ParseSourceOffset(R"({"o":1,"offset":9223372036854775807,"p":{}})"),
            std::numeric_limits<int64_t>::max());
  EXPECT_EQ(ParseSourceOffset(R"({"offset":-9223372036854775808})"),
            std::numeric_limits<int64_t>::min());
  // BigInteger.longValue() wraps.
  EXPECT_EQ(ParseSourceOffset(R"({"offset":9223372036854775808})"),
            std::numeric_limits<int64_t>::min());
  EXPECT_EQ(ParseSourceOffset(R"({"offset":-9223372036854775809})"),
            std::numeric_limits<int64_t>::max());
  EXPECT_EQ(ParseSourceOffset("\xEF\xBB\xBF{\"offset\":3}"), 3);
  EXPECT_EQ(ParseSourceOffset(R"({"\u006Fffset":4})"), 4);  // "\u006F" is 'o'
}

TEST(ParseSourceOffsetTest, NoUsableOffset) {
  for (const char* json : {"",
                           "{}",
                           "[1]",
                           "5",
                           "null",
                           R"({"offset":null})",
                           R"({"offset":"5"})",
                           R"({"offset":1.0})",
                           R"({"offset":1e2})",
                           R"({"offset":[1]})",
                           R"({"offset":7,})",
                           R"({'offset':7})",
                           R"({"offset":+1})",
                           R"({"offset":1 2})",
                           R"(/*c*/{"offset":3})",
                           R"({"offset":-})",
                           R"({"offset":3)",
                           R"({"offset":3,"x":"unterminated})",
                           "{\"offset\":3,\"x\":\"\x01\"}",
                           R"({"offset":5,"offset":null})",
                           R"({"Offset":5})"}) {
    EXPECT_EQ(ParseSourceOffset(json), std::nullopt) << json;
  }
  // Deep nesting in a skipped member is bounded, not a stack overflow.
  std::string deep =
      R"({"x":)" + std::string(100000, '[') + std::string(100000, ']') + R"(,"offset":1})";
  EXPECT_EQ(ParseSourceOffset(deep), std::nullopt);
}

// connectd's MirrorSourceTask writes {"offset":N,"topic_id":"<id>"}; Java and operators write
// {"offset":N}.
TEST(ParseSourceOffsetTest, TopicIdNextToTheOffset) {
  std::string id = "stale";
  EXPECT_EQ(ParseSourceOffset(R"({"offset":49,"topic_id":"XCuK6AxrS4GGJRlJOTGklA"})", &id), 49);
  EXPECT_EQ(id, "XCuK6AxrS4GGJRlJOTGklA");
  EXPECT_EQ(ParseSourceOffset(R"({"topic_id":"a-_b","offset":7})", &id), 7);
  EXPECT_EQ(id, "a-_b");
  EXPECT_EQ(ParseSourceOffset(R"({"offset":7})", &id), 7);
  EXPECT_EQ(id, "");
  // A topic_id that is not a string is skipped like any other member.
  EXPECT_EQ(ParseSourceOffset(R"({"offset":7,"topic_id":12})", &id), 7);
  EXPECT_EQ(id, "");
  // No usable offset: no topic ID either.
  EXPECT_EQ(ParseSourceOffset(R"({"topic_id":"x"})", &id), std::nullopt);
  EXPECT_EQ(id, "");
  // The one-argument form reads the same offset.
  EXPECT_EQ(ParseSourceOffset(R"({"offset":49,"topic_id":"x"})"), 49);
}

}  // namespace
}  // namespace connectd::mirror
