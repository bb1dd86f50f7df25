// File: worker_config.h
//
// WorkerConfig: the keys of a Kafka Connect worker (connect-standalone.properties,
// connect-distributed.properties) with Connect's names, types and defaults, in one table per
// mode. Keys not in the table are kept (clients and plugins may use them). Keys Connect knows
// that connectd does not act on are named in warnings(), never silently dropped.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "jvm/java_client_config.h"
#include "runtime/config/client_override_policy.h"
#include "runtime/config/config_def.h"

namespace connectd::config {

enum class WorkerMode { kStandalone, kDistributed };

// exactly.once.source.support (KIP-618, distributed only): `preparing` makes the leader write the
// config topic through its transactional producer; `enabled` also runs source tasks
// transactionally and reads the config and offsets topics read_committed.
enum class ExactlyOnceSourceSupport { kDisabled, kPreparing, kEnabled };

const ConfigDef& WorkerConfigDef(WorkerMode mode);

class WorkerConfig {
 public:
  // Parses and validates; the first invalid or missing required key is an error.
  static absl::StatusOr<WorkerConfig> Create(const std::map<std::string, std::string>& props,
                                             WorkerMode mode);

  const ParsedConfig& parsed() const { return parsed_; }
  WorkerMode mode() const { return mode_; }
  const std::vector<std::string>& warnings() const { return warnings_; }

  std::string bootstrap_servers() const;
  int64_t offset_flush_interval_ms() const { return parsed_.GetLong("offset.flush.interval.ms"); }
  int64_t offset_flush_timeout_ms() const { return parsed_.GetLong("offset.flush.timeout.ms"); }
  int64_t passthrough_buffer_memory() const { return parsed_.GetLong("passthrough.buffer.memory"); }
  int64_t task_shutdown_graceful_timeout_ms() const {
    return parsed_.GetLong("task.shutdown.graceful.timeout.ms");
  }
  // connector.client.config.override.policy with its allowlist, resolved at Create (an unknown
  // policy fails it, as it stops Java's worker).
  const ClientOverridePolicy& client_override_policy() const { return client_override_policy_; }
  std::string plugin_path() const { return parsed_.GetString("plugin.path").value_or(""); }
  // Always kDisabled in standalone mode (Connect's standalone worker has no such key).
  ExactlyOnceSourceSupport exactly_once_source_support() const;
  bool exactly_once_source_enabled() const {
    return exactly_once_source_support() == ExactlyOnceSourceSupport::kEnabled;
  }
  // DistributedConfig.transactionalLeaderEnabled: preparing or enabled.
  bool transactional_leader_enabled() const {
    return exactly_once_source_support() != ExactlyOnceSourceSupport::kDisabled;
  }

  // The worker-level settings every client inherits (bootstrap, security, client.dns...), then
  // `prefix`-prefixed ones ("producer.", "consumer.", "admin.") on top, as Connect builds them;
  // "" gives the worker's own clients: the inherited settings and its other client configs.
  std::map<std::string, std::string> ClientConfig(const std::string& prefix) const;

  // The worker's clients, each translated to librdkafka's names once, at Create
  // (jvm/java_client_config.h, the one place hostile and wrong client settings are refused): a
  // setting that cannot be honoured fails Create naming the key; warnings join warnings().
  //   kWorker    its own clients (the group client, the internal topics'): ClientConfig("")
  //   kProducer  ClientConfig("producer."), what tasks' producers start from
  //   kConsumer  ClientConfig("consumer.")
  //   kAdmin     ClientConfig("admin.")
  enum class Client { kWorker, kProducer, kConsumer, kAdmin };
  const std::map<std::string, std::string>& ClientJava(Client client) const {
    return clients_[static_cast<int>(client)].java;
  }
  const jvm::TranslatedConfig& ClientTranslated(Client client) const {
    return clients_[static_cast<int>(client)].translated;
  }

 private:
  struct TranslatedClient {
    std::map<std::string, std::string> java;
    jvm::TranslatedConfig translated;
  };
  absl::Status TranslateClients();

  ParsedConfig parsed_;
  WorkerMode mode_ = WorkerMode::kStandalone;
  std::vector<std::string> warnings_;
  ClientOverridePolicy client_override_policy_ = ClientOverridePolicy::All();
  TranslatedClient clients_[4];
};

}  // namespace connectd::config
