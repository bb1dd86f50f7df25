// RestTestEnv: a real RestServer on 127.0.0.1 port 0 over a FakeHerder, its io_context run by
// two threads (so strands matter), and shortcuts for requests.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "rest/rest_server.h"
#include "tests/unit/rest/fake_herder.h"
#include "tests/unit/rest/test_http_client.h"

namespace connectd::rest::testing {

using Props = std::map<std::string, std::string>;

class RestTestEnv {
 public:
  explicit RestTestEnv(std::map<std::string, std::string> props = {},
                       RestServer::Options options = {});
  ~RestTestEnv();

  // The first bound port.
  int port() const { return bound_.at(0).port; }
  const std::vector<BoundListener>& bound() const { return bound_; }
  RestServer& server() { return *server_; }
  FakeHerder& herder() { return herder_; }

  HttpResult Get(const std::string& target) { return client_->Send("GET", target); }
  HttpResult Post(const std::string& target, const std::string& body = "") {
    return client_->Send("POST", target, body);
  }
  HttpResult Put(const std::string& target, const std::string& body = "") {
    return client_->Send("PUT", target, body);
  }
  HttpResult Patch(const std::string& target, const std::string& body) {
    return client_->Send("PATCH", target, body);
  }
  HttpResult Delete(const std::string& target) { return client_->Send("DELETE", target); }
  HttpResult Send(const std::string& method, const std::string& target, const std::string& body,
                  const std::vector<std::pair<std::string, std::string>>& headers) {
    return client_->Send(method, target, body, headers);
  }
  TestHttpClient& client() { return *client_; }

 private:
  FakeHerder herder_;
  boost::asio::io_context ioc_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
  std::unique_ptr<RestServer> server_;
  std::vector<BoundListener> bound_;
  std::vector<std::thread> threads_;
  std::unique_ptr<TestHttpClient> client_ = std::make_unique<TestHttpClient>(0);
};

// The error body Connect sends: {"error_code":N,"message":"..."}.
std::string ErrorJson(int code, const std::string& message);

}  // namespace connectd::rest::testing
