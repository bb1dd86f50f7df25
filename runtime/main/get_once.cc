#include "runtime/main/get_once.h"

#include <thread>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

namespace connectd::main {

absl::StatusOr<rest::HttpClientResponse> GetOnce(const std::string& url, const rest::TlsConfig& tls,
                                                 std::chrono::milliseconds connect_timeout,
                                                 std::chrono::milliseconds request_timeout) {
  boost::asio::io_context ioc;
  auto work = boost::asio::make_work_guard(ioc);
  std::thread io_thread([&ioc] { ioc.run(); });
  absl::StatusOr<rest::HttpClientResponse> response;
  {
    rest::RestClient::Options options;
    options.connect_timeout = connect_timeout;
    options.request_timeout = request_timeout;
    rest::RestClient client(ioc, tls, options);
    response = client.SendAndWait(
        {.method = "GET", .url = url, .headers = {{"Accept", "application/json"}}, .body = {}});
  }
  work.reset();
  ioc.stop();
  io_thread.join();
  return response;
}

}  // namespace connectd::main
