// Java system properties on connectd's command line: `-Dname=value` before the command, as a
// JVM takes them (`connectd -Dorg.apache.kafka.sasl.oauthbearer.allowed.urls=https://idp/token
// distributed worker.properties`). They are appended to KAFKA_OPTS, where connectd reads Java's
// system properties (jvm/java_system_properties.h), before any thread starts, so they reach
// every part of the process, plugins included.
#pragma once

#include <string>
#include <vector>

#include "absl/status/status.h"

namespace connectd::main {

// Takes the -D options from the options before the command in `args` (logging options may
// stand between them) and appends them to KAFKA_OPTS. A -D option without a name, or one whose
// value holds whitespace (KAFKA_OPTS splits at whitespace, as Kafka's scripts do), fails naming
// it. Call first, single-threaded.
absl::Status TakeJavaSystemProperties(std::vector<std::string>& args);

extern const char kJavaOptionsUsage[];

}  // namespace connectd::main
