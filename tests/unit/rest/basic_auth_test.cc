// BasicAuthSecurityRestExtension, natively: the expected answers are what a Java Connect 4.4
// worker with connect-basic-auth-extension gave for the same requests (see rest/README.md).
#include "rest/basic_auth.h"
#include "jvm/java_base64.h"

#include <stdlib.h>

#include <cstdio>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "rest/rest_config.h"
#include "tests/unit/rest/rest_test_env.h"

namespace connectd::rest {
namespace {

using testing::ErrorJson;
using testing::HttpResult;
using testing::RestTestEnv;

std::string Base64(const std::string& text) { return jvm::JavaBase64Encode(text); }

std::string WriteTemp(const std::string& name, const std::string& text) {
  std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

// A JAAS file naming `credentials` (a properties text) as Connect's docs show it.
std::string JaasFor(const std::string& tag, const std::string& credentials) {
  std::string file = WriteTemp("basic-auth-" + tag + ".properties", credentials);
  return WriteTemp("basic-auth-" + tag + ".jaas",
                   "// the Connect worker's login entry\n"
                   "KafkaConnect {\n"
                   "  org.apache.kafka.connect.rest.basic.auth.extension.PropertyFileLoginModule "
                   "required\n"
                   "  file=\"" +
                       file +
                       "\";\n"
                       "};\n");
}

const std::map<std::string, std::string> kExtension = {
    {"rest.extension.classes", kBasicAuthExtensionClass}};

class KafkaOpts {
 public:
  explicit KafkaOpts(const std::string& value) { setenv("KAFKA_OPTS", value.c_str(), 1); }
  ~KafkaOpts() { unsetenv("KAFKA_OPTS"); }
};

TEST(BasicAuthTest, ParsesJaasFiles) {
  auto entries = ParseJaasConfig(
      "/* several entries */ Other { x.Y optional; };\n"
      "KafkaConnect {\n"
      "  org.apache.kafka.connect.rest.basic.auth.extension.PropertyFileLoginModule REQUIRED\n"
      "    file=\"/a b/creds.properties\" debug=true; # trailing comment\n"
      "};");
  ASSERT_TRUE(entries.ok()) << entries.status();
  ASSERT_EQ(entries->size(), 2u);
  const JaasLoginModule& module = entries->at("KafkaConnect").at(0);
  EXPECT_EQ(module.class_name, kPropertyFileLoginModuleClass);
  EXPECT_EQ(module.flag, "required");
  EXPECT_EQ(module.options.at("file"), "/a b/creds.properties");
  EXPECT_EQ(module.options.at("debug"), "true");
  EXPECT_FALSE(ParseJaasConfig("KafkaConnect { x.Y required file=\"a\" }").ok());
  EXPECT_FALSE(ParseJaasConfig("KafkaConnect { x.Y always; };").ok());
  EXPECT_FALSE(ParseJaasConfig("KafkaConnect { x.Y required file=\"open; };").ok());
}

TEST(BasicAuthTest, FindsTheJaasPathInKafkaOpts) {
  EXPECT_EQ(JaasConfigPathFromKafkaOpts("-Xmx1g -Djava.security.auth.login.config=/etc/j.conf"),
            "/etc/j.conf");
  EXPECT_EQ(JaasConfigPathFromKafkaOpts("-Djava.security.auth.login.config==/x"), "/x");
  EXPECT_EQ(JaasConfigPathFromKafkaOpts("-Xmx1g"), std::nullopt);
}

TEST(BasicAuthTest, InternalRequestsAreTheSignedOnes) {
  EXPECT_TRUE(BasicAuth::IsInternalRequest("POST", "/connectors/c/tasks"));
  EXPECT_TRUE(BasicAuth::IsInternalRequest("POST", "/connectors/my%20c/tasks/"));
  EXPECT_TRUE(BasicAuth::IsInternalRequest("PUT", "/connectors/c/fence"));
  EXPECT_FALSE(BasicAuth::IsInternalRequest("GET", "/connectors/c/tasks"));
  EXPECT_FALSE(BasicAuth::IsInternalRequest("PUT", "/connectors/c/tasks"));
  EXPECT_FALSE(BasicAuth::IsInternalRequest("POST", "/connectors/a%2Fb/tasks"));
  EXPECT_FALSE(BasicAuth::IsInternalRequest("POST", "/connectors/c/tasks/0/restart"));
}

TEST(BasicAuthTest, LoadingFailsLoudlyOnABadSetup) {
  EXPECT_TRUE(absl::IsUnimplemented(LoadBasicAuth({"com.example.MyExtension"}, "/x").status()));
  EXPECT_EQ(*LoadBasicAuth({}, std::nullopt), nullptr);
  EXPECT_TRUE(
      absl::IsInvalidArgument(LoadBasicAuth({kBasicAuthExtensionClass}, std::nullopt).status()));
  EXPECT_TRUE(absl::IsInvalidArgument(
      LoadBasicAuth({kBasicAuthExtensionClass}, "/nonexistent/jaas.conf").status()));
  std::string other = WriteTemp("other.jaas", "KafkaServer { x.Y required; };");
  absl::Status no_entry = LoadBasicAuth({kBasicAuthExtensionClass}, other).status();
  EXPECT_NE(no_entry.message().find("no KafkaConnect entry"), std::string::npos) << no_entry;
  std::string ldap = WriteTemp("ldap.jaas", "KafkaConnect { com.example.Ldap required; };");
  EXPECT_TRUE(absl::IsInvalidArgument(LoadBasicAuth({kBasicAuthExtensionClass}, ldap).status()));
  std::string nofile =
      WriteTemp("nofile.jaas",
                std::string("KafkaConnect { ") + kPropertyFileLoginModuleClass + " required; };");
  EXPECT_EQ(LoadBasicAuth({kBasicAuthExtensionClass}, nofile).status().message(),
            "Property Credentials file must be specified");
  KafkaOpts opts("-Djava.security.auth.login.config=/nonexistent/jaas.conf");
  EXPECT_TRUE(absl::IsInvalidArgument(ParseRestConfig(kExtension).status()));
}

TEST(BasicAuthTest, ServerAnswersAsJavasFilter) {
  KafkaOpts opts("-Djava.security.auth.login.config=" + JaasFor("server", "alice=secret\n"));
  RestTestEnv env(kExtension);
  env.herder().AddConnector("c");
  auto with = [](const std::string& credentials) {
    return std::vector<std::pair<std::string, std::string>>{
        {"Authorization", "Basic " + Base64(credentials)}};
  };

  HttpResult anonymous = env.Get("/connectors");
  EXPECT_EQ(anonymous.status, 401);
  EXPECT_EQ(anonymous.body, "User cannot access the resource.");
  EXPECT_EQ(anonymous.Header("Content-Type"), "application/json");
  EXPECT_EQ(anonymous.Header("WWW-Authenticate"), "");
  EXPECT_EQ(env.Send("GET", "/connectors", "", with("alice:secret")).status, 200);
  EXPECT_EQ(env.Send("GET", "/connectors", "", with("alice:wrong")).status, 401);
  EXPECT_EQ(env.Send("GET", "/connectors", "", with("nobody:secret")).status, 401);
  EXPECT_EQ(env.Send("GET", "/", "", with(":secret")).status, 401);
  EXPECT_EQ(env.Send("GET", "/", "", with("alice")).status, 401);
  EXPECT_EQ(env.Send("GET", "/", "", {{"Authorization", "Bearer x"}}).status, 401);
  EXPECT_EQ(env.Send("GET", "/", "", {{"Authorization", "basic " + Base64("alice:secret")}}).status,
            200);
  EXPECT_EQ(env.Get("/admin/loggers").status, 401);

  HttpResult undecodable = env.Send("GET", "/", "", {{"Authorization", "Basic !!!!"}});
  EXPECT_EQ(undecodable.status, 500);
  EXPECT_EQ(undecodable.body, ErrorJson(500, "Illegal base64 character 21"));

  // Routing and content negotiation come first, as with Jersey's post-matching filter.
  EXPECT_EQ(env.Get("/nope").status, 404);
  EXPECT_EQ(env.Send("DELETE", "/connectors", "", {}).status, 405);
  HttpResult options = env.Send("OPTIONS", "/connectors", "", {});
  EXPECT_EQ(options.status, 401);
  EXPECT_EQ(options.Header("Content-Type"), "text/plain");

  // The internal, signed requests pass without credentials (the fake herder answers them).
  EXPECT_NE(env.Post("/connectors/c/tasks", "[]").status, 401);
  EXPECT_NE(env.Put("/connectors/c/fence").status, 401);
}

TEST(BasicAuthTest, AnEmptyCredentialsFilePermitsEverything) {
  KafkaOpts opts("-Djava.security.auth.login.config=" + JaasFor("empty", "# nobody\n"));
  RestTestEnv env(kExtension);
  EXPECT_EQ(env.Get("/connectors").status, 200);
}

}  // namespace
}  // namespace connectd::rest
