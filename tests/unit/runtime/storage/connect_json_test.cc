// The internal topics' JSON reader (runtime/data/connect_json.h), chiefly where the config
// and status topics' former readers differed: empty input, number length, wide integers, raw
// UTF-8 surrogates and sequences past U+10FFFF, whole-token literals and root numbers. Java reads
// both topics with the same JsonConverter, so both must read each of these alike. What Jackson
// itself does is pinned by tests/golden/config_topic (config_records_test.cc).
#include "runtime/data/connect_json.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "runtime/storage/config_records.h"
#include "runtime/storage/status_records.h"

namespace connectd::storage {

using data::JsonValue;
using data::ReadConnectJson;

namespace {

using Kind = JsonValue::Kind;

// The string that `json_string` (a JSON string token) reads as, or "ERROR".
std::string StringOf(const std::string& json_string) {
  absl::StatusOr<JsonValue> v = ReadConnectJson(json_string);
  if (!v.ok()) return "ERROR";
  EXPECT_EQ(v->kind, Kind::kString) << json_string;
  return v->text;
}

// A status value whose "trace" is the JSON string with raw body `body`.
std::string StatusWithTrace(const std::string& body) {
  return R"({"state":"RUNNING","generation":1,"trace":")" + body + "\"}";
}

TEST(ConnectJsonTest, EmptyInputIsNull) {
  for (const char* empty : {"", " \t\r\n", "\xEF\xBB\xBF", "\xEF\xBB\xBF  "}) {
    absl::StatusOr<JsonValue> v = ReadConnectJson(empty);
    ASSERT_TRUE(v.ok()) << v.status();
    EXPECT_TRUE(v->is_null());
  }
  // The config topic reads it as a null value; the status store needs an object, so rejects it.
  ASSERT_TRUE(ParseConfigValue("").ok());
  EXPECT_TRUE(ParseConfigValue("")->is_null());
  EXPECT_FALSE(DecodeStatusValue("").ok());
  EXPECT_FALSE(DecodeStatusValue("  ").ok());
}

TEST(ConnectJsonTest, IntegersAreTheirLow64Bits) {
  const auto integer = [](const std::string& text) {
    absl::StatusOr<JsonValue> v = ReadConnectJson(text);
    if (!v.ok() || v->kind != Kind::kLong) {
      ADD_FAILURE() << text << " is not read as a long";
      return int64_t{-42};
    }
    return v->integer;
  };
  EXPECT_EQ(integer("007"), 7);
  EXPECT_EQ(integer("-0"), 0);
  EXPECT_EQ(integer("9223372036854775807"), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(integer("9223372036854775808"), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(integer("-9223372036854775809"), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(integer("18446744073709551617"), 1);
  EXPECT_EQ(integer("4294967297"), 4294967297);
  // Each caller then keeps the bits Java keeps: the low 32 of a generation or a task count.
  absl::StatusOr<StatusValue> status =
      DecodeStatusValue(R"({"state":"RUNNING","generation":18446744078004518913})");
  ASSERT_TRUE(status.ok()) << status.status();
  EXPECT_EQ(status->generation, 1);
  absl::StatusOr<ConfigRecord> commit =
      ParseConfigRecord("commit-c", R"({"tasks":18446744078004518913})");
  ASSERT_TRUE(commit.ok());
  ASSERT_TRUE(commit->value_status.ok()) << commit->value_status;
  EXPECT_EQ(commit->count, 1);
}

TEST(ConnectJsonTest, DoublesAsBigDecimalDoubleValue) {
  absl::StatusOr<JsonValue> v = ReadConnectJson(R"([-0.0,1e400,-1e-400,2.5E+3,00.5])");
  ASSERT_TRUE(v.ok()) << v.status();
  ASSERT_EQ(v->elements.size(), 5u);
  for (const JsonValue& e : v->elements) EXPECT_EQ(e.kind, Kind::kDouble);
  EXPECT_EQ(v->elements[0].real, 0.0);
  EXPECT_FALSE(std::signbit(v->elements[0].real));  // an exact zero is +0.0
  EXPECT_TRUE(std::isinf(v->elements[1].real));
  EXPECT_EQ(v->elements[2].real, 0.0);
  EXPECT_TRUE(std::signbit(v->elements[2].real));  // underflow keeps the sign
  EXPECT_EQ(v->elements[3].real, 2500.0);
  EXPECT_EQ(v->elements[4].real, 0.5);
}

TEST(ConnectJsonTest, NumberLengthLimit) {
  const std::string digits1000 = "1" + std::string(999, '0');
  const std::string digits1001 = "1" + std::string(1000, '0');
  // Integers count digits only (a sign is free); other numbers count every character.
  EXPECT_TRUE(ReadConnectJson(digits1000).ok());
  EXPECT_TRUE(ReadConnectJson("-" + digits1000).ok());
  EXPECT_FALSE(ReadConnectJson(digits1001).ok());
  EXPECT_FALSE(ReadConnectJson("[" + digits1001 + "]").ok());
  const std::string decimal1000 = "1." + std::string(998, '0');
  EXPECT_TRUE(ReadConnectJson(decimal1000).ok());
  EXPECT_FALSE(ReadConnectJson("-" + decimal1000).ok());
  EXPECT_FALSE(ReadConnectJson(decimal1000 + "0").ok());
  // Both topics have Jackson's limit, in any field.
  const std::string prefix = R"({"state":"RUNNING","generation":1,"x":)";
  EXPECT_TRUE(ParseConfigValue(prefix + digits1000 + "}").ok());
  EXPECT_TRUE(DecodeStatusValue(prefix + digits1000 + "}").ok());
  EXPECT_FALSE(ParseConfigValue(prefix + digits1001 + "}").ok());
  EXPECT_FALSE(DecodeStatusValue(prefix + digits1001 + "}").ok());
  EXPECT_FALSE(DecodeStatusValue(R"({"state":"RUNNING","generation":)" + digits1001 + "}").ok());
}

TEST(ConnectJsonTest, RawUtf8EncodedSurrogates) {
  const std::string high = "\xED\xA0\xBD";  // U+D83D as a 3-byte form
  const std::string low = "\xED\xB8\x80";   // U+DE00
  const std::string emoji = "\xF0\x9F\x98\x80";
  // Jackson refuses them, alone, as a pair, or next to an escaped partner.
  EXPECT_EQ(StringOf("\"" + high + "\""), "ERROR");
  EXPECT_EQ(StringOf("\"" + low + "\""), "ERROR");
  EXPECT_EQ(StringOf("\"" + high + low + "\""), "ERROR");
  EXPECT_EQ(StringOf("\"" + high + "\\uDE00\""), "ERROR");
  EXPECT_EQ(StringOf("\"\\ud83d" + low + "\""), "ERROR");
  // Escaped, the pair is the character; raw, only its 4-byte form is.
  EXPECT_EQ(StringOf(R"("\ud83d\ude00")"), emoji);
  EXPECT_EQ(StringOf("\"" + emoji + "\""), emoji);
  // Both topics refuse them.
  EXPECT_FALSE(DecodeStatusValue(StatusWithTrace(high + low)).ok());
  EXPECT_FALSE(DecodeStatusValue(StatusWithTrace(low)).ok());
  EXPECT_FALSE(ParseConfigValue("{\"a\":\"" + high + low + "\"}").ok());
}

TEST(ConnectJsonTest, RawUtf8PastU10FFFF) {
  // F4 90 80 80 is U+110000, F5 80 80 80 U+140000: Jackson keeps their two out-of-range units.
  EXPECT_EQ(StringOf("\"\xF4\x90\x80\x80\""), "\xED\xB0\x80\xED\xB0\x80");  // DC00 DC00
  EXPECT_EQ(StringOf("\"\xF5\x80\x80\x80\""), "\xED\xB3\x80\xED\xB0\x80");  // DCC0 DC00
  EXPECT_EQ(StringOf("\"\xF7\xBF\xBF\xBF\""), "\xED\xBE\xBF\xED\xBF\xBF");  // DFBF DFFF
  // A preceding escaped high surrogate stays alone (the sequence's units are taken as they are).
  EXPECT_EQ(StringOf("\"\\uD83D\xF5\x80\x80\x80\""), "\xED\xA0\xBD\xED\xB3\x80\xED\xB0\x80");
  // U+10FFFF itself is the character; lead bytes F8..FF are errors.
  EXPECT_EQ(StringOf("\"\xF4\x8F\xBF\xBF\""), "\xF4\x8F\xBF\xBF");
  EXPECT_EQ(StringOf("\"\xF8\x80\x80\x80\x80\""), "ERROR");
  // Both topics keep the units.
  absl::StatusOr<StatusValue> status = DecodeStatusValue(StatusWithTrace("\xF5\x80\x80\x80"));
  ASSERT_TRUE(status.ok()) << status.status();
  EXPECT_EQ(status->trace, "\xED\xB3\x80\xED\xB0\x80");
  absl::StatusOr<JsonValue> config = ParseConfigValue("{\"a\":\"\xF5\x80\x80\x80\"}");
  ASSERT_TRUE(config.ok()) << config.status();
  ASSERT_NE(config->Find("a"), nullptr);
  EXPECT_EQ(config->Find("a")->text, "\xED\xB3\x80\xED\xB0\x80");
}

TEST(ConnectJsonTest, EscapedSurrogatesPairOnlyWhenAdjacent) {
  EXPECT_EQ(StringOf(R"("\ud83d\ude00")"), "\xF0\x9F\x98\x80");
  EXPECT_EQ(StringOf(R"("\ud800\ud83d\ude00")"), "\xED\xA0\x80\xF0\x9F\x98\x80");
  EXPECT_EQ(StringOf(R"("\ude00\ud83d")"), "\xED\xB8\x80\xED\xA0\xBD");
  EXPECT_EQ(StringOf(R"("\ud83dx\ude00")"), "\xED\xA0\xBDx\xED\xB8\x80");
  EXPECT_EQ(StringOf("\"\\ud83d\xF0\x9F\x98\x80\""), "\xED\xA0\xBD\xF0\x9F\x98\x80");
  EXPECT_EQ(StringOf("\"\xC0\x80\""), std::string(1, '\0'));  // overlong: unchecked
}

TEST(ConnectJsonTest, WholeTokensAndRootNumbers) {
  EXPECT_FALSE(ReadConnectJson("truex").ok());
  EXPECT_FALSE(ReadConnectJson("null_").ok());
  EXPECT_FALSE(ReadConnectJson("false\xC3\xA9").ok());
  EXPECT_FALSE(ReadConnectJson("[tru]").ok());
  EXPECT_TRUE(ReadConnectJson("true x").ok());
  EXPECT_TRUE(ReadConnectJson("true]").ok());
  EXPECT_TRUE(ReadConnectJson("[true,false,null]").ok());
  // A root number must end at whitespace or the end; other root values need not.
  EXPECT_FALSE(ReadConnectJson("1x").ok());
  EXPECT_FALSE(ReadConnectJson("1]").ok());
  EXPECT_FALSE(ReadConnectJson("1.5,").ok());
  ASSERT_TRUE(ReadConnectJson("42 x").ok());
  EXPECT_EQ(ReadConnectJson("42 x")->integer, 42);
  EXPECT_TRUE(ReadConnectJson(R"("s"x)").ok());
  EXPECT_TRUE(ReadConnectJson("{}x").ok());
  EXPECT_TRUE(ReadConnectJson("[]]").ok());
}

TEST(ConnectJsonTest, RepeatedKeyKeepsFirstPlaceLastValue) {
  absl::StatusOr<JsonValue> v = ReadConnectJson(R"({"a":1,"b":2,"a":"x"})");
  ASSERT_TRUE(v.ok());
  ASSERT_EQ(v->members.size(), 2u);
  EXPECT_EQ(v->members[0].first, "a");
  EXPECT_EQ(v->members[0].second.text, "x");
  EXPECT_EQ(v->members[1].first, "b");
  ASSERT_NE(v->Find("a"), nullptr);
  EXPECT_EQ(v->Find("a")->kind, Kind::kString);
  EXPECT_EQ(v->Find("c"), nullptr);
  EXPECT_EQ(v->members[1].second.Find("a"), nullptr);  // not an object
}

TEST(ConnectJsonTest, NestingLimit) {
  const auto nested = [](int depth) { return std::string(depth, '[') + std::string(depth, ']'); };
  EXPECT_TRUE(ReadConnectJson(nested(1000)).ok());
  EXPECT_FALSE(ReadConnectJson(nested(1001)).ok());
}

TEST(ConnectJsonTest, ErrorsSayWhere) {
  absl::StatusOr<JsonValue> v = ReadConnectJson(R"({"a":tru})");
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(v.status().message()), ::testing::HasSubstr("at byte 5"));
  for (const char* bad :
       {"{\"a\":1,}", "[1,]",        "{'a':1}",  "{\"a\":+1}",      "{\"a\":.5}", "{\"a\":1.}",
        "{\"a\":1e}", "{\"a\":NaN}", "{/*c*/}",  "{a:1}",           "\"\\q\"",    "\"\\u12\"",
        "\"\x01\"",   "\"\t\"",      "\"x",      "{\"a\":1",        "[1",         "{\"a\" 1}",
        "-",          "\"\xC3\"",    "\"\x80\"", "\"\xE4\x41\x41\""}) {
    EXPECT_FALSE(ReadConnectJson(bad).ok()) << bad;
  }
}

}  // namespace
}  // namespace connectd::storage
