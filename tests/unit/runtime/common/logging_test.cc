#include "runtime/common/logging.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace connectd::log {
namespace {

TEST(LoggingTest, ParseLevelAcceptsLog4jNames) {
  EXPECT_EQ(ParseLevel("debug"), Level::kDebug);
  EXPECT_EQ(ParseLevel("WARNING"), Level::kWarn);
  EXPECT_EQ(ParseLevel("Fatal"), Level::kError);
  EXPECT_EQ(ParseLevel("off"), Level::kOff);
  EXPECT_EQ(ParseLevel("loud"), std::nullopt);
}

TEST(LoggingTest, DescendantsFollowTheNearestAncestorWithALevel) {
  SetLevel("test.a", Level::kDebug);
  EXPECT_EQ(EffectiveLevel("test.a.b.c"), Level::kDebug);
  SetLevel("test.a.b", Level::kError);
  EXPECT_EQ(EffectiveLevel("test.a.b.c"), Level::kError);
  EXPECT_EQ(EffectiveLevel("test.a.x"), Level::kDebug);
  EXPECT_FALSE(IsEnabled(Level::kWarn, "test.a.b.c"));
  EXPECT_TRUE(IsEnabled(Level::kError, "test.a.b.c"));
  EXPECT_EQ(ExplicitLevels().at("test.a.b"), Level::kError);
}

TEST(LoggingTest, RootNamesTheEmptyLogger) {
  Level before = EffectiveLevel("");
  SetLevel("root", Level::kWarn);
  EXPECT_EQ(EffectiveLevel("unrelated.logger"), Level::kWarn);
  EXPECT_EQ(ExplicitLevels().at("root"), Level::kWarn);
  SetLevel("", before);
}

TEST(LoggingTest, ContextIsScopedPerThread) {
  EXPECT_EQ(LogContext::Current(), "");
  {
    LogContext outer("conn|task-0");
    EXPECT_EQ(LogContext::Current(), "conn|task-0");
    {
      LogContext inner("conn|task-1");
      EXPECT_EQ(LogContext::Current(), "conn|task-1");
    }
    EXPECT_EQ(LogContext::Current(), "conn|task-0");
  }
  EXPECT_EQ(LogContext::Current(), "");
}

// The lines of a file, or none.
std::vector<std::string> LinesOf(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// A temporary log file; the output goes back to stderr after each test.
class LogFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("connectd-log-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
            "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    file_ = dir_ / "connectd.log";
  }
  void TearDown() override {
    ASSERT_TRUE(ConfigureOutput(OutputOptions{}).ok());
    std::filesystem::remove_all(dir_);
  }
  std::filesystem::path dir_, file_;
};

TEST_F(LogFileTest, JsonLinesCarryLevelLoggerContextAndMessage) {
  OutputOptions options;
  options.format = Format::kJson;
  options.file = file_.string();
  ASSERT_TRUE(ConfigureOutput(options).ok());
  {
    LogContext context("src|task-0");
    Write(Level::kWarn, "connectd.worker", "said \"hi\"\n\xff end");
  }
  Write(Level::kInfo, "connectd.rest", "plain");
  std::vector<std::string> lines = LinesOf(file_);
  ASSERT_EQ(lines.size(), 2u);
  // {"timestamp":"2026-12-06T02:34:44.123Z",...}: the time first, then the fields in order;
  // the byte that is not UTF-8 reads as U+FFFD, as Java would decode it.
  EXPECT_EQ(lines[0].substr(0, 14), "{\"timestamp\":\"");
  EXPECT_EQ(lines[0].substr(38),
            "\",\"level\":\"WARN\",\"logger\":\"connectd.worker\",\"context\":\"src|task-0\","
            "\"message\":\"said \\\"hi\\\"\\n\xef\xbf\xbd end\"}");
  EXPECT_EQ(lines[0][37], 'Z');
  EXPECT_EQ(lines[1].substr(38),
            "\",\"level\":\"INFO\",\"logger\":\"connectd.rest\",\"message\":\"plain\"}");
}

TEST_F(LogFileTest, TheFileRotatesBySizeKeepingTheNewestBackups) {
  OutputOptions options;
  options.file = file_.string();
  options.file_max_bytes = 1000;
  options.file_max_backups = 2;
  ASSERT_TRUE(ConfigureOutput(options).ok());
  const std::string message(270, 'x');
  for (int i = 0; i < 30; ++i) Write(Level::kInfo, "connectd.test", std::to_string(i) + message);
  // About 320 bytes a line, 3 lines a file: 30 lines fill 10 files, of which the last 3 stay.
  std::vector<std::string> current = LinesOf(file_), first = LinesOf(dir_ / "connectd.log.1"),
                           second = LinesOf(dir_ / "connectd.log.2");
  EXPECT_FALSE(std::filesystem::exists(dir_ / "connectd.log.3"));
  ASSERT_EQ(current.size(), 3u);
  ASSERT_EQ(first.size(), 3u);
  ASSERT_EQ(second.size(), 3u);
  EXPECT_NE(current.back().find("] INFO 29xx"), std::string::npos) << current.back();
  EXPECT_NE(first.front().find("] INFO 24xx"), std::string::npos) << first.front();
  EXPECT_NE(second.front().find("] INFO 21xx"), std::string::npos) << second.front();
  EXPECT_LE(std::filesystem::file_size(file_), 1000u);
}

TEST_F(LogFileTest, AFileThatCannotBeOpenedIsRefusedAndStderrStays) {
  OutputOptions options;
  options.file = (dir_ / "missing" / "connectd.log").string();
  absl::Status status = ConfigureOutput(options);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("missing/connectd.log"), std::string::npos);
}

TEST_F(LogFileTest, OnTheJournalTextLinesStartWithTheirSyslogPriority) {
  // stderr becomes a file, which JOURNAL_STREAM then names as systemd would name its socket.
  const int saved = ::dup(STDERR_FILENO);
  std::FILE* sink = std::fopen(file_.c_str(), "w");
  ASSERT_NE(sink, nullptr);
  ::dup2(::fileno(sink), STDERR_FILENO);
  struct stat st;
  ASSERT_EQ(::fstat(STDERR_FILENO, &st), 0);
  ::unsetenv("JOURNAL_STREAM");
  const bool without = StderrIsJournal();
  ::setenv("JOURNAL_STREAM", "1:2", 1);
  const bool other = StderrIsJournal();
  ::setenv("JOURNAL_STREAM", (std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino)).c_str(),
           1);
  const bool journal = StderrIsJournal();
  OutputOptions options;
  options.syslog_priority = journal;
  ASSERT_TRUE(ConfigureOutput(options).ok());
  Write(Level::kError, "t", "e");
  Write(Level::kWarn, "t", "w");
  Write(Level::kInfo, "t", "i");
  Write(Level::kDebug, "t", "d");
  ::dup2(saved, STDERR_FILENO);
  ::close(saved);
  std::fclose(sink);
  ::unsetenv("JOURNAL_STREAM");
  EXPECT_FALSE(without);
  EXPECT_FALSE(other);
  EXPECT_TRUE(journal);
  std::vector<std::string> lines = LinesOf(file_);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0].substr(0, 4), "<3>[");
  EXPECT_EQ(lines[1].substr(0, 4), "<4>[");
  EXPECT_EQ(lines[2].substr(0, 4), "<6>[");
  EXPECT_EQ(lines[3].substr(0, 4), "<7>[");
}

}  // namespace
}  // namespace connectd::log
