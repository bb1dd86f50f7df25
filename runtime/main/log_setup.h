// Logging at start-up, for every command: where lines go, in which format, and the loggers'
// levels. Options come before the command, as `connectd --log-level DEBUG distributed
// w.properties`:
//
//   --log-level LEVEL        the root logger's level (after the configuration file's)
//   --log-config FILE        logger levels from a log4j2 YAML/properties or log4j 1 properties
//                            file (runtime/config/log_config.h), as Kafka's connect-log4j2.yaml
//   --log-file FILE          append to FILE instead of stderr, rotated by size
//   --log-file-max-mb N      rotate past N MiB (default 100)
//   --log-file-backups N     keep FILE.1 .. FILE.N (default 10)
//   --log-format text|json   Connect's text layout (default) or one JSON object a line
//
// Each has an environment variable, read when the option is absent (for units and images):
// CONNECTD_LOG_LEVEL, CONNECTD_LOG_CONFIG, CONNECTD_LOG_FILE, CONNECTD_LOG_FORMAT. Without
// either, the file that Java's scripts take from KAFKA_LOG4J_OPTS (-Dlog4j2.configurationFile=
// or -Dlog4j.configuration=) gives the levels. On the journal, text lines carry their priority.
#pragma once

#include <string>
#include <vector>

#include "absl/status/status.h"

namespace connectd::main {

// Consumes the logging options at the front of `args` and configures logging from them. Fails
// with a message naming the bad option or file; nothing is logged before it returns.
absl::Status SetUpLogging(std::vector<std::string>& args);

// The options' lines for the usage text.
extern const char kLoggingUsage[];

}  // namespace connectd::main
