#include "runtime/transforms/java_pattern.h"

#include "absl/strings/str_cat.h"

namespace connectd::transforms {

absl::StatusOr<JavaPattern> JavaPattern::Compile(std::string_view pattern) {
  std::string reason;
  std::optional<jvm::JavaRegex> regex = jvm::JavaRegex::Compile(pattern, &reason);
  if (!regex) return absl::InvalidArgumentError(absl::StrCat("Invalid regex: ", reason));
  return JavaPattern(std::move(*regex));
}

absl::StatusOr<bool> JavaPattern::Matches(std::string_view text) const {
  switch (regex_.Matches(text)) {
    case jvm::JavaRegex::Result::kMatch:
      return true;
    case jvm::JavaRegex::Result::kNoMatch:
      return false;
    case jvm::JavaRegex::Result::kLimitExceeded:
      break;
  }
  return absl::ResourceExhaustedError(absl::StrCat("regex match limit exceeded on '",
                                                   std::string(text),
                                                   "' (a pattern that backtracks too much)"));
}

absl::StatusOr<std::string> JavaPattern::ReplaceFirst(std::string_view text,
                                                      std::string_view replacement) const {
  std::string error;
  std::optional<std::string> out = regex_.ReplaceFirst(text, replacement, &error);
  if (!out) return absl::InvalidArgumentError(error);
  return *std::move(out);
}

}  // namespace connectd::transforms
