// File: java_serialization.h
//
// The Java object-serialization stream (java.io.ObjectOutputStream, protocol version 2) of one
// java.util.HashMap<byte[],byte[]>: the format of Kafka Connect's standalone offset file
// (FileOffsetBackingStore, `offset.storage.file.filename`).
//
// The stream Java writes, and SerializeJavaByteArrayHashMap reproduces byte for byte:
//
//   AC ED 00 05                      STREAM_MAGIC, STREAM_VERSION
//   73 72 "java.util.HashMap"        TC_OBJECT, TC_CLASSDESC, class name (u2 length + bytes)
//      05 07 DA C1 C3 16 60 D1       serialVersionUID 362498820763181265
//      03 00 02                      SC_SERIALIZABLE|SC_WRITE_METHOD, 2 fields
//      46 "loadFactor" 49 "threshold"  float and int fields, sorted by name
//      78 70                         TC_ENDBLOCKDATA (no class annotation), TC_NULL (no super)
//   3F 40 00 00  <threshold:int>     loadFactor 0.75f, threshold
//   77 08 <capacity:int> <size:int>  writeObject's custom data (TC_BLOCKDATA, 8 bytes)
//   then per entry key and value:    TC_NULL, or TC_ARRAY with the "[B" class descriptor
//      75 72 "[B" AC F3 17 F8 06 08 54 E0 02 00 00 78 70 <length:int> <bytes>  (first array)
//      75 71 00 7E 00 02 <length:int> <bytes>          (later arrays: TC_REFERENCE to it)
//   78                               TC_ENDBLOCKDATA
//
// Handles are numbered from 0x7E0000 in stream order (the HashMap class descriptor is 0, the map
// 1, the "[B" descriptor 2, then each array). Capacity and threshold are what a HashMap filled by
// put() from the default capacity holds (16/12 doubling; an empty map writes threshold 0).
//
// The parser accepts any stream Java produces for such a map (any capacity, repeated descriptors
// or arrays as back-references, null keys/values, block data split in segments) and rejects
// everything else with kDataLoss and the offset of the problem. The input is untrusted: every
// length is bounds-checked and nothing is allocated from a length before the bytes are there.
//
// Thread safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"

namespace connectd::storage {

// One entry of a HashMap<byte[],byte[]>; nullopt is a Java null.
using JavaByteArrayMapEntry = std::pair<std::optional<std::string>, std::optional<std::string>>;

// SerializeJavaByteArrayHashMap returns the serialization stream of a java.util.HashMap
// <byte[],byte[]> holding `entries` (keys distinct), which Java iterates in the given order.
std::string SerializeJavaByteArrayHashMap(const std::vector<JavaByteArrayMapEntry>& entries);

// ParseJavaByteArrayHashMap decodes such a stream into its entries in stream order.
absl::StatusOr<std::vector<JavaByteArrayMapEntry>> ParseJavaByteArrayHashMap(
    std::string_view stream);

}  // namespace connectd::storage
