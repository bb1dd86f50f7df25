#include "connectors/mirror_client/java_hash_order.h"

#include <algorithm>
#include <utility>

#include "connectors/mirror_client/utf8.h"

namespace connectd::mirror {
namespace {

constexpr size_t kDefaultCapacity = 16;  // HashMap.DEFAULT_INITIAL_CAPACITY
constexpr float kLoadFactor = 0.75f;     // HashMap.DEFAULT_LOAD_FACTOR

// HashMap.tableSizeFor: the smallest power of two >= n (1 for 0).
size_t TableSizeFor(size_t n) {
  size_t size = 1;
  while (size < n) size <<= 1;
  return size;
}

// HashMap.hash: the bucket of `key` is this value's low bits.
uint32_t Spread(const std::string& key) {
  const uint32_t h = static_cast<uint32_t>(JavaStringHashCode(key));
  return h ^ (h >> 16);
}

}  // namespace

int32_t JavaStringHashCode(std::string_view utf8) {
  uint32_t h = 0;  // Java's int arithmetic wraps; unsigned does the same without UB
  for (char32_t c : internal::DecodeUtf8(utf8)) {
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
  const size_t capacity = JavaHashMapCapacity(initial, keys.size());
  if (capacity == 0) return keys;
  std::vector<std::pair<uint32_t, std::string>> buckets;
  buckets.reserve(keys.size());
  for (std::string& key : keys) {
    const uint32_t bucket = Spread(key) & static_cast<uint32_t>(capacity - 1);
    buckets.emplace_back(bucket, std::move(key));
  }
  std::stable_sort(buckets.begin(), buckets.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  out.reserve(buckets.size());
  for (auto& entry : buckets) out.push_back(std::move(entry.second));
  return out;
}

size_t JavaCopyCapacity(size_t entries) {
  return static_cast<size_t>(static_cast<float>(entries) / kLoadFactor + 1.0f);
}

size_t JavaHashSetCopyCapacity(size_t entries) {
  return std::max(static_cast<size_t>(static_cast<float>(entries) / kLoadFactor) + 1,
                  kDefaultCapacity);
}

}  // namespace connectd::mirror
