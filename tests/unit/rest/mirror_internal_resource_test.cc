// Dedicated MirrorMaker mode's REST server (RestServer::Options::mirror_herders, Java's
// MirrorRestServer/InternalMirrorResource): the internal endpoints under /{source}/{target}, each
// flow on its own herder, 404 for an unknown flow, and forwarding to the leader with the
// namespace kept in the path; besides them only what an operator checks on a node: /health over
// every flow, /metrics, /admin/loggers.
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "runtime/herder_api/herder.h"
#include "tests/unit/rest/capture_server.h"
#include "tests/unit/rest/fake_herder.h"
#include "tests/unit/rest/rest_test_env.h"

namespace connectd::rest::testing {
namespace {

const std::vector<std::pair<std::string, std::string>> kSigned = {
    {"X-Connect-Authorization", "AAAA"}, {"X-Connect-Request-Signature-Algorithm", "HmacSHA256"}};

// A flow's herder that records which connector its internal endpoints were called for.
struct FlowHerder {
  FakeHerder herder;
  std::mutex mu;
  std::vector<std::string> calls;  // "tasks:<c>" / "fence:<c>"
  absl::Status answer = absl::OkStatus();

  FlowHerder() {
    herder.put_task_configs_hook =
        [this](const std::string& name, const std::vector<herder::ConfigMap>&,
               std::optional<herder::InternalRequestSignature>, herder::DoneCallback done) {
          std::lock_guard lock(mu);
          calls.push_back("tasks:" + name);
          done(answer);
        };
    herder.fence_hook = [this](const std::string& name,
                               std::optional<herder::InternalRequestSignature>,
                               herder::DoneCallback done) {
      std::lock_guard lock(mu);
      calls.push_back("fence:" + name);
      done(answer);
    };
  }
  std::vector<std::string> Calls() {
    std::lock_guard lock(mu);
    return calls;
  }
};

class MirrorInternalResourceTest : public ::testing::Test {
 protected:
  static RestServer::Options Options(FlowHerder& ab, FlowHerder& ba, FlowHerder& odd) {
    RestServer::Options options;
    options.mirror_herders = {
        {{"A", "B"}, &ab.herder}, {{"B", "A"}, &ba.herder}, {{"my cluster", "x/y+z"}, &odd.herder}};
    return options;
  }

  FlowHerder ab_, ba_, odd_;
  RestTestEnv env_{{}, Options(ab_, ba_, odd_)};
  CaptureServer leader_;
};

TEST_F(MirrorInternalResourceTest, EachFlowReachesItsOwnHerder) {
  EXPECT_EQ(env_.Send("POST", "/A/B/connectors/MirrorSourceConnector/tasks", "[]", kSigned).status,
            204);
  EXPECT_EQ(env_.Send("PUT", "/B/A/connectors/MirrorSourceConnector/fence", "", kSigned).status,
            204);
  EXPECT_EQ(ab_.Calls(), std::vector<std::string>{"tasks:MirrorSourceConnector"});
  EXPECT_EQ(ba_.Calls(), std::vector<std::string>{"fence:MirrorSourceConnector"});
  // Java's encoding of the aliases (URLEncoder, '+' as %20) is decoded back.
  EXPECT_EQ(env_.Send("POST", "/my%20cluster/x%2Fy%2Bz/connectors/c/tasks", "[]", kSigned).status,
            204);
  EXPECT_EQ(odd_.Calls(), std::vector<std::string>{"tasks:c"});
}

TEST_F(MirrorInternalResourceTest, UnknownFlowIs404AndNothingElseIsServed) {
  HttpResult unknown = env_.Send("POST", "/A/C/connectors/c/tasks", "[]", kSigned);
  EXPECT_EQ(unknown.status, 404);
  EXPECT_EQ(unknown.body,
            ErrorJson(404, "No replication flow found for source 'A' and target 'C'"));
  EXPECT_EQ(env_.Get("/connectors").status, 404);
  EXPECT_EQ(env_.Get("/").status, 404);
  EXPECT_EQ(env_.Post("/connectors/c/tasks", "[]").status, 404);
  EXPECT_TRUE(ab_.Calls().empty());
  EXPECT_TRUE(ba_.Calls().empty());
}

// GET /health is healthy only when every flow's herder is; a flow still starting makes the
// node 503 "starting". /admin/loggers is served; /metrics is 404 without a registry.
TEST_F(MirrorInternalResourceTest, HealthCoversEveryFlowAndLoggersAreServed) {
  HttpResult healthy = env_.Get("/health");
  EXPECT_EQ(healthy.status, 200);
  EXPECT_NE(healthy.body.find(R"("status":"healthy")"), std::string::npos) << healthy.body;
  ba_.herder.set_ready(false);
  HttpResult starting = env_.Get("/health");
  EXPECT_EQ(starting.status, 503);
  EXPECT_NE(starting.body.find(R"("status":"starting")"), std::string::npos) << starting.body;
  ba_.herder.set_ready(true);
  EXPECT_EQ(env_.Get("/admin/loggers/root").status, 200);
  EXPECT_EQ(env_.Get("/metrics").status, 404);
}

TEST_F(MirrorInternalResourceTest, ForwardingToTheLeaderKeepsTheNamespace) {
  ab_.answer = herder::ForwardRequiredError("Only the leader can set task configs.", leader_.url());
  odd_.answer = ab_.answer;
  leader_.Respond(204, "");
  EXPECT_EQ(env_.Send("POST", "/A/B/connectors/c/tasks", "[]", kSigned).status, 204);
  EXPECT_EQ(env_.Send("PUT", "/A/B/connectors/c/fence", "", kSigned).status, 204);
  EXPECT_EQ(env_.Send("POST", "/my%20cluster/x%2Fy%2Bz/connectors/c/tasks", "[]", kSigned).status,
            204);
  std::vector<CapturedRequest> sent = leader_.requests();
  ASSERT_EQ(sent.size(), 3u);
  EXPECT_EQ(sent[0].method, "POST");
  EXPECT_EQ(sent[0].target, "/A/B/connectors/c/tasks?forward=true");
  EXPECT_FALSE(sent[0].HasHeader("X-Connect-Authorization"));  // as Connect forwards
  EXPECT_EQ(sent[1].method, "PUT");
  EXPECT_EQ(sent[1].target, "/A/B/connectors/c/fence?forward=true");
  EXPECT_EQ(sent[2].target, "/my%20cluster/x%2Fy+z/connectors/c/tasks?forward=true");
}

}  // namespace
}  // namespace connectd::rest::testing
