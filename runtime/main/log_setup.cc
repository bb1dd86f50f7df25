#include "runtime/main/log_setup.h"

#include <cstdlib>
#include <optional>

#include <sstream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/common/logging.h"
#include "runtime/config/log_config.h"

namespace connectd::main {

const char kLoggingUsage[] =
    "logging options (before the command; or CONNECTD_LOG_LEVEL, _CONFIG, _FILE, _FORMAT):\n"
    "  --log-level LEVEL            root level: TRACE DEBUG INFO WARN ERROR OFF\n"
    "  --log-config FILE            logger levels from connect-log4j2.yaml / log4j properties\n"
    "                               (default: the file KAFKA_LOG4J_OPTS names, if any)\n"
    "  --log-file FILE              append to FILE instead of stderr, rotated by size\n"
    "  --log-file-max-mb N          rotate past N MiB (default 100)\n"
    "  --log-file-backups N         keep FILE.1 .. FILE.N (default 10)\n"
    "  --log-format text|json       Connect's text layout, or one JSON object a line\n";

namespace {

constexpr char kLogger[] = "connectd.logging";

std::optional<std::string> Env(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return std::nullopt;
  return std::string(value);
}

// The configuration file of Java's scripts: -Dlog4j2.configurationFile=A[,B] (Kafka 4) or
// -Dlog4j.configuration=file:A (Kafka 3), "file:" URLs read as paths.
std::optional<std::string> FromKafkaLog4jOpts() {
  std::optional<std::string> opts = Env("KAFKA_LOG4J_OPTS");
  if (!opts) return std::nullopt;
  std::istringstream words(*opts);
  for (std::string word; words >> word;) {
    for (const std::string prefix : {"-Dlog4j2.configurationFile=", "-Dlog4j.configuration="}) {
      if (word.rfind(prefix, 0) != 0) continue;
      std::string first = word.substr(prefix.size());
      first = first.substr(0, first.find(','));
      for (const std::string scheme : {"file://", "file:"}) {
        if (first.rfind(scheme, 0) == 0) {
          first = first.substr(scheme.size());
          break;
        }
      }
      if (!first.empty()) return first;
    }
  }
  return std::nullopt;
}

}  // namespace

absl::Status SetUpLogging(std::vector<std::string>& args) {
  std::optional<std::string> level, config, file, format, max_mb, backups;
  size_t used = 0;
  while (used < args.size() && args[used].rfind("--log-", 0) == 0) {
    std::string name = args[used], value;
    if (size_t eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      used += 1;
    } else if (used + 1 < args.size()) {
      value = args[used + 1];
      used += 2;
    } else {
      return absl::InvalidArgumentError(absl::StrCat(name, " needs a value"));
    }
    if (name == "--log-level") {
      level = value;
    } else if (name == "--log-config") {
      config = value;
    } else if (name == "--log-file") {
      file = value;
    } else if (name == "--log-format") {
      format = value;
    } else if (name == "--log-file-max-mb") {
      max_mb = value;
    } else if (name == "--log-file-backups") {
      backups = value;
    } else {
      return absl::InvalidArgumentError(absl::StrCat("unknown option ", name));
    }
  }
  args.erase(args.begin(), args.begin() + static_cast<std::ptrdiff_t>(used));
  if (!level) level = Env("CONNECTD_LOG_LEVEL");
  if (!config) config = Env("CONNECTD_LOG_CONFIG");
  if (!config) config = FromKafkaLog4jOpts();
  if (!file) file = Env("CONNECTD_LOG_FILE");
  if (!format) format = Env("CONNECTD_LOG_FORMAT");

  log::OutputOptions output;
  if (format && *format != "text") {
    if (*format != "json") {
      return absl::InvalidArgumentError(
          absl::StrCat("--log-format must be text or json, not '", *format, "'"));
    }
    output.format = log::Format::kJson;
  }
  if (file) output.file = *file;
  if (max_mb) {
    int64_t mb = 0;
    if (!absl::SimpleAtoi(*max_mb, &mb) || mb < 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--log-file-max-mb must be a whole number of MiB, at least 1, not '", *max_mb, "'"));
    }
    output.file_max_bytes = mb << 20;
  }
  if (backups) {
    if (!absl::SimpleAtoi(*backups, &output.file_max_backups) || output.file_max_backups < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--log-file-backups must be a whole number, 0 or more, not '", *backups, "'"));
    }
  }
  output.syslog_priority = !file && log::StderrIsJournal();

  std::optional<config::LogLevelConfig> levels;
  if (config) {
    absl::StatusOr<config::LogLevelConfig> loaded = config::LoadLogLevelConfig(*config);
    if (!loaded.ok()) return loaded.status();
    levels = *std::move(loaded);
  }
  std::optional<log::Level> root;
  if (level) {
    root = log::ParseLevel(*level);
    if (!root) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--log-level must be one of TRACE, DEBUG, INFO, WARN, ERROR, OFF, not '", *level, "'"));
    }
  }
  if (absl::Status opened = log::ConfigureOutput(output); !opened.ok()) return opened;
  // Said before the levels apply, so that a quiet root level does not hide where they came from.
  if (levels) {
    CONNECTD_LOG(kInfo, kLogger) << "Logger levels from " << *config << ": root "
                                 << (levels->root ? log::LevelName(*levels->root) : "unchanged")
                                 << ", " << levels->loggers.size() << " logger(s)";
    if (!levels->skipped.empty()) {
      CONNECTD_LOG(kInfo, kLogger)
          << *config
          << ": only logger levels are read; not used: " << absl::StrJoin(levels->skipped, ", ")
          << " (connectd's output is set by --log-file and --log-format)";
    }
    config::ApplyLogLevels(*levels);
  }
  if (root) log::SetLevel("", *root);
  return absl::OkStatus();
}

}  // namespace connectd::main
