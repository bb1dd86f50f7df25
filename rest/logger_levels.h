// File: logger_levels.h
//
// Worker-scope logger levels for /admin/loggers, over connectd::log (runtime/common/logging.h),
// with Connect's Loggers semantics (4.x, log4j2):
//   - the known loggers are root, those with a level, and every logger code has used
//     (log4j's current loggers); each is listed with its effective level, OFF ones not;
//   - SetLevel(namespace) sets the namespace logger and every known logger below it (name
//     prefix "namespace."), or every known logger for root ("root" or "", any case); it returns
//     the sorted names whose level actually changed and stamps their `last_modified`;
//   - levels are log4j names: OFF, FATAL, ERROR, WARN, INFO, DEBUG, TRACE, ALL (any case).
//     connectd has no FATAL or ALL level: FATAL is stored as ERROR and ALL as TRACE.
//
// `last_modified` lives here (the logging module has no notion of it); a level changed by other
// code than this class keeps its previous stamp.
//
// Threads: every method may be called from any thread.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rest/json_entities.h"
#include "runtime/common/logging.h"

namespace connectd::rest {

class LoggerLevels {
 public:
  // `now_ms` gives wall-clock milliseconds since the epoch (injectable for tests).
  explicit LoggerLevels(std::function<int64_t()> now_ms = {});

  // log4j level name -> connectd level; nullopt if `name` is not a log4j level.
  static std::optional<log::Level> ParseLog4jLevel(std::string_view name);

  // Every known logger whose effective level is not OFF, by name ("root" for the root).
  std::map<std::string, LoggerLevel> AllLevels() const;

  // One known logger's effective level; nullopt when no logger has that name.
  std::optional<LoggerLevel> Level(std::string_view logger) const;

  // Sets `level` on the namespace and its known descendants; answers the changed loggers.
  std::vector<std::string> SetLevel(std::string_view name_space, log::Level level);

 private:
  // `level` with the logger's last_modified stamp.
  LoggerLevel Stamped(const std::string& name, log::Level level) const;

  std::function<int64_t()> now_ms_;
  mutable std::mutex mu_;
  std::map<std::string, int64_t> last_modified_;  // guarded by mu_
};

}  // namespace connectd::rest
