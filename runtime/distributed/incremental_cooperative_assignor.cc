#include "runtime/distributed/incremental_cooperative_assignor.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"

namespace connectd::distributed {

using assignor_internal::JavaCompare;
using assignor_internal::WorkerLoad;
using herder::ConnectorTaskId;

// One member's work while a round is computed: its items in list order, without repeats.
struct assignor_internal::WorkerLoad {
  std::string worker;
  std::vector<std::string> connectors;
  std::vector<ConnectorTaskId> tasks;

  bool empty() const { return connectors.empty() && tasks.empty(); }
};

namespace {

using WorkSet = IncrementalCooperativeAssignor::WorkSet;

// Per-member revocations, each list in the order the items were chosen, without repeats.
struct Revocation {
  std::vector<std::string> connectors;
  std::vector<ConnectorTaskId> tasks;
  bool empty() const { return connectors.empty() && tasks.empty(); }
};
using Revocations = std::map<std::string, Revocation>;

template <typename T>
bool Contains(const std::vector<T>& items, const T& item) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

template <typename T>
void AppendUnique(std::vector<T>* items, const T& item) {
  if (!Contains(*items, item)) items->push_back(item);
}

template <typename T>
std::vector<T> Dedup(const std::vector<T>& items) {
  std::vector<T> out;
  for (const T& item : items) AppendUnique(&out, item);
  return out;
}

template <typename T, typename Pred>
void EraseIf(std::vector<T>* items, Pred pred) {
  items->erase(std::remove_if(items->begin(), items->end(), pred), items->end());
}

// a - b - c.
WorkSet Minus(const WorkSet& a, const WorkSet& b, const WorkSet& c = WorkSet()) {
  WorkSet out;
  for (const std::string& x : a.connectors) {
    if (!b.connectors.count(x) && !c.connectors.count(x)) out.connectors.insert(x);
  }
  for (const ConnectorTaskId& x : a.tasks) {
    if (!b.tasks.count(x) && !c.tasks.count(x)) out.tasks.insert(x);
  }
  return out;
}

void AddRevocations(Revocations* into, const Revocations& from) {
  for (const auto& [worker, revoked] : from) {
    Revocation& r = (*into)[worker];
    for (const std::string& c : revoked.connectors) AppendUnique(&r.connectors, c);
    for (const ConnectorTaskId& t : revoked.tasks) AppendUnique(&r.tasks, t);
  }
}

template <typename Loads>
void RemoveRevoked(Loads* loads, const Revocations& revocations) {
  for (auto& load : *loads) {
    auto it = revocations.find(load.worker);
    if (it == revocations.end()) continue;
    const Revocation& r = it->second;
    EraseIf(&load.connectors, [&](const std::string& c) { return Contains(r.connectors, c); });
    EraseIf(&load.tasks, [&](const ConnectorTaskId& t) { return Contains(r.tasks, t); });
  }
}

// The items of each load that are also in `items`, in the load's order.
template <typename Loads>
Revocations Intersection(const WorkSet& items, const Loads& loads) {
  Revocations out;
  for (const auto& load : loads) {
    Revocation r;
    for (const std::string& c : load.connectors) {
      if (items.connectors.count(c)) r.connectors.push_back(c);
    }
    for (const ConnectorTaskId& t : load.tasks) {
      if (items.tasks.count(t)) r.tasks.push_back(t);
    }
    if (!r.empty()) out[load.worker] = std::move(r);
  }
  return out;
}

// Balancing revocations of one kind (connectors or tasks), walking `loads` in order: each worker
// may keep floor(total/W), the first (total mod W) workers above that floor one more.
template <typename T, typename Items>
std::map<std::string, std::vector<T>> BalancingRevocations(size_t total,
                                                           const std::vector<WorkerLoad>& loads,
                                                           Items items) {
  const size_t workers = loads.size();
  const size_t floor = total / workers;
  const size_t extras = total % workers;
  size_t at_floor = 0;
  size_t at_floor_plus_one = 0;
  for (const auto& load : loads) {
    size_t n = items(load).size();
    at_floor += n == floor;
    at_floor_plus_one += n == floor + 1;
  }
  std::map<std::string, std::vector<T>> out;
  if (at_floor_plus_one == extras && at_floor + at_floor_plus_one == workers) return out;

  size_t extras_given = 0;
  for (const auto& load : loads) {
    const std::vector<T>& current = items(load);
    if (current.size() <= floor) continue;
    size_t allowance = floor;
    if (extras_given < extras) {
      ++extras_given;
      if (current.size() == floor + 1) continue;
      allowance = floor + 1;
    }
    out[load.worker].assign(current.begin(), current.begin() + (current.size() - allowance));
  }
  return out;
}

Revocations LoadBalancingRevocations(const WorkSet& configured,
                                     const std::vector<WorkerLoad>& loads) {
  Revocations out;
  bool all_empty =
      std::all_of(loads.begin(), loads.end(), [](const auto& load) { return load.empty(); });
  if (all_empty || configured.empty()) return out;
  auto connectors = BalancingRevocations<std::string>(
      configured.connectors.size(), loads,
      [](const auto& load) -> const auto& { return load.connectors; });
  auto tasks = BalancingRevocations<ConnectorTaskId>(
      configured.tasks.size(), loads, [](const auto& load) -> const auto& { return load.tasks; });
  for (auto& [worker, revoked] : connectors) out[worker].connectors = std::move(revoked);
  for (auto& [worker, revoked] : tasks) out[worker].tasks = std::move(revoked);
  return out;
}

// Deals `items` to the workers sorted by (count, member id), giving one each to the least
// loaded tier before the next tier joins in. The sort happens once; `first` keeps pointing at
// the worker that sorted first (this is how Java walks the tiers).
template <typename T, typename Items>
void AssignByLoad(std::vector<WorkerLoad>* loads, const std::vector<T>& to_assign, Items items) {
  std::sort(loads->begin(), loads->end(), [&](const auto& a, const auto& b) {
    size_t na = items(a).size();
    size_t nb = items(b).size();
    return na != nb ? na < nb : JavaCompare(a.worker, b.worker) < 0;
  });
  auto next = to_assign.begin();
  while (next != to_assign.end()) {
    const size_t first_load = items((*loads)[0]).size();
    size_t tier_end = 0;
    while (tier_end < loads->size() && items((*loads)[tier_end]).size() <= first_load) {
      ++tier_end;
    }
    for (size_t i = 0; i < tier_end && next != to_assign.end(); ++i) {
      items((*loads)[i]).push_back(*next++);
    }
  }
}

// `next` minus `current`, keeping `next`'s order.
template <typename T>
std::vector<T> Newly(const std::vector<T>& next, const std::vector<T>& current) {
  std::vector<T> out;
  for (const T& item : next) {
    if (!Contains(current, item)) out.push_back(item);
  }
  return out;
}

}  // namespace

absl::StatusOr<IncrementalCooperativeAssignor> IncrementalCooperativeAssignor::Create(
    int32_t max_delay_ms) {
  if (max_delay_ms < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("scheduled.rebalance.max.delay.ms must be at least 0, got ", max_delay_ms));
  }
  return IncrementalCooperativeAssignor(max_delay_ms);
}

int32_t IncrementalCooperativeAssignor::ConsecutiveRevocationDelayMs(int32_t max_delay_ms, int k) {
  // Java's ExponentialBackoff(initial = max == 0 ? 0 : 1, multiplier 40, max, jitter 0).
  const double initial = std::min<double>(max_delay_ms, max_delay_ms == 0 ? 0 : 1);
  const double exp_max = max_delay_ms > initial
                             ? std::log(max_delay_ms / std::max(initial, 1.0)) / std::log(40.0)
                             : 0.0;
  if (exp_max == 0) return static_cast<int32_t>(initial);
  const double term = initial * std::pow(40.0, std::min<double>(k, exp_max));
  return static_cast<int32_t>(std::min<int64_t>(static_cast<int64_t>(term), max_delay_ms));
}

void IncrementalCooperativeAssignor::ResetDelay() {
  candidate_workers_.clear();
  scheduled_rebalance_ms_ = 0;
  delay_ms_ = 0;
}

void IncrementalCooperativeAssignor::HandleLostAssignments(const WorkSet& lost,
                                                           WorkSet* reassign_as_new,
                                                           std::vector<WorkerLoad>* loads,
                                                           int64_t now_ms) {
  const auto reassign_all = [&] {
    reassign_as_new->connectors.insert(lost.connectors.begin(), lost.connectors.end());
    reassign_as_new->tasks.insert(lost.tasks.begin(), lost.tasks.end());
  };
  if (lost.empty() && !revoked_in_previous_) {
    ResetDelay();
    return;
  }

  std::set<std::string> present;
  for (const WorkerLoad& load : *loads) present.insert(load.worker);
  const bool nobody_left = std::includes(present.begin(), present.end(), previous_members_.begin(),
                                         previous_members_.end());
  if (scheduled_rebalance_ms_ <= 0 && nobody_left) {
    // Nobody left the group: the previous assignment most likely never reached its members.
    reassign_all();
    return;
  }
  if (max_delay_ms_ == 0) {
    reassign_all();
    return;
  }

  if (scheduled_rebalance_ms_ > 0 && now_ms >= scheduled_rebalance_ms_) {
    // The delay expired: the lost work goes to the workers that were empty meanwhile.
    std::vector<WorkerLoad*> candidates;
    for (const std::string& worker : candidate_workers_) {
      for (WorkerLoad& load : *loads) {
        if (load.worker == worker) candidates.push_back(&load);
      }
    }
    if (candidates.empty()) {
      reassign_all();
    } else {
      size_t i = 0;
      for (const std::string& connector : lost.connectors) {
        candidates[i++ % candidates.size()]->connectors.push_back(connector);
      }
      i = 0;
      for (const ConnectorTaskId& task : lost.tasks) {
        candidates[i++ % candidates.size()]->tasks.push_back(task);
      }
    }
    ResetDelay();
    revoked_in_previous_ = false;
    return;
  }

  // Start or continue the delay; members that are empty now are the candidates for the lost
  // work (Java collects them through a HashSet, hence that order for the newly added ones).
  std::vector<std::string> empty_workers;
  for (const WorkerLoad& load : *loads) {
    if (load.empty()) empty_workers.push_back(load.worker);
  }
  for (const std::string& worker : assignor_internal::JavaHashOrder(empty_workers)) {
    AppendUnique(&candidate_workers_, worker);
  }
  if (now_ms < scheduled_rebalance_ms_) {
    delay_ms_ =
        static_cast<int32_t>(std::min<int64_t>(scheduled_rebalance_ms_ - now_ms, max_delay_ms_));
  } else {
    delay_ms_ = max_delay_ms_;
  }
  scheduled_rebalance_ms_ = now_ms + delay_ms_;
}

absl::StatusOr<AssignmentResult> IncrementalCooperativeAssignor::PerformAssignment(
    const AssignmentInput& input, const Round& round) {
  if (absl::Status s = assignor_internal::ValidateMembers(input.members, input.leader_id);
      !s.ok()) {
    return s;
  }
  if (round.protocol_version != kProtocolV1 && round.protocol_version != kProtocolV2) {
    return absl::InvalidArgumentError(
        absl::StrCat("the incremental cooperative assignor needs protocol version 1 or 2, got ",
                     round.protocol_version));
  }

  // 1. The remembered assignment only counts if this leader completed the previous generation.
  if (previous_generation_ != round.last_completed_generation) previous_assignment_ = WorkSet();

  WorkSet configured;
  for (const auto& [connector, tasks] : input.configured) {
    configured.connectors.insert(connector);
    for (int32_t task : tasks) configured.tasks.insert({connector, task});
  }

  // What each member runs now, in Java's member order.
  std::map<std::string, const AssignorMember*> by_id;
  std::vector<std::string> join_order;
  for (const AssignorMember& member : input.members) {
    by_id[member.member_id] = &member;
    join_order.push_back(member.member_id);
  }
  std::vector<WorkerLoad> reported;
  for (const std::string& worker : assignor_internal::JavaHashOrder(join_order)) {
    WorkerLoad load{worker, {}, {}};
    if (const auto& allocation = by_id[worker]->metadata.allocation; allocation.has_value()) {
      load.connectors = Dedup(allocation->connectors);
      load.tasks = Dedup(allocation->tasks);
    }
    reported.push_back(std::move(load));
  }

  // 2. Active work; a revocation that did not take effect resets the remembered assignment.
  WorkSet active;
  std::map<std::string, int> connector_holders;
  std::map<ConnectorTaskId, int> task_holders;
  for (const WorkerLoad& load : reported) {
    for (const std::string& c : load.connectors) {
      active.connectors.insert(c);
      ++connector_holders[c];
    }
    for (const ConnectorTaskId& t : load.tasks) {
      active.tasks.insert(t);
      ++task_holders[t];
    }
  }
  if (!previous_revocation_.empty()) {
    bool still_running =
        std::any_of(previous_revocation_.connectors.begin(), previous_revocation_.connectors.end(),
                    [&](const std::string& c) { return active.connectors.count(c) > 0; }) ||
        std::any_of(previous_revocation_.tasks.begin(), previous_revocation_.tasks.end(),
                    [&](const ConnectorTaskId& t) { return active.tasks.count(t) > 0; });
    if (still_running) previous_assignment_ = active;
    previous_revocation_ = WorkSet();
  }

  // 3. Derived sets.
  const WorkSet deleted = Minus(previous_assignment_, configured);
  WorkSet duplicated;
  for (const auto& [c, n] : connector_holders) {
    if (n > 1) duplicated.connectors.insert(c);
  }
  for (const auto& [t, n] : task_holders) {
    if (n > 1) duplicated.tasks.insert(t);
  }
  const WorkSet lost = Minus(previous_assignment_, active, deleted);
  const WorkSet created = Minus(configured, previous_assignment_, active);

  // The current sets without deleted work: what "newly assigned" is measured against.
  std::vector<WorkerLoad> current = reported;
  for (WorkerLoad& load : current) {
    EraseIf(&load.connectors, [&](const std::string& c) { return deleted.connectors.count(c); });
    EraseIf(&load.tasks, [&](const ConnectorTaskId& t) { return deleted.tasks.count(t); });
  }

  // 4. Revoke deleted and duplicated work from whoever runs it.
  Revocations to_revoke;
  const Revocations deleted_to_revoke = Intersection(deleted, reported);
  const Revocations duplicated_to_revoke = Intersection(duplicated, reported);
  AddRevocations(&to_revoke, deleted_to_revoke);
  AddRevocations(&to_revoke, duplicated_to_revoke);
  std::vector<WorkerLoad> next = reported;
  RemoveRevoked(&next, deleted_to_revoke);
  RemoveRevoked(&next, duplicated_to_revoke);

  // 5. Lost work.
  WorkSet lost_to_reassign;
  HandleLostAssignments(lost, &lost_to_reassign, &next, round.now_ms);

  // 6. Balancing revocations, unless a delay is running.
  if (delay_ms_ == 0) {
    const Revocations balancing = LoadBalancingRevocations(configured, next);
    if (revoked_in_previous_ && !balancing.empty()) {
      ++consecutive_revoking_rebalances_;
      delay_ms_ = ConsecutiveRevocationDelayMs(max_delay_ms_, consecutive_revoking_rebalances_);
      if (delay_ms_ != 0) {
        scheduled_rebalance_ms_ = round.now_ms + delay_ms_;
      } else {
        AddRevocations(&to_revoke, balancing);
        RemoveRevoked(&next, balancing);
      }
    } else if (!balancing.empty()) {
      AddRevocations(&to_revoke, balancing);
      RemoveRevoked(&next, balancing);
      revoked_in_previous_ = true;
    } else if (revoked_in_previous_) {
      // Converged: the backoff starts over.
      revoked_in_previous_ = false;
      consecutive_revoking_rebalances_ = 0;
    }
  } else {
    revoked_in_previous_ = false;
  }

  // 7. Allocate created work, then the lost work being reassigned.
  std::vector<std::string> new_connectors(created.connectors.begin(), created.connectors.end());
  for (const std::string& c : lost_to_reassign.connectors) {
    if (!created.connectors.count(c)) new_connectors.push_back(c);
  }
  std::vector<ConnectorTaskId> new_tasks(created.tasks.begin(), created.tasks.end());
  for (const ConnectorTaskId& t : lost_to_reassign.tasks) {
    if (!created.tasks.count(t)) new_tasks.push_back(t);
  }
  AssignByLoad(
      &next, new_connectors, [](auto& load) -> auto& { return load.connectors; });
  AssignByLoad(
      &next, new_tasks, [](auto& load) -> auto& { return load.tasks; });

  // 8. Answers and memory.
  std::map<std::string, const WorkerLoad*> current_by_worker;
  for (const WorkerLoad& load : current) current_by_worker[load.worker] = &load;

  AssignmentResult result;
  WorkSet next_previous;
  for (const WorkerLoad& load : next) {
    const WorkerLoad& cur = *current_by_worker.at(load.worker);
    const auto revoked_it = to_revoke.find(load.worker);
    const Revocation revoked = revoked_it == to_revoke.end() ? Revocation() : revoked_it->second;

    ConnectAssignment a;
    a.version = round.protocol_version;
    a.error = ConnectAssignment::kNoError;
    a.leader = input.leader_id;
    a.leader_url = input.leader_url;
    a.config_offset = input.config_offset;
    a.connectors = Newly(load.connectors, cur.connectors);
    a.tasks = Newly(load.tasks, cur.tasks);
    a.revoked_connectors = revoked.connectors;
    a.revoked_tasks = revoked.tasks;
    result.assignments[load.worker] = std::move(a);

    MemberWork& complete = result.complete[load.worker];
    complete.connectors = Newly(load.connectors, revoked.connectors);
    complete.tasks = Newly(load.tasks, revoked.tasks);
    next_previous.connectors.insert(load.connectors.begin(), load.connectors.end());
    next_previous.tasks.insert(load.tasks.begin(), load.tasks.end());
  }
  for (const auto& [worker, revoked] : to_revoke) {
    for (const std::string& c : revoked.connectors) {
      next_previous.connectors.erase(c);
      previous_revocation_.connectors.insert(c);
    }
    for (const ConnectorTaskId& t : revoked.tasks) {
      next_previous.tasks.erase(t);
      previous_revocation_.tasks.insert(t);
    }
  }
  next_previous.connectors.insert(lost.connectors.begin(), lost.connectors.end());
  next_previous.tasks.insert(lost.tasks.begin(), lost.tasks.end());
  previous_assignment_ = std::move(next_previous);
  previous_generation_ = round.generation;
  previous_members_ = std::set<std::string>(join_order.begin(), join_order.end());

  for (auto& [worker, assignment] : result.assignments) assignment.delay_ms = delay_ms_;
  result.owners = OwnersOf(result.complete);
  return result;
}

}  // namespace connectd::distributed
