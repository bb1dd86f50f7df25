#include "runtime/mirror_maker/failover/group_failover_service.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace connectd::mirror_maker {

GroupFailoverService::GroupFailoverService(FindTarget find_target,
                                           std::chrono::milliseconds timeout)
    : find_target_(std::move(find_target)), timeout_(timeout), thread_([this] { Run(); }) {}

GroupFailoverService::~GroupFailoverService() { Stop(); }

void GroupFailoverService::Stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

absl::StatusOr<FailoverRequest> GroupFailoverService::RequestFor(const std::string& source,
                                                                 const std::string& target,
                                                                 const std::string& group) const {
  std::optional<Target> flow = find_target_(source, target);
  if (!flow) {
    return absl::NotFoundError(absl::StrCat("No replication flow found for source '", source,
                                            "' and target '", target, "'"));
  }
  FailoverRequest request;
  request.target_client = std::move(flow->client);
  request.policy = std::move(flow->policy);
  request.source_alias = source;
  request.group = group;
  request.timeout = timeout_;
  return request;
}

void GroupFailoverService::Translate(const std::string& source, const std::string& target,
                                     const std::string& group, Done done) {
  Submit({[this, source, target, group]() -> absl::StatusOr<GroupTranslation> {
            absl::StatusOr<FailoverRequest> request = RequestFor(source, target, group);
            if (!request.ok()) return request.status();
            return TranslateGroupOffsets(*request);
          },
          std::move(done)});
}

void GroupFailoverService::Failover(const std::string& source, const std::string& target,
                                    const std::string& group, bool dry_run, Done done) {
  Submit({[this, source, target, group, dry_run]() -> absl::StatusOr<GroupTranslation> {
            absl::StatusOr<FailoverRequest> request = RequestFor(source, target, group);
            if (!request.ok()) return request.status();
            return FailoverGroup(*request, dry_run);
          },
          std::move(done)});
}

void GroupFailoverService::Submit(Job job) {
  bool stopping;
  {
    std::lock_guard lock(mu_);
    stopping = stopping_;
    if (!stopping && queue_.size() < kMaxQueued) {
      queue_.push_back(std::move(job));
      cv_.notify_all();
      return;
    }
  }
  job.done(absl::UnavailableError(
      stopping ? "the worker is stopping"
               : "too many group translations are waiting; try again later"));
}

void GroupFailoverService::Run() {
  while (true) {
    Job job;
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (stopping_) break;
      job = std::move(queue_.front());
      queue_.pop_front();
    }
    job.done(job.work());
  }
  std::deque<Job> left;
  {
    std::lock_guard lock(mu_);
    left.swap(queue_);
  }
  for (Job& job : left) job.done(absl::UnavailableError("the worker is stopping"));
}

}  // namespace connectd::mirror_maker
