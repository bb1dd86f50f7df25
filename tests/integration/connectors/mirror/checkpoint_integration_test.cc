// MirrorCheckpointConnector/Task against two real Apache Kafka clusters: ctest-a is the source
// (topic, consumer group, offset syncs), ctest-b the target (checkpoints topic, target groups).
// Offset syncs are written by hand, as MirrorSourceTask would write them, so the translated
// offsets are known exactly.
#include <librdkafka/rdkafka.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "connectd/sdk/testing/fake_host.h"
#include "connectors/mirror/checkpoint_connector.h"
#include "connectors/mirror/checkpoint_task.h"
#include "connectors/mirror_client/records.h"
#include "tests/common/kafka_test_clients.h"
#include "tests/common/kafka_test_env.h"

namespace connectd::mirror {
namespace {

using connectd::testing::CommittedOffset;
using connectd::testing::CreateTopic;
using connectd::testing::ProduceRecords;
using connectd::testing::TestKafkaBootstrap;
using connectd::testing::TestRecord;
using connectd::testing::UniqueName;
using sdk::testing::FakeHost;

struct Commit {
  std::string topic;
  int32_t partition;
  int64_t offset;
};

// Commits offsets for `group` as a simple (assign-only) consumer would.
std::string CommitOffsets(const std::string& bootstrap, const std::string& group,
                          const std::vector<Commit>& commits) {
  char errstr[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap.c_str(), errstr, sizeof(errstr));
  rd_kafka_conf_set(conf, "group.id", group.c_str(), errstr, sizeof(errstr));
  rd_kafka_conf_set(conf, "enable.auto.commit", "false", errstr, sizeof(errstr));
  rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, errstr, sizeof(errstr));
  if (rk == nullptr) return errstr;
  rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(4);
  for (const Commit& c : commits) {
    rd_kafka_topic_partition_list_add(list, c.topic.c_str(), c.partition)->offset = c.offset;
  }
  std::string result;
  for (int attempt = 0; attempt < 20; ++attempt) {
    rd_kafka_resp_err_t err = rd_kafka_commit(rk, list, 0);
    for (int i = 0; !err && i < list->cnt; ++i) err = list->elems[i].err;
    result = err ? rd_kafka_err2str(err) : "";
    if (!err) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  rd_kafka_topic_partition_list_destroy(list);
  rd_kafka_consumer_close(rk);
  rd_kafka_destroy(rk);
  return result;
}

TestRecord SyncRecord(const std::string& topic, int32_t partition, int64_t up, int64_t down) {
  OffsetSync sync{topic, partition, up, down};
  TestRecord record;
  record.key = EncodeOffsetSyncKey(sync);
  record.value = EncodeOffsetSyncValue(sync);
  record.partition = 0;
  return record;
}

TestRecord CheckpointRecord(const Checkpoint& checkpoint) {
  TestRecord record;
  record.key = EncodeCheckpointKey(checkpoint);
  record.value = EncodeCheckpointValue(checkpoint);
  record.partition = 0;
  return record;
}

bool Eventually(const std::function<bool()>& condition,
                std::chrono::seconds timeout = std::chrono::seconds(30)) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (condition()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return condition();
}

class CheckpointIntegrationTest : public ::testing::Test {
 protected:
  CheckpointIntegrationTest() : api_(host_.api()) {
    // FakeHost's log is not thread-safe; the task logs from its own threads.
    api_.log = [](int32_t, connectd_str logger, connectd_str message) {
      static std::mutex mu;
      std::lock_guard lock(mu);
      fprintf(stderr, "[%.*s] %.*s\n", static_cast<int>(logger.size), logger.data,
              static_cast<int>(message.size), message.data);
    };
    sdk::internal::g_host = &api_;
  }
  ~CheckpointIntegrationTest() override { sdk::internal::g_host = &host_.api(); }

  void SetUp() override {
    absl::StatusOr<std::string> a = TestKafkaBootstrap("ctest-a");
    ASSERT_TRUE(a.ok()) << a.status();
    absl::StatusOr<std::string> b = TestKafkaBootstrap("ctest-b");
    ASSERT_TRUE(b.ok()) << b.status();
    source_ = *a;
    target_ = *b;
    source_alias_ = UniqueName("src");
    target_alias_ = UniqueName("tgt");
    topic_ = UniqueName("orders");
    remote_topic_ = source_alias_ + "." + topic_;
    checkpoints_topic_ = source_alias_ + ".checkpoints.internal";
    syncs_topic_ = "mm2-offset-syncs." + target_alias_ + ".internal";

    // The source: a 2-partition topic with data, and offset syncs for it:
    //   partition 0: 0 -> 100, 6 -> 106      partition 1: 2 -> 50
    ASSERT_TRUE(CreateTopic(source_, topic_, 2).ok());
    std::vector<TestRecord> data;
    for (int i = 0; i < 20; ++i) {
      TestRecord r;
      r.key = "k" + std::to_string(i);
      r.value = "v" + std::to_string(i);
      r.partition = i % 2;
      data.push_back(r);
    }
    ASSERT_TRUE(ProduceRecords(source_, topic_, data).ok());
    ASSERT_TRUE(CreateTopic(source_, syncs_topic_, 1, {{"cleanup.policy", "compact"}}).ok());
    ASSERT_TRUE(ProduceRecords(source_, syncs_topic_,
                               {SyncRecord(topic_, 0, 0, 100), SyncRecord(topic_, 0, 6, 106),
                                SyncRecord(topic_, 1, 2, 50)})
                    .ok());
  }

  sdk::Props Props(const std::string& groups) const {
    return {{"source.cluster.alias", source_alias_},
            {"target.cluster.alias", target_alias_},
            {"source.cluster.bootstrap.servers", source_},
            {"target.cluster.bootstrap.servers", target_},
            {"topics", topic_},
            {"groups", groups},
            {"emit.checkpoints.interval.seconds", "1"},
            {"checkpoints.topic.replication.factor", "1"},
            {"refresh.groups.interval.seconds", "1"},
            {"admin.timeout.ms", "15000"}};
  }

  // Starts a task directly and waits until both of its stores are ready.
  std::unique_ptr<MirrorCheckpointTask> StartTask(sdk::Props props, const std::string& groups) {
    props["task.assigned.groups"] = groups;
    props["task.index"] = "0";
    auto task = std::make_unique<MirrorCheckpointTask>();
    task->start(props);
    EXPECT_TRUE(Eventually([&] {
      return task->checkpointStoreLoadedForTest() && task->offsetSyncsReadToEndForTest();
    }));
    return task;
  }

  // Emits until `count` checkpoints arrived (or 30 s passed).
  static std::vector<sdk::SourceRecord> EmitUntil(MirrorCheckpointTask& task, size_t count) {
    std::vector<sdk::SourceRecord> out;
    Eventually([&] {
      for (auto& r : task.EmitCheckpoints()) out.push_back(std::move(r));
      return out.size() >= count;
    });
    return out;
  }

  Checkpoint Decode(const sdk::SourceRecord& record) const {
    EXPECT_EQ(record.topic, checkpoints_topic_);
    EXPECT_EQ(record.partition, 0);
    EXPECT_EQ(record.source_offset, "{\"offset\":0}");
    std::optional<Checkpoint> checkpoint = DecodeCheckpoint(*record.key, *record.value);
    EXPECT_TRUE(checkpoint.has_value());
    if (!checkpoint) return {};
    EXPECT_EQ(record.source_partition,
              CheckpointPartitionJson(checkpoint->group, checkpoint->topic, checkpoint->partition));
    return *checkpoint;
  }

  FakeHost host_;
  connectd_host_api api_;
  std::string source_, target_, source_alias_, target_alias_;
  std::string topic_, remote_topic_, checkpoints_topic_, syncs_topic_;
};

TEST_F(CheckpointIntegrationTest, ConnectorAndTaskEmitTranslatedCheckpoints) {
  const std::string group = UniqueName("group");
  const std::string idle_group = UniqueName("other");  // commits only an unrelated topic
  ASSERT_EQ(CommitOffsets(source_, group, {{topic_, 0, 8}, {topic_, 1, 5}}), "");
  ASSERT_EQ(CommitOffsets(source_, idle_group, {{syncs_topic_, 0, 1}}), "");

  auto connector = host_.connector<MirrorCheckpointConnector>();
  sdk::Props props = Props(group + "," + idle_group);
  auto started = connector.start(props);
  ASSERT_TRUE(started.ok()) << started.message;
  auto configs = connector.taskConfigs(2);
  ASSERT_TRUE(configs.ok()) << configs.message;
  ASSERT_EQ(configs.value.size(), 1u);  // the other group has no offsets for `topics`
  EXPECT_EQ(configs.value[0].at("task.assigned.groups"), group);
  EXPECT_EQ(configs.value[0].at("task.index"), "0");
  // The connector created the checkpoints topic on the target.
  EXPECT_EQ(CreateTopic(target_, checkpoints_topic_, 1).code(), absl::StatusCode::kAlreadyExists);

  auto task = host_.sourceTask<MirrorCheckpointConnector>();
  auto task_started = task.start(configs.value[0]);
  ASSERT_TRUE(task_started.ok()) << task_started.message;
  const int64_t before = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
  std::vector<sdk::testing::CapturedRecord> records;
  ASSERT_TRUE(Eventually([&] {
    auto polled = task.poll(1000);
    EXPECT_TRUE(polled.ok()) << polled.message;
    for (auto& r : polled.value) records.push_back(std::move(r));
    return records.size() >= 2;
  }));
  ASSERT_EQ(records.size(), 2u);
  std::map<int32_t, Checkpoint> by_partition;
  for (const auto& captured : records) {
    Checkpoint c = Decode(captured.record);
    EXPECT_GE(captured.record.timestamp_ms, before - 5000);
    by_partition[c.partition] = c;
  }
  ASSERT_EQ(by_partition.size(), 2u);
  EXPECT_EQ(by_partition[0].group, group);
  EXPECT_EQ(by_partition[0].topic, remote_topic_);
  EXPECT_EQ(by_partition[0].upstream_offset, 8);
  EXPECT_EQ(by_partition[0].downstream_offset, 107);  // sync 6 -> 106, one past it
  EXPECT_EQ(by_partition[1].upstream_offset, 5);
  EXPECT_EQ(by_partition[1].downstream_offset, 51);  // sync 2 -> 50, one past it

  // The worker acknowledges them: checkpoint-latency-ms per group and partition.
  for (const auto& captured : records) {
    ASSERT_TRUE(task.commitRecord(captured.record, 0, 1).ok());
  }
  for (int32_t partition : {0, 1}) {
    std::vector<sdk::testing::FakeSensor> sensors;
    for (const auto& sensor : host_.sensors()) {
      if (sensor.group == "MirrorCheckpointConnector" &&
          sensor.tags == sdk::MetricTags{{"source", source_alias_},
                                         {"target", target_alias_},
                                         {"group", group},
                                         {"topic", remote_topic_},
                                         {"partition", std::to_string(partition)}}) {
        sensors.push_back(sensor);
      }
    }
    ASSERT_EQ(sensors.size(), 1u) << "one sensor per group and partition";
    EXPECT_EQ(sensors[0].domain, "kafka.connect.mirror");
    ASSERT_EQ(sensors[0].stats.size(), 4u);
    EXPECT_EQ(sensors[0].stats[0].first, "checkpoint-latency-ms");
    EXPECT_EQ(sensors[0].stats[3].first, "checkpoint-latency-ms-avg");
    ASSERT_EQ(sensors[0].values.size(), 1u);
    EXPECT_GE(sensors[0].values[0], 0);
    EXPECT_LT(sensors[0].values[0], 60000);
  }

  // Nothing changed: the next emissions repeat nothing.
  for (int i = 0; i < 2; ++i) {
    auto polled = task.poll(1100);
    ASSERT_TRUE(polled.ok());
    EXPECT_TRUE(polled.value.empty());
  }
  // A new sync is tailed and the group moves past it: only partition 0 is checkpointed again.
  ASSERT_TRUE(ProduceRecords(source_, syncs_topic_, {SyncRecord(topic_, 0, 10, 110)}).ok());
  ASSERT_EQ(CommitOffsets(source_, group, {{topic_, 0, 10}}), "");
  std::vector<sdk::testing::CapturedRecord> more;
  ASSERT_TRUE(Eventually([&] {
    auto polled = task.poll(1000);
    for (auto& r : polled.value) more.push_back(std::move(r));
    return !more.empty();
  }));
  ASSERT_EQ(more.size(), 1u);
  Checkpoint advanced = Decode(more[0].record);
  EXPECT_EQ(advanced.partition, 0);
  EXPECT_EQ(advanced.upstream_offset, 10);
  EXPECT_EQ(advanced.downstream_offset, 110);

  task.stop();
  EXPECT_TRUE(connector.stop().ok());
}

TEST_F(CheckpointIntegrationTest, RestartedTaskResumesFromTheCheckpointsTopic) {
  const std::string group = UniqueName("group");
  ASSERT_EQ(CommitOffsets(source_, group, {{topic_, 0, 8}, {topic_, 1, 5}}), "");
  // What an earlier task emitted for the same offsets, as the worker wrote it.
  ASSERT_TRUE(CreateTopic(target_, checkpoints_topic_, 1, {{"cleanup.policy", "compact"}}).ok());
  ASSERT_TRUE(ProduceRecords(target_, checkpoints_topic_,
                             {CheckpointRecord({group, remote_topic_, 0, 8, 107, ""}),
                              CheckpointRecord({group, remote_topic_, 1, 5, 51, ""}),
                              CheckpointRecord({"not-assigned", remote_topic_, 0, 1, 1, ""})})
                  .ok());

  auto task = StartTask(Props(group), group);
  // Both checkpoints are repeats of the stored ones: nothing is emitted.
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(task->EmitCheckpoints().empty());
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }
  // The group is rewound on the source: checkpoints may go backwards.
  ASSERT_EQ(CommitOffsets(source_, group, {{topic_, 0, 3}}), "");
  std::vector<sdk::SourceRecord> records = EmitUntil(*task, 1);
  ASSERT_EQ(records.size(), 1u);
  Checkpoint rewound = Decode(records[0]);
  EXPECT_EQ(rewound.partition, 0);
  EXPECT_EQ(rewound.upstream_offset, 3);
  EXPECT_EQ(rewound.downstream_offset, 101);
  task->stop();
}

TEST_F(CheckpointIntegrationTest, SyncsOffsetsToAbsentAndIdleTargetGroupsOnlyForward) {
  const std::string group = UniqueName("group");      // EMPTY on the target, ahead on p0
  const std::string new_group = UniqueName("fresh");  // absent on the target
  ASSERT_EQ(CommitOffsets(source_, group, {{topic_, 0, 8}, {topic_, 1, 5}}), "");
  ASSERT_EQ(CommitOffsets(source_, new_group, {{topic_, 0, 8}}), "");
  // As the connectors would have: the remote topic and the checkpoints topic on the target.
  ASSERT_TRUE(CreateTopic(target_, remote_topic_, 2).ok());
  ASSERT_TRUE(CreateTopic(target_, checkpoints_topic_, 1, {{"cleanup.policy", "compact"}}).ok());
  ASSERT_EQ(CommitOffsets(target_, group, {{remote_topic_, 0, 500}}), "");

  sdk::Props props = Props(group + "," + new_group);
  props["sync.group.offsets.enabled"] = "true";
  props["sync.group.offsets.interval.seconds"] = "1";
  auto task = StartTask(props, group + "," + new_group);
  std::vector<sdk::SourceRecord> records = EmitUntil(*task, 3);
  ASSERT_EQ(records.size(), 3u);

  auto committed = [&](const std::string& g, int32_t p) {
    absl::StatusOr<int64_t> offset = CommittedOffset(target_, g, remote_topic_, p);
    return offset.ok() ? *offset : -2;
  };
  EXPECT_TRUE(Eventually([&] { return committed(new_group, 0) == 107; }))
      << committed(new_group, 0);
  EXPECT_TRUE(Eventually([&] { return committed(group, 1) == 51; })) << committed(group, 1);
  EXPECT_EQ(committed(group, 0), 500);  // an idle target group is never moved backwards
  task->stop();
}

}  // namespace
}  // namespace connectd::mirror
