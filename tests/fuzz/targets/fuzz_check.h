// File: fuzz_check.h
//
// What the libFuzzer targets share: FUZZ_CHECK, a property check that aborts (a crash libFuzzer
// and the corpus replay both report) with the failed condition, and FuzzInput, which splits one
// fuzzer input into the several byte strings a codec takes (a key and a value, a frame and its
// API, ...).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string_view>

// FUZZ_CHECK(cond): a property of the code under test; a failure is a bug, reported as a crash.
#define FUZZ_CHECK(cond)                                                                 \
  do {                                                                                   \
    if (!(cond)) {                                                                       \
      std::fprintf(stderr, "%s:%d: FUZZ_CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                                      \
    }                                                                                    \
  } while (0)

namespace connectd::fuzz {

// FuzzInput reads one input front to back: single bytes for choices, then pieces separated by
// kSeparator (so a seed file is readable: "key\x00value") or length-prefixed, the last piece
// running to the end.
class FuzzInput {
 public:
  static constexpr char kSeparator = '\0';

  FuzzInput(const uint8_t* data, size_t size) : rest_(reinterpret_cast<const char*>(data), size) {}

  // The next byte, 0 once the input is exhausted.
  uint8_t Byte() {
    if (rest_.empty()) return 0;
    auto b = static_cast<uint8_t>(rest_.front());
    rest_.remove_prefix(1);
    return b;
  }

  // The bytes up to the next separator (consumed), or all that is left.
  std::string_view Piece() {
    size_t end = rest_.find(kSeparator);
    std::string_view piece = rest_.substr(0, end);
    rest_ = end == std::string_view::npos ? std::string_view() : rest_.substr(end + 1);
    return piece;
  }

  // A length-prefixed piece for binary data that may hold NULs: a big-endian 16-bit length,
  // then that many bytes (fewer if the input ends first).
  std::string_view Sized() {
    size_t n = static_cast<size_t>(Byte()) << 8;
    n |= Byte();
    std::string_view piece = rest_.substr(0, n);
    rest_.remove_prefix(piece.size());
    return piece;
  }

  std::string_view Rest() {
    std::string_view rest = rest_;
    rest_ = {};
    return rest;
  }

 private:
  std::string_view rest_;
};

}  // namespace connectd::fuzz
