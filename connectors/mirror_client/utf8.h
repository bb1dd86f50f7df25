// File: utf8.h
//
// Internal to connectd_mirror_client: UTF-8 <-> code points the way Java sees text. Bytes that
// come from other clusters are not always valid UTF-8; Java decodes them into a String with
// U+FFFD for each malformed sequence, so everything here that must agree with Java (JSON escaping,
// regex matching) decodes the same way.
//
// Thread safety: all functions are pure.
#pragma once

#include <string>
#include <string_view>

namespace connectd::mirror::internal {

// DecodeUtf8 returns the code points of `utf8`. Each maximal ill-formed subsequence (Unicode's
// "substitution of maximal subparts", which Java's UTF-8 decoder follows for all but encoded
// surrogates) becomes one U+FFFD. Never returns a surrogate code point.
std::u32string DecodeUtf8(std::string_view utf8);

// AppendUtf8 appends the UTF-8 encoding of `code_point` (REQUIRES: <= 0x10FFFF).
void AppendUtf8(char32_t code_point, std::string& out);

// ToJavaString returns `utf8` as Java would re-encode it after decoding: valid UTF-8 unchanged,
// malformed sequences replaced by U+FFFD (EF BF BD).
std::string ToJavaString(std::string_view utf8);

}  // namespace connectd::mirror::internal
