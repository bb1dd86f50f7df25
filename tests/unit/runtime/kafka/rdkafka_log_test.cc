// librdkafka's own log lines reach connectd's logger (its format, its levels), not stderr in
// librdkafka's "%3|...|FAC|" form: a producer pointed at a port where nothing listens logs its
// failed connect, which must appear as an ERROR of connectd.kafka.librdkafka in the configured
// output, and disappear when that logger is off.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "runtime/common/logging.h"
#include "runtime/kafka/rdkafka_handles.h"

namespace connectd::kafka {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Polls a producer of an unreachable broker for `duration`.
void RunUnreachableProducer(std::chrono::milliseconds duration) {
  absl::StatusOr<ConfPtr> conf = MakeConf({{"bootstrap.servers", "127.0.0.1:1"},
                                           {"reconnect.backoff.ms", "50"},
                                           {"reconnect.backoff.max.ms", "50"}});
  ASSERT_TRUE(conf.ok()) << conf.status();
  absl::StatusOr<RdKafkaPtr> producer = MakeClient(RD_KAFKA_PRODUCER, *std::move(conf));
  ASSERT_TRUE(producer.ok()) << producer.status();
  const auto end = std::chrono::steady_clock::now() + duration;
  while (std::chrono::steady_clock::now() < end) rd_kafka_poll(producer->get(), 50);
}

TEST(RdKafkaLogTest, LibrdkafkasLinesGoThroughConnectdsLogger) {
  const std::string path = ::testing::TempDir() + "rdkafka_log_test." + std::to_string(getpid());
  std::remove(path.c_str());
  log::OutputOptions output;
  output.format = log::Format::kJson;
  output.file = path;
  ASSERT_TRUE(log::ConfigureOutput(output).ok());

  RunUnreachableProducer(std::chrono::milliseconds(1500));
  std::string lines = ReadFile(path);
  EXPECT_THAT(lines, HasSubstr(R"("level":"ERROR","logger":"connectd.kafka.librdkafka")"));
  EXPECT_THAT(lines, HasSubstr("[rdkafka#producer-"));
  EXPECT_THAT(lines, HasSubstr("127.0.0.1:1"));

  // Off: not a line more from librdkafka.
  log::SetLevel("connectd.kafka.librdkafka", log::Level::kOff);
  std::remove(path.c_str());
  ASSERT_TRUE(log::ConfigureOutput(output).ok());
  RunUnreachableProducer(std::chrono::milliseconds(1000));
  EXPECT_THAT(ReadFile(path), Not(HasSubstr("connectd.kafka.librdkafka")));

  ASSERT_TRUE(log::ConfigureOutput(log::OutputOptions{}).ok());
  std::remove(path.c_str());
}

}  // namespace
}  // namespace connectd::kafka
