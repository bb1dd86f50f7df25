#include "runtime/distributed/eager_assignor.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace connectd::distributed {

absl::StatusOr<AssignmentResult> PerformEagerAssignment(const AssignmentInput& input) {
  using assignor_internal::JavaStringLess;
  if (absl::Status s = assignor_internal::ValidateMembers(input.members, input.leader_id);
      !s.ok()) {
    return s;
  }

  std::vector<std::string> members;
  members.reserve(input.members.size());
  for (const AssignorMember& member : input.members) members.push_back(member.member_id);
  std::sort(members.begin(), members.end(), JavaStringLess());

  std::vector<std::string> connectors;
  connectors.reserve(input.configured.size());
  for (const auto& [name, tasks] : input.configured) connectors.push_back(name);
  std::sort(connectors.begin(), connectors.end(), JavaStringLess());

  std::map<std::string, MemberWork> complete;
  for (const std::string& member : members) complete[member];

  // One circular walk over the sorted members, first for connectors, then for tasks.
  size_t next = 0;
  const auto next_member = [&]() -> MemberWork& {
    MemberWork& work = complete[members[next]];
    next = (next + 1) % members.size();
    return work;
  };
  for (const std::string& connector : connectors) next_member().connectors.push_back(connector);
  for (const std::string& connector : connectors) {
    std::vector<int32_t> tasks = input.configured.at(connector);
    std::sort(tasks.begin(), tasks.end());
    tasks.erase(std::unique(tasks.begin(), tasks.end()), tasks.end());
    for (int32_t task : tasks) next_member().tasks.push_back({connector, task});
  }

  AssignmentResult result;
  for (const auto& [member, work] : complete) {
    ConnectAssignment a;
    a.version = kProtocolV0;
    a.error = ConnectAssignment::kNoError;
    a.leader = input.leader_id;
    a.leader_url = input.leader_url;
    a.config_offset = input.config_offset;
    a.connectors = work.connectors;
    a.tasks = work.tasks;
    result.assignments[member] = std::move(a);
  }
  result.owners = OwnersOf(complete);
  result.complete = std::move(complete);
  return result;
}

}  // namespace connectd::distributed
