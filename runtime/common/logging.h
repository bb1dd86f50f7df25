// File: logging.h
//
// Human-readable logging with named, hierarchical loggers whose levels can change at run time
// (the REST API's /admin/loggers). A line looks like Java Connect's default layout:
//
//   [2026-11-30 10:00:00,123] INFO [my-connector|task-0] Committing offsets (connectd.worker)
//   [task-thread-my-connector-0]
//
// Use:
//   CONNECTD_LOG(kInfo, "connectd.worker") << "started " << name;
//   LogContext ctx("my-connector|task-0");   // MDC-like, per thread, restored on scope exit
//
// Output (ConfigureOutput, at start-up): stderr by default; a file rotated by size; JSON lines
// instead of text; under systemd, stderr lines carry the syslog priority journald reads
// ("<3>" ERROR ... "<7>" DEBUG, sd-daemon(3)) so `journalctl -p warning` works.
//
// Thread safety: every function here may be called from any thread.
#pragma once

#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"

namespace connectd::log {

enum class Level { kTrace = 0, kDebug = 1, kInfo = 2, kWarn = 3, kError = 4, kOff = 5 };

// Parses "TRACE".."OFF" (any case; "WARNING" and "FATAL" as log4j aliases).
std::optional<Level> ParseLevel(std::string_view text);
std::string_view LevelName(Level level);

// The effective level of `logger`: its own level if set, else its nearest ancestor's
// ("a.b.c" -> "a.b" -> "a" -> root).
Level EffectiveLevel(std::string_view logger);

// Sets the level of `logger` and, as log4j does, its descendants that have no level of their own
// follow it. An empty name (or "root") is the root logger.
void SetLevel(std::string_view logger, Level level);

// Every logger that has an explicit level, with that level (root included).
std::map<std::string, Level> ExplicitLevels();

// Every logger the process knows, sorted, "root" included: those with a level and every name
// code has logged to or checked (log4j's current loggers, which /admin/loggers lists; the first
// 4096 names used, so that names made from data cannot grow it without end).
std::vector<std::string> KnownLoggers();

bool IsEnabled(Level level, std::string_view logger);

// Where and how lines are written.
enum class Format { kText, kJson };
struct OutputOptions {
  // kText: Connect's layout above. kJson: one object a line,
  // {"timestamp":"2026-11-30T10:00:00.123Z",
  // "level":"INFO","logger":...,"context":...,"message":...} ("context" when set; text that is not
  // UTF-8 is written with U+FFFD in its place, as Java would decode it).
  Format format = Format::kText;
  // Empty: stderr. Else appended to this file; past file_max_bytes it is renamed FILE.1 (FILE.1
  // to FILE.2 ..., the oldest beyond file_max_backups removed) and a new FILE is started.
  std::string file;
  int64_t file_max_bytes = int64_t{100} << 20;
  int file_max_backups = 10;
  // "<N>" syslog priority before each text line on stderr, for journald (sd-daemon(3)).
  bool syslog_priority = false;
};

// Replaces the output (any thread; lines already being written finish on the old one). Fails,
// changing nothing, if the file cannot be opened for appending.
absl::Status ConfigureOutput(const OutputOptions& options);

// True if stderr is connected to the journal (systemd's JOURNAL_STREAM names its device and
// inode), so that syslog priorities should be prefixed.
bool StderrIsJournal();

// Writes one formatted line (thread-safe, one write per line).
void Write(Level level, std::string_view logger, std::string_view message);

// Scoped per-thread context printed in brackets, like Connect's MDC `connector.context`.
class LogContext {
 public:
  explicit LogContext(std::string context);
  ~LogContext();
  LogContext(const LogContext&) = delete;
  LogContext& operator=(const LogContext&) = delete;

  static const std::string& Current();

 private:
  std::string previous_;
};

// Collects one message and writes it when destroyed.
class LogMessage {
 public:
  LogMessage(Level level, std::string_view logger) : level_(level), logger_(logger) {}
  ~LogMessage() { Write(level_, logger_, stream_.str()); }
  std::ostream& stream() { return stream_; }

 private:
  Level level_;
  std::string_view logger_;
  std::ostringstream stream_;
};

}  // namespace connectd::log

#define CONNECTD_LOG(level, logger)                                         \
  if (!::connectd::log::IsEnabled(::connectd::log::Level::level, logger)) { \
  } else                                                                    \
    ::connectd::log::LogMessage(::connectd::log::Level::level, logger).stream()
