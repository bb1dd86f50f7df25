#include "runtime/herder_api/task_status.h"

namespace connectd::worker {

std::string_view StateName(State state) {
  switch (state) {
    case State::kUnassigned:
      return "UNASSIGNED";
    case State::kRunning:
      return "RUNNING";
    case State::kPaused:
      return "PAUSED";
    case State::kFailed:
      return "FAILED";
    case State::kRestarting:
      return "RESTARTING";
    case State::kStopped:
      return "STOPPED";
    case State::kDestroyed:
      return "DESTROYED";
  }
  return "UNASSIGNED";
}

}  // namespace connectd::worker
