#include "runtime/main/standalone_command.h"

#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>
#include <sstream>
#include <thread>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "rest/json_entities.h"
#include "rest/rest_config.h"
#include "rest/rest_server.h"
#include "runtime/common/logging.h"
#include "runtime/config/config_providers.h"
#include "runtime/config/properties.h"
#include "runtime/config/worker_config.h"
#include "runtime/herder/standalone_herder.h"
#include "runtime/kafka/client_config.h"
#include "runtime/main/flow_health_setup.h"
#include "runtime/main/service_notify.h"
#include "runtime/main/worker_setup.h"
#include "runtime/plugin/plugin_registry.h"
#include "runtime/storage/file_offset_backing_store.h"
#include "runtime/worker/backing_store_offsets.h"
#include "runtime/worker/worker.h"

namespace connectd::main {
namespace {

constexpr char kLogger[] = "org.apache.kafka.connect.cli.ConnectStandalone";
constexpr char kUsage[] =
    "usage: connectd standalone worker.properties [connector.properties|connector.json]...\n";

int Fail(const std::string& message) {
  std::cerr << "connectd standalone: " << message << "\n";
  return 1;
}

// A connector file: Java properties, or JSON ({"name":..,"config":{..}} or a flat config map).
absl::StatusOr<rest::CreateConnectorRequest> ReadConnectorFile(const std::string& path) {
  if (absl::EndsWith(path, ".json")) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return absl::NotFoundError(absl::StrCat("cannot open ", path));
    std::stringstream text;
    text << in.rdbuf();
    absl::StatusOr<rest::CreateConnectorRequest> request =
        rest::ParseCreateConnectorRequest(text.str());
    if (request.ok() && request->config && !request->config->empty()) return request;
    absl::StatusOr<herder::ConfigMap> flat = rest::ParseConfigMap(text.str());
    if (!flat.ok())
      return absl::InvalidArgumentError(absl::StrCat(path, ": ", flat.status().message()));
    rest::CreateConnectorRequest from_map;
    if (flat->count("name")) from_map.name = flat->at("name");
    from_map.config = *std::move(flat);
    return from_map;
  }
  absl::StatusOr<config::Properties> props = config::LoadPropertiesFile(path);
  if (!props.ok()) return props.status();
  rest::CreateConnectorRequest request;
  if (props->count("name")) request.name = props->at("name");
  request.config = herder::ConfigMap(props->begin(), props->end());
  return request;
}

}  // namespace

int RunStandalone(const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::cerr << kUsage;
    return args.empty() ? 2 : 0;
  }
  // Block the stop signals in every thread; this thread waits for them.
  const sigset_t stop_signals = BlockStopSignals();
  absl::StatusOr<LoadedWorkerConfig> loaded =
      LoadWorkerConfig(args[0], config::WorkerMode::kStandalone, kLogger);
  if (!loaded.ok()) return Fail(std::string(loaded.status().message()));
  const std::map<std::string, std::string>& resolved = loaded->resolved;
  const config::ConfigProviders& providers = loaded->providers;
  const config::WorkerConfig& worker_config = loaded->config;

  std::vector<rest::CreateConnectorRequest> connectors;
  for (size_t i = 1; i < args.size(); ++i) {
    absl::StatusOr<rest::CreateConnectorRequest> request = ReadConnectorFile(args[i]);
    if (!request.ok()) return Fail(std::string(request.status().message()));
    connectors.push_back(*std::move(request));
  }

  plugin::PluginRegistry plugins;
  LoadPlugins(worker_config, plugins);

  absl::StatusOr<std::string> cluster_id = LookupClusterId(worker_config);
  if (!cluster_id.ok()) return Fail(std::string(cluster_id.status().message()));

  storage::FileOffsetBackingStore offsets(
      *worker_config.parsed().GetString("offset.storage.file.filename"));
  if (absl::Status started = offsets.Start(); !started.ok()) {
    return Fail(std::string(started.message()));
  }

  // The control context: REST sessions (and, in distributed mode, group membership).
  boost::asio::io_context control;
  auto work = boost::asio::make_work_guard(control);
  std::thread control_thread([&control] { control.run(); });

  absl::StatusOr<rest::RestConfig> rest_config = rest::ParseRestConfig(resolved);
  if (!rest_config.ok()) {
    work.reset();
    control.stop();
    control_thread.join();
    return Fail(std::string(rest_config.status().message()));
  }

  worker::OffsetStoreFactory offset_factory = [&offsets](const std::string& connector) {
    return std::make_shared<worker::BackingStoreOffsets>(offsets, connector);
  };
  herder::StandaloneHerder::Options options;
  options.kafka_cluster_id = *cluster_id;
  options.topic_tracking = worker_config.parsed().GetBool("topic.tracking.enable");
  options.topic_tracking_reset = worker_config.parsed().GetBool("topic.tracking.allow.reset");
  options.admin_config =
      worker_config.ClientTranslated(config::WorkerConfig::Client::kAdmin).properties;
  options.validation.override_policy = worker_config.client_override_policy();
  herder::SetWorkerClients(worker_config, options.validation);
  herder::SetWorkerConverters(worker_config.parsed(), options.validation);

  // The herder exists first (the REST server answers through it), starts once the REST
  // server is bound and the worker id (advertised host:port) is known.
  const MetricsSettings metrics_settings = MetricsSettingsOf(worker_config.parsed());
  metrics::MetricsRegistry metrics(metrics_settings.window, metrics_settings.served_level);
  auto herder = std::make_unique<herder::StandaloneHerder>(
      options, plugins, offset_factory,
      [&](worker::StatusListener& listener, worker::ConnectorEvents& events,
          const std::string& worker_id) {
        return std::make_unique<worker::Worker>(worker_config, plugins, providers, offset_factory,
                                                listener, events, worker_id, metrics);
      });
  rest::RestServer::Options server_options;
  server_options.metrics = &metrics;
  // Flow health (runtime/mirror_maker/health): every task of a standalone worker is local.
  std::unique_ptr<health::FlowHealth> flow_health =
      MakeFlowHealth(*herder, metrics, providers, control, nullptr);
  server_options.flow_health = flow_health.get();
  // Group failover (runtime/mirror_maker/failover), for the flows flow health knows.
  auto failover = MakeGroupFailover(*flow_health);
  server_options.group_failover = failover.get();
  auto server = std::make_unique<rest::RestServer>(control, *herder, *std::move(rest_config),
                                                   std::move(server_options));
  absl::StatusOr<std::vector<rest::BoundListener>> bound = server->Start();
  ServiceNotifier service(
      control, [h = herder.get()] { return h->Ready(); }, "standalone worker serving");
  int exit_code = 0;
  if (!bound.ok()) {
    exit_code = Fail(std::string(bound.status().message()));
  } else {
    herder->SetWorkerId(server->WorkerId());
    herder->Start();
    flow_health->SetWorkerId(server->WorkerId());
    flow_health->Start();
    for (const rest::BoundListener& listener : *bound) {
      CONNECTD_LOG(kInfo, kLogger)
          << "REST server listening on " << listener.scheme << "://" << listener.host << ":"
          << listener.port << ", advertised URL " << server->AdvertisedUrl();
    }
    // Connectors from the command line, each created as Java's ConnectStandalone does.
    for (const rest::CreateConnectorRequest& request : connectors) {
      herder::ConfigMap config = request.config.value_or(herder::ConfigMap{});
      std::string name = request.name.value_or(config.count("name") ? config.at("name") : "");
      if (!config.count("name")) config["name"] = name;
      std::promise<absl::Status> created;
      herder->PutConnectorConfig(name, config, request.initial_state, /*allow_replace=*/false,
                                 [&created](absl::StatusOr<herder::Created> result) {
                                   created.set_value(result.status());
                                 });
      absl::Status status = created.get_future().get();
      if (!status.ok()) {
        exit_code =
            Fail(absl::StrCat("Failed to create connector for ", name, ": ", status.message()));
        break;
      }
      CONNECTD_LOG(kInfo, kLogger) << "Created connector " << name;
    }
    if (exit_code == 0) {
      std::cerr << "connectd standalone: running (worker " << server->WorkerId()
                << "); Ctrl-C to stop" << std::endl;
      service.Start();
      int signal_number = AwaitStopSignal(stop_signals);
      service.Stopping();
      CONNECTD_LOG(kInfo, kLogger) << "Kafka Connect stopping (signal " << signal_number << ")";
    }
  }
  // Orderly shutdown: stop accepting REST, stop tasks (final offset flush), connectors, storage.
  server->Stop();
  failover->Stop();
  flow_health->Stop();
  herder->Stop();
  offsets.Stop();
  work.reset();
  control.stop();
  control_thread.join();
  CONNECTD_LOG(kInfo, kLogger) << "Kafka Connect stopped";
  return exit_code;
}

}  // namespace connectd::main
