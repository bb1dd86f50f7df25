#include "runtime/main/service_notify.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <utility>

#include <boost/asio/post.hpp>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "runtime/common/logging.h"

namespace connectd::main {
namespace {
constexpr char kLogger[] = "connectd.service";
}  // namespace

absl::Status NotifyService(std::string_view state) {
  const char* socket_path = std::getenv("NOTIFY_SOCKET");
  if (socket_path == nullptr || *socket_path == '\0') return absl::OkStatus();
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const size_t length = std::strlen(socket_path);
  if ((socket_path[0] != '/' && socket_path[0] != '@') || length >= sizeof(address.sun_path)) {
    return absl::InvalidArgumentError(
        absl::StrCat("NOTIFY_SOCKET=", socket_path, " is not a socket path"));
  }
  std::memcpy(address.sun_path, socket_path, length);
  if (address.sun_path[0] == '@') address.sun_path[0] = '\0';  // Linux's abstract namespace
  const int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return absl::InternalError(absl::StrCat("socket: ", std::strerror(errno)));
  const ssize_t sent = sendto(fd, state.data(), state.size(), MSG_NOSIGNAL | MSG_DONTWAIT,
                              reinterpret_cast<sockaddr*>(&address),
                              static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + length));
  const int error = errno;
  close(fd);
  if (sent < 0) {
    return absl::UnavailableError(
        absl::StrCat("NOTIFY_SOCKET ", socket_path, ": ", std::strerror(error)));
  }
  return absl::OkStatus();
}

ServiceNotifier::ServiceNotifier(boost::asio::io_context& control, std::function<bool()> ready,
                                 std::string status)
    : timer_(control),
      ready_(std::move(ready)),
      status_(std::move(status)),
      enabled_(std::getenv("NOTIFY_SOCKET") != nullptr) {}

ServiceNotifier::~ServiceNotifier() = default;

void ServiceNotifier::Start() {
  if (!enabled_) return;
  boost::asio::post(timer_.get_executor(), [this] { Check(); });
}

void ServiceNotifier::Check() {
  if (stopping_) return;
  if (ready_()) {
    absl::Status sent = NotifyService(absl::StrCat("READY=1\nSTATUS=", status_));
    if (!sent.ok()) {
      CONNECTD_LOG(kWarn, kLogger) << "systemd readiness: " << sent.message();
    }
    return;
  }
  timer_.expires_after(std::chrono::milliseconds(100));
  timer_.async_wait([this](const boost::system::error_code& error) {
    if (!error) Check();
  });
}

void ServiceNotifier::Stopping() {
  if (!enabled_) return;
  boost::asio::post(timer_.get_executor(), [this] {
    stopping_ = true;
    timer_.cancel();
  });
  absl::Status sent = NotifyService("STOPPING=1");
  if (!sent.ok()) {
    CONNECTD_LOG(kWarn, kLogger) << "systemd readiness: " << sent.message();
  }
}

}  // namespace connectd::main
