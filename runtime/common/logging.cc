#include "runtime/common/logging.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <mutex>

#include "absl/strings/ascii.h"
#include "absl/strings/str_format.h"
#include "runtime/common/strings.h"

namespace connectd::log {
namespace {

struct Registry {
  std::mutex mu;
  std::map<std::string, Level, std::less<>> levels{{"", Level::kInfo}};
};

Registry& GetRegistry() {
  static Registry* registry = new Registry();  // never destroyed: used until process exit
  return *registry;
}

std::string_view Normalize(std::string_view logger) {
  return logger == "root" ? std::string_view() : logger;
}

Level EffectiveLevelLocked(Registry& registry, std::string_view logger) {
  std::string_view name = Normalize(logger);
  while (true) {
    auto it = registry.levels.find(name);
    if (it != registry.levels.end()) return it->second;
    if (name.empty()) return Level::kInfo;
    size_t dot = name.rfind('.');
    name = dot == std::string_view::npos ? std::string_view() : name.substr(0, dot);
  }
}

thread_local std::string current_context;

}  // namespace

std::optional<Level> ParseLevel(std::string_view text) {
  std::string upper = absl::AsciiStrToUpper(AsAbsl(text));
  if (upper == "TRACE") return Level::kTrace;
  if (upper == "DEBUG") return Level::kDebug;
  if (upper == "INFO") return Level::kInfo;
  if (upper == "WARN" || upper == "WARNING") return Level::kWarn;
  if (upper == "ERROR" || upper == "FATAL") return Level::kError;
  if (upper == "OFF") return Level::kOff;
  return std::nullopt;
}

std::string_view LevelName(Level level) {
  switch (level) {
    case Level::kTrace:
      return "TRACE";
    case Level::kDebug:
      return "DEBUG";
    case Level::kInfo:
      return "INFO";
    case Level::kWarn:
      return "WARN";
    case Level::kError:
      return "ERROR";
    case Level::kOff:
      return "OFF";
  }
  return "INFO";
}

Level EffectiveLevel(std::string_view logger) {
  Registry& registry = GetRegistry();
  std::lock_guard lock(registry.mu);
  return EffectiveLevelLocked(registry, logger);
}

void SetLevel(std::string_view logger, Level level) {
  Registry& registry = GetRegistry();
  std::lock_guard lock(registry.mu);
  registry.levels[std::string(Normalize(logger))] = level;
}

std::map<std::string, Level> ExplicitLevels() {
  Registry& registry = GetRegistry();
  std::lock_guard lock(registry.mu);
  std::map<std::string, Level> out;
  for (const auto& [name, level] : registry.levels) out[name.empty() ? "root" : name] = level;
  return out;
}

bool IsEnabled(Level level, std::string_view logger) {
  return level != Level::kOff && level >= EffectiveLevel(logger);
}

void Write(Level level, std::string_view logger, std::string_view message) {
  auto now = std::chrono::system_clock::now();
  std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  int millis = static_cast<int>(
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000);
  std::tm tm_utc;
  gmtime_r(&seconds, &tm_utc);
  char stamp[32];
  std::strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S", &tm_utc);
  const std::string& context = current_context;
  std::string line =
      absl::StrFormat("[%s,%03d] %s %s%s (%s)\n", stamp, millis, AsAbsl(LevelName(level)),
                      context.empty() ? "" : "[" + context + "] ", AsAbsl(message), AsAbsl(logger));
  // One write(2) per line keeps lines from different threads whole.
  ssize_t ignored = ::write(STDERR_FILENO, line.data(), line.size());
  (void)ignored;
}

LogContext::LogContext(std::string context) : previous_(std::move(current_context)) {
  current_context = std::move(context);
}

LogContext::~LogContext() { current_context = std::move(previous_); }

const std::string& LogContext::Current() { return current_context; }

}  // namespace connectd::log
