// File: connect_protocol.h
//
// Connect's group-membership payloads (protocol type `connect`): the member metadata a worker
// sends in JoinGroup and the assignment the leader sends each member in SyncGroup, for the
// three subprotocols `default` (eager, version 0), `compatible` (1) and `sessioned` (2).
// Bytes are Java's (ConnectProtocol / IncrementalCooperativeConnectProtocol; golden vectors in
// tests/golden/connect_protocol), so connectd and Java workers can share a group.
//
// Thread-safety: plain values and pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/herder_api/herder_types.h"

namespace connectd::distributed {

// connect.protocol values and their subprotocol names and versions.
enum class ConnectProtocolMode { kEager, kCompatible, kSessioned };
inline constexpr int16_t kProtocolV0 = 0;  // "default"
inline constexpr int16_t kProtocolV1 = 1;  // "compatible"
inline constexpr int16_t kProtocolV2 = 2;  // "sessioned"

// The subprotocol name of a version ("default", "compatible", "sessioned").
std::string_view SubprotocolName(int16_t version);
// The version of a subprotocol name, or nullopt.
std::optional<int16_t> SubprotocolVersion(std::string_view name);
// The versions a worker offers in JoinGroup, most preferred first (as Java offers them).
std::vector<int16_t> OfferedVersions(ConnectProtocolMode mode);

// The task id Connect uses for "the connector instance itself" inside an assignment.
inline constexpr int32_t kConnectorTask = -1;

// A leader's answer to one member. Version 0 carries the member's complete assignment;
// versions 1 and 2 only what is newly assigned plus what to revoke, and a rejoin delay.
struct ConnectAssignment {
  static constexpr int16_t kNoError = 0;
  static constexpr int16_t kConfigMismatch = 1;

  int16_t version = kProtocolV2;
  int16_t error = kNoError;
  std::string leader;      // the leader's member id
  std::string leader_url;  // the leader's REST URL
  int64_t config_offset = -1;
  std::vector<std::string> connectors;
  std::vector<herder::ConnectorTaskId> tasks;
  std::vector<std::string> revoked_connectors;     // v1+
  std::vector<herder::ConnectorTaskId> revoked_tasks;  // v1+
  int32_t delay_ms = 0;                            // v1+: rejoin after this delay

  bool operator==(const ConnectAssignment&) const = default;
};

// What a worker tells the group when it joins.
struct WorkerMetadata {
  int16_t version = kProtocolV2;
  std::string url;  // advertised REST URL, e.g. "http://w1:8083/"
  int64_t config_offset = -1;
  // v1+: the worker's current complete assignment (revoked empty, delay 0); nullopt if none.
  std::optional<ConnectAssignment> allocation;

  bool operator==(const WorkerMetadata&) const = default;
};

// Encodes with the layout of `metadata.version` (0, or 1/2).
std::string EncodeWorkerMetadata(const WorkerMetadata& metadata);
// Accepts any version >= 0 (newer versions must extend the layout); missing trailing fields of
// v1+ read as absent, as Java tolerates them.
absl::StatusOr<WorkerMetadata> DecodeWorkerMetadata(std::string_view bytes);

// Groups connectors and tasks per connector in first-seen order, the connector itself (-1)
// first, as Java does.
std::string EncodeAssignment(const ConnectAssignment& assignment);
absl::StatusOr<ConnectAssignment> DecodeAssignment(std::string_view bytes);

}  // namespace connectd::distributed
