#include "rest/json_entities.h"

#include <gtest/gtest.h>

#include "rest/error_mapping.h"
#include "runtime/herder_api/herder.h"

namespace connectd::rest {
namespace {

using herder::ConnectorType;

TEST(JsonEntitiesTest, ErrorAndMessageBodies) {
  EXPECT_EQ(ErrorMessageJson(404, "Connector foo not found"),
            R"({"error_code":404,"message":"Connector foo not found"})");
  EXPECT_EQ(MessageJson("done"), R"({"message":"done"})");
  EXPECT_EQ(ErrorMessageJson(500, "a\"b\n\tc/é"),
            "{\"error_code\":500,\"message\":\"a\\\"b\\n\\tc/é\"}");
}

// Whatever bytes reach a writer (a plugin's trace, a raw request target in a message), the
// output is valid UTF-8 JSON.
TEST(JsonEntitiesTest, MalformedUtf8IsWrittenAsReplacementCharacter) {
  EXPECT_EQ(ErrorMessageJson(404, "Connector \xFF\xFE not found"),
            "{\"error_code\":404,\"message\":\"Connector \xEF\xBF\xBD\xEF\xBF\xBD not found\"}");
  EXPECT_EQ(StringArrayJson({"a\xC3", "\xC3\xA9"}), "[\"a\xEF\xBF\xBD\",\"\xC3\xA9\"]");
}

TEST(JsonEntitiesTest, ServerInfoAndWorkerStatus) {
  EXPECT_EQ(ServerInfoJson({"4.4.0", "abc", "cid"}),
            R"({"version":"4.4.0","commit":"abc","kafka_cluster_id":"cid"})");
  EXPECT_EQ(WorkerStatusJson("healthy", "ok"), R"({"status":"healthy","message":"ok"})");
}

TEST(JsonEntitiesTest, ConnectorInfoFieldOrder) {
  herder::ConnectorInfo info{
      "c", {{"b", "2"}, {"a", "1"}}, {{"c", 0}, {"c", 1}}, ConnectorType::kSink};
  EXPECT_EQ(ConnectorInfoJson(info),
            R"({"name":"c","config":{"a":"1","b":"2"},"tasks":[{"connector":"c","task":0},)"
            R"({"connector":"c","task":1}],"type":"sink"})");
  info.type = ConnectorType::kUnknown;
  info.tasks.clear();
  EXPECT_EQ(ConnectorInfoJson(info),
            R"({"name":"c","config":{"a":"1","b":"2"},"tasks":[],"type":"unknown"})");
}

TEST(JsonEntitiesTest, TaskInfos) {
  std::vector<herder::TaskInfo> tasks = {{{"c", 0}, {{"k", "v"}}}, {{"c", 1}, {}}};
  EXPECT_EQ(TaskInfosJson(tasks), R"([{"id":{"connector":"c","task":0},"config":{"k":"v"}},)"
                                  R"({"id":{"connector":"c","task":1},"config":{}}])");
}

TEST(JsonEntitiesTest, ConnectorStateInfoOmitsEmptyTrace) {
  herder::ConnectorStateInfo info;
  info.name = "src";
  info.connector = {"RUNNING", "w1:8083", std::nullopt};
  info.tasks = {{0, {"FAILED", "w2:8083", "java.lang.Exception: boom\n\tat X"}},
                {1, {"RUNNING", "w1:8083", ""}}};
  info.type = ConnectorType::kSource;
  EXPECT_EQ(
      ConnectorStateInfoJson(info),
      R"({"name":"src","connector":{"state":"RUNNING","worker_id":"w1:8083"},"tasks":[)"
      R"({"id":0,"state":"FAILED","worker_id":"w2:8083","trace":"java.lang.Exception: boom\n\tat X"},)"
      R"({"id":1,"state":"RUNNING","worker_id":"w1:8083"}],"type":"source"})");
  EXPECT_EQ(TaskStateJson({3, {"PAUSED", "w", std::nullopt}}),
            R"({"id":3,"state":"PAUSED","worker_id":"w"})");
}

TEST(JsonEntitiesTest, OffsetsKeepTheirJsonText) {
  herder::ConnectorOffsets offsets;
  offsets.offsets.push_back(
      {R"({"kafka_topic":"t","kafka_partition":3})", R"({"kafka_offset":1000})"});
  offsets.offsets.push_back({R"({"file":"/a"})", std::nullopt});
  EXPECT_EQ(
      ConnectorOffsetsJson(offsets),
      R"({"offsets":[{"partition":{"kafka_topic":"t","kafka_partition":3},"offset":{"kafka_offset":1000}},)"
      R"({"partition":{"file":"/a"},"offset":null}]})");
}

TEST(JsonEntitiesTest, PluginInfoOmitsEmptyVersion) {
  EXPECT_EQ(
      PluginInfosJson({{"a.B", "sink", "4.4.0"}, {"a.T", "transformation", ""}}),
      R"([{"class":"a.B","type":"sink","version":"4.4.0"},{"class":"a.T","type":"transformation"}])");
}

TEST(JsonEntitiesTest, ConfigInfosAndKeyInfoFieldOrder) {
  herder::ConfigKeyInfo key;
  key.name = "name";
  key.type = "STRING";
  key.required = true;
  key.importance = "HIGH";
  key.documentation = "doc";
  key.group = "Common";
  key.width = "MEDIUM";
  key.display_name = "Connector name";
  key.order_in_group = 1;
  herder::ConfigValueInfo value;
  value.name = "name";
  value.errors = {"Missing required configuration \"name\" which has no default value."};
  herder::ConfigInfos infos{
      "FileStreamSource", 1, {"Common"}, {{key, value}, {std::nullopt, std::nullopt}}};
  EXPECT_EQ(
      ConfigInfosJson(infos),
      R"({"name":"FileStreamSource","error_count":1,"groups":["Common"],"configs":[{"definition":)"
      R"({"name":"name","type":"STRING","required":true,"default_value":null,"importance":"HIGH",)"
      R"("documentation":"doc","group":"Common","width":"MEDIUM","display_name":"Connector name",)"
      R"("dependents":[],"order_in_group":1},"value":{"name":"name","value":null,"recommended_values":[],)"
      R"("errors":["Missing required configuration \"name\" which has no default value."],)"
      R"("visible":true}},{"definition":null,"value":null}]})");
  key.group.reset();
  key.default_value = "x";
  key.required = false;
  key.dependents = {"a", "b"};
  EXPECT_EQ(
      ConfigKeyInfosJson({key}),
      R"([{"name":"name","type":"STRING","required":false,"default_value":"x","importance":"HIGH",)"
      R"("documentation":"doc","group":null,"width":"MEDIUM","display_name":"Connector name",)"
      R"("dependents":["a","b"],"order_in_group":1}])");
}

TEST(JsonEntitiesTest, LoggerLevelsAndTopicsAndExpand) {
  EXPECT_EQ(LoggerLevelJson({"INFO", std::nullopt}), R"({"level":"INFO","last_modified":null})");
  EXPECT_EQ(
      LoggerLevelsJson({{"root", {"INFO", std::nullopt}}, {"a.b", {"DEBUG", 1700000000000}}}),
      R"({"a.b":{"level":"DEBUG","last_modified":1700000000000},"root":{"level":"INFO","last_modified":null}})");
  EXPECT_EQ(ActiveTopicsJson("c", {"t1", "t2"}), R"({"c":{"topics":["t1","t2"]}})");
  EXPECT_EQ(ExpandedConnectorsJson(
                {{"c1", {{"status", R"({"x":1})"}, {"info", std::nullopt}}}, {"c2", {}}}),
            R"({"c1":{"status":{"x":1},"info":null},"c2":{}})");
}

TEST(JsonEntitiesTest, ConfigErrorsMessageMatchesConnect) {
  herder::ConfigInfos infos;
  infos.error_count = 2;
  herder::ConfigValueInfo a;
  a.errors = {"e1"};
  herder::ConfigValueInfo b;
  b.errors = {"e2"};
  infos.configs = {{std::nullopt, a}, {std::nullopt, std::nullopt}, {std::nullopt, b}};
  EXPECT_EQ(ConfigErrorsMessage(infos),
            "Connector configuration is invalid and contains the following 2 error(s):\ne1\ne2\n"
            "You can also find the above list of errors at the endpoint "
            "`/connector-plugins/{connectorType}/config/validate`");
}

TEST(JsonParsersTest, CreateConnectorRequest) {
  auto parsed = ParseCreateConnectorRequest(
      R"({"name":" c ","config":{"tasks.max":2,"enabled":true,"s":"v"},"initial_state":"paused"})");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->name, " c ");
  EXPECT_EQ(*parsed->config,
            (herder::ConfigMap{{"tasks.max", "2"}, {"enabled", "true"}, {"s", "v"}}));
  EXPECT_EQ(parsed->initial_state, herder::TargetState::kPaused);

  parsed = ParseCreateConnectorRequest(R"({"config":{}, "initial_state":"RUNNING"})");
  ASSERT_TRUE(parsed.ok());
  EXPECT_FALSE(parsed->name.has_value());
  EXPECT_EQ(parsed->initial_state, herder::TargetState::kStarted);
  EXPECT_EQ(
      ParseCreateConnectorRequest(R"({"config":{},"initial_state":"stopped"})")->initial_state,
      herder::TargetState::kStopped);

  auto bad_state = ParseCreateConnectorRequest(R"({"config":{},"initial_state":"FLYING"})");
  EXPECT_TRUE(absl::IsInvalidArgument(bad_state.status()));
  EXPECT_NE(bad_state.status().message().find("initial_state"), absl::string_view::npos);
}

TEST(JsonParsersTest, ConfigMapRejectsNonStringsNamingTheKey) {
  auto nested = ParseConfigMap(R"({"a":"1","bad.key":{"x":1}})");
  ASSERT_TRUE(absl::IsInvalidArgument(nested.status()));
  EXPECT_EQ(nested.status().message(),
            "Invalid value for configuration key 'bad.key': expected a string but got an object");
  auto array = ParseConfigMap(R"({"list":["a"]})");
  EXPECT_NE(array.status().message().find("'list'"), absl::string_view::npos);
  auto null_value = ParseConfigMap(R"({"k":null})");
  EXPECT_NE(null_value.status().message().find("'k'"), absl::string_view::npos);
  auto not_object = ParseConfigMap(R"(["a"])");
  EXPECT_EQ(not_object.status().message(), "The request body must be a JSON object, not an array");
  // Numbers keep their JSON text, as Jackson reads them into a String.
  EXPECT_EQ(ParseConfigMap(R"({"n":1.50,"big":12345678901234567890})")->at("n"), "1.50");
}

// Found by connector_json_fuzz (tests/fuzz/corpus/connector_json/regress-config-map-lone-
// surrogate-keys): escaped lone surrogates parsed to invalid UTF-8, which the writer then turned
// into U+FFFD, so two distinct keys were forwarded as one key written twice.
TEST(JsonParsersTest, LoneSurrogatesAreReadAsReplacementCharacters) {
  const std::string fffd3 = "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD";
  auto config = ParseConfigMap(R"({"k\udd89":"1","k\uddd3":"v\udc00"})");
  ASSERT_TRUE(config.ok());
  ASSERT_EQ(config->size(), 1u);
  EXPECT_EQ(config->begin()->first, "k" + fffd3);
  EXPECT_EQ(config->begin()->second, "v" + fffd3);
  EXPECT_EQ(ConfigMapJson(*config), "{\"k" + fffd3 + "\":\"v" + fffd3 + "\"}");
  auto request = ParseCreateConnectorRequest(R"({"name":"n\udfff","config":{}})");
  ASSERT_TRUE(request.ok());
  EXPECT_EQ(request->name, "n" + fffd3);
  auto patch = ParseConfigPatch(R"({"p\udc00":null})");
  ASSERT_TRUE(patch.ok());
  EXPECT_EQ(patch->begin()->first, "p" + fffd3);
}

TEST(JsonParsersTest, MalformedJsonNamesErrorAndOffset) {
  auto result = ParseConfigMap(R"({"a": })");
  ASSERT_TRUE(absl::IsInvalidArgument(result.status()));
  EXPECT_EQ(result.status().message(),
            "Malformed JSON in request body: Invalid value. (at offset 6)");
  EXPECT_EQ(ParseConfigMap("").status().message(),
            "Malformed JSON in request body: The document is empty. (at offset 0)");
  std::string deep(100, '[');
  deep += std::string(100, ']');
  EXPECT_TRUE(absl::IsInvalidArgument(ParseTaskConfigs(deep).status()));
}

TEST(JsonParsersTest, PatchAllowsNull) {
  auto patch = ParseConfigPatch(R"({"a":"1","b":null,"c":3})");
  ASSERT_TRUE(patch.ok());
  EXPECT_EQ(patch->at("a"), "1");
  EXPECT_EQ(patch->at("b"), std::nullopt);
  EXPECT_EQ(patch->at("c"), "3");
}

TEST(JsonParsersTest, ConnectorOffsets) {
  auto offsets = ParseConnectorOffsets(
      R"({"offsets":[{"partition":{"kafka_topic":"t","kafka_partition":3},"offset":{"kafka_offset":"10"}},)"
      R"({"partition":{"f":"a"},"offset":null},{"partition":{"f":"b"}}]})");
  ASSERT_TRUE(offsets.ok()) << offsets.status();
  ASSERT_EQ(offsets->offsets.size(), 3u);
  EXPECT_EQ(offsets->offsets[0].partition_json, R"({"kafka_topic":"t","kafka_partition":3})");
  EXPECT_EQ(offsets->offsets[0].offset_json, R"({"kafka_offset":"10"})");
  EXPECT_EQ(offsets->offsets[1].offset_json, std::nullopt);
  EXPECT_EQ(offsets->offsets[2].offset_json, std::nullopt);
  EXPECT_TRUE(ParseConnectorOffsets(R"({})")->offsets.empty());
  EXPECT_TRUE(ParseConnectorOffsets(R"({"offsets":null})")->offsets.empty());
  EXPECT_TRUE(
      absl::IsInvalidArgument(ParseConnectorOffsets(R"({"offsets":[{"partition":1}]})").status()));
  EXPECT_TRUE(absl::IsInvalidArgument(
      ParseConnectorOffsets(R"({"offsets":[{"partition":{},"offset":[1]}]})").status()));
}

TEST(JsonParsersTest, LoggerLevelAndTaskConfigs) {
  EXPECT_EQ(*ParseLoggerLevelBody(R"({"level":"DEBUG"})"), "DEBUG");
  EXPECT_EQ(*ParseLoggerLevelBody(R"({"other":"DEBUG"})"), std::nullopt);
  EXPECT_EQ(*ParseLoggerLevelBody(R"({"level":null})"), std::nullopt);
  auto tasks = ParseTaskConfigs(R"([{"a":"1"},{"b":2}])");
  ASSERT_TRUE(tasks.ok());
  EXPECT_EQ(tasks->size(), 2u);
  EXPECT_EQ((*tasks)[1].at("b"), "2");
}

TEST(ErrorMappingTest, HerderStatusWinsThenCanonicalCodes) {
  EXPECT_EQ(HttpStatusFor(herder::WithHttpStatus(absl::FailedPreconditionError("x"), 400)), 400);
  EXPECT_EQ(HttpStatusFor(absl::InvalidArgumentError("x")), 400);
  EXPECT_EQ(HttpStatusFor(absl::NotFoundError("x")), 404);
  EXPECT_EQ(HttpStatusFor(absl::AlreadyExistsError("x")), 409);
  EXPECT_EQ(HttpStatusFor(absl::FailedPreconditionError("x")), 409);
  EXPECT_EQ(HttpStatusFor(absl::AbortedError("x")), 409);
  EXPECT_EQ(HttpStatusFor(absl::UnavailableError("x")), 503);
  EXPECT_EQ(HttpStatusFor(absl::PermissionDeniedError("x")), 403);
  EXPECT_EQ(HttpStatusFor(absl::InternalError("x")), 500);
  EXPECT_EQ(HttpStatusFor(absl::DeadlineExceededError("x")), 500);
  RestResponse response = ErrorResponse(absl::NotFoundError("Connector c not found"));
  EXPECT_EQ(response.status, 404);
  EXPECT_EQ(response.body, R"({"error_code":404,"message":"Connector c not found"})");
}

}  // namespace
}  // namespace connectd::rest
