#include "runtime/main/worker_setup.h"

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdlib>
#include <thread>
#include <utility>
#include <vector>

#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "jvm/java_client_config.h"
#include "runtime/common/logging.h"
#include "runtime/config/properties.h"
#include "runtime/kafka/client_config.h"
#include "runtime/main/install_layout.h"

namespace connectd::main {

absl::StatusOr<LoadedWorkerConfig> LoadWorkerConfig(const std::string& path,
                                                    config::WorkerMode mode, const char* logger) {
  absl::StatusOr<config::Properties> raw = config::LoadPropertiesFile(path);
  if (!raw.ok()) return raw.status();
  std::map<std::string, std::string> props(raw->begin(), raw->end());
  absl::StatusOr<config::ConfigProviders> providers = config::ConfigProviders::Create(props);
  if (!providers.ok()) return providers.status();
  absl::StatusOr<std::map<std::string, std::string>> resolved = providers->Transform(props);
  if (!resolved.ok()) return resolved.status();
  absl::StatusOr<config::WorkerConfig> worker_config =
      config::WorkerConfig::Create(*resolved, mode);
  if (!worker_config.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", worker_config.status().message()));
  }
  for (const std::string& warning : worker_config->warnings()) {
    CONNECTD_LOG(kWarn, logger) << warning;
  }
  return LoadedWorkerConfig{*std::move(resolved), *std::move(providers), *std::move(worker_config)};
}

MetricsSettings MetricsSettingsOf(const config::ParsedConfig& worker) {
  MetricsSettings settings;
  settings.window.window_ms = std::max<int64_t>(1, worker.GetLong("metrics.sample.window.ms"));
  settings.window.samples = std::max(1, worker.GetInt("metrics.num.samples"));
  settings.served_level =
      metrics::ParseRecordingLevel(worker.GetString("metrics.recording.level").value_or("INFO"))
          .value_or(metrics::RecordingLevel::kInfo);
  return settings;
}

void LoadPlugins(const config::WorkerConfig& config, plugin::PluginRegistry& plugins) {
  std::string plugin_path = config.plugin_path();
  if (plugin_path.empty()) plugin_path = DefaultPluginPath();
  if (!plugin_path.empty()) plugins.LoadPluginPath(plugin_path);
}

absl::StatusOr<std::string> LookupClusterId(const config::WorkerConfig& config) {
  std::vector<std::string> warnings;
  absl::StatusOr<kafka::ConfPtr> conf = kafka::MakeConfWithWarnings(
      config.ClientTranslated(config::WorkerConfig::Client::kAdmin).properties, warnings);
  if (!conf.ok()) return conf.status();
  absl::StatusOr<kafka::RdKafkaPtr> client = kafka::MakeClient(RD_KAFKA_PRODUCER, *std::move(conf));
  if (!client.ok()) return client.status();
  char* id = rd_kafka_clusterid(client->get(), 30000);
  if (id == nullptr) {
    return absl::UnavailableError(absl::StrCat(
        "Failed to connect to and describe Kafka cluster at ", config.bootstrap_servers(),
        " within 30 s. Check the worker's broker connection "
        "and security configs."));
  }
  std::string out(id);
  rd_kafka_mem_free(client->get(), id);
  return out;
}

sigset_t BlockStopSignals() {
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  return stop_signals;
}

int AwaitStopSignal(sigset_t stop_signals) {
  int signal_number = 0;
  sigwait(&stop_signals, &signal_number);
  std::thread([stop_signals]() mutable {
    int second = 0;
    sigwait(&stop_signals, &second);
    std::_Exit(128 + second);
  }).detach();
  return signal_number;
}

namespace {
std::atomic<bool> herder_failed{false};
}  // namespace

void StopOnFatalHerderError(const absl::Status&) {
  herder_failed = true;
  kill(getpid(), SIGTERM);
}

bool HerderFailed() { return herder_failed; }

}  // namespace connectd::main
