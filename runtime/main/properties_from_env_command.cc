#include "runtime/main/properties_from_env_command.h"

#include <unistd.h>

#include <cctype>
#include <iostream>

#include "runtime/config/properties.h"

extern char** environ;

namespace connectd::main {
namespace {

constexpr char kUsage[] = "usage: connectd properties-from-env PREFIX   (e.g. CONNECT_)\n";

// Kafka Connect images' rule: lower case; "___" -> "-", "__" -> "_", "_" -> ".".
std::string PropertyName(const std::string& name) {
  std::string out;
  for (size_t i = 0; i < name.size();) {
    if (name.compare(i, 3, "___") == 0) {
      out += '-';
      i += 3;
    } else if (name.compare(i, 2, "__") == 0) {
      out += '_';
      i += 2;
    } else if (name[i] == '_') {
      out += '.';
      i += 1;
    } else {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(name[i])));
      i += 1;
    }
  }
  return out;
}

}  // namespace

std::map<std::string, std::string> PropertiesFromEnvironment(
    const std::vector<std::string>& environment, const std::string& prefix) {
  std::map<std::string, std::string> out;
  for (const std::string& entry : environment) {
    const size_t eq = entry.find('=');
    if (eq == std::string::npos || eq <= prefix.size() || entry.compare(0, prefix.size(), prefix)) {
      continue;
    }
    out[PropertyName(entry.substr(prefix.size(), eq - prefix.size()))] = entry.substr(eq + 1);
  }
  return out;
}

int RunPropertiesFromEnv(const std::vector<std::string>& args) {
  if (args.size() != 1 || args[0].empty()) {
    std::cerr << kUsage;
    return 2;
  }
  std::vector<std::string> environment;
  for (char** entry = environ; *entry != nullptr; ++entry) environment.emplace_back(*entry);
  std::cout << config::FormatProperties(PropertiesFromEnvironment(environment, args[0]));
  std::cout.flush();
  return std::cout ? 0 : 1;
}

}  // namespace connectd::main
