// File: java_pattern.h
//
// java.util.regex.Pattern as RegexRouter and TopicNameMatches use it, with the runtime's
// absl::Status errors over jvm::JavaRegex (PCRE2 with Java's syntax and match limits).
//
// Thread safety: immutable after Compile; Matches/ReplaceFirst are const.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "jvm/java_regex.h"

namespace connectd::transforms {

class JavaPattern {
 public:
  // kInvalidArgument "Invalid regex: <reason>" when Java would reject the pattern or connectd
  // does not support it.
  static absl::StatusOr<JavaPattern> Compile(std::string_view pattern);

  // Matcher.matches(); kResourceExhausted when the pattern exceeded its match limit on `text`.
  absl::StatusOr<bool> Matches(std::string_view text) const;
  // The first match in `text` replaced by `replacement`; `text` unchanged without a match.
  // kInvalidArgument as Java's IllegalArgumentException / IndexOutOfBoundsException for a bad
  // replacement ("No group 3", "Illegal group reference"), or the match limit exceeded.
  absl::StatusOr<std::string> ReplaceFirst(std::string_view text,
                                           std::string_view replacement) const;

 private:
  explicit JavaPattern(jvm::JavaRegex regex) : regex_(std::move(regex)) {}
  jvm::JavaRegex regex_;
};

}  // namespace connectd::transforms
