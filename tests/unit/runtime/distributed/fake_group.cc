#include "tests/unit/runtime/distributed/fake_group.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <set>

#include <boost/asio/post.hpp>

#include "absl/strings/str_cat.h"

namespace connectd::distributed {

using kafka::protocol::JoinGroupRequest;
using kafka::protocol::JoinGroupResponse;

class FakeGroup::Member final : public GroupMembership,
                                public std::enable_shared_from_this<Member> {
 public:
  Member(std::shared_ptr<FakeGroup> group, GroupMemberListener* listener)
      : group_(std::move(group)), listener_(listener) {}

  void Start() override {
    boost::asio::post(group_->io_, [self = shared_from_this()] { self->group_->Add(self); });
  }
  void RequestRejoin(std::string /*reason*/) override {
    boost::asio::post(group_->io_, [self = shared_from_this()] { self->group_->StartRound(); });
  }
  void Stop(std::function<void()> done) override {
    boost::asio::post(group_->io_, [self = shared_from_this(), done = std::move(done)] {
      self->group_->Remove(self.get());
      if (done) done();
      self->group_->StartRound();  // the others rebalance without it
    });
  }

  const std::shared_ptr<FakeGroup> group_;
  GroupMemberListener* const listener_;
  std::string id_;
  int32_t generation_ = -1;
};

FakeGroup::Joiner FakeGroup::MakeJoiner() {
  return [self = shared_from_this()](boost::asio::io_context&, GroupMemberListener* listener) {
    return std::static_pointer_cast<GroupMembership>(std::make_shared<Member>(self, listener));
  };
}

void FakeGroup::Add(const std::shared_ptr<Member>& member) {
  member->id_ = absl::StrCat("connect-", ++next_member_);
  joining_.push_back(member);
  StartRound();
}

void FakeGroup::Remove(const Member* member) {
  auto gone = [member](const std::shared_ptr<Member>& m) { return m.get() == member; };
  members_.erase(std::remove_if(members_.begin(), members_.end(), gone), members_.end());
  joining_.erase(std::remove_if(joining_.begin(), joining_.end(), gone), joining_.end());
}

void FakeGroup::StartRound() {
  if (round_running_) {
    round_requested_ = true;
    return;
  }
  members_.insert(members_.end(), joining_.begin(), joining_.end());
  joining_.clear();
  if (members_.empty()) return;
  round_running_ = true;
  for (const auto& m : members_) m->listener_->OnJoinPrepare(m->generation_, m->id_);
  AwaitReady(/*attempts_left=*/3000);  // 20 ms apart: GroupMember's 60 s rebalance timeout
}

void FakeGroup::AwaitReady(int attempts_left) {
  const bool ready = std::all_of(members_.begin(), members_.end(),
                                 [](const auto& m) { return m->listener_->ReadyToJoin(); });
  if (ready || attempts_left == 0) return Assign();
  ready_timer_.expires_after(std::chrono::milliseconds(20));
  ready_timer_.async_wait([self = shared_from_this(), attempts_left](boost::system::error_code ec) {
    if (!ec) self->AwaitReady(attempts_left - 1);
  });
}

void FakeGroup::Assign() {
  round_running_ = false;
  if (members_.empty()) return;
  auto leader = std::find_if(members_.begin(), members_.end(),
                             [&](const auto& m) { return m->id_ == leader_id_; });
  if (leader == members_.end()) leader = members_.begin();
  const std::shared_ptr<Member> lead = *leader;
  leader_id_ = lead->id_;

  // The coordinator's choice: the leader's most preferred protocol that every member offers.
  std::map<std::string, std::map<std::string, std::string>> offered;  // member -> name -> meta
  for (const auto& m : members_) {
    for (const JoinGroupRequest::Protocol& p : m->listener_->JoinMetadata()) {
      offered[m->id_].emplace(p.name, p.metadata);
    }
  }
  std::string protocol;
  for (const JoinGroupRequest::Protocol& p : lead->listener_->JoinMetadata()) {
    if (std::all_of(members_.begin(), members_.end(),
                    [&](const auto& m) { return offered[m->id_].count(p.name) != 0; })) {
      protocol = p.name;
      break;
    }
  }
  if (protocol.empty()) {
    for (const auto& m : members_) {
      m->listener_->OnGroupError(absl::FailedPreconditionError("INCONSISTENT_GROUP_PROTOCOL"));
    }
    return;
  }
  const int32_t generation = generation_.load() + 1;
  std::vector<JoinGroupResponse::Member> metadata;
  for (const auto& m : members_) {
    metadata.push_back({m->id_, std::nullopt, offered[m->id_][protocol]});
  }
  absl::StatusOr<std::map<std::string, std::string>> assignments =
      lead->listener_->PerformAssignment(generation, lead->id_, protocol, metadata);
  if (!assignments.ok()) {
    // As GroupMember: the leader rejoins after a backoff.
    ready_timer_.expires_after(std::chrono::milliseconds(100));
    ready_timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
      if (!ec) self->StartRound();
    });
    return;
  }
  generation_ = generation;
  // A copy: a listener may leave (Remove) from inside OnJoinComplete's consequences only by
  // posting, but the loop must not depend on that.
  const std::vector<std::shared_ptr<Member>> members = members_;
  for (const auto& m : members) {
    m->generation_ = generation;
    m->listener_->OnJoinComplete(generation, m->id_, protocol, (*assignments)[m->id_]);
  }
  if (round_requested_ || !joining_.empty()) {
    round_requested_ = false;
    StartRound();
  }
}

}  // namespace connectd::distributed
