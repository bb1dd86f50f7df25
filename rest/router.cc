#include "rest/router.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "jvm/utf8.h"
#include "runtime/common/strings.h"

namespace connectd::rest {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Decodes %XX (and '+' as space when `plus_is_space`); nullopt on a malformed escape.
std::optional<std::string> PercentDecode(std::string_view in, bool plus_is_space) {
  std::string out;
  out.reserve(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    char c = in[i];
    if (c == '%') {
      if (i + 2 >= in.size()) return std::nullopt;
      int hi = HexValue(in[i + 1]);
      int lo = HexValue(in[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      out.push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out.push_back(' ');
    } else {
      out.push_back(c);
    }
  }
  return out;
}

std::vector<std::string_view> SplitPath(std::string_view path) {
  std::vector<std::string_view> segments;
  if (!path.empty() && path.front() == '/') path.remove_prefix(1);
  if (!path.empty() && path.back() == '/') path.remove_suffix(1);
  if (path.empty()) return segments;
  size_t start = 0;
  while (true) {
    size_t slash = path.find('/', start);
    segments.push_back(
        path.substr(start, slash == std::string_view::npos ? path.npos : slash - start));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return segments;
}

bool IsParam(const std::string& segment) {
  return segment.size() >= 2 && segment.front() == '{' && segment.back() == '}';
}

}  // namespace

void Router::Add(std::string method, std::string_view pattern, Handler handler,
                 RouteOptions options) {
  Route route;
  route.method = std::move(method);
  for (std::string_view segment : SplitPath(pattern)) route.segments.emplace_back(segment);
  route.handler = std::move(handler);
  route.options = options;
  routes_.push_back(std::move(route));
}

absl::StatusOr<Router::Match> Router::Find(std::string_view method,
                                           std::string_view raw_path) const {
  std::vector<std::string> decoded;
  for (std::string_view segment : SplitPath(raw_path)) {
    absl::StatusOr<std::string> d = DecodePathSegment(segment);
    if (!d.ok()) return d.status();
    decoded.push_back(std::move(*d));
  }
  std::string_view effective = method == "HEAD" ? std::string_view("GET") : method;

  Match match;
  for (const Route& route : routes_) {
    if (route.segments.size() != decoded.size()) continue;
    std::vector<std::string> params;
    bool matches = true;
    for (size_t i = 0; i < decoded.size() && matches; ++i) {
      if (IsParam(route.segments[i])) {
        if (decoded[i].empty()) matches = false;
        params.push_back(decoded[i]);
      } else if (route.segments[i] != decoded[i]) {
        matches = false;
      }
    }
    if (!matches) continue;
    match.allowed.push_back(route.method);
    if (route.method == "GET") match.allowed.push_back("HEAD");
    if (match.outcome != Outcome::kMatched && route.method == effective) {
      match.outcome = Outcome::kMatched;
      match.route = &route;
      match.params = std::move(params);
    }
  }
  if (match.allowed.empty()) return match;
  match.allowed.push_back("OPTIONS");
  std::sort(match.allowed.begin(), match.allowed.end());
  match.allowed.erase(std::unique(match.allowed.begin(), match.allowed.end()), match.allowed.end());
  if (match.outcome != Outcome::kMatched) match.outcome = Outcome::kMethodNotAllowed;
  return match;
}

absl::StatusOr<std::string> DecodePathSegment(std::string_view segment) {
  std::optional<std::string> decoded = PercentDecode(segment, /*plus_is_space=*/false);
  if (!decoded) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Malformed percent-encoding in request path segment '", jvm::ToJavaString(segment), "'"));
  }
  // Java decodes the URI as UTF-8, replacing malformed bytes with U+FFFD: names stay valid text.
  return jvm::ToJavaString(*decoded);
}

std::string EncodePathSegment(std::string_view segment) {
  // RFC 3986 pchar minus '/': unreserved, sub-delims, ':' and '@' stay as they are.
  static constexpr std::string_view kKeep = "-._~!$&'()*+,;=:@";
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : segment) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
        kKeep.find(static_cast<char>(c)) != std::string_view::npos) {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 0xF]);
    }
  }
  return out;
}

QueryParams ParseQuery(std::string_view query) {
  QueryParams params;
  for (absl::string_view part : absl::StrSplit(AsAbsl(query), '&', absl::SkipEmpty())) {
    size_t eq = part.find('=');
    absl::string_view raw_name = part.substr(0, eq);
    absl::string_view raw_value = eq == absl::string_view::npos ? "" : part.substr(eq + 1);
    std::optional<std::string> name = PercentDecode(AsStd(raw_name), true);
    std::optional<std::string> value = PercentDecode(AsStd(raw_value), true);
    params[jvm::ToJavaString(name ? *name : std::string(raw_name))].push_back(
        jvm::ToJavaString(value ? *value : std::string(raw_value)));
  }
  return params;
}

}  // namespace connectd::rest
