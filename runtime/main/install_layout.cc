#include "runtime/main/install_layout.h"

#include <system_error>

namespace connectd::main {

std::filesystem::path ExecutablePath() {
  std::error_code error;
  std::filesystem::path path = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::filesystem::path() : path;
}

std::string DefaultPluginPath() {
  const std::filesystem::path executable = ExecutablePath();
  if (executable.empty()) return "";
  const std::filesystem::path prefix = executable.parent_path().parent_path();
  for (const std::filesystem::path& candidate :
       {prefix / "lib" / "connectd" / "plugins", prefix / "plugins"}) {
    std::error_code error;
    if (std::filesystem::is_directory(candidate, error)) return candidate.string();
  }
  return "";
}

}  // namespace connectd::main
