#include "rest/router.h"

#include <gtest/gtest.h>

#include "jvm/utf8.h"

namespace connectd::rest {
namespace {

class RouterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto nop = [](RestRequest, Responder) {};
    router_.Add("GET", "/connectors", nop);
    router_.Add("POST", "/connectors", nop);
    router_.Add("GET", "/connectors/{connector}", nop);
    router_.Add("DELETE", "/connectors/{connector}", nop);
    router_.Add("GET", "/connectors/{connector}/tasks/{task}/status", nop);
    router_.Add("PUT", "/connectors/{connector}/topics/reset", nop);
  }
  Router router_;
};

TEST_F(RouterTest, MatchesLiteralAndParameterSegments) {
  auto match = router_.Find("GET", "/connectors/my%20conn/tasks/3/status");
  ASSERT_TRUE(match.ok());
  EXPECT_EQ(match->outcome, Router::Outcome::kMatched);
  EXPECT_EQ(match->params, (std::vector<std::string>{"my conn", "3"}));
  EXPECT_EQ(match->route->method, "GET");
  // '+' is not a space in a path; %2F decodes into the parameter.
  match = router_.Find("DELETE", "/connectors/a+b%2Fc");
  EXPECT_EQ(match->params, (std::vector<std::string>{"a+b/c"}));
  // A trailing slash is ignored.
  EXPECT_EQ(router_.Find("GET", "/connectors/")->outcome, Router::Outcome::kMatched);
}

TEST_F(RouterTest, UnknownPathIs404AndWrongMethodIs405) {
  EXPECT_EQ(router_.Find("GET", "/nope")->outcome, Router::Outcome::kNotFound);
  EXPECT_EQ(router_.Find("GET", "/connectors/c/unknown")->outcome, Router::Outcome::kNotFound);
  EXPECT_EQ(router_.Find("GET", "/connectors//tasks/1/status")->outcome,
            Router::Outcome::kNotFound);
  auto match = router_.Find("PUT", "/connectors/c");
  EXPECT_EQ(match->outcome, Router::Outcome::kMethodNotAllowed);
  EXPECT_EQ(match->allowed, (std::vector<std::string>{"DELETE", "GET", "HEAD", "OPTIONS"}));
  EXPECT_EQ(router_.Find("HEAD", "/connectors")->outcome, Router::Outcome::kMatched);
}

TEST_F(RouterTest, MalformedEscapeIsAnError) {
  EXPECT_TRUE(absl::IsInvalidArgument(router_.Find("GET", "/connectors/%zz").status()));
  EXPECT_TRUE(absl::IsInvalidArgument(router_.Find("GET", "/connectors/abc%4").status()));
}

// Java decodes request URIs as UTF-8 with replacement: malformed bytes become U+FFFD, so a
// connector name taken from a path is always valid text (and valid in JSON answers).
TEST_F(RouterTest, MalformedUtf8InPathBecomesReplacementCharacter) {
  auto match = router_.Find("GET", "/connectors/a%FF%C3b%E2%82");
  ASSERT_TRUE(match.ok());
  ASSERT_EQ(match->outcome, Router::Outcome::kMatched);
  EXPECT_EQ(match->params[0],
            "a\xEF\xBF\xBD\xEF\xBF\xBD"
            "b\xEF\xBF\xBD");
  EXPECT_EQ(router_.Find("GET", "/connectors/%C3%A9")->params[0], "\xC3\xA9");
  EXPECT_EQ(ParseQuery("x=%FF")["x"], (std::vector<std::string>{"\xEF\xBF\xBD"}));
}

TEST(Utf8Test, ReplacesEachMaximalSubpart) {
  EXPECT_TRUE(jvm::IsValidUtf8("plain \xC3\xA9 \xF0\x9F\x98\x80"));
  EXPECT_FALSE(jvm::IsValidUtf8("\xC0\xAF"));          // overlong
  EXPECT_FALSE(jvm::IsValidUtf8("\xED\xA0\x80"));      // surrogate
  EXPECT_FALSE(jvm::IsValidUtf8("\xF4\x90\x80\x80"));  // above U+10FFFF
  const std::string fffd = "\xEF\xBF\xBD";
  EXPECT_EQ(jvm::ToJavaString("ok"), "ok");
  EXPECT_EQ(jvm::ToJavaString("\xF0\x9F\x98"), fffd);     // truncated: one replacement
  EXPECT_EQ(jvm::ToJavaString("\xC0\xAF"), fffd + fffd);  // no valid prefix: one per byte
  EXPECT_EQ(jvm::ToJavaString("a\xE2\x82z\x80"), "a" + fffd + "z" + fffd);
}

TEST(QueryTest, RepeatedAndDecodedParameters) {
  QueryParams q = ParseQuery("expand=status&expand=info&x=a+b%21&flag&=v");
  EXPECT_EQ(q["expand"], (std::vector<std::string>{"status", "info"}));
  EXPECT_EQ(q["x"], (std::vector<std::string>{"a b!"}));
  EXPECT_EQ(q["flag"], (std::vector<std::string>{""}));
  EXPECT_TRUE(ParseQuery("").empty());
}

TEST(QueryTest, QueryBoolFollowsJaxRs) {
  RestRequest request;
  request.query = ParseQuery("a=TRUE&b=yes&c=");
  EXPECT_TRUE(request.QueryBool("a", false));
  EXPECT_FALSE(request.QueryBool("b", true));
  EXPECT_FALSE(request.QueryBool("c", true));
  EXPECT_TRUE(request.QueryBool("missing", true));
}

TEST(PathEncodingTest, EncodesLikeUriBuilder) {
  EXPECT_EQ(EncodePathSegment("my conn/x?é"), "my%20conn%2Fx%3F%C3%A9");
  EXPECT_EQ(EncodePathSegment("a-b_c.d~e:f@g"), "a-b_c.d~e:f@g");
}

TEST(ResponderTest, OnlyTheFirstAnswerCounts) {
  int calls = 0;
  int status = 0;
  Responder respond([&](RestResponse r) {
    ++calls;
    status = r.status;
  });
  EXPECT_FALSE(respond.done());
  Responder copy = respond;
  copy(EmptyResponse(204));
  respond(EmptyResponse(500));
  EXPECT_TRUE(respond.done());
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(status, 204);
}

}  // namespace
}  // namespace connectd::rest
