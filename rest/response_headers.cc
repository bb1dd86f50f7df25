#include "rest/response_headers.h"

#include <cstdio>
#include <ctime>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "runtime/common/strings.h"

namespace connectd::rest {
namespace {

bool IsJavaWhitespace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// Java String.trim(): strips characters <= ' '.
std::string_view JavaTrim(std::string_view s) {
  while (!s.empty() && static_cast<unsigned char>(s.front()) <= ' ') s.remove_prefix(1);
  while (!s.empty() && static_cast<unsigned char>(s.back()) <= ' ') s.remove_suffix(1);
  return s;
}

absl::Status Invalid(std::string message) { return absl::InvalidArgumentError(message); }

absl::StatusOr<HeaderRule> ParseRule(std::string_view config) {
  // Mirrors RestServerConfig.validateHttpResponseHeaderConfig.
  std::string_view trimmed = JavaTrim(config);
  size_t ws = 0;
  while (ws < trimmed.size() && !IsJavaWhitespace(trimmed[ws])) ++ws;
  size_t rest_start = ws;
  while (rest_start < trimmed.size() && IsJavaWhitespace(trimmed[rest_start])) ++rest_start;
  if (ws == trimmed.size() || rest_start == trimmed.size()) {
    return Invalid(absl::StrCat("Invalid format of header config '", AsAbsl(config),
                                "'. Expected: '[action] [header name]:[header value]'"));
  }
  std::string_view action = trimmed.substr(0, ws);
  std::string_view header = trimmed.substr(rest_start);

  HeaderRule rule;
  if (absl::EqualsIgnoreCase(AsAbsl(action), "set")) {
    rule.action = HeaderRule::Action::kSet;
  } else if (absl::EqualsIgnoreCase(AsAbsl(action), "add")) {
    rule.action = HeaderRule::Action::kAdd;
  } else if (absl::EqualsIgnoreCase(AsAbsl(action), "setDate")) {
    rule.action = HeaderRule::Action::kSetDate;
  } else if (absl::EqualsIgnoreCase(AsAbsl(action), "addDate")) {
    rule.action = HeaderRule::Action::kAddDate;
  } else {
    return Invalid(absl::StrCat("Invalid header config action: '", AsAbsl(action),
                                "'. Expected one of [set, add, setDate, addDate]"));
  }

  // Java's header.trim().split(":") must give exactly two tokens (trailing empties dropped).
  std::string_view pair = JavaTrim(header);
  size_t colon = pair.find(':');
  std::string_view value_part =
      colon == std::string_view::npos ? std::string_view() : pair.substr(colon + 1);
  bool two_tokens = colon != std::string_view::npos && !value_part.empty() &&
                    value_part.find(':') == std::string_view::npos;
  if (!two_tokens) {
    return Invalid(absl::StrCat("Invalid format of header name and header value pair '",
                                AsAbsl(header), "'. Expected: '[header name]:[header value]'"));
  }
  std::string_view name = JavaTrim(pair.substr(0, colon));
  bool has_space = false;
  for (char c : name) has_space |= IsJavaWhitespace(c);
  if (name.empty() || has_space) {
    return Invalid(absl::StrCat("Invalid header name '", AsAbsl(name),
                                "'. The '[header name]' cannot contain whitespace"));
  }
  rule.name = std::string(name);
  std::string_view value = JavaTrim(value_part);
  if (rule.action == HeaderRule::Action::kSetDate || rule.action == HeaderRule::Action::kAddDate) {
    if (!absl::SimpleAtoi(AsAbsl(value), &rule.offset_millis)) {
      return Invalid(absl::StrCat("Invalid date offset '", AsAbsl(value), "' in header config '",
                                  AsAbsl(config), "'. Expected milliseconds as a long"));
    }
  } else {
    rule.value = std::string(value);
  }
  return rule;
}

}  // namespace

std::vector<std::string> CsvSplit(std::string_view value) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i <= value.size()) {
    while (i < value.size() && value[i] == ' ') ++i;
    std::string item;
    if (i < value.size() && value[i] == '"') {
      ++i;
      while (i < value.size() && value[i] != '"') {
        if (value[i] == '\\' && i + 1 < value.size()) ++i;
        item.push_back(value[i++]);
      }
      if (i < value.size()) ++i;  // closing quote
      while (i < value.size() && value[i] != ',') ++i;
    } else {
      size_t start = i;
      while (i < value.size() && value[i] != ',') ++i;
      item = std::string(JavaTrim(value.substr(start, i - start)));
    }
    if (!item.empty()) out.push_back(std::move(item));
    if (i >= value.size()) break;
    ++i;  // the comma
  }
  return out;
}

absl::StatusOr<std::vector<HeaderRule>> ParseHeaderRules(std::string_view config) {
  std::vector<HeaderRule> rules;
  if (JavaTrim(config).empty()) return rules;
  for (const std::string& item : CsvSplit(config)) {
    absl::StatusOr<HeaderRule> rule = ParseRule(item);
    if (!rule.ok()) return rule.status();
    rules.push_back(std::move(*rule));
  }
  return rules;
}

std::string HttpDate(std::chrono::system_clock::time_point when) {
  std::time_t seconds = std::chrono::system_clock::to_time_t(when);
  std::tm tm_utc;
  gmtime_r(&seconds, &tm_utc);
  static constexpr const char* kDays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                            "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  char buffer[40];
  std::snprintf(buffer, sizeof(buffer), "%s, %02d %s %04d %02d:%02d:%02d GMT",
                kDays[tm_utc.tm_wday], tm_utc.tm_mday, kMonths[tm_utc.tm_mon],
                tm_utc.tm_year + 1900, tm_utc.tm_hour, tm_utc.tm_min, tm_utc.tm_sec);
  return buffer;
}

void ApplyHeaderRules(const std::vector<HeaderRule>& rules,
                      std::chrono::system_clock::time_point now, HeaderList& headers) {
  for (const HeaderRule& rule : rules) {
    switch (rule.action) {
      case HeaderRule::Action::kSet:
        SetHeader(headers, rule.name, rule.value);
        break;
      case HeaderRule::Action::kAdd:
        AddHeader(headers, rule.name, rule.value);
        break;
      case HeaderRule::Action::kSetDate:
        SetHeader(headers, rule.name,
                  HttpDate(now + std::chrono::milliseconds(rule.offset_millis)));
        break;
      case HeaderRule::Action::kAddDate:
        AddHeader(headers, rule.name,
                  HttpDate(now + std::chrono::milliseconds(rule.offset_millis)));
        break;
    }
  }
}

}  // namespace connectd::rest
