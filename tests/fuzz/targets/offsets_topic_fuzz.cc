// libFuzzer target: offsets-topic records (runtime/storage/offset_codec.h,
// runtime/storage/offsets_records.h) as a worker consumes them, and the offset index the
// backing stores keep.
// Input: key NUL value (no NUL after the key: a tombstone).
// Properties: a key or value that parses re-serializes to bytes that parse to the same thing
// (the serializer and parser agree on numbers, escapes and key order); ParseOffsetsTopicKey
// accepts what ParseOffsetKey accepts; a partition put in the reordering helpers keeps its
// canonical key; OffsetLookupIndex finds what it applied under the partition as stored.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "runtime/storage/offset_codec.h"
#include "runtime/storage/offsets_records.h"
#include "tests/fuzz/targets/fuzz_check.h"

namespace storage = connectd::storage;
namespace dist = connectd::storage;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  connectd::fuzz::FuzzInput input(data, size);
  std::string_view key = input.Piece();
  std::optional<std::string_view> value;
  if (size > key.size()) value = input.Rest();

  absl::StatusOr<storage::OffsetKey> parsed_key = storage::ParseOffsetKey(key);
  std::optional<storage::OffsetKey> tracked = dist::ParseOffsetsTopicKey(key);
  FUZZ_CHECK(tracked.has_value() == parsed_key.ok());
  if (parsed_key.ok()) {
    FUZZ_CHECK(tracked->connector == parsed_key->connector);
    FUZZ_CHECK(tracked->partition_json == parsed_key->partition_json);
    // A connector name read with an escaped lone surrogate ("\ude01", which Java's String
    // holds) keeps its 3-byte form and is written back as the same escape
    // (regress-lone-surrogate-connector-name).
    absl::StatusOr<std::string> written =
        storage::SerializeOffsetKey(parsed_key->connector, parsed_key->partition_json);
    FUZZ_CHECK(written.ok());
    absl::StatusOr<storage::OffsetKey> again = storage::ParseOffsetKey(*written);
    FUZZ_CHECK(again.ok());
    FUZZ_CHECK(again->connector == parsed_key->connector);
    FUZZ_CHECK(again->partition_json == parsed_key->partition_json);
  }
  if (parsed_key.ok()) {
    absl::StatusOr<std::string> canonical =
        storage::CanonicalOffsetKey(parsed_key->connector, parsed_key->partition_json);
    FUZZ_CHECK(canonical.ok());
    absl::StatusOr<std::string> hash_order =
        storage::CanonicalJavaHashMapOrder(parsed_key->partition_json);
    FUZZ_CHECK(hash_order.ok());
    absl::StatusOr<std::string> reordered_canonical =
        storage::CanonicalOffsetKey(parsed_key->connector, *hash_order);
    FUZZ_CHECK(reordered_canonical.ok());
    FUZZ_CHECK(*reordered_canonical == *canonical);

    absl::StatusOr<dist::OffsetsTopicRecord> record = dist::MakeOffsetsTopicRecord(
        parsed_key->connector, parsed_key->partition_json, std::nullopt, 25);
    FUZZ_CHECK(record.ok());
    FUZZ_CHECK(record->partition >= 0 && record->partition < 25);
  }

  std::optional<std::string> parsed_value;
  if (value) {
    absl::StatusOr<std::string> v = storage::ParseOffsetValue(*value);
    if (v.ok()) {
      parsed_value = *v;
      absl::StatusOr<std::optional<std::string>> written = storage::SerializeOffsetValue(*v);
      FUZZ_CHECK(written.ok() && written->has_value());
      absl::StatusOr<std::string> again = storage::ParseOffsetValue(**written);
      FUZZ_CHECK(again.ok());
      FUZZ_CHECK(*again == *v);
    }
  }

  storage::OffsetLookupIndex index;
  bool applied = index.Apply(key, value);
  FUZZ_CHECK(applied == parsed_key.ok());
  if (applied) {
    absl::StatusOr<std::optional<std::string>> found =
        index.Find(parsed_key->connector, parsed_key->partition_json);
    FUZZ_CHECK(found.ok());
    if (value) {
      FUZZ_CHECK(found->has_value() && **found == *value);
      FUZZ_CHECK(index.Partitions(parsed_key->connector).size() == 1);
    } else {
      FUZZ_CHECK(!found->has_value());
      FUZZ_CHECK(index.Partitions(parsed_key->connector).empty());
    }
  }
  return 0;
}
