// File: filters.h
//
// MirrorMaker 2's default filters (DefaultTopicFilter, DefaultGroupFilter,
// DefaultConfigPropertyFilter), configured from a connector's raw props exactly as Kafka 4.x
// configures them (checked against tests/golden/mirror/filters.tsv):
//
//  - A value is a Connect LIST: trimmed (Java String.trim), "" is the empty list, otherwise split
//    on commas with the whitespace around each comma removed. Duplicate items are dropped (Kafka
//    logs a warning); an empty item ("a,,b", "a,") is an error:
//    "Configuration 'topics' values must not be empty."
//  - The items are java.util.regex patterns joined with '|' into ONE pattern (so "(a, b)" is the
//    valid "(a|b)", and "a{1,2}" splits into "a{1" and "2}"), which must match the WHOLE name
//    (Matcher.matches). "orders.v1" is a regex: the dot matches any character.
//  - An empty list matches nothing: topics= replicates no topic, topics.exclude= excludes none.
//  - Should-replicate = matches the include list AND NOT the exclude list.
//
// Defaults (Kafka 4.x; KAFKA-17200 narrowed topics.exclude in 4.0, KAFKA-20163 extended
// config.properties.exclude):
//   topics                     .*
//   topics.exclude             mm2.*\.internal, .*\.replica, __.*
//   groups                     .*
//   groups.exclude             console-consumer-.*, connect-.*, __.*
//   config.properties.exclude  kConfigPropertiesExcludeDefault (below)
//   use.defaults.from          target
//
// Java regex support. Patterns are translated to std::wregex (ECMAScript) and matched on code
// points. Supported, with Java's meaning: literals and escaped metacharacters; . (not matching
// \n \r \u0085 \u2028 \u2029); character classes with ranges and negation, including Java's
// literal ']' first and literal '-' at either end; \d \D \w \W \s \S \h \H \v \V (ASCII, as Java
// without UNICODE_CHARACTER_CLASS); \p{..}/\P{..} for the POSIX classes (Lower Upper ASCII Alpha
// Digit Alnum Punct Graph Print Blank Cntrl XDigit Space); \t \n \r \f \a \e \cX \0oct \xhh
// \x{h..h} \uhhhh (surrogate pairs combine); \Q...\E quoting (also inside classes, and \Q to the
// end); groups (?:..), capturing and named (?<name>..) groups (matched, not captured); lookahead
// (?=..) (?!..); greedy and lazy quantifiers * + ? {n} {n,} {n,m} (n, m <= 1000); alternation;
// ^ $ \A \z \Z \b \B; inline flags (?i) (ASCII case folding, as Java without UNICODE_CASE),
// (?s), their negations and scoped forms (?i:..), with Java's scoping (to the end of the
// enclosing group, across later alternatives).
// Rejected with an error although Java accepts them: possessive quantifiers (a*+), atomic groups
// (?>..), back references (\1, \k<name>), lookbehind (?<=..) (?<!..), nested classes and
// intersections ([a[b]], [a&&b]), Unicode properties (\p{L}, \p{IsAlphabetic}, \pL), \G \R \X
// \N{..} \b{g}, the inline flags d m u x U, a quantifier on a quantified atom (a{1}{2}), counts
// above 1000. Known remaining differences: $ and \Z match only at the very end (Java also before
// a final line terminator, which only matters for a pattern that then matches the terminator);
// \b and \B use ASCII word characters (Java 17 uses Unicode letters and digits).
//
// Thread safety: filters are immutable after Make; all methods are const and may be called
// concurrently. Nothing here throws.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace connectd::mirror {

inline constexpr char kTopicsConfig[] = "topics";
inline constexpr char kTopicsDefault[] = ".*";
inline constexpr char kTopicsExcludeConfig[] = "topics.exclude";
inline constexpr char kTopicsExcludeDefault[] = "mm2.*\\.internal, .*\\.replica, __.*";
inline constexpr char kGroupsConfig[] = "groups";
inline constexpr char kGroupsDefault[] = ".*";
inline constexpr char kGroupsExcludeConfig[] = "groups.exclude";
inline constexpr char kGroupsExcludeDefault[] = "console-consumer-.*, connect-.*, __.*";
inline constexpr char kConfigPropertiesExcludeConfig[] = "config.properties.exclude";
inline constexpr char kConfigPropertiesExcludeDefault[] =
    "follower.replication.throttled.replicas, leader.replication.throttled.replicas, "
    "message.timestamp.difference.max.ms, log.message.timestamp.before.max.ms, "
    "log.message.timestamp.after.max.ms, message.timestamp.type, "
    "unclean.leader.election.enable, min.insync.replicas";
inline constexpr char kUseDefaultsFromConfig[] = "use.defaults.from";
inline constexpr char kUseDefaultsFromDefault[] = "target";

// RegexFilter is one MM2 regex-list value (see the file comment). Copyable; copies share the
// compiled pattern.
class RegexFilter {
 public:
  // Make parses and compiles a LIST value. Returns nullopt and sets *error (if not null) when a
  // list item is empty or the joined pattern is invalid or unsupported.
  static std::optional<RegexFilter> Make(const std::string& list, std::string* error);
  // MakeForConfig is Make with `config_name` in error messages, worded as Kafka words them.
  static std::optional<RegexFilter> MakeForConfig(const std::string& config_name,
                                                  const std::string& list, std::string* error);

  // Matches reports whether the whole of `s` (UTF-8; malformed bytes read as U+FFFD) matches.
  // Always false for an empty list.
  bool Matches(const std::string& s) const;

 private:
  struct Compiled;  // the std::wregex (kept out of this header: <regex> is heavy)

  explicit RegexFilter(std::shared_ptr<const Compiled> compiled) : compiled_(std::move(compiled)) {}

  std::shared_ptr<const Compiled> compiled_;  // null: the empty list
};

// TopicFilter is DefaultTopicFilter: "topics" (default ".*") minus "topics.exclude".
class TopicFilter {
 public:
  static std::optional<TopicFilter> Make(const std::map<std::string, std::string>& props,
                                         std::string* error);
  bool ShouldReplicateTopic(const std::string& topic) const;

 private:
  TopicFilter(RegexFilter include, RegexFilter exclude)
      : include_(std::move(include)), exclude_(std::move(exclude)) {}

  RegexFilter include_;
  RegexFilter exclude_;
};

// GroupFilter is DefaultGroupFilter: "groups" (default ".*") minus "groups.exclude".
class GroupFilter {
 public:
  static std::optional<GroupFilter> Make(const std::map<std::string, std::string>& props,
                                         std::string* error);
  bool ShouldReplicateGroup(const std::string& group) const;

 private:
  GroupFilter(RegexFilter include, RegexFilter exclude)
      : include_(std::move(include)), exclude_(std::move(exclude)) {}

  RegexFilter include_;
  RegexFilter exclude_;
};

// ConfigPropertyFilter is DefaultConfigPropertyFilter: topic config properties matching
// "config.properties.exclude" are not synced; "use.defaults.from" (trimmed, default "target")
// says whose defaults win.
class ConfigPropertyFilter {
 public:
  static std::optional<ConfigPropertyFilter> Make(const std::map<std::string, std::string>& props,
                                                  std::string* error);
  bool ShouldReplicateConfigProperty(const std::string& name) const;
  // True iff use.defaults.from is exactly "source" (case-sensitive), whatever `name` is.
  bool ShouldReplicateSourceDefault(const std::string& name) const;

 private:
  ConfigPropertyFilter(RegexFilter exclude, bool use_source_defaults)
      : exclude_(std::move(exclude)), use_source_defaults_(use_source_defaults) {}

  RegexFilter exclude_;
  bool use_source_defaults_;
};

}  // namespace connectd::mirror
