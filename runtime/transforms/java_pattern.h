// File: java_pattern.h
//
// java.util.regex.Pattern as RegexRouter and TopicNameMatches use it: Matches (Matcher.matches)
// and ReplaceFirst (Matcher.replaceFirst with Java's replacement syntax: $n and ${name} group
// references, backslash escapes). Patterns go through MirrorMaker's Java-to-ECMAScript
// translation (jvm/java_regex.h), which rejects the few Java constructs it
// cannot reproduce rather than matching differently.
//
// Thread safety: immutable after Compile; Matches/ReplaceFirst are const.
#pragma once

#include <memory>
#include <regex>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace connectd::transforms {

class JavaPattern {
 public:
  // kInvalidArgument "Invalid regex: <reason>" when Java would reject the pattern or connectd
  // does not support it.
  static absl::StatusOr<JavaPattern> Compile(std::string_view pattern);

  bool Matches(std::string_view text) const;
  // The first match in `text` replaced by `replacement`; `text` unchanged without a match.
  // kInvalidArgument as Java's IllegalArgumentException / IndexOutOfBoundsException for a bad
  // replacement ("No group 3", "Illegal group reference").
  absl::StatusOr<std::string> ReplaceFirst(std::string_view text,
                                           std::string_view replacement) const;

 private:
  std::shared_ptr<const std::wregex> regex_;
};

}  // namespace connectd::transforms
