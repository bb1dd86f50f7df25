// WorkerTask's lifecycle as the status store sees it: a task the worker gave up on (its stop
// hung past the graceful timeout) must report nothing afterwards, since a newer instance of the
// same task may already be running (Connect's cancelled task), and must free itself when its
// thread finally ends.
#include "runtime/worker/worker_task.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace connectd::worker {
namespace {

using namespace std::chrono_literals;

class RecordingListener : public StatusListener {
 public:
  void OnConnectorState(const std::string&, State, std::optional<std::string>) override {}
  void OnTaskState(const herder::ConnectorTaskId&, State state,
                   std::optional<std::string>) override {
    std::lock_guard lock(mu_);
    states_.push_back(state);
  }
  void OnTopicUsed(const std::string&, const std::string&) override {}

  std::vector<State> states() {
    std::lock_guard lock(mu_);
    return states_;
  }

 private:
  std::mutex mu_;
  std::vector<State> states_;
};

// A task whose Iterate blocks until released, then fails; it counts its destructions and
// cancellations.
class HangingTask : public WorkerTask {
 public:
  HangingTask(StatusListener& listener, metrics::MetricsRegistry& metrics)
      : WorkerTask({"hanging", 0}, listener, herder::TargetState::kStarted, metrics) {}
  ~HangingTask() override { ++destroyed; }

  static inline std::atomic<bool> release{false};
  static inline std::atomic<bool> iterating{false};
  static inline std::atomic<int> destroyed{0};
  static inline std::atomic<int> cancels{0};

 protected:
  absl::Status Initialize() override { return absl::OkStatus(); }
  absl::Status Iterate() override {
    iterating = true;
    while (!release) std::this_thread::sleep_for(1ms);
    return absl::UnavailableError("the target went away while the task was stopping");
  }
  void Close() override {}
  void SignalPluginStop() override {}
  void Cancel() override { ++cancels; }
};

template <typename Predicate>
bool Eventually(Predicate predicate) {
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (!predicate()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(2ms);
  }
  return true;
}

TEST(WorkerTaskTest, AnAbandonedTaskThatFailsLaterReportsNothingAndFreesItself) {
  RecordingListener listener;
  metrics::MetricsRegistry metrics;
  auto task = std::make_unique<HangingTask>(listener, metrics);
  task->Start();
  ASSERT_TRUE(Eventually([] { return HangingTask::iterating.load(); }));
  task->Stop();
  ASSERT_FALSE(task->AwaitStop(20ms));  // hung: abandoned
  EXPECT_EQ(HangingTask::cancels.load(), 1);
  task.release();  // as the worker does: the task's thread owns it now

  HangingTask::release = true;  // the orphan's Iterate now fails
  ASSERT_TRUE(Eventually([] { return HangingTask::destroyed.load() == 1; }));
  // RUNNING from before the stop; no FAILED from the orphan, which a newer instance's status
  // would otherwise lose to.
  EXPECT_EQ(listener.states(), std::vector<State>{State::kRunning});
}

}  // namespace
}  // namespace connectd::worker
