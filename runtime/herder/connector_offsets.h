// File: connector_offsets.h
//
// The KIP-875 offsets endpoints as both herders serve them (Connect's AbstractHerder and
// Worker.modifyConnectorOffsets): the STOPPED precondition, reading a sink connector's consumer
// group offsets, and altering or resetting a connector's offsets with the connector's own
// alterOffsets hook asked first and Connect's success message.
//
// Threads: call from the herder thread; these block on Kafka admin requests.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "runtime/herder_api/herder_types.h"
#include "runtime/plugin/plugin_registry.h"
#include "runtime/worker/source_offsets.h"

namespace connectd::herder {

// The 400 Connect answers when offsets are changed while the connector is not STOPPED (or
// still has task configs).
absl::Status NotStoppedForOffsetsError(const std::string& connector);

// The consumer group of a sink connector: consumer.override.group.id or connect-<name>.
std::string SinkGroupOf(const std::string& connector, const ConfigMap& config);

// The committed offsets of a sink connector's group, in REST form.
absl::StatusOr<ConnectorOffsets> ReadSinkOffsets(
    const std::map<std::string, std::string>& admin_config, const std::string& group);

// What an alter or reset needs to know about the connector.
struct OffsetsTarget {
  std::string connector;
  ConfigMap config;  // raw connector config
  ConnectorType type = ConnectorType::kUnknown;
  worker::ConnectorOffsetStore* source_offsets = nullptr;  // the source connector's offsets
  std::map<std::string, std::string> admin_config;         // for a sink connector's group
};

// Alters (`reset` false) or resets offsets: partition JSON -> offset JSON, nullopt removes.
// Answers Connect's success message.
absl::StatusOr<std::string> ModifyConnectorOffsets(
    const plugin::PluginRegistry& plugins, const OffsetsTarget& target,
    const std::map<std::string, std::optional<std::string>>& offsets, bool reset);

}  // namespace connectd::herder
