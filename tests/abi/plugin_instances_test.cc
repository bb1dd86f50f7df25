// Calling plugins through the host wrappers: lifecycle, records, offsets, errors as Status,
// exceptions contained by the SDK, and the zero-copy release contract.
#include "runtime/plugin/plugin_instances.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace connectd::plugin {
namespace {

using ::testing::HasSubstr;

// The registry the fake contexts publish sensors to.
metrics::MetricsRegistry& TestRegistry() {
  static metrics::MetricsRegistry registry;
  return registry;
}

class FakeSourceContext : public SourceTaskContextHost {
 public:
  metrics::MetricsScope scope{&TestRegistry()};
  metrics::MetricsScope* Metrics() override { return &scope; }
  std::map<std::string, std::string> offsets;
  std::optional<std::string> Offset(std::string_view partition) override {
    auto it = offsets.find(std::string(partition));
    if (it == offsets.end()) return std::nullopt;
    return it->second;
  }
};

class FakeConnectorContext : public ConnectorContextHost {
 public:
  void RequestTaskReconfiguration() override { ++reconfigurations; }
  void RaiseError(std::string message) override { errors.push_back(std::move(message)); }
  metrics::MetricsScope* Metrics() override { return &scope; }
  metrics::MetricsScope scope{&TestRegistry()};
  int reconfigurations = 0;
  std::vector<std::string> errors;
};

// Keeps every appended record's value; holds zero-copy records until Release().
class FakeBatch : public SourceBatchHost {
 public:
  connectd_status Append(const connectd_source_record& r) override {
    keys.emplace_back(static_cast<const char*>(r.key.data), r.key.size);
    values.emplace_back(static_cast<const char*>(r.value.data), r.value.size);
    offsets.emplace_back(r.source_offset.data, r.source_offset.size);
    if (r.release != nullptr) pending.push_back({r.release, r.release_opaque});
    return CONNECTD_STATUS_OK;
  }
  void Release() {
    for (auto& [release, opaque] : pending) release(opaque);
    released += pending.size();
    pending.clear();
  }
  std::vector<std::string> keys, values, offsets;
  std::vector<std::pair<void (*)(void*), void*>> pending;
  size_t released = 0;
};

class PluginInstancesTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    registry_ = new PluginRegistry();
    registry_->LoadPluginPath(std::string(CONNECTD_TEST_PLUGIN_DIR) + "/good");
  }
  const ConnectorPlugin& Plugin(const std::string& name) {
    const ConnectorPlugin* plugin = registry_->Find(name);
    EXPECT_NE(plugin, nullptr) << name;
    return *plugin;
  }
  static PluginRegistry* registry_;
};
PluginRegistry* PluginInstancesTest::registry_ = nullptr;

TEST_F(PluginInstancesTest, ConnectorLifecycleAndTaskConfigs) {
  FakeConnectorContext context;
  auto connector = ConnectorInstance::Create(Plugin("VerifiableSource"), &context);
  ASSERT_TRUE(connector.ok()) << connector.status();
  const Props config{
      {"name", "v"},
      {"connector.class", "org.apache.kafka.connect.tools.VerifiableSourceConnector"},
      {"tasks.max", "3"},
      {"topic", "t"},
      {"throughput", "5"}};
  ASSERT_TRUE((*connector)->Start(config).ok());
  auto configs = (*connector)->TaskConfigs(3);
  ASSERT_TRUE(configs.ok()) << configs.status();
  ASSERT_EQ(configs->size(), 3u);
  // Java's VerifiableSourceConnector: the connector config plus "id", nothing else.
  for (int i = 0; i < 3; ++i) {
    Props want = config;
    want["id"] = std::to_string(i);
    EXPECT_EQ((*configs)[static_cast<size_t>(i)], want);
  }
  EXPECT_TRUE((*connector)->Stop().ok());
}

TEST_F(PluginInstancesTest, SourceTaskResumesFromItsStoredOffset) {
  FakeSourceContext context;
  context.offsets["{\"id\":0}"] = "{\"seqno\":41}";
  auto task = SourceTaskInstance::Create(Plugin("VerifiableSource"), &context);
  ASSERT_TRUE(task.ok()) << task.status();
  ASSERT_TRUE((*task)->Start({{"topic", "t"}, {"id", "0"}, {"max.records", "45"}}).ok());
  FakeBatch batch;
  ASSERT_TRUE((*task)->Poll(100, &batch).ok());
  ASSERT_EQ(batch.values.size(), 3u);
  // Java's record through the StringConverter: key the task id (INT32), value the seqno (INT64).
  EXPECT_EQ(batch.keys, (std::vector<std::string>{"0", "0", "0"}));
  EXPECT_EQ(batch.values, (std::vector<std::string>{"42", "43", "44"}));
  EXPECT_EQ(batch.offsets[2], "{\"seqno\":44}");
}

TEST_F(PluginInstancesTest, VerifiableSourceNeedsANumericIdAndThroughput) {
  for (const Props& bad : {Props{{"topic", "t"}}, Props{{"topic", "t"}, {"id", "x"}},
                           Props{{"topic", "t"}, {"id", "1"}, {"throughput", "10/s"}}}) {
    FakeSourceContext context;
    auto task = SourceTaskInstance::Create(Plugin("VerifiableSource"), &context);
    ASSERT_TRUE(task.ok());
    absl::Status started = (*task)->Start(bad);
    EXPECT_FALSE(started.ok());
    EXPECT_THAT(started.message(), HasSubstr("Invalid VerifiableSourceTask configuration"));
  }
}

TEST_F(PluginInstancesTest, VerifiableSourceHonoursThroughput) {
  FakeSourceContext context;
  auto task = SourceTaskInstance::Create(Plugin("VerifiableSource"), &context);
  ASSERT_TRUE(task.ok());
  ASSERT_TRUE((*task)->Start({{"topic", "t"}, {"id", "3"}, {"throughput", "20"}}).ok());
  const auto start = std::chrono::steady_clock::now();
  FakeBatch batch;
  while (std::chrono::steady_clock::now() - start < std::chrono::milliseconds(300)) {
    ASSERT_TRUE((*task)->Poll(100, &batch).ok());
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // 20 records/s from the first: at most 1 + 20 * elapsed, never a flood.
  EXPECT_GE(batch.values.size(), 2u);
  EXPECT_LE(static_cast<double>(batch.values.size()), 1 + 20 * seconds + 1);
  for (size_t i = 0; i < batch.values.size(); ++i) EXPECT_EQ(batch.values[i], std::to_string(i));
  EXPECT_EQ(batch.keys.front(), "3");
}

TEST_F(PluginInstancesTest, VerifiableSourceAtThroughputZeroWritesNothingAndStopWakesIt) {
  FakeSourceContext context;
  auto task = SourceTaskInstance::Create(Plugin("VerifiableSource"), &context);
  ASSERT_TRUE(task.ok());
  ASSERT_TRUE((*task)->Start({{"topic", "t"}, {"id", "0"}, {"throughput", "0"}}).ok());
  FakeBatch batch;
  ASSERT_TRUE((*task)->Poll(30, &batch).ok());
  EXPECT_TRUE(batch.values.empty());
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    (*task)->Stop();
  });
  const auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE((*task)->Poll(5000, &batch).ok());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  EXPECT_TRUE(batch.values.empty());
  stopper.join();
}

// The value of metric `name` of the VerifiableSource task `task`, if published.
std::optional<double> TestMetric(const std::string& name, const std::string& task) {
  for (const metrics::MetricValue& m : TestRegistry().Snapshot(metrics::NowMs())) {
    if (m.name.domain == "connectd.test" && m.name.group == "VerifiableSourceTask" &&
        m.name.name == name && m.name.tags == metrics::Tags{{"task", task}}) {
      return m.value;
    }
  }
  return std::nullopt;
}

TEST_F(PluginInstancesTest, PluginSensorsArePublishedUntilTheTaskContextEnds) {
  {
    FakeSourceContext context;
    auto task = SourceTaskInstance::Create(Plugin("VerifiableSource"), &context);
    ASSERT_TRUE(task.ok()) << task.status();
    ASSERT_TRUE((*task)->Start({{"topic", "t"}, {"id", "7"}, {"max.records", "150"}}).ok());
    FakeBatch batch;
    ASSERT_TRUE((*task)->Poll(100, &batch).ok());
    ASSERT_TRUE((*task)->Poll(100, &batch).ok());
    ASSERT_EQ(batch.values.size(), 150u);
    EXPECT_EQ(TestMetric("record-count", "7"), 150.0);
    EXPECT_EQ(TestMetric("batch-size-max", "7"), 100.0);
    // A DEBUG stat (ABI 1.6) is recorded and readable in process, but not served at INFO.
    EXPECT_EQ(TestMetric("poll-count", "7"), std::nullopt);
    std::optional<double> polls;
    for (const metrics::MetricValue& m :
         TestRegistry().Snapshot(metrics::NowMs(), "connectd.test", "VerifiableSourceTask")) {
      if (m.name.name == "poll-count" && m.name.tags == metrics::Tags{{"task", "7"}}) {
        EXPECT_EQ(m.level, metrics::RecordingLevel::kDebug);
        polls = m.value;
      }
    }
    EXPECT_EQ(polls, 2.0);
  }
  EXPECT_EQ(TestMetric("record-count", "7"), std::nullopt) << "a dead task's metrics disappear";
}

TEST_F(PluginInstancesTest, ExceptionsBecomeStatusesWithTheirMessage) {
  FakeSourceContext context;
  auto task = SourceTaskInstance::Create(Plugin("ThrowingSource"), &context);
  ASSERT_TRUE(task.ok());
  ASSERT_TRUE((*task)->Start({{"retriable.first", "1"}}).ok());
  FakeBatch batch;
  absl::Status first = (*task)->Poll(10, &batch);
  EXPECT_EQ(first.code(), absl::StatusCode::kUnavailable);  // RetriableException
  EXPECT_EQ(first.message(), "try again");
  absl::Status second = (*task)->Poll(10, &batch);
  EXPECT_EQ(second.code(), absl::StatusCode::kInternal);
  EXPECT_EQ(second.message(), "poll exploded");

  FakeConnectorContext connector_context;
  auto connector = ConnectorInstance::Create(Plugin("ThrowingSource"), &connector_context);
  ASSERT_TRUE(connector.ok());
  absl::Status start = (*connector)->Start({{"fail.start", "1"}});
  EXPECT_EQ(start.code(), absl::StatusCode::kInternal);
  EXPECT_EQ(start.message(), "start refused");
}

TEST_F(PluginInstancesTest, OlderMinorPluginWorks) {
  FakeConnectorContext connector_context;
  auto connector = ConnectorInstance::Create(Plugin("OlderMinorSource"), &connector_context);
  ASSERT_TRUE(connector.ok());
  ASSERT_TRUE((*connector)->Start({}).ok());
  auto configs = (*connector)->TaskConfigs(1);
  ASSERT_TRUE(configs.ok());
  EXPECT_EQ(configs->at(0).at("written.in"), "C");
  FakeSourceContext context;
  auto task = SourceTaskInstance::Create(Plugin("OlderMinorSource"), &context);
  ASSERT_TRUE(task.ok());
  FakeBatch batch;
  ASSERT_TRUE((*task)->Poll(10, &batch).ok());
  EXPECT_EQ(batch.values.at(0), "c-record");
}

// A host that copies batches (ABI 1.7): keeps the request the plugin made.
class BatchCopyingContext : public FakeSourceContext {
 public:
  absl::Status CopyBatches(const connectd_batch_copy_request& request) override {
    for (size_t i = 0; i < request.source_client.count; ++i) {
      client[std::string(request.source_client.items[i].key.data,
                         request.source_client.items[i].key.size)] =
          std::string(request.source_client.items[i].value.data,
                      request.source_client.items[i].value.size);
    }
    auto str = [](connectd_str s) { return std::string(s.data, s.size); };
    for (size_t i = 0; i < request.partition_count; ++i) {
      const connectd_batch_copy_partition& p = request.partitions[i];
      partitions.push_back(str(p.source_topic) + "-" + std::to_string(p.partition) + "->" +
                           str(p.target_topic) + "@" + std::to_string(p.start_offset) + " " +
                           str(p.source_partition) + " " + str(p.offset_prefix) + "N" +
                           str(p.offset_suffix));
    }
    return absl::OkStatus();
  }
  std::map<std::string, std::string> client;
  std::vector<std::string> partitions;
};

TEST_F(PluginInstancesTest, BatchPassThroughCrossesAbi17BothWays) {
  // A host that does not copy batches: the plugin hears why and copies records itself.
  FakeSourceContext refusing;
  auto refused = SourceTaskInstance::Create(Plugin("BatchHandingSource"), &refusing);
  ASSERT_TRUE(refused.ok()) << refused.status();
  ASSERT_TRUE((*refused)->Start({}).ok());
  FakeBatch notes;
  ASSERT_TRUE((*refused)->Poll(10, &notes).ok());
  EXPECT_THAT(notes.values, ::testing::ElementsAre("refused: this host does not copy record batches"));

  BatchCopyingContext copying;
  auto task = SourceTaskInstance::Create(Plugin("BatchHandingSource"), &copying);
  ASSERT_TRUE(task.ok()) << task.status();
  EXPECT_TRUE((*task)->has_batch_copy_event());
  ASSERT_TRUE((*task)->Start({{"source.bootstrap", "a:9092"}}).ok());
  EXPECT_EQ(copying.client, (std::map<std::string, std::string>{{"bootstrap.servers", "a:9092"}}));
  EXPECT_THAT(copying.partitions, ::testing::ElementsAre("src-0->dst@7 {\"p\":0} {\"o\":N}"));
  const std::string reason = "LogAppendTime timestamps";
  const connectd_batch_copy_event acked{sizeof(connectd_batch_copy_event),
                                        CONNECTD_BATCH_COPY_ACKED, {"src", 3}, 0, {"dst", 3},
                                        108, 200, 7, 107, 101, 5000, 4096, 1700000000000, 0,
                                        {nullptr, 0}, -1, 0};
  const connectd_batch_copy_event returned{sizeof(connectd_batch_copy_event),
                                           CONNECTD_BATCH_COPY_RETURNED, {"src", 3}, 0,
                                           {"dst", 3}, 108, 200, -1, -1, 0, -1, 0, -1, 0,
                                           {reason.data(), reason.size()}, -1, 0};
  ASSERT_TRUE((*task)->BatchCopyEvent(acked).ok());
  ASSERT_TRUE((*task)->BatchCopyEvent(returned).ok());
  FakeBatch events;
  ASSERT_TRUE((*task)->Poll(10, &events).ok());
  EXPECT_THAT(events.values,
              ::testing::ElementsAre(
                  "accepted",
                  "event 0 src-0->dst position=108 end=200 upstream=7..107 count=101 base=5000 "
                  "bytes=4096 ts=1700000000000 code=0 reason= again=-1",
                  "event 2 src-0->dst position=108 end=200 upstream=-1..-1 count=0 base=-1 "
                  "bytes=0 ts=-1 code=0 reason=LogAppendTime timestamps again=-1"));

  // A plugin built before 1.7 has no batch_copy_event: the host never hands it any.
  FakeSourceContext context;
  auto older = SourceTaskInstance::Create(Plugin("OlderMinorSource"), &context);
  ASSERT_TRUE(older.ok());
  EXPECT_FALSE((*older)->has_batch_copy_event());
  EXPECT_TRUE((*older)->BatchCopyEvent(acked).ok());
}

TEST_F(PluginInstancesTest, ExactlyOnceSupportAnswersThroughAbi14) {
  FakeConnectorContext context;
  auto noop = ConnectorInstance::Create(Plugin("NoopSource"), &context);
  ASSERT_TRUE(noop.ok());
  EXPECT_EQ(*(*noop)->ExactlyOnceSupport({{"exactly.once.answer", "supported"}}),
            CONNECTD_EXACTLY_ONCE_SUPPORT_SUPPORTED);
  EXPECT_EQ(*(*noop)->ExactlyOnceSupport({{"exactly.once.answer", "unsupported"}}),
            CONNECTD_EXACTLY_ONCE_SUPPORT_UNSUPPORTED);
  EXPECT_EQ(*(*noop)->ExactlyOnceSupport({}), CONNECTD_EXACTLY_ONCE_SUPPORT_NONE);
  absl::StatusOr<int32_t> failed = (*noop)->ExactlyOnceSupport({{"exactly.once.answer", "throw"}});
  ASSERT_FALSE(failed.ok());
  EXPECT_THAT(std::string(failed.status().message()), HasSubstr("no answer today"));
  // A connector that does not override it (Java's VerifiableSource) and a plugin built for
  // ABI 1.0, whose vtable ends before the hook: Java's null.
  auto verifiable = ConnectorInstance::Create(Plugin("VerifiableSource"), &context);
  ASSERT_TRUE(verifiable.ok());
  EXPECT_EQ(*(*verifiable)->ExactlyOnceSupport({}), CONNECTD_EXACTLY_ONCE_SUPPORT_NONE);
  auto older = ConnectorInstance::Create(Plugin("OlderMinorSource"), &context);
  ASSERT_TRUE(older.ok());
  EXPECT_EQ(*(*older)->ExactlyOnceSupport({}), CONNECTD_EXACTLY_ONCE_SUPPORT_NONE);
}

TEST_F(PluginInstancesTest, ZeroCopyRecordsAreReleasedOnceByTheHost) {
  FakeSourceContext context;
  auto task = SourceTaskInstance::Create(Plugin("NoopSource"), &context);
  ASSERT_TRUE(task.ok());
  ASSERT_TRUE((*task)->Start({{"batch.size", "50"}, {"zero.copy", "1"}, {"record.size", "8"}}).ok());
  FakeBatch batch;
  ASSERT_TRUE((*task)->Poll(10, &batch).ok());
  EXPECT_EQ(batch.values.size(), 50u);
  EXPECT_EQ(batch.values[0], "xxxxxxxx");
  EXPECT_EQ(batch.pending.size(), 50u);
  batch.Release();
  EXPECT_EQ(batch.released, 50u);
}

TEST_F(PluginInstancesTest, SinkTaskPutFlushAndValidate) {
  std::filesystem::path out = std::filesystem::temp_directory_path() / "connectd-recording-sink.txt";
  std::filesystem::remove(out);
  FakeConnectorContext connector_context;
  auto connector = ConnectorInstance::Create(Plugin("RecordingSink"), &connector_context);
  ASSERT_TRUE(connector.ok());
  auto errors = (*connector)->Validate({{"file", ""}});
  ASSERT_TRUE(errors.ok());
  EXPECT_EQ(errors->at("file").at(0), "must not be empty");

  class NoContext : public SinkTaskContextHost {
    void RequestCommit() override {}
    void Seek(std::string_view, int32_t, int64_t) override {}
    void Pause(std::string_view, int32_t) override {}
    void Resume(std::string_view, int32_t) override {}
    metrics::MetricsScope* Metrics() override { return &scope; }
    metrics::MetricsScope scope{&TestRegistry()};
  } sink_context;
  auto task = SinkTaskInstance::Create(Plugin("RecordingSink"), &sink_context);
  ASSERT_TRUE(task.ok());
  ASSERT_TRUE((*task)->Start({{"file", out.string()}}).ok());
  connectd_sink_record records[2] = {};
  for (int i = 0; i < 2; ++i) {
    records[i].struct_size = sizeof(connectd_sink_record);
    records[i].topic = {"t", 1};
    records[i].partition = 0;
    records[i].offset = 10 + i;
    records[i].value = {i == 0 ? "a" : "b", 1};
  }
  ASSERT_TRUE((*task)->Put(records, 2).ok());
  auto committable = (*task)->PreCommit({{{"t", 1}, 0, 12}});
  ASSERT_TRUE(committable.ok());
  ASSERT_EQ(committable->size(), 1u);
  EXPECT_EQ(committable->at(0).offset, 12);
  std::ifstream in(out);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), "t/0/10 null=a\nt/0/11 null=b\n");
  std::filesystem::remove(out);
}

}  // namespace
}  // namespace connectd::plugin
