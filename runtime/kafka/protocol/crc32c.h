// File: crc32c.h
//
// CRC-32C (Castagnoli), the checksum of Kafka's v2 record batches (Java's Crc32C): the SSE4.2
// instruction where the CPU has it (checked once), a table otherwise. No library on Debian 12
// offers it (Abseil gained absl::crc32c after the 20220623 release Debian ships; librdkafka's is
// internal).
//
// Thread-safety: pure; any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace connectd::kafka::protocol {

// The CRC-32C of `size` bytes at `data` (initial value ~0, final complement, as Java's
// Crc32C.compute). Crc32c("123456789") == 0xE3069283.
uint32_t Crc32c(const void* data, size_t size);
inline uint32_t Crc32c(std::string_view bytes) { return Crc32c(bytes.data(), bytes.size()); }

// The CRC-32C of `size` bytes whose CRC-32C was `crc`, after the bytes at [at, at + xor.size())
// were XORed with `xor` — without reading the bytes: CRC is linear, so the change's own CRC,
// carried through the zero bytes after it, is XORed into the old one (O(xor.size() + log size)
// instead of O(size)). A `crc` that did not match the old bytes does not match the new ones.
// REQUIRES: at + xor.size() <= size.
uint32_t Crc32cAfterChange(uint32_t crc, size_t size, size_t at, std::string_view xor_bytes);

namespace internal {
// The table implementation, whatever the CPU (tests compare it with Crc32c).
uint32_t Crc32cPortable(const void* data, size_t size);
}  // namespace internal

}  // namespace connectd::kafka::protocol
