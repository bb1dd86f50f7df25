// File: java_client_config.h
//
// Java Kafka client properties -> librdkafka properties. Users bring the keys of their Java
// worker (`producer.*`, `consumer.*`, `admin.*`, security settings); librdkafka names some the
// same, some differently, and lacks a few. Translation rules:
//   - same name and meaning: passed through (bootstrap.servers, acks, linger.ms, ...);
//   - renamed: mapped (sasl.mechanism -> sasl.mechanisms, send.buffer.bytes ->
//     socket.send.buffer.bytes, max.request.size -> message.max.bytes, Java assignor classes ->
//     librdkafka assignor names, sasl.jaas.config -> sasl.username/sasl.password for PLAIN and
//     SCRAM login modules, PEM trust/key stores -> ssl.ca.location/ssl.certificate.location/...);
//   - meaningless here (serializer/deserializer classes, max.poll.records, ...): dropped silently;
//   - Java-only with no equivalent (JKS stores, ...): dropped with a warning naming the key;
//   - reconnect.backoff.ms / reconnect.backoff.max.ms: Java's defaults (50 ms, 1 s) unless set;
//   - anything else: passed on; if librdkafka rejects it, MakeConfWithWarnings drops it with a
//     warning naming the key (never the value: it may be a secret).
// Standard library only: plugins (MirrorMaker's connectors) link it too.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace connectd::kafka {

struct TranslatedConfig {
  std::map<std::string, std::string> properties;  // librdkafka names
  std::vector<std::string> warnings;
};

TranslatedConfig TranslateJavaClientConfig(const std::map<std::string, std::string>& java);

}  // namespace connectd::kafka
