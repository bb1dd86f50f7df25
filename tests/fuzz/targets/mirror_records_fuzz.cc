// libFuzzer target: MirrorMaker 2's records as they come from other clusters
// (connectors/mirror_client/records.h): Heartbeat, Checkpoint and OffsetSync keys and values,
// and the JSON of MM2's source offsets.
// Input: a selector byte, then (records) a 16-bit key length, key, value; (JSON) a 32-bit
// number, a NUL b.
// Properties:
//  - a record that decodes re-encodes to the bytes it was read from: the key exactly (up to its
//    ignored trailing bytes), the value likewise with the version normalised to 0; the
//    re-encoded record decodes to the same fields;
//  - JsonString(s), read back by the worker's JSON reader (connect_json.h, Jackson's rules), is
//    the string s as Java sees it (malformed UTF-8 as U+FFFD); MM2's partition maps read back
//    with their fields;
//  - ParseSourceOffset agrees with connect_json.h wherever both read the text.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "connectors/mirror_client/records.h"
#include "jvm/utf8.h"
#include "runtime/data/connect_json.h"
#include "tests/fuzz/targets/fuzz_check.h"

namespace mirror = connectd::mirror;
namespace jvm = connectd::jvm;
using connectd::data::JsonValue;
using connectd::data::ReadConnectJson;

namespace {

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// The value bytes after the INT16 version both sides carry.
void CheckVersionedValue(std::string_view encoded, std::string_view input) {
  FUZZ_CHECK(encoded.size() >= 2 && input.size() >= encoded.size());
  FUZZ_CHECK(encoded.substr(0, 2) == std::string_view("\0\0", 2));
  FUZZ_CHECK(StartsWith(input.substr(2), encoded.substr(2)));
}

void CheckStringMember(const JsonValue& object, std::string_view key, std::string_view raw) {
  const JsonValue* member = object.Find(key);
  FUZZ_CHECK(member != nullptr && member->kind == JsonValue::Kind::kString);
  FUZZ_CHECK(member->text == jvm::ToJavaString(raw));
}

void CheckIntMember(const JsonValue& object, std::string_view key, int64_t value) {
  const JsonValue* member = object.Find(key);
  FUZZ_CHECK(member != nullptr && member->kind == JsonValue::Kind::kLong);
  FUZZ_CHECK(member->integer == value);
}

void Records(uint8_t which, std::string_view key, std::string_view value) {
  switch (which % 4) {
    case 0: {
      std::optional<mirror::Heartbeat> decoded = mirror::DecodeHeartbeat(key, value);
      if (!decoded) return;
      std::string encoded_key = mirror::EncodeHeartbeatKey(*decoded);
      std::string encoded_value = mirror::EncodeHeartbeatValue(*decoded);
      FUZZ_CHECK(StartsWith(key, encoded_key));
      CheckVersionedValue(encoded_value, value);
      FUZZ_CHECK(mirror::DecodeHeartbeat(encoded_key, encoded_value) == decoded);
      break;
    }
    case 1: {
      std::optional<mirror::Checkpoint> decoded = mirror::DecodeCheckpoint(key, value);
      if (!decoded) return;
      std::string encoded_key = mirror::EncodeCheckpointKey(*decoded);
      std::string encoded_value = mirror::EncodeCheckpointValue(*decoded);
      FUZZ_CHECK(StartsWith(key, encoded_key));
      CheckVersionedValue(encoded_value, value);
      FUZZ_CHECK(mirror::DecodeCheckpoint(encoded_key, encoded_value) == decoded);
      break;
    }
    case 2: {
      // connectd's own run records: exact, so only their own bytes decode.
      std::optional<mirror::OffsetRunRecord> decoded = mirror::DecodeOffsetRun(key, value);
      if (!decoded) return;
      FUZZ_CHECK(mirror::EncodeOffsetRunKey(*decoded) == key);
      FUZZ_CHECK(mirror::EncodeOffsetRunValue(*decoded) == value);
      break;
    }
    default: {
      std::optional<mirror::OffsetSync> decoded = mirror::DecodeOffsetSync(key, value);
      if (!decoded) return;
      std::string encoded_key = mirror::EncodeOffsetSyncKey(*decoded);
      std::string encoded_value = mirror::EncodeOffsetSyncValue(*decoded);
      FUZZ_CHECK(StartsWith(key, encoded_key));
      FUZZ_CHECK(StartsWith(value, encoded_value));
      FUZZ_CHECK(mirror::DecodeOffsetSync(encoded_key, encoded_value) == decoded);
      break;
    }
  }
}

void Json(uint8_t which, const std::string& a, const std::string& b, int32_t number) {
  // JsonString: a JSON string literal that reads back as Java's view of the text.
  absl::StatusOr<JsonValue> literal = ReadConnectJson(mirror::JsonString(a));
  FUZZ_CHECK(literal.ok() && literal->kind == JsonValue::Kind::kString);
  FUZZ_CHECK(literal->text == jvm::ToJavaString(a));

  switch (which % 3) {
    case 0: {
      absl::StatusOr<JsonValue> p = ReadConnectJson(mirror::SourcePartitionJson(a, b, number));
      FUZZ_CHECK(p.ok() && p->kind == JsonValue::Kind::kObject && p->members.size() == 3);
      CheckStringMember(*p, "cluster", a);
      CheckStringMember(*p, "topic", b);
      CheckIntMember(*p, "partition", number);
      break;
    }
    case 1: {
      absl::StatusOr<JsonValue> p = ReadConnectJson(mirror::CheckpointPartitionJson(a, b, number));
      FUZZ_CHECK(p.ok() && p->kind == JsonValue::Kind::kObject && p->members.size() == 3);
      CheckStringMember(*p, "group", a);
      CheckStringMember(*p, "topic", b);
      CheckIntMember(*p, "partition", number);
      break;
    }
    default: {
      absl::StatusOr<JsonValue> p = ReadConnectJson(mirror::HeartbeatPartitionJson(a, b));
      FUZZ_CHECK(p.ok() && p->kind == JsonValue::Kind::kObject && p->members.size() == 2);
      CheckStringMember(*p, "sourceClusterAlias", a);
      CheckStringMember(*p, "targetClusterAlias", b);
      break;
    }
  }
  std::optional<int64_t> offset = mirror::ParseSourceOffset(mirror::SourceOffsetJson(number));
  FUZZ_CHECK(offset == number);
}

// ParseSourceOffset against the reference reader: where connect_json.h reads an object with an
// integer "offset", ParseSourceOffset returns it; where ParseSourceOffset returns a number that
// connect_json.h also reads, they agree.
void SourceOffset(std::string_view text) {
  std::optional<int64_t> parsed = mirror::ParseSourceOffset(text);
  absl::StatusOr<JsonValue> reference = ReadConnectJson(text);
  if (!reference.ok()) return;
  const JsonValue* offset =
      reference->kind == JsonValue::Kind::kObject ? reference->Find("offset") : nullptr;
  if (offset != nullptr && offset->kind == JsonValue::Kind::kLong) {
    FUZZ_CHECK(parsed == offset->integer);
  } else {
    FUZZ_CHECK(!parsed.has_value());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  connectd::fuzz::FuzzInput input(data, size);
  uint8_t which = input.Byte();
  switch ((which >> 2) % 3) {
    case 0: {
      std::string_view key = input.Sized();
      Records(which, key, input.Rest());
      break;
    }
    case 1: {
      uint32_t bits = 0;
      for (int i = 0; i < 4; ++i) bits = bits << 8 | input.Byte();
      auto number = static_cast<int32_t>(bits);
      std::string_view a = input.Piece();
      Json(which, std::string(a), std::string(input.Rest()), number);
      break;
    }
    default:
      SourceOffset(input.Rest());
      break;
  }
  return 0;
}
