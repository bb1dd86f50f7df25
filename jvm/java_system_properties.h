// File: java_system_properties.h
//
// Java system properties as a Java worker started by Kafka's scripts would have them: the
// `-Dname=value` options of KAFKA_OPTS (kafka-run-class.sh passes $KAFKA_OPTS to the JVM unquoted,
// so it is split at whitespace, quotes kept; the last option of a name wins). Kafka's defences
// against hostile client configs are system properties, and connectd reads them here:
//   org.apache.kafka.sasl.oauthbearer.allowed.urls   (token endpoint URLs a client may fetch)
//   org.apache.kafka.disallowed.login.modules        (JAAS login modules refused)
//   java.security.auth.login.config                  (the JAAS file; "==PATH" replaces policy)
// `connectd -Dname=value COMMAND ...` appends to KAFKA_OPTS before anything else starts
// (runtime/main), so the option reaches every part of the process, plugins included.
//
// Thread safety: reads the environment; call only while nobody changes it (connectd sets
// KAFKA_OPTS once, before its first thread).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace connectd::jvm {

// The value of `-D<name>=...` in `kafka_opts` (the last wins); "-D<name>" alone gives "".
std::optional<std::string> JavaSystemPropertyIn(std::string_view kafka_opts,
                                                std::string_view name);

// The same in this process's KAFKA_OPTS.
std::optional<std::string> JavaSystemProperty(std::string_view name);

}  // namespace connectd::jvm
