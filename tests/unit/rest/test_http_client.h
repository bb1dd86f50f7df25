// A small blocking HTTP/1.1 client on Beast for REST tests, with a deadline on every operation
// so a broken server fails a test instead of hanging it.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl/context.hpp>

namespace connectd::rest::testing {

#ifndef CONNECTD_TEST_TIMEOUT_SCALE
#define CONNECTD_TEST_TIMEOUT_SCALE 1
#endif
// How much slower than an optimised build this one is (4 under ASan, 8 under TSan).
inline constexpr int kTimeoutScale = CONNECTD_TEST_TIMEOUT_SCALE;

struct HttpResult {
  int status = 0;  // 0: no response (see error)
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  bool keep_alive = false;
  std::string error;  // transport error, empty when a response arrived

  // The first header named `name` (case-insensitive), or "" if absent.
  std::string Header(const std::string& name) const;
  bool HasHeader(const std::string& name) const;
  // Every value of header `name`.
  std::vector<std::string> Headers(const std::string& name) const;
};

class TestHttpClient {
 public:
  // Connects lazily to 127.0.0.1:`port`; with `tls`, speaks HTTPS (no verification unless the
  // context asks for it).
  explicit TestHttpClient(int port, std::shared_ptr<boost::asio::ssl::context> tls = nullptr);
  ~TestHttpClient();

  // Sends one request on the kept-alive connection (reconnecting if needed). A non-empty body
  // gets `Content-Type: application/json` unless `headers` sets one.
  HttpResult Send(const std::string& method, const std::string& target,
                  const std::string& body = "",
                  const std::vector<std::pair<std::string, std::string>>& headers = {});

  bool connected() const;
  void Close();

  std::chrono::milliseconds timeout{5000 * kTimeoutScale};

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// One request on a fresh connection.
HttpResult HttpRequest(int port, const std::string& method, const std::string& target,
                       const std::string& body = "",
                       const std::vector<std::pair<std::string, std::string>>& headers = {});

// Writes `bytes` on a fresh plain connection and returns everything the server sends until it
// closes the connection or `timeout` passes (`closed` tells which).
struct RawResult {
  std::string data;
  bool closed = false;
};
RawResult RawExchange(int port, const std::string& bytes,
                      std::chrono::milliseconds timeout = std::chrono::milliseconds(3000));

}  // namespace connectd::rest::testing
