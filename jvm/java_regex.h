// File: java_regex.h
//
// JavaRegex: java.util.regex.Pattern, compiled with no flags, as MirrorMaker's topic and group
// filters, RegexRouter and TopicNameMatches use it: Matcher.matches() and
// Matcher.replaceFirst(). Matching runs on PCRE2, which speaks nearly all of Java's syntax; a
// thin translation first turns the Java pattern into a PCRE2 pattern that means the same:
//   - character classes become explicit code point ranges, so Java's ASCII-only \d \w \s
//     \p{Alpha}..., its class unions ([a[b]]) and intersections ([a-z&&[^c]]), negation of the
//     whole class and ASCII-only (?i) folding are Java's, not PCRE2's;
//   - '.', '$' and '\Z' use Java's line terminators (\n \r \u0085 \u2028 \u2029, "\r\n");
//   - a back reference to a group the pattern never defines never matches (Java compiles it);
//     under (?i) it compares caselessly.
// Refused, with "(valid in Java, not supported by connectd)": the inline flags d m u x U,
// Unicode properties other than the POSIX classes (\p{L}, \p{IsAlphabetic}...), \R \X \N{..}
// \b{g}, counted repetition above 65535 (PCRE2's limit) and lookbehind whose length PCRE2 10.42
// cannot bound (Java 17 accepts (?<=a+)). Known differences: a back reference under (?i) also
// folds non-ASCII letters (Java without UNICODE_CASE folds ASCII only); \b and \B use ASCII
// word characters, as Java 19+ does (Java 17 uses Unicode letters and digits).
//
// A hostile pattern cannot stall a thread: each match stops after kMatchLimit backtracking steps
// or kHeapLimitKiB of backtracking memory and reports kLimitExceeded.
//
// Thread safety: immutable after Compile; copies share the compiled pattern; every method is
// const and may run on any thread at once.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace connectd::jvm {

class JavaRegex {
 public:
  static constexpr uint32_t kMatchLimit = 1'000'000;  // PCRE2 match limit per match
  static constexpr uint32_t kHeapLimitKiB = 64 * 1024;

  // Pattern.compile(pattern) (UTF-8). nullopt with *error set to a one-line reason when Java
  // would reject the pattern or connectd does not support a construct it uses.
  static std::optional<JavaRegex> Compile(std::string_view pattern, std::string* error);

  enum class Result { kMatch, kNoMatch, kLimitExceeded };

  // Matcher.matches(): the whole of `text` (UTF-8; malformed bytes read as U+FFFD, as Java's
  // decoder reads them).
  Result Matches(std::string_view text) const;

  // Matcher.replaceFirst(replacement): the first match in `text` replaced, with Java's
  // replacement syntax ($n, ${name}, backslash escapes); `text` unchanged without a match.
  // nullopt with *error set as Java's exception message ("No group 2", "Illegal group
  // reference", "No group with name {x}") or when the match limit was exceeded.
  std::optional<std::string> ReplaceFirst(std::string_view text, std::string_view replacement,
                                          std::string* error) const;

  // The number of capturing groups (Matcher.groupCount()).
  int group_count() const;

  struct Compiled;  // the PCRE2 code (kept out of this header)

 private:
  explicit JavaRegex(std::shared_ptr<const Compiled> compiled) : compiled_(std::move(compiled)) {}
  std::shared_ptr<const Compiled> compiled_;
};

// The PCRE2 pattern JavaRegex compiles for `java_pattern` (code points), or nullopt with *error
// set; exposed for tests.
std::optional<std::string> TranslateJavaRegex(std::u32string_view java_pattern, std::string* error);

}  // namespace connectd::jvm
