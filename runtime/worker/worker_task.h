// File: worker_task.h
//
// WorkerTask: the thread and lifecycle shared by source and sink tasks (Connect's WorkerTask).
// One std::thread per task runs Execute(); pause, resume and stop arrive from other threads
// through an atomic target state and a condition variable.
//
// Lifecycle: Start() spawns the thread -> Initialize() (plugin start) -> Execute() loop until
// stop -> Close() (flush, commit, release). The thread reports RUNNING/PAUSED/FAILED through the
// StatusListener; after a clean stop it reports nothing (the worker reports UNASSIGNED or the
// task is destroyed). Stop() signals; AwaitStop(timeout) joins or gives up (a plugin that hangs
// in stop is abandoned: the thread is detached, Cancel() drops what it holds, and from then on
// it reports no state, as Connect's cancelled task: a newer instance of the same task may be
// running and its status is the one that counts. The abandoned task deletes itself when its
// thread ends, so its clients close then).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "absl/status/status.h"
#include "runtime/herder_api/herder_types.h"
#include "runtime/herder_api/task_status.h"
#include "runtime/metrics/metrics.h"
#include "runtime/worker/task_metrics.h"

namespace connectd::worker {

class WorkerTask {
 public:
  WorkerTask(herder::ConnectorTaskId id, StatusListener& listener,
             herder::TargetState initial_state, metrics::MetricsRegistry& metrics);
  virtual ~WorkerTask();
  WorkerTask(const WorkerTask&) = delete;
  WorkerTask& operator=(const WorkerTask&) = delete;

  const herder::ConnectorTaskId& id() const { return id_; }

  // Spawns the task thread.
  void Start();
  // Any thread. kPaused idles the task (clients stay open), kStarted resumes it.
  void Transition(herder::TargetState state);
  // Any thread: asks the task to stop; returns at once.
  void Stop();
  // Waits for the thread to finish; false if it did not within `timeout`: then the task is
  // abandoned (see above) and the caller must release it without deleting it, since its thread
  // deletes it when it ends.
  bool AwaitStop(std::chrono::milliseconds timeout);

  bool stopping() const { return stopping_.load(); }

 protected:
  // Runs on the task thread. A non-OK status fails the task with the message as trace.
  virtual absl::Status Initialize() = 0;
  // One iteration of the main loop (poll+send, or consume+put). Called repeatedly while running.
  virtual absl::Status Iterate() = 0;
  // Called when entering/leaving PAUSED, on the task thread.
  virtual void OnPause() {}
  virtual void OnResume() {}
  // Called repeatedly while PAUSED, on the task thread: keeps clients alive (a sink's consumer
  // must keep polling to stay in its group). Default: waits for a transition.
  virtual void IdleWhilePaused() { WaitFor(std::chrono::milliseconds(500)); }
  // Final flush/commit and cleanup, on the task thread, also after a failure.
  virtual void Close() = 0;
  // Tells the plugin to stop (thread-safe; may run on the caller of Stop()).
  virtual void SignalPluginStop() = 0;
  // Any thread, when AwaitStop gives up on the task: drops what the task still holds for
  // delivery, so that a task abandoned (its work already given to another worker) cannot write
  // once its cluster is reachable again (Java's cancel() closes the producer with no timeout).
  virtual void Cancel() {}

  // Sleeps up to `timeout` unless stopped or transitioned; for backoff in subclasses.
  void WaitFor(std::chrono::milliseconds timeout);
  // Reports the task's state to the listener unless the task was abandoned (then nothing).
  void ReportState(State state, std::optional<std::string> trace);
  // True once AwaitStop gave up on the task.
  bool abandoned() const { return abandoned_.load(); }

  const herder::ConnectorTaskId id_;
  StatusListener& listener_;
  // The plugin's sensors; unpublished when the task thread ends (after Close()).
  metrics::MetricsScope metrics_scope_;
  // connector-task-metrics (in metrics_scope_).
  TaskMetricsGroup& task_group_metrics() { return task_group_metrics_; }

 private:
  void Run();

  // Who deletes the task: its owner (kOwned, and after kFinished), or its own thread when it
  // ends after AwaitStop gave up (kAbandoned).
  enum Fate : int { kOwned, kFinished, kAbandoned };

  TaskMetricsGroup task_group_metrics_;
  std::thread thread_;
  std::atomic<int> fate_{kOwned};
  std::atomic<bool> stopping_{false};
  std::atomic<bool> abandoned_{false};
  std::mutex report_mu_;  // orders ReportState after the cancellation it checks
  std::atomic<herder::TargetState> target_state_;
  std::mutex mu_;
  std::condition_variable cv_;
};

}  // namespace connectd::worker
