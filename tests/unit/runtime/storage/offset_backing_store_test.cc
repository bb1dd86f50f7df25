#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "absl/synchronization/notification.h"
#include "runtime/storage/file_offset_backing_store.h"
#include "runtime/storage/java_serialization.h"
#include "runtime/storage/memory_offset_backing_store.h"
#include "tests/unit/runtime/storage/storage_test_util.h"

namespace connectd::storage {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Pair;
using ::testing::UnorderedElementsAre;

constexpr char kKeyA[] = R"(["src",{"filename":"/a"}])";
constexpr char kKeyB[] = R"(["src",{"filename":"/b"}])";
constexpr char kMm2Key[] = R"(["mm2",{"cluster":"A","partition":0,"topic":"t"}])";

// Runs Set and waits for its callback.
absl::Status SetAndWait(OffsetBackingStore& store, OffsetWrites values) {
  absl::Notification done;
  absl::Status result;
  store.Set(std::move(values), [&](absl::Status status) {
    result = status;
    done.Notify();
  });
  done.WaitForNotification();
  return result;
}

std::map<std::string, std::optional<std::string>> ReadStoreFile(const std::string& path) {
  std::map<std::string, std::optional<std::string>> result;
  absl::StatusOr<std::vector<JavaByteArrayMapEntry>> entries =
      ParseJavaByteArrayHashMap(testing::ReadFileOrDie(path));
  EXPECT_TRUE(entries.ok()) << entries.status();
  if (!entries.ok()) return result;
  for (auto& [key, value] : *entries) result.emplace(key.value_or("<null>"), value);
  return result;
}

// ---- MemoryOffsetBackingStore ----------------------------------------------------------------

TEST(MemoryOffsetBackingStoreTest, RequiresStart) {
  MemoryOffsetBackingStore store;
  EXPECT_EQ(store.Get({kKeyA}).status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(SetAndWait(store, {{kKeyA, "{}"}}).code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(store.Start().ok());
  store.Stop();
  EXPECT_EQ(store.Get({kKeyA}).status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(MemoryOffsetBackingStoreTest, StoresBytesAndTombstones) {
  MemoryOffsetBackingStore store;
  ASSERT_TRUE(store.Start().ok());
  bool called = false;
  store.Set({{kKeyA, R"({"position":1})"}, {kKeyB, R"({"position":2})"}, {"opaque", "bytes"}},
            [&](absl::Status status) {
              EXPECT_TRUE(status.ok());
              called = true;
            });
  EXPECT_TRUE(called);  // synchronously, on the calling thread
  absl::StatusOr<std::map<std::string, std::string>> got = store.Get({kKeyA, "missing", "opaque"});
  ASSERT_TRUE(got.ok());
  EXPECT_THAT(*got,
              UnorderedElementsAre(Pair(kKeyA, R"({"position":1})"), Pair("opaque", "bytes")));

  ASSERT_TRUE(SetAndWait(store, {{kKeyA, std::nullopt}}).ok());
  EXPECT_THAT(*store.Get({kKeyA, kKeyB}), UnorderedElementsAre(Pair(kKeyB, R"({"position":2})")));
  // The tombstone is kept as a key with no value, as Java's store keeps a null.
  const OffsetWrites snapshot = store.Snapshot();
  ASSERT_EQ(snapshot.count(kKeyA), 1u);
  EXPECT_EQ(snapshot.at(kKeyA), std::nullopt);
}

TEST(MemoryOffsetBackingStoreTest, TracksPartitionsAndFindsByContent) {
  MemoryOffsetBackingStore store;
  ASSERT_TRUE(store.Start().ok());
  ASSERT_TRUE(SetAndWait(store, {{kKeyA, "{}"}, {kKeyB, "{}"}, {kMm2Key, R"({"offset":7})"}}).ok());
  EXPECT_THAT(store.ConnectorPartitions("src"),
              ElementsAre(R"({"filename":"/a"})", R"({"filename":"/b"})"));
  EXPECT_THAT(store.ConnectorPartitions("nobody"), IsEmpty());
  absl::StatusOr<std::optional<std::string>> found =
      store.FindOffset("mm2", R"({"topic":"t","partition":0,"cluster":"A"})");
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(*found, std::optional<std::string>(R"({"offset":7})"));
  ASSERT_TRUE(SetAndWait(store, {{kKeyB, std::nullopt}}).ok());
  EXPECT_THAT(store.ConnectorPartitions("src"), ElementsAre(R"({"filename":"/a"})"));
}

TEST(MemoryOffsetBackingStoreTest, ConcurrentWritersAndReaders) {
  MemoryOffsetBackingStore store;
  ASSERT_TRUE(store.Start().ok());
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&store, t] {
      for (int i = 0; i < 200; ++i) {
        const std::string key =
            "[\"c" + std::to_string(t) + "\",{\"p\":" + std::to_string(i) + "}]";
        store.Set({{key, "{}"}}, nullptr);
        EXPECT_TRUE(store.Get({key}).ok());
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < 4; ++t)
    EXPECT_EQ(store.ConnectorPartitions("c" + std::to_string(t)).size(), 200u);
}

// ---- FileOffsetBackingStore ------------------------------------------------------------------

TEST(FileOffsetBackingStoreTest, MissingFileIsAnEmptyStore) {
  testing::TempDir dir;
  FileOffsetBackingStore store(dir.File("offsets"));
  ASSERT_TRUE(store.Start().ok());
  EXPECT_THAT(*store.Get({kKeyA}), IsEmpty());
  store.Stop();
  EXPECT_FALSE(std::filesystem::exists(dir.File("offsets")));
}

TEST(FileOffsetBackingStoreTest, CallbackRunsOnceTheFileHoldsTheWrite) {
  testing::TempDir dir;
  const std::string path = dir.File("offsets");
  FileOffsetBackingStore store(path);
  ASSERT_TRUE(store.Start().ok());
  absl::Notification done;
  store.Set({{kKeyA, R"({"position":1})"}, {kKeyB, std::nullopt}}, [&](absl::Status status) {
    EXPECT_TRUE(status.ok()) << status;
    EXPECT_THAT(ReadStoreFile(path),
                UnorderedElementsAre(Pair(kKeyA, R"({"position":1})"), Pair(kKeyB, std::nullopt)));
    done.Notify();
  });
  // Visible to readers at once, before the save.
  EXPECT_THAT(*store.Get({kKeyA}), ElementsAre(Pair(kKeyA, R"({"position":1})")));
  done.WaitForNotification();
  store.Stop();
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
}

TEST(FileOffsetBackingStoreTest, ReopensWithEverything) {
  testing::TempDir dir;
  const std::string path = dir.File("offsets");
  {
    FileOffsetBackingStore store(path);
    ASSERT_TRUE(store.Start().ok());
    ASSERT_TRUE(SetAndWait(store, {{kKeyA, "{\"position\":1}"}, {kMm2Key, "{\"offset\":3}"}}).ok());
    ASSERT_TRUE(SetAndWait(store, {{kKeyA, std::nullopt}, {kKeyB, "{\"position\":2}"}}).ok());
  }
  FileOffsetBackingStore reopened(path);
  ASSERT_TRUE(reopened.Start().ok());
  EXPECT_THAT(
      *reopened.Get({kKeyA, kKeyB, kMm2Key}),
      UnorderedElementsAre(Pair(kKeyB, "{\"position\":2}"), Pair(kMm2Key, "{\"offset\":3}")));
  EXPECT_THAT(reopened.ConnectorPartitions("src"), ElementsAre(R"({"filename":"/b"})"));
  EXPECT_THAT(reopened.ConnectorPartitions("mm2"),
              ElementsAre(R"({"cluster":"A","partition":0,"topic":"t"})"));
  // The tombstone survived as a null value, as Java keeps it.
  EXPECT_EQ(ReadStoreFile(path).at(kKeyA), std::nullopt);
}

TEST(FileOffsetBackingStoreTest, StopFinishesPendingSaves) {
  testing::TempDir dir;
  const std::string path = dir.File("offsets");
  FileOffsetBackingStore store(path);
  ASSERT_TRUE(store.Start().ok());
  std::atomic<int> ok{0};
  for (int i = 0; i < 50; ++i) {
    store.Set({{"[\"c\",{\"p\":" + std::to_string(i) + "}]", "{}"}}, [&](absl::Status status) {
      if (status.ok()) ++ok;
    });
  }
  store.Stop();
  EXPECT_EQ(ok.load(), 50);
  EXPECT_EQ(ReadStoreFile(path).size(), 50u);
  EXPECT_EQ(SetAndWait(store, {{kKeyA, "{}"}}).code(), absl::StatusCode::kFailedPrecondition);
  store.Stop();  // idempotent
}

TEST(FileOffsetBackingStoreTest, StartsOnlyOnce) {
  testing::TempDir dir;
  FileOffsetBackingStore store(dir.File("offsets"));
  ASSERT_TRUE(store.Start().ok());
  EXPECT_EQ(store.Start().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(FileOffsetBackingStoreTest, ReportsSaveFailures) {
  testing::TempDir dir;
  FileOffsetBackingStore store(dir.File("no-such-dir/offsets"));
  ASSERT_TRUE(store.Start().ok());
  const absl::Status status = SetAndWait(store, {{kKeyA, "{}"}});
  EXPECT_EQ(status.code(), absl::StatusCode::kNotFound) << status;
  EXPECT_THAT(std::string(status.message()), HasSubstr("no-such-dir/offsets.tmp"));
  // The write is still served from memory.
  EXPECT_THAT(*store.Get({kKeyA}), ElementsAre(Pair(kKeyA, "{}")));
}

TEST(FileOffsetBackingStoreTest, RejectsCorruptAndTruncatedFiles) {
  testing::TempDir dir;
  const std::string java = testing::ReadFileOrDie(testing::GoldenPath("java.offsets"));
  const std::vector<std::string> bad = {"", "garbage", java.substr(0, java.size() / 2),
                                        java.substr(0, java.size() - 1), java + "x"};
  for (const std::string& contents : bad) {
    const std::string path = dir.File("bad");
    testing::WriteFileOrDie(path, contents);
    FileOffsetBackingStore store(path);
    const absl::Status status = store.Start();
    EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << status;
    EXPECT_THAT(std::string(status.message()), HasSubstr("cannot load offsets from " + path));
  }
}

// (a) connectd reads the file Java's FileOffsetBackingStore wrote: the same entries and the same
// per-connector partitions as Java lists in java.offsets.txt.
TEST(FileOffsetBackingStoreGoldenTest, LoadsJavasFile) {
  testing::TempDir dir;
  const std::string path = dir.File("java.offsets");
  testing::WriteFileOrDie(path, testing::ReadFileOrDie(testing::GoldenPath("java.offsets")));
  FileOffsetBackingStore store(path);
  ASSERT_TRUE(store.Start().ok());

  std::vector<std::string> keys;
  std::map<std::string, std::string> expected_values;
  std::map<std::string, std::vector<std::string>> expected_partitions;
  for (const std::string& line : testing::GoldenLines("java.offsets.txt")) {
    const std::vector<std::string> f = testing::Split(line, ' ');
    if (f[0] == "entry") {
      const std::string key = testing::FromHex(f[1]);
      keys.push_back(key);
      if (f[2] != "null") expected_values[key] = testing::FromHex(f[2]);
    } else if (f[0] == "partition") {
      // "partition <connector> <json>" (the JSON may contain spaces).
      const size_t json = line.find(' ', line.find(' ') + 1) + 1;
      expected_partitions[f[1]].push_back(line.substr(json));
    }
  }
  ASSERT_FALSE(keys.empty());
  EXPECT_EQ(*store.Get(keys), expected_values);
  ASSERT_FALSE(expected_partitions.empty());
  for (auto& [connector, partitions] : expected_partitions) {
    std::vector<std::string> actual = store.ConnectorPartitions(connector);
    std::sort(actual.begin(), actual.end());
    std::sort(partitions.begin(), partitions.end());
    EXPECT_EQ(actual, partitions) << connector;
  }
  // A MirrorMaker partition found whatever key order the caller uses.
  absl::StatusOr<std::optional<std::string>> mm2 = store.FindOffset(
      "MirrorSourceConnector", R"({"topic":"orders","partition":1,"cluster":"primary"})");
  ASSERT_TRUE(mm2.ok());
  EXPECT_EQ(*mm2, std::optional<std::string>(R"({"offset":1234567890123})"));
}

}  // namespace
}  // namespace connectd::storage
