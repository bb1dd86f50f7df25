// systemd's readiness protocol (sd_notify(3)), spoken directly on $NOTIFY_SOCKET: a unit with
// Type=notify is "active" once connectd serves (the moment its /health turns 200), "deactivating"
// when it begins to stop. Without $NOTIFY_SOCKET (not started by systemd) nothing is sent.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "absl/status/status.h"

namespace connectd::main {

// Sends one notification ("READY=1\nSTATUS=...") to $NOTIFY_SOCKET; OK without one.
absl::Status NotifyService(std::string_view state);

// Tells systemd READY=1 once `ready` (Herder::Ready, any thread) answers true, looking every
// 100 ms on the control context, and STOPPING=1 on Stopping(). Destroy after the control
// context stopped, or after Stopping().
class ServiceNotifier {
 public:
  ServiceNotifier(boost::asio::io_context& control, std::function<bool()> ready,
                  std::string status);
  ~ServiceNotifier();

  void Start();
  void Stopping();

 private:
  void Check();

  boost::asio::steady_timer timer_;
  std::function<bool()> ready_;
  const std::string status_;
  const bool enabled_;
  bool stopping_ = false;  // on the control context
};

}  // namespace connectd::main
