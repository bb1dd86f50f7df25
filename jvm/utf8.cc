#include "jvm/utf8.h"

#include <cstdint>

namespace connectd::jvm {
namespace {

constexpr char32_t kReplacement = 0xFFFD;

bool InRange(uint8_t b, uint8_t lo, uint8_t hi) { return b >= lo && b <= hi; }

// The length of the well-formed sequence at utf8[i] (Unicode Table 3-7; with `surrogates`, ED
// A0..BF counts too), or 0 when it is malformed; `*subpart` then gets the length of its maximal
// subpart (at least 1), which one U+FFFD replaces.
size_t SequenceLength(std::string_view utf8, size_t i, bool surrogates, size_t* subpart) {
  const uint8_t b0 = static_cast<uint8_t>(utf8[i]);
  *subpart = 1;
  if (b0 < 0x80) return 1;
  size_t length = 0;
  uint8_t lo = 0x80;  // the allowed range of the second byte
  uint8_t hi = 0xBF;
  if (InRange(b0, 0xC2, 0xDF)) {
    length = 2;
  } else if (InRange(b0, 0xE0, 0xEF)) {
    length = 3;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED && !surrogates) hi = 0x9F;
  } else if (InRange(b0, 0xF0, 0xF4)) {
    length = 4;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;
  } else {
    return 0;  // 0x80..0xC1, 0xF5..0xFF never start a sequence
  }
  for (size_t k = 1; k < length; ++k) {
    if (i + k >= utf8.size()) return 0;
    const uint8_t b = static_cast<uint8_t>(utf8[i + k]);
    if (!(k == 1 ? InRange(b, lo, hi) : InRange(b, 0x80, 0xBF))) return 0;
    *subpart = k + 1;
  }
  return length;
}

}  // namespace

char32_t DecodeOneUtf8(std::string_view utf8, size_t* i, bool surrogates) {
  size_t subpart = 0;
  const size_t length = SequenceLength(utf8, *i, surrogates, &subpart);
  if (length == 0) {
    *i += subpart;
    return kReplacement;
  }
  const uint8_t b0 = static_cast<uint8_t>(utf8[*i]);
  char32_t cp = length == 1 ? b0 : b0 & (0x7F >> length);
  for (size_t k = 1; k < length; ++k) cp = (cp << 6) | (static_cast<uint8_t>(utf8[*i + k]) & 0x3F);
  *i += length;
  return cp;
}

bool IsValidUtf8(std::string_view utf8) {
  size_t subpart = 0;
  for (size_t i = 0; i < utf8.size();) {
    if (static_cast<uint8_t>(utf8[i]) < 0x80) {
      ++i;
      continue;
    }
    const size_t length = SequenceLength(utf8, i, /*surrogates=*/false, &subpart);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

std::u32string DecodeUtf8(std::string_view utf8) {
  std::u32string out;
  out.reserve(utf8.size());
  size_t i = 0;
  while (i < utf8.size()) out.push_back(DecodeOneUtf8(utf8, &i));
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
  if (IsValidUtf8(utf8)) return std::string(utf8);
  std::string out;
  out.reserve(utf8.size() + 8);
  size_t subpart = 0;
  for (size_t i = 0; i < utf8.size();) {
    const size_t length = SequenceLength(utf8, i, /*surrogates=*/false, &subpart);
    if (length == 0) {
      out.append("\xEF\xBF\xBD");
      i += subpart;
    } else {
      out.append(utf8.substr(i, length));
      i += length;
    }
  }
  return out;
}

}  // namespace connectd::jvm
