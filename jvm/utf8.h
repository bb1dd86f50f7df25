// File: utf8.h
//
// UTF-8 <-> code points the way Java sees text. Bytes that come from other clusters or from
// REST requests are not always valid UTF-8; Java decodes them into a String with U+FFFD for each
// malformed sequence, so everything here that must agree with Java (JSON escaping, regex
// matching, hash codes, REST paths and JSON output, which RFC 8259 wants in UTF-8) decodes the
// same way.
//
// Thread safety: all functions are pure.
#pragma once

#include <string>
#include <string_view>

namespace connectd::jvm {

// DecodeUtf8 returns the code points of `utf8`. Each maximal ill-formed subsequence (Unicode's
// "substitution of maximal subparts", which Java's UTF-8 decoder follows for all but encoded
// surrogates) becomes one U+FFFD. Never returns a surrogate code point.
std::u32string DecodeUtf8(std::string_view utf8);

// DecodeOneUtf8 decodes the code point at `*i` and advances `*i` past it, as DecodeUtf8 does.
// With `surrogates`, a surrogate code point encoded on its own (ED A0..BF 80..BF, as RapidJSON
// decodes a lone "\uDC00") decodes to itself: such text stands for a Java string holding that
// char. REQUIRES: *i < utf8.size().
char32_t DecodeOneUtf8(std::string_view utf8, size_t* i, bool surrogates = false);

// True if `utf8` is well-formed UTF-8 (no overlongs, surrogates or code points above U+10FFFF).
bool IsValidUtf8(std::string_view utf8);

// AppendUtf8 appends the UTF-8 encoding of `code_point` (REQUIRES: <= 0x10FFFF).
void AppendUtf8(char32_t code_point, std::string& out);

// ToJavaString returns `utf8` as Java would re-encode it after decoding: valid UTF-8 unchanged,
// each maximal malformed subpart replaced by U+FFFD (EF BF BD), as Charset.decode does.
std::string ToJavaString(std::string_view utf8);

}  // namespace connectd::jvm
