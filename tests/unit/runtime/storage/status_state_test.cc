// StatusCache against Kafka 4.4.0's KafkaStatusBackingStore: the scenarios of
// tests/golden/status_topic/status_cache_scenarios.txt replayed here must send the same records
// and leave the same cache as they did in Java (status_cache_expected.tsv); then each rule on its
// own, and murmur2 partitioning against Utils.murmur2 (partitions.tsv).
#include "runtime/storage/status_state.h"

#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include <gtest/gtest.h>

#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "runtime/common/strings.h"
#include "tests/unit/runtime/storage/status_golden.h"

namespace connectd::storage {
namespace {

using testing::FromHex;
using testing::LoadStatusGolden;
using testing::ToHex;

std::string HexOrEmpty(const std::optional<std::string>& s) { return ToHex(s); }

std::string StatusText(const StatusValue& s) {
  return absl::StrCat(AsAbsl(StatusStateName(s.state)), ",", HexOrEmpty(s.worker_id), ",",
                      s.generation, ",", HexOrEmpty(s.trace), ",", HexOrEmpty(s.version));
}

// The same dump as GenerateStatusTopicGolden.dump.
std::string Dump(const StatusCache& cache) {
  std::vector<std::string> parts;
  const auto connectors = cache.Connectors();
  for (const auto& c : connectors) parts.push_back("K:" + ToHex(c));
  for (const auto& c : connectors) {
    if (const auto s = cache.Connector(c)) parts.push_back("C:" + ToHex(c) + "=" + StatusText(*s));
  }
  std::set<std::string> all(connectors.begin(), connectors.end());
  for (const auto& c : cache.ConnectorsWithTasksOrTopics()) all.insert(c);
  for (const auto& c : all) {
    for (const auto& [task, s] : cache.Tasks(c)) {
      parts.push_back(absl::StrCat("T:", ToHex(c), "/", task, "=", StatusText(s)));
    }
  }
  for (const auto& c : all) {
    for (const auto& [topic, s] : cache.Topics(c)) {
      parts.push_back(absl::StrCat("P:", ToHex(c), "/", ToHex(topic), "=", ToHex(s.topic), ",",
                                   ToHex(s.connector), ",", s.task, ",", s.discover_timestamp));
    }
  }
  return parts.empty() ? "-" : absl::StrJoin(parts, ";");
}

struct Replay {
  StatusCache cache;
  std::vector<StatusWrite> sent;
};

// Runs one scenario line; returns the records it sent.
std::vector<StatusWrite> RunStep(Replay& r, const std::string& line) {
  const std::vector<std::string> tok = absl::StrSplit(line, ' ');
  std::vector<StatusWrite> out;
  if (tok[0] == "read" || tok[0] == "readhex") {
    std::string key = tok[1];
    std::optional<std::string> value;
    if (tok[0] == "read") {
      const std::string rest = line.substr(line.find(' ', 5) + 1);
      if (rest != "<tombstone>") value = rest;
    } else {
      key = absl::HexStringToBytes(tok[1]);
      if (tok[2] != "<tombstone>") value = absl::HexStringToBytes(tok[2]);
    }
    r.cache.Read(key, value);
  } else if (tok[0] == "put" || tok[0] == "putsafe") {
    StatusValue s;
    s.state = *ParseStatusStateName(tok[3]);
    s.worker_id = tok[4];
    EXPECT_TRUE(absl::SimpleAtoi(tok[5], &s.generation));
    if (tok[6] != "-") s.version = tok[6];
    if (tok.size() > 7) {
      size_t idx = 0;
      for (int i = 0; i < 7; ++i) idx = line.find(' ', idx) + 1;
      s.trace = line.substr(idx);
    }
    const WriteMode mode = tok[0] == "putsafe" ? WriteMode::kSafe : WriteMode::kNormal;
    absl::StatusOr<std::optional<StatusWrite>> w;
    if (tok[1] == "connector") {
      w = r.cache.PutConnector(tok[2], s, mode);
    } else {
      const std::vector<std::string> id = absl::StrSplit(tok[2], '/');
      int task = 0;
      EXPECT_TRUE(absl::SimpleAtoi(id[1], &task));
      w = r.cache.PutTask({id[0], task}, s, mode);
    }
    EXPECT_TRUE(w.ok()) << w.status();
    if (w.ok() && w->has_value()) out.push_back(**w);
  } else if (tok[0] == "topic") {
    TopicStatusValue t{tok[2], tok[1], 0, 0};
    EXPECT_TRUE(absl::SimpleAtoi(tok[3], &t.task));
    EXPECT_TRUE(absl::SimpleAtoi(tok[4], &t.discover_timestamp));
    out.push_back(r.cache.PutTopic(t));
  } else if (tok[0] == "deletetopic") {
    out.push_back(r.cache.DeleteTopic(tok[1], tok[2]));
  } else if (tok[0] == "fail") {
    size_t n = 0;
    EXPECT_TRUE(absl::SimpleAtoi(tok[1], &n));
    const StatusWrite failed = r.sent.at(n - 1);
    if (r.cache.ShouldRetry(failed)) out.push_back(failed);
  } else {
    ADD_FAILURE() << "unknown operation " << line;
  }
  for (const auto& w : out) r.sent.push_back(w);
  return out;
}

// Where connectd's cache deliberately differs from Java's after a scenario step (each one a row of
// docs/compatibility.md): (scenario, step) -> connectd's cache.
const std::map<std::pair<std::string, int>, std::string> kDeliberateDeviations = {
    // A connector's stale UNASSIGNED (w1, generation 1) after RUNNING (w2, generation 5) is
    // ignored;
    // Java caches it.
    {{"reader-ignores-stale-unassigned", 9},
     "K:61;C:61=RUNNING,77323a38303833,5,~,~;T:61/0=UNASSIGNED,77313a38303833,0,~,~"},
};

TEST(StatusCacheTest, ScenariosMatchJavaStore) {
  std::ifstream in(std::string(CONNECTD_SOURCE_DIR) +
                   "/tests/golden/status_topic/status_cache_scenarios.txt");
  const auto expected = LoadStatusGolden("status_cache_expected.tsv");
  ASSERT_GT(expected.size(), 150u);
  size_t row = 0;
  std::unique_ptr<Replay> replay;
  std::string scenario;
  int step = 0;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (line.rfind("scenario ", 0) == 0) {
      scenario = line.substr(9);
      replay = std::make_unique<Replay>();
      step = 0;
      continue;
    }
    ++step;
    ASSERT_LT(row, expected.size());
    const auto& want = expected[row++];
    ASSERT_EQ(want.size(), 4u);
    ASSERT_EQ(want[0], scenario);
    ASSERT_EQ(want[1], std::to_string(step));
    SCOPED_TRACE(absl::StrCat(scenario, " step ", step, ": ", line.substr(0, 120)));
    std::vector<std::string> sent;
    for (const auto& w : RunStep(*replay, line))
      sent.push_back(ToHex(w.key) + "=" + ToHex(w.value));
    EXPECT_EQ(sent.empty() ? "-" : absl::StrJoin(sent, ","), want[2]);
    const auto deviation = kDeliberateDeviations.find({scenario, step});
    EXPECT_EQ(Dump(replay->cache),
              deviation == kDeliberateDeviations.end() ? want[3] : deviation->second);
  }
  EXPECT_EQ(row, expected.size());
}

StatusValue Status(worker::State state, std::string worker, int32_t generation) {
  StatusValue s;
  s.state = state;
  s.worker_id = std::move(worker);
  s.generation = generation;
  return s;
}

std::string Value(const StatusValue& s) { return **EncodeStatusValue(s); }

TEST(StatusCacheTest, SafeWriteRules) {
  using worker::State;
  StatusCache cache;
  const herder::ConnectorTaskId t{"c", 0};
  // No previous value: written.
  auto w = cache.PutTask(t, Status(State::kUnassigned, "w1", 1), WriteMode::kSafe);
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE(w->has_value());
  EXPECT_EQ((*w)->key, "status-task-c-0");
  EXPECT_TRUE((*w)->safe);
  EXPECT_EQ((*w)->sequence, 1);
  // Cached: RUNNING by w2 at generation 5.
  ASSERT_EQ(cache.Read("status-task-c-0", Value(Status(State::kRunning, "w2", 5))),
            StatusCache::ReadOutcome::kApplied);
  // Other worker, older generation: skipped (but the store generation moves).
  w = cache.PutTask(t, Status(State::kFailed, "w1", 4), WriteMode::kSafe);
  ASSERT_TRUE(w.ok());
  EXPECT_FALSE(w->has_value());
  EXPECT_EQ(cache.generation(), 4);
  // Same generation: written.
  w = cache.PutTask(t, Status(State::kFailed, "w1", 5), WriteMode::kSafe);
  ASSERT_TRUE(w.ok() && w->has_value());
  EXPECT_EQ((*w)->sequence, 2);
  // Same worker, older generation: written.
  w = cache.PutTask(t, Status(State::kUnassigned, "w2", 1), WriteMode::kSafe);
  ASSERT_TRUE(w.ok() && w->has_value());
  // Normal writes are never skipped.
  w = cache.PutTask(t, Status(State::kPaused, "w9", 0), WriteMode::kNormal);
  ASSERT_TRUE(w.ok() && w->has_value());
  EXPECT_FALSE((*w)->safe);
  // Writes do not change the cached value (only reads do).
  EXPECT_EQ(cache.Task(t), Status(State::kRunning, "w2", 5));
  EXPECT_EQ(HerderWriteMode(State::kUnassigned), WriteMode::kSafe);
  EXPECT_EQ(HerderWriteMode(State::kFailed), WriteMode::kSafe);
  EXPECT_EQ(HerderWriteMode(State::kRunning), WriteMode::kNormal);
  EXPECT_EQ(HerderWriteMode(State::kDestroyed), WriteMode::kNormal);
}

TEST(StatusCacheTest, WritesCreateConnectorEntriesAndDestroyedIsATombstone) {
  StatusCache cache;
  auto w = cache.PutConnector("c", Status(worker::State::kDestroyed, "w1", 3), WriteMode::kNormal);
  ASSERT_TRUE(w.ok() && w->has_value());
  EXPECT_EQ((*w)->key, "status-connector-c");
  EXPECT_FALSE((*w)->value.has_value());
  EXPECT_EQ(cache.Connectors(), std::vector<std::string>{"c"});
  EXPECT_FALSE(cache.Connector("c").has_value());
  StatusValue no_worker;
  EXPECT_EQ(cache.PutConnector("d", no_worker, WriteMode::kNormal).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(cache.Connectors(), std::vector<std::string>{"c"});
}

TEST(StatusCacheTest, ReaderIgnoresStaleUnassignedTask) {
  using worker::State;
  using Outcome = StatusCache::ReadOutcome;
  StatusCache cache;
  const herder::ConnectorTaskId t{"c", 1};
  ASSERT_EQ(cache.Read("status-task-c-1", Value(Status(State::kRunning, "w2", 5))),
            Outcome::kApplied);
  EXPECT_EQ(cache.Read("status-task-c-1", Value(Status(State::kUnassigned, "w1", 5))),
            Outcome::kIgnoredStale);
  EXPECT_EQ(cache.Read("status-task-c-1", Value(Status(State::kUnassigned, "w1", 4))),
            Outcome::kIgnoredStale);
  EXPECT_EQ(cache.Task(t)->state, State::kRunning);
  EXPECT_EQ(cache.Read("status-task-c-1", Value(Status(State::kUnassigned, "w1", 6))),
            Outcome::kApplied);
  EXPECT_EQ(cache.Task(t), Status(State::kUnassigned, "w1", 6));
  // Only RUNNING protects.
  ASSERT_EQ(cache.Read("status-task-c-1", Value(Status(State::kPaused, "w2", 9))),
            Outcome::kApplied);
  EXPECT_EQ(cache.Read("status-task-c-1", Value(Status(State::kUnassigned, "w1", 1))),
            Outcome::kApplied);
}

// Java 4.4 protects tasks only; connectd connectors too (docs/compatibility.md): the late
// UNASSIGNED of the worker a connector was taken from must not hide the new owner's RUNNING.
TEST(StatusCacheTest, ReaderIgnoresStaleUnassignedConnector) {
  using worker::State;
  using Outcome = StatusCache::ReadOutcome;
  StatusCache cache;
  ASSERT_EQ(cache.Read("status-connector-c", Value(Status(State::kRunning, "w2", 9))),
            Outcome::kApplied);
  EXPECT_EQ(cache.Read("status-connector-c", Value(Status(State::kUnassigned, "w1", 8))),
            Outcome::kIgnoredStale);
  EXPECT_EQ(cache.Read("status-connector-c", Value(Status(State::kUnassigned, "w1", 9))),
            Outcome::kIgnoredStale);
  EXPECT_EQ(cache.Connector("c"), Status(State::kRunning, "w2", 9));
  // A newer generation's UNASSIGNED is the connector really leaving its owner.
  EXPECT_EQ(cache.Read("status-connector-c", Value(Status(State::kUnassigned, "w2", 10))),
            Outcome::kApplied);
  EXPECT_EQ(cache.Connector("c")->state, State::kUnassigned);
  // Only RUNNING protects.
  ASSERT_EQ(cache.Read("status-connector-c", Value(Status(State::kPaused, "w2", 11))),
            Outcome::kApplied);
  EXPECT_EQ(cache.Read("status-connector-c", Value(Status(State::kUnassigned, "w1", 1))),
            Outcome::kApplied);
}

TEST(StatusCacheTest, TombstonesAndInvalidRecords) {
  using worker::State;
  using Outcome = StatusCache::ReadOutcome;
  StatusCache cache;
  const std::string running = Value(Status(State::kRunning, "w", 1));
  ASSERT_EQ(cache.Read("status-connector-c", running), Outcome::kApplied);
  ASSERT_EQ(cache.Read("status-task-c-0", running), Outcome::kApplied);
  ASSERT_EQ(cache.Read("status-task-c-1", running), Outcome::kApplied);
  ASSERT_EQ(cache.Read("status-task-c-x-0", running), Outcome::kApplied);
  EXPECT_EQ(cache.Read("status-task-c-1", std::nullopt), Outcome::kRemoved);
  EXPECT_EQ(cache.Tasks("c").size(), 1u);
  EXPECT_EQ(cache.Read("status-connector-c", std::nullopt), Outcome::kRemoved);
  EXPECT_FALSE(cache.Connector("c").has_value());
  EXPECT_TRUE(cache.Tasks("c").empty());
  EXPECT_TRUE(cache.Connectors().empty());
  EXPECT_EQ(cache.Tasks("c-x").size(), 1u);  // another connector
  EXPECT_EQ(cache.Read("bogus", running), Outcome::kInvalidKey);
  EXPECT_EQ(cache.Read("status-task-c-0", "{\"state\":\"RUNNING\"}"), Outcome::kInvalidValue);
  EXPECT_FALSE(cache.Task({"c", 0}).has_value());
}

TEST(StatusCacheTest, TopicRecordsPerConnector) {
  using Outcome = StatusCache::ReadOutcome;
  StatusCache cache;
  const TopicStatusValue orders{"orders", "src", 2, 1700000000000};
  const StatusWrite w = cache.PutTopic(orders);
  EXPECT_EQ(w.key, "status-topic-orders:connector-src");
  ASSERT_TRUE(w.value.has_value());
  EXPECT_EQ(
      *w.value,
      R"({"topic":{"name":"orders","connector":"src","task":2,"discoverTimestamp":1700000000000}})");
  EXPECT_FALSE(cache.Topic("src", "orders").has_value());  // not until read back
  ASSERT_EQ(cache.Read(w.key, *w.value), Outcome::kApplied);
  EXPECT_EQ(cache.Topic("src", "orders"), orders);
  const StatusWrite del = cache.DeleteTopic("src", "orders");
  EXPECT_EQ(del.key, w.key);
  EXPECT_FALSE(del.value.has_value());
  EXPECT_TRUE(cache.ShouldRetry(del));  // topic writes always retry
  ASSERT_EQ(cache.Read(del.key, std::nullopt), Outcome::kRemoved);
  EXPECT_TRUE(cache.Topics("src").empty());
}

TEST(StatusCacheTest, RetryRules) {
  using worker::State;
  StatusCache cache;
  const herder::ConnectorTaskId t{"c", 0};
  auto first = cache.PutTask(t, Status(State::kRunning, "w1", 5), WriteMode::kNormal);
  ASSERT_TRUE(first.ok() && first->has_value());
  EXPECT_TRUE(cache.ShouldRetry(**first));
  // A safe write superseded by a later write to the entry is not retried.
  auto safe = cache.PutTask(t, Status(State::kFailed, "w1", 5), WriteMode::kSafe);
  ASSERT_TRUE(safe.ok() && safe->has_value());
  EXPECT_TRUE(cache.ShouldRetry(**safe));
  auto later = cache.PutTask(t, Status(State::kRunning, "w1", 5), WriteMode::kNormal);
  ASSERT_TRUE(later.ok() && later->has_value());
  EXPECT_FALSE(cache.ShouldRetry(**safe));
  EXPECT_TRUE(cache.ShouldRetry(**first));  // normal writes ignore the sequence
  // A newer generation stops retries of older writes.
  ASSERT_TRUE(cache.PutConnector("c", Status(State::kRunning, "w1", 6), WriteMode::kNormal).ok());
  EXPECT_FALSE(cache.ShouldRetry(**first));
  // A removed entry stops them too, even when re-created.
  auto again = cache.PutTask(t, Status(State::kRunning, "w1", 6), WriteMode::kNormal);
  ASSERT_TRUE(again.ok() && again->has_value());
  EXPECT_TRUE(cache.ShouldRetry(**again));
  cache.Read("status-task-c-0", std::nullopt);
  EXPECT_FALSE(cache.ShouldRetry(**again));
  ASSERT_TRUE(cache.PutTask(t, Status(State::kRunning, "w1", 6), WriteMode::kNormal).ok());
  EXPECT_FALSE(cache.ShouldRetry(**again));
}

TEST(PartitioningTest, Murmur2MatchesKafkaUtils) {
  int rows = 0;
  for (const auto& row : LoadStatusGolden("partitions.tsv")) {
    if (row[0] != "key") continue;
    ASSERT_EQ(row.size(), 6u);
    const std::string key = *FromHex(row[1]);
    SCOPED_TRACE(row[1]);
    ++rows;
    int32_t hash = 0, p1 = 0, p5 = 0, p25 = 0;
    ASSERT_TRUE(absl::SimpleAtoi(row[2], &hash));
    ASSERT_TRUE(absl::SimpleAtoi(row[3], &p1));
    ASSERT_TRUE(absl::SimpleAtoi(row[4], &p5));
    ASSERT_TRUE(absl::SimpleAtoi(row[5], &p25));
    EXPECT_EQ(Murmur2(key), hash);
    EXPECT_EQ(PartitionForKey(key, 1), p1);
    EXPECT_EQ(PartitionForKey(key, 5), p5);
    EXPECT_EQ(PartitionForKey(key, 25), p25);
  }
  EXPECT_GE(rows, 50);
}

}  // namespace
}  // namespace connectd::storage
