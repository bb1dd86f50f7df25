// File: java_hash_order.h
//
// The order in which Java iterates a java.util.HashMap or HashSet of Strings. MirrorMaker 2's
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

namespace connectd::mirror {

// JavaStringHashCode is String.hashCode() of the Java string that `utf8` decodes to (UTF-16
// units; malformed UTF-8 reads as U+FFFD, as Java decodes it).
int32_t JavaStringHashCode(std::string_view utf8);

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

}  // namespace connectd::mirror
