#include "runtime/config/client_override_policy.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/config/config_def.h"

namespace connectd::config {
namespace {

constexpr const char* kPackage = "org.apache.kafka.connect.connector.policy.";
constexpr const char* kSuffix = "ConnectorClientConfigOverridePolicy";

// Java's plugin aliases of a Connect policy: "None", "NoneConnectorClientConfigOverridePolicy",
// "org.apache.kafka.connect.connector.policy.NoneConnectorClientConfigOverridePolicy".
bool Names(const std::string& name, const std::string& alias) {
  return name == alias || name == absl::StrCat(alias, kSuffix) ||
         name == absl::StrCat(kPackage, alias, kSuffix);
}

const std::set<std::string>& PrincipalKeys() {
  static const auto* keys =
      new std::set<std::string>{"sasl.jaas.config", "sasl.mechanism", "security.protocol"};
  return *keys;
}

}  // namespace

ClientOverridePolicy ClientOverridePolicy::All() { return {Kind::kAll, "All", {}}; }

absl::StatusOr<ClientOverridePolicy> ClientOverridePolicy::Create(
    const std::string& name, const std::vector<std::string>& allowlist) {
  if (Names(name, "All")) return All();
  if (Names(name, "None")) return ClientOverridePolicy(Kind::kNone, "None", {});
  if (Names(name, "Principal")) {
    return ClientOverridePolicy(Kind::kPrincipal, "Principal", PrincipalKeys());
  }
  if (Names(name, "Allowlist")) {
    return ClientOverridePolicy(Kind::kAllowlist, "Allowlist",
                                std::set<std::string>(allowlist.begin(), allowlist.end()));
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "Failed to find any class that implements interface ", kPackage, kSuffix,
      " and which name matches ", name,
      " (connector.client.config.override.policy: All, None, Principal or Allowlist)"));
}

absl::StatusOr<ClientOverridePolicy> ClientOverridePolicy::FromWorkerConfig(
    const ParsedConfig& worker) {
  return Create(worker.GetString("connector.client.config.override.policy").value_or("All"),
                worker.GetList("connector.client.config.override.allowlist"));
}

bool ClientOverridePolicy::Allows(const std::string& client_key) const {
  switch (kind_) {
    case Kind::kAll:
      return true;
    case Kind::kNone:
      return false;
    case Kind::kPrincipal:
    case Kind::kAllowlist:
      return allowed_.count(client_key) > 0;
  }
  return false;
}

std::string ClientOverridePolicy::Refusal(const std::string& client_key) const {
  return absl::StrCat("The '", name_, "' policy does not allow '", client_key,
                      "' to be overridden in the connector configuration.");
}

std::string ClientOverridePolicy::Warning() const {
  if (kind_ != Kind::kPrincipal) return "";
  return absl::StrCat(
      "The Principal ConnectorClientConfigOverridePolicy is deprecated, use the Allowlist policy "
      "instead. To replicate the Principal policy behavior, set the "
      "connector.client.config.override.allowlist configuration to \"",
      absl::StrJoin(PrincipalKeys(), ","), "\"");
}

}  // namespace connectd::config
