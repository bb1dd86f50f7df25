// File: java_client_config.h
//
// Java Kafka client properties -> librdkafka properties. Users bring the keys of their Java
// worker (`producer.*`, `consumer.*`, `admin.*`, security settings); librdkafka names some the
// same, some differently, and lacks a few. Translation rules:
//   - same name and meaning: passed through (bootstrap.servers, acks, linger.ms, ...);
//   - renamed: mapped (sasl.mechanism -> sasl.mechanisms, send.buffer.bytes ->
//     socket.send.buffer.bytes, max.request.size -> message.max.bytes, Java assignor classes ->
//     librdkafka assignor names, sasl.jaas.config -> sasl.username/sasl.password for PLAIN and
//     SCRAM login modules, PEM trust/key stores -> ssl.ca.location/ssl.certificate.location/...,
//     delivery.timeout.ms -> message.timeout.ms, fetch.max.wait.ms -> fetch.wait.max.ms,
//     metadata.max.age.ms -> topic.metadata.refresh.interval.ms (librdkafka's
//     metadata.max.age.ms is a cache lifetime, not Java's refresh interval), and for consumers
//     and admin clients request.timeout.ms -> socket.timeout.ms (librdkafka's
//     request.timeout.ms is the producer's acknowledgement timeout only);
//   - meaningless here (serializer/deserializer classes, max.poll.records, ...): dropped silently;
//   - Java-only with no equivalent (JKS stores, ...): dropped with a warning naming the key;
//   - Java 4.4's client defaults where librdkafka's differ (java_client_defaults.h), per
//     client role, unless the user set the key;
//   - anything else: passed on; if librdkafka rejects it, MakeConfWithWarnings drops it with a
//     warning naming the key (never the value: it may be a secret).
// Standard library only: plugins (MirrorMaker's connectors) link it too.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "jvm/java_client_defaults.h"

namespace connectd::jvm {

struct TranslatedConfig {
  std::map<std::string, std::string> properties;  // librdkafka names
  // The keys of `properties` that carry a Java client default rather than a user's setting.
  std::set<std::string> java_defaults;
  std::vector<std::string> warnings;
};

TranslatedConfig TranslateJavaClientConfig(const std::map<std::string, std::string>& java,
                                           ClientRole role);

// `base` (a caller's own settings for the client, e.g. Connect's source producer config)
// overlaid with `translated`: what the user set replaces base, while Java's client defaults
// only fill what base leaves unset (Connect's settings outrank the client library's defaults,
// as Java's Worker puts them over ProducerConfig's).
std::map<std::string, std::string> OverlayOn(std::map<std::string, std::string> base,
                                             const TranslatedConfig& translated);

}  // namespace connectd::jvm
