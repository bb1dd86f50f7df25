// libFuzzer target: status-topic records (runtime/storage/status_records.h) as a worker
// consumes them: the key through ParseStatusKey, the value through DecodeStatusValue and
// DecodeTopicStatusValue, and the partition of an offsets-topic key (OffsetsTopicPartition).
// Input: key NUL value.
// Properties: a key that parses, rebuilt with the store's key function, parses to the same key;
// a value that decodes (with valid UTF-8 strings and, for a status, a worker id) re-encodes to
// bytes that decode to the same value; a partition lies in [0, partitions).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "jvm/utf8.h"
#include "runtime/storage/offsets_records.h"
#include "runtime/storage/status_records.h"
#include "tests/fuzz/targets/fuzz_check.h"

namespace dist = connectd::storage;
namespace jvm = connectd::jvm;

namespace {

bool ValidOrAbsent(const std::optional<std::string>& s) { return !s || jvm::IsValidUtf8(*s); }

void Key(std::string_view key) {
  absl::StatusOr<dist::StatusKey> parsed = dist::ParseStatusKey(key);
  if (!parsed.ok()) {
    FUZZ_CHECK(parsed.status().code() == absl::StatusCode::kInvalidArgument);
    return;
  }
  // A connector name cut inside a surrogate pair (a topic key's connector starts 11 UTF-16
  // units after the ':', as in Java) keeps the lone surrogate's 3-byte form, which a key must
  // not hold: such names have no key of their own to rebuild.
  if (!jvm::IsValidUtf8(parsed->connector) || !jvm::IsValidUtf8(parsed->topic)) return;
  std::string rebuilt;
  switch (parsed->kind) {
    case dist::StatusKey::Kind::kConnector:
      rebuilt = dist::ConnectorStatusKey(parsed->connector);
      break;
    case dist::StatusKey::Kind::kTask:
      rebuilt = dist::TaskStatusKey({parsed->connector, parsed->task});
      break;
    case dist::StatusKey::Kind::kTopic:
      rebuilt = dist::TopicStatusKey(parsed->topic, parsed->connector);
      break;
  }
  absl::StatusOr<dist::StatusKey> again = dist::ParseStatusKey(rebuilt);
  FUZZ_CHECK(again.ok());
  FUZZ_CHECK(*again == *parsed);
}

void Value(std::string_view value) {
  absl::StatusOr<dist::StatusValue> status = dist::DecodeStatusValue(value);
  if (status.ok() && status->worker_id && ValidOrAbsent(status->worker_id) &&
      ValidOrAbsent(status->trace) && ValidOrAbsent(status->version)) {
    absl::StatusOr<std::optional<std::string>> encoded = dist::EncodeStatusValue(*status);
    FUZZ_CHECK(encoded.ok());
    if (*encoded) {
      absl::StatusOr<dist::StatusValue> again = dist::DecodeStatusValue(**encoded);
      FUZZ_CHECK(again.ok());
      FUZZ_CHECK(*again == *status);
    } else {
      FUZZ_CHECK(status->state == connectd::worker::State::kDestroyed);
    }
  }
  absl::StatusOr<dist::TopicStatusValue> topic = dist::DecodeTopicStatusValue(value);
  if (topic.ok() && jvm::IsValidUtf8(topic->topic) && jvm::IsValidUtf8(topic->connector)) {
    absl::StatusOr<dist::TopicStatusValue> again =
        dist::DecodeTopicStatusValue(dist::EncodeTopicStatusValue(*topic));
    FUZZ_CHECK(again.ok());
    FUZZ_CHECK(*again == *topic);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  connectd::fuzz::FuzzInput input(data, size);
  std::string_view key = input.Piece();
  std::string_view value = input.Rest();
  Key(key);
  Value(value);
  for (int32_t partitions : {1, 25, 2147483647}) {
    int32_t partition = dist::OffsetsTopicPartition(key, partitions);
    FUZZ_CHECK(partition >= 0 && partition < partitions);
  }
  return 0;
}
