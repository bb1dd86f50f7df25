// File: group_failover_view.h
//
// GroupFailoverView: what the REST API (rest/resources/mirror_flows_resource.cc) needs to run a
// flow's group failover (group_failover.h), so that rest/ depends on an interface and not on
// librdkafka clients.
//
// Threads: implementations are thread-safe; calls return at once and `done` runs exactly once,
// later on another thread, or at once on the caller's when the request is refused unheard
// (kUnavailable: busy or stopping).
#pragma once

#include <functional>
#include <string>

#include "absl/status/statusor.h"
#include "runtime/mirror_maker/failover/group_translation.h"

namespace connectd::mirror_maker {

class GroupFailoverView {
 public:
  using Done = std::function<void(absl::StatusOr<GroupTranslation>)>;
  virtual ~GroupFailoverView() = default;
  // TranslateGroupOffsets for the flow source->target; kNotFound for an unknown flow.
  virtual void Translate(const std::string& source, const std::string& target,
                         const std::string& group, Done done) = 0;
  // FailoverGroup for the flow source->target; kNotFound for an unknown flow.
  virtual void Failover(const std::string& source, const std::string& target,
                        const std::string& group, bool dry_run, Done done) = 0;
};

}  // namespace connectd::mirror_maker
