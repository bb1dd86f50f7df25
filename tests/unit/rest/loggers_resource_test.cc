#include <gtest/gtest.h>

#include "runtime/common/logging.h"
#include "tests/unit/rest/rest_test_env.h"

namespace connectd::rest::testing {
namespace {

RestServer::Options FixedClock() {
  RestServer::Options options;
  options.now_ms = [] { return int64_t{1700000000000}; };
  return options;
}

TEST(LoggersResourceTest, WorkerScopeChangesConnectdLevels) {
  RestTestEnv env({}, FixedClock());
  // Logger levels are process-wide: a fresh namespace per run keeps --gtest_repeat honest.
  static int run = 0;
  const std::string ns = "resttest" + std::to_string(++run);
  log::SetLevel(ns + ".a.b", log::Level::kInfo);
  ASSERT_FALSE(log::IsEnabled(log::Level::kDebug, ns + ".a.b.c"));

  HttpResult set = env.Put("/admin/loggers/" + ns + ".a", R"({"level":"debug"})");
  EXPECT_EQ(set.status, 200);
  // The namespace logger is new (changed); NS.a.b had INFO (changed); NS.a.b.c, known since
  // code asked about it, had no level of its own (changed).
  EXPECT_EQ(set.body, "[\"" + ns + ".a\",\"" + ns + ".a.b\",\"" + ns + ".a.b.c\"]");
  EXPECT_TRUE(log::IsEnabled(log::Level::kDebug, ns + ".a.b.c"));
  EXPECT_TRUE(log::IsEnabled(log::Level::kDebug, ns + ".a.x"));

  EXPECT_EQ(env.Get("/admin/loggers/" + ns + ".a.b").body,
            R"({"level":"DEBUG","last_modified":1700000000000})");
  // A logger with no level of its own that code used (NS.a.x) is known: GET answers its
  // effective level, never modified.
  EXPECT_EQ(env.Get("/admin/loggers/" + ns + ".a.x").body, R"({"level":"DEBUG","last_modified":null})");
  EXPECT_EQ(env.Get("/admin/loggers/" + ns + ".a.y").status, 404);
  // Setting the same level again changes only the logger that had no level of its own.
  EXPECT_EQ(env.Put("/admin/loggers/" + ns + ".a", R"({"level":"DEBUG"})").body,
            "[\"" + ns + ".a.x\"]");
  EXPECT_EQ(env.Put("/admin/loggers/" + ns + ".a", R"({"level":"DEBUG"})").body, "[]");
  // FATAL is a log4j level; connectd maps it to ERROR.
  EXPECT_EQ(env.Put("/admin/loggers/" + ns + ".a.b", R"({"level":"FATAL"})").status, 200);
  EXPECT_FALSE(log::IsEnabled(log::Level::kWarn, ns + ".a.b"));

  HttpResult all = env.Get("/admin/loggers");
  EXPECT_EQ(all.status, 200);
  EXPECT_NE(all.body.find("\"" + ns + R"(.a":{"level":"DEBUG","last_modified":1700000000000})"),
            std::string::npos);
  EXPECT_NE(all.body.find(R"("root":{"level":)"), std::string::npos);
  // OFF loggers are not listed.
  EXPECT_EQ(env.Put("/admin/loggers/" + ns + ".a.b", R"({"level":"OFF"})").status, 200);
  EXPECT_EQ(env.Get("/admin/loggers").body.find("\"" + ns + ".a.b\""), std::string::npos);
}

TEST(LoggersResourceTest, RootLoggerAndUnknownLoggers) {
  RestTestEnv env;
  HttpResult root = env.Get("/admin/loggers/root");
  EXPECT_EQ(root.status, 200);
  EXPECT_NE(root.body.find(R"("level":")"), std::string::npos);
  EXPECT_EQ(env.Get("/admin/loggers/no.such.logger").body,
            ErrorJson(404, "Logger no.such.logger not found."));
}

TEST(LoggersResourceTest, BadRequests) {
  RestTestEnv env;
  EXPECT_EQ(env.Put("/admin/loggers/x", R"({"lvl":"DEBUG"})").body,
            ErrorJson(400, "Desired 'level' parameter was not specified in request."));
  EXPECT_EQ(env.Put("/admin/loggers/x", R"({"level":"LOUD"})").body,
            ErrorJson(404, "invalid log level 'LOUD'."));
  EXPECT_EQ(env.Put("/admin/loggers/x", R"({"level":)").status, 400);
}

TEST(LoggersResourceTest, ClusterScopeGoesToTheHerder) {
  RestTestEnv env;
  HttpResult r = env.Put("/admin/loggers/org.apache.kafka?scope=CLUSTER", R"({"level":"warn"})");
  EXPECT_EQ(r.status, 204);
  EXPECT_EQ(r.body, "");
  ASSERT_TRUE(env.herder().last_cluster_logger.has_value());
  EXPECT_EQ(env.herder().last_cluster_logger->first, "org.apache.kafka");
  EXPECT_EQ(env.herder().last_cluster_logger->second, "warn");
  // An unknown scope falls back to worker.
  EXPECT_EQ(env.Put("/admin/loggers/resttest.scope?scope=galaxy", R"({"level":"INFO"})").status,
            200);
}

// KIP-495 as Java 4.4 answers it (checked 6 Dec 2026 against ConnectStandalone): with
// admin.listeners, /admin/* is served there only; the main listeners answer it 404, and the admin
// listener answers everything else 404, both with Jersey's body.
TEST(LoggersResourceTest, AdminListenersServeTheAdminEndpointsAndOnlyThem) {
  RestTestEnv env(
      Props{{"admin.listeners", "http://127.0.0.1:0"}, {"access.control.allow.origin", "*"}});
  ASSERT_EQ(env.server().admin_bound().size(), 1u);
  const int admin = env.server().admin_bound()[0].port;
  HttpResult main_admin = env.Get("/admin/loggers");
  EXPECT_EQ(main_admin.status, 404);
  EXPECT_EQ(main_admin.body, R"({"error_code":404,"message":"HTTP 404 Not Found"})");
  EXPECT_EQ(env.Get("/connectors").status, 200);

  EXPECT_EQ(HttpRequest(admin, "GET", "/admin/loggers").status, 200);
  EXPECT_EQ(HttpRequest(admin, "PUT", "/admin/loggers/org.example", R"({"level":"DEBUG"})",
                        {{"Content-Type", "application/json"}})
                .body,
            R"(["org.example"])");
  EXPECT_NE(HttpRequest(admin, "GET", "/admin/loggers/org.example").body.find(R"("level":"DEBUG")"),
            std::string::npos);
  for (const char* path : {"/", "/connectors", "/admin/nothing"}) {
    HttpResult r = HttpRequest(admin, "GET", path);
    EXPECT_EQ(r.status, 404) << path;
    EXPECT_EQ(r.body, R"({"error_code":404,"message":"HTTP 404 Not Found"})") << path;
  }
}

TEST(LoggersResourceTest, BlankAdminListenersDisablesTheEndpoints) {
  RestTestEnv env(Props{{"admin.listeners", ""}});
  EXPECT_EQ(env.Get("/admin/loggers").status, 404);
  EXPECT_EQ(env.Get("/connectors").status, 200);
}

}  // namespace
}  // namespace connectd::rest::testing
