// Request forwarding (HerderRequestHandler.completeOrForwardRequest) between RestServers on
// loopback in this process: a worker whose FakeHerder answers ForwardRequiredError hands the
// request to another worker (a second RestServer, or a CaptureServer that shows exactly what was
// sent).
#include <gtest/gtest.h>

#include "rest/forwarding.h"
#include "rest/json_entities.h"
#include "runtime/distributed/request_signing.h"
#include "runtime/herder_api/herder.h"
#include "tests/unit/rest/capture_server.h"
#include "tests/unit/rest/rest_test_env.h"

namespace connectd::rest::testing {
namespace {

constexpr char kTwoHops[] =
    "Cannot complete request because of a conflicting operation (e.g. worker rebalance)";
constexpr char kNoLeader[] =
    "Cannot complete request momentarily due to no known leader URL, likely because a rebalance "
    "was underway.";
constexpr char kStale[] =
    "Cannot complete request momentarily due to stale configuration (typically caused by a "
    "concurrent config change)";

std::string UrlOf(RestTestEnv& env) {
  return "http://127.0.0.1:" + std::to_string(env.port()) + "/";
}

absl::Status NotLeader(const std::string& url) {
  return herder::ForwardRequiredError("Only the leader can do that.", url);
}

class ForwardingTest : public ::testing::Test {
 protected:
  RestTestEnv a_;  // the worker the user talks to
  RestTestEnv b_;  // the leader
  CaptureServer capture_;
};

TEST_F(ForwardingTest, CreateIsServedByTheLeaderAndAnswers201WithALocalLocation) {
  a_.herder().FailNext(NotLeader(UrlOf(b_)));
  HttpResult r = a_.Post("/connectors", R"({"name":" c ","config":{"connector.class":"X"}})");
  EXPECT_EQ(r.status, 201) << r.body;
  EXPECT_EQ(r.Header("Location"),
            "http://127.0.0.1:" + std::to_string(a_.port()) + "/connectors/c");
  EXPECT_NE(r.body.find(R"("name":"c")"), std::string::npos) << r.body;
  EXPECT_TRUE(b_.herder().Get("c").has_value());
  EXPECT_FALSE(a_.herder().Get("c").has_value());
}

TEST_F(ForwardingTest, PutConfigIsCreatedOnlyWhenTheLeaderSays201) {
  b_.herder().AddConnector("c");
  a_.herder().FailNext(NotLeader(UrlOf(b_)));
  HttpResult updated = a_.Put("/connectors/c/config", R"({"connector.class":"Y"})");
  EXPECT_EQ(updated.status, 200) << updated.body;
  EXPECT_FALSE(updated.HasHeader("Location"));
  EXPECT_EQ(b_.herder().Get("c")->config.at("connector.class"), "Y");

  a_.herder().FailNext(NotLeader(UrlOf(b_)));
  HttpResult created = a_.Put("/connectors/d/config", R"({"connector.class":"Y"})");
  EXPECT_EQ(created.status, 201) << created.body;
  EXPECT_EQ(created.Header("Location"),
            "http://127.0.0.1:" + std::to_string(a_.port()) + "/connectors/d");
}

TEST_F(ForwardingTest, RemoteErrorsKeepTheirStatusCodeAndMessage) {
  a_.herder().FailNext(NotLeader(UrlOf(b_)));
  HttpResult direct = b_.Delete("/connectors/nope");
  HttpResult forwarded = a_.Delete("/connectors/nope");
  EXPECT_EQ(forwarded.status, 404);
  EXPECT_EQ(forwarded.body, direct.body);

  // The remote error_code is kept even when it differs from the status.
  capture_.Respond(409, R"({"error_code":999,"message":"boom"})");
  a_.herder().AddConnector("c");
  a_.herder().FailNext(NotLeader(capture_.url()));
  HttpResult odd = a_.Put("/connectors/c/stop");
  EXPECT_EQ(odd.status, 409);
  EXPECT_EQ(odd.body, R"({"error_code":999,"message":"boom"})");
}

TEST_F(ForwardingTest, ForwardParameterAllowsTwoHops) {
  // A user request may be forwarded twice: A -> B (forward=true) -> C (forward=false).
  RestTestEnv c;
  c.herder().AddConnector("x");
  a_.herder().FailNext(NotLeader(UrlOf(b_)));
  b_.herder().FailNext(NotLeader(UrlOf(c)));
  HttpResult two_hops = a_.Delete("/connectors/x");
  EXPECT_EQ(two_hops.status, 204) << two_hops.body;
  EXPECT_FALSE(c.herder().Get("x").has_value());

  // A third hop is refused by the worker that got forward=false, and that answer travels back.
  c.herder().AddConnector("x");
  a_.herder().FailNext(NotLeader(UrlOf(b_)));
  b_.herder().FailNext(NotLeader(UrlOf(c)));
  c.herder().FailNext(NotLeader(UrlOf(a_)));
  HttpResult three_hops = a_.Delete("/connectors/x");
  EXPECT_EQ(three_hops.status, 409);
  EXPECT_EQ(three_hops.body, ErrorJson(409, kTwoHops));

  a_.herder().FailNext(NotLeader(UrlOf(b_)));
  HttpResult refused = a_.Delete("/connectors/x?forward=false");
  EXPECT_EQ(refused.status, 409);
  EXPECT_EQ(refused.body, ErrorJson(409, kTwoHops));
}

TEST_F(ForwardingTest, ForwardedRequestCarriesForwardFlagQueryAndOnlyAuthorization) {
  a_.herder().AddConnector("c");
  capture_.Respond(202, R"({"name":"c","connector":{"state":"RESTARTING","worker_id":"w"},)"
                        R"("tasks":[],"type":"source"})");
  a_.herder().FailNext(NotLeader(capture_.url()));
  HttpResult r = a_.Send("POST", "/connectors/c/restart?includeTasks=true&forward=true", "",
                         {{"Authorization", "Bearer t0ken"}, {"X-Custom", "1"}});
  EXPECT_EQ(r.status, 202) << r.body;
  EXPECT_NE(r.body.find("RESTARTING"), std::string::npos);
  ASSERT_EQ(capture_.requests().size(), 1u);
  const CapturedRequest sent = capture_.requests()[0];
  EXPECT_EQ(sent.method, "POST");
  EXPECT_EQ(sent.target, "/connectors/c/restart?forward=false&includeTasks=true&onlyFailed=false");
  EXPECT_EQ(sent.Header("Authorization"), "Bearer t0ken");
  EXPECT_FALSE(sent.HasHeader("X-Custom"));
  EXPECT_EQ(sent.Header("Accept"), "application/json");
  EXPECT_EQ(sent.Header("User-Agent"), "kafka-connect");
  EXPECT_FALSE(sent.HasHeader("Content-Type"));
  EXPECT_EQ(sent.body, "");
}

TEST_F(ForwardingTest, BodiesAreReSerializedAndPathsRebuilt) {
  capture_.Respond(201, R"({"name":"a b","config":{},"tasks":[],"type":"source"})");
  a_.herder().FailNext(NotLeader(capture_.url()));
  HttpResult r = a_.Put("/connectors/a%20b/config", R"({ "tasks.max" : 1 })");
  EXPECT_EQ(r.status, 201);
  EXPECT_EQ(r.Header("Location"),
            "http://127.0.0.1:" + std::to_string(a_.port()) + "/connectors/a%20b");
  ASSERT_EQ(capture_.requests().size(), 1u);
  EXPECT_EQ(capture_.requests()[0].target, "/connectors/a%20b/config?forward=true");
  EXPECT_EQ(capture_.requests()[0].body, R"({"name":"a b","tasks.max":"1"})");
  EXPECT_EQ(capture_.requests()[0].Header("Content-Type"), "application/json");

  capture_.Respond(204, "");
  a_.herder().AddConnector("c");
  a_.herder().FailNext(NotLeader(capture_.url()));
  EXPECT_EQ(a_.Post("/connectors/c/tasks/01/restart").status, 204);
  EXPECT_EQ(capture_.requests().back().target, "/connectors/c/tasks/1/restart?forward=true");

  capture_.Respond(200, R"({"message":"done"})");
  a_.herder().FailNext(NotLeader(capture_.url()));
  HttpResult patched = a_.Patch("/connectors/c/config", R"({"gone":null,"k":"v"})");
  EXPECT_EQ(patched.status, 200);
  EXPECT_EQ(capture_.requests().back().method, "PATCH");
  EXPECT_EQ(capture_.requests().back().body, R"({"gone":null,"k":"v"})");

  capture_.Respond(201, R"({"name":"n","config":{},"tasks":[],"type":"source"})");
  a_.herder().FailNext(NotLeader(capture_.url()));
  EXPECT_EQ(
      a_.Post("/connectors", R"({"name":"n","config":{"a":"b"},"initial_state":"paused"})").status,
      201);
  EXPECT_EQ(capture_.requests().back().target, "/connectors?forward=true");
  EXPECT_EQ(capture_.requests().back().body,
            R"({"name":"n","config":{"a":"b","name":"n"},"initial_state":"PAUSED"})");
}

TEST_F(ForwardingTest, RemoteAnswersThatAreNotUsableBecome500) {
  a_.herder().AddConnector("c");
  capture_.Respond(302, "", {{"Location", "http://elsewhere/"}});
  a_.herder().FailNext(NotLeader(capture_.url()));
  EXPECT_EQ(a_.Put("/connectors/c/stop").body,
            ErrorJson(500, "Unexpected status code when handling forwarded request: 302"));

  capture_.Respond(200, "not json");
  a_.herder().FailNext(NotLeader(capture_.url()));
  HttpResult garbled = a_.Delete("/connectors/c/offsets");
  EXPECT_EQ(garbled.status, 500);
  EXPECT_NE(garbled.body.find("IO Error trying to forward REST request: "), std::string::npos);

  capture_.Respond(500, "<html>oops</html>");
  a_.herder().FailNext(NotLeader(capture_.url()));
  HttpResult html_error = a_.Delete("/connectors/c/offsets");
  EXPECT_EQ(html_error.status, 500);
  EXPECT_NE(html_error.body.find("IO Error trying to forward REST request: "), std::string::npos);

  int closed_port = 0;
  {
    RestTestEnv gone;
    closed_port = gone.port();
  }
  a_.herder().FailNext(NotLeader("http://127.0.0.1:" + std::to_string(closed_port) + "/"));
  HttpResult io = a_.Put("/connectors/c/stop");
  EXPECT_EQ(io.status, 500);
  EXPECT_NE(io.body.find("IO Error trying to forward REST request: "), std::string::npos)
      << io.body;
}

TEST_F(ForwardingTest, NoLeaderAndStaleConfigAre409) {
  a_.herder().AddConnector("c");
  a_.herder().FailNext(NotLeader(""));
  EXPECT_EQ(a_.Delete("/connectors/c").body, ErrorJson(409, kNoLeader));
  a_.herder().FailNext(herder::RebalanceNeededError());
  EXPECT_EQ(a_.Delete("/connectors/c").body, ErrorJson(409, kStale));
  // Read-only herder-queue endpoints do not map it: 500 with the herder's message.
  a_.herder().FailNext(herder::RebalanceNeededError());
  EXPECT_EQ(a_.Get("/connectors/c").body,
            ErrorJson(500, "Request cannot be completed because a rebalance is expected"));
  a_.herder().FailNext(herder::RebalanceNeededError());
  EXPECT_EQ(a_.Get("/connectors/c/tasks").status, 500);
}

TEST(ForwardUrlTest, JoinsTargetPathForwardAndQuery) {
  ForwardRequest forward{"POST", "/connectors/c/restart", {{"onlyFailed", "a b&c"}}, std::nullopt};
  EXPECT_EQ(ForwardUrl("http://leader:8083/", {}, forward),
            "http://leader:8083/connectors/c/restart?forward=true&onlyFailed=a%20b%26c");
  EXPECT_EQ(ForwardUrl("https://leader:8443/base//", {true, std::nullopt}, forward),
            "https://leader:8443/base/connectors/c/restart?forward=false&onlyFailed=a%20b%26c");
}

TEST(ForwardOriginTest, ReadsForwardAsJaxRsBooleanAndTheAuthorizationHeader) {
  RestRequest request;
  EXPECT_FALSE(OriginOf(request).forward.has_value());
  request.query["forward"] = {""};
  EXPECT_FALSE(OriginOf(request).forward.has_value());
  request.query["forward"] = {"TRUE"};
  EXPECT_EQ(OriginOf(request).forward, true);
  request.query["forward"] = {"no"};
  EXPECT_EQ(OriginOf(request).forward, false);
  request.headers = {{"authorization", "Basic x"}};
  EXPECT_EQ(OriginOf(request).authorization, "Basic x");
}

// ---- Internal endpoints ----------------------------------------------------------------------

class InternalEndpointsTest : public ForwardingTest {
 protected:
  void SetUp() override {
    a_.herder().put_task_configs_hook =
        [this](const std::string& name, const std::vector<herder::ConfigMap>& configs,
               std::optional<herder::InternalRequestSignature> sig, herder::DoneCallback done) {
          {
            std::lock_guard lock(mu_);
            seen_name_ = name;
            seen_configs_ = configs;
            seen_signature_ = sig;
          }
          done(answer_(sig));
        };
    a_.herder().fence_hook = [this](const std::string& name,
                                    std::optional<herder::InternalRequestSignature> sig,
                                    herder::DoneCallback done) {
      {
        std::lock_guard lock(mu_);
        seen_name_ = name;
        seen_signature_ = sig;
      }
      done(answer_(sig));
    };
  }

  std::mutex mu_;
  std::string seen_name_;
  std::vector<herder::ConfigMap> seen_configs_;
  std::optional<herder::InternalRequestSignature> seen_signature_;
  std::function<absl::Status(const std::optional<herder::InternalRequestSignature>&)> answer_ =
      [](const auto&) { return absl::OkStatus(); };
};

TEST_F(InternalEndpointsTest, SignatureHeadersReachTheHerder) {
  const std::string body = R"([{"task.class":"X","n":1}])";
  HttpResult r = a_.Send("POST", "/connectors/c/tasks", body,
                         {{"X-Connect-Authorization", "AAAA"},
                          {"X-Connect-Request-Signature-Algorithm", "HmacSHA256"}});
  EXPECT_EQ(r.status, 204) << r.body;
  std::lock_guard lock(mu_);
  EXPECT_EQ(seen_name_, "c");
  ASSERT_EQ(seen_configs_.size(), 1u);
  EXPECT_EQ(seen_configs_[0].at("n"), "1");
  ASSERT_TRUE(seen_signature_.has_value());
  EXPECT_EQ(seen_signature_->algorithm, "HmacSHA256");
  EXPECT_EQ(seen_signature_->signature, "AAAA");
  EXPECT_EQ(seen_signature_->body, body);
}

TEST_F(InternalEndpointsTest, MissingHeaderMeansNoSignature) {
  EXPECT_EQ(a_.Send("PUT", "/connectors/c/fence", "", {{"X-Connect-Authorization", "AAAA"}}).status,
            204);
  std::lock_guard lock(mu_);
  EXPECT_FALSE(seen_signature_.has_value());
}

TEST_F(InternalEndpointsTest, UnknownAlgorithmOrBadBase64Is400BeforeTheHerder) {
  HttpResult unknown = a_.Send(
      "POST", "/connectors/c/tasks", "[]",
      {{"X-Connect-Authorization", "AAAA"}, {"X-Connect-Request-Signature-Algorithm", "HmacFoo"}});
  EXPECT_EQ(unknown.body, ErrorJson(400, "Algorithm HmacFoo not available"));
  HttpResult bad = a_.Send("PUT", "/connectors/c/fence", "",
                           {{"X-Connect-Authorization", "abc-"},
                            {"X-Connect-Request-Signature-Algorithm", "HmacSHA256"}});
  EXPECT_EQ(bad.body, ErrorJson(400, "Illegal base64 character 2d"));
  EXPECT_TRUE(a_.herder().Calls().empty());
}

TEST_F(InternalEndpointsTest, HerderVerificationStatusesReachTheClient) {
  storage::SessionKey key{std::string(32, 'k'), "HmacSHA256", 0};
  answer_ = [key](const std::optional<herder::InternalRequestSignature>& sig) {
    return distributed::VerifyInternalRequest(sig, {"HmacSHA256"}, key);
  };
  const std::string body = R"([{"a":"b"}])";
  std::string good = *distributed::Sign(key.key, "HmacSHA256", body);
  EXPECT_EQ(a_.Send("POST", "/connectors/c/tasks", body,
                    {{"X-Connect-Authorization", good},
                     {"X-Connect-Request-Signature-Algorithm", "HmacSHA256"}})
                .status,
            204);
  EXPECT_EQ(a_.Send("POST", "/connectors/c/tasks", R"([{"a":"c"}])",
                    {{"X-Connect-Authorization", good},
                     {"X-Connect-Request-Signature-Algorithm", "HmacSHA256"}})
                .body,
            ErrorJson(403, "Internal request contained invalid signature."));
  EXPECT_EQ(a_.Post("/connectors/c/tasks", body).body,
            ErrorJson(400, "Internal request missing required signature"));
}

TEST_F(InternalEndpointsTest, ForwardedToTheLeaderUnsigned) {
  answer_ = [this](const auto&) { return NotLeader(capture_.url()); };
  capture_.Respond(204, "");
  const std::string body = R"([{"k":"v"}, {"k":"w"}])";
  EXPECT_EQ(a_.Send("POST", "/connectors/c/tasks", body,
                    {{"X-Connect-Authorization", "AAAA"},
                     {"X-Connect-Request-Signature-Algorithm", "HmacSHA256"}})
                .status,
            204);
  ASSERT_EQ(capture_.requests().size(), 1u);
  CapturedRequest sent = capture_.requests()[0];
  EXPECT_EQ(sent.target, "/connectors/c/tasks?forward=true");
  EXPECT_EQ(sent.body, R"([{"k":"v"},{"k":"w"}])");
  EXPECT_FALSE(sent.HasHeader("X-Connect-Authorization"));

  EXPECT_EQ(a_.Put("/connectors/c/fence").status, 204);
  sent = capture_.requests().back();
  EXPECT_EQ(sent.method, "PUT");
  EXPECT_EQ(sent.target, "/connectors/c/fence?forward=true");
  EXPECT_EQ(sent.body, R"("")");  // Jackson's rendering of an empty byte[]
}

}  // namespace
}  // namespace connectd::rest::testing
