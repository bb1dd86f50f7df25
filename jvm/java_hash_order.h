// File: java_hash_order.h
//
// The order in which Java iterates a java.util.HashMap or HashSet of Strings (JavaHashMapOrder),
// or of any keys given their hashCode() (JavaHashMapIterationOrder: Connect's Map values, whose
// JSON is written in that order). MirrorMaker 2's
// connectors hand their tasks lists in that order: MirrorSourceConnector's
// `task.assigned.partitions` follows the HashMaps its Admin client builds around DescribeTopics,
// MirrorCheckpointConnector's `task.assigned.groups` the HashSet of groups it found. Connect
// workers compare task configs as strings, so a connectd worker that listed the same topics or
// groups in another order would rewrite the task configs a Java worker wrote (and the other way
// round) although nothing changed.
//
// A HashMap iterates its table bucket by bucket, and each bucket in insertion order (a resize
// splits a bucket keeping that order), where a String's bucket is the low bits of
// `h ^ (h >>> 16)`, h = String.hashCode(). So the iteration order follows from the keys, their
// insertion order and the table's capacity, which depends on how the map was created and how
// many keys were put, per JDK 17's HashMap (the JDK the reference runs; JDK 19+ sizes a copied
// map slightly differently, which changes the order of some keys that share a bucket).
// Not modelled: tree bins (8 or more keys in one bucket of a table of at least 64).
//
// Example, Collectors.toSet() over `listed`:
//   std::vector<std::string> order = JavaHashMapOrder(listed, std::nullopt);
//
// Thread safety: all functions are pure.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace connectd::jvm {

// JavaStringHashCode is String.hashCode() of the Java string that `utf8` decodes to (UTF-16
// units; malformed UTF-8 reads as U+FFFD, as Java decodes it; a surrogate encoded on its own as
// that char, see DecodeOneUtf8).
int32_t JavaStringHashCode(std::string_view utf8);

// JavaHashMapIterationOrder returns the permutation of keys, given by their hashCode() values in
// insertion order (distinct keys), in which a java.util.HashMap created with a table of
// `initial_capacity` (a power of two; 16 for `new HashMap<>()`) iterates them: bucket by bucket
// (bucket = low bits of h ^ (h >>> 16)), insertion order within a bucket, the table doubling at 3/4
// full and when a bucket already holding 8 gets another while the table is smaller than 64
// (treeifyBin resizes instead). Tree bins (a 9th key in one bucket of a table of 64 or more) are
// not modelled and keep insertion order.
std::vector<size_t> JavaHashMapIterationOrder(const std::vector<int32_t>& hash_codes,
                                              size_t initial_capacity = 16);

// The same for distinct String keys (UTF-8) in insertion order, from their hashCode().
std::vector<size_t> JavaHashMapIterationOrder(const std::vector<std::string>& keys,
                                              size_t initial_capacity = 16);

// JavaHashMapCopyCapacity is the table capacity of `new HashMap<>(m)` for a map of `entries`
// (JDK 17); its first put of m's entries uses it.
size_t JavaHashMapCopyCapacity(size_t entries);

// JavaHashMapSizedCapacity is the table capacity of `new HashMap<>(initial)` (tableSizeFor,
// at least 1).
size_t JavaHashMapSizedCapacity(size_t initial);

// JavaHashMapCapacity is the table capacity of a HashMap created as `new HashMap<>(initial)`
// (`new HashMap<>()`, `new HashSet<>()` or Collectors.toSet() when `initial` is nullopt) after
// `size` distinct keys were put (0 before the first put).
size_t JavaHashMapCapacity(std::optional<size_t> initial, size_t size);

// JavaHashMapOrder returns `keys` (distinct) in the order Java iterates such a map after
// putting them in the order given. The JDK's copy constructors are HashMaps with an initial
// capacity: `new HashMap<>(map)` of n entries is `new HashMap<>((int) (n / 0.75f + 1.0f))`
// and `new HashSet<>(collection)` of n is `new HashMap<>(max((int) (n / .75f) + 1, 16))`
// (JavaCopyCapacity, JavaHashSetCopyCapacity).
std::vector<std::string> JavaHashMapOrder(std::vector<std::string> keys,
                                          std::optional<size_t> initial);
size_t JavaCopyCapacity(size_t entries);
size_t JavaHashSetCopyCapacity(size_t entries);

}  // namespace connectd::jvm
