#include "runtime/config/config_def.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "runtime/config/worker_config.h"

namespace connectd::config {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

ConfigDef TestDef() {
  ConfigDef def;
  def.Define({.name = "name",
              .type = Type::kString,
              .has_default = false,
              .validator = Validator::NonEmpty(),
              .importance = Importance::kHigh,
              .group = "Common"});
  def.Define({.name = "tasks.max",
              .type = Type::kInt,
              .default_value = "1",
              .validator = Validator::AtLeast(1),
              .group = "Common"});
  def.Define({.name = "errors.tolerance",
              .type = Type::kString,
              .default_value = "none",
              .validator = Validator::In({"none", "all"}),
              .group = "Error Handling"});
  def.Define({.name = "enabled", .type = Type::kBoolean, .default_value = "true"});
  def.Define({.name = "topics", .type = Type::kList, .default_value = ""});
  def.Define({.name = "nullable", .type = Type::kString, .default_value = std::nullopt});
  return def;
}

TEST(ConfigDefTest, ParseAppliesDefaultsAndTypes) {
  auto parsed = TestDef().Parse({{"name", "c"}, {"topics", " a , b,c "}, {"enabled", " FALSE "}});
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->GetInt("tasks.max"), 1);
  EXPECT_EQ(parsed->GetString("errors.tolerance"), "none");
  EXPECT_FALSE(parsed->GetBool("enabled"));
  EXPECT_THAT(parsed->GetList("topics"), ElementsAre("a", "b", "c"));
  EXPECT_EQ(parsed->GetString("nullable"), std::nullopt);
}

TEST(ConfigDefTest, ErrorsUseKafkasMessages) {
  ConfigDef def = TestDef();
  EXPECT_EQ(def.Parse({}).status().message(),
            "Missing required configuration \"name\" which has no default value.");
  EXPECT_EQ(def.Parse({{"name", "c"}, {"tasks.max", "x"}}).status().message(),
            "Invalid value x for configuration tasks.max: Not a number of type INT");
  EXPECT_EQ(def.Parse({{"name", "c"}, {"tasks.max", "0"}}).status().message(),
            "Invalid value 0 for configuration tasks.max: Value must be at least 1");
  EXPECT_EQ(
      def.Parse({{"name", "c"}, {"errors.tolerance", "some"}}).status().message(),
      "Invalid value some for configuration errors.tolerance: String must be one of: none, all");
  EXPECT_EQ(
      def.Parse({{"name", "c"}, {"enabled", "yes"}}).status().message(),
      "Invalid value yes for configuration enabled: Expected value to be either true or false");
  EXPECT_EQ(def.Parse({{"name", " "}}).status().message(),
            "Invalid value   for configuration name: String must be non-empty");
}

TEST(ConfigDefTest, ValidateReportsEveryKeyInOrder) {
  auto values = TestDef().Validate({{"tasks.max", "-1"}});
  ASSERT_EQ(values.size(), 6u);
  EXPECT_EQ(values[0].name, "name");
  EXPECT_THAT(values[0].errors, ElementsAre(HasSubstr("Missing required configuration")));
  EXPECT_THAT(values[1].errors, ElementsAre(HasSubstr("Value must be at least 1")));
  EXPECT_THAT(values[2].errors, IsEmpty());
  // Java recommends values only through a Recommender, never from a validator's set.
  EXPECT_THAT(values[2].recommended_values, IsEmpty());
  EXPECT_THAT(TestDef().Groups(), ElementsAre("Common", "Error Handling"));
}

// ConfigDef.validate as Java runs it: a value that does not parse is null and then fails the
// key's range too; values are shown parsed (trimmed, booleans in lower case, lists joined).
TEST(ConfigDefTest, ValidateShowsParsedValuesAndNullFailures) {
  auto values = TestDef().Validate({{"name", " c "}, {"tasks.max", "abc"}});
  EXPECT_EQ(values[0].value, "c");
  EXPECT_EQ(values[1].value, std::nullopt);
  EXPECT_THAT(values[1].errors,
              ElementsAre("Invalid value abc for configuration tasks.max: Not a number of type INT",
                          "Invalid value null for configuration tasks.max: Value must be non-null"));
  auto spaced = TestDef().Validate({{"tasks.max", " 3 "}});
  EXPECT_EQ(spaced[1].value, "3");
  EXPECT_THAT(spaced[1].errors, IsEmpty());
}

TEST(ConfigDefTest, OriginalsWithPrefixStripsThePrefix) {
  auto parsed = TestDef().Parse(
      {{"name", "c"}, {"producer.acks", "all"}, {"producer.linger.ms", "5"}, {"producerx", "no"}});
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->OriginalsWithPrefix("producer."),
            (std::map<std::string, std::string>{{"acks", "all"}, {"linger.ms", "5"}}));
}

TEST(WorkerConfigTest, StandaloneNeedsConvertersAndOffsetFile) {
  auto missing = WorkerConfig::Create({{"key.converter", "x"}, {"value.converter", "y"}},
                                      WorkerMode::kStandalone);
  EXPECT_THAT(std::string(missing.status().message()), HasSubstr("offset.storage.file.filename"));
  auto config =
      WorkerConfig::Create({{"key.converter", "org.apache.kafka.connect.storage.StringConverter"},
                            {"value.converter", "org.apache.kafka.connect.storage.StringConverter"},
                            {"offset.storage.file.filename", "/tmp/o"},
                            {"bootstrap.servers", "a:1, b:2"},
                            {"security.protocol", "SSL"},
                            {"producer.linger.ms", "7"},
                            {"metric.reporters", "com.example.Reporter"},
                            {"internal.key.converter", "x"}},
                           WorkerMode::kStandalone);
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->bootstrap_servers(), "a:1,b:2");
  EXPECT_EQ(config->offset_flush_interval_ms(), 60000);
  EXPECT_EQ(
      config->ClientConfig("producer."),
      (std::map<std::string, std::string>{
          {"bootstrap.servers", "a:1,b:2"}, {"security.protocol", "SSL"}, {"linger.ms", "7"}}));
  EXPECT_THAT(config->warnings(), ElementsAre(HasSubstr("metric.reporters"),
                                              HasSubstr("internal.key.converter")));
}

TEST(WorkerConfigTest, MetricsRecordingLevelIsInfoOrDebugAsInJava) {
  auto with_level = [](const std::string& level) {
    return WorkerConfig::Create({{"key.converter", "x"},
                                 {"value.converter", "y"},
                                 {"offset.storage.file.filename", "/tmp/o"},
                                 {"metrics.recording.level", level}},
                                WorkerMode::kStandalone);
  };
  ASSERT_TRUE(with_level("DEBUG").ok());
  EXPECT_EQ(with_level("DEBUG")->parsed().GetString("metrics.recording.level"), "DEBUG");
  for (const char* bad : {"TRACE", "debug", "VERBOSE"}) {
    auto refused = with_level(bad);
    ASSERT_FALSE(refused.ok()) << bad;
    EXPECT_THAT(std::string(refused.status().message()), HasSubstr("metrics.recording.level"));
  }
}

}  // namespace
}  // namespace connectd::config
