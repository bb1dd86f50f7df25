#include "runtime/herder/connector_offsets.h"

#include <chrono>
#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "runtime/herder/sink_offsets.h"
#include "runtime/herder_api/herder.h"
#include "runtime/kafka/group_admin.h"
#include "runtime/plugin/plugin_instances.h"

namespace connectd::herder {
namespace {

constexpr auto kOffsetWriteTimeout = std::chrono::seconds(30);

absl::Status ModifySinkOffsets(const OffsetsTarget& target,
                               const std::map<std::string, std::optional<std::string>>& offsets,
                               bool reset) {
  absl::StatusOr<std::unique_ptr<kafka::GroupAdmin>> admin =
      kafka::GroupAdmin::Create(target.admin_config);
  if (!admin.ok()) return admin.status();
  const std::string group = SinkGroupOf(target.connector, target.config);
  absl::Status result;
  if (reset) {
    result = (*admin)->DeleteGroup(group);
  } else {
    kafka::PartitionOffsets alter;
    std::vector<std::pair<std::string, int32_t>> remove;
    for (const auto& [partition_json, offset_json] : offsets) {
      absl::StatusOr<std::pair<std::string, int32_t>> tp = ParseSinkPartition(partition_json);
      if (!tp.ok()) return WithHttpStatus(tp.status(), 400);
      if (!offset_json) {
        remove.push_back(*tp);
        continue;
      }
      absl::StatusOr<int64_t> offset = ParseSinkOffset(*offset_json);
      if (!offset.ok()) return WithHttpStatus(offset.status(), 400);
      alter[*tp] = *offset;
    }
    if (!alter.empty()) result = (*admin)->AlterOffsets(group, alter);
    if (result.ok() && !remove.empty()) result = (*admin)->DeleteOffsets(group, remove);
  }
  if (absl::IsFailedPrecondition(result)) {
    return WithHttpStatus(
        absl::InternalError(absl::StrCat(
            "Failed to ", reset ? "reset" : "alter", " consumer group offsets for connector ",
            target.connector,
            ", either because its tasks haven't stopped completely yet or the connector was "
            "resumed before the request completed. The connector may need to be stopped again "
            "before the request can be retried: ",
            result.message())),
        500);
  }
  return result;
}

}  // namespace

absl::Status NotStoppedForOffsetsError(const std::string& connector) {
  return WithHttpStatus(
      absl::FailedPreconditionError(absl::StrCat(
          "Connectors must be in the STOPPED state before their offsets can be modified. This "
          "can be done for the specified connector by issuing a 'PUT' request to the "
          "'/connectors/",
          connector, "/stop' endpoint")),
      400);
}

std::string SinkGroupOf(const std::string& connector, const ConfigMap& config) {
  auto it = config.find("consumer.override.group.id");
  return it != config.end() ? it->second : "connect-" + connector;
}

absl::StatusOr<ConnectorOffsets> ReadSinkOffsets(
    const std::map<std::string, std::string>& admin_config, const std::string& group) {
  absl::StatusOr<std::unique_ptr<kafka::GroupAdmin>> admin =
      kafka::GroupAdmin::Create(admin_config);
  if (!admin.ok()) return admin.status();
  absl::StatusOr<kafka::PartitionOffsets> committed = (*admin)->ListOffsets(group);
  if (!committed.ok()) return committed.status();
  ConnectorOffsets out;
  for (const auto& [tp, offset] : *committed) {
    out.offsets.push_back({SinkPartitionJson(tp.first, tp.second), SinkOffsetJson(offset)});
  }
  return out;
}

absl::StatusOr<std::string> ModifyConnectorOffsets(
    const plugin::PluginRegistry& plugins, const OffsetsTarget& target,
    const std::map<std::string, std::optional<std::string>>& offsets, bool reset) {
  // Ask the connector first (KIP-875), on a fresh instance that is never started.
  bool handled = false;
  if (const plugin::ConnectorPlugin* plugin = plugins.FindForConfig(target.config)) {
    plugin::DetachedConnectorContext context;
    absl::StatusOr<std::unique_ptr<plugin::ConnectorInstance>> instance =
        plugin::ConnectorInstance::Create(*plugin, &context);
    if (!instance.ok()) return instance.status();
    absl::StatusOr<bool> altered = (*instance)->AlterOffsets(
        plugin::Props(target.config.begin(), target.config.end()), offsets);
    if (!altered.ok()) {
      return WithHttpStatus(
          absl::InternalError(
              absl::StrCat("Failed to alter offsets for connector ", target.connector,
                           " because it threw an exception: ", altered.status().message())),
          altered.status().code() == absl::StatusCode::kInvalidArgument ? 400 : 500);
    }
    handled = *altered;
  }
  absl::Status written;
  if (target.type == ConnectorType::kSink) {
    written = ModifySinkOffsets(target, offsets, reset);
  } else if (target.source_offsets != nullptr) {
    written = target.source_offsets->Write(offsets, kOffsetWriteTimeout);
  }
  if (!written.ok()) return written;
  const char* verb = reset ? "reset" : "altered";
  if (handled)
    return absl::StrCat("The offsets for this connector have been ", verb, " successfully");
  return absl::StrCat("The Connect framework-managed offsets for this connector have been ", verb,
                      " successfully. However, if this connector manages offsets externally, they "
                      "will need to be manually ",
                      verb, " in the system that the connector uses.");
}

}  // namespace connectd::herder
