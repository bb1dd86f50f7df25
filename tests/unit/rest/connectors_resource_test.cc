// Every /connectors endpoint through the real RestServer, against Kafka's ConnectorsResource.
#include <gtest/gtest.h>

#include "rest/json_entities.h"
#include "tests/unit/rest/rest_test_env.h"

namespace connectd::rest::testing {
namespace {

class ConnectorsResourceTest : public ::testing::Test {
 protected:
  RestTestEnv env_;
};

TEST_F(ConnectorsResourceTest, ListConnectors) {
  HttpResult empty = env_.Get("/connectors");
  EXPECT_EQ(empty.status, 200);
  EXPECT_EQ(empty.body, "[]");
  EXPECT_EQ(empty.Header("Content-Type"), "application/json");
  env_.herder().AddConnector("a");
  env_.herder().AddConnector("b");
  EXPECT_EQ(env_.Get("/connectors").body, R"(["a","b"])");
}

TEST_F(ConnectorsResourceTest, ListConnectorsExpandStatusAndInfo) {
  env_.herder().AddConnector("src", 1);
  env_.herder().AddConnector("nostatus", 0);
  env_.herder().Mutate("nostatus", [](FakeHerder::Connector& c) { c.status.reset(); });
  HttpResult r = env_.Get("/connectors?expand=status&expand=info&expand=bogus");
  EXPECT_EQ(r.status, 200);
  // A connector without a status record is left out entirely.
  EXPECT_EQ(
      r.body,
      R"({"src":{"status":{"name":"src","connector":{"state":"RUNNING","worker_id":"w1:8083"},)"
      R"("tasks":[{"id":0,"state":"RUNNING","worker_id":"w1:8083"}],"type":"source"},)"
      R"("info":{"name":"src","config":{"connector.class":"FileStreamSource","name":"src",)"
      R"("tasks.max":"1"},"tasks":[{"connector":"src","task":0}],"type":"source"}}})");
  // Expansion order follows the query; unknown expansions give an empty object.
  EXPECT_EQ(env_.Get("/connectors?expand=info&expand=status").body.substr(0, 17),
            R"({"src":{"info":{")");
  EXPECT_EQ(env_.Get("/connectors?expand=unknown").body, R"({"nostatus":{},"src":{}})");
}

TEST_F(ConnectorsResourceTest, ListConnectorsExpandWorksWithAsyncHerder) {
  env_.herder().set_answer_async(true);
  env_.herder().AddConnector("a");
  env_.herder().AddConnector("b");
  HttpResult r = env_.Get("/connectors?expand=info");
  EXPECT_EQ(r.status, 200);
  EXPECT_NE(r.body.find(R"("a":{"info":{"name":"a")"), std::string::npos);
  EXPECT_NE(r.body.find(R"("b":{"info":{"name":"b")"), std::string::npos);
}

TEST_F(ConnectorsResourceTest, CreateConnector) {
  HttpResult r = env_.Post(
      "/connectors",
      R"({"name":"  my conn ","config":{"connector.class":"FileStreamSource","tasks.max":1},"initial_state":"paused"})");
  EXPECT_EQ(r.status, 201) << r.body;
  EXPECT_EQ(r.body,
            R"({"name":"my conn","config":{"connector.class":"FileStreamSource","name":"my conn",)"
            R"("tasks.max":"1"},"tasks":[],"type":"source"})");
  EXPECT_EQ(r.Header("Location"),
            "http://127.0.0.1:" + std::to_string(env_.port()) + "/connectors/my%20conn");
  EXPECT_EQ(env_.herder().last_initial_state, herder::TargetState::kPaused);
  EXPECT_EQ(env_.herder().Calls().back(), "PutConnectorConfig(my conn,0)");
}

TEST_F(ConnectorsResourceTest, CreateConnectorErrors) {
  env_.herder().AddConnector("dup");
  EXPECT_EQ(env_.Post("/connectors", R"({"name":"dup","config":{"connector.class":"X"}})").body,
            ErrorJson(409, "Connector dup already exists"));
  HttpResult mismatch =
      env_.Post("/connectors", R"({"name":"a","config":{"name":"b","connector.class":"X"}})");
  EXPECT_EQ(mismatch.status, 400);
  EXPECT_EQ(mismatch.body,
            ErrorJson(400,
                      "Connector name configuration (b) doesn't match connector name in the "
                      "URL (a)"));
  HttpResult invalid = env_.Post("/connectors", R"({"name":"c","config":{"tasks.max":"1"}})");
  EXPECT_EQ(invalid.status, 400);
  EXPECT_EQ(invalid.body,
            ErrorJson(400,
                      "Connector configuration is invalid and contains the following 1 error(s):\n"
                      "Missing required configuration \"connector.class\" which has no default "
                      "value.\nYou can also find the above list of errors at the endpoint "
                      "`/connector-plugins/{connectorType}/config/validate`"));
  HttpResult bad_value = env_.Post("/connectors", R"({"name":"c","config":{"k":{"x":1}}})");
  EXPECT_EQ(bad_value.status, 400);
  EXPECT_EQ(bad_value.body,
            ErrorJson(400,
                      "Invalid value for configuration key 'k': expected a string but got "
                      "an object"));
  EXPECT_EQ(env_.Post("/connectors", R"({"name":"c"})").status, 400);
  EXPECT_EQ(env_.Post("/connectors", R"({"name":"c","config":{},"initial_state":"x"})").status,
            400);
  env_.herder().FailNext(absl::InternalError("Failed to find any class that implements Connector"));
  EXPECT_EQ(env_.Post("/connectors", R"({"name":"z","config":{"connector.class":"Nope"}})").body,
            ErrorJson(500, "Failed to find any class that implements Connector"));
}

TEST_F(ConnectorsResourceTest, GetConnectorAndConfig) {
  env_.herder().AddConnector("c", 2);
  HttpResult info = env_.Get("/connectors/c");
  EXPECT_EQ(info.status, 200);
  EXPECT_EQ(
      info.body,
      R"({"name":"c","config":{"connector.class":"FileStreamSource","name":"c","tasks.max":"2"},)"
      R"("tasks":[{"connector":"c","task":0},{"connector":"c","task":1}],"type":"source"})");
  HttpResult config = env_.Get("/connectors/c/config");
  EXPECT_EQ(config.status, 200);
  EXPECT_EQ(config.body, R"({"connector.class":"FileStreamSource","name":"c","tasks.max":"2"})");
  EXPECT_EQ(env_.Get("/connectors/nope").body, ErrorJson(404, "Connector nope not found"));
  EXPECT_EQ(env_.Get("/connectors/nope/config").status, 404);
  // A rebalance pending on a read endpoint: the herder says 500, the REST layer passes it on.
  env_.herder().FailNext(herder::WithHttpStatus(
      absl::FailedPreconditionError("Request cannot be completed because a rebalance is expected"),
      500));
  EXPECT_EQ(env_.Get("/connectors/c").body,
            ErrorJson(500, "Request cannot be completed because a rebalance is expected"));
}

TEST_F(ConnectorsResourceTest, PutConnectorConfigCreatesThenUpdates) {
  HttpResult created =
      env_.Put("/connectors/c/config", R"({"connector.class":"FileStreamSource"})");
  EXPECT_EQ(created.status, 201);
  EXPECT_EQ(created.Header("Location"),
            "http://127.0.0.1:" + std::to_string(env_.port()) + "/connectors/c");
  EXPECT_EQ(
      created.body,
      R"({"name":"c","config":{"connector.class":"FileStreamSource","name":"c"},"tasks":[],"type":"source"})");
  HttpResult updated = env_.Put("/connectors/c/config",
                                R"({"connector.class":"FileStreamSource","name":"c","x":"y"})");
  EXPECT_EQ(updated.status, 200);
  EXPECT_FALSE(updated.HasHeader("Location"));
  EXPECT_EQ(env_.herder().Calls().back(), "PutConnectorConfig(c,1)");
  EXPECT_EQ(env_.Put("/connectors/c/config", R"({"name":"d","connector.class":"X"})").body,
            ErrorJson(400,
                      "Connector name configuration (d) doesn't match connector name in the "
                      "URL (c)"));
}

TEST_F(ConnectorsResourceTest, PatchConnectorConfig) {
  env_.herder().AddConnector("c");
  HttpResult r =
      env_.Patch("/connectors/c/config", R"({"tasks.max":"3","connector.class":null,"new":"v"})");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(
      r.body,
      R"({"name":"c","config":{"name":"c","new":"v","tasks.max":"3"},"tasks":[{"connector":"c","task":0}],"type":"source"})");
  EXPECT_EQ(env_.herder().last_patch->at("connector.class"), std::nullopt);
  EXPECT_EQ(env_.Patch("/connectors/nope/config", R"({"a":"b"})").body,
            ErrorJson(404, "Connector nope not found"));
}

TEST_F(ConnectorsResourceTest, DeleteConnector) {
  env_.herder().AddConnector("c");
  HttpResult r = env_.Delete("/connectors/c");
  EXPECT_EQ(r.status, 204);
  EXPECT_EQ(r.body, "");
  EXPECT_EQ(env_.Delete("/connectors/c").body, ErrorJson(404, "Connector c not found"));
  env_.herder().AddConnector("d");
  env_.herder().FailNext(absl::AbortedError(
      "Cannot complete request momentarily due to stale configuration (typically caused by a "
      "concurrent config change)"));
  EXPECT_EQ(env_.Delete("/connectors/d").status, 409);
}

TEST_F(ConnectorsResourceTest, ConnectorAndTaskStatus) {
  env_.herder().AddConnector("c", 2);
  env_.herder().Mutate("c", [](FakeHerder::Connector& c) {
    c.status->tasks[1].state = {"FAILED", "w2:8083",
                                "org.apache.kafka.connect.errors.ConnectException: x\n\tat y"};
  });
  HttpResult status = env_.Get("/connectors/c/status");
  EXPECT_EQ(status.status, 200);
  EXPECT_EQ(
      status.body,
      R"({"name":"c","connector":{"state":"RUNNING","worker_id":"w1:8083"},"tasks":[)"
      R"({"id":0,"state":"RUNNING","worker_id":"w1:8083"},{"id":1,"state":"FAILED",)"
      R"("worker_id":"w2:8083","trace":"org.apache.kafka.connect.errors.ConnectException: x\n\tat y"}],)"
      R"("type":"source"})");
  EXPECT_EQ(env_.Get("/connectors/nope/status").body,
            ErrorJson(404, "No status found for connector nope"));
  EXPECT_EQ(env_.Get("/connectors/c/tasks/0/status").body,
            R"({"id":0,"state":"RUNNING","worker_id":"w1:8083"})");
  EXPECT_EQ(env_.Get("/connectors/c/tasks/7/status").body,
            ErrorJson(404, "No status found for task c-7"));
  // A task id that is not an integer does not match the resource (JAX-RS 404).
  EXPECT_EQ(env_.Get("/connectors/c/tasks/x/status").body, ErrorJson(404, "HTTP 404 Not Found"));
}

TEST_F(ConnectorsResourceTest, TaskConfigsAndNoTasksConfig) {
  env_.herder().AddConnector("c", 2);
  HttpResult tasks = env_.Get("/connectors/c/tasks");
  EXPECT_EQ(tasks.status, 200);
  EXPECT_EQ(
      tasks.body,
      R"([{"id":{"connector":"c","task":0},"config":{"file":"/f0","task.class":"FileStreamSourceTask"}},)"
      R"({"id":{"connector":"c","task":1},"config":{"file":"/f1","task.class":"FileStreamSourceTask"}}])");
  // Kafka 4.0 removed GET .../tasks-config: 404 as for any unknown path.
  HttpResult tasks_config = env_.Get("/connectors/c/tasks-config");
  EXPECT_EQ(tasks_config.status, 404);
  EXPECT_EQ(tasks_config.body, R"({"error_code":404,"message":"HTTP 404 Not Found"})");
  EXPECT_EQ(env_.Get("/connectors/nope/tasks").status, 404);
  EXPECT_EQ(env_.Get("/connectors/nope/tasks-config").status, 404);
}

TEST_F(ConnectorsResourceTest, RestartMatrix) {
  env_.herder().AddConnector("c", 2);
  env_.herder().Mutate("c",
                       [](FakeHerder::Connector& c) { c.status->tasks[0].state.state = "FAILED"; });

  HttpResult legacy = env_.Post("/connectors/c/restart");
  EXPECT_EQ(legacy.status, 204);
  EXPECT_EQ(legacy.body, "");
  EXPECT_EQ(env_.herder().Calls().back(), "RestartConnector(c)");

  HttpResult only_failed = env_.Post("/connectors/c/restart?onlyFailed=true");
  EXPECT_EQ(only_failed.status, 202);
  EXPECT_FALSE(env_.herder().last_restart->include_tasks);
  EXPECT_TRUE(env_.herder().last_restart->only_failed);
  // The connector is RUNNING, so an only-failed restart of it changes nothing.
  EXPECT_NE(only_failed.body.find(R"("connector":{"state":"RUNNING")"), std::string::npos);

  HttpResult all = env_.Post("/connectors/c/restart?includeTasks=true");
  EXPECT_EQ(all.status, 202);
  EXPECT_EQ(all.body,
            R"({"name":"c","connector":{"state":"RESTARTING","worker_id":"w1:8083"},"tasks":[)"
            R"({"id":0,"state":"RESTARTING","worker_id":"w1:8083"},)"
            R"({"id":1,"state":"RESTARTING","worker_id":"w1:8083"}],"type":"source"})");

  HttpResult failed_tasks = env_.Post("/connectors/c/restart?includeTasks=true&onlyFailed=true");
  EXPECT_EQ(failed_tasks.status, 202);
  EXPECT_NE(failed_tasks.body.find(R"({"id":0,"state":"RESTARTING")"), std::string::npos);
  EXPECT_NE(failed_tasks.body.find(R"({"id":1,"state":"RUNNING")"), std::string::npos);

  EXPECT_EQ(env_.Post("/connectors/nope/restart").body, ErrorJson(404, "Unknown connector: nope"));
  EXPECT_EQ(env_.Post("/connectors/nope/restart?includeTasks=true").body,
            ErrorJson(404, "Unknown connector: nope"));
}

TEST_F(ConnectorsResourceTest, RestartTask) {
  env_.herder().AddConnector("c", 1);
  HttpResult r = env_.Post("/connectors/c/tasks/0/restart");
  EXPECT_EQ(r.status, 204);
  EXPECT_EQ(env_.Post("/connectors/c/tasks/5/restart").body, ErrorJson(404, "Unknown task: c-5"));
  EXPECT_EQ(env_.Post("/connectors/x/tasks/0/restart").body,
            ErrorJson(404, "Unknown connector: x"));
  env_.herder().FailNext(absl::InternalError("Failed to start task: c-0"));
  EXPECT_EQ(env_.Post("/connectors/c/tasks/0/restart").body,
            ErrorJson(500, "Failed to start task: c-0"));
}

TEST_F(ConnectorsResourceTest, PauseResumeStop) {
  env_.herder().AddConnector("c");
  HttpResult pause = env_.Put("/connectors/c/pause");
  EXPECT_EQ(pause.status, 202);
  EXPECT_EQ(pause.body, "");
  EXPECT_EQ(env_.herder().Get("c")->target, herder::TargetState::kPaused);
  EXPECT_EQ(env_.Put("/connectors/c/resume").status, 202);
  EXPECT_EQ(env_.herder().Get("c")->target, herder::TargetState::kStarted);
  EXPECT_EQ(env_.Put("/connectors/c/stop").status, 204);
  EXPECT_EQ(env_.herder().Get("c")->target, herder::TargetState::kStopped);
  EXPECT_EQ(env_.Put("/connectors/x/pause").body, ErrorJson(404, "Unknown connector x"));
  EXPECT_EQ(env_.Put("/connectors/x/resume").status, 404);
  EXPECT_EQ(env_.Put("/connectors/x/stop").body, ErrorJson(404, "Unknown connector x"));
  env_.herder().FailNext(absl::FailedPreconditionError("rebalance"));
  EXPECT_EQ(env_.Put("/connectors/c/stop").status, 409);
}

TEST_F(ConnectorsResourceTest, ActiveTopics) {
  env_.herder().AddConnector("c");
  env_.herder().Mutate("c", [](FakeHerder::Connector& c) { c.topics = {"t1", "t2"}; });
  HttpResult topics = env_.Get("/connectors/c/topics");
  EXPECT_EQ(topics.status, 200);
  EXPECT_EQ(topics.body, R"({"c":{"topics":["t1","t2"]}})");
  // No 404 for an unknown connector: an empty list.
  EXPECT_EQ(env_.Get("/connectors/x/topics").body, R"({"x":{"topics":[]}})");
  EXPECT_EQ(env_.Put("/connectors/c/topics/reset").status, 202);
  EXPECT_TRUE(env_.herder().Get("c")->topics.empty());
}

TEST(ConnectorsResourceConfigTest, TopicTrackingDisabled) {
  RestTestEnv off(Props{{"topic.tracking.enable", "false"}});
  EXPECT_EQ(off.Get("/connectors/c/topics").body, ErrorJson(403, "Topic tracking is disabled."));
  EXPECT_EQ(off.Put("/connectors/c/topics/reset").body,
            ErrorJson(403, "Topic tracking is disabled."));
  RestTestEnv no_reset(Props{{"topic.tracking.allow.reset", "false"}});
  EXPECT_EQ(no_reset.Get("/connectors/c/topics").status, 200);
  EXPECT_EQ(no_reset.Put("/connectors/c/topics/reset").body,
            ErrorJson(403, "Topic tracking reset is disabled."));
}

TEST_F(ConnectorsResourceTest, Offsets) {
  env_.herder().AddConnector("c");
  herder::ConnectorOffsets offsets;
  offsets.offsets.push_back({R"({"filename":"/f"})", R"({"position":42})"});
  env_.herder().Mutate("c", [&](FakeHerder::Connector& c) { c.offsets = offsets; });
  HttpResult get = env_.Get("/connectors/c/offsets");
  EXPECT_EQ(get.status, 200);
  EXPECT_EQ(get.body, R"({"offsets":[{"partition":{"filename":"/f"},"offset":{"position":42}}]})");
  EXPECT_EQ(env_.Get("/connectors/x/offsets").body, ErrorJson(404, "Connector x not found"));

  const std::string body =
      R"({"offsets":[{"partition":{"kafka_topic":"t","kafka_partition":0},"offset":{"kafka_offset":5}}]})";
  HttpResult running = env_.Patch("/connectors/c/offsets", body);
  EXPECT_EQ(running.status, 400);
  EXPECT_EQ(running.body,
            ErrorJson(400,
                      "Connectors must be in the STOPPED state before their offsets can be "
                      "modified. This can be done for the specified connector by issuing a "
                      "'PUT' request to the '/connectors/c/stop' endpoint"));
  EXPECT_EQ(env_.Put("/connectors/c/stop").status, 204);
  HttpResult altered = env_.Patch("/connectors/c/offsets", body);
  EXPECT_EQ(altered.status, 200);
  EXPECT_EQ(altered.body,
            R"({"message":"The offsets for this connector have been altered successfully"})");
  EXPECT_EQ(env_.herder().last_altered_offsets->offsets.at(0).partition_json,
            R"({"kafka_topic":"t","kafka_partition":0})");

  for (const char* empty : {R"({})", R"({"offsets":[]})", R"({"offsets":null})"}) {
    EXPECT_EQ(env_.Patch("/connectors/c/offsets", empty).body,
              ErrorJson(400,
                        "Partitions / offsets need to be provided for an alter offsets "
                        "request"));
  }
  HttpResult reset = env_.Delete("/connectors/c/offsets");
  EXPECT_EQ(reset.status, 200);
  EXPECT_NE(reset.body.find("have been reset successfully"), std::string::npos);
  EXPECT_EQ(env_.Delete("/connectors/x/offsets").status, 404);
}

TEST_F(ConnectorsResourceTest, InternalEndpointsAnswerAsStandaloneConnect) {
  env_.herder().AddConnector("c");
  EXPECT_EQ(env_.Post("/connectors/c/tasks", R"([{"task.class":"X"}])").body,
            ErrorJson(500,
                      "Kafka Connect in standalone mode does not support externally setting "
                      "task configurations."));
  EXPECT_EQ(env_.Post("/connectors/c/tasks", R"({"not":"a list"})").status, 400);
  EXPECT_EQ(env_.Put("/connectors/c/fence").body,
            ErrorJson(500,
                      "Kafka Connect in standalone mode does not support exactly-once source "
                      "connectors."));
}

TEST_F(ConnectorsResourceTest, AnswersFromHerderThreadsArePostedBack) {
  env_.herder().set_answer_async(true);
  env_.herder().AddConnector("c");
  for (int i = 0; i < 20; ++i) {
    HttpResult r = env_.Get("/connectors/c/config");
    ASSERT_EQ(r.status, 200);
  }
  EXPECT_EQ(env_.Delete("/connectors/c").status, 204);
  EXPECT_EQ(env_.Get("/connectors/c").status, 404);
}

}  // namespace
}  // namespace connectd::rest::testing
