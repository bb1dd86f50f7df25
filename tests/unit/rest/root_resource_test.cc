#include <gtest/gtest.h>

#include "tests/unit/rest/rest_test_env.h"

namespace connectd::rest::testing {
namespace {

RestServer::Options ShortHealthTimeout() {
  RestServer::Options options;
  options.health_check_timeout = std::chrono::milliseconds(100);
  return options;
}

TEST(RootResourceTest, ServerInfo) {
  RestTestEnv env;
  HttpResult r = env.Get("/");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(
      r.body,
      R"({"version":"4.4.0","commit":"0123456789abcdef","kafka_cluster_id":"kafka-cluster-1"})");
  EXPECT_EQ(r.Header("Content-Type"), "application/json");
}

TEST(RootResourceTest, HealthyWhenTheHerderAnswers) {
  RestTestEnv env;
  HttpResult r = env.Get("/health");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(
      r.body,
      R"({"status":"healthy","message":"Worker has completed startup and is ready to handle requests."})");
  env.herder().set_answer_async(true);
  EXPECT_EQ(env.Get("/health").status, 200);
}

TEST(RootResourceTest, StartingWhileNotReady) {
  RestTestEnv env({}, ShortHealthTimeout());
  env.herder().set_ready(false);
  HttpResult r = env.Get("/health");
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(r.body, R"({"status":"starting","message":"Worker is still starting up."})");
  // Also when the herder thread is busy starting up and never answers.
  env.herder().set_hold_callbacks(true);
  EXPECT_EQ(env.Get("/health").status, 503);
}

TEST(RootResourceTest, UnhealthyWhenTheHerderDoesNotAnswerInTime) {
  RestTestEnv env({}, ShortHealthTimeout());
  env.herder().set_hold_callbacks(true);
  auto start = std::chrono::steady_clock::now();
  HttpResult r = env.Get("/health");
  EXPECT_EQ(r.status, 500);
  EXPECT_EQ(
      r.body,
      R"({"status":"unhealthy","message":"Worker was unable to handle this request and may be unable to handle other requests."})");
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(100));
  // The late answer is dropped; the connection keeps working.
  env.herder().ReleaseHeld();
  env.herder().set_hold_callbacks(false);
  EXPECT_EQ(env.Get("/health").status, 200);
}

TEST(RootResourceTest, HerderErrorIsMapped) {
  RestTestEnv env;
  env.herder().FailNext(absl::InternalError("herder is broken"));
  EXPECT_EQ(env.Get("/health").body, ErrorJson(500, "herder is broken"));
}

}  // namespace
}  // namespace connectd::rest::testing
