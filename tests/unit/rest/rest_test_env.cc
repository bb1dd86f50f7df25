#include "tests/unit/rest/rest_test_env.h"

#include "rest/json_entities.h"

namespace connectd::rest::testing {

RestTestEnv::RestTestEnv(std::map<std::string, std::string> props, RestServer::Options options)
    : work_(boost::asio::make_work_guard(ioc_)) {
  if (!props.count("listeners")) props["listeners"] = "http://127.0.0.1:0";
  absl::StatusOr<RestConfig> config = ParseRestConfig(props);
  EXPECT_TRUE(config.ok()) << config.status();
  if (!config.ok()) return;
  server_ = std::make_unique<RestServer>(ioc_, herder_, *config, std::move(options));
  absl::StatusOr<std::vector<BoundListener>> bound = server_->Start();
  EXPECT_TRUE(bound.ok()) << bound.status();
  if (!bound.ok()) return;
  bound_ = *bound;
  for (int i = 0; i < 2; ++i) threads_.emplace_back([this] { ioc_.run(); });
  client_ = std::make_unique<TestHttpClient>(port());
}

RestTestEnv::~RestTestEnv() {
  client_->Close();
  if (server_) server_->Stop();
  // Answer what the herder still holds and wait for its threads before the io_context ends.
  herder_.ReleaseHeld();
  herder_.JoinThreads();
  work_.reset();
  ioc_.stop();
  for (std::thread& t : threads_) t.join();
  server_.reset();
}

std::string ErrorJson(int code, const std::string& message) {
  return ErrorMessageJson(code, message);
}

}  // namespace connectd::rest::testing
