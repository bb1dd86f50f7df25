#include <gtest/gtest.h>

#include "tests/unit/rest/rest_test_env.h"

namespace connectd::rest::testing {
namespace {

class ConnectorPluginsResourceTest : public ::testing::Test {
 protected:
  RestTestEnv env_;
};

TEST_F(ConnectorPluginsResourceTest, ListPlugins) {
  HttpResult connectors = env_.Get("/connector-plugins");
  EXPECT_EQ(connectors.status, 200);
  EXPECT_EQ(
      connectors.body,
      R"([{"class":"org.apache.kafka.connect.file.FileStreamSinkConnector","type":"sink","version":"4.4.0"},)"
      R"({"class":"org.apache.kafka.connect.file.FileStreamSourceConnector","type":"source","version":"4.4.0"}])");
  HttpResult all = env_.Get("/connector-plugins?connectorsOnly=false");
  EXPECT_EQ(all.status, 200);
  EXPECT_NE(
      all.body.find(
          R"({"class":"org.apache.kafka.connect.transforms.InsertField$Value","type":"transformation"})"),
      std::string::npos);
  EXPECT_EQ(env_.herder().Calls().back(), "ConnectorPlugins(0)");
}

TEST_F(ConnectorPluginsResourceTest, PluginConfig) {
  herder::ConfigKeyInfo key;
  key.name = "file";
  key.type = "STRING";
  key.default_value = "";
  key.importance = "HIGH";
  key.documentation = "Source filename.";
  key.width = "NONE";
  key.display_name = "file";
  key.order_in_group = -1;
  env_.herder().set_plugin_config("FileStreamSource", {key});
  HttpResult r = env_.Get("/connector-plugins/FileStreamSource/config");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(
      r.body,
      R"([{"name":"file","type":"STRING","required":false,"default_value":"","importance":"HIGH",)"
      R"("documentation":"Source filename.","group":null,"width":"NONE","display_name":"file",)"
      R"("dependents":[],"order_in_group":-1}])");
  EXPECT_EQ(env_.Get("/connector-plugins/Nope/config").body,
            ErrorJson(404, "Unknown plugin Nope."));
  env_.herder().FailNext(herder::WithHttpStatus(
      absl::InvalidArgumentError("Invalid plugin class x. Valid types are sink, source, converter, "
                                 "header_converter, transformation, predicate."),
      400));
  EXPECT_EQ(env_.Get("/connector-plugins/x/config").status, 400);
}

TEST_F(ConnectorPluginsResourceTest, ValidateWithLoosePluginNameCheck) {
  herder::ConfigInfos infos;
  infos.error_count = 1;
  infos.groups = {"Common"};
  herder::ConfigValueInfo value;
  value.name = "name";
  value.errors = {"Missing required configuration \"name\" which has no default value."};
  infos.configs.push_back({std::nullopt, value});
  env_.herder().set_validation(infos);

  for (const char* plugin : {"FileStreamSource", "FileStreamSourceConnector"}) {
    HttpResult r = env_.Put(
        std::string("/connector-plugins/") + plugin + "/config/validate",
        R"({"connector.class":"org.apache.kafka.connect.file.FileStreamSourceConnector","tasks.max":1})");
    EXPECT_EQ(r.status, 200) << plugin;
    EXPECT_EQ(
        r.body,
        R"({"name":"org.apache.kafka.connect.file.FileStreamSourceConnector","error_count":1,)"
        R"("groups":["Common"],"configs":[{"definition":null,"value":{"name":"name","value":null,)"
        R"("recommended_values":[],"errors":["Missing required configuration \"name\" which has )"
        R"(no default value."],"visible":true}}]})");
  }
  EXPECT_EQ(env_.herder().last_validated->at("tasks.max"), "1");

  HttpResult mismatch = env_.Put("/connector-plugins/FileStreamSink/config/validate",
                                 R"({"connector.class":"FileStreamSource"})");
  EXPECT_EQ(mismatch.body,
            ErrorJson(400,
                      "Included connector type FileStreamSource does not match request type "
                      "FileStreamSink"));
  // Without connector.class the herder's validation decides.
  env_.herder().FailNext(
      absl::InternalError("ConnectException: Missing required configuration \"connector.class\""));
  EXPECT_EQ(env_.Put("/connector-plugins/X/config/validate", R"({})").status, 500);
  EXPECT_EQ(env_.Put("/connector-plugins/X/config/validate", R"({"a":[1]})").status, 400);
}

}  // namespace
}  // namespace connectd::rest::testing
