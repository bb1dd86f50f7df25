// File: java_regex.h
//
// Internal to connectd_mirror_client (and the runtime's regex transforms, java_pattern.h):
// translates a java.util.regex pattern (as
// Pattern.compile(p) with no flags sees it) into an ECMAScript pattern for std::wregex over
// UTF-32 code points, such that std::regex_match(translated) accepts exactly the strings Java's
// Matcher.matches() accepts. filters.h documents what is supported; anything else is rejected
// with a message rather than silently matched differently.
//
// The translation only emits constructs that libstdc++'s polynomial (Thompson NFA) matcher
// handles: literal code points, bracket classes listing explicit code point ranges, (?:...),
// (?=...), (?!...), alternation, greedy and lazy quantifiers, ^, $, \b and \B. So matching never
// backtracks exponentially and never recurses per input character.
//
// Thread safety: pure function.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace connectd::jvm {

// TranslateJavaRegex returns the ECMAScript translation of `java_pattern` (code points), or
// nullopt with *error set (a one-line reason) if Java would reject the pattern or connectd does
// not support a construct it uses. Capturing groups become non-capturing unless
// `keep_captures`, which keeps Java's group numbering (for replacements that use $n).
std::optional<std::wstring> TranslateJavaRegex(std::u32string_view java_pattern, std::string* error,
                                               bool keep_captures = false);

}  // namespace connectd::jvm
