#include "runtime/kafka/protocol/crc32c.h"

#include <array>
#include <cstring>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace connectd::kafka::protocol {
namespace {

constexpr uint32_t kPolynomial = 0x82F63B78;  // Castagnoli, reflected

constexpr std::array<uint32_t, 256> MakeTable() {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t crc = i;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ ((crc & 1) ? kPolynomial : 0);
    table[i] = crc;
  }
  return table;
}
constexpr std::array<uint32_t, 256> kTable = MakeTable();

uint32_t Software(uint32_t crc, const unsigned char* p, size_t size) {
  for (size_t i = 0; i < size; ++i) crc = kTable[(crc ^ p[i]) & 0xFF] ^ (crc >> 8);
  return crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) uint32_t Hardware(uint32_t crc, const unsigned char* p,
                                                    size_t size) {
  uint64_t crc64 = crc;
  for (; size >= 8; size -= 8, p += 8) {
    uint64_t word;
    std::memcpy(&word, p, sizeof(word));
    crc64 = _mm_crc32_u64(crc64, word);
  }
  crc = static_cast<uint32_t>(crc64);
  for (; size > 0; --size, ++p) crc = _mm_crc32_u8(crc, *p);
  return crc;
}

bool HasSse42() {
  static const bool has = __builtin_cpu_supports("sse4.2");
  return has;
}
#endif

// Polynomials modulo the CRC's, in the reflected bit order of the register (bit 31 is x^0).
uint32_t MultiplyModP(uint32_t a, uint32_t b) {
  uint32_t product = 0;
  for (uint32_t bit = 1u << 31; bit != 0; bit >>= 1) {
    if (a & bit) product ^= b;
    b = (b & 1) ? (b >> 1) ^ kPolynomial : b >> 1;  // b * x
  }
  return product;
}

// x^(2^i) mod P for i < 64: a shift by n bits is the product of those of n's set bits.
constexpr int kPowers = 64;
const std::array<uint32_t, kPowers>& PowersOfX() {
  static const std::array<uint32_t, kPowers> powers = [] {
    std::array<uint32_t, kPowers> p{};
    p[0] = 1u << 30;  // x^1
    for (int i = 1; i < kPowers; ++i) p[i] = MultiplyModP(p[i - 1], p[i - 1]);
    return p;
  }();
  return powers;
}

// x^(8 * bytes) mod P: what a register is multiplied by when `bytes` zero bytes pass through.
uint32_t ZeroBytesOperator(uint64_t bytes) {
  const auto& powers = PowersOfX();
  uint32_t op = 1u << 31;  // x^0
  for (int i = 3; bytes != 0 && i < kPowers; ++i, bytes >>= 1) {
    if (bytes & 1) op = MultiplyModP(powers[i], op);
  }
  return op;
}

uint32_t RawUpdate(uint32_t crc, const unsigned char* p, size_t size) {
#if defined(__x86_64__)
  if (HasSse42()) return Hardware(crc, p, size);
#endif
  return Software(crc, p, size);
}

}  // namespace

uint32_t Crc32cAfterChange(uint32_t crc, size_t size, size_t at, std::string_view xor_bytes) {
  // crc(M) = ~raw(~0, M) and raw is affine in M, so crc(M ^ D) = crc(M) ^ raw(0, D); D is zero
  // outside the change, and zeros before it leave a zero register as it is.
  const uint32_t change =
      RawUpdate(0, reinterpret_cast<const unsigned char*>(xor_bytes.data()), xor_bytes.size());
  return crc ^ MultiplyModP(ZeroBytesOperator(size - at - xor_bytes.size()), change);
}

namespace internal {
uint32_t Crc32cPortable(const void* data, size_t size) {
  return ~Software(~0u, static_cast<const unsigned char*>(data), size);
}
}  // namespace internal

uint32_t Crc32c(const void* data, size_t size) {
  const auto* p = static_cast<const unsigned char*>(data);
#if defined(__x86_64__)
  if (HasSse42()) return ~Hardware(~0u, p, size);
#endif
  return ~Software(~0u, p, size);
}

}  // namespace connectd::kafka::protocol
