#include "jvm/java_hash_order.h"

#include <algorithm>
#include <utility>

#include "jvm/utf8.h"

namespace connectd::jvm {
namespace {

constexpr size_t kDefaultCapacity = 16;  // HashMap.DEFAULT_INITIAL_CAPACITY
constexpr float kLoadFactor = 0.75f;     // HashMap.DEFAULT_LOAD_FACTOR

// HashMap.tableSizeFor: the smallest power of two >= n (1 for 0).
size_t TableSizeFor(size_t n) {
  size_t size = 1;
  while (size < n) size <<= 1;
  return size;
}

}  // namespace

int32_t JavaStringHashCode(std::string_view utf8) {
  uint32_t h = 0;  // Java's int arithmetic wraps; unsigned does the same without UB
  size_t i = 0;
  while (i < utf8.size()) {
    const char32_t c = DecodeOneUtf8(utf8, &i, /*surrogates=*/true);
    if (c >= 0x10000) {  // a surrogate pair in UTF-16
      const char32_t v = c - 0x10000;
      h = 31 * h + static_cast<uint32_t>(0xD800 + (v >> 10));
      h = 31 * h + static_cast<uint32_t>(0xDC00 + (v & 0x3FF));
    } else {
      h = 31 * h + static_cast<uint32_t>(c);
    }
  }
  return static_cast<int32_t>(h);
}

size_t JavaHashMapCapacity(std::optional<size_t> initial, size_t size) {
  // HashMap.resize, as each put that makes ++size > threshold calls it.
  size_t capacity = 0;
  size_t threshold = initial ? TableSizeFor(*initial) : 0;
  for (size_t n = 1; n <= size; ++n) {
    if (capacity == 0) {  // the first put allocates the table
      capacity = threshold > 0 ? threshold : kDefaultCapacity;
      threshold = static_cast<size_t>(static_cast<float>(capacity) * kLoadFactor);
    }
    if (n > threshold) {
      const size_t old = capacity;
      capacity <<= 1;
      threshold = old >= kDefaultCapacity
                      ? threshold << 1
                      : static_cast<size_t>(static_cast<float>(capacity) * kLoadFactor);
    }
  }
  return capacity;
}

std::vector<std::string> JavaHashMapOrder(std::vector<std::string> keys,
                                          std::optional<size_t> initial) {
  std::vector<std::string> out;
  out.reserve(keys.size());
  for (size_t index : JavaHashMapIterationOrder(
           keys, initial ? JavaHashMapSizedCapacity(*initial) : kDefaultCapacity)) {
    out.push_back(std::move(keys[index]));
  }
  return out;
}

size_t JavaCopyCapacity(size_t entries) {
  return static_cast<size_t>(static_cast<float>(entries) / kLoadFactor + 1.0f);
}

size_t JavaHashSetCopyCapacity(size_t entries) {
  return std::max(static_cast<size_t>(static_cast<float>(entries) / kLoadFactor) + 1,
                  kDefaultCapacity);
}

size_t JavaHashMapCopyCapacity(size_t entries) {
  // HashMap(Map m) sizes its table for m (JavaCopyCapacity); an empty m leaves the default.
  return entries == 0 ? kDefaultCapacity : TableSizeFor(JavaCopyCapacity(entries));
}

std::vector<size_t> JavaHashMapIterationOrder(const std::vector<int32_t>& hash_codes,
                                              size_t initial_capacity) {
  // java.util.HashMap constants: TREEIFY_THRESHOLD, MIN_TREEIFY_CAPACITY; the load factor 0.75.
  constexpr size_t kTreeifyThreshold = 8;
  constexpr size_t kMinTreeifyCapacity = 64;
  const size_t n = hash_codes.size();
  std::vector<uint32_t> hashes(n);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t h = static_cast<uint32_t>(hash_codes[i]);
    hashes[i] = h ^ (h >> 16);
  }

  // Only the final capacity matters: a bucket keeps insertion order through every doubling
  // (Java splits it into lo/hi lists in order) and new entries go to its tail. The capacity
  // grows at 3/4 full, and when a bucket already holding 8 gets another while the table is
  // smaller than 64 (treeifyBin resizes instead); the bucket sizes tell when.
  size_t capacity = std::max<size_t>(initial_capacity, 1);
  size_t threshold = capacity * 3 / 4;
  std::vector<uint32_t> bucket_size(capacity);
  const auto grow = [&](size_t inserted) {
    capacity *= 2;
    threshold = capacity * 3 / 4;  // (int) (newCap * 0.75f) below 16, doubled above: equal
    bucket_size.assign(capacity, 0);
    for (size_t i = 0; i < inserted; ++i) ++bucket_size[hashes[i] & (capacity - 1)];
  };
  for (size_t index = 0; index < n; ++index) {
    const size_t before = bucket_size[hashes[index] & (capacity - 1)]++;
    if (before >= kTreeifyThreshold && capacity < kMinTreeifyCapacity) grow(index + 1);
    if (index + 1 > threshold) grow(index + 1);
  }

  // Buckets in index order, each in insertion order: a counting sort by final bucket.
  std::vector<size_t> start(capacity + 1, 0);
  for (size_t i = 0; i < n; ++i) ++start[(hashes[i] & (capacity - 1)) + 1];
  for (size_t b = 0; b < capacity; ++b) start[b + 1] += start[b];
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i) order[start[hashes[i] & (capacity - 1)]++] = i;
  return order;
}

std::vector<size_t> JavaHashMapIterationOrder(const std::vector<std::string>& keys,
                                              size_t initial_capacity) {
  std::vector<int32_t> hash_codes;
  hash_codes.reserve(keys.size());
  for (const std::string& key : keys) hash_codes.push_back(JavaStringHashCode(key));
  return JavaHashMapIterationOrder(hash_codes, initial_capacity);
}

size_t JavaHashMapSizedCapacity(size_t initial) { return TableSizeFor(initial); }

}  // namespace connectd::jvm
