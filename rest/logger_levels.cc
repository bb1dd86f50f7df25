#include "rest/logger_levels.h"

#include <algorithm>
#include <chrono>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "runtime/common/strings.h"

namespace connectd::rest {
namespace {

constexpr char kRoot[] = "root";

bool IsRootName(std::string_view name) {
  return name.empty() || absl::EqualsIgnoreCase(AsAbsl(name), kRoot);
}

int64_t SystemNowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

LoggerLevels::LoggerLevels(std::function<int64_t()> now_ms)
    : now_ms_(now_ms ? std::move(now_ms) : SystemNowMs) {}

std::optional<log::Level> LoggerLevels::ParseLog4jLevel(std::string_view name) {
  std::string upper = absl::AsciiStrToUpper(AsAbsl(name));
  if (upper == "OFF") return log::Level::kOff;
  if (upper == "FATAL" || upper == "ERROR") return log::Level::kError;
  if (upper == "WARN") return log::Level::kWarn;
  if (upper == "INFO") return log::Level::kInfo;
  if (upper == "DEBUG") return log::Level::kDebug;
  if (upper == "TRACE" || upper == "ALL") return log::Level::kTrace;
  return std::nullopt;
}

std::map<std::string, LoggerLevel> LoggerLevels::AllLevels() const {
  std::map<std::string, LoggerLevel> out;
  for (const std::string& name : log::KnownLoggers()) {
    const log::Level level = log::EffectiveLevel(name == kRoot ? std::string_view() : name);
    if (level != log::Level::kOff) out.emplace(name, Stamped(name, level));
  }
  return out;
}

LoggerLevel LoggerLevels::Stamped(const std::string& name, log::Level level) const {
  LoggerLevel out{std::string(log::LevelName(level)), std::nullopt};
  std::lock_guard lock(mu_);
  if (auto m = last_modified_.find(name); m != last_modified_.end()) out.last_modified = m->second;
  return out;
}

std::optional<LoggerLevel> LoggerLevels::Level(std::string_view logger) const {
  std::string name = IsRootName(logger) ? kRoot : std::string(logger);
  std::vector<std::string> known = log::KnownLoggers();
  if (!std::binary_search(known.begin(), known.end(), name)) return std::nullopt;
  return Stamped(name, log::EffectiveLevel(name == kRoot ? std::string_view() : name));
}

std::vector<std::string> LoggerLevels::SetLevel(std::string_view name_space, log::Level level) {
  std::lock_guard lock(mu_);
  bool root = IsRootName(name_space);
  std::string ns = root ? kRoot : std::string(name_space);
  std::map<std::string, log::Level> before = log::ExplicitLevels();

  // The namespace logger itself, then every known logger below it.
  std::vector<std::string> targets{ns};
  for (const std::string& name : log::KnownLoggers()) {
    if (name == ns || name == kRoot) continue;
    if (root || absl::StartsWith(name, ns + ".")) targets.push_back(name);
  }

  std::vector<std::string> changed;
  int64_t now = now_ms_();
  for (const std::string& name : targets) {
    auto old = before.find(name);
    // A logger without its own level had none to keep: Connect counts it as changed.
    bool differs = old == before.end() || old->second != level;
    log::SetLevel(name == kRoot ? std::string_view() : std::string_view(name), level);
    if (differs) {
      changed.push_back(name);
      last_modified_[name] = now;
    }
  }
  std::sort(changed.begin(), changed.end());
  return changed;
}

}  // namespace connectd::rest
