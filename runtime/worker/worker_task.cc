#include "runtime/worker/worker_task.h"

#include "absl/strings/str_cat.h"
#include "runtime/common/logging.h"

namespace connectd::worker {
namespace {
constexpr char kLogger[] = "org.apache.kafka.connect.runtime.WorkerTask";
}  // namespace

WorkerTask::WorkerTask(herder::ConnectorTaskId id, StatusListener& listener,
                       herder::TargetState initial_state, metrics::MetricsRegistry& metrics)
    : id_(std::move(id)),
      listener_(listener),
      metrics_scope_(&metrics),
      task_group_metrics_(
          metrics_scope_, id_,
          initial_state == herder::TargetState::kPaused ? State::kPaused : State::kRunning),
      target_state_(initial_state) {}

WorkerTask::~WorkerTask() {
  if (thread_.joinable()) {
    Stop();
    thread_.join();
  }
}

void WorkerTask::Start() {
  thread_ = std::thread([this] {
    Run();
    // The thread's last touch of the task, unless its owner gave up on it.
    if (fate_.exchange(kFinished) == kAbandoned) delete this;
  });
}

void WorkerTask::Transition(herder::TargetState state) {
  {
    std::lock_guard lock(mu_);
    target_state_ = state;
  }
  cv_.notify_all();
}

void WorkerTask::Stop() {
  stopping_ = true;
  cv_.notify_all();
  SignalPluginStop();
}

bool WorkerTask::AwaitStop(std::chrono::milliseconds timeout) {
  if (!thread_.joinable()) return true;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (fate_.load() != kFinished && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (fate_.load() == kFinished) {
    thread_.join();
    return true;
  }
  CONNECTD_LOG(kError, kLogger) << "Graceful stop of task " << id_.connector << "-" << id_.task
                                << " failed: it did not stop within " << timeout.count()
                                << " ms; abandoning its thread";
  {
    std::lock_guard lock(report_mu_);
    abandoned_ = true;
  }
  Cancel();
  thread_.detach();
  // From here the thread may delete the task, unless it already ended (then it is still ours).
  return fate_.exchange(kAbandoned) == kFinished;
}

void WorkerTask::ReportState(State state, std::optional<std::string> trace) {
  std::lock_guard lock(report_mu_);
  if (abandoned_) return;
  task_group_metrics_.RecordState(state);
  listener_.OnTaskState(id_, state, std::move(trace));
}

void WorkerTask::WaitFor(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mu_);
  cv_.wait_for(lock, timeout);
}

void WorkerTask::Run() {
  log::LogContext context(absl::StrCat(id_.connector, "|task-", id_.task));
  absl::Status status = Initialize();
  bool paused = false;
  if (status.ok()) {
    CONNECTD_LOG(kInfo, kLogger) << "Task started";
    if (target_state_.load() == herder::TargetState::kStarted) {
      ReportState(State::kRunning, std::nullopt);
    }
    while (!stopping_) {
      herder::TargetState target = target_state_.load();
      if (target != herder::TargetState::kStarted) {
        if (!paused) {
          paused = true;
          OnPause();
          ReportState(State::kPaused, std::nullopt);
        }
        IdleWhilePaused();
        continue;
      }
      if (paused) {
        paused = false;
        OnResume();
        ReportState(State::kRunning, std::nullopt);
      }
      status = Iterate();
      if (!status.ok()) break;
    }
  }
  Close();
  metrics_scope_.UnpublishAll();
  if (status.ok()) return;
  if (abandoned()) {
    CONNECTD_LOG(kWarn, kLogger) << "After being scheduled for shutdown, the orphan task threw an "
                                    "uncaught exception. A newer instance of this task might be "
                                    "already running: "
                                 << status.message();
  } else {
    CONNECTD_LOG(kError, kLogger) << "Task threw an uncaught and unrecoverable exception. Task is "
                                     "being killed and will not recover until manually restarted: "
                                  << status.message();
  }
  ReportState(State::kFailed, std::string(status.message()));  // dropped once abandoned
}

}  // namespace connectd::worker
