#include "runtime/main/distributed_command.h"

#include <algorithm>
#include <cctype>
#include <iostream>
#include <thread>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "absl/strings/str_cat.h"
#include "jvm/java_client_config.h"
#include "rest/json_entities.h"
#include "rest/rest_client.h"
#include "rest/rest_config.h"
#include "rest/rest_server.h"
#include "runtime/common/logging.h"
#include "runtime/distributed/distributed_herder.h"
#include "runtime/distributed/request_signing.h"
#include "runtime/main/flow_health_setup.h"
#include "runtime/main/internal_requests.h"
#include "runtime/main/service_notify.h"
#include "runtime/main/worker_setup.h"
#include "runtime/worker/worker.h"

namespace connectd::main {
namespace {

constexpr char kLogger[] = "org.apache.kafka.connect.cli.ConnectDistributed";
constexpr char kUsage[] = "usage: connectd distributed worker.properties\n";

int Fail(const std::string& message) {
  std::cerr << "connectd distributed: " << message << "\n";
  return 1;
}

absl::StatusOr<distributed::ConnectProtocolMode> ProtocolMode(const std::string& name) {
  if (name == "eager") return distributed::ConnectProtocolMode::kEager;
  if (name == "compatible") return distributed::ConnectProtocolMode::kCompatible;
  if (name == "sessioned") return distributed::ConnectProtocolMode::kSessioned;
  return absl::InvalidArgumentError(absl::StrCat(
      "Invalid value ", name,
      " for configuration connect.protocol: String must be one of: eager, compatible, sessioned"));
}

storage::KafkaBasedLog::Options LogOptions(const config::WorkerConfig& config,
                                           const std::string& topic_key,
                                           const std::string& partitions_key,
                                           const std::string& replication_key) {
  const config::ParsedConfig& parsed = config.parsed();
  storage::KafkaBasedLog::Options options;
  options.topic = *parsed.GetString(topic_key);
  options.topic_property = topic_key;
  // Connect's config producer never gives up on a record (delivery.timeout.ms MAX_INT); the
  // status producer keeps the client's default, as Java's. The offsets producer gives up when the
  // task does (offset.flush.timeout.ms): a commit the task saw fail must not land later, after
  // another worker took the task over and committed newer offsets (docs/compatibility.md); the
  // task keeps those offsets for its next flush.
  std::map<std::string, std::string> base;
  if (topic_key == "config.storage.topic") base["message.timeout.ms"] = "2147483647";
  if (topic_key == "offset.storage.topic") {
    base["message.timeout.ms"] = std::to_string(parsed.GetInt("offset.flush.timeout.ms"));
  }
  using Client = config::WorkerConfig::Client;
  options.producer = jvm::OverlayOn(std::move(base), config.ClientTranslated(Client::kProducer));
  options.consumer = config.ClientTranslated(Client::kConsumer).properties;
  options.admin = config.ClientTranslated(Client::kAdmin).properties;
  options.partitions = partitions_key.empty() ? 1 : parsed.GetInt(partitions_key);
  options.replication_factor = static_cast<int16_t>(parsed.GetInt(replication_key));
  return options;
}

absl::StatusOr<distributed::DistributedHerder::Options> HerderOptions(
    const config::WorkerConfig& config, const std::string& cluster_id) {
  const config::ParsedConfig& parsed = config.parsed();
  distributed::DistributedHerder::Options options;
  options.kafka_cluster_id = cluster_id;
  options.topic_tracking = parsed.GetBool("topic.tracking.enable");
  options.topic_tracking_reset = parsed.GetBool("topic.tracking.allow.reset");
  options.admin_config = config.ClientTranslated(config::WorkerConfig::Client::kAdmin).properties;
  options.validation.override_policy = config.client_override_policy();
  herder::SetWorkerClients(config, options.validation);
  herder::SetWorkerConverters(config.parsed(), options.validation);
  options.validation.distributed = true;
  options.validation.exactly_once_source = config.exactly_once_source_enabled();
  options.config_log =
      LogOptions(config, "config.storage.topic", "", "config.storage.replication.factor");
  options.offset_log = LogOptions(config, "offset.storage.topic", "offset.storage.partitions",
                                  "offset.storage.replication.factor");
  options.status_log = LogOptions(config, "status.storage.topic", "status.storage.partitions",
                                  "status.storage.replication.factor");

  distributed::GroupMemberConfig& group = options.group;
  if (absl::Status s = group.SetBootstrap(config.bootstrap_servers()); !s.ok()) return s;
  absl::StatusOr<kafka::protocol::SecurityConfig> security =
      kafka::protocol::SecurityConfig::FromProperties(
          config.ClientTranslated(config::WorkerConfig::Client::kWorker).properties);
  if (!security.ok()) return security.status();
  group.security = *std::move(security);
  group.group_id = *parsed.GetString("group.id");
  group.client_id = parsed.GetString("client.id").value_or("");
  if (group.client_id.empty()) group.client_id = "connect-" + group.group_id;
  group.session_timeout = std::chrono::milliseconds(parsed.GetInt("session.timeout.ms"));
  group.heartbeat_interval = std::chrono::milliseconds(parsed.GetInt("heartbeat.interval.ms"));
  group.rebalance_timeout = std::chrono::milliseconds(parsed.GetInt("rebalance.timeout.ms"));

  absl::StatusOr<distributed::ConnectProtocolMode> mode =
      ProtocolMode(*parsed.GetString("connect.protocol"));
  if (!mode.ok()) return mode.status();
  options.protocol = *mode;
  options.scheduled_rebalance_max_delay_ms = parsed.GetInt("scheduled.rebalance.max.delay.ms");
  options.worker_sync_timeout = std::chrono::milliseconds(parsed.GetInt("worker.sync.timeout.ms"));
  options.worker_unsync_backoff =
      std::chrono::milliseconds(parsed.GetInt("worker.unsync.backoff.ms"));
  options.key_generation_algorithm = *parsed.GetString("inter.worker.key.generation.algorithm");
  if (auto size = parsed.originals().find("inter.worker.key.size");
      size != parsed.originals().end() && !size->second.empty()) {
    options.key_size_bits = parsed.GetInt("inter.worker.key.size");
  }
  options.key_ttl_ms = parsed.GetInt("inter.worker.key.ttl.ms");
  options.signature_algorithm = *parsed.GetString("inter.worker.signature.algorithm");
  options.verification_algorithms = parsed.GetList("inter.worker.verification.algorithms");
  options.exactly_once = config.exactly_once_source_support();
  if (std::find(options.verification_algorithms.begin(), options.verification_algorithms.end(),
                options.signature_algorithm) == options.verification_algorithms.end()) {
    return absl::InvalidArgumentError(
        absl::StrCat("Signature algorithm '", options.signature_algorithm,
                     "' must be present in inter.worker.verification.algorithms list"));
  }
  return options;
}

// Asks the leader for a round of zombie fencing as Java's worker does: PUT
// {leader}connectors/{c}/fence without a body, signed with the session key (over the empty body).
std::function<void(const std::string&, const std::string&,
                   const std::optional<storage::SessionKey>&, std::function<void(absl::Status)>)>
MakeFenceForwarder(rest::RestClient& client, std::string signature_algorithm) {
  return [&client, signature_algorithm](const std::string& leader_url, const std::string& connector,
                                        const std::optional<storage::SessionKey>& key,
                                        std::function<void(absl::Status)> done) {
    SendSignedToLeader(client, leader_url, "", connector, "PUT", "fence", "", key,
                       signature_algorithm, std::move(done));
  };
}

// Hands task configs to the leader as Java's follower does: POST {leader}connectors/{c}/tasks,
// signed with the session key.
distributed::DistributedHerder::TaskConfigForwarder MakeTaskConfigForwarder(
    rest::RestClient& client, std::string signature_algorithm) {
  return [&client, signature_algorithm](const std::string& leader_url, const std::string& connector,
                                        const std::vector<herder::ConfigMap>& configs,
                                        const std::optional<storage::SessionKey>& key,
                                        std::function<void(absl::Status)> done) {
    SendSignedToLeader(client, leader_url, "", connector, "POST", "tasks",
                       rest::TaskConfigsJson(configs), key, signature_algorithm, std::move(done));
  };
}

}  // namespace

absl::StatusOr<distributed::DistributedHerder::Options> DistributedHerderOptions(
    const config::WorkerConfig& config, const std::string& kafka_cluster_id) {
  return HerderOptions(config, kafka_cluster_id);
}

int RunDistributed(const std::vector<std::string>& args) {
  if (args.size() != 1 || args[0] == "--help" || args[0] == "-h") {
    std::cerr << kUsage;
    return args.empty() || args.size() > 1 ? 2 : 0;
  }
  const sigset_t stop_signals = BlockStopSignals();
  absl::StatusOr<LoadedWorkerConfig> loaded =
      LoadWorkerConfig(args[0], config::WorkerMode::kDistributed, kLogger);
  if (!loaded.ok()) return Fail(std::string(loaded.status().message()));
  const config::WorkerConfig& worker_config = loaded->config;

  plugin::PluginRegistry plugins;
  LoadPlugins(worker_config, plugins);
  absl::StatusOr<std::string> cluster_id = LookupClusterId(worker_config);
  if (!cluster_id.ok()) return Fail(std::string(cluster_id.status().message()));
  absl::StatusOr<distributed::DistributedHerder::Options> options =
      HerderOptions(worker_config, *cluster_id);
  if (!options.ok()) return Fail(absl::StrCat(args[0], ": ", options.status().message()));
  absl::StatusOr<rest::RestConfig> rest_config = rest::ParseRestConfig(loaded->resolved);
  if (!rest_config.ok()) return Fail(std::string(rest_config.status().message()));

  // The control context: REST sessions, group membership and worker-to-worker requests.
  boost::asio::io_context control;
  auto work = boost::asio::make_work_guard(control);
  std::thread control_thread([&control] { control.run(); });

  rest::RestClient client(control, rest_config->tls, rest::RestClient::Options());
  options->forward_fence = MakeFenceForwarder(client, options->signature_algorithm);
  options->on_fatal = StopOnFatalHerderError;
  const MetricsSettings metrics_settings = MetricsSettingsOf(worker_config.parsed());
  metrics::MetricsRegistry metrics(metrics_settings.window, metrics_settings.served_level);
  options->metrics = &metrics;
  auto herder = std::make_unique<distributed::DistributedHerder>(
      *options, plugins, control,
      [&](worker::StatusListener& listener, worker::ConnectorEvents& events,
          const std::string& worker_id, worker::OffsetStoreFactory offsets) {
        return std::make_unique<worker::Worker>(worker_config, plugins, loaded->providers,
                                                std::move(offsets), listener, events, worker_id,
                                                metrics);
      },
      MakeTaskConfigForwarder(client, options->signature_algorithm));
  rest::RestServer::Options server_options;
  server_options.metrics = &metrics;
  // Flow health (runtime/mirror_maker/health): reads other workers' task metrics over REST.
  std::unique_ptr<health::FlowHealth> flow_health =
      MakeFlowHealth(*herder, metrics, loaded->providers, control, &*rest_config);
  server_options.flow_health = flow_health.get();
  // Group failover (runtime/mirror_maker/failover), for the flows flow health knows.
  auto failover = MakeGroupFailover(*flow_health);
  server_options.group_failover = failover.get();
  auto server = std::make_unique<rest::RestServer>(control, *herder, *std::move(rest_config),
                                                   std::move(server_options));
  absl::StatusOr<std::vector<rest::BoundListener>> bound = server->Start();
  ServiceNotifier service(
      control, [h = herder.get()] { return h->Ready(); }, "distributed worker serving");
  int exit_code = 0;
  if (!bound.ok()) {
    exit_code = Fail(std::string(bound.status().message()));
  } else {
    herder->SetWorkerId(server->WorkerId());
    herder->SetAdvertisedUrl(server->AdvertisedUrl());
    flow_health->SetWorkerId(server->WorkerId());
    flow_health->Start();
    for (const rest::BoundListener& listener : *bound) {
      CONNECTD_LOG(kInfo, kLogger)
          << "REST server listening on " << listener.scheme << "://" << listener.host << ":"
          << listener.port << ", advertised URL " << server->AdvertisedUrl();
    }
    if (absl::Status started = herder->Start(); !started.ok()) {
      exit_code = Fail(std::string(started.message()));
    } else {
      std::cerr << "connectd distributed: running (worker " << server->WorkerId() << ", group "
                << options->group.group_id << "); Ctrl-C to stop" << std::endl;
      service.Start();
      int signal_number = AwaitStopSignal(stop_signals);
      service.Stopping();
      if (HerderFailed()) {
        exit_code = 1;
        CONNECTD_LOG(kInfo, kLogger) << "Kafka Connect stopping (the herder failed)";
      } else {
        CONNECTD_LOG(kInfo, kLogger) << "Kafka Connect stopping (signal " << signal_number << ")";
      }
    }
  }
  server->Stop();
  failover->Stop();
  flow_health->Stop();
  herder->Stop();
  work.reset();
  control.stop();
  control_thread.join();
  CONNECTD_LOG(kInfo, kLogger) << "Kafka Connect stopped";
  return exit_code;
}

}  // namespace connectd::main
