#include "runtime/main/java_options.h"

#include <cstdlib>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace connectd::main {

const char kJavaOptionsUsage[] =
    "Java system properties (before the command; added to KAFKA_OPTS, where they are read):\n"
    "  -Dorg.apache.kafka.sasl.oauthbearer.allowed.urls=URL[,URL]\n"
    "                               OAuth token endpoints clients may fetch (none by default)\n"
    "  -Dorg.apache.kafka.allowed.login.modules=CLASS[,CLASS]\n"
    "                               the JAAS login modules client configs may name\n"
    "  -Dconnectd.client.unknown.configs=ignore\n"
    "                               ignore client configs no client knows (default: refuse)\n";

absl::Status TakeJavaSystemProperties(std::vector<std::string>& args) {
  std::string added;
  size_t i = 0;
  while (i < args.size()) {
    const std::string& arg = args[i];
    if (absl::StartsWith(arg, "-D")) {
      const size_t eq = arg.find('=');
      if (arg.size() == 2 || eq == 2) {
        return absl::InvalidArgumentError(absl::StrCat(arg, ": a -D option needs a name"));
      }
      if (arg.find_first_of(" \t\n\r") != std::string::npos) {
        return absl::InvalidArgumentError(absl::StrCat(
            arg.substr(0, eq), ": a -D option's value must not hold whitespace (KAFKA_OPTS is "
                               "split at whitespace)"));
      }
      added += " " + arg;
      args.erase(args.begin() + static_cast<long>(i));
    } else if (absl::StartsWith(arg, "--log-")) {
      i += arg.find('=') == std::string::npos ? 2 : 1;  // the logging option and its value
    } else {
      break;  // the command
    }
  }
  if (!added.empty()) {
    const char* current = std::getenv("KAFKA_OPTS");
    const std::string opts = absl::StrCat(current != nullptr ? current : "", added);
    setenv("KAFKA_OPTS", opts.c_str(), 1);
  }
  return absl::OkStatus();
}

}  // namespace connectd::main
