// Integration tests (label `integration`): connectd's offset formats against the Java reference,
// run live through tests/golden/offsets/GenerateOffsetGolden.java with the Kafka 4.4.0 classpath
// from scripts/kafka. They need a JVM; the unit tests check the same formats against the
// checked-in golden files without one.
#include <stdio.h>
#include <sys/wait.h>

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "absl/synchronization/notification.h"
#include "runtime/storage/file_offset_backing_store.h"
#include "jvm/java_text.h"
#include "runtime/storage/offset_codec.h"
#include "tests/unit/runtime/storage/storage_test_util.h"

namespace connectd::storage {
namespace {

// Runs `command` with /bin/sh and returns its stdout; fails the test on a non-zero exit.
std::string RunCommand(const std::string& command) {
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) {
    ADD_FAILURE() << "popen failed: " << command;
    return "";
  }
  std::string out;
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
  const int status = ::pclose(pipe);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "failed: " << command;
  return out;
}

std::string Trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

// "<java> -cp <classpath> GenerateOffsetGolden.java" with the reference JVM and jars.
const std::string& JavaGenerator() {
  static const std::string command = [] {
    const std::string kafka = testing::SourceDir() + "/scripts/kafka";
    const std::string java = Trim(RunCommand("'" + kafka + "' java"));
    const std::string classpath = Trim(RunCommand("'" + kafka + "' java-classpath"));
    return "'" + java + "' -cp '" + classpath + "' '" +
           testing::GoldenPath("GenerateOffsetGolden.java") + "'";
  }();
  return command;
}

struct FileCase {
  const char* connector;
  bool hash_map;  // a java.util.HashMap in the Java program
  const char* partition;
  const char* offset;  // nullptr: an offset, then its tombstone
};

// The entries GenerateOffsetGolden.java writes with Java's FileOffsetBackingStore (FILE_CASES).
constexpr FileCase kFileCases[] = {
    {"local-file-source", false, R"({"filename":"/tmp/test.txt"})", R"({"position":1024})"},
    {"local-file-source", false,
     "{\"filename\":\"/data/\xc3\xbcn\xc3\xaf"
     "c\xc3\xb6"
     "d\xc3\xa9 \\\"quoted\\\" \\\\ tab\\t.txt\"}",
     R"({"position":9007199254740993})"},
    {"local-file-source", false, R"({"filename":"/tmp/deleted.txt"})", nullptr},
    {"MirrorSourceConnector", true, R"({"cluster":"primary","topic":"orders","partition":0})",
     R"({"offset":0})"},
    {"MirrorSourceConnector", true, R"({"cluster":"primary","topic":"orders","partition":1})",
     R"({"offset":1234567890123})"},
    {"MirrorSourceConnector", true, R"({"cluster":"primary","topic":"payments","partition":11})",
     R"({"offset":77})"},
    {"mixed-source", false, R"({"id":7,"ratio":0.1,"active":true,"none":null})",
     "{\"d\":1e10,\"f\":100.0,\"b\":false,\"s\":\"emoji \xf0\x9f\x98\x80 \\u0001\\u001f "
     "\xe2\x80\xa8\",\"n\":null}"},
    {"mixed-source", true, R"({"Aa":1,"BB":2})", R"({"ts":1700000000000,"lag":-0.25})"},
};

std::string Ordered(const char* json, bool hash_map) {
  if (!hash_map) return json;
  absl::StatusOr<std::string> ordered = CanonicalJavaHashMapOrder(json);
  EXPECT_TRUE(ordered.ok()) << ordered.status();
  return ordered.ok() ? *ordered : "";
}

// (b) connectd writes the golden entries with its own codec and file store; Java's
// FileOffsetBackingStore loads the file and lists exactly what it listed for its own file.
TEST(OffsetJavaInteropTest, JavaReadsConnectdsOffsetFile) {
  testing::TempDir dir;
  const std::string path = dir.File("connectd.offsets");
  {
    FileOffsetBackingStore store(path);
    ASSERT_TRUE(store.Start().ok());
    OffsetWrites writes;
    for (const FileCase& c : kFileCases) {
      absl::StatusOr<std::string> key =
          SerializeOffsetKey(c.connector, Ordered(c.partition, c.hash_map));
      ASSERT_TRUE(key.ok()) << key.status();
      std::optional<std::string> value;
      if (c.offset != nullptr) {
        absl::StatusOr<std::optional<std::string>> serialized =
            SerializeOffsetValue(Ordered(c.offset, c.hash_map));
        ASSERT_TRUE(serialized.ok()) << serialized.status();
        value = *serialized;
      }
      writes[*key] = value;
    }
    absl::Notification saved;
    store.Set(std::move(writes), [&](absl::Status status) {
      EXPECT_TRUE(status.ok()) << status;
      saved.Notify();
    });
    saved.WaitForNotification();
  }
  const std::string listing = RunCommand(JavaGenerator() + " read '" + path + "' 2>/dev/null");
  EXPECT_EQ(listing, testing::ReadFileOrDie(testing::GoldenPath("java.offsets.txt")));
}

// The checked-in JsonConverter table is still what the reference jars produce (the unit tests
// hold connectd to it byte for byte).
TEST(OffsetJavaInteropTest, JsonConverterTableIsCurrent) {
  EXPECT_EQ(RunCommand(JavaGenerator() + " codec 2>/dev/null"),
            testing::ReadFileOrDie(testing::GoldenPath("json_converter.tsv")));
}

// Double.toString of the reference JVM on many pseudo-random doubles (all binades, subnormals,
// short decimals, large integers).
TEST(OffsetJavaInteropTest, DoubleToStringMatchesTheReferenceJvm) {
  const std::string output = RunCommand(JavaGenerator() + " doubles 200000 2>/dev/null");
  const std::vector<std::string> lines = testing::Split(output, '\n');
  ASSERT_GT(lines.size(), 100000u);
  const std::string header = "# java.specification.version=";
  ASSERT_EQ(lines[0].rfind(header, 0), 0u) << lines[0];
  const int version = std::stoi(lines[0].substr(header.size()));
  const jvm::JavaDoubleStyle style = version >= 19 ? jvm::JavaDoubleStyle::kJdk19 : jvm::JavaDoubleStyle::kJdk17;
  int mismatches = 0;
  for (size_t i = 1; i < lines.size(); ++i) {
    if (lines[i].empty()) continue;
    const size_t space = lines[i].find(' ');
    const uint64_t bits = std::stoull(lines[i].substr(0, space), nullptr, 16);
    double value;
    std::memcpy(&value, &bits, sizeof value);
    const std::string expected = lines[i].substr(space + 1);
    if (jvm::FormatJavaDouble(value, style) != expected && ++mismatches <= 10) {
      ADD_FAILURE() << lines[i] << " formatted as " << jvm::FormatJavaDouble(value, style);
    }
  }
  EXPECT_EQ(mismatches, 0);
}

}  // namespace
}  // namespace connectd::storage
