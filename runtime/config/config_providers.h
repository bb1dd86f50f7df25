// File: config_providers.h
//
// Config providers (KIP-297/KIP-421): `${provider:path:key}` references in worker and connector
// configs, resolved when a connector or task starts while the stored config keeps the reference,
// so secrets never reach the config store, REST output or logs.
//
// Supported, by Kafka's class names (aliases `file`, `env`, `directory` conventional):
//   org.apache.kafka.common.config.provider.FileConfigProvider       path: a properties file
//   org.apache.kafka.common.config.provider.EnvVarConfigProvider     ${env:VAR}
//   org.apache.kafka.common.config.provider.DirectoryConfigProvider  path: dir, key: file name
// with `config.providers.<name>.param.allowed.paths` (File/Directory) and
// `config.providers.<name>.param.allowlist.pattern` (EnvVar). As in Kafka, a reference whose
// provider or key is unknown is left unchanged.
//
// Thread safety: immutable after Create; Transform may run on any thread.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace connectd::config {

class ConfigProvider {
 public:
  virtual ~ConfigProvider() = default;
  // The value of `key` under `path`, nullopt if absent, or an error (e.g. path not allowed).
  virtual absl::StatusOr<std::optional<std::string>> Get(const std::string& path,
                                                         const std::string& key) const = 0;
};

class ConfigProviders {
 public:
  ConfigProviders() = default;
  // Builds the providers named by `config.providers` in a worker config.
  static absl::StatusOr<ConfigProviders> Create(const std::map<std::string, std::string>& worker);

  // Resolves every reference in every value.
  absl::StatusOr<std::map<std::string, std::string>> Transform(
      const std::map<std::string, std::string>& config) const;

  // True if `value` contains a reference.
  static bool HasReference(const std::string& value);

 private:
  std::map<std::string, std::shared_ptr<const ConfigProvider>> providers_;
};

}  // namespace connectd::config
