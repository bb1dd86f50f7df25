// libFuzzer target: java.util.regex patterns (jvm/java_regex.h), which operators write into
// topics/groups filters, RegexRouter and topic.creation: the translation to PCRE2 and matching.
// Input: the pattern, a NUL byte, then the text (no NUL: the whole input is the pattern and
// matched against itself).
// Properties: whatever Java's syntax refuses or connectd does not support is an error, never a
// crash or a PCRE2 compile error the translation did not foresee; a match never runs past its
// limit for long; replacing the first match by itself ("$0") gives the text back.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "jvm/java_regex.h"
#include "jvm/utf8.h"
#include "tests/fuzz/targets/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t nul = input.find('\0');
  const std::string_view pattern = input.substr(0, nul);
  const std::string_view text = nul == std::string_view::npos ? input : input.substr(nul + 1);

  std::string error;
  std::optional<connectd::jvm::JavaRegex> regex =
      connectd::jvm::JavaRegex::Compile(pattern, &error);
  if (!regex) {
    FUZZ_CHECK(!error.empty());
    // The translation emits only what PCRE2 takes, except lookbehind it cannot bound and a
    // pattern beyond PCRE2's size limits.
    if (error.rfind("PCRE2: ", 0) == 0) {
      FUZZ_CHECK(error.find("lookbehind") != std::string::npos ||
                 error.find("too large") != std::string::npos ||
                 error.find("too complicated") != std::string::npos);
    }
    return 0;
  }
  (void)regex->Matches(text);
  std::optional<std::string> same = regex->ReplaceFirst(text, "$0", &error);
  if (same && connectd::jvm::IsValidUtf8(text)) FUZZ_CHECK(*same == text);
  if (!same) FUZZ_CHECK(error.find("match limit") != std::string::npos);
  return 0;
}
