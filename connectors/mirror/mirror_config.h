// File: mirror_config.h
//
// The config keys of MirrorMaker 2's connectors (MirrorConnectorConfig, MirrorSourceConfig,
// MirrorHeartbeatConfig, MirrorCheckpointConfig) with Kafka 4.4's names and defaults, except
// where connectd deliberately differs (docs/compatibility.md):
//   refresh.topics.interval.seconds  5 (Java 600): new topics are mirrored within seconds; a
//                                    refresh is one Metadata request to the source.
//   heartbeats.topic.location        source (new key; `target` is Java's placement).
//   health.*                         connectd's flow-health thresholds
//   (runtime/mirror_maker/health/README.md),
//                                    read by the worker; Java ignores them.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "connectd/sdk/sdk.h"

namespace connectd::mirror {

using Props = std::map<std::string, std::string>;

// connectd's MirrorSourceTask config key next to Java's task.assigned.partitions: the IDs of the
// task's source topics when the connector could describe them, "topic:ID,topic:ID" (topic names
// have neither ':' nor ','; IDs in Kafka's base64 form). A task tells by them that a stored
// offset belongs to a topic since deleted and re-created (mirror_source_task.h).
inline constexpr char kTaskAssignedTopicIds[] = "task.assigned.topic.ids";

sdk::ConfigDef MirrorSourceConfigDef();
sdk::ConfigDef MirrorHeartbeatConfigDef();
sdk::ConfigDef MirrorCheckpointConfigDef();

// Typed reads with the defaults above (`fallback` when absent).
std::string GetString(const Props& props, const std::string& key, const std::string& fallback);
int64_t GetLong(const Props& props, const std::string& key, int64_t fallback);
bool GetBool(const Props& props, const std::string& key, bool fallback);

// `forwarding.admin.class` (KIP-787) names a Java class that would see every admin call of the
// three connectors; connectd cannot load it, so any value but Kafka's own ForwardingAdmin is a
// validation error instead of being bypassed silently.
void ValidateForwardingAdmin(const Props& props, sdk::Validation& validation);

// What the connector's clients (source and target, consumer, producer and admin: client_props.h)
// would refuse of their settings (jvm/java_client_config.h: keys that load code or run commands,
// Kerberos names out of syntax, token URLs not allowed, login modules refused, ...): each error
// goes to the connector keys it names (source.cluster.sasl.jaas.config, consumer.X, ...), so a
// hostile config is refused when it is written. Settings holding a config-provider reference
// are resolved only at task start and checked there.
void ValidateClientConfigs(const Props& props, sdk::Validation& validation);

}  // namespace connectd::mirror
