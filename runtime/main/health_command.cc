#include "runtime/main/health_command.h"

#include <chrono>
#include <iostream>
#include <map>

#include "absl/strings/str_cat.h"
#include "rest/rest_config.h"
#include "runtime/config/properties.h"
#include "runtime/main/get_once.h"

namespace connectd::main {
namespace {

constexpr char kUsage[] =
    "usage: connectd health [--url http(s)://HOST:PORT] [worker.properties]\n"
    "  asks the worker for GET /health: at --url, or at the first of the file's listeners\n"
    "  (TLS settings from the file)\n"
    "exit status: 0 serving, 1 not serving yet (or unhealthy), 2 usage, 3 cannot be reached\n";

int Usage(const std::string& message) {
  if (!message.empty()) std::cerr << "connectd health: " << message << "\n";
  std::cerr << kUsage;
  return 2;
}

// Where a client on this host reaches a listener.
std::string LocalUrl(const rest::ListenerSpec& listener) {
  std::string host = listener.host;
  if (host.empty() || host == "0.0.0.0") host = "127.0.0.1";
  if (host == "::" || host == "[::]") host = "[::1]";
  return absl::StrCat(listener.scheme, "://", host, ":", listener.port);
}

}  // namespace

int RunHealth(const std::vector<std::string>& args) {
  std::string url, config_path;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--url" && i + 1 < args.size()) {
      url = args[++i];
    } else if (!args[i].empty() && args[i][0] != '-' && config_path.empty()) {
      config_path = args[i];
    } else {
      return Usage(absl::StrCat("unexpected argument '", args[i], "'"));
    }
  }
  if (url.empty() && config_path.empty()) return Usage("give --url or a worker properties file");
  rest::TlsConfig tls;
  if (!config_path.empty()) {
    absl::StatusOr<config::Properties> props = config::LoadPropertiesFile(config_path);
    if (!props.ok()) return Usage(std::string(props.status().message()));
    absl::StatusOr<rest::RestConfig> rest_config =
        rest::ParseRestConfig(std::map<std::string, std::string>(props->begin(), props->end()));
    if (!rest_config.ok()) return Usage(std::string(rest_config.status().message()));
    tls = rest_config->tls;
    if (url.empty()) {
      if (rest_config->listeners.empty()) return Usage(config_path + " has no listeners");
      url = LocalUrl(rest_config->listeners.front());
    }
  }
  while (!url.empty() && url.back() == '/') url.pop_back();

  absl::StatusOr<rest::HttpClientResponse> response = GetOnce(
      url + "/health", tls, std::chrono::milliseconds(3000), std::chrono::milliseconds(10000));
  if (!response.ok()) {
    std::cerr << "connectd health: cannot reach " << url << ": " << response.status().message()
              << "\n";
    return 3;
  }
  std::cout << response->body << "\n";
  return response->status == 200 ? 0 : 1;
}

}  // namespace connectd::main
