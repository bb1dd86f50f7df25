#include "runtime/main/mirror_maker_command.h"

#include <iostream>
#include <memory>
#include <optional>
#include <thread>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "rest/json_entities.h"
#include "rest/rest_client.h"
#include "rest/rest_config.h"
#include "rest/rest_server.h"
#include "rest/router.h"
#include "runtime/common/logging.h"
#include "runtime/config/properties.h"
#include "runtime/distributed/distributed_herder.h"
#include "runtime/distributed/request_signing.h"
#include "runtime/main/distributed_command.h"
#include "runtime/main/flow_health_setup.h"
#include "runtime/main/install_layout.h"
#include "runtime/main/internal_requests.h"
#include "runtime/main/service_notify.h"
#include "runtime/main/worker_setup.h"
#include "runtime/mirror_maker/connector_config_names.h"
#include "runtime/mirror_maker/mirror_herder.h"
#include "runtime/mirror_maker/mirror_maker_config.h"
#include "runtime/worker/worker.h"

namespace connectd::main {
namespace {

using mirror_maker::MirrorMakerConfig;
using mirror_maker::SourceAndTarget;

constexpr char kLogger[] = "org.apache.kafka.connect.mirror.MirrorMaker";
constexpr char kUsage[] =
    "usage: connectd mirror-maker mm2.properties [--clusters CLUSTER [CLUSTER ...]]\n"
    "\n"
    "MirrorMaker 2 in dedicated mode, on Kafka's connect-mirror-maker.properties format.\n"
    "  mm2.properties         clusters, <alias>.bootstrap.servers, <src>-><tgt>.enabled, ...\n"
    "  --clusters CLUSTER...  run only the flows whose target is one of these clusters\n";
// Java's advertised URL when the internal REST server is off (nothing can reach it).
constexpr char kNoRestUrl[] = "NOTUSED";
constexpr char kNoRestMessage[] =
    "This worker is not able to communicate with the leader of the cluster, which is required "
    "for dynamically-reconfiguring connectors. If running MirrorMaker 2 in dedicated mode, "
    "consider enabling inter-worker communication via the "
    "'dedicated.mode.enable.internal.rest' property.";

int Fail(const std::string& message) {
  std::cerr << "connectd mirror-maker: " << message << "\n";
  return 1;
}

struct Arguments {
  std::string config_path;
  std::vector<std::string> clusters;
};

// argparse4j's rules as Java's MirrorMaker declares them: one positional file, `--clusters`
// followed by at least one alias.
absl::StatusOr<Arguments> ParseArguments(const std::vector<std::string>& args) {
  Arguments out;
  bool have_path = false;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--clusters") {
      size_t first = i + 1;
      while (i + 1 < args.size() && args[i + 1].rfind("--", 0) != 0) {
        out.clusters.push_back(args[++i]);
      }
      if (i + 1 == first) {
        return absl::InvalidArgumentError("argument --clusters: expected at least one argument");
      }
    } else if (args[i].rfind("--", 0) == 0) {
      return absl::InvalidArgumentError(absl::StrCat("unrecognized arguments: '", args[i], "'"));
    } else if (!have_path) {
      out.config_path = args[i];
      have_path = true;
    } else {
      return absl::InvalidArgumentError(absl::StrCat("unrecognized arguments: '", args[i], "'"));
    }
  }
  if (!have_path) return absl::InvalidArgumentError("too few arguments");
  return out;
}

// POST|PUT {leader}/{src}/{tgt}/connectors/{c}/{suffix}, signed with the session key as
// Connect's follower signs (Java's DistributedHerder.namespacedUrl).
void SendToLeader(rest::RestClient* client, const std::string& leader_url,
                  const std::string& namespace_path, const std::string& connector,
                  const std::string& method, const std::string& suffix, std::string body,
                  const std::optional<storage::SessionKey>& key,
                  const std::string& signature_algorithm, std::function<void(absl::Status)> done) {
  if (client == nullptr || leader_url.empty() || leader_url == kNoRestUrl) {
    return done(herder::ForwardRequiredError(kNoRestMessage, ""));
  }
  SendSignedToLeader(*client, leader_url, namespace_path, connector, method, suffix,
                     std::move(body), key, signature_algorithm, std::move(done));
}

// One replication flow's herder and what it needs to outlive it.
struct Flow {
  SourceAndTarget pair;
  std::string namespace_path;
  config::ConfigProviders providers;
  std::optional<config::WorkerConfig> worker_config;
  std::unique_ptr<mirror_maker::MirrorConnectorsWriter> writer;
  std::unique_ptr<distributed::DistributedHerder> herder;
};

// Builds the herder of `pair` (not started). `client` is null without internal REST.
absl::StatusOr<std::unique_ptr<Flow>> MakeFlow(
    const MirrorMakerConfig& config, const SourceAndTarget& pair,
    const std::set<std::string>& connector_names, const plugin::PluginRegistry& plugins,
    metrics::MetricsRegistry& metrics, boost::asio::io_context& control, rest::RestClient* client) {
  auto flow = std::make_unique<Flow>();
  flow->pair = pair;
  flow->namespace_path = mirror_maker::RestNamespacePath(pair);
  absl::StatusOr<mirror_maker::Properties> props = config.WorkerProperties(pair);
  if (!props.ok()) return props.status();
  absl::StatusOr<config::ConfigProviders> providers = config::ConfigProviders::Create(*props);
  if (!providers.ok()) return providers.status();
  flow->providers = *std::move(providers);
  absl::StatusOr<config::WorkerConfig> worker_config =
      config::WorkerConfig::Create(*props, config::WorkerMode::kDistributed);
  if (!worker_config.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("worker config of ", pair.ToString(), ": ", worker_config.status().message()));
  }
  for (const std::string& warning : worker_config->warnings()) {
    CONNECTD_LOG(kWarn, kLogger) << pair.ToString() << ": " << warning;
  }
  flow->worker_config = *std::move(worker_config);
  absl::StatusOr<std::string> cluster_id = LookupClusterId(*flow->worker_config);
  if (!cluster_id.ok()) {
    return absl::UnavailableError(
        absl::StrCat("cluster ", pair.target, ": ", cluster_id.status().message()));
  }
  absl::StatusOr<distributed::DistributedHerder::Options> options =
      DistributedHerderOptions(*flow->worker_config, *cluster_id);
  if (!options.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("worker config of ", pair.ToString(), ": ", options.status().message()));
  }

  std::map<std::string, mirror_maker::Properties> desired;
  for (mirror_maker::MirrorConnector connector : mirror_maker::kMirrorConnectors) {
    desired[mirror_maker::ConnectorName(connector)] =
        config.ConnectorConfig(pair, connector, connector_names);
  }
  flow->writer = std::make_unique<mirror_maker::MirrorConnectorsWriter>(pair, std::move(desired));
  options->on_fatal = StopOnFatalHerderError;
  options->on_rebalance_success = [writer = flow->writer.get()](bool is_leader) {
    writer->OnRebalance(is_leader);
  };
  const std::string algorithm = options->signature_algorithm;
  const std::string ns = flow->namespace_path;
  options->forward_fence = [client, ns, algorithm](const std::string& leader_url,
                                                   const std::string& connector,
                                                   const std::optional<storage::SessionKey>& key,
                                                   std::function<void(absl::Status)> done) {
    SendToLeader(client, leader_url, ns, connector, "PUT", "fence", "", key, algorithm,
                 std::move(done));
  };
  distributed::DistributedHerder::TaskConfigForwarder forward_tasks =
      [client, ns, algorithm](const std::string& leader_url, const std::string& connector,
                              const std::vector<herder::ConfigMap>& configs,
                              const std::optional<storage::SessionKey>& key,
                              std::function<void(absl::Status)> done) {
        SendToLeader(client, leader_url, ns, connector, "POST", "tasks",
                     rest::TaskConfigsJson(configs), key, algorithm, std::move(done));
      };

  Flow* raw = flow.get();
  flow->herder = std::make_unique<distributed::DistributedHerder>(
      *std::move(options), plugins, control,
      [raw, &plugins, &metrics](worker::StatusListener& listener, worker::ConnectorEvents& events,
                                const std::string& worker_id, worker::OffsetStoreFactory offsets) {
        return std::make_unique<worker::Worker>(*raw->worker_config, plugins, raw->providers,
                                                std::move(offsets), listener, events, worker_id,
                                                metrics);
      },
      std::move(forward_tasks));
  flow->writer->Attach(*flow->herder);
  return flow;
}

// plugin.path from the top level of mm2.properties (Java's MirrorMakerConfig loads its plugins
// from there), else the plugins shipped with the binary.
void LoadMirrorPlugins(const MirrorMakerConfig& config, plugin::PluginRegistry& plugins) {
  std::string plugin_path;
  if (auto it = config.originals().find("plugin.path"); it != config.originals().end()) {
    plugin_path = it->second;
  }
  if (plugin_path.empty()) plugin_path = DefaultPluginPath();
  if (!plugin_path.empty()) plugins.LoadPluginPath(plugin_path);
}

}  // namespace

int RunMirrorMaker(const std::vector<std::string>& args) {
  for (const std::string& arg : args) {
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return 0;
    }
  }
  absl::StatusOr<Arguments> arguments = ParseArguments(args);
  if (!arguments.ok()) {
    std::cerr << "connectd mirror-maker: " << arguments.status().message() << "\n\n" << kUsage;
    return 2;
  }
  const sigset_t stop_signals = BlockStopSignals();
  absl::StatusOr<config::Properties> raw = config::LoadPropertiesFile(arguments->config_path);
  if (!raw.ok()) return Fail(std::string(raw.status().message()));
  absl::StatusOr<MirrorMakerConfig> config = MirrorMakerConfig::Create(*std::move(raw));
  if (!config.ok()) {
    return Fail(absl::StrCat(arguments->config_path, ": ", config.status().message()));
  }
  absl::StatusOr<std::vector<SourceAndTarget>> pairs = config->HerderPairs(arguments->clusters);
  if (!pairs.ok()) return Fail(std::string(pairs.status().message()));
  std::vector<std::string> pair_names;
  for (const SourceAndTarget& pair : *pairs) pair_names.push_back(pair.ToString());
  CONNECTD_LOG(kInfo, kLogger) << "Kafka MirrorMaker initializing with " << pairs->size()
                               << " herders: " << absl::StrJoin(pair_names, ", ");

  std::optional<rest::RestConfig> rest_config;
  if (config->enable_internal_rest()) {
    // Java's internal REST config (RestServerConfig.forInternal): no REST extensions, no admin
    // listeners, whatever the file says.
    std::map<std::string, std::string> rest_props = config->originals();
    rest_props.erase("rest.extension.classes");
    rest_props.erase("admin.listeners");
    absl::StatusOr<rest::RestConfig> parsed = rest::ParseRestConfig(rest_props);
    if (!parsed.ok()) return Fail(std::string(parsed.status().message()));
    rest_config = *std::move(parsed);
  }

  plugin::PluginRegistry plugins;
  LoadMirrorPlugins(*config, plugins);
  const std::set<std::string> connector_names = mirror_maker::ConnectorConfigNames(plugins);

  boost::asio::io_context control;
  auto work = boost::asio::make_work_guard(control);
  std::thread control_thread([&control] { control.run(); });
  std::shared_ptr<rest::RestClient> client;
  if (rest_config) {
    client = std::make_shared<rest::RestClient>(control, rest_config->tls);
  }

  // One registry for every herder's workers: the MirrorMaker metrics carry the flow in their
  // tags; Connect's connector/task metrics of the same-named connectors of two flows shadow
  // each other (docs/compatibility.md), as Java's JMX beans of two herders collide.
  // metrics.recording.level at the top level (each flow's worker config validates it).
  metrics::RecordingLevel served_level = metrics::RecordingLevel::kInfo;
  if (auto it = config->originals().find("metrics.recording.level");
      it != config->originals().end()) {
    served_level = metrics::ParseRecordingLevel(it->second).value_or(served_level);
  }
  metrics::MetricsRegistry metrics({}, served_level);
  int exit_code = 0;
  std::vector<std::unique_ptr<Flow>> flows;
  for (const SourceAndTarget& pair : *pairs) {
    absl::StatusOr<std::unique_ptr<Flow>> flow =
        MakeFlow(*config, pair, connector_names, plugins, metrics, control, client.get());
    if (!flow.ok()) {
      exit_code = Fail(std::string(flow.status().message()));
      break;
    }
    flows.push_back(*std::move(flow));
  }

  std::unique_ptr<rest::RestServer> server;
  std::unique_ptr<health::FlowHealth> flow_health;
  std::unique_ptr<mirror_maker::GroupFailoverService> failover;  // uses flow_health
  if (exit_code == 0 && rest_config) {
    rest::RestServer::Options server_options;
    server_options.rest_client = client;
    server_options.metrics = &metrics;  // GET /metrics on the node's listener
    // Flow health (runtime/mirror_maker/health) over every herder, at GET /mirror/flows on this
    // listener.
    flow_health = MakeFlowHealth(*flows.front()->herder, metrics, flows.front()->providers, control,
                                 &*rest_config);
    for (size_t i = 1; i < flows.size(); ++i) flow_health->AddHerder(*flows[i]->herder);
    server_options.flow_health = flow_health.get();
    failover = MakeGroupFailover(*flow_health);
    server_options.group_failover = failover.get();
    for (const auto& flow : flows) {
      server_options.mirror_herders[{flow->pair.source, flow->pair.target}] = flow->herder.get();
    }
    server = std::make_unique<rest::RestServer>(control, *flows.front()->herder, *rest_config,
                                                std::move(server_options));
    absl::StatusOr<std::vector<rest::BoundListener>> bound = server->Start();
    if (!bound.ok()) {
      exit_code = Fail(std::string(bound.status().message()));
    } else {
      for (const rest::BoundListener& listener : *bound) {
        CONNECTD_LOG(kInfo, kLogger)
            << "Internal REST server listening on " << listener.scheme << "://" << listener.host
            << ":" << listener.port << ", advertised URL " << server->AdvertisedUrl();
      }
    }
  }

  if (exit_code == 0) {
    const std::string advertised = server ? server->AdvertisedUrl() : kNoRestUrl;
    for (const auto& flow : flows) {
      flow->herder->SetAdvertisedUrl(advertised);
      // Java's worker id is the flow ("A->B") on every node; with the internal REST server
      // connectd uses the node's host:port as `connectd distributed` does, so statuses tell the
      // nodes apart and flow health can ask a task's owner for its metrics.
      flow->herder->SetWorkerId(server ? server->WorkerId() : flow->pair.ToString());
    }
    if (flow_health) {
      flow_health->SetWorkerId(server->WorkerId());
      flow_health->Start();
    }
    for (const auto& flow : flows) {
      if (absl::Status started = flow->herder->Start(); !started.ok()) {
        exit_code = Fail(absl::StrCat(flow->pair.ToString(), ": ", started.message()));
        break;
      }
    }
  }
  ServiceNotifier service(
      control,
      [&flows] {
        for (const auto& flow : flows) {
          if (!flow->herder->Ready()) return false;
        }
        return true;
      },
      "MirrorMaker serving");
  if (exit_code == 0) {
    std::cerr << "connectd mirror-maker: running " << flows.size() << " herders ("
              << absl::StrJoin(pair_names, ", ") << ")"
              << (server ? absl::StrCat(", internal REST at ", server->AdvertisedUrl()) : "")
              << "; Ctrl-C to stop" << std::endl;
    service.Start();
    int signal_number = AwaitStopSignal(stop_signals);
    service.Stopping();
    if (HerderFailed()) {
      exit_code = 1;
      CONNECTD_LOG(kInfo, kLogger) << "Kafka MirrorMaker stopping (a herder failed)";
    } else {
      CONNECTD_LOG(kInfo, kLogger) << "Kafka MirrorMaker stopping (signal " << signal_number << ")";
    }
  }

  if (server) server->Stop();
  if (failover) failover->Stop();
  if (flow_health) flow_health->Stop();
  // The herders stop side by side: each flushes its tasks' offsets and leaves its group.
  std::vector<std::thread> stoppers;
  for (const auto& flow : flows) {
    stoppers.emplace_back([herder = flow->herder.get()] { herder->Stop(); });
  }
  for (std::thread& t : stoppers) t.join();
  server.reset();
  failover.reset();
  flow_health.reset();
  flows.clear();
  work.reset();
  control.stop();
  control_thread.join();
  CONNECTD_LOG(kInfo, kLogger) << "Kafka MirrorMaker stopped";
  return exit_code;
}

}  // namespace connectd::main
