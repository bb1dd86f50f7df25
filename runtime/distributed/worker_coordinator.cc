#include "runtime/distributed/worker_coordinator.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "runtime/common/logging.h"

namespace connectd::distributed {
namespace {
constexpr char kLogger[] = "org.apache.kafka.connect.runtime.distributed.WorkerCoordinator";

// `work` minus what `revoked` names, plus what `assigned` adds (v1/v2 answers are deltas).
MemberWork Apply(MemberWork work, const ConnectAssignment& a) {
  if (a.version == kProtocolV0) return MemberWork{a.connectors, a.tasks};
  auto drop = [](auto& items, const auto& gone) {
    items.erase(std::remove_if(items.begin(), items.end(),
                               [&](const auto& x) {
                                 return std::find(gone.begin(), gone.end(), x) != gone.end();
                               }),
                items.end());
  };
  drop(work.connectors, a.revoked_connectors);
  drop(work.tasks, a.revoked_tasks);
  for (const auto& c : a.connectors) {
    if (std::find(work.connectors.begin(), work.connectors.end(), c) == work.connectors.end()) {
      work.connectors.push_back(c);
    }
  }
  for (const auto& t : a.tasks) {
    if (std::find(work.tasks.begin(), work.tasks.end(), t) == work.tasks.end()) {
      work.tasks.push_back(t);
    }
  }
  return work;
}

}  // namespace

absl::StatusOr<std::unique_ptr<WorkerCoordinator>> WorkerCoordinator::Create(
    std::string url, ConnectProtocolMode mode, int32_t scheduled_rebalance_max_delay_ms,
    Callbacks callbacks, std::function<int64_t()> now_ms) {
  absl::StatusOr<IncrementalCooperativeAssignor> assignor =
      IncrementalCooperativeAssignor::Create(scheduled_rebalance_max_delay_ms);
  if (!assignor.ok()) return assignor.status();
  return std::unique_ptr<WorkerCoordinator>(new WorkerCoordinator(
      std::move(url), mode, std::move(callbacks), std::move(now_ms), *std::move(assignor)));
}

WorkerCoordinator::WorkerCoordinator(std::string url, ConnectProtocolMode mode, Callbacks callbacks,
                                     std::function<int64_t()> now_ms,
                                     IncrementalCooperativeAssignor assignor)
    : url_(std::move(url)),
      mode_(mode),
      callbacks_(std::move(callbacks)),
      now_ms_(std::move(now_ms)),
      assignor_(std::move(assignor)) {}

std::vector<kafka::protocol::JoinGroupRequest::Protocol> WorkerCoordinator::JoinMetadata() {
  const int64_t offset = callbacks_.snapshot().offset;
  const MemberWork current = complete();
  std::vector<kafka::protocol::JoinGroupRequest::Protocol> protocols;
  for (int16_t version : OfferedVersions(mode_)) {
    WorkerMetadata metadata{version, url_, offset, std::nullopt};
    if (version >= kProtocolV1 && (!current.connectors.empty() || !current.tasks.empty())) {
      ConnectAssignment allocation;
      allocation.version = version;
      allocation.leader = leader_id_;
      allocation.leader_url = leader_url_;
      allocation.config_offset = assignment_offset_;
      allocation.connectors = current.connectors;
      allocation.tasks = current.tasks;
      metadata.allocation = allocation;
    }
    protocols.push_back({std::string(SubprotocolName(version)), EncodeWorkerMetadata(metadata)});
  }
  return protocols;
}

void WorkerCoordinator::OnJoinPrepare(int32_t, const std::string&) {
  // Eager: everything stops before the rebalance. Cooperative: work keeps running.
  const bool eager = mode_ == ConnectProtocolMode::kEager;
  if (eager) {
    std::lock_guard lock(mu_);
    complete_ = MemberWork{};
  }
  // Both modes wait for the herder before the JoinGroup goes out: eager, until everything is
  // stopped; cooperative, until it caught up with the config topic and stopped the tasks whose
  // configs changed (their offsets committed before new owners start them, as Java's member,
  // which applies config updates before it rejoins).
  if (callbacks_.on_revoke_all && callbacks_.confirm_applied) unapplied_.fetch_add(1);
  if (callbacks_.on_revoke_all) callbacks_.on_revoke_all(eager);
}

absl::StatusOr<std::map<std::string, std::string>> WorkerCoordinator::PerformAssignment(
    int32_t generation, const std::string& leader_id, const std::string& protocol,
    const std::vector<kafka::protocol::JoinGroupResponse::Member>& members) {
  std::optional<int16_t> version = SubprotocolVersion(protocol);
  if (!version) return absl::InvalidArgumentError("unknown Connect subprotocol " + protocol);
  AssignmentInput input;
  input.leader_id = leader_id;
  for (const auto& member : members) {
    absl::StatusOr<WorkerMetadata> metadata = DecodeWorkerMetadata(member.metadata);
    if (!metadata.ok()) {
      return absl::DataLossError(
          absl::StrCat("metadata of member ", member.member_id, ": ", metadata.status().message()));
    }
    if (member.member_id == leader_id) input.leader_url = metadata->url;
    input.members.push_back({member.member_id, *std::move(metadata)});
  }
  ConfigSnapshotView snapshot = callbacks_.snapshot();
  const int64_t max_offset = MaxMemberConfigOffset(input.members);
  std::map<std::string, std::string> out;
  if (snapshot.offset < max_offset) {
    // A member has read configs the leader has not: nobody gets work this round (Java's leader
    // re-reads first; the herder refreshes on the CONFIG_MISMATCH answer and rejoins).
    CONNECTD_LOG(kWarn, kLogger) << "Leader's config offset " << snapshot.offset
                                 << " is behind the group's " << max_offset
                                 << "; answering CONFIG_MISMATCH";
    absl::StatusOr<std::map<std::string, ConnectAssignment>> mismatch =
        ConfigMismatchAssignments(input.members, leader_id, input.leader_url, max_offset, *version);
    if (!mismatch.ok()) return mismatch.status();
    for (const auto& [member, assignment] : *mismatch) out[member] = EncodeAssignment(assignment);
    return out;
  }
  input.configured = std::move(snapshot.connectors);
  input.config_offset = snapshot.offset;
  absl::StatusOr<AssignmentResult> result;
  if (*version == kProtocolV0) {
    result = PerformEagerAssignment(input);
  } else {
    IncrementalCooperativeAssignor::Round round;
    round.generation = generation;
    round.last_completed_generation = last_completed_generation_;
    round.protocol_version = *version;
    round.now_ms = now_ms_();
    result = assignor_.PerformAssignment(input, round);
  }
  if (!result.ok()) return result.status();
  {
    std::lock_guard lock(mu_);
    owners_ = result->owners;
    member_urls_.clear();
    for (const AssignorMember& member : input.members) {
      member_urls_[member.member_id] = member.metadata.url;
    }
  }
  for (const auto& [member, assignment] : result->assignments) {
    out[member] = EncodeAssignment(assignment);
  }
  return out;
}

void WorkerCoordinator::OnJoinComplete(int32_t generation, const std::string& member_id,
                                       const std::string& protocol,
                                       const std::string& assignment_bytes) {
  absl::StatusOr<ConnectAssignment> assignment = DecodeAssignment(assignment_bytes);
  if (!assignment.ok()) {
    if (callbacks_.on_error) callbacks_.on_error(assignment.status());
    if (callbacks_.request_rejoin) callbacks_.request_rejoin("the assignment could not be read");
    return;
  }
  last_completed_generation_ = generation;
  leader_id_ = assignment->leader;
  leader_url_ = assignment->leader_url;
  assignment_offset_ = assignment->config_offset;
  MemberWork complete_now;
  {
    std::lock_guard lock(mu_);
    if (assignment->error == ConnectAssignment::kNoError) {
      complete_ = Apply(std::move(complete_), *assignment);
    }
    complete_now = complete_;
  }
  AssignmentEvent event{generation, member_id, protocol, *assignment, std::move(complete_now)};
  if (callbacks_.on_assignment) {
    if (callbacks_.confirm_applied) unapplied_.fetch_add(1);
    callbacks_.on_assignment(event);
  }
  // Cooperative rounds come in pairs: what was revoked here is handed out in the next one.
  const bool revoked =
      !assignment->revoked_connectors.empty() || !assignment->revoked_tasks.empty();
  if (revoked && callbacks_.request_rejoin) callbacks_.request_rejoin("work was revoked");
}

MemberWork WorkerCoordinator::complete() const {
  std::lock_guard lock(mu_);
  return complete_;
}

std::optional<std::string> WorkerCoordinator::OwnerUrl(const std::string& connector) const {
  std::lock_guard lock(mu_);
  auto owner = owners_.connectors.find(connector);
  if (owner == owners_.connectors.end()) return std::nullopt;
  auto url = member_urls_.find(owner->second);
  if (url == member_urls_.end()) return std::nullopt;
  return url->second;
}

std::optional<std::string> WorkerCoordinator::OwnerUrl(const herder::ConnectorTaskId& task) const {
  std::lock_guard lock(mu_);
  auto owner = owners_.tasks.find(task);
  if (owner == owners_.tasks.end()) return std::nullopt;
  auto url = member_urls_.find(owner->second);
  if (url == member_urls_.end()) return std::nullopt;
  return url->second;
}

void WorkerCoordinator::OnCoordinatorUnreachable(std::chrono::milliseconds waited) {
  MemberWork revoked;
  {
    std::lock_guard lock(mu_);
    if (complete_.connectors.empty() && complete_.tasks.empty()) return;
    revoked = std::exchange(complete_, MemberWork{});
  }
  CONNECTD_LOG(kInfo, kLogger) << "Broker coordinator was unreachable for " << waited.count()
                               << "ms. Revoking previous assignment (" << revoked.connectors.size()
                               << " connectors, " << revoked.tasks.size()
                               << " tasks) to avoid running tasks while not being a member the "
                                  "group";
  if (!callbacks_.on_revoke_all) return;
  if (callbacks_.confirm_applied) unapplied_.fetch_add(1);
  callbacks_.on_revoke_all(/*eager=*/true);
}

void WorkerCoordinator::OnGroupError(const absl::Status& error) {
  if (callbacks_.on_error) callbacks_.on_error(error);
}

}  // namespace connectd::distributed
