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
//   - key stores: PEM files by name; JKS and PKCS12 stores (Java's default type is JKS) read
//     into PEM strings (ssl.ca.pem, ssl.certificate.pem, ssl.key.pem; java_key_store.h), only
//     when security.protocol uses TLS, as Java reads them only then;
//   - security keys with no librdkafka equivalent (ssl.protocol, ssl.enabled.protocols, the
//     key/trust manager algorithms, Java provider and callback classes): accepted when the value
//     asks for nothing connectd's clients do not do, otherwise an error naming the key: never
//     dropped; ssl.cipher.suites mapped from IANA to OpenSSL names; client.dns.lookup passed on;
//   - Java 4.4's client defaults where librdkafka's differ (java_client_defaults.h), per
//     client role, unless the user set the key;
//   - Java client keys librdkafka has no counterpart of (partitioner.class, config.providers,
//     ...): ignored with a warning;
//   - librdkafka's own properties: passed on only if its allow-list says so
//     (librdkafka_properties.h): never one that loads code, runs a command, writes files or takes
//     a callback, from any config; refused naming the key;
//   - anything else (a key neither Java's clients nor librdkafka know): refused naming the key,
//     or, with -Dconnectd.client.unknown.configs=ignore (KAFKA_OPTS), ignored with a warning as
//     Java's clients ignore it;
//   - and at the end, whatever the rules made: only allow-listed properties leave, a Kerberos
//     principal or keytab in its syntax, an OAuth token URL listed in Java's
//     org.apache.kafka.sasl.oauthbearer.allowed.urls, a JAAS login module Java's
//     org.apache.kafka.(dis)allowed.login.modules allow. Every config a connectd client gets
//     passes here: this is the choke point for hostile configs (docs/security.md).
// The standard library and OpenSSL: plugins (MirrorMaker's connectors) link it too.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "jvm/java_client_defaults.h"

namespace connectd::jvm {

// The switch that makes unknown client configs a warning instead of an error (see above).
inline constexpr char kUnknownClientConfigsProperty[] = "connectd.client.unknown.configs";

struct TranslatedConfig {
  std::map<std::string, std::string> properties;  // librdkafka names
  // The keys of `properties` that carry a Java client default rather than a user's setting.
  std::set<std::string> java_defaults;
  std::vector<std::string> warnings;
  // Settings connectd cannot honour as Java would (a security key asking for what the clients
  // cannot do, a key store that cannot be read): the client must not be created. Each names the
  // key and never holds a secret.
  std::vector<std::string> errors;
};

TranslatedConfig TranslateJavaClientConfig(const std::map<std::string, std::string>& java,
                                           ClientRole role);

// Whether TranslateJavaClientConfig knows `key`: a Java client's (kafka-clients 4.4) or one of
// librdkafka's properties, whatever it does with it. A worker config's other keys (converters,
// topics, the group's settings) are no client's.
bool IsKafkaClientConfig(const std::string& key);

// `base` (a caller's own settings for the client, e.g. Connect's source producer config)
// overlaid with `translated`: what the user set replaces base, while Java's client defaults
// only fill what base leaves unset (Connect's settings outrank the client library's defaults,
// as Java's Worker puts them over ProducerConfig's).
std::map<std::string, std::string> OverlayOn(std::map<std::string, std::string> base,
                                             const TranslatedConfig& translated);

}  // namespace connectd::jvm
