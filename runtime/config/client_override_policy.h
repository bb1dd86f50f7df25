// File: client_override_policy.h
//
// connector.client.config.override.policy: which client configs a connector may set with
// `producer.override.*`, `consumer.override.*` and `admin.override.*`. Connect's four policies,
// named as Java names its plugins (the alias "None", the simple class name
// "NoneConnectorClientConfigOverridePolicy" or the fully qualified class name):
//
//   All        every key (Connect's default)
//   None       no key
//   Principal  sasl.jaas.config, sasl.mechanism and security.protocol (deprecated by KIP-1188)
//   Allowlist  the keys of connector.client.config.override.allowlist (KIP-1188; empty: none)
//
// A refused key gets Java's message, word for word, both where a connector config is validated
// and where a task is built from it.
//
// Thread safety: immutable after construction.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace connectd::config {

class ParsedConfig;

class ClientOverridePolicy {
 public:
  // Connect's default.
  static ClientOverridePolicy All();

  // The policy `name` (alias, simple or fully qualified class name; case-sensitive, as Java's
  // plugin lookup) with `allowlist` for Allowlist. Any other name is Java's start-up error.
  static absl::StatusOr<ClientOverridePolicy> Create(const std::string& name,
                                                     const std::vector<std::string>& allowlist);
  // From a worker config's two keys.
  static absl::StatusOr<ClientOverridePolicy> FromWorkerConfig(const ParsedConfig& worker);

  // "All", "None", "Principal" or "Allowlist": the name Java's messages use.
  const std::string& name() const { return name_; }

  // Whether a connector may set `client_key` (the key without its `<client>.override.` prefix).
  bool Allows(const std::string& client_key) const;

  // Java's error for a refused key: "The 'None' policy does not allow 'acks' to be overridden in
  // the connector configuration."
  std::string Refusal(const std::string& client_key) const;

  // What Java logs at WARN when the policy is configured (Principal's deprecation), or "".
  std::string Warning() const;

 private:
  enum class Kind { kAll, kNone, kPrincipal, kAllowlist };
  ClientOverridePolicy(Kind kind, std::string name, std::set<std::string> allowed)
      : kind_(kind), name_(std::move(name)), allowed_(std::move(allowed)) {}

  Kind kind_;
  std::string name_;
  std::set<std::string> allowed_;  // Principal and Allowlist
};

}  // namespace connectd::config
