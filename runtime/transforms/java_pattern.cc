#include "runtime/transforms/java_pattern.h"

#include "absl/strings/str_cat.h"
#include "jvm/java_regex.h"
#include "jvm/utf8.h"

namespace connectd::transforms {
namespace {

std::wstring Wide(std::string_view utf8) {
  const std::u32string code_points = jvm::DecodeUtf8(utf8);
  return std::wstring(code_points.begin(), code_points.end());
}

std::string Narrow(std::wstring_view wide) {
  std::string out;
  for (wchar_t c : wide) jvm::AppendUtf8(static_cast<char32_t>(c), out);
  return out;
}

}  // namespace

absl::StatusOr<JavaPattern> JavaPattern::Compile(std::string_view pattern) {
  std::string reason;
  std::optional<std::wstring> translated =
      jvm::TranslateJavaRegex(jvm::DecodeUtf8(pattern), &reason, /*keep_captures=*/true);
  if (!translated) return absl::InvalidArgumentError(absl::StrCat("Invalid regex: ", reason));
  JavaPattern out;
  try {
    auto regex = std::make_shared<std::wregex>();
    regex->imbue(std::locale::classic());
    regex->assign(*translated, std::regex_constants::ECMAScript);
    out.regex_ = std::move(regex);
  } catch (const std::exception& e) {
    return absl::InvalidArgumentError(absl::StrCat("Invalid regex: ", e.what()));
  }
  return out;
}

bool JavaPattern::Matches(std::string_view text) const {
  const std::wstring wide = Wide(text);
  return std::regex_match(wide, *regex_);
}

absl::StatusOr<std::string> JavaPattern::ReplaceFirst(std::string_view text,
                                                      std::string_view replacement) const {
  const std::wstring wide = Wide(text);
  std::wsmatch m;
  if (!std::regex_search(wide, m, *regex_)) return std::string(text);
  const size_t groups = m.size() - 1;
  std::wstring out(wide.begin(), wide.begin() + m.position(0));
  const std::wstring repl = Wide(replacement);
  for (size_t i = 0; i < repl.size(); ++i) {
    const wchar_t c = repl[i];
    if (c == L'\\') {
      if (++i == repl.size()) {
        return absl::InvalidArgumentError("character to be escaped is missing");
      }
      out.push_back(repl[i]);
    } else if (c == L'$') {
      if (++i == repl.size()) {
        return absl::InvalidArgumentError("Illegal group reference: group index is missing");
      }
      if (repl[i] == L'{') {
        return absl::InvalidArgumentError("named-capturing group references are not supported");
      }
      if (repl[i] < L'0' || repl[i] > L'9') {
        return absl::InvalidArgumentError("Illegal group reference");
      }
      // Java reads digits while the group number stays within the pattern's groups.
      size_t group = static_cast<size_t>(repl[i] - L'0');
      while (i + 1 < repl.size() && repl[i + 1] >= L'0' && repl[i + 1] <= L'9') {
        const size_t longer = group * 10 + static_cast<size_t>(repl[i + 1] - L'0');
        if (longer > groups) break;
        group = longer;
        ++i;
      }
      if (group > groups) return absl::InvalidArgumentError(absl::StrCat("No group ", group));
      if (m[group].matched) out.append(m[group].first, m[group].second);
    } else {
      out.push_back(c);
    }
  }
  out.append(m.suffix().first, m.suffix().second);
  return Narrow(out);
}

}  // namespace connectd::transforms
