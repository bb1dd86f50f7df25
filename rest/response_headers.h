// File: response_headers.h
//
// `response.http.headers.config`: Connect's extra response header rules (Jetty HeaderFilter).
// The value is a comma list (double quotes protect a rule that contains a comma) of rules
//   set Name: value        replace every field Name with this value
//   add Name: value        add a field Name
//   setDate Name: millis   replace Name with the HTTP date `millis` from now
//   addDate Name: millis   add Name with the HTTP date `millis` from now
// The action is case-insensitive; the name may not contain white space. Validation follows
// Connect's RestServerConfig, message for message.
//
// Threads: pure functions, any thread.
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "rest/http_types.h"

namespace connectd::rest {

struct HeaderRule {
  enum class Action { kSet, kAdd, kSetDate, kAddDate };
  Action action = Action::kSet;
  std::string name;
  std::string value;          // for kSet/kAdd
  int64_t offset_millis = 0;  // for kSetDate/kAddDate
};

// Parses the config value; blank -> no rules. kInvalidArgument names the offending rule.
absl::StatusOr<std::vector<HeaderRule>> ParseHeaderRules(std::string_view config);

// Applies `rules` in order to `headers`; `now` is the time date rules count from.
void ApplyHeaderRules(const std::vector<HeaderRule>& rules,
                      std::chrono::system_clock::time_point now, HeaderList& headers);

// RFC 7231 IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT").
std::string HttpDate(std::chrono::system_clock::time_point when);

// Jetty's StringUtil.csvSplit: splits on commas, trims, and unquotes "..." items (a backslash
// escapes the next character inside quotes).
std::vector<std::string> CsvSplit(std::string_view value);

}  // namespace connectd::rest
