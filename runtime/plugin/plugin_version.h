// File: plugin_version.h
//
// Plugin versions and the version ranges a connector config may pin a plugin to (KIP-891:
// `connector.plugin.version`, `{key,value,header}.converter.plugin.version`,
// `transforms.<a>.plugin.version`, `predicates.<p>.plugin.version`), with the syntax Connect
// takes from Maven:
//   1.2.0            exactly 1.2.0 (Connect makes a bare version a hard requirement)
//   [1.0,2.0)        1.0 <= v < 2.0; "(" and ")" exclude, "[" and "]" include an end
//   [1.5,)  (,1.0]   open on one side;  [1.0]  exactly 1.0
//   [1.0,2.0),[3.0,) any of several ranges
// Versions compare as Maven's ComparableVersion does for the common cases: '.'/'-' separated
// items, numbers numerically, a qualifier ("-SNAPSHOT", "-rc1") before the release it qualifies.
//
// Thread safety: values; const methods from any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace connectd::plugin {

// <0, 0, >0 as `a` is older than, the same as or newer than `b`.
int CompareVersions(std::string_view a, std::string_view b);

class VersionRange {
 public:
  // kInvalidArgument with Connect's message when `spec` is not a version or a range.
  static absl::StatusOr<VersionRange> Parse(std::string_view spec);

  bool Contains(std::string_view version) const;
  // Maven's form: "[1.0,1.0]", "[1.0,2.0)", "[1.5,)", ranges joined by ','.
  std::string ToString() const;

 private:
  struct Restriction {
    std::optional<std::string> lower;  // nullopt: unbounded
    bool lower_inclusive = false;
    std::optional<std::string> upper;
    bool upper_inclusive = false;
  };
  std::vector<Restriction> restrictions_;
};

// The newest of `versions` that `range` contains, or nullopt.
std::optional<std::string> NewestMatching(const std::vector<std::string>& versions,
                                          const VersionRange& range);

}  // namespace connectd::plugin
