// File: offset_codec.h
//
// The bytes of source offsets exactly as a Java Connect worker writes them with its internal,
// schemaless JsonConverter (OffsetStorageWriter, KafkaOffsetBackingStore, FileOffsetBackingStore):
//
//   key   = ["<connector>",{<partition map>}]      e.g. ["file-src",{"filename":"/in.txt"}]
//   value = {<offset map>}                          e.g. {"position":1024}; tombstone = no value
//
// compact Jackson output, numbers and strings rendered as Java does (jvm/java_text.h). Plugins hand
// partitions and offsets over as JSON object text whose values are flat: null, string, integer
// (int64), double or boolean. Nested objects/arrays, duplicate keys, integers outside int64 and
// non-object input are rejected with kInvalidArgument.
//
// A lone UTF-16 surrogate, which a Java String may hold and Jackson writes as its own escape
// (["a\uD800b",{}]), is read into its 3-byte form (as jvm/utf8.h keeps such a char) and written
// back as the same escape, in connector names and values alike; raw bytes must be UTF-8.
//
// Key order matters because lookups are byte-exact: Java emits a map in its iteration order. The
// serializers here keep the order of the text they are given (a LinkedHashMap or singleton map in
// Java). Maps that went through a java.util.HashMap (JsonConverter's parsed maps, REST-PATCHed
// offsets, MirrorMaker 2's partition maps) iterate in HashMap bucket order: pass such text through
// CanonicalJavaHashMapOrder first. OffsetLookupIndex finds an offset whatever order it was
// written in.
//
// Example:
//   auto partition = CanonicalJavaHashMapOrder(R"({"cluster":"A","topic":"t","partition":0})");
//   auto key = SerializeOffsetKey("MirrorSourceConnector", *partition);
//   // ["MirrorSourceConnector",{"cluster":"A","partition":0,"topic":"t"}]
//
// Thread safety: the free functions may be called from any thread; OffsetLookupIndex is not
// thread-safe (its owner locks).
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "jvm/java_hash_order.h"
#include "jvm/java_text.h"

namespace connectd::storage {

// SerializeOffsetKey returns the key bytes of `connector`'s partition `partition_json` (a flat
// JSON object), keys in the order of the text.
absl::StatusOr<std::string> SerializeOffsetKey(
    std::string_view connector, std::string_view partition_json,
    jvm::JavaDoubleStyle double_style = jvm::JavaDoubleStyle::kJdk17);

// SerializeOffsetValue returns the value bytes of `offset_json` (a flat JSON object), keys in the
// order of the text; nullopt (a tombstone) for nullopt.
absl::StatusOr<std::optional<std::string>> SerializeOffsetValue(
    std::optional<std::string_view> offset_json,
    jvm::JavaDoubleStyle double_style = jvm::JavaDoubleStyle::kJdk17);

// A decoded offset key.
struct OffsetKey {
  std::string connector;
  std::string partition_json;  // compact, keys in stored order
};

// ParseOffsetKey decodes key bytes of the form ["<connector>",{...}] (any whitespace, any key
// order inside the partition). Anything else is kInvalidArgument; Connect ignores such keys.
absl::StatusOr<OffsetKey> ParseOffsetKey(std::string_view key_bytes);

// ParseOffsetValue decodes value bytes into compact offset JSON, keys in stored order.
absl::StatusOr<std::string> ParseOffsetValue(std::string_view value_bytes);

// CanonicalJavaHashMapOrder returns `object_json` (a flat JSON object) compacted, with its keys in
// the order in which a java.util.HashMap<String,?> created with the default capacity (16) and
// load factor (0.75) and filled in text order would iterate them: bucket (n-1) & (h ^ (h >>> 16))
// of String.hashCode h, the table doubling when the size exceeds 3/4 of it (and when a key joins
// a bucket already holding 8 while the table is smaller than 64: treeifyBin resizes instead),
// insertion order within a bucket. Tree bins (a 9th key in one bucket of a table of 64 or more)
// are not modelled and keep insertion order.
absl::StatusOr<std::string> CanonicalJavaHashMapOrder(
    std::string_view object_json, jvm::JavaDoubleStyle double_style = jvm::JavaDoubleStyle::kJdk17);

// CanonicalOffsetKey returns the form OffsetLookupIndex matches on: the key bytes with the
// partition's keys sorted by their UTF-8 bytes. Two partitions have the same canonical key iff
// Java considers their maps equal (so 3 and 3.0 differ, as Long and Double do).
absl::StatusOr<std::string> CanonicalOffsetKey(std::string_view connector,
                                               std::string_view partition_json);

// OffsetLookupIndex: the latest offset of every source partition, found by partition content
// rather than by exact bytes, plus Connect's per-connector partition sets (OffsetUtils
// .processPartitionKey: a live value adds the partition, a tombstone removes it).
//
// Lifecycle: owned by a backing store, fed every key/value it stores, in order.
// Thread safety: none; the owner serializes access.
class OffsetLookupIndex {
 public:
  // Apply records that `key` (offset key bytes) now maps to `value` (nullopt: tombstone). Returns
  // false, changing nothing, when `key` is not a ["<connector>",{flat object}] key.
  bool Apply(std::string_view key, std::optional<std::string_view> value);

  // Find returns the value bytes last applied for `connector`'s `partition_json` under any key
  // order, or nullopt if there are none (or a tombstone came last). kInvalidArgument if
  // `partition_json` is not a flat JSON object.
  absl::StatusOr<std::optional<std::string>> Find(std::string_view connector,
                                                  std::string_view partition_json) const;

  // Partitions returns `connector`'s partitions that have a live offset, as compact JSON in the
  // key order Java shows them (the HashMap its JsonConverter parses them into), sorted by
  // canonical form.
  std::vector<std::string> Partitions(std::string_view connector) const;

  void Clear() { connectors_.clear(); }

 private:
  struct Entry {
    std::string partition_json;  // as Java shows it
    std::string value;
  };
  // connector -> canonical partition -> latest live entry
  std::map<std::string, std::map<std::string, Entry>, std::less<>> connectors_;
};

}  // namespace connectd::storage
