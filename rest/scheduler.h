// File: scheduler.h
//
// Scheduler: deferred callbacks for resources: deadlines of their own (GET /health waits 10 s for
// the herder) and hops off herder threads. RestServer implements it on its io_context.
#pragma once

#include <chrono>
#include <functional>

namespace connectd::rest {

class Scheduler {
 public:
  virtual ~Scheduler() = default;

  // Runs `fn` once after `delay` (on a thread running the server's io_context) unless the
  // returned cancel function runs first. Both the cancel function and RunAfter are thread-safe;
  // cancelling after `fn` ran does nothing.
  virtual std::function<void()> RunAfter(std::chrono::milliseconds delay,
                                         std::function<void()> fn) = 0;

  // Runs `fn` soon on a thread running the server's io_context: used to leave a herder thread
  // before calling the herder again from one of its callbacks.
  virtual void Post(std::function<void()> fn) = 0;
};

}  // namespace connectd::rest
