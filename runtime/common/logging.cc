#include "runtime/common/logging.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <vector>
#include <cstring>
#include <ctime>
#include <mutex>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "jvm/java_text.h"
#include "jvm/utf8.h"
#include "runtime/common/strings.h"

namespace connectd::log {
namespace {

struct Registry {
  std::mutex mu;
  std::map<std::string, Level, std::less<>> levels{{"", Level::kInfo}};
  // Every logger name code has logged to or asked about (log4j's "current loggers").
  std::set<std::string, std::less<>> seen;
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

// The output: one per process, replaced by ConfigureOutput. A line is formatted outside `mu`;
// writers hold it only to write to a file (whose rotation renames under it); stderr lines are
// one write(2) each, without the lock.
struct Output {
  std::mutex mu;
  OutputOptions options;
  int fd = STDERR_FILENO;
  int64_t file_size = 0;
};

Output& GetOutput() {
  static Output* output = new Output();  // never destroyed: used until process exit
  return *output;
}

int SyslogPriority(Level level) {
  switch (level) {
    case Level::kError:
      return 3;
    case Level::kWarn:
      return 4;
    case Level::kInfo:
      return 6;
    default:
      return 7;
  }
}

void AppendJson(std::string_view key, std::string_view text, std::string& line) {
  absl::StrAppend(&line, line.size() > 1 ? "," : "", "\"", AsAbsl(key), "\":");
  if (jvm::IsValidUtf8(text)) {
    jvm::AppendJacksonString(text, line);
  } else {
    jvm::AppendJacksonString(jvm::ToJavaString(text), line);
  }
}

std::string FormatLine(Format format, bool syslog_priority, Level level, std::string_view logger,
                       std::string_view message) {
  auto now = std::chrono::system_clock::now();
  std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  int millis = static_cast<int>(
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000);
  std::tm tm_utc;
  gmtime_r(&seconds, &tm_utc);
  const std::string& context = current_context;
  if (format == Format::kJson) {
    char stamp[32];
    std::strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S", &tm_utc);
    std::string line = "{";
    AppendJson("timestamp", absl::StrFormat("%s.%03dZ", stamp, millis), line);
    AppendJson("level", LevelName(level), line);
    AppendJson("logger", logger, line);
    if (!context.empty()) AppendJson("context", context, line);
    AppendJson("message", message, line);
    line += "}\n";
    return line;
  }
  char stamp[32];
  std::strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S", &tm_utc);
  std::string prefix = syslog_priority ? absl::StrCat("<", SyslogPriority(level), ">") : "";
  return absl::StrFormat("%s[%s,%03d] %s %s%s (%s)\n", prefix, stamp, millis,
                         AsAbsl(LevelName(level)), context.empty() ? "" : "[" + context + "] ",
                         AsAbsl(message), AsAbsl(logger));
}

// FILE -> FILE.1 -> ... -> FILE.<backups>; the oldest goes. REQUIRES: output.mu held.
void RotateLocked(Output& output) {
  const std::string& file = output.options.file;
  const int backups = output.options.file_max_backups;
  if (backups > 0) {
    std::remove(absl::StrCat(file, ".", backups).c_str());
    for (int i = backups - 1; i >= 1; --i) {
      std::rename(absl::StrCat(file, ".", i).c_str(), absl::StrCat(file, ".", i + 1).c_str());
    }
    std::rename(file.c_str(), absl::StrCat(file, ".1").c_str());
  } else {
    std::remove(file.c_str());
  }
  int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0640);
  if (fd < 0) return;  // keep writing to the renamed file rather than lose lines
  ::close(output.fd);
  output.fd = fd;
  output.file_size = 0;
}

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
  Registry& registry = GetRegistry();
  std::lock_guard lock(registry.mu);
  std::string_view name = Normalize(logger);
  // Bounded: a plugin naming loggers after data must not grow the set without end.
  constexpr size_t kMaxKnownLoggers = 4096;
  if (!name.empty() && registry.seen.size() < kMaxKnownLoggers &&
      registry.seen.find(name) == registry.seen.end()) {
    registry.seen.emplace(name);
  }
  return level != Level::kOff && level >= EffectiveLevelLocked(registry, logger);
}

std::vector<std::string> KnownLoggers() {
  Registry& registry = GetRegistry();
  std::lock_guard lock(registry.mu);
  std::set<std::string> names(registry.seen.begin(), registry.seen.end());
  for (const auto& [name, level] : registry.levels) names.insert(name.empty() ? "root" : name);
  names.insert("root");
  return {names.begin(), names.end()};
}

absl::Status ConfigureOutput(const OutputOptions& options) {
  int fd = STDERR_FILENO;
  int64_t size = 0;
  if (!options.file.empty()) {
    fd = ::open(options.file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0640);
    if (fd < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("cannot open the log file ", options.file, ": ", std::strerror(errno)));
    }
    struct stat st;
    if (::fstat(fd, &st) == 0) size = st.st_size;
  }
  Output& output = GetOutput();
  std::lock_guard lock(output.mu);
  if (output.fd != STDERR_FILENO) ::close(output.fd);
  output.options = options;
  output.fd = fd;
  output.file_size = size;
  return absl::OkStatus();
}

bool StderrIsJournal() {
  const char* stream = std::getenv("JOURNAL_STREAM");
  if (stream == nullptr) return false;
  struct stat st;
  if (::fstat(STDERR_FILENO, &st) != 0) return false;
  unsigned long long device = 0, inode = 0;
  if (std::sscanf(stream, "%llu:%llu", &device, &inode) != 2) return false;
  return device == static_cast<unsigned long long>(st.st_dev) &&
         inode == static_cast<unsigned long long>(st.st_ino);
}

void Write(Level level, std::string_view logger, std::string_view message) {
  Output& output = GetOutput();
  Format format;
  bool syslog_priority, to_file;
  {
    std::lock_guard lock(output.mu);
    format = output.options.format;
    syslog_priority = output.options.syslog_priority && output.options.file.empty();
    to_file = output.fd != STDERR_FILENO;
  }
  const std::string line = FormatLine(format, syslog_priority, level, logger, message);
  if (to_file) {
    std::lock_guard lock(output.mu);
    if (output.fd != STDERR_FILENO) {
      if (output.file_size > 0 &&
          output.file_size + static_cast<int64_t>(line.size()) > output.options.file_max_bytes) {
        RotateLocked(output);
      }
      ssize_t written = ::write(output.fd, line.data(), line.size());
      if (written > 0) output.file_size += written;
      return;
    }
  }
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
