// File: group_admin.h
//
// GroupAdmin: the consumer-group offset operations the worker needs for sink connectors'
// offsets (KIP-875): list a group's committed offsets, alter them, delete some, delete the
// group. Each call blocks for at most `timeout` (Admin API round trips through librdkafka).
//
// Thread safety: one call at a time per instance; any thread.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "runtime/kafka/rdkafka_handles.h"

namespace connectd::kafka {

using PartitionOffsets = std::map<std::pair<std::string, int32_t>, int64_t>;

class GroupAdmin {
 public:
  // `properties`: librdkafka client properties (bootstrap, security).
  static absl::StatusOr<std::unique_ptr<GroupAdmin>> Create(
      const std::map<std::string, std::string>& properties,
      std::chrono::milliseconds timeout = std::chrono::seconds(30));

  // Every committed offset of `group` (empty for an unknown group).
  absl::StatusOr<PartitionOffsets> ListOffsets(const std::string& group);
  // Sets committed offsets; fails (kFailedPrecondition) while the group has active members.
  absl::Status AlterOffsets(const std::string& group, const PartitionOffsets& offsets);
  // Removes the committed offsets of the given partitions.
  absl::Status DeleteOffsets(const std::string& group,
                             const std::vector<std::pair<std::string, int32_t>>& partitions);
  // Deletes the group; an unknown group is success (Connect's rule for offset resets).
  absl::Status DeleteGroup(const std::string& group);

 private:
  GroupAdmin(RdKafkaPtr client, std::chrono::milliseconds timeout)
      : client_(std::move(client)), timeout_(timeout) {}
  RdKafkaPtr client_;
  std::chrono::milliseconds timeout_;
};

}  // namespace connectd::kafka
