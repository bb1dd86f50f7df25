// File: worker_setup.h
//
// What `connectd standalone` and `connectd distributed` do alike before their herder starts:
// read the worker properties (config providers resolved), load the plugins on plugin.path, look
// up the Kafka cluster id, and wait for SIGINT/SIGTERM.
#pragma once

#include <signal.h>

#include <map>
#include <string>

#include "absl/status/statusor.h"
#include "runtime/config/config_providers.h"
#include "runtime/config/worker_config.h"
#include "runtime/metrics/metrics.h"
#include "runtime/plugin/plugin_registry.h"

namespace connectd::main {

struct LoadedWorkerConfig {
  std::map<std::string, std::string> resolved;  // properties with provider references resolved
  config::ConfigProviders providers;
  config::WorkerConfig config;
};

// Reads `path` (Java .properties), resolves config-provider references and parses the worker
// keys of `mode`; the message names the file and the bad key. Warnings are logged.
absl::StatusOr<LoadedWorkerConfig> LoadWorkerConfig(const std::string& path,
                                                    config::WorkerMode mode, const char* logger);

// The metrics registry's settings from metrics.sample.window.ms, metrics.num.samples and
// metrics.recording.level (validated by the worker config).
struct MetricsSettings {
  metrics::WindowConfig window;
  metrics::RecordingLevel served_level = metrics::RecordingLevel::kInfo;
};
MetricsSettings MetricsSettingsOf(const config::ParsedConfig& worker);

// Loads plugin.path, or the plugins shipped with the binary when unset (DefaultPluginPath).
void LoadPlugins(const config::WorkerConfig& config, plugin::PluginRegistry& plugins);

// The Kafka cluster id, as Connect looks it up at startup (with the worker's admin settings,
// checked when the WorkerConfig was made); fails if Kafka is unreachable.
absl::StatusOr<std::string> LookupClusterId(const config::WorkerConfig& config);

// Blocks SIGINT and SIGTERM in this thread and every thread it starts afterwards.
sigset_t BlockStopSignals();
// Waits for a stop signal; a second one exits the process at once. Returns the signal.
int AwaitStopSignal(sigset_t stop_signals);

// A DistributedHerder::Options::on_fatal that ends AwaitStopSignal as a SIGTERM would (the
// worker then shuts down in order); HerderFailed() tells the command to exit 1, as Java's
// worker does after "Uncaught exception in herder work thread, exiting".
void StopOnFatalHerderError(const absl::Status& error);
bool HerderFailed();

}  // namespace connectd::main
