// File: task_status.h
//
// How connectors and tasks report their state (Connect's AbstractStatus.State and the
// ConnectorStatus/TaskStatus listeners). The worker calls the listener from whichever thread
// changed the state (a task thread, a worker thread); implementations must be thread-safe.
#pragma once

#include <optional>
#include <string>

#include "runtime/herder_api/herder_types.h"

namespace connectd::worker {

enum class State { kUnassigned, kRunning, kPaused, kFailed, kRestarting, kStopped, kDestroyed };

std::string_view StateName(State state);  // "UNASSIGNED", "RUNNING", ...

class StatusListener {
 public:
  virtual ~StatusListener() = default;
  // `trace` is set for kFailed: the error, as Connect shows an exception's stack trace.
  virtual void OnConnectorState(const std::string& connector, State state,
                                std::optional<std::string> trace) = 0;
  virtual void OnTaskState(const herder::ConnectorTaskId& task, State state,
                           std::optional<std::string> trace) = 0;
  // A task produced to or consumed from `topic` (Connect's topic tracking, KIP-558).
  virtual void OnTopicUsed(const std::string& connector, const std::string& topic) = 0;
};

}  // namespace connectd::worker
