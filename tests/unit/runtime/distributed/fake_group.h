// File: fake_group.h
//
// FakeGroup: Kafka's group coordinator for the `connect` protocol, in process, for herder tests.
// Each worker joins through Joiner() (DistributedHerder::Options::join_group) and its
// WorkerCoordinator is driven exactly as GroupMember drives it: a round prepares every member
// (OnJoinPrepare), waits until each is ReadyToJoin, bumps the generation, lets the leader
// (the previous one while it stays, else the oldest member) PerformAssignment over every
// member's metadata for the first protocol all of them offer, and hands each member its
// assignment (OnJoinComplete). Joining, leaving and RequestRejoin start a round; a request
// during a round starts another after it. No heartbeats and no session timeouts: a member is
// gone when it leaves.
//
// Threads: everything runs on the io_context given to the constructor (run it on one thread),
// as GroupMember runs on its strand; public methods may be called from any thread.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "runtime/distributed/group_member.h"

namespace connectd::distributed {

class FakeGroup : public std::enable_shared_from_this<FakeGroup> {
 public:
  using Joiner = std::function<std::shared_ptr<GroupMembership>(boost::asio::io_context&,
                                                                GroupMemberListener*)>;

  static std::shared_ptr<FakeGroup> Create(boost::asio::io_context& io) {
    return std::shared_ptr<FakeGroup>(new FakeGroup(io));
  }

  // What a worker's herder is given to meet this group.
  Joiner MakeJoiner();

  // Completed rounds so far (the current generation).
  int32_t generation() const { return generation_.load(); }

 private:
  class Member;
  explicit FakeGroup(boost::asio::io_context& io) : io_(io), ready_timer_(io) {}

  void Add(const std::shared_ptr<Member>& member);
  void Remove(const Member* member);
  void StartRound();
  void AwaitReady(int attempts_left);
  void Assign();

  boost::asio::io_context& io_;
  boost::asio::steady_timer ready_timer_;
  std::atomic<int32_t> generation_{0};
  // io_ thread only.
  std::vector<std::shared_ptr<Member>> members_;  // in joining order
  std::vector<std::shared_ptr<Member>> joining_;  // join with the next round
  std::string leader_id_;
  int next_member_ = 0;
  bool round_running_ = false;
  bool round_requested_ = false;
};

}  // namespace connectd::distributed
