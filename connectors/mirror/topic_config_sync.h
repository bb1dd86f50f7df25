// File: topic_config_sync.h
//
// MirrorSourceConnector's topic config decisions as pure functions (MirrorSourceConnector.createNewTopics and syncTopicConfigs, KIP-894), so
// they are tested without Kafka:
//   CreationConfigs          the configs a new remote topic is created with
//   SourceConfigOps          Java's incremental ops for one remote topic (SET / DELETE)
//   PlanConfigReplacement    the same ops expressed as one legacy AlterConfigs (replace-all)
//
// Why a replacement. Kafka 4.4's MirrorSourceConnector sends IncrementalAlterConfigs. Debian's
// librdkafka 2.0.2 has no IncrementalAlterConfigs, only the legacy AlterConfigs, which replaces
// ALL of a topic's dynamic overrides (unlisted ones revert to the default). Kafka 4.4 still
// accepts it (AlterConfigs v0..2; librdkafka sends v0, checked against the test brokers). So the
// connector describes the remote topic too and sends the full set the incremental ops would
// leave behind: the target's own overrides of every key the ops do not touch (excluded
// properties, and keys that are read-only, sensitive or STATIC_BROKER_CONFIG on the source or
// unknown to it) plus the SET entries; DELETEd keys are simply absent. Limits
// (docs/compatibility.md): a target-only override that is sensitive cannot be read back (its
// value is hidden), so such a topic is not altered at all; and describe-then-replace is not
// atomic, so an override written on the target between the two requests can be lost until the
// next run puts back what the ops imply.
//
// Standard library only. Thread safety: pure functions.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "connectors/mirror_client/filters.h"

namespace connectd::mirror {

// One entry of a DescribeConfigs answer for a topic.
struct ConfigEntry {
  std::string value;        // "" for a sensitive entry (the broker hides it)
  bool is_default = false;  // source DEFAULT_CONFIG (Java's ConfigEntry.isDefault)
  bool is_read_only = false;
  bool is_sensitive = false;
  bool is_static_broker = false;  // source STATIC_BROKER_CONFIG
  bool is_dynamic_topic = false;  // source DYNAMIC_TOPIC_CONFIG: an override on this topic
};

// A topic's configs by name.
using TopicConfigs = std::map<std::string, ConfigEntry>;

// CreationConfigs is what a new remote topic is created with (Java's targetConfig(config,
// false)): entries not read-only, not sensitive, not STATIC_BROKER_CONFIG, accepted by
// `filter`, and not default unless use.defaults.from=source.
std::map<std::string, std::string> CreationConfigs(const TopicConfigs& source,
                                                   const ConfigPropertyFilter& filter);

// ConfigOps are Java's incremental ops for one remote topic.
struct ConfigOps {
  std::map<std::string, std::string> set;  // SET name = value
  std::set<std::string> remove;            // DELETE name (fall back to the target's default)

  bool Touches(const std::string& name) const { return set.count(name) || remove.count(name); }
};

// SourceConfigOps is Java's targetConfig(config, true) + incrementalAlterConfigs: each source
// entry that is not read-only, not sensitive, not STATIC_BROKER_CONFIG and accepted by `filter`
// becomes DELETE if it is a source default and use.defaults.from != source, else SET to the
// source value.
ConfigOps SourceConfigOps(const TopicConfigs& source, const ConfigPropertyFilter& filter);

// ConfigReplacement is one remote topic's legacy AlterConfigs, or why none is sent.
struct ConfigReplacement {
  enum class Action {
    kUnchanged,      // the target already holds exactly the desired overrides: send nothing
    kReplace,        // send `configs` as the topic's complete set of dynamic overrides
    kSkipSensitive,  // the target has sensitive overrides the ops don't touch: would be lost
  };
  Action action = Action::kUnchanged;
  std::map<std::string, std::string> configs;  // kReplace: the complete desired overrides
  std::vector<std::string> sensitive;          // kSkipSensitive: the keys that block it
};

// PlanConfigReplacement turns `ops` into a replacement for a target topic whose current
// configs are `target`: desired = target's DYNAMIC_TOPIC_CONFIG overrides of keys the ops don't
// touch, plus the SET entries. kUnchanged when desired equals the current overrides, so a
// steady state sends no request (no churn on the target controller).
ConfigReplacement PlanConfigReplacement(const ConfigOps& ops, const TopicConfigs& target);

}  // namespace connectd::mirror
