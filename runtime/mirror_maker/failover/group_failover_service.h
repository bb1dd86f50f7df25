// File: group_failover_service.h
//
// GroupFailoverService: GroupFailoverView on one thread of its own, for the worker's REST API.
// A flow's target cluster settings come from a lookup (the worker's flow health: the flow's
// connector configs with config providers resolved), so the REST caller names only the flow
// and the group. Requests run one at a time in arrival order; at most kMaxQueued wait
// (beyond: kUnavailable at once).
//
// Lifecycle: construct (starts the thread), then Stop() or destruction: requests still queued
// are answered kUnavailable, the running one finishes first (bounded by its timeout).
//
// Threads: every public method is thread-safe; `done` runs on the service's thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "runtime/mirror_maker/failover/group_failover.h"
#include "runtime/mirror_maker/failover/group_failover_view.h"

namespace connectd::mirror_maker {

class GroupFailoverService : public GroupFailoverView {
 public:
  static constexpr size_t kMaxQueued = 16;

  // The target cluster of flow source->target: its Java client properties and replication
  // policy keys (FailoverRequest's target_client and policy); nullopt for an unknown flow.
  struct Target {
    std::map<std::string, std::string> client;
    std::map<std::string, std::string> policy;
  };
  using FindTarget =
      std::function<std::optional<Target>(const std::string& source, const std::string& target)>;

  // `find_target` is called on the service's thread. `timeout`: per Kafka round trip.
  explicit GroupFailoverService(FindTarget find_target,
                                std::chrono::milliseconds timeout = std::chrono::seconds(30));
  ~GroupFailoverService() override;
  GroupFailoverService(const GroupFailoverService&) = delete;
  GroupFailoverService& operator=(const GroupFailoverService&) = delete;

  void Translate(const std::string& source, const std::string& target, const std::string& group,
                 Done done) override;
  void Failover(const std::string& source, const std::string& target, const std::string& group,
                bool dry_run, Done done) override;
  void Stop();

 private:
  struct Job {
    std::function<absl::StatusOr<GroupTranslation>()> work;
    Done done;
  };
  void Submit(Job job);
  // The request for the flow, or kNotFound.
  absl::StatusOr<FailoverRequest> RequestFor(const std::string& source, const std::string& target,
                                             const std::string& group) const;
  void Run();

  const FindTarget find_target_;
  const std::chrono::milliseconds timeout_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Job> queue_;  // guarded by mu_
  bool stopping_ = false;  // guarded by mu_
  std::thread thread_;
};

}  // namespace connectd::mirror_maker
