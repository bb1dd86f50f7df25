// File: checkpoint_task.h
//
// MirrorCheckpointTask: for its assigned consumer groups, translates the groups' committed
// offsets on the source into offsets on the target and emits them as Checkpoint records into
// `<source>.checkpoints.internal` on the target, partition 0, through the worker (as Kafka's
// MirrorCheckpointTask). With sync.group.offsets.enabled it also commits the translated offsets to
// the target groups, but only to groups absent or EMPTY there, and never backwards.
//
// Lifecycle. start() returns at once; a background thread then (1) loads the checkpoints topic
// into the CheckpointStore (poll emits nothing until this finished), (2) starts the
// OffsetSyncReader, in "keep only the latest sync" mode if (1) failed, and the OffsetIndexReader
// (translation prefers the exact index, see CombineTranslations), waits for the syncs' first
// read-to-end, and (3) with group offset sync enabled, refreshes the target groups' idle offsets
// at once and every sync.group.offsets.interval.seconds, each time after the first followed by
// the offset sync itself. poll() emits once per emit.checkpoints.interval.seconds: one listing
// of committed offsets per group on the source (all groups in flight together), then the
// checkpoints that are "more recent" than the stored ones; emitted checkpoints update the store.
// stop() only signals; the destructor joins the threads and closes the clients.
//
// Threads: start/poll/commitRecord on the task thread; stop from any thread; the background
// thread and the OffsetSyncReader thread are internal. The CheckpointStore is shared between
// poll and the group offset sync, under store_mu_.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "connectd/sdk/sdk.h"
#include "connectors/mirror/checkpoint_admin.h"
#include "connectors/mirror/checkpoint_store.h"
#include "connectors/mirror/kafka_clients.h"
#include "connectors/mirror/offset_index_reader.h"
#include "connectors/mirror/offset_sync_store.h"
#include "connectors/mirror_client/filters.h"
#include "connectors/mirror_client/replication_policy.h"

namespace connectd::mirror {

class MirrorCheckpointTask : public sdk::SourceTask {
 public:
  ~MirrorCheckpointTask() override;
  void start(const sdk::Props& props) override;
  void poll(sdk::SourceBatch& batch) override;
  // Records checkpoint-latency-ms (ack time - emission time) per group and partition.
  void commitRecord(const sdk::SourceRecordView& record,
                    const sdk::RecordMetadata* metadata) override;
  void stop() override;

  // The checkpoint records for every assigned group now (what one emission adds to the batch),
  // updating the store. Empty until the CheckpointStore is loaded.
  std::vector<sdk::SourceRecord> EmitCheckpoints();
  bool checkpointStoreLoadedForTest() const { return store_initialized_.load(); }
  bool offsetSyncsReadToEndForTest() const { return reader_ && reader_->readToEnd(); }

 private:
  void Background();
  // Waits up to `d`; true when stopping.
  bool SleepOrStop(std::chrono::steady_clock::duration d);
  void RefreshIdleConsumerGroupOffset();
  void SyncGroupOffset();
  std::string Rename(const std::string& topic) const;

  // Constant after start().
  std::string source_alias_, target_alias_, checkpoints_topic_;
  std::set<std::string> groups_;
  std::unique_ptr<ReplicationPolicy> policy_;
  std::optional<TopicFilter> topic_filter_;
  std::chrono::milliseconds interval_{60000};
  std::chrono::milliseconds sync_interval_{-1};  // negative: group offset sync disabled
  int admin_timeout_ms_ = 60000;
  Props checkpoints_consumer_props_;
  KafkaHandle source_admin_, target_admin_;
  std::unique_ptr<OffsetSyncReader> reader_;
  std::unique_ptr<OffsetIndexReader> index_reader_;

  // Task thread only.
  std::chrono::steady_clock::time_point next_emit_;
  // Metrics kafka.connect.mirror:type=MirrorCheckpointConnector, one sensor per (group, topic,
  // partition) (Java shares one sensor among them all; connectd does not).
  // Per (group, topic, partition): the legacy sensor and, with metric.names.formats=new
  // (KIP-1280), the one under kafka.connect:type=plugins,connector=...,task=...
  std::map<std::tuple<std::string, std::string, int32_t>, std::pair<sdk::Sensor, sdk::Sensor>>
      latency_sensors_;
  bool new_metric_names_ = false;
  std::string connector_name_;
  std::string task_index_;

  // Background thread only.
  std::map<std::string, GroupOffsets> idle_consumer_groups_offset_;

  std::mutex store_mu_;
  CheckpointStore store_;  // guarded by store_mu_
  std::atomic<bool> store_initialized_{false};

  std::mutex mu_;
  std::condition_variable cv_;
  std::atomic<bool> stopping_{false};
  std::thread background_;
};

}  // namespace connectd::mirror
