// IncrementalCooperativeAssignor (KIP-415). The scenarios are those of Kafka's
// IncrementalCooperativeAssignorTest; the expected assignments are what Kafka 4.4.0's own
// assignor produced for them (IncrementalCooperativeAssignorTranscripts.java, beside this file),
// where Kafka's test only checks counts. The last test replays all recorded transcripts,
// including random ones, and compares every line.
#include "runtime/distributed/incremental_cooperative_assignor.h"

#include <algorithm>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

namespace connectd::distributed {
namespace {

using herder::ConnectorTaskId;

std::string Str(const ConnectorTaskId& t) { return t.connector + "-" + std::to_string(t.task); }
std::string Str(const std::string& s) { return s; }

template <typename T>
std::string List(const std::vector<T>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + Str(items[i]);
  return out + "]";
}

template <typename T>
std::vector<T> Sorted(std::vector<T> items) {
  std::sort(items.begin(), items.end());
  return items;
}

template <typename T>
std::vector<T> Without(std::vector<T> items, const std::vector<T>& gone) {
  std::erase_if(items,
                [&](const T& x) { return std::find(gone.begin(), gone.end(), x) != gone.end(); });
  return items;
}

// A simulated Connect cluster around one assignor: members in join order with their current
// sets, the configured connectors, the generation and an injected clock. Members apply each
// round's answer as Java's herder does (remove revoked, append newly assigned). Mirrors the
// script language of IncrementalCooperativeAssignorTranscripts.java.
class Cluster {
 public:
  explicit Cluster(int32_t max_delay_ms = IncrementalCooperativeAssignor::kDefaultMaxDelayMs)
      : max_delay_ms_(max_delay_ms) {
    NewLeader();
  }

  void NewLeader() { assignor_.emplace(*IncrementalCooperativeAssignor::Create(max_delay_ms_)); }
  void AddConnector(const std::string& name, int tasks) {
    std::vector<int32_t>& ids = configured_[name];
    ids.clear();
    for (int i = 0; i < tasks; ++i) ids.push_back(i);
  }
  void RemoveConnector(const std::string& name) { configured_.erase(name); }
  void AddWorker(const std::string& id, MemberWork work = {}) {
    order_.push_back(id);
    work_[id] = std::move(work);
  }
  void RemoveWorker(const std::string& id) {
    std::erase(order_, id);
    work_.erase(id);
  }
  void Sleep(int64_t ms) { now_ms_ += ms; }
  // Gives `id` a task (or connector) somebody else may already run.
  void AddTaskTo(const std::string& id, ConnectorTaskId task) { work_[id].tasks.push_back(task); }
  void AddConnectorTo(const std::string& id, std::string c) { work_[id].connectors.push_back(c); }

  // A round whose SyncGroup succeeds; members apply the answer.
  void Rebalance() { Round(/*apply=*/true, /*generation_mismatch=*/false); }
  // A round whose answer never reaches the members.
  void FailedRebalance() { Round(false, false); }
  // A round after which the leader's last completed generation is not the previous one.
  void MismatchedRebalance() { Round(true, true); }

  IncrementalCooperativeAssignor& assignor() { return *assignor_; }
  const AssignmentResult& last() const { return *last_; }
  const ConnectAssignment& Answer(const std::string& id) const { return last_->assignments.at(id); }

  // "+c[..] +t[..] -c[..] -t[..]": newly assigned in order, revoked sorted.
  std::string Delta(const std::string& id) const {
    const ConnectAssignment& a = Answer(id);
    return "+c" + List(a.connectors) + " +t" + List(a.tasks) + " -c" +
           List(Sorted(a.revoked_connectors)) + " -t" + List(Sorted(a.revoked_tasks));
  }
  // "c[..] t[..]": the member's current set in order.
  std::string Work(const std::string& id) const {
    const MemberWork& w = work_.at(id);
    return "c" + List(w.connectors) + " t" + List(w.tasks);
  }
  // Sorted per-member (connectors, tasks) counts, like Kafka's assertConnectorAllocations.
  std::vector<size_t> ConnectorCounts() const { return Counts(&MemberWork::connectors); }
  std::vector<size_t> TaskCounts() const { return Counts(&MemberWork::tasks); }
  bool NoRevocations() const {
    return std::all_of(last_->assignments.begin(), last_->assignments.end(), [](const auto& kv) {
      return kv.second.revoked_connectors.empty() && kv.second.revoked_tasks.empty();
    });
  }
  bool NothingNew() const {
    return NoRevocations() &&
           std::all_of(last_->assignments.begin(), last_->assignments.end(), [](const auto& kv) {
             return kv.second.connectors.empty() && kv.second.tasks.empty();
           });
  }
  // Every configured connector and task runs exactly once, and counts differ by at most one.
  bool BalancedAndComplete() const {
    std::multiset<std::string> connectors;
    std::multiset<ConnectorTaskId> tasks;
    for (const auto& [id, w] : work_) {
      connectors.insert(w.connectors.begin(), w.connectors.end());
      tasks.insert(w.tasks.begin(), w.tasks.end());
    }
    std::multiset<std::string> want_connectors;
    std::multiset<ConnectorTaskId> want_tasks;
    for (const auto& [c, ids] : configured_) {
      want_connectors.insert(c);
      for (int32_t t : ids) want_tasks.insert({c, t});
    }
    auto spread = [](const std::vector<size_t>& v) { return v.back() - v.front(); };
    return connectors == want_connectors && tasks == want_tasks && spread(ConnectorCounts()) <= 1 &&
           spread(TaskCounts()) <= 1;
  }

  // The transcript lines of the last round, in the format of the Java program.
  std::vector<std::string> Transcript(bool applied) const {
    std::vector<std::string> out;
    out.push_back("round " + std::to_string(round_no_) +
                  " delay=" + std::to_string(assignor_->delay_ms()) +
                  " scheduled=" + std::to_string(assignor_->scheduled_rebalance_ms()));
    std::set<std::string> ids(order_.begin(), order_.end());
    for (const std::string& id : ids) out.push_back("  " + id + " " + Delta(id));
    if (applied) {
      for (const std::string& id : ids) out.push_back("  = " + id + " " + Work(id));
    }
    return out;
  }

 private:
  std::vector<size_t> Counts(std::vector<std::string> MemberWork::*) const {
    std::vector<size_t> out;
    for (const auto& [id, w] : work_) out.push_back(w.connectors.size());
    return Sorted(out);
  }
  std::vector<size_t> Counts(std::vector<ConnectorTaskId> MemberWork::*) const {
    std::vector<size_t> out;
    for (const auto& [id, w] : work_) out.push_back(w.tasks.size());
    return Sorted(out);
  }

  void Round(bool apply, bool generation_mismatch) {
    ++generation_;
    ++round_no_;
    AssignmentInput input;
    for (const std::string& id : order_) {
      AssignorMember m;
      m.member_id = id;
      m.metadata.url = "http://" + id + ":8083/";
      m.metadata.config_offset = 618;
      ConnectAssignment allocation;
      allocation.connectors = work_[id].connectors;
      allocation.tasks = work_[id].tasks;
      m.metadata.allocation = allocation;
      input.members.push_back(std::move(m));
    }
    input.configured = configured_;
    input.leader_id = order_.front();
    input.leader_url = "http://" + order_.front() + ":8083/";
    input.config_offset = 618;
    IncrementalCooperativeAssignor::Round round;
    round.generation = generation_;
    round.last_completed_generation = generation_mismatch ? generation_ - 2 : generation_ - 1;
    round.now_ms = now_ms_;
    auto result = assignor_->PerformAssignment(input, round);
    ASSERT_TRUE(result.ok()) << result.status();
    last_ = *std::move(result);

    // Kafka's assertNoRedundantAssignments: nothing newly assigned twice or to a member that
    // already runs something.
    std::multiset<std::string> running_connectors;
    std::multiset<ConnectorTaskId> running_tasks;
    for (const auto& [id, w] : work_) {
      running_connectors.insert(w.connectors.begin(), w.connectors.end());
      running_tasks.insert(w.tasks.begin(), w.tasks.end());
    }
    std::set<std::string> new_connectors;
    std::set<ConnectorTaskId> new_tasks;
    for (const auto& [id, a] : last_->assignments) {
      EXPECT_EQ(a.version, kProtocolV2);
      EXPECT_EQ(a.leader, input.leader_id);
      EXPECT_EQ(a.delay_ms, assignor_->delay_ms());
      for (const std::string& c : a.connectors) {
        EXPECT_TRUE(new_connectors.insert(c).second) << c;
        EXPECT_EQ(running_connectors.count(c), 0u) << c;
      }
      for (const ConnectorTaskId& t : a.tasks) {
        EXPECT_TRUE(new_tasks.insert(t).second) << Str(t);
        EXPECT_EQ(running_tasks.count(t), 0u) << Str(t);
      }
    }
    if (!apply) return;
    for (const std::string& id : order_) {
      const ConnectAssignment& a = last_->assignments.at(id);
      MemberWork& w = work_[id];
      w.connectors = Without(w.connectors, a.revoked_connectors);
      w.connectors.insert(w.connectors.end(), a.connectors.begin(), a.connectors.end());
      w.tasks = Without(w.tasks, a.revoked_tasks);
      w.tasks.insert(w.tasks.end(), a.tasks.begin(), a.tasks.end());
      // The leader's view of the complete set matches what the member now runs (a member
      // that listed an item twice runs it once).
      MemberWork once;
      for (const std::string& c : w.connectors) {
        if (std::find(once.connectors.begin(), once.connectors.end(), c) == once.connectors.end()) {
          once.connectors.push_back(c);
        }
      }
      for (const ConnectorTaskId& t : w.tasks) {
        if (std::find(once.tasks.begin(), once.tasks.end(), t) == once.tasks.end()) {
          once.tasks.push_back(t);
        }
      }
      EXPECT_TRUE(once == last_->complete.at(id)) << id;
    }
  }

  int32_t max_delay_ms_;
  std::optional<IncrementalCooperativeAssignor> assignor_;
  std::vector<std::string> order_;
  std::map<std::string, MemberWork> work_;
  ConfiguredConnectors configured_;
  int32_t generation_ = 0;
  int round_no_ = 0;
  int64_t now_ms_ = 0;
  std::optional<AssignmentResult> last_;
};

using Counts = std::vector<size_t>;

TEST(IncrementalCooperativeAssignorTest, TaskAssignmentWhenWorkerJoins) {
  Cluster cluster;
  cluster.AddConnector("connector1", 4);
  cluster.AddConnector("connector2", 4);
  cluster.AddWorker("worker1");
  cluster.Rebalance();
  EXPECT_EQ(cluster.assignor().delay_ms(), 0);
  EXPECT_EQ(cluster.Delta("worker1"),
            "+c[connector1, connector2] +t[connector1-0, connector1-1, connector1-2, "
            "connector1-3, connector2-0, connector2-1, connector2-2, connector2-3] -c[] -t[]");
  EXPECT_TRUE(cluster.BalancedAndComplete());

  // worker2 joins: worker1 gives up the front of its lists, nothing is assigned yet.
  cluster.AddWorker("worker2");
  cluster.Rebalance();
  EXPECT_EQ(cluster.assignor().delay_ms(), 0);
  EXPECT_EQ(cluster.Delta("worker1"),
            "+c[] +t[] -c[connector1] -t[connector1-0, connector1-1, connector1-2, connector1-3]");
  EXPECT_EQ(cluster.Delta("worker2"), "+c[] +t[] -c[] -t[]");

  // The follow-up round hands the revoked work to worker2.
  cluster.Rebalance();
  EXPECT_TRUE(cluster.NoRevocations());
  EXPECT_EQ(cluster.Delta("worker2"),
            "+c[connector1] +t[connector1-0, connector1-1, connector1-2, connector1-3] -c[] -t[]");
  EXPECT_EQ(cluster.Work("worker1"),
            "c[connector2] t[connector2-0, connector2-1, connector2-2, connector2-3]");
  EXPECT_TRUE(cluster.BalancedAndComplete());
  EXPECT_EQ(
      cluster.last().owners.connectors,
      (std::map<std::string, std::string>{{"connector1", "worker2"}, {"connector2", "worker1"}}));
  EXPECT_EQ(cluster.last().owners.tasks.at({"connector1", 3}), "worker2");

  cluster.Rebalance();
  EXPECT_EQ(cluster.assignor().delay_ms(), 0);
  EXPECT_TRUE(cluster.NothingNew());
}

TEST(IncrementalCooperativeAssignorTest, AssignmentsWhenWorkersJoinAfterRevocations) {
  Cluster cluster;
  for (const char* c : {"connector1", "connector2", "connector3"}) cluster.AddConnector(c, 4);
  cluster.AddWorker("worker1");
  cluster.Rebalance();
  EXPECT_EQ(cluster.TaskCounts(), (Counts{12}));

  cluster.AddWorker("worker2");
  cluster.Rebalance();
  EXPECT_EQ(cluster.Delta("worker1"),
            "+c[] +t[] -c[connector1] -t[connector1-0, connector1-1, connector1-2, "
            "connector1-3, connector2-0, connector2-1]");

  // A second revoking round in a row: no revocation, a 40 ms delay (40^1) instead.
  cluster.AddWorker("worker3");
  cluster.Rebalance();
  EXPECT_EQ(cluster.assignor().delay_ms(), 40);
  EXPECT_EQ(cluster.assignor().scheduled_rebalance_ms(), 40);
  EXPECT_TRUE(cluster.NoRevocations());
  EXPECT_EQ(cluster.Delta("worker2"),
            "+c[connector1] +t[connector1-0, connector1-2, connector2-0] -c[] -t[]");
  EXPECT_EQ(cluster.Delta("worker3"),
            "+c[] +t[connector1-1, connector1-3, connector2-1] -c[] -t[]");
  EXPECT_EQ(cluster.ConnectorCounts(), (Counts{0, 1, 2}));
  EXPECT_EQ(cluster.TaskCounts(), (Counts{3, 3, 6}));

  // After the delay, revocations are allowed again.
  cluster.Sleep(40);
  cluster.AddWorker("worker4");
  cluster.Rebalance();
  EXPECT_EQ(cluster.assignor().delay_ms(), 0);
  EXPECT_EQ(cluster.Delta("worker1"),
            "+c[] +t[] -c[connector2] -t[connector2-2, connector2-3, connector3-0]");
  EXPECT_EQ(cluster.TaskCounts(), (Counts{0, 3, 3, 3}));

  // The next revoking round in a row is the second: 40^2 = 1600 ms.
  cluster.AddWorker("worker5");
  cluster.Rebalance();
  EXPECT_EQ(cluster.assignor().delay_ms(), 1600);
  EXPECT_EQ(cluster.assignor().consecutive_revoking_rebalances(), 2);
  EXPECT_TRUE(cluster.NoRevocations());
  EXPECT_EQ(cluster.Delta("worker3"), "+c[connector2] +t[] -c[] -t[]");
  EXPECT_EQ(cluster.Delta("worker4"), "+c[] +t[connector2-2, connector3-0] -c[] -t[]");
  EXPECT_EQ(cluster.Delta("worker5"), "+c[] +t[connector2-3] -c[] -t[]");
  EXPECT_EQ(cluster.TaskCounts(), (Counts{1, 2, 3, 3, 3}));

  cluster.Sleep(1600);
  cluster.AddWorker("worker6");
  cluster.Rebalance();
  EXPECT_EQ(cluster.assignor().delay_ms(), 0);
  EXPECT_EQ(cluster.Delta("worker1"), "+c[] +t[] -c[] -t[connector3-1]");
  EXPECT_EQ(cluster.Delta("worker2"), "+c[] +t[] -c[] -t[connector1-0]");
  EXPECT_EQ(cluster.Delta("worker3"), "+c[] +t[] -c[] -t[connector1-1]");
  EXPECT_EQ(cluster.TaskCounts(), (Counts{0, 1, 2, 2, 2, 2}));

  cluster.Rebalance();
  EXPECT_EQ(cluster.Delta("worker5"), "+c[] +t[connector3-1] -c[] -t[]");
  EXPECT_EQ(cluster.Delta("worker6"), "+c[] +t[connector1-0, connector1-1] -c[] -t[]");
  EXPECT_EQ(cluster.ConnectorCounts(), (Counts{0, 0, 0, 1, 1, 1}));
  EXPECT_TRUE(cluster.BalancedAndComplete());
}

TEST(IncrementalCooperativeAssignorTest, ImmediateRevocationsWhenMaxDelayIs0) {
  Cluster cluster(0);
  for (const char* c : {"connector1", "connector2", "connector3"}) cluster.AddConnector(c, 4);
  cluster.AddWorker("worker1");
  cluster.Rebalance();
  cluster.AddWorker("worker2");
  cluster.Rebalance();
  EXPECT_EQ(cluster.TaskCounts(), (Counts{0, 6}));

  // Consecutive revoking round, but with no delay configured it revokes at once.
  cluster.AddWorker("worker3");
  cluster.Rebalance();
  EXPECT_EQ(cluster.assignor().delay_ms(), 0);
  EXPECT_FALSE(cluster.NoRevocations());
  EXPECT_EQ(cluster.ConnectorCounts(), (Counts{0, 1, 1}));
  EXPECT_EQ(cluster.TaskCounts(), (Counts{3, 3, 4}));

  cluster.Rebalance();
  EXPECT_TRUE(cluster.NoRevocations());
  EXPECT_EQ(cluster.TaskCounts(), (Counts{4, 4, 4}));
  EXPECT_TRUE(cluster.BalancedAndComplete());
}

TEST(IncrementalCooperativeAssignorTest, SuccessiveRevocationsWhenMaxDelayIs1) {
  Cluster cluster(1);
  for (const char* c : {"connector1", "connector2", "connector3"}) cluster.AddConnector(c, 4);
  cluster.AddWorker("worker1");
  cluster.Rebalance();
  cluster.AddWorker("worker2");
  cluster.Rebalance();
  cluster.AddWorker("worker3");
  cluster.Rebalance();
  EXPECT_EQ(cluster.assignor().delay_ms(), 1);
  EXPECT_TRUE(cluster.NoRevocations());
  EXPECT_EQ(cluster.ConnectorCounts(), (Counts{0, 1, 2}));
  EXPECT_EQ(cluster.TaskCounts(), (Counts{3, 3, 6}));
}

TEST(IncrementalCooperativeAssignorTest, WorkerJoiningDuringDelayedRebalance) {
  Cluster cluster;
  for (const char* c : {"connector1", "connector2", "connector3"}) cluster.AddConnector(c, 4);
  cluster.AddWorker("worker1");
  cluster.Rebalance();
  cluster.AddWorker("worker2");
  cluster.Rebalance();
  cluster.AddWorker("worker3");
  cluster.Rebalance();
  EXPECT_EQ(cluster.assignor().delay_ms(), 40);

  // Halfway through the delay: it continues (20 ms left), nothing is revoked.
  cluster.Sleep(20);
  cluster.AddWorker("worker4");
  cluster.Rebalance();
  EXPECT_EQ(cluster.assignor().delay_ms(), 20);
  EXPECT_TRUE(cluster.NoRevocations());
  EXPECT_EQ(cluster.TaskCounts(), (Counts{0, 3, 3, 6}));

  cluster.Sleep(20);
  cluster.AddWorker("worker5");
  cluster.Rebalance();
  EXPECT_EQ(cluster.assignor().delay_ms(), 0);
  EXPECT_EQ(cluster.Delta("worker1"),
            "+c[] +t[] -c[connector2] -t[connector2-2, connector2-3, connector3-0]");
  EXPECT_EQ(cluster.Delta("worker3"), "+c[] +t[] -c[] -t[connector1-1]");
  EXPECT_EQ(cluster.ConnectorCounts(), (Counts{0, 0, 0, 1, 1}));
  EXPECT_EQ(cluster.TaskCounts(), (Counts{0, 0, 2, 3, 3}));

  cluster.Rebalance();
  EXPECT_TRUE(cluster.NoRevocations());
  EXPECT_EQ(cluster.Delta("worker3"), "+c[connector2] +t[] -c[] -t[]");
  EXPECT_EQ(cluster.Delta("worker4"), "+c[] +t[connector1-1, connector2-3] -c[] -t[]");
  EXPECT_EQ(cluster.Delta("worker5"), "+c[] +t[connector2-2, connector3-0] -c[] -t[]");
  EXPECT_EQ(cluster.TaskCounts(), (Counts{2, 2, 2, 3, 3}));
  EXPECT_TRUE(cluster.BalancedAndComplete());
}

TEST(IncrementalCooperativeAssignorTest, TaskAssignmentWhenWorkerLeavesPermanently) {
  Cluster cluster;
  cluster.AddConnector("connector1", 4);
  cluster.AddConnector("connector2", 4);
  cluster.AddWorker("worker1");
  cluster.AddWorker("worker2");
  cluster.Rebalance();
  EXPECT_EQ(cluster.Work("worker2"),
            "c[connector2] t[connector1-1, connector1-3, connector2-1, connector2-3]");

  // worker2 leaves: its work is lost, and waits for the full delay.
  cluster.RemoveWorker("worker2");
  cluster.Rebalance();
  EXPECT_EQ(cluster.assignor().delay_ms(), 300'000);
  EXPECT_EQ(cluster.assignor().scheduled_rebalance_ms(), 300'000);
  EXPECT_TRUE(cluster.NothingNew());
  EXPECT_EQ(cluster.Answer("worker1").delay_ms, 300'000);

  cluster.Sleep(150'000);
  cluster.Rebalance();
  EXPECT_EQ(cluster.assignor().delay_ms(), 150'000);
  EXPECT_TRUE(cluster.NothingNew());

  cluster.Sleep(150'001);
  cluster.Rebalance();
  EXPECT_EQ(cluster.assignor().delay_ms(), 0);
  EXPECT_EQ(cluster.Delta("worker1"),
            "+c[connector2] +t[connector1-1, connector1-3, connector2-1, connector2-3] -c[] -t[]");
  EXPECT_TRUE(cluster.BalancedAndComplete());
}

TEST(IncrementalCooperativeAssignorTest, TaskAssignmentWhenWorkerBounces) {
  Cluster cluster;
  cluster.AddConnector("connector1", 4);
  cluster.AddConnector("connector2", 4);
  cluster.AddWorker("worker1");
  cluster.AddWorker("worker2");
  cluster.Rebalance();
  cluster.RemoveWorker("worker2");
  cluster.Rebalance();
  EXPECT_EQ(cluster.assignor().delay_ms(), 300'000);
  cluster.Sleep(150'000);
  cluster.Rebalance();
  EXPECT_EQ(cluster.assignor().delay_ms(), 150'000);

  // worker2 comes back (empty) before the delay ends: it becomes the candidate.
  cluster.Sleep(75'000);
  cluster.AddWorker("worker2");
  cluster.Rebalance();
  EXPECT_EQ(cluster.assignor().delay_ms(), 75'000);
  EXPECT_EQ(cluster.assignor().candidate_workers(), (std::vector<std::string>{"worker2"}));
  EXPECT_TRUE(cluster.NothingNew());

  // On expiry the lost work goes back to it, without revocations.
  cluster.Sleep(75'000);
  cluster.Rebalance();
  EXPECT_EQ(cluster.assignor().delay_ms(), 0);
  EXPECT_TRUE(cluster.NoRevocations());
  EXPECT_EQ(cluster.Delta("worker2"),
            "+c[connector2] +t[connector1-1, connector1-3, connector2-1, connector2-3] -c[] -t[]");
  EXPECT_TRUE(cluster.assignor().candidate_workers().empty());
  EXPECT_TRUE(cluster.BalancedAndComplete());
}

TEST(IncrementalCooperativeAssignorTest, TaskAssignmentWhenLeaderLeavesAndBounces) {
  Cluster cluster;
  cluster.AddConnector("connector1", 4);
  cluster.AddConnector("connector2", 4);
  for (const char* w : {"worker1", "worker2", "worker3"}) cluster.AddWorker(w);
  cluster.Rebalance();
  EXPECT_EQ(cluster.Work("worker1"), "c[connector1] t[connector1-0, connector1-3, connector2-2]");
  EXPECT_EQ(cluster.Work("worker2"), "c[connector2] t[connector1-1, connector2-0, connector2-3]");
  EXPECT_EQ(cluster.Work("worker3"), "c[] t[connector1-2, connector2-1]");

  // The leader leaves; the new leader starts without memory, so its work is simply new.
  cluster.RemoveWorker("worker1");
  cluster.NewLeader();
  cluster.Rebalance();
  EXPECT_EQ(cluster.assignor().delay_ms(), 0);
  EXPECT_EQ(cluster.Delta("worker2"), "+c[] +t[connector2-2] -c[] -t[]");
  EXPECT_EQ(cluster.Delta("worker3"), "+c[connector1] +t[connector1-0, connector1-3] -c[] -t[]");
  EXPECT_TRUE(cluster.BalancedAndComplete());
  cluster.Rebalance();
  EXPECT_TRUE(cluster.NothingNew());

  // The old leader returns as a follower: an ordinary join.
  cluster.AddWorker("worker1");
  cluster.Rebalance();
  EXPECT_EQ(cluster.Delta("worker2"), "+c[] +t[] -c[] -t[connector1-1]");
  EXPECT_EQ(cluster.Delta("worker3"), "+c[] +t[] -c[] -t[connector1-2]");
  cluster.Rebalance();
  EXPECT_TRUE(cluster.NoRevocations());
  EXPECT_EQ(cluster.Delta("worker1"), "+c[] +t[connector1-1, connector1-2] -c[] -t[]");
  EXPECT_EQ(cluster.TaskCounts(), (Counts{2, 3, 3}));
  EXPECT_TRUE(cluster.BalancedAndComplete());
}

TEST(IncrementalCooperativeAssignorTest, TaskAssignmentWhenFirstAssignmentAttemptFails) {
  Cluster cluster;
  cluster.AddConnector("connector1", 4);
  cluster.AddConnector("connector2", 4);
  cluster.AddWorker("worker1");
  cluster.AddWorker("worker2");
  cluster.FailedRebalance();
  EXPECT_EQ(cluster.TaskCounts(), (Counts{0, 0}));

  // Same members, nothing running: the "lost" work is reassigned at once, no delay.
  cluster.Rebalance();
  EXPECT_EQ(cluster.assignor().delay_ms(), 0);
  EXPECT_EQ(cluster.Delta("worker1"),
            "+c[connector1] +t[connector1-0, connector1-2, connector2-0, connector2-2] -c[] -t[]");
  EXPECT_EQ(cluster.Delta("worker2"),
            "+c[connector2] +t[connector1-1, connector1-3, connector2-1, connector2-3] -c[] -t[]");
  EXPECT_TRUE(cluster.BalancedAndComplete());
}

TEST(IncrementalCooperativeAssignorTest, TaskAssignmentWhenSubsequentAssignmentAttemptFails) {
  for (bool generation_mismatch : {false, true}) {
    SCOPED_TRACE(generation_mismatch ? "mismatched generation" : "same generation");
    Cluster cluster;
    cluster.AddConnector("connector1", 4);
    cluster.AddConnector("connector2", 4);
    cluster.AddWorker("worker1");
    cluster.AddWorker("worker2");
    cluster.Rebalance();
    cluster.AddWorker("worker3");
    cluster.FailedRebalance();  // would have revoked connector1-0 and connector1-1
    EXPECT_EQ(cluster.Delta("worker1"), "+c[] +t[] -c[] -t[connector1-0]");
    EXPECT_EQ(cluster.Delta("worker2"), "+c[] +t[] -c[] -t[connector1-1]");

    // The revocation never happened: a consecutive revoking round, so a delay instead.
    if (generation_mismatch) {
      cluster.MismatchedRebalance();
    } else {
      cluster.Rebalance();
    }
    EXPECT_EQ(cluster.assignor().delay_ms(), 40);
    EXPECT_TRUE(cluster.NothingNew());
    EXPECT_EQ(cluster.TaskCounts(), (Counts{0, 4, 4}));

    cluster.Sleep(40);
    cluster.Rebalance();
    EXPECT_EQ(cluster.assignor().delay_ms(), 0);
    EXPECT_EQ(cluster.Delta("worker1"), "+c[] +t[] -c[] -t[connector1-0]");
    EXPECT_EQ(cluster.Delta("worker2"), "+c[] +t[] -c[] -t[connector1-1]");

    cluster.Rebalance();
    EXPECT_EQ(cluster.Delta("worker3"), "+c[] +t[connector1-0, connector1-1] -c[] -t[]");
    EXPECT_TRUE(cluster.BalancedAndComplete());
  }
}

TEST(IncrementalCooperativeAssignorTest, TaskAssignmentWhenConnectorsAreDeleted) {
  Cluster cluster;
  for (const char* c : {"connector1", "connector2", "connector3"}) cluster.AddConnector(c, 4);
  cluster.AddWorker("worker1");
  cluster.AddWorker("worker2");
  cluster.Rebalance();
  EXPECT_EQ(cluster.ConnectorCounts(), (Counts{1, 2}));

  cluster.RemoveConnector("connector3");
  cluster.Rebalance();
  EXPECT_EQ(cluster.Delta("worker1"), "+c[] +t[] -c[connector3] -t[connector3-0, connector3-2]");
  EXPECT_EQ(cluster.Delta("worker2"), "+c[] +t[] -c[] -t[connector3-1, connector3-3]");
  EXPECT_TRUE(cluster.BalancedAndComplete());
}

TEST(IncrementalCooperativeAssignorTest, ScheduledDelayIsDisabled) {
  Cluster cluster(0);
  cluster.AddConnector("connector1", 4);
  cluster.AddConnector("connector2", 4);
  cluster.AddWorker("worker1");
  cluster.AddWorker("worker2");
  cluster.Rebalance();
  cluster.RemoveWorker("worker2");
  cluster.Rebalance();
  EXPECT_EQ(cluster.assignor().delay_ms(), 0);
  EXPECT_EQ(cluster.Delta("worker1"),
            "+c[connector2] +t[connector1-1, connector1-3, connector2-1, connector2-3] -c[] -t[]");
  EXPECT_TRUE(cluster.BalancedAndComplete());
}

TEST(IncrementalCooperativeAssignorTest, TasksDuplicatedInWorkerAssignment) {
  Cluster cluster;
  cluster.AddConnector("connector1", 4);
  cluster.AddConnector("connector2", 4);
  cluster.AddWorker("worker1");
  cluster.Rebalance();
  cluster.AddWorker("worker2",
                    {{"connector1"},
                     {{"connector1", 0}, {"connector1", 1}, {"connector1", 2}, {"connector1", 3}}});
  // Everything worker2 claims also runs on worker1: revoked from both.
  cluster.Rebalance();
  EXPECT_EQ(cluster.Delta("worker1"),
            "+c[] +t[] -c[connector1] -t[connector1-0, connector1-1, connector1-2, connector1-3]");
  EXPECT_EQ(cluster.Delta("worker2"),
            "+c[] +t[] -c[connector1] -t[connector1-0, connector1-1, connector1-2, connector1-3]");
  EXPECT_EQ(cluster.TaskCounts(), (Counts{0, 4}));

  cluster.Rebalance();
  EXPECT_TRUE(cluster.NoRevocations());
  EXPECT_EQ(cluster.Delta("worker2"),
            "+c[connector1] +t[connector1-0, connector1-1, connector1-2, connector1-3] -c[] -t[]");
  EXPECT_TRUE(cluster.BalancedAndComplete());
  cluster.Rebalance();
  EXPECT_TRUE(cluster.NothingNew());
}

TEST(IncrementalCooperativeAssignorTest, DuplicatedAssignmentsThatAreAlsoDeleted) {
  Cluster cluster;
  cluster.AddConnector("connector1", 4);
  cluster.AddConnector("connector2", 4);
  cluster.AddWorker("worker1");
  cluster.Rebalance();
  cluster.RemoveConnector("connector1");
  cluster.AddWorker("worker2",
                    {{"connector1"},
                     {{"connector1", 0}, {"connector1", 1}, {"connector1", 2}, {"connector1", 3}}});
  cluster.Rebalance();
  EXPECT_EQ(cluster.Delta("worker1"),
            "+c[] +t[] -c[connector1] -t[connector1-0, connector1-1, connector1-2, "
            "connector1-3, connector2-0, connector2-1]");
  EXPECT_EQ(cluster.Delta("worker2"),
            "+c[] +t[] -c[connector1] -t[connector1-0, connector1-1, connector1-2, connector1-3]");
  EXPECT_EQ(cluster.TaskCounts(), (Counts{0, 2}));

  cluster.Rebalance();
  EXPECT_TRUE(cluster.NoRevocations());
  EXPECT_EQ(cluster.Delta("worker2"), "+c[] +t[connector2-0, connector2-1] -c[] -t[]");
  EXPECT_TRUE(cluster.BalancedAndComplete());
  cluster.Rebalance();
  EXPECT_TRUE(cluster.NothingNew());
}

TEST(IncrementalCooperativeAssignorTest, LostAssignmentsGoToCandidatesInOrderTheyAppeared) {
  // LostAssignmentHandlingWithMoreThanOneCandidates, as whole rounds.
  Cluster cluster;
  for (const char* c : {"connector1", "connector2", "connector3"}) cluster.AddConnector(c, 4);
  for (const char* w : {"worker0", "worker1", "worker2"}) cluster.AddWorker(w);
  cluster.Rebalance();
  EXPECT_EQ(cluster.Work("worker1"),
            "c[connector2] t[connector1-1, connector2-0, connector2-3, connector3-2]");

  // worker1 leaves and a new worker3 joins: the delay starts, worker3 is a candidate.
  cluster.RemoveWorker("worker1");
  cluster.AddWorker("worker3");
  cluster.Rebalance();
  EXPECT_EQ(cluster.assignor().delay_ms(), 300'000);
  EXPECT_EQ(cluster.assignor().candidate_workers(), (std::vector<std::string>{"worker3"}));
  EXPECT_TRUE(cluster.NothingNew());

  cluster.Sleep(100'000);
  cluster.AddWorker("worker1");  // back, empty
  cluster.Rebalance();
  EXPECT_EQ(cluster.assignor().delay_ms(), 200'000);
  EXPECT_EQ(cluster.assignor().candidate_workers(),
            (std::vector<std::string>{"worker3", "worker1"}));

  // Expiry: lost work dealt round-robin over [worker3, worker1]; balancing revokes the excess.
  cluster.Sleep(200'000);
  cluster.Rebalance();
  EXPECT_EQ(cluster.assignor().delay_ms(), 0);
  EXPECT_EQ(cluster.Delta("worker3"), "+c[connector2] +t[connector1-1, connector2-3] -c[] -t[]");
  EXPECT_EQ(cluster.Delta("worker1"), "+c[] +t[connector2-0, connector3-2] -c[] -t[]");
  EXPECT_EQ(cluster.Delta("worker0"), "+c[] +t[] -c[] -t[connector1-0]");
  EXPECT_EQ(cluster.Delta("worker2"), "+c[] +t[] -c[] -t[connector1-2]");

  cluster.Rebalance();
  EXPECT_EQ(cluster.Delta("worker1"), "+c[] +t[connector1-0] -c[] -t[]");
  EXPECT_EQ(cluster.Delta("worker3"), "+c[] +t[connector1-2] -c[] -t[]");
  EXPECT_TRUE(cluster.BalancedAndComplete());
}

TEST(IncrementalCooperativeAssignorTest, AssignsNewWorkOnTopOfExistingLoad) {
  // testAssignConnectorsWhenBalanced / testAssignTasksWhenBalanced, through a whole round.
  Cluster cluster;
  for (int i = 0; i < 11; ++i) cluster.AddConnector("connector" + std::to_string(i), 0);
  cluster.AddConnector("task", 11);
  for (int w = 0; w < 3; ++w) {
    MemberWork work;
    for (int i = 2 * w; i < 2 * w + 2; ++i) {
      work.connectors.push_back("connector" + std::to_string(i));
      work.tasks.push_back({"task", i});
    }
    cluster.AddWorker("worker" + std::to_string(w), work);
  }
  cluster.Rebalance();
  EXPECT_TRUE(cluster.NoRevocations());
  // Names sort as strings: connector10 comes before connector6; "task" is a connector too.
  EXPECT_EQ(cluster.Delta("worker0"), "+c[connector10, connector8] +t[task-6, task-9] -c[] -t[]");
  EXPECT_EQ(cluster.Delta("worker1"), "+c[connector6, connector9] +t[task-7, task-10] -c[] -t[]");
  EXPECT_EQ(cluster.Delta("worker2"), "+c[connector7, task] +t[task-8] -c[] -t[]");
}

TEST(IncrementalCooperativeAssignorTest, AssignConnectorsWhenImbalanced) {
  Cluster cluster;
  for (int i = 0; i < 24; ++i) cluster.AddConnector("c" + std::to_string(100 + i), 0);
  cluster.AddConnector("task", 24);
  const int start[] = {0, 2, 5};
  const int count[] = {2, 3, 4};
  for (int w = 0; w < 3; ++w) {
    MemberWork work;
    for (int i = start[w]; i < start[w] + count[w]; ++i) {
      work.connectors.push_back("c" + std::to_string(100 + i));
      work.tasks.push_back({"task", i});
    }
    cluster.AddWorker("worker" + std::to_string(w), work);
  }
  cluster.AddWorker("worker3");
  cluster.Rebalance();
  EXPECT_TRUE(cluster.NoRevocations());
  // 25 connectors over 4 members: 6, 6, 6, 7; the 24 tasks evenly.
  EXPECT_EQ(cluster.ConnectorCounts(), (Counts{6, 6, 6, 7}));
  EXPECT_EQ(cluster.TaskCounts(), (Counts{6, 6, 6, 6}));
  EXPECT_EQ(cluster.Delta("worker3"),
            "+c[c109, c110, c111, c113, c116, c120, task] +t[task-9, task-10, task-11, task-13, "
            "task-16, task-20] -c[] -t[]");
  EXPECT_EQ(cluster.Delta("worker2"), "+c[c119, c123] +t[task-19, task-23] -c[] -t[]");
}

TEST(IncrementalCooperativeAssignorTest, ConsecutiveRevokingRoundsBackOff) {
  Cluster cluster;
  cluster.AddConnector("connector1", 12);
  cluster.AddWorker("worker1");
  cluster.Rebalance();
  cluster.AddWorker("worker2");
  cluster.Rebalance();  // revokes
  cluster.AddWorker("worker3");
  cluster.Rebalance();  // 1st consecutive
  EXPECT_EQ(cluster.assignor().delay_ms(), 40);
  cluster.Sleep(40);
  cluster.Rebalance();  // expired: revokes
  EXPECT_EQ(cluster.assignor().delay_ms(), 0);
  EXPECT_FALSE(cluster.NoRevocations());
  cluster.AddWorker("worker4");
  cluster.Rebalance();  // 2nd consecutive
  EXPECT_EQ(cluster.assignor().delay_ms(), 1600);
  cluster.Sleep(1600);
  cluster.Rebalance();
  cluster.AddWorker("worker5");
  cluster.Rebalance();  // 3rd
  EXPECT_EQ(cluster.assignor().delay_ms(), 64'000);
  cluster.Sleep(64'000);
  cluster.Rebalance();
  cluster.AddWorker("worker6");
  cluster.Rebalance();  // 4th: capped at the max delay
  EXPECT_EQ(cluster.assignor().delay_ms(), 300'000);
  EXPECT_EQ(cluster.assignor().consecutive_revoking_rebalances(), 4);
  cluster.Sleep(300'000);
  cluster.Rebalance();
  cluster.Rebalance();
  EXPECT_TRUE(cluster.BalancedAndComplete());
  EXPECT_EQ(cluster.assignor().consecutive_revoking_rebalances(), 0);  // converged: reset
  cluster.AddWorker("worker7");
  cluster.Rebalance();
  EXPECT_EQ(cluster.assignor().delay_ms(), 0);
  EXPECT_FALSE(cluster.NoRevocations());
}

TEST(IncrementalCooperativeAssignorTest, ConsecutiveRevocationDelayMatchesJavaBackoff) {
  // ExponentialBackoff(1, 40, max, 0).backoff(k) as Kafka 4.4 computes it.
  using A = IncrementalCooperativeAssignor;
  EXPECT_EQ(A::ConsecutiveRevocationDelayMs(300'000, 1), 40);
  EXPECT_EQ(A::ConsecutiveRevocationDelayMs(300'000, 2), 1600);
  EXPECT_EQ(A::ConsecutiveRevocationDelayMs(300'000, 3), 64'000);
  EXPECT_EQ(A::ConsecutiveRevocationDelayMs(300'000, 4), 300'000);
  EXPECT_EQ(A::ConsecutiveRevocationDelayMs(300'000, 9), 300'000);
  EXPECT_EQ(A::ConsecutiveRevocationDelayMs(100'000, 4), 99'999);  // Java's rounding, too
  EXPECT_EQ(A::ConsecutiveRevocationDelayMs(64'000, 3), 64'000);
  EXPECT_EQ(A::ConsecutiveRevocationDelayMs(1600, 2), 1600);
  EXPECT_EQ(A::ConsecutiveRevocationDelayMs(2, 1), 2);
  EXPECT_EQ(A::ConsecutiveRevocationDelayMs(1, 3), 1);
  EXPECT_EQ(A::ConsecutiveRevocationDelayMs(0, 3), 0);
  EXPECT_EQ(A::ConsecutiveRevocationDelayMs(INT32_MAX, 7), INT32_MAX);
}

TEST(IncrementalCooperativeAssignorTest, ThreeToFourWorkersWithFiftyTasksConverges) {
  Cluster cluster;
  for (const char* c : {"conn-a", "conn-b", "conn-c", "conn-d", "conn-e"}) {
    cluster.AddConnector(c, 10);
  }
  for (const char* w : {"worker1", "worker2", "worker3"}) cluster.AddWorker(w);
  cluster.Rebalance();
  EXPECT_EQ(cluster.TaskCounts(), (Counts{16, 17, 17}));
  EXPECT_TRUE(cluster.BalancedAndComplete());
  const OwnerMap before = cluster.last().owners;

  // Round 1 after the join: revoke only the excess; round 2: hand it to worker4. Java needs
  // exactly these two rounds; a third changes nothing.
  cluster.AddWorker("worker4");
  cluster.Rebalance();
  EXPECT_EQ(cluster.assignor().delay_ms(), 0);
  std::set<ConnectorTaskId> revoked;
  std::set<std::string> revoked_connectors;
  for (const auto& [id, a] : cluster.last().assignments) {
    EXPECT_TRUE(a.connectors.empty() && a.tasks.empty()) << id;
    revoked.insert(a.revoked_tasks.begin(), a.revoked_tasks.end());
    revoked_connectors.insert(a.revoked_connectors.begin(), a.revoked_connectors.end());
  }
  EXPECT_EQ(revoked.size(), 12u);  // 50/4: 13, 13, 12, 12 — worker4 needs 12 or 13
  EXPECT_EQ(revoked_connectors, (std::set<std::string>{"conn-b"}));
  EXPECT_EQ(cluster.Delta("worker1"), "+c[] +t[] -c[] -t[conn-a-0, conn-a-3, conn-a-6, conn-a-9]");
  EXPECT_EQ(cluster.Delta("worker2"),
            "+c[] +t[] -c[conn-b] -t[conn-a-1, conn-a-4, conn-a-7, conn-b-0]");
  EXPECT_EQ(cluster.Delta("worker3"), "+c[] +t[] -c[] -t[conn-a-2, conn-a-5, conn-a-8, conn-b-1]");
  cluster.Rebalance();
  EXPECT_TRUE(cluster.NoRevocations());
  EXPECT_EQ(cluster.Delta("worker4"),
            "+c[conn-b] +t[conn-a-0, conn-a-1, conn-a-2, conn-a-3, conn-a-4, conn-a-5, "
            "conn-a-6, conn-a-7, conn-a-8, conn-a-9, conn-b-0, conn-b-1] -c[] -t[]");
  EXPECT_TRUE(cluster.BalancedAndComplete());
  EXPECT_EQ(cluster.TaskCounts(), (Counts{12, 12, 13, 13}));
  cluster.Rebalance();
  EXPECT_TRUE(cluster.NothingNew());

  // Every task that was not revoked kept its owner; every revoked one moved to worker4.
  const OwnerMap after = cluster.last().owners;
  for (const auto& [task, owner] : before.tasks) {
    if (revoked.count(task)) {
      EXPECT_EQ(after.tasks.at(task), "worker4") << Str(task);
    } else {
      EXPECT_EQ(after.tasks.at(task), owner) << Str(task);
    }
  }
}

TEST(IncrementalCooperativeAssignorTest, ProtocolVersionAndLeaderFields) {
  for (int16_t version : {kProtocolV1, kProtocolV2}) {
    auto assignor = IncrementalCooperativeAssignor::Create();
    ASSERT_TRUE(assignor.ok());
    AssignmentInput input;
    AssignorMember leader;
    leader.member_id = "followMe";
    leader.metadata.url = "followMe:618";
    leader.metadata.config_offset = 618;
    input.members = {leader};
    input.configured = {{"c", {0}}};
    input.leader_id = "followMe";
    input.leader_url = "followMe:618";
    input.config_offset = 618;
    IncrementalCooperativeAssignor::Round round;
    round.protocol_version = version;
    auto result = assignor->PerformAssignment(input, round);
    ASSERT_TRUE(result.ok()) << result.status();
    ConnectAssignment want;
    want.version = version;
    want.leader = "followMe";
    want.leader_url = "followMe:618";
    want.config_offset = 618;
    want.connectors = {"c"};
    want.tasks = {{"c", 0}};
    EXPECT_EQ(result->assignments.at("followMe"), want);
    EXPECT_EQ(result->owners.connectors.at("c"), "followMe");  // testLeaderStateUpdated
  }
}

TEST(IncrementalCooperativeAssignorTest, RejectsBadInputWithoutChangingState) {
  EXPECT_EQ(IncrementalCooperativeAssignor::Create(-1).status().code(),
            absl::StatusCode::kInvalidArgument);
  auto assignor = IncrementalCooperativeAssignor::Create(1000);
  ASSERT_TRUE(assignor.ok());
  AssignmentInput input;
  AssignorMember m;
  m.member_id = "a";
  input.members = {m};
  input.configured = {{"c", {0}}};
  input.leader_id = "a";
  IncrementalCooperativeAssignor::Round round;
  round.protocol_version = kProtocolV0;
  EXPECT_EQ(assignor->PerformAssignment(input, round).status().code(),
            absl::StatusCode::kInvalidArgument);
  round.protocol_version = kProtocolV2;
  input.leader_id = "nobody";
  EXPECT_EQ(assignor->PerformAssignment(input, round).status().code(),
            absl::StatusCode::kInvalidArgument);
  input.leader_id = "a";
  input.members.push_back(m);
  EXPECT_EQ(assignor->PerformAssignment(input, round).status().code(),
            absl::StatusCode::kInvalidArgument);
  input.members.pop_back();
  auto ok = assignor->PerformAssignment(input, round);
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ(ok->assignments.at("a").connectors, (std::vector<std::string>{"c"}));
}

// Replays every transcript Kafka 4.4.0's assignor produced and compares line by line.
TEST(IncrementalCooperativeAssignorTest, MatchesKafkaTranscripts) {
  std::ifstream in(
      std::string(CONNECTD_SOURCE_DIR) +
      "/tests/unit/runtime/distributed/incremental_cooperative_assignor_transcripts.txt");
  ASSERT_TRUE(in.good());
  std::optional<Cluster> cluster;
  std::string scenario;
  std::vector<std::string> expected;
  std::vector<std::string> actual;
  int scenarios = 0;
  int rounds = 0;
  const auto finish = [&] {
    if (!cluster) return;
    EXPECT_EQ(actual, expected) << "scenario " << scenario;
    ++scenarios;
  };
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (line.rfind("> ", 0) != 0) {
      expected.push_back(line);
      continue;
    }
    std::istringstream cmd(line.substr(2));
    std::string op;
    cmd >> op;
    if (op == "reset") {
      finish();
      cmd >> scenario;
      cluster.reset();
      expected.clear();
      actual.clear();
    } else if (op == "maxdelay") {
      int32_t max_delay = 0;
      cmd >> max_delay;
      cluster.emplace(max_delay);
    } else if (op == "newleader") {
      cluster->NewLeader();
    } else if (op == "join" || op == "leave") {
      std::string id;
      cmd >> id;
      op == "join" ? cluster->AddWorker(id) : cluster->RemoveWorker(id);
    } else if (op == "addconn") {
      std::string c;
      int n = 0;
      cmd >> c >> n;
      cluster->AddConnector(c, n);
    } else if (op == "delconn") {
      std::string c;
      cmd >> c;
      cluster->RemoveConnector(c);
    } else if (op == "sleep") {
      int64_t ms = 0;
      cmd >> ms;
      cluster->Sleep(ms);
    } else if (op == "dup") {
      std::string id, c;
      int t = 0;
      cmd >> id >> c >> t;
      cluster->AddTaskTo(id, {c, t});
    } else if (op == "dupc") {
      std::string id, c;
      cmd >> id >> c;
      cluster->AddConnectorTo(id, c);
    } else if (op == "rebalance" || op == "failed" || op == "mismatch") {
      if (op == "rebalance") cluster->Rebalance();
      if (op == "failed") cluster->FailedRebalance();
      if (op == "mismatch") cluster->MismatchedRebalance();
      std::vector<std::string> lines = cluster->Transcript(op != "failed");
      actual.insert(actual.end(), lines.begin(), lines.end());
      ++rounds;
    } else {
      FAIL() << "unknown transcript command: " << line;
    }
  }
  finish();
  EXPECT_EQ(scenarios, 84);
  EXPECT_EQ(rounds, 839);
}

}  // namespace
}  // namespace connectd::distributed
