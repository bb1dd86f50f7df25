#include "connectors/mirror_client/utf8.h"

#include <cstdint>

namespace connectd::mirror::internal {
namespace {

constexpr char32_t kReplacement = 0xFFFD;

bool InRange(uint8_t b, uint8_t lo, uint8_t hi) { return b >= lo && b <= hi; }

}  // namespace

std::u32string DecodeUtf8(std::string_view utf8) {
  std::u32string out;
  out.reserve(utf8.size());
  size_t i = 0;
  const size_t n = utf8.size();
  while (i < n) {
    const uint8_t b0 = static_cast<uint8_t>(utf8[i]);
    if (b0 < 0x80) {
      out.push_back(b0);
      ++i;
      continue;
    }
    // Length and the allowed range of the second byte (Unicode Table 3-7).
    size_t length = 0;
    uint8_t lo = 0x80;
    uint8_t hi = 0xBF;
    if (InRange(b0, 0xC2, 0xDF)) {
      length = 2;
    } else if (b0 == 0xE0) {
      length = 3;
      lo = 0xA0;
    } else if (InRange(b0, 0xE1, 0xEC) || InRange(b0, 0xEE, 0xEF)) {
      length = 3;
    } else if (b0 == 0xED) {
      length = 3;
      hi = 0x9F;
    } else if (b0 == 0xF0) {
      length = 4;
      lo = 0x90;
    } else if (InRange(b0, 0xF1, 0xF3)) {
      length = 4;
    } else if (b0 == 0xF4) {
      length = 4;
      hi = 0x8F;
    } else {
      out.push_back(kReplacement);  // 0x80..0xC1, 0xF5..0xFF never start a sequence
      ++i;
      continue;
    }
    char32_t cp = b0 & (0x7F >> length);
    size_t k = 1;
    for (; k < length; ++k) {
      if (i + k >= n) break;
      const uint8_t b = static_cast<uint8_t>(utf8[i + k]);
      if (!(k == 1 ? InRange(b, lo, hi) : InRange(b, 0x80, 0xBF))) break;
      cp = (cp << 6) | (b & 0x3F);
    }
    if (k == length) {
      out.push_back(cp);
      i += length;
    } else {
      out.push_back(kReplacement);  // the maximal subpart: the lead plus its valid continuations
      i += k;
    }
  }
  return out;
}

void AppendUtf8(char32_t cp, std::string& out) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

std::string ToJavaString(std::string_view utf8) {
  std::string out;
  out.reserve(utf8.size());
  for (char32_t cp : DecodeUtf8(utf8)) AppendUtf8(cp, out);
  return out;
}

}  // namespace connectd::mirror::internal
