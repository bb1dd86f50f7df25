#include "runtime/herder/sink_offsets.h"

#include <rapidjson/document.h>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "runtime/storage/offset_codec.h"

namespace connectd::herder {
namespace {

constexpr char kTopic[] = "kafka_topic";
constexpr char kPartition[] = "kafka_partition";
constexpr char kOffset[] = "kafka_offset";

absl::StatusOr<rapidjson::Document> ParseObject(const std::string& json, const char* what) {
  rapidjson::Document doc;
  doc.Parse(json.c_str(), json.size());
  if (doc.HasParseError() || !doc.IsObject()) {
    return absl::InvalidArgumentError(
        absl::StrCat("The ", what, " for a sink connector must be a JSON object"));
  }
  return doc;
}

// A JSON number or a numeric string, as Connect accepts both.
absl::StatusOr<int64_t> Integer(const rapidjson::Value& object, const char* key, const char* what) {
  auto it = object.FindMember(key);
  if (it == object.MemberEnd() || it->value.IsNull()) {
    return absl::InvalidArgumentError(
        absl::StrCat("The ", what, " must contain the key '", key, "'"));
  }
  int64_t out = 0;
  if (it->value.IsInt64()) return it->value.GetInt64();
  if (it->value.IsString() && absl::SimpleAtoi(it->value.GetString(), &out)) return out;
  return absl::InvalidArgumentError(absl::StrCat(
      "Failed to parse the following Kafka ", what, " value in the provided offsets: '",
      it->value.IsString() ? it->value.GetString() : "(not a number)",
      "'. This should be a valid integer."));
}

}  // namespace

std::string SinkPartitionJson(const std::string& topic, int32_t partition) {
  // Topic names are [a-zA-Z0-9._-] in Kafka; escape defensively anyway.
  std::string escaped;
  for (char c : topic) {
    if (c == '"' || c == '\\') escaped.push_back('\\');
    escaped.push_back(c);
  }
  std::string json =
      absl::StrCat("{\"", kTopic, "\":\"", escaped, "\",\"", kPartition, "\":", partition, "}");
  absl::StatusOr<std::string> ordered = storage::CanonicalJavaHashMapOrder(json);
  return ordered.ok() ? *ordered : json;
}

std::string SinkOffsetJson(int64_t offset) {
  return absl::StrCat("{\"", kOffset, "\":", offset, "}");
}

absl::StatusOr<std::pair<std::string, int32_t>> ParseSinkPartition(const std::string& json) {
  absl::StatusOr<rapidjson::Document> doc = ParseObject(json, "partition");
  if (!doc.ok()) return doc.status();
  auto topic = doc->FindMember(kTopic);
  if (topic == doc->MemberEnd() || !topic->value.IsString()) {
    return absl::InvalidArgumentError(absl::StrCat("Kafka topic names must be provided in the '",
                                                   kTopic, "' key of the partition"));
  }
  absl::StatusOr<int64_t> partition = Integer(*doc, kPartition, "partition");
  if (!partition.ok()) return partition.status();
  if (*partition < 0 || *partition > INT32_MAX) {
    return absl::InvalidArgumentError("Kafka partitions must be non-negative integers");
  }
  return std::make_pair(std::string(topic->value.GetString()), static_cast<int32_t>(*partition));
}

absl::StatusOr<int64_t> ParseSinkOffset(const std::string& json) {
  absl::StatusOr<rapidjson::Document> doc = ParseObject(json, "offset");
  if (!doc.ok()) return doc.status();
  absl::StatusOr<int64_t> offset = Integer(*doc, kOffset, "offset");
  if (!offset.ok()) return offset.status();
  if (*offset < 0) return absl::InvalidArgumentError("Kafka offsets must be non-negative integers");
  return *offset;
}

}  // namespace connectd::herder
