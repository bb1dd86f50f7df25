// Status-topic records against the bytes Kafka 4.4.0's KafkaStatusBackingStore sends
// (tests/golden/status_topic/status_records.tsv), plus decoding and key parsing rules.
#include "runtime/storage/status_records.h"

#include <gtest/gtest.h>

#include "absl/strings/numbers.h"
#include "tests/unit/runtime/storage/status_golden.h"

namespace connectd::storage {
namespace {

using testing::FromHex;
using testing::LoadStatusGolden;
using testing::ToHex;

TEST(StatusRecordsTest, StatusValuesMatchJavaByteForByte) {
  int rows = 0;
  for (const auto& row : LoadStatusGolden("status_records.tsv")) {
    if (row[0] != "status") continue;
    ASSERT_EQ(row.size(), 12u);
    SCOPED_TRACE(row[1]);
    ++rows;
    const std::string connector = *FromHex(row[3]);
    StatusValue value;
    value.state = *ParseStatusStateName(row[5]);
    value.worker_id = FromHex(row[6]);
    ASSERT_TRUE(absl::SimpleAtoi(row[7], &value.generation));
    value.trace = FromHex(row[8]);
    value.version = FromHex(row[9]);
    std::string key;
    if (row[2] == "connector") {
      key = ConnectorStatusKey(connector);
    } else {
      int task = 0;
      ASSERT_TRUE(absl::SimpleAtoi(row[4], &task));
      key = TaskStatusKey({connector, task});
    }
    EXPECT_EQ(ToHex(key), row[10]);
    const auto encoded = EncodeStatusValue(value);
    ASSERT_TRUE(encoded.ok()) << encoded.status();
    EXPECT_EQ(ToHex(*encoded), row[11]);
    // And back, unless it is a tombstone.
    if (encoded->has_value()) {
      const auto decoded = DecodeStatusValue(**encoded);
      ASSERT_TRUE(decoded.ok()) << decoded.status();
      EXPECT_EQ(*decoded, value);
    }
    const auto parsed = ParseStatusKey(key);
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(parsed->connector, connector);
  }
  EXPECT_EQ(rows, 16);
}

TEST(StatusRecordsTest, TopicValuesMatchJavaByteForByte) {
  int rows = 0;
  for (const auto& row : LoadStatusGolden("status_records.tsv")) {
    if (row[0] != "topic") continue;
    ASSERT_EQ(row.size(), 8u);
    SCOPED_TRACE(row[1]);
    ++rows;
    const std::string connector = *FromHex(row[2]);
    const std::string topic = *FromHex(row[3]);
    EXPECT_EQ(ToHex(TopicStatusKey(topic, connector)), row[6]);
    if (row[4] == "-") {  // deleteTopic
      EXPECT_EQ(row[7], "~");
      continue;
    }
    TopicStatusValue value{topic, connector, 0, 0};
    ASSERT_TRUE(absl::SimpleAtoi(row[4], &value.task));
    ASSERT_TRUE(absl::SimpleAtoi(row[5], &value.discover_timestamp));
    const std::string encoded = EncodeTopicStatusValue(value);
    EXPECT_EQ(ToHex(encoded), row[7]);
    const auto decoded = DecodeTopicStatusValue(encoded);
    ASSERT_TRUE(decoded.ok()) << decoded.status();
    EXPECT_EQ(*decoded, value);
    const auto parsed = ParseStatusKey(TopicStatusKey(topic, connector));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(parsed->kind, StatusKey::Kind::kTopic);
    EXPECT_EQ(parsed->topic, topic);
    EXPECT_EQ(parsed->connector, connector);
  }
  EXPECT_EQ(rows, 6);
}

TEST(StatusRecordsTest, FailedTraceIsEscapedAsJackson) {
  StatusValue value;
  value.state = worker::State::kFailed;
  value.worker_id = "w:1";
  value.generation = 2;
  value.trace = "a \"q\"\n\tat X\r\\ \x01 \xC3\xA9 \xF0\x9F\x98\x80";
  const auto encoded = EncodeStatusValue(value);
  ASSERT_TRUE(encoded.ok());
  EXPECT_EQ(**encoded,
            "{\"state\":\"FAILED\",\"trace\":\"a \\\"q\\\"\\n\\tat X\\r\\\\ \\u0001 \xC3\xA9 "
            "\\uD83D\\uDE00\",\"worker_id\":\"w:1\",\"generation\":2,\"version\":null}");
}

TEST(StatusRecordsTest, DestroyedIsATombstoneAndWorkerIdIsRequired) {
  StatusValue destroyed;
  destroyed.state = worker::State::kDestroyed;
  const auto tombstone = EncodeStatusValue(destroyed);
  ASSERT_TRUE(tombstone.ok());
  EXPECT_FALSE(tombstone->has_value());
  StatusValue no_worker;
  no_worker.state = worker::State::kRunning;
  EXPECT_EQ(EncodeStatusValue(no_worker).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(StatusRecordsTest, DecodesWhatJacksonAccepts) {
  const auto v = DecodeStatusValue(
      "\xEF\xBB\xBF {\"generation\":-0007,\"state\":\"FAILED\",\"state\":\"STOPPED\","
      "\"worker_id\":\"w\\u00e9\\ud83d\\ude00\",\"x\":[1,2.5e-3,{\"y\":null}]} tail");
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(v->state, worker::State::kStopped);
  EXPECT_EQ(v->generation, -7);
  EXPECT_EQ(v->worker_id, "w\xC3\xA9\xF0\x9F\x98\x80");
  EXPECT_FALSE(v->trace.has_value());
  EXPECT_FALSE(v->version.has_value());
  // Low 32 bits of any integer, as Long.intValue of BigInteger.longValue.
  const auto big = DecodeStatusValue(R"({"state":"RUNNING","generation":4294967297})");
  ASSERT_TRUE(big.ok());
  EXPECT_EQ(big->generation, 1);
  EXPECT_FALSE(big->worker_id.has_value());
  // A lone surrogate escape stays a (3-byte) lone surrogate.
  const auto lone = DecodeStatusValue(R"({"state":"RUNNING","generation":1,"trace":"\udc00"})");
  ASSERT_TRUE(lone.ok());
  EXPECT_EQ(lone->trace, "\xED\xB0\x80");
}

TEST(StatusRecordsTest, RejectsWhatJavaRejects) {
  for (const char* bad : {
           R"({"state":"running","generation":1})",
           R"({"state":"RUNNING","generation":1.0})",
           R"({"state":"RUNNING","generation":"1"})",
           R"({"state":"RUNNING"})",
           R"({"generation":1})",
           R"({"state":"RUNNING","generation":1,"trace":1})",
           R"({"state":"RUNNING","generation":1,"worker_id":{}})",
           R"({"state":"RUNNING","generation":1,"version":true})",
           R"(["RUNNING"])",
           "null",
           "",
           "   ",
           R"({"state":"RUNNING","generation":1,})",
           R"({"state":"RUNNING","generation":+1})",
           R"({"state":"RUNNING","generation":1,"x":.5})",
           R"({"state":"RUNNING","generation":1,"x":1.})",
           R"({"state":"RUNNING","generation":1,"x":"\q"})",
           "{\"state\":\"RUNNING\",\"generation\":1,\"x\":\"\t\"}",
           "{\"state\":\"RUNNING\",\"generation\":1,\"x\":\"\xFF\"}",
           R"({"state":"RUNNING","generation":1 /* c */})",
           R"({"state":"RUNNING","generation":1)",
       }) {
    EXPECT_FALSE(DecodeStatusValue(bad).ok()) << bad;
  }
  EXPECT_FALSE(DecodeTopicStatusValue(
                   R"({"topic":{"name":null,"connector":"c","task":1,"discoverTimestamp":1}})")
                   .ok());
  EXPECT_FALSE(DecodeTopicStatusValue(R"({"topic":{"name":"t","connector":"c","task":1}})").ok());
  EXPECT_FALSE(DecodeTopicStatusValue(R"({"topic":"t"})").ok());
}

TEST(StatusRecordsTest, NestingLimitIsJacksons) {
  const auto nested = [](int depth) {  // the root object is one level
    return std::string(R"({"state":"RUNNING","generation":1,"x":)") + std::string(depth - 1, '[') +
           std::string(depth - 1, ']') + "}";
  };
  EXPECT_TRUE(DecodeStatusValue(nested(1000)).ok());
  EXPECT_FALSE(DecodeStatusValue(nested(1001)).ok());
}

TEST(StatusRecordsTest, ParsesKeysAsTheJavaStore) {
  const auto task = [](std::string_view key) { return ParseStatusKey(key); };
  auto k = task("status-task-a-b-c-12");
  ASSERT_TRUE(k.ok());
  EXPECT_EQ(k->kind, StatusKey::Kind::kTask);
  EXPECT_EQ(k->connector, "a-b-c");
  EXPECT_EQ(k->task, 12);
  k = task("status-task-x--1");
  ASSERT_TRUE(k.ok());
  EXPECT_EQ(k->connector, "x-");
  EXPECT_EQ(k->task, 1);
  k = task("status-task-y-4---");  // trailing empty tokens dropped
  ASSERT_TRUE(k.ok());
  EXPECT_EQ(k->connector, "y");
  EXPECT_EQ(k->task, 4);
  k = task("status-task--0");
  ASSERT_TRUE(k.ok());
  EXPECT_EQ(k->connector, "");
  k = task("status-task-z-+7");
  ASSERT_TRUE(k.ok());
  EXPECT_EQ(k->task, 7);
  for (const char* bad :
       {"status-task-7", "status-task-q-", "status-task-q-x", "status-task-q-+",
        "status-task-z-2147483648", "status-task--", "status-connector-", "status-topic-t",
        "status-topic-:connector-c", "status-topic-t:connector-", "status-topic-t:conn", "status-x",
        "other", "status-connector-\xFF"}) {
    EXPECT_FALSE(ParseStatusKey(bad).ok()) << bad;
  }
  k = ParseStatusKey("status-connector-status-task-x-1");
  ASSERT_TRUE(k.ok());
  EXPECT_EQ(k->kind, StatusKey::Kind::kConnector);
  EXPECT_EQ(k->connector, "status-task-x-1");
  // The separator text is not checked: ':' and 10 more units are skipped.
  k = ParseStatusKey("status-topic-t:XXXXXXXXXXXc1");
  ASSERT_TRUE(k.ok());
  EXPECT_EQ(k->topic, "t");
  EXPECT_EQ(k->connector, "Xc1");
  k = ParseStatusKey("status-topic-t:connector-c:d");
  ASSERT_TRUE(k.ok());
  EXPECT_EQ(k->connector, "c:d");
  // 11 UTF-16 units: an astral character counts two.
  k = ParseStatusKey(
      "status-topic-t:\xF0\x9F\x98\x80"
      "45678901c");
  ASSERT_TRUE(k.ok());
  EXPECT_EQ(k->connector, "c");
}

}  // namespace
}  // namespace connectd::storage
