#include "runtime/plugin/plugin_version.h"

#include <algorithm>
#include <cctype>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace connectd::plugin {
namespace {

std::string_view Strip(std::string_view s) {
  while (!s.empty() && ::isspace(static_cast<unsigned char>(s.front())) != 0) s.remove_prefix(1);
  while (!s.empty() && ::isspace(static_cast<unsigned char>(s.back())) != 0) s.remove_suffix(1);
  return s;
}

// One item of a version: a number, or a qualifier (lower case).
struct Item {
  bool numeric = false;
  uint64_t number = 0;
  std::string qualifier;
};

std::vector<Item> Items(std::string_view version) {
  std::vector<Item> items;
  std::string current;
  auto flush = [&] {
    if (current.empty()) return;
    Item item;
    uint64_t n = 0;
    if (std::all_of(current.begin(), current.end(), ::isdigit) && absl::SimpleAtoi(current, &n)) {
      item.numeric = true;
      item.number = n;
    } else {
      item.qualifier = absl::AsciiStrToLower(current);
    }
    items.push_back(std::move(item));
    current.clear();
  };
  for (size_t i = 0; i < version.size(); ++i) {
    const char c = version[i];
    if (c == '.' || c == '-') {
      flush();
      continue;
    }
    // "1rc2": a switch between digits and letters starts a new item, as in Maven.
    if (!current.empty() && (::isdigit(c) != 0) != (::isdigit(current.back()) != 0)) flush();
    current.push_back(c);
  }
  flush();
  // Trailing zeros do not count: 1.0 == 1.0.0 == 1.
  while (!items.empty() && items.back().numeric && items.back().number == 0) items.pop_back();
  return items;
}

// Qualifiers known to Maven, oldest first; others sort after them (alphabetically).
int QualifierRank(const std::string& q) {
  if (q == "alpha" || q == "a") return 0;
  if (q == "beta" || q == "b") return 1;
  if (q == "milestone" || q == "m") return 2;
  if (q == "rc" || q == "cr") return 3;
  if (q == "snapshot") return 4;
  return 5;
}

// Compares an item with a missing one (the shorter version's end): a number is newer, a
// qualifier older (1.0-rc1 < 1.0).
int CompareWithMissing(const Item& item) {
  if (item.numeric) return item.number == 0 ? 0 : 1;
  return -1;
}

int CompareItems(const Item& a, const Item& b) {
  if (a.numeric && b.numeric) return a.number < b.number ? -1 : a.number > b.number ? 1 : 0;
  if (a.numeric) return 1;  // 1.1 > 1-rc
  if (b.numeric) return -1;
  const int ra = QualifierRank(a.qualifier), rb = QualifierRank(b.qualifier);
  if (ra != rb) return ra < rb ? -1 : 1;
  return a.qualifier.compare(b.qualifier) < 0 ? -1 : a.qualifier == b.qualifier ? 0 : 1;
}

absl::Status Invalid(std::string_view spec) {
  return absl::InvalidArgumentError(absl::StrCat("Version range ", std::string(spec), " is invalid"));
}

}  // namespace

int CompareVersions(std::string_view a, std::string_view b) {
  const std::vector<Item> x = Items(a), y = Items(b);
  for (size_t i = 0; i < std::max(x.size(), y.size()); ++i) {
    int c = i >= x.size()   ? -CompareWithMissing(y[i])
            : i >= y.size() ? CompareWithMissing(x[i])
                            : CompareItems(x[i], y[i]);
    if (c != 0) return c;
  }
  return 0;
}

absl::StatusOr<VersionRange> VersionRange::Parse(std::string_view spec) {
  std::string_view rest = Strip(spec);
  VersionRange range;
  if (rest.empty()) return Invalid(spec);
  if (rest.front() != '[' && rest.front() != '(') {
    if (rest.find_first_of("[](),") != std::string_view::npos) return Invalid(spec);
    range.restrictions_.push_back({std::string(rest), true, std::string(rest), true});
    return range;
  }
  while (!rest.empty()) {
    const char open = rest.front();
    if (open != '[' && open != '(') return Invalid(spec);
    const size_t close_at = rest.find_first_of("])");
    if (close_at == std::string_view::npos) return Invalid(spec);
    const char close = rest[close_at];
    std::string_view inner = rest.substr(1, close_at - 1);
    Restriction r;
    r.lower_inclusive = open == '[';
    r.upper_inclusive = close == ']';
    const size_t comma = inner.find(',');
    if (comma == std::string_view::npos) {
      // "[1.0]" is exactly 1.0; "(1.0)" means nothing.
      if (!r.lower_inclusive || !r.upper_inclusive || inner.empty()) return Invalid(spec);
      r.lower = r.upper = std::string(Strip(inner));
    } else {
      std::string_view lower = Strip(inner.substr(0, comma));
      std::string_view upper = Strip(inner.substr(comma + 1));
      if (upper.find(',') != std::string_view::npos) return Invalid(spec);
      if (!lower.empty()) r.lower = std::string(lower);
      if (!upper.empty()) r.upper = std::string(upper);
      if (r.lower && r.upper && CompareVersions(*r.lower, *r.upper) > 0) return Invalid(spec);
    }
    range.restrictions_.push_back(std::move(r));
    rest = Strip(rest.substr(close_at + 1));
    if (!rest.empty()) {
      if (rest.front() != ',') return Invalid(spec);
      rest = Strip(rest.substr(1));
      if (rest.empty()) return Invalid(spec);
    }
  }
  return range;
}

bool VersionRange::Contains(std::string_view version) const {
  for (const Restriction& r : restrictions_) {
    if (r.lower) {
      const int c = CompareVersions(version, *r.lower);
      if (c < 0 || (c == 0 && !r.lower_inclusive)) continue;
    }
    if (r.upper) {
      const int c = CompareVersions(version, *r.upper);
      if (c > 0 || (c == 0 && !r.upper_inclusive)) continue;
    }
    return true;
  }
  return false;
}

std::string VersionRange::ToString() const {
  std::vector<std::string> parts;
  for (const Restriction& r : restrictions_) {
    parts.push_back(absl::StrCat(r.lower_inclusive ? "[" : "(", r.lower.value_or(""), ",",
                                 r.upper.value_or(""), r.upper_inclusive ? "]" : ")"));
  }
  return absl::StrJoin(parts, ",");
}

std::optional<std::string> NewestMatching(const std::vector<std::string>& versions,
                                          const VersionRange& range) {
  std::optional<std::string> best;
  for (const std::string& v : versions) {
    if (range.Contains(v) && (!best || CompareVersions(v, *best) > 0)) best = v;
  }
  return best;
}

}  // namespace connectd::plugin
