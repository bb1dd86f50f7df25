#include "runtime/config/log_config.h"

#include <gtest/gtest.h>

namespace connectd::config {
namespace {

using log::Level;

// Kafka 4.x's config/connect-log4j2.yaml layout: properties, appenders, the root logger and a
// list of loggers (one with an appender only).
constexpr char kConnectLog4j2Yaml[] = R"(# connect-log4j2.yaml
Configuration:
  Properties:
    Property:
      - name: "kafka.logs.dir"
        value: "."
      - name: "rootLevel"
        value: DEBUG
      - name: "logPattern"
        value: "[%d] %p %X{connector.context}%m (%c:%L)%n"

  Appenders:
    Console:
      name: STDOUT
      PatternLayout:
        pattern: "${logPattern}"   # a comment
    RollingFile:
      - name: ConnectAppender
        fileName: "${sys:kafka.logs.dir}/connect.log"

  Loggers:
    Root:
      level: "${rootLevel}"
      AppenderRef:
        - ref: STDOUT
        - ref: ConnectAppender
    Logger:
    - name: org.apache.kafka.connect.runtime.WorkerSourceTask
      level: TRACE
    - name: "org.reflections"
      level: error
    - name: org.apache.kafka.clients.NetworkClient
      AppenderRef:
        ref: STDOUT
)";

TEST(LogConfigTest, ReadsKafkasConnectLog4j2Yaml) {
  absl::StatusOr<LogLevelConfig> config = ParseLogLevelConfig(kConnectLog4j2Yaml, /*yaml=*/true);
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->root, Level::kDebug);
  EXPECT_EQ(config->loggers,
            (std::map<std::string, Level>{
                {"org.apache.kafka.connect.runtime.WorkerSourceTask", Level::kTrace},
                {"org.reflections", Level::kError}}));
  EXPECT_EQ(config->skipped, std::vector<std::string>{"Configuration.Appenders"});
}

TEST(LogConfigTest, ASingleYamlLoggerAndADefaultInALookup) {
  absl::StatusOr<LogLevelConfig> config = ParseLogLevelConfig(
      "Configuration:\n  Loggers:\n    Root:\n      level: ${env:LEVEL:-WARN}\n"
      "    Logger:\n      name: a.b\n      level: OFF\n",
      true);
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->root, Level::kWarn);
  EXPECT_EQ(config->loggers, (std::map<std::string, Level>{{"a.b", Level::kOff}}));
}

TEST(LogConfigTest, ReadsLog4j2Properties) {
  absl::StatusOr<LogLevelConfig> config = ParseLogLevelConfig(
      "status = warn\n"
      "appender.stdout.type = Console\n"
      "rootLogger.level = WARN\n"
      "rootLogger.appenderRef.stdout.ref = STDOUT\n"
      "logger.worker.name = org.apache.kafka.connect.runtime.Worker\n"
      "logger.worker.level = DEBUG\n",
      false);
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->root, Level::kWarn);
  EXPECT_EQ(
      config->loggers,
      (std::map<std::string, Level>{{"org.apache.kafka.connect.runtime.Worker", Level::kDebug}}));
  EXPECT_EQ(config->skipped,
            (std::vector<std::string>{"appender.stdout.type", "rootLogger.appenderRef.stdout.ref",
                                      "status"}));
}

TEST(LogConfigTest, ReadsKafka3sConnectLog4jProperties) {
  absl::StatusOr<LogLevelConfig> config = ParseLogLevelConfig(
      "log4j.rootLogger=INFO, stdout, connectAppender\n"
      "log4j.appender.stdout=org.apache.log4j.ConsoleAppender\n"
      "log4j.logger.org.apache.zookeeper=ERROR\n"
      "log4j.logger.org.reflections=ERROR, stdout\n",
      false);
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->root, Level::kInfo);
  EXPECT_EQ(config->loggers, (std::map<std::string, Level>{{"org.apache.zookeeper", Level::kError},
                                                           {"org.reflections", Level::kError}}));
  EXPECT_EQ(config->skipped, std::vector<std::string>{"log4j.appender.stdout"});
}

TEST(LogConfigTest, ABadLevelOrLineIsNamed) {
  absl::StatusOr<LogLevelConfig> level =
      ParseLogLevelConfig("log4j.logger.a.b=LOUD\n", /*yaml=*/false);
  EXPECT_EQ(level.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(level.status().message(),
            "logger a.b: level 'LOUD' is not one of TRACE, DEBUG, INFO, WARN, ERROR, FATAL, OFF");
  absl::StatusOr<LogLevelConfig> yaml =
      ParseLogLevelConfig("Configuration:\n  Loggers:\n    just text\n", /*yaml=*/true);
  EXPECT_EQ(yaml.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(yaml.status().message(), "YAML line 3 (\"just text\") is not a \"key: value\" entry");
  absl::StatusOr<LogLevelConfig> unnamed =
      ParseLogLevelConfig("logger.x.level = DEBUG\n", /*yaml=*/false);
  EXPECT_EQ(unnamed.status().message(), "logger.x.level is set but logger.x.name is not");
  EXPECT_EQ(LoadLogLevelConfig("/nonexistent/connect-log4j2.yaml").status().code(),
            absl::StatusCode::kNotFound);
}

TEST(LogConfigTest, AppliedLevelsReachTheLoggers) {
  LogLevelConfig config;
  config.loggers["test.logconfig.a"] = Level::kTrace;
  ApplyLogLevels(config);
  EXPECT_EQ(log::EffectiveLevel("test.logconfig.a.b"), Level::kTrace);
}

}  // namespace
}  // namespace connectd::config
