// File: server_state.h (internal to rest/)
//
// The state RestServer shares with its listeners, sessions and timers. Reference-counted so a
// session that outlives the RestServer object still finds its dispatcher.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

#include "rest/dispatcher.h"
#include "rest/logger_levels.h"
#include "rest/rest_client.h"
#include "rest/rest_config.h"
#include "rest/rest_server.h"
#include "rest/scheduler.h"

namespace boost::asio::ssl {
class context;
}  // namespace boost::asio::ssl

namespace connectd::rest::internal {

// Scheduler on Asio timers; CancelAll() is used by Stop().
class AsioScheduler : public Scheduler {
 public:
  explicit AsioScheduler(boost::asio::io_context& ioc) : ioc_(ioc) {}
  std::function<void()> RunAfter(std::chrono::milliseconds delay,
                                 std::function<void()> fn) override;
  void Post(std::function<void()> fn) override;
  void CancelAll();

 private:
  boost::asio::io_context& ioc_;
  std::mutex mu_;
  std::vector<std::weak_ptr<boost::asio::steady_timer>> timers_;  // guarded by mu_
  bool stopped_ = false;                                          // guarded by mu_
};

// A connection; Close() may be called from any thread.
class Session {
 public:
  virtual ~Session() = default;
  virtual void Close() = 0;
};

struct ServerState {
  ServerState(boost::asio::io_context& io, herder::Herder& herder, RestConfig rest_config,
              RestServer::Options server_options);

  // Remembers a session for CloseAllSessions().
  void Track(const std::shared_ptr<Session>& session);
  void CloseAllSessions();

  boost::asio::io_context& ioc;
  const RestConfig config;
  const RestServer::Options options;
  LoggerLevels loggers;
  AsioScheduler scheduler;
  std::shared_ptr<RestClient> rest_client;  // forwards requests to other workers
  Dispatcher dispatcher;  // after config, loggers, scheduler and rest_client, which it references
  // admin.listeners (KIP-495): /admin/* only, with the REST extensions but without CORS and the
  // response header rules (as Java's admin context); null when admin.listeners is not a list.
  const RestConfig admin_config;
  std::unique_ptr<Dispatcher> admin_dispatcher;
  std::atomic<int> connections{0};
  std::atomic<bool> stopping{false};

 private:
  std::mutex mu_;
  std::vector<std::weak_ptr<Session>> sessions_;  // guarded by mu_
};

// Starts serving one accepted connection (`tls` null for http) with `dispatcher` (one of
// `state`'s).
void StartSession(boost::asio::ip::tcp::socket socket, std::shared_ptr<ServerState> state,
                  std::string scheme, std::shared_ptr<boost::asio::ssl::context> tls,
                  Dispatcher* dispatcher);

}  // namespace connectd::rest::internal
