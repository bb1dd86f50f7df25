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
// Java regex: jvm::JavaRegex (jvm/java_regex.h) — PCRE2 with Java's syntax and meaning, or a
// refusal naming the construct. A pattern that exceeds its match limit on a name (catastrophic
// backtracking) does not match that name.
//
// Thread safety: filters are immutable after Make; all methods are const and may be called
// concurrently. Nothing here throws.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "jvm/java_regex.h"

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
  explicit RegexFilter(std::optional<jvm::JavaRegex> regex) : regex_(std::move(regex)) {}

  std::optional<jvm::JavaRegex> regex_;  // none: the empty list
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
