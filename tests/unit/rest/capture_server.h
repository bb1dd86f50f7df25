// CaptureServer: a loopback HTTP/1.1 server on its own thread that records every request it
// reads and answers each with one canned response (Connection: close), or never answers, so
// tests can see exactly what RestClient and forwarding send.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace connectd::rest::testing {

struct CapturedRequest {
  std::string method;
  std::string target;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;

  // The first header named `name` (case-insensitive), or "" if absent.
  std::string Header(const std::string& name) const;
  bool HasHeader(const std::string& name) const;
};

class CaptureServer {
 public:
  CaptureServer();  // binds 127.0.0.1 port 0 and starts serving
  ~CaptureServer();
  CaptureServer(const CaptureServer&) = delete;
  CaptureServer& operator=(const CaptureServer&) = delete;

  int port() const;
  // "http://127.0.0.1:<port>/", as a worker's advertised URL.
  std::string url() const;

  // The answer to every following request: `status`, `body` (sent with
  // Content-Type: application/json when non-empty) and extra `headers`.
  void Respond(int status, std::string body,
               std::vector<std::pair<std::string, std::string>> headers = {});
  // Read requests but never answer them (client timeouts).
  void set_silent(bool silent);

  // The requests read so far, in order.
  std::vector<CapturedRequest> requests() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace connectd::rest::testing
