// File: worker_source_task.h
//
// WorkerSourceTask: a source task with at-least-once delivery (Connect's WorkerSourceTask):
// poll the plugin -> produce each record with the task's own producer -> on acknowledgement
// call commitRecord and make its source offset committable -> every offset.flush.interval.ms
// (and on stop) commit the committable offsets, then call the plugin's commit.
//
// No data loss: an offset is committed only for records the broker acknowledged, together with
// every earlier record of the same source partition (SubmittedRecords). A dropped record
// (transforms, errors.tolerance=all) is acknowledged at once: its offset becomes committable in
// order. Partitions the plugin hands to the worker to copy as record batches (ABI 1.7, batch
// pass-through) commit the offset of each batch the target acknowledged, in the same order.
//
// Threads: as AbstractWorkerSourceTask (everything on the task thread).
#pragma once

#include <chrono>
#include <memory>

#include "runtime/worker/abstract_worker_source_task.h"

namespace connectd::worker {

class WorkerSourceTask final : public AbstractWorkerSourceTask {
 public:
  WorkerSourceTask(herder::ConnectorTaskId id, StatusListener& listener,
                   herder::TargetState initial_state, const plugin::ConnectorPlugin& plugin,
                   SourceTaskOptions options, std::shared_ptr<ConnectorOffsetStore> offsets);

 private:
  absl::Status PrepareToInitializeTask() override;
  absl::Status Iterate() override;
  SubmittedRecords::Entry* SubmitOffset(std::string_view partition,
                                        std::string_view offset) override;
  void RecordDropped(InFlight& record) override;
  void RecordSent(std::unique_ptr<InFlight> record, const rd_kafka_message_t& message) override;
  void FinalOffsetCommit() override;
  void BatchAcknowledged(std::string_view partition, std::string_view offset) override;
  void OnPause() override { PauseBatchCopies(true); }
  void OnResume() override { PauseBatchCopies(false); }
  void CommitOffsets();

  // The longest plugin poll while records await their acknowledgement.
  static constexpr std::chrono::milliseconds kAckPollInterval{20};
  // The longest plugin poll while the plugin's partitions are copied as batches: their
  // acknowledgements reach the plugin between polls.
  static constexpr std::chrono::milliseconds kBatchCopyPollInterval{100};

  // Task thread only.
  SubmittedRecords submitted_;
  std::chrono::steady_clock::time_point next_commit_;
};

}  // namespace connectd::worker
