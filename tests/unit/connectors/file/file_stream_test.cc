// FileStreamSource/Sink through the SDK's fake host (the same vtables the worker calls).
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "connectd/sdk/testing/fake_host.h"
#include "connectors/file/file_stream_sink.h"
#include "connectors/file/file_stream_source.h"

namespace connectd::file {
namespace {

using sdk::testing::FakeHost;
using ::testing::HasSubstr;

// The line a FileStreamSource record carries (its STRING value).
std::string Line(const sdk::testing::CapturedRecord& r) {
  if (!r.record.value_data || r.record.value_data->value.isNull()) return "<no value>";
  return r.record.value_data->value.string();
}

class FileStreamTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("connectd-file-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Write(const std::string& name, const std::string& text) {
    std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  static std::string Read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream out;
    out << in.rdbuf();
    return out.str();
  }
  std::filesystem::path dir_;
  FakeHost host_;
};

TEST_F(FileStreamTest, SourceEmitsCompleteLinesWithConnectOffsets) {
  std::string path = Write("in.txt", "alpha\nbeta\r\ngamma\rdelta-incomplete");
  auto task = host_.sourceTask<FileStreamSourceConnector>();
  ASSERT_TRUE(task.start({{"file", path}, {"topic", "lines"}}).ok());
  auto records = task.poll(100);
  ASSERT_TRUE(records.ok()) << records.message;
  ASSERT_EQ(records.value.size(), 3u);
  std::string partition = "{\"filename\":\"" + path + "\"}";
  EXPECT_EQ(Line(records.value[0]), "alpha");
  EXPECT_EQ(Line(records.value[1]), "beta");
  EXPECT_EQ(Line(records.value[2]), "gamma");
  EXPECT_EQ(records.value[0].record.source_offset, "{\"position\":6}");
  EXPECT_EQ(records.value[1].record.source_offset, "{\"position\":12}");
  EXPECT_EQ(records.value[2].record.source_offset, "{\"position\":18}");
  for (const auto& r : records.value) {
    EXPECT_EQ(r.record.source_partition, partition);
    EXPECT_EQ(r.record.topic, "lines");
    // Java's SourceRecord: no key (null schema and value), a STRING_SCHEMA value.
    ASSERT_TRUE(r.record.key_data.has_value());
    EXPECT_EQ(r.record.key_data->schema, nullptr);
    EXPECT_TRUE(r.record.key_data->value.isNull());
    ASSERT_TRUE(r.record.value_data.has_value());
    ASSERT_NE(r.record.value_data->schema, nullptr);
    EXPECT_EQ(r.record.value_data->schema->type, sdk::Type::kString);
    EXPECT_FALSE(r.record.value_data->schema->optional);
    EXPECT_GT(r.record.timestamp_ms, 0);
  }
  // The incomplete line is emitted once it is terminated.
  std::ofstream(path, std::ios::app) << "\n";
  records = task.poll(100);
  ASSERT_EQ(records.value.size(), 1u);
  EXPECT_EQ(Line(records.value[0]), "delta-incomplete");
}

TEST_F(FileStreamTest, SourceResumesAfterTheStoredPosition) {
  std::string path = Write("in.txt", "one\ntwo\nthree\n");
  host_.offsets()["{\"filename\":\"" + path + "\"}"] = "{\"position\":4}";
  auto task = host_.sourceTask<FileStreamSourceConnector>();
  ASSERT_TRUE(task.start({{"file", path}, {"topic", "t"}}).ok());
  auto records = task.poll(100);
  ASSERT_EQ(records.value.size(), 2u);
  EXPECT_EQ(Line(records.value[0]), "two");
  EXPECT_EQ(records.value[1].record.source_offset, "{\"position\":14}");
}

TEST_F(FileStreamTest, SourceHonoursBatchSize) {
  std::string path = Write("in.txt", "1\n2\n3\n4\n5\n");
  auto task = host_.sourceTask<FileStreamSourceConnector>();
  ASSERT_TRUE(task.start({{"file", path}, {"topic", "t"}, {"batch.size", "2"}}).ok());
  EXPECT_EQ(task.poll(100).value.size(), 2u);
  EXPECT_EQ(task.poll(100).value.size(), 2u);
  EXPECT_EQ(task.poll(100).value.size(), 1u);
}

TEST_F(FileStreamTest, SourceWaitsForAMissingFileAndStopWakesIt) {
  auto task = host_.sourceTask<FileStreamSourceConnector>();
  ASSERT_TRUE(task.start({{"file", (dir_ / "later.txt").string()}, {"topic", "t"}}).ok());
  EXPECT_TRUE(task.poll(10).value.empty());
  task.stop();
  auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(task.poll(5000).value.empty());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
  Write("later.txt", "now\n");
  EXPECT_EQ(Line(task.poll(10).value.at(0)), "now");
}

TEST_F(FileStreamTest, ConnectorNeedsOneTopicAndMakesOneTask) {
  auto connector = host_.connector<FileStreamSourceConnector>();
  auto missing = connector.start({{"file", "/tmp/x"}});
  EXPECT_EQ(missing.code, CONNECTD_STATUS_INVALID_ARGUMENT);
  EXPECT_THAT(missing.message, HasSubstr("\"topic\""));
  auto two = connector.start({{"file", "/tmp/x"}, {"topic", "a,b"}});
  EXPECT_THAT(two.message, HasSubstr("single topic"));
  // The task config is the whole connector config, keys the connector does not know included,
  // as Java's FileStreamSourceConnector returns it (task.class is the worker's to add).
  const sdk::Props config{
      {"name", "src"},    {"connector.class", FileStreamSourceConnector::kClassName},
      {"tasks.max", "5"}, {"file", "/tmp/x"},
      {"topic", "a"},     {"batch.size", "7"},
      {"custom.key", "v"}};
  ASSERT_TRUE(connector.start(config).ok());
  auto configs = connector.taskConfigs(5);
  ASSERT_EQ(configs.value.size(), 1u);
  EXPECT_EQ(configs.value[0], config);
}

TEST_F(FileStreamTest, SinkConnectorGivesEveryTaskTheConnectorConfig) {
  // Java's FileStreamSinkConnector: tasks.max copies of the connector config.
  auto connector = host_.connector<FileStreamSinkConnector>();
  const sdk::Props config{{"name", "sink"},
                          {"connector.class", FileStreamSinkConnector::kClassName},
                          {"tasks.max", "3"},
                          {"topics", "a,b"},
                          {"file", "/tmp/out"}};
  ASSERT_TRUE(connector.start(config).ok());
  auto configs = connector.taskConfigs(3);
  ASSERT_EQ(configs.value.size(), 3u);
  for (const sdk::Props& task : configs.value) EXPECT_EQ(task, config);
}

TEST_F(FileStreamTest, ConfigDefinitionsMatchConnect) {
  const auto& source = host_.connector<FileStreamSourceConnector>().descriptor();
  ASSERT_EQ(source.config_key_count, 3u);
  EXPECT_STREQ(source.config_keys[0].name, "file");
  EXPECT_EQ(source.config_keys[0].has_default, 1);
  EXPECT_EQ(source.config_keys[0].default_value, nullptr);
  EXPECT_STREQ(source.config_keys[1].name, "topic");
  EXPECT_EQ(source.config_keys[1].has_default, 0);
  EXPECT_STREQ(source.config_keys[2].name, "batch.size");
  EXPECT_STREQ(source.config_keys[2].default_value, "2000");
  EXPECT_STREQ(source.class_name, "org.apache.kafka.connect.file.FileStreamSourceConnector");
}

TEST_F(FileStreamTest, SinkAppendsValuesAsLinesAndFlushes) {
  std::string path = (dir_ / "out.txt").string();
  auto task = host_.sinkTask<FileStreamSinkConnector>();
  ASSERT_TRUE(task.start({{"file", path}}).ok());
  ASSERT_TRUE(task.put({{"t", 0, 5, std::nullopt, std::string("first")},
                        {"t", 0, 6, std::string("k"), std::nullopt}})
                  .ok());
  sdk::OffsetMap current{{{"t", 0}, 7}};
  auto committable = task.preCommit(current);
  ASSERT_TRUE(committable.ok()) << committable.message;
  EXPECT_EQ(committable.value, current);
  EXPECT_EQ(Read(path), "first\nnull\n");
}

TEST_F(FileStreamTest, SinkFailsClearlyOnAnUnwritablePath) {
  auto task = host_.sinkTask<FileStreamSinkConnector>();
  auto started = task.start({{"file", "/nonexistent-dir/out.txt"}});
  EXPECT_EQ(started.code, CONNECTD_STATUS_INTERNAL);
  EXPECT_THAT(started.message, HasSubstr("Couldn't find or create file"));
}

}  // namespace
}  // namespace connectd::file
