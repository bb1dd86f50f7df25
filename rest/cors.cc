#include "rest/cors.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "runtime/common/strings.h"

namespace connectd::rest {
namespace {

std::vector<std::string> SplitTrimmed(std::string_view list) {
  std::vector<std::string> items;
  for (absl::string_view item : absl::StrSplit(AsAbsl(list), ',')) {
    item = absl::StripAsciiWhitespace(item);
    if (!item.empty()) items.emplace_back(item);
  }
  return items;
}

// Jetty turns an allowed origin with '*' into a regex where '*' matches anything; this is the
// same match without std::regex.
bool WildcardMatch(std::string_view pattern, std::string_view text) {
  size_t p = 0;
  size_t t = 0;
  size_t star = std::string_view::npos;
  size_t resume = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = t;
    } else if (p < pattern.size() && pattern[p] == text[t]) {
      ++p;
      ++t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

}  // namespace

CorsFilter::CorsFilter(std::string_view allowed_origins, std::string_view allowed_methods) {
  enabled_ = !absl::StripAsciiWhitespace(AsAbsl(allowed_origins)).empty();
  if (!enabled_) return;
  for (std::string& origin : SplitTrimmed(allowed_origins)) {
    if (origin == "*") {
      any_origin_ = true;
    } else if (origin.find('*') != std::string::npos) {
      origin_patterns_.push_back(std::move(origin));
    } else {
      origins_.push_back(std::move(origin));
    }
  }
  methods_ = SplitTrimmed(allowed_methods);
  if (absl::StripAsciiWhitespace(AsAbsl(allowed_methods)).empty()) {
    methods_ = {"GET", "POST", "HEAD"};
  }
  headers_ = {"X-Requested-With", "Content-Type", "Accept", "Origin"};
}

bool CorsFilter::OriginMatches(std::string_view origin_list) const {
  if (any_origin_) return true;
  // The Origin header may list several origins separated by spaces.
  for (absl::string_view origin : absl::StrSplit(AsAbsl(origin_list), ' ', absl::SkipEmpty())) {
    for (const std::string& allowed : origins_) {
      if (allowed == origin) return true;
    }
    for (const std::string& pattern : origin_patterns_) {
      if (WildcardMatch(pattern, AsStd(origin))) return true;
    }
  }
  return false;
}

HeaderList CorsFilter::HeadersFor(std::string_view method, const std::optional<std::string>& origin,
                                  const std::optional<std::string>& request_method,
                                  const std::optional<std::string>& request_headers) const {
  HeaderList out;
  if (!enabled_ || !origin) return out;
  std::string trimmed(absl::StripAsciiWhitespace(*origin));
  if (trimmed.empty() || !OriginMatches(trimmed)) return out;

  bool preflight = method == "OPTIONS" && request_method.has_value();
  if (preflight) {
    std::string wanted(absl::StripAsciiWhitespace(*request_method));
    bool method_allowed = false;
    for (const std::string& m : methods_) method_allowed |= m == wanted;
    if (!method_allowed) return out;
    if (request_headers) {
      for (const std::string& header : SplitTrimmed(*request_headers)) {
        bool allowed = false;
        for (const std::string& h : headers_) allowed |= absl::EqualsIgnoreCase(h, header);
        if (!allowed) return out;
      }
    }
  }
  SetHeader(out, "Access-Control-Allow-Origin", *origin);
  if (!any_origin_) AddHeader(out, "Vary", "Origin");
  SetHeader(out, "Access-Control-Allow-Credentials", "true");
  if (preflight) {
    SetHeader(out, "Access-Control-Max-Age", "1800");
    SetHeader(out, "Access-Control-Allow-Methods", absl::StrJoin(methods_, ","));
    SetHeader(out, "Access-Control-Allow-Headers", absl::StrJoin(headers_, ","));
  }
  return out;
}

}  // namespace connectd::rest
