// Transport behaviour of RestServer: routing errors, media types, limits, timeouts, CORS,
// response header rules, keep-alive, connection cap, advertised URL, Stop().
#include "rest/rest_server.h"

#include <atomic>
#include <thread>

#include <gtest/gtest.h>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include "tests/unit/rest/rest_test_env.h"

namespace connectd::rest::testing {
namespace {

using namespace std::chrono_literals;

// Polls `condition` for up to 2 s.
template <typename Fn>
bool Eventually(Fn condition) {
  auto deadline = std::chrono::steady_clock::now() + 2s;
  while (std::chrono::steady_clock::now() < deadline) {
    if (condition()) return true;
    std::this_thread::sleep_for(5ms);
  }
  return condition();
}

TEST(RestServerTest, UnknownPathAndWrongMethod) {
  RestTestEnv env;
  HttpResult missing = env.Get("/nope");
  EXPECT_EQ(missing.status, 404);
  EXPECT_EQ(missing.body, R"({"error_code":404,"message":"HTTP 404 Not Found"})");
  EXPECT_EQ(missing.Header("Content-Type"), "application/json");
  HttpResult wrong = env.Send("PATCH", "/connectors", "", {});
  EXPECT_EQ(wrong.status, 405);
  EXPECT_EQ(wrong.body, R"({"error_code":405,"message":"HTTP 405 Method Not Allowed"})");
  EXPECT_EQ(wrong.Header("Allow"), "GET,HEAD,OPTIONS,POST");
  EXPECT_EQ(env.Send("BREW", "/connectors", "", {}).status, 405);
  EXPECT_EQ(env.Get("/connectors/c/bogus/deeper").status, 404);
  EXPECT_EQ(env.Get("/connectors/%zz").status, 400);
}

TEST(RestServerTest, MalformedJsonIs400NamingTheError) {
  RestTestEnv env;
  HttpResult r = env.Post("/connectors", R"({"name":"c","config":{)");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.body, ErrorJson(400,
                              "Malformed JSON in request body: Missing a name for object member. "
                              "(at offset 22)"));
  EXPECT_EQ(env.Post("/connectors", "").status, 400);
}

TEST(RestServerTest, MediaTypes) {
  RestTestEnv env;
  env.herder().AddConnector("c");
  HttpResult form = env.Send("PUT", "/connectors/c/config", "a=b",
                             {{"Content-Type", "application/x-www-form-urlencoded"}});
  EXPECT_EQ(form.status, 415);
  EXPECT_EQ(form.body, ErrorJson(415, "HTTP 415 Unsupported Media Type"));
  EXPECT_EQ(env.Send("PUT", "/connectors/c/config", R"({"connector.class":"X"})",
                     {{"Content-Type", "Application/JSON; charset=UTF-8"}})
                .status,
            200);
  EXPECT_EQ(env.Send("GET", "/connectors", "", {{"Accept", "text/html"}}).status, 406);
  EXPECT_EQ(env.Send("GET", "/connectors", "", {{"Accept", "text/html,*/*;q=0.8"}}).status, 200);
  EXPECT_EQ(env.Send("GET", "/connectors", "", {{"Accept", "application/json;q=0"}}).status, 406);
  // The internal endpoints read raw bytes: no 415 there.
  EXPECT_EQ(env.Send("POST", "/connectors/c/tasks", "[]", {{"Content-Type", "text/plain"}}).status,
            500);
}

TEST(RestServerTest, OversizedBodyIs413) {
  RestTestEnv env;
  std::string body(8 * 1024 * 1024 + 1, 'x');
  HttpResult r = env.Post("/connectors", body);
  EXPECT_EQ(r.status, 413) << r.error;
  EXPECT_EQ(r.body, ErrorJson(413, "Request body is larger than the limit of 8388608 bytes"));
  EXPECT_EQ(r.Header("Content-Type"), "application/json");
  // The limit is the body, not the request: 8 MiB exactly passes through to the resource.
  HttpResult at_limit = env.Post("/connectors", std::string(8 * 1024 * 1024, ' '));
  EXPECT_EQ(at_limit.status, 400);
}

TEST(RestServerTest, HeadAndOptions) {
  RestTestEnv env;
  env.herder().AddConnector("c");
  HttpResult head = env.Send("HEAD", "/connectors", "", {});
  EXPECT_EQ(head.status, 200);
  EXPECT_EQ(head.body, "");
  EXPECT_EQ(head.Header("Content-Length"), "5");  // ["c"]
  HttpResult options = env.Send("OPTIONS", "/connectors/c", "", {});
  EXPECT_EQ(options.status, 200);
  EXPECT_EQ(options.Header("Allow"), "DELETE,GET,HEAD,OPTIONS");
  EXPECT_EQ(env.Send("OPTIONS", "/nope", "", {}).status, 404);
}

TEST(RestServerTest, KeepAliveReusesTheConnection) {
  RestTestEnv env;
  EXPECT_EQ(env.Get("/connectors").status, 200);
  EXPECT_TRUE(env.client().connected());
  EXPECT_EQ(env.Get("/").status, 200);
  EXPECT_EQ(env.server().active_connections(), 1);
  HttpResult close = env.Send("GET", "/", "", {{"Connection", "close"}});
  EXPECT_EQ(close.status, 200);
  EXPECT_FALSE(close.keep_alive);
  EXPECT_TRUE(Eventually([&] { return env.server().active_connections() == 0; }));
}

TEST(RestServerTest, ExpectContinue) {
  RestTestEnv env;
  RawResult r = RawExchange(env.port(),
                            "POST /connectors HTTP/1.1\r\nHost: x\r\nContent-Type: "
                            "application/json\r\nContent-Length: 2\r\nExpect: 100-continue\r\n"
                            "Connection: close\r\n\r\n{}",
                            2s);
  EXPECT_EQ(r.data.rfind("HTTP/1.1 100 Continue\r\n", 0), 0u) << r.data;
  EXPECT_NE(r.data.find("HTTP/1.1 400 Bad Request"), std::string::npos) << r.data;
}

TEST(RestServerTest, GarbageIs400) {
  RestTestEnv env;
  RawResult r = RawExchange(env.port(), "NOT HTTP AT ALL\r\n\r\n", 2s);
  EXPECT_TRUE(r.closed);
  EXPECT_EQ(r.data.rfind("HTTP/1.1 400", 0), 0u) << r.data;
  RawResult huge_header = RawExchange(
      env.port(), "GET / HTTP/1.1\r\nX-Big: " + std::string(10000, 'a') + "\r\n\r\n", 2s);
  EXPECT_EQ(huge_header.data.rfind("HTTP/1.1 431", 0), 0u) << huge_header.data;
}

TEST(RestServerTest, RequestTimeoutAnswers500AndDropsTheLateAnswer) {
  RestServer::Options options;
  options.request_timeout = 100ms;
  RestTestEnv env({}, options);
  env.herder().AddConnector("c");
  env.herder().set_hold_callbacks(true);
  HttpResult r = env.Get("/connectors/c");
  EXPECT_EQ(r.status, 500);
  EXPECT_EQ(r.body, ErrorJson(500, "Request timed out"));
  env.herder().set_hold_callbacks(false);
  env.herder().ReleaseHeld();  // the late answer must not reach the connection
  HttpResult next = env.Get("/connectors/c/config");
  EXPECT_EQ(next.status, 200);
  EXPECT_EQ(next.body, R"({"connector.class":"FileStreamSource","name":"c","tasks.max":"1"})");
}

TEST(RestServerTest, SlowClientsAreCutOff) {
  RestServer::Options options;
  options.header_read_timeout = 150ms;
  options.idle_timeout = 150ms;
  RestTestEnv env({}, options);
  auto start = std::chrono::steady_clock::now();
  RawResult partial = RawExchange(env.port(), "GET /connectors HTTP/1.1\r\nHost: x\r\n", 3s);
  EXPECT_TRUE(partial.closed);
  EXPECT_EQ(partial.data, "");
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
  // A kept-alive connection is closed after the idle timeout.
  RawResult idle = RawExchange(env.port(), "GET / HTTP/1.1\r\nHost: x\r\n\r\n", 3s);
  EXPECT_TRUE(idle.closed);
  EXPECT_EQ(idle.data.rfind("HTTP/1.1 200 OK", 0), 0u);
}

TEST(RestServerTest, ConnectionCap) {
  RestServer::Options options;
  options.max_connections = 2;
  RestTestEnv env({}, options);
  TestHttpClient a(env.port());
  TestHttpClient b(env.port());
  ASSERT_EQ(a.Send("GET", "/").status, 200);
  ASSERT_EQ(b.Send("GET", "/").status, 200);
  ASSERT_TRUE(Eventually([&] { return env.server().active_connections() == 2; }));
  RawResult refused = RawExchange(env.port(), "GET / HTTP/1.1\r\nHost: x\r\n\r\n", 2s);
  EXPECT_TRUE(refused.closed);
  EXPECT_EQ(refused.data, "");
  a.Close();
  ASSERT_TRUE(Eventually([&] { return env.server().active_connections() == 1; }));
  EXPECT_EQ(HttpRequest(env.port(), "GET", "/").status, 200);
}

TEST(RestServerTest, CorsWhenConfigured) {
  RestTestEnv env(Props{{"access.control.allow.origin", "http://ui.example"},
                        {"access.control.allow.methods", "GET,POST,PUT,DELETE"}});
  HttpResult simple = env.Send("GET", "/connectors", "", {{"Origin", "http://ui.example"}});
  EXPECT_EQ(simple.status, 200);
  EXPECT_EQ(simple.Header("Access-Control-Allow-Origin"), "http://ui.example");
  EXPECT_EQ(simple.Header("Access-Control-Allow-Credentials"), "true");
  EXPECT_EQ(simple.Header("Vary"), "Origin");

  HttpResult preflight = env.Send("OPTIONS", "/connectors/c/config", "",
                                  {{"Origin", "http://ui.example"},
                                   {"Access-Control-Request-Method", "PUT"},
                                   {"Access-Control-Request-Headers", "Content-Type"}});
  EXPECT_EQ(preflight.status, 200);
  EXPECT_EQ(preflight.Header("Access-Control-Allow-Origin"), "http://ui.example");
  EXPECT_EQ(preflight.Header("Access-Control-Allow-Methods"), "GET,POST,PUT,DELETE");
  EXPECT_EQ(preflight.Header("Access-Control-Allow-Headers"),
            "X-Requested-With,Content-Type,Accept,Origin");
  EXPECT_EQ(preflight.Header("Access-Control-Max-Age"), "1800");

  HttpResult other = env.Send("GET", "/connectors", "", {{"Origin", "http://evil.example"}});
  EXPECT_FALSE(other.HasHeader("Access-Control-Allow-Origin"));
  // Error responses carry the CORS headers too (the filter runs before the resource).
  EXPECT_TRUE(env.Send("GET", "/nope", "", {{"Origin", "http://ui.example"}})
                  .HasHeader("Access-Control-Allow-Origin"));
}

TEST(RestServerTest, NoCorsByDefault) {
  RestTestEnv env;
  HttpResult r = env.Send("GET", "/connectors", "", {{"Origin", "http://ui.example"}});
  EXPECT_FALSE(r.HasHeader("Access-Control-Allow-Origin"));
}

TEST(RestServerTest, ResponseHeaderRules) {
  RestTestEnv env(Props{{"response.http.headers.config",
                         "set X-Frame-Options: DENY, add Cache-Control: no-store,"
                         "add Cache-Control: no-cache, setDate Expires: 60000, "
                         "set Content-Type: text/plain"}});
  for (const char* target : {"/connectors", "/nope"}) {
    HttpResult r = env.Get(target);
    EXPECT_EQ(r.Header("X-Frame-Options"), "DENY") << target;
    EXPECT_EQ(r.Headers("Cache-Control"), (std::vector<std::string>{"no-store", "no-cache"}));
    EXPECT_NE(r.Header("Expires").find(" GMT"), std::string::npos);
    // The resource's own Content-Type wins, as it does behind Jetty's HeaderFilter.
    EXPECT_EQ(r.Header("Content-Type"), "application/json");
  }
}

TEST(RestServerTest, ManyConcurrentClientsWithAsyncHerder) {
  RestTestEnv env;
  env.herder().set_answer_async(true);
  env.herder().AddConnector("c");
  std::atomic<int> ok{0};
  std::vector<std::thread> clients;
  for (int t = 0; t < 6; ++t) {
    clients.emplace_back([&] {
      TestHttpClient client(env.port());
      for (int i = 0; i < 15; ++i) {
        if (client.Send("GET", "/connectors/c/status").status == 200) ++ok;
      }
    });
  }
  for (auto& t : clients) t.join();
  EXPECT_EQ(ok.load(), 90);
}

TEST(RestServerTest, AdvertisedUrlAndWorkerId) {
  RestTestEnv env;
  std::string port = std::to_string(env.port());
  EXPECT_EQ(env.server().AdvertisedUrl(), "http://127.0.0.1:" + port + "/");
  EXPECT_EQ(env.server().WorkerId(), "127.0.0.1:" + port);

  RestTestEnv advertised(
      Props{{"rest.advertised.host.name", "worker-7"}, {"rest.advertised.port", "18083"}});
  EXPECT_EQ(advertised.server().AdvertisedUrl(), "http://worker-7:18083/");
  EXPECT_EQ(advertised.server().WorkerId(), "worker-7:18083");

  RestServer::Options options;
  options.local_host_address = [] { return std::string("10.1.2.3"); };
  RestTestEnv any_host(Props{{"listeners", "http://:0"}}, options);
  EXPECT_EQ(any_host.server().WorkerId(), "10.1.2.3:" + std::to_string(any_host.port()));

  // No https listener: the scheme is still the advertised one; host and port from the first.
  RestTestEnv scheme(Props{{"rest.advertised.listener", "https"}});
  EXPECT_EQ(scheme.server().AdvertisedUrl(),
            "https://127.0.0.1:" + std::to_string(scheme.port()) + "/");
}

TEST(RestServerTest, IPv6ListenerAndWorkerId) {
  boost::asio::io_context probe;
  boost::asio::ip::tcp::acceptor v6(probe);
  boost::system::error_code ec;
  v6.open(boost::asio::ip::tcp::v6(), ec);
  if (!ec) v6.bind({boost::asio::ip::make_address("::1"), 0}, ec);
  ASSERT_FALSE(ec) << "this test needs an IPv6 loopback (::1): " << ec.message();
  v6.close();
  RestTestEnv env(Props{{"listeners", "http://[::1]:0"}});
  EXPECT_EQ(env.server().WorkerId(), "[::1]:" + std::to_string(env.port()));
}

TEST(RestServerTest, BindFailureIsReported) {
  RestTestEnv first;
  FakeHerder herder;
  boost::asio::io_context ioc;
  absl::StatusOr<RestConfig> config = ParseRestConfig(
      {{"listeners", "http://127.0.0.1:0,http://127.0.0.1:" + std::to_string(first.port())}});
  ASSERT_TRUE(config.ok());
  RestServer second(ioc, herder, *config);
  absl::StatusOr<std::vector<BoundListener>> bound = second.Start();
  EXPECT_TRUE(absl::IsUnavailable(bound.status())) << bound.status();
  EXPECT_NE(bound.status().message().find("Unable to bind REST listener"), absl::string_view::npos);
}

TEST(RestServerTest, StopClosesListenersAndConnections) {
  RestTestEnv env;
  TestHttpClient kept(env.port());
  ASSERT_EQ(kept.Send("GET", "/").status, 200);
  env.server().Stop();
  EXPECT_NE(HttpRequest(env.port(), "GET", "/").error, "");
  EXPECT_TRUE(Eventually([&] { return env.server().active_connections() == 0; }));
  EXPECT_EQ(kept.Send("GET", "/").status, 0);
}

TEST(RestServerTest, StartTwiceFails) {
  RestTestEnv env;
  EXPECT_TRUE(absl::IsFailedPrecondition(env.server().Start().status()));
}

}  // namespace
}  // namespace connectd::rest::testing
