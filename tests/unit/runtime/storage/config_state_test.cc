// ConfigStateTracker: KafkaConfigBackingStore's reading rules (KafkaConfigBackingStore), one
// test per rule, each asserting the resulting ClusterConfigState and listener calls; and the
// write sequences of its put*/remove* methods.
#include "runtime/storage/config_state.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace connectd::storage {
namespace {

using herder::ConnectorTaskId;
using herder::TargetState;

class RecordingListener : public ConfigStateListener {
 public:
  void OnConnectorConfigRemove(const std::string& c) override { events.push_back("remove " + c); }
  void OnConnectorConfigUpdate(const std::string& c) override { events.push_back("update " + c); }
  void OnTaskConfigUpdate(const std::vector<ConnectorTaskId>& tasks) override {
    std::string e = "tasks";
    for (const auto& t : tasks) e += " " + t.connector + "-" + std::to_string(t.task);
    events.push_back(e);
  }
  void OnConnectorTargetStateChange(const std::string& c) override {
    events.push_back("target " + c);
  }
  void OnSessionKeyUpdate(const SessionKey& k) override {
    events.push_back("session " + k.algorithm + " " + std::to_string(k.creation_timestamp_ms));
  }
  void OnRestartRequest(const herder::RestartRequest& r) override {
    events.push_back("restart " + r.connector + (r.include_tasks ? " tasks" : "") +
                     (r.only_failed ? " failed" : ""));
  }
  void OnLoggingLevelUpdate(const std::string& ns, const std::string& level) override {
    events.push_back("logger " + ns + " " + level);
  }
  std::vector<std::string> events;
};

const ConfigProperties kConfig = {{"connector.class", "X"}, {"tasks.max", "2"}, {"name", "c"}};
const ConfigProperties kConfig2 = {{"connector.class", "X"}, {"tasks.max", "1"}, {"name", "c"}};
ConfigProperties TaskConf(int n) { return {{"task", std::to_string(n)}}; }

class ConfigStateTest : public ::testing::Test {
 protected:
  // Produce `records` at the next offsets, as a consumer would read them back.
  void Feed(const std::vector<ConfigTopicRecord>& records) {
    for (const auto& r : records) {
      absl::Status s = tracker_.Apply(next_offset_++, r.key, r.value);
      EXPECT_TRUE(s.ok()) << r.key << ": " << s;
    }
  }
  void Feed(const ConfigTopicRecord& r) { Feed(std::vector<ConfigTopicRecord>{r}); }
  void FeedTasks(std::string_view c, int n) {
    std::vector<ConfigProperties> configs;
    for (int i = 0; i < n; ++i) configs.push_back(TaskConf(i));
    TaskConfigsWrite w = TaskConfigsWriteFor(c, configs);
    Feed(w.task_records);
    Feed(w.commit);
  }
  absl::Status Raw(std::string_view key, std::optional<std::string_view> value) {
    return tracker_.Apply(next_offset_++, key, value);
  }
  const ClusterConfigState& S() { return tracker_.state(); }

  RecordingListener listener_;
  ConfigStateTracker tracker_{&listener_};
  int64_t next_offset_ = 0;
};

TEST_F(ConfigStateTest, EmptyState) {
  EXPECT_EQ(S().offset(), ClusterConfigState::kNoOffset);
  EXPECT_TRUE(S().Connectors().empty());
  EXPECT_FALSE(S().session_key().has_value());
  EXPECT_EQ(S().TaskCount("c"), 0);
  EXPECT_FALSE(S().TargetState("c").has_value());
}

TEST_F(ConfigStateTest, OffsetIsLastConsumedPlusOneExceptForUnconvertibleValues) {
  next_offset_ = 41;
  Feed(ConnectorConfigWrite("c", kConfig));
  EXPECT_EQ(S().offset(), 42);
  // Unknown key: dropped, but the offset advances.
  EXPECT_TRUE(absl::IsInvalidArgument(Raw("bogus-key", "{}")));
  EXPECT_EQ(S().offset(), 43);
  // Not JSON: skipped without advancing the offset.
  EXPECT_TRUE(absl::IsDataLoss(Raw("connector-c", "{not json")));
  EXPECT_EQ(S().offset(), 43);
  EXPECT_EQ(*S().RawConnectorConfig("c"), kConfig);
  // An ignored record (wrong shape) still advances it.
  EXPECT_TRUE(absl::IsInvalidArgument(Raw("connector-c", "[1]")));  // offset 44
  EXPECT_EQ(S().offset(), 45);
}

TEST_F(ConfigStateTest, ConnectorConfigAppliedAtOnceWithDefaultTargetState) {
  Feed(ConnectorConfigWrite("c", kConfig));
  EXPECT_TRUE(S().Contains("c"));
  EXPECT_EQ(S().Connectors(), std::vector<std::string>{"c"});
  EXPECT_EQ(*S().RawConnectorConfig("c"), kConfig);
  EXPECT_EQ(S().TargetState("c"), TargetState::kStarted);
  EXPECT_TRUE(S().Tasks("c").empty());
  EXPECT_EQ(S().AppliedConnectorConfig("c"), nullptr);
  // An update keeps a known target state.
  Feed(TargetStateWrite("c", TargetState::kPaused));
  Feed(ConnectorConfigWrite("c", kConfig2));
  EXPECT_EQ(*S().RawConnectorConfig("c"), kConfig2);
  EXPECT_EQ(S().TargetState("c"), TargetState::kPaused);
}

TEST_F(ConfigStateTest, InitialTargetStateWrittenBeforeConfig) {
  tracker_.MarkStarted();
  Feed(ConnectorConfigWrite("c", kConfig, TargetState::kStopped));
  EXPECT_EQ(S().TargetState("c"), TargetState::kStopped);
  // No target-state call: the connector did not exist when the state was read.
  EXPECT_EQ(listener_.events, std::vector<std::string>{"update c"});
}

TEST_F(ConfigStateTest, TaskConfigsDeferredUntilCommit) {
  Feed(ConnectorConfigWrite("c", kConfig));
  TaskConfigsWrite w = TaskConfigsWriteFor("c", {TaskConf(0), TaskConf(1)});
  Feed(w.task_records);
  EXPECT_EQ(S().TaskCount("c"), 0);
  EXPECT_EQ(S().RawTaskConfig({"c", 0}), nullptr);
  EXPECT_EQ(tracker_.DeferredTaskConfigs("c").size(), 2u);
  Feed(w.commit);
  EXPECT_EQ(S().TaskCount("c"), 2);
  EXPECT_EQ(S().Tasks("c"), (std::vector<ConnectorTaskId>{{"c", 0}, {"c", 1}}));
  EXPECT_EQ(*S().RawTaskConfig({"c", 1}), TaskConf(1));
  EXPECT_EQ(S().TaskConfigGeneration("c"), 0);
  EXPECT_EQ(*S().AppliedConnectorConfig("c"), kConfig);
  EXPECT_TRUE(S().PendingFencing("c"));
  EXPECT_TRUE(S().InconsistentConnectors().empty());
  EXPECT_TRUE(tracker_.DeferredTaskConfigs("c").empty());
  // A second complete commit bumps the generation; the applied config follows the config.
  Feed(ConnectorConfigWrite("c", kConfig2));
  FeedTasks("c", 1);
  EXPECT_EQ(S().TaskConfigGeneration("c"), 1);
  EXPECT_EQ(S().TaskCount("c"), 1);
  EXPECT_EQ(*S().AppliedConnectorConfig("c"), kConfig2);
  // Task 1's old committed config stays (Java never removes committed task configs on shrink).
  EXPECT_EQ(*S().RawTaskConfig({"c", 1}), TaskConf(1));
  EXPECT_EQ(S().Tasks("c"), (std::vector<ConnectorTaskId>{{"c", 0}}));
}

TEST_F(ConfigStateTest, CommitWithExtraDeferredIdsIsComplete) {
  Feed(ConnectorConfigWrite("c", kConfig));
  Feed({{TaskConfigKey({"c", 2}), EncodeTaskConfig(TaskConf(2))},
        {TaskConfigKey({"c", 0}), EncodeTaskConfig(TaskConf(0))},
        {CommitTasksKey("c"), EncodeTasksCommit(1)}});
  EXPECT_TRUE(S().InconsistentConnectors().empty());
  EXPECT_EQ(S().Tasks("c"), (std::vector<ConnectorTaskId>{{"c", 0}}));
  EXPECT_EQ(*S().RawTaskConfig({"c", 2}), TaskConf(2));  // applied with the rest
}

TEST_F(ConfigStateTest, IncompleteCommitMarksInconsistentUntilACompleteOne) {
  Feed(ConnectorConfigWrite("c", kConfig));
  tracker_.MarkStarted();
  // Compaction removed task-c-0: the commit of 2 is incomplete.
  Feed({{TaskConfigKey({"c", 1}), EncodeTaskConfig(TaskConf(1))},
        {CommitTasksKey("c"), EncodeTasksCommit(2)}});
  EXPECT_EQ(S().InconsistentConnectors(), (std::set<std::string, std::less<>>{"c"}));
  EXPECT_TRUE(S().Tasks("c").empty());
  EXPECT_EQ(S().TaskCount("c"), 2);
  EXPECT_EQ(S().RawTaskConfig({"c", 1}), nullptr);
  EXPECT_FALSE(S().TaskConfigGeneration("c").has_value());
  EXPECT_EQ(S().AppliedConnectorConfig("c"), nullptr);
  EXPECT_TRUE(S().PendingFencing("c"));
  EXPECT_TRUE(tracker_.DeferredTaskConfigs("c").empty());  // dropped either way
  // The leader regenerates: a complete commit clears the mark.
  FeedTasks("c", 2);
  EXPECT_TRUE(S().InconsistentConnectors().empty());
  EXPECT_EQ(S().Tasks("c").size(), 2u);
  EXPECT_EQ(S().TaskConfigGeneration("c"), 0);
  EXPECT_EQ(listener_.events, (std::vector<std::string>{"tasks", "tasks c-0 c-1"}));
}

TEST_F(ConfigStateTest, CommitOfZeroTasksWithoutDeferredConfigs) {
  Feed(ConnectorConfigWrite("c", kConfig));
  FeedTasks("c", 2);
  tracker_.MarkStarted();
  StopConnectorWrite stop = StopConnectorWriteFor("c");
  Feed(stop.task_configs.task_records);
  Feed(stop.task_configs.commit);
  Feed(stop.target_state);
  EXPECT_EQ(S().TaskCount("c"), 0);
  EXPECT_TRUE(S().Tasks("c").empty());
  EXPECT_TRUE(S().InconsistentConnectors().empty());
  // Java keeps the emptied deferred map of "c", so even this commit counts as a generation.
  EXPECT_EQ(S().TaskConfigGeneration("c"), 1);
  EXPECT_EQ(S().TargetState("c"), TargetState::kStopped);
  EXPECT_EQ(listener_.events, (std::vector<std::string>{"tasks", "target c"}));
}

TEST_F(ConfigStateTest, CommitWithoutAnyTaskConfigsHasNoGeneration) {
  Feed(ConnectorConfigWrite("c", kConfig));
  Feed(TaskConfigsWriteFor("c", {}).commit);
  EXPECT_EQ(S().TaskCount("c"), 0);
  EXPECT_FALSE(S().TaskConfigGeneration("c").has_value());
  EXPECT_EQ(*S().AppliedConnectorConfig("c"), kConfig);
  EXPECT_TRUE(S().PendingFencing("c"));
  // Removal drops the deferred map, so after re-creation a 0-task commit again has none.
  FeedTasks("c", 1);
  EXPECT_EQ(S().TaskConfigGeneration("c"), 0);
  Feed(ConfigTopicRecord{ConnectorConfigKey("c"), std::nullopt});
  Feed(ConnectorConfigWrite("c", kConfig));
  Feed(TaskConfigsWriteFor("c", {}).commit);
  EXPECT_EQ(S().TaskConfigGeneration("c"), 0);  // unchanged, still the old generation
}

TEST_F(ConfigStateTest, CommitForUnknownConnectorDropsItsTaskData) {
  tracker_.MarkStarted();
  Feed({{TaskConfigKey({"gone", 0}), EncodeTaskConfig(TaskConf(0))},
        {CommitTasksKey("gone"), EncodeTasksCommit(1)}});
  EXPECT_FALSE(S().Contains("gone"));
  EXPECT_EQ(S().TaskCount("gone"), 0);
  EXPECT_EQ(S().RawTaskConfig({"gone", 0}), nullptr);
  EXPECT_TRUE(tracker_.DeferredTaskConfigs("gone").empty());
  EXPECT_FALSE(S().PendingFencing("gone"));
  EXPECT_TRUE(listener_.events.empty());
}

TEST_F(ConfigStateTest, CommitWithNonIntegerCountIsIgnored) {
  Feed(ConnectorConfigWrite("c", kConfig));
  Feed(TaskConfigsWriteFor("c", {TaskConf(0)}).task_records);
  EXPECT_TRUE(absl::IsInvalidArgument(Raw("commit-c", R"({"tasks":"1"})")));
  EXPECT_EQ(S().TaskCount("c"), 0);
  EXPECT_FALSE(S().PendingFencing("c"));
  EXPECT_EQ(tracker_.DeferredTaskConfigs("c").size(), 1u);  // still waiting
  // A long count is accepted (and truncated as Java's intValue does).
  EXPECT_TRUE(Raw("commit-c", R"({"tasks":1})").ok());
  EXPECT_EQ(S().TaskCount("c"), 1);
}

TEST_F(ConfigStateTest, ConnectorTombstoneRemovesConfigAndTasksButNotTargetStateOrFencing) {
  Feed(ConnectorConfigWrite("c", kConfig));
  FeedTasks("c", 2);
  Feed(TaskCountRecordWrite("c", 2));
  Feed(TaskConfigsWriteFor("c", {TaskConf(0)}).task_records);  // deferred, never committed
  Feed(ConfigTopicRecord{ConnectorConfigKey("c"), std::nullopt});
  EXPECT_FALSE(S().Contains("c"));
  EXPECT_EQ(S().TaskCount("c"), 0);
  EXPECT_EQ(S().RawTaskConfig({"c", 0}), nullptr);
  EXPECT_EQ(S().AppliedConnectorConfig("c"), nullptr);
  EXPECT_TRUE(tracker_.DeferredTaskConfigs("c").empty());
  // Kept, as in Java, until their own records say otherwise.
  EXPECT_EQ(S().TargetState("c"), TargetState::kStarted);
  EXPECT_EQ(S().TaskCountRecord("c"), 2);
  EXPECT_EQ(S().TaskConfigGeneration("c"), 0);
}

TEST_F(ConfigStateTest, DeleteWriteSequence) {
  Feed(ConnectorConfigWrite("c", kConfig, TargetState::kPaused));
  tracker_.MarkStarted();
  Feed(RemoveConnectorWrite("c"));
  EXPECT_FALSE(S().Contains("c"));
  EXPECT_FALSE(S().TargetState("c").has_value());
  EXPECT_EQ(listener_.events, std::vector<std::string>{"remove c"});
}

TEST_F(ConfigStateTest, TargetStateTombstoneRestoresStartedForExistingConnector) {
  Feed(ConnectorConfigWrite("c", kConfig, TargetState::kPaused));
  tracker_.MarkStarted();
  Feed(ConfigTopicRecord{TargetStateKey("c"), std::nullopt});
  EXPECT_EQ(S().TargetState("c"), TargetState::kStarted);
  EXPECT_TRUE(listener_.events.empty());  // tombstones are not reported
  Feed(ConfigTopicRecord{TargetStateKey("other"), std::nullopt});
  EXPECT_FALSE(S().TargetState("other").has_value());
}

TEST_F(ConfigStateTest, TargetStateChangesReportedOnlyWhenChangedForExistingConnector) {
  Feed(ConnectorConfigWrite("c", kConfig));
  Feed(TargetStateWrite("c", TargetState::kPaused));  // before start: not reported
  tracker_.MarkStarted();
  Feed(TargetStateWrite("c", TargetState::kPaused));  // unchanged
  Feed(TargetStateWrite("c", TargetState::kStopped));
  Feed(TargetStateWrite("later", TargetState::kPaused));  // no such connector yet
  EXPECT_EQ(S().TargetState("later"), TargetState::kPaused);
  EXPECT_FALSE(S().Contains("later"));
  EXPECT_EQ(listener_.events, std::vector<std::string>{"target c"});
  // An old worker's v0 record; an invalid record is ignored.
  EXPECT_TRUE(Raw("target-state-c", R"({"state":"STARTED"})").ok());
  EXPECT_EQ(S().TargetState("c"), TargetState::kStarted);
  EXPECT_TRUE(absl::IsInvalidArgument(Raw("target-state-c", R"({"state":"BOGUS"})")));
  EXPECT_EQ(S().TargetState("c"), TargetState::kStarted);
}

TEST_F(ConfigStateTest, ListenersOnlyAfterStart) {
  Feed(ConnectorConfigWrite("c", kConfig));
  FeedTasks("c", 1);
  Feed(SessionKeyWrite({"k", "HmacSHA256", 1}));
  Feed(ConfigTopicRecord{ConnectorConfigKey("x"), std::nullopt});
  EXPECT_TRUE(listener_.events.empty());
  tracker_.MarkStarted();
  Feed(ConnectorConfigWrite("c", kConfig2));
  FeedTasks("c", 1);
  Feed(ConfigTopicRecord{ConnectorConfigKey("x"), std::nullopt});
  EXPECT_EQ(listener_.events, (std::vector<std::string>{"update c", "tasks c-0", "remove x"}));
}

TEST_F(ConfigStateTest, RestartAndLoggerRecordsOnlyActAfterStart) {
  Feed(RestartRequestWrite({"c", true, true}));
  Feed(LoggerLevelWrite("org.apache", "DEBUG"));
  EXPECT_TRUE(listener_.events.empty());
  tracker_.MarkStarted();
  Feed(RestartRequestWrite({"c", /*only_failed=*/true, /*include_tasks=*/false}));
  Feed(LoggerLevelWrite("org.apache", "TRACE"));
  EXPECT_EQ(listener_.events,
            (std::vector<std::string>{"restart c failed", "logger org.apache TRACE"}));
  EXPECT_EQ(S().offset(), 4);
}

TEST_F(ConfigStateTest, TaskCountRecordClearsPendingFencing) {
  Feed(ConnectorConfigWrite("c", kConfig));
  FeedTasks("c", 2);
  EXPECT_TRUE(S().PendingFencing("c"));
  EXPECT_FALSE(S().TaskCountRecord("c").has_value());
  Feed(TaskCountRecordWrite("c", 2));
  EXPECT_FALSE(S().PendingFencing("c"));
  EXPECT_EQ(S().TaskCountRecord("c"), 2);
  FeedTasks("c", 3);  // new task configs after the record: fencing needed again
  EXPECT_TRUE(S().PendingFencing("c"));
  EXPECT_EQ(S().TaskCountRecord("c"), 2);
}

TEST_F(ConfigStateTest, SessionKeyReplacedAndReported) {
  Feed(SessionKeyWrite({"old", "HmacSHA256", 1}));
  tracker_.MarkStarted();
  Feed(SessionKeyWrite({"new", "HmacSHA512", 2}));
  ASSERT_TRUE(S().session_key().has_value());
  EXPECT_EQ(*S().session_key(), (SessionKey{"new", "HmacSHA512", 2}));
  EXPECT_EQ(listener_.events, std::vector<std::string>{"session HmacSHA512 2"});
  // Invalid records leave the key alone.
  EXPECT_TRUE(absl::IsInvalidArgument(Raw("session-key", std::nullopt)));
  EXPECT_TRUE(absl::IsInvalidArgument(
      Raw("session-key", R"({"key":"AQ==","algorithm":"A","creation-timestamp":1.5})")));
  EXPECT_EQ(S().session_key()->key, "new");
}

TEST_F(ConfigStateTest, SnapshotIsAnIndependentCopy) {
  Feed(ConnectorConfigWrite("c", kConfig));
  ClusterConfigState snapshot = tracker_.Snapshot();
  Feed(ConfigTopicRecord{ConnectorConfigKey("c"), std::nullopt});
  EXPECT_TRUE(snapshot.Contains("c"));
  EXPECT_EQ(snapshot.offset(), 1);
  EXPECT_FALSE(S().Contains("c"));
  EXPECT_EQ(S().offset(), 2);
}

TEST_F(ConfigStateTest, TaskConfigForMalformedKeyIgnored) {
  Feed(ConnectorConfigWrite("c", kConfig));
  EXPECT_TRUE(absl::IsInvalidArgument(Raw("task-c-x", EncodeTaskConfig(TaskConf(0)))));
  EXPECT_TRUE(absl::IsInvalidArgument(Raw("task-c-0", std::nullopt)));
  EXPECT_TRUE(tracker_.DeferredTaskConfigs("c").empty());
  EXPECT_EQ(S().offset(), 3);
}

// ---- Write sequences -----------------------------------------------------------------------

TEST(ConfigWriteSequenceTest, CreateWithAndWithoutInitialState) {
  EXPECT_EQ(ConnectorConfigWrite("c", {{"a", "b"}}),
            (std::vector<ConfigTopicRecord>{{"connector-c", R"({"properties":{"a":"b"}})"}}));
  EXPECT_EQ(ConnectorConfigWrite("c", {{"a", "b"}}, TargetState::kStopped),
            (std::vector<ConfigTopicRecord>{
                {"target-state-c", R"({"state":"PAUSED","state.v2":"STOPPED"})"},
                {"connector-c", R"({"properties":{"a":"b"}})"}}));
}

TEST(ConfigWriteSequenceTest, TaskConfigsThenCommit) {
  TaskConfigsWrite w = TaskConfigsWriteFor("my-c", {{{"t", "0"}}, {{"t", "1"}}});
  EXPECT_EQ(w.task_records,
            (std::vector<ConfigTopicRecord>{{"task-my-c-0", R"({"properties":{"t":"0"}})"},
                                            {"task-my-c-1", R"({"properties":{"t":"1"}})"}}));
  EXPECT_EQ(w.commit, (ConfigTopicRecord{"commit-my-c", R"({"tasks":2})"}));
}

TEST(ConfigWriteSequenceTest, StopAndDelete) {
  StopConnectorWrite stop = StopConnectorWriteFor("c");
  EXPECT_TRUE(stop.task_configs.task_records.empty());
  EXPECT_EQ(stop.task_configs.commit, (ConfigTopicRecord{"commit-c", R"({"tasks":0})"}));
  EXPECT_EQ(stop.target_state,
            (ConfigTopicRecord{"target-state-c", R"({"state":"PAUSED","state.v2":"STOPPED"})"}));
  EXPECT_EQ(RemoveConnectorWrite("c"),
            (std::vector<ConfigTopicRecord>{{"connector-c", std::nullopt},
                                            {"target-state-c", std::nullopt}}));
}

TEST(ConfigWriteSequenceTest, SingleRecords) {
  EXPECT_EQ(
      RestartRequestWrite({"c", true, false}),
      (ConfigTopicRecord{"restart-connector-c", R"({"include-tasks":false,"only-failed":true})"}));
  EXPECT_EQ(TaskCountRecordWrite("c", 4),
            (ConfigTopicRecord{"tasks-fencing-c", R"({"task-count":4})"}));
  EXPECT_EQ(
      SessionKeyWrite({"\x01", "HmacSHA256", 9}),
      (ConfigTopicRecord{"session-key",
                         R"({"key":"AQ==","algorithm":"HmacSHA256","creation-timestamp":9})"}));
  EXPECT_EQ(LoggerLevelWrite("org.x", "INFO"),
            (ConfigTopicRecord{"logger-cluster-org.x", R"({"level":"INFO"})"}));
}

}  // namespace
}  // namespace connectd::storage
