#include "runtime/distributed/connect_protocol.h"

#include <map>

#include "runtime/kafka/protocol/wire.h"

namespace connectd::distributed {
namespace {

using kafka::protocol::WireReader;
using kafka::protocol::WireWriter;

// Connect's CONNECTOR_ASSIGNMENT array: [connector STRING, tasks ARRAY[INT32]].
void WriteConnectorAssignments(WireWriter& w, const std::vector<std::string>& connectors,
                               const std::vector<herder::ConnectorTaskId>& tasks) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<int32_t>> ids;
  auto add = [&](const std::string& connector, int32_t task) {
    auto [it, inserted] = ids.try_emplace(connector);
    if (inserted) order.push_back(connector);
    it->second.push_back(task);
  };
  for (const std::string& connector : connectors) add(connector, kConnectorTask);
  for (const herder::ConnectorTaskId& task : tasks) add(task.connector, task.task);
  w.ArrayLength(static_cast<int32_t>(order.size()));
  for (const std::string& connector : order) {
    const std::vector<int32_t>& list = ids[connector];
    w.String(connector).ArrayLength(static_cast<int32_t>(list.size()));
    for (int32_t id : list) w.Int32(id);
  }
}

void ReadConnectorAssignments(WireReader& r, std::vector<std::string>* connectors,
                              std::vector<herder::ConnectorTaskId>* tasks) {
  int32_t n = r.ArrayLength();
  for (int32_t i = 0; i < n && r.ok(); ++i) {
    std::string connector = r.String();
    int32_t m = r.ArrayLength();
    for (int32_t j = 0; j < m && r.ok(); ++j) {
      int32_t id = r.Int32();
      if (id == kConnectorTask) {
        connectors->push_back(connector);
      } else {
        tasks->push_back({connector, id});
      }
    }
  }
}

void WriteAssignmentBody(WireWriter& w, const ConnectAssignment& a) {
  w.Int16(a.version).Int16(a.error).String(a.leader).String(a.leader_url).Int64(a.config_offset);
  WriteConnectorAssignments(w, a.connectors, a.tasks);
  if (a.version >= kProtocolV1) {
    WriteConnectorAssignments(w, a.revoked_connectors, a.revoked_tasks);
    w.Int32(a.delay_ms);
  }
}

ConnectAssignment ReadAssignmentBody(WireReader& r) {
  ConnectAssignment a;
  a.version = r.Int16();
  if (a.version < 0) r.Fail("negative Connect protocol version");
  a.error = r.Int16();
  a.leader = r.String();
  a.leader_url = r.String();
  a.config_offset = r.Int64();
  ReadConnectorAssignments(r, &a.connectors, &a.tasks);
  if (a.version >= kProtocolV1 && r.remaining() > 0) {
    ReadConnectorAssignments(r, &a.revoked_connectors, &a.revoked_tasks);
    if (r.remaining() > 0) a.delay_ms = r.Int32();
  }
  return a;
}

}  // namespace

std::string_view SubprotocolName(int16_t version) {
  switch (version) {
    case kProtocolV0: return "default";
    case kProtocolV1: return "compatible";
    default: return "sessioned";
  }
}

std::optional<int16_t> SubprotocolVersion(std::string_view name) {
  if (name == "default") return kProtocolV0;
  if (name == "compatible") return kProtocolV1;
  if (name == "sessioned") return kProtocolV2;
  return std::nullopt;
}

std::vector<int16_t> OfferedVersions(ConnectProtocolMode mode) {
  switch (mode) {
    case ConnectProtocolMode::kEager: return {kProtocolV0};
    case ConnectProtocolMode::kCompatible: return {kProtocolV1, kProtocolV0};
    case ConnectProtocolMode::kSessioned: return {kProtocolV2, kProtocolV1, kProtocolV0};
  }
  return {kProtocolV0};
}

std::string EncodeWorkerMetadata(const WorkerMetadata& m) {
  WireWriter w;
  w.Int16(m.version).String(m.url).Int64(m.config_offset);
  if (m.version >= kProtocolV1) {
    if (m.allocation) {
      ConnectAssignment allocation = *m.allocation;
      allocation.version = m.version;
      w.NullableBytes(EncodeAssignment(allocation));
    } else {
      w.NullableBytes(std::nullopt);
    }
  }
  return w.Take();
}

absl::StatusOr<WorkerMetadata> DecodeWorkerMetadata(std::string_view bytes) {
  WireReader r(bytes);
  WorkerMetadata m;
  m.version = r.Int16();
  if (r.ok() && m.version < 0) r.Fail("negative Connect protocol version");
  m.url = r.String();
  m.config_offset = r.Int64();
  if (r.ok() && m.version >= kProtocolV1 && r.remaining() > 0) {
    std::optional<std::string> allocation = r.NullableBytes();
    if (r.ok() && allocation) {
      absl::StatusOr<ConnectAssignment> decoded = DecodeAssignment(*allocation);
      if (!decoded.ok()) return decoded.status();
      m.allocation = *std::move(decoded);
    }
  }
  if (!r.ok()) return r.status();
  return m;
}

std::string EncodeAssignment(const ConnectAssignment& assignment) {
  WireWriter w;
  WriteAssignmentBody(w, assignment);
  return w.Take();
}

absl::StatusOr<ConnectAssignment> DecodeAssignment(std::string_view bytes) {
  WireReader r(bytes);
  ConnectAssignment a = ReadAssignmentBody(r);
  if (!r.ok()) return r.status();
  return a;
}

}  // namespace connectd::distributed
