// File: topic_config_sync.h
//
// MirrorSourceConnector's topic config decisions as pure functions
// (MirrorSourceConnector.createNewTopics and syncTopicConfigs, KIP-894), so they are tested without
// Kafka:
//   CreationConfigs          the configs a new remote topic is created with
//   SourceConfigOps          Java's incremental ops for one remote topic (SET / DELETE), which the
//                            connector sends with IncrementalAlterConfigs (kafka_clients.h)
//
// Standard library only. Thread safety: pure functions.
#pragma once

#include <map>
#include <set>
#include <string>

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
};

// SourceConfigOps is Java's targetConfig(config, true) + incrementalAlterConfigs: each source
// entry that is not read-only, not sensitive, not STATIC_BROKER_CONFIG and accepted by `filter`
// becomes DELETE if it is a source default and use.defaults.from != source, else SET to the
// source value.
ConfigOps SourceConfigOps(const TopicConfigs& source, const ConfigPropertyFilter& filter);

}  // namespace connectd::mirror
