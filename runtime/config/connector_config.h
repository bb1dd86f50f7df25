// File: connector_config.h
//
// ConnectorConfig: the framework keys of every connector config (Connect's ConnectorConfig,
// SourceConnectorConfig, SinkConnectorConfig) with their groups, and helpers the worker and
// herder share: the converter classes connectd supports, and client overrides.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/config/client_override_policy.h"
#include "runtime/config/config_def.h"

namespace connectd::config {

enum class ConnectorKind { kSource, kSink };

// The framework keys for a source or sink connector (Java 4.4's definitions and texts).
const ConfigDef& ConnectorConfigDef(ConnectorKind kind);
// The keys every connector has, source or sink (Connect's ConnectorConfig).
const ConfigDef& BaseConnectorConfigDef();

// Converter classes whose bytes connectd passes through unchanged. Others (JsonConverter, Avro,
// ...) need Connect's data model, which has not landed yet.
inline constexpr const char* kByteArrayConverter =
    "org.apache.kafka.connect.converters.ByteArrayConverter";
inline constexpr const char* kStringConverter = "org.apache.kafka.connect.storage.StringConverter";
bool IsSupportedConverter(const std::string& class_name);

// Sink topic selection: exactly one of `topics` and `topics.regex` (Connect's rule).
absl::Status ValidateSinkTopics(const std::map<std::string, std::string>& config);

// `<client>.override.*` keys of a connector config, prefix removed (client: producer, consumer,
// admin; a key that is only the prefix is ignored, as Java's originalsWithPrefix does).
std::map<std::string, std::string> ClientOverrides(
    const std::map<std::string, std::string>& connector_config, const std::string& client);

// ClientOverrides, refused with every key `policy` does not allow (Java's messages).
absl::StatusOr<std::map<std::string, std::string>> AllowedClientOverrides(
    const std::map<std::string, std::string>& connector_config, const std::string& client,
    const ClientOverridePolicy& policy);

}  // namespace connectd::config
