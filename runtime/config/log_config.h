// Logger levels from the logging configuration a Kafka Connect team already has:
//
//   log4j2 YAML (Kafka 4.x's config/connect-log4j2.yaml)
//       Configuration.Loggers.Root.level, Configuration.Loggers.Logger[].name / .level
//   log4j2 properties (log4j2.properties)
//       rootLogger.level, or rootLogger = LEVEL[, APPENDER...]; logger.<id>.name / .level
//   log4j 1 properties (Kafka 3.x's config/connect-log4j.properties)
//       log4j.rootLogger = LEVEL[, APPENDER...]; log4j.logger.<name> = LEVEL[, APPENDER...]
//
// A file whose name ends in .yaml or .yml is read as YAML, any other as properties (log4j 1 when
// a key starts with "log4j."). Only levels are taken: appenders, layouts and filters configure
// Java's output, which connectd sets with its own options (logging.h's OutputOptions); the keys
// skipped are listed so the caller can say so. A level that is not TRACE..OFF is an error naming
// the logger; so is a YAML line the reader does not understand.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/common/logging.h"

namespace connectd::config {

struct LogLevelConfig {
  std::optional<log::Level> root;
  std::map<std::string, log::Level> loggers;  // by logger name
  std::vector<std::string> skipped;           // settings of appenders, layouts, ... not applied
};

absl::StatusOr<LogLevelConfig> ParseLogLevelConfig(std::string_view text, bool yaml);

// Reads `path` (YAML by its extension, as above).
absl::StatusOr<LogLevelConfig> LoadLogLevelConfig(const std::string& path);

// Sets the levels (root first, then each logger).
void ApplyLogLevels(const LogLevelConfig& config);

}  // namespace connectd::config
