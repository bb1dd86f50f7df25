// File: utf8.h
//
// UTF-8 hygiene for text that reaches JSON output from outside: the REST API's percent-decoded
// path segments and query parameters, and every string the JSON writers emit (connector names,
// error messages, plugin traces, the flow-health reports). JSON must be UTF-8 (RFC 8259), and Java
// decodes request URIs with `Charset.decode`, which replaces each malformed sequence with U+FFFD;
// ToValidUtf8 does the same, so a name like `%FF` becomes "\uFFFD" here as it does in a Java
// worker.
//
// Threads: pure functions, any thread.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace connectd {

namespace utf8_internal {

// The length of the well-formed UTF-8 sequence at s[i] (Unicode Table 3-7), or 0 when it is
// malformed; `maximal_subpart` then receives the length of the longest prefix of a well-formed
// sequence (at least 1), which is what one U+FFFD replaces.
inline std::size_t SequenceLength(std::string_view s, std::size_t i, std::size_t& maximal_subpart) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char b0 = byte(i);
  maximal_subpart = 1;
  if (b0 < 0x80) return 1;
  std::size_t length = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    length = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    length = 3;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    length = 4;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  for (std::size_t k = 1; k < length; ++k) {
    if (i + k >= s.size()) return 0;
    unsigned char b = byte(i + k);
    unsigned char min = k == 1 ? lo : 0x80;
    unsigned char max = k == 1 ? hi : 0xBF;
    if (b < min || b > max) return 0;
    maximal_subpart = k + 1;
  }
  return length;
}

}  // namespace utf8_internal

// True if `s` is well-formed UTF-8 (no overlongs, surrogates or code points above U+10FFFF).
inline bool IsValidUtf8(std::string_view s) {
  std::size_t subpart = 0;
  for (std::size_t i = 0; i < s.size();) {
    std::size_t n = utf8_internal::SequenceLength(s, i, subpart);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

// `s` with every maximal malformed subpart replaced by U+FFFD (as Java's UTF-8 decoder does);
// `s` unchanged when it is already well-formed.
inline std::string ToValidUtf8(std::string_view s) {
  if (IsValidUtf8(s)) return std::string(s);
  std::string out;
  out.reserve(s.size() + 8);
  std::size_t subpart = 0;
  for (std::size_t i = 0; i < s.size();) {
    std::size_t n = utf8_internal::SequenceLength(s, i, subpart);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      i += subpart;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

}  // namespace connectd
