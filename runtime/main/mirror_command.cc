#include "runtime/main/mirror_command.h"

#include <iostream>
#include <map>
#include <optional>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "runtime/config/properties.h"
#include "runtime/mirror_maker/failover/group_failover.h"
#include "runtime/mirror_maker/mirror_maker_config.h"

namespace connectd::main {
namespace {

constexpr char kUsage[] =
    "usage: connectd mirror translate-offsets --group G --source A TARGET [--json] "
    "[--timeout-ms N]\n"
    "       connectd mirror failover --group G --source A TARGET [--dry-run] [--json] "
    "[--timeout-ms N]\n"
    "  TARGET: --config mm2.properties --target B\n"
    "       or --bootstrap-server HOST:PORT [--command-config client.properties]\n"
    "  translate-offsets: where the group resumes on the target, from the checkpoints there\n"
    "  failover: commit those offsets to the group on the target (refused while it has members\n"
    "            there; partitions where it is already at or past them are kept)\n"
    "exit status: 0 done, 1 refused or failed (nothing committed), 2 usage\n";

int Usage(const std::string& message) {
  if (!message.empty()) std::cerr << "connectd mirror: " << message << "\n";
  std::cerr << kUsage;
  return 2;
}

struct Arguments {
  std::string command, group, source, config, target, bootstrap, command_config;
  bool json = false;
  bool dry_run = false;
  int64_t timeout_ms = 30000;
};

std::optional<std::string> Parse(const std::vector<std::string>& args, Arguments& out) {
  if (args.empty()) return "give translate-offsets or failover";
  out.command = args[0];
  if (out.command != "translate-offsets" && out.command != "failover") {
    return absl::StrCat("unknown command '", out.command, "'");
  }
  const std::map<std::string, std::string*> values = {{"--group", &out.group},
                                                      {"--source", &out.source},
                                                      {"--config", &out.config},
                                                      {"--target", &out.target},
                                                      {"--bootstrap-server", &out.bootstrap},
                                                      {"--command-config", &out.command_config}};
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--json") {
      out.json = true;
    } else if (arg == "--dry-run" && out.command == "failover") {
      out.dry_run = true;
    } else if (arg == "--timeout-ms" && i + 1 < args.size()) {
      if (!absl::SimpleAtoi(args[++i], &out.timeout_ms) || out.timeout_ms <= 0) {
        return absl::StrCat("--timeout-ms wants a positive number of milliseconds, not '", args[i],
                            "'");
      }
    } else if (auto it = values.find(arg); it != values.end() && i + 1 < args.size()) {
      *it->second = args[++i];
    } else {
      return absl::StrCat("unexpected argument '", arg, "'");
    }
  }
  if (out.group.empty()) return "give --group";
  if (out.source.empty()) return "give --source (the source cluster's alias)";
  if (out.config.empty() == out.bootstrap.empty()) {
    return "give either --config mm2.properties --target B or --bootstrap-server";
  }
  if (!out.config.empty() && out.target.empty()) return "--config needs --target";
  if (out.config.empty() && !out.target.empty()) return "--target goes with --config";
  if (!out.config.empty() && !out.command_config.empty()) {
    return "--command-config goes with --bootstrap-server";
  }
  return std::nullopt;
}

// The target's client settings and the replication policy, from the MirrorMaker file.
absl::Status FromMirrorMakerFile(const Arguments& args, mirror_maker::FailoverRequest& request) {
  absl::StatusOr<config::Properties> raw = config::LoadPropertiesFile(args.config);
  if (!raw.ok()) return raw.status();
  absl::StatusOr<mirror_maker::MirrorMakerConfig> config =
      mirror_maker::MirrorMakerConfig::Create(*std::move(raw));
  if (!config.ok()) return config.status();
  if (!config->clusters().count(args.target)) {
    return absl::InvalidArgumentError(
        absl::StrCat("cluster '", args.target, "' is not in ", args.config, "'s clusters"));
  }
  // The herder's worker properties: the target's settings with providers resolved.
  absl::StatusOr<config::Properties> worker = config->WorkerProperties({args.source, args.target});
  if (!worker.ok()) return worker.status();
  const std::set<std::string>& client_names = mirror_maker::ClientConfigNames();
  for (const auto& [key, value] : *worker) {
    if (client_names.count(key)) request.target_client[key] = value;
    if (absl::StartsWith(key, "replication.policy.")) request.policy[key] = value;
  }
  return absl::OkStatus();
}

}  // namespace

int RunMirror(const std::vector<std::string>& args) {
  Arguments parsed;
  if (std::optional<std::string> error = Parse(args, parsed)) return Usage(*error);
  mirror_maker::FailoverRequest request;
  request.source_alias = parsed.source;
  request.group = parsed.group;
  request.timeout = std::chrono::milliseconds(parsed.timeout_ms);
  if (!parsed.config.empty()) {
    if (absl::Status status = FromMirrorMakerFile(parsed, request); !status.ok()) {
      std::cerr << "connectd mirror: " << status.message() << "\n";
      return 1;
    }
  } else {
    if (!parsed.command_config.empty()) {
      absl::StatusOr<config::Properties> client = config::LoadPropertiesFile(parsed.command_config);
      if (!client.ok()) {
        std::cerr << "connectd mirror: " << client.status().message() << "\n";
        return 1;
      }
      request.target_client.insert(client->begin(), client->end());
    }
    request.target_client["bootstrap.servers"] = parsed.bootstrap;
  }
  absl::StatusOr<mirror_maker::GroupTranslation> result =
      parsed.command == "failover" ? mirror_maker::FailoverGroup(request, parsed.dry_run)
                                   : mirror_maker::TranslateGroupOffsets(request);
  if (!result.ok()) {
    std::cerr << "connectd mirror " << parsed.command << ": " << result.status().message() << "\n";
    return 1;
  }
  std::cout << (parsed.json ? mirror_maker::GroupTranslationJson(*result) + "\n"
                            : mirror_maker::GroupTranslationText(*result));
  return 0;
}

}  // namespace connectd::main
