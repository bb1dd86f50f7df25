// File: exactly_once_worker_source_task.h
//
// ExactlyOnceWorkerSourceTask: a source task of a worker with exactly-once source support
// (KIP-618; Connect's ExactlyOnceWorkerSourceTask). Before the plugin starts: a zombie-fencing
// round (pre_producer_check), init_transactions on the task's transactional producer, then a
// check that the task's configs are still current (post_producer_check); a failure fails the
// task. Each transaction holds the records of one or more poll batches (transaction.boundary
// poll or interval) plus their source offsets, written by the same producer to the connector's
// offsets topic; commitRecord and commit run only after the transaction committed. A failed
// commit aborts the transaction and fails the task, so no offset is ever stored for records that
// were not committed with it. A paused task commits first, so it holds no transaction open.
//
// Threads: as AbstractWorkerSourceTask (everything on the task thread).
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runtime/worker/abstract_worker_source_task.h"

namespace connectd::worker {

class ExactlyOnceWorkerSourceTask final : public AbstractWorkerSourceTask {
 public:
  // `options.exactly_once` must be set.
  ExactlyOnceWorkerSourceTask(herder::ConnectorTaskId id, StatusListener& listener,
                              herder::TargetState initial_state,
                              const plugin::ConnectorPlugin& plugin, SourceTaskOptions options,
                              std::shared_ptr<ConnectorOffsetStore> offsets);

 private:
  struct Delivered {
    std::unique_ptr<InFlight> record;
    std::string topic;
    int32_t partition = 0;
    int64_t offset = 0;
    int64_t timestamp_ms = 0;
  };

  absl::Status PrepareToInitializeTask() override;
  absl::Status Iterate() override;
  void OnPause() override;
  SubmittedRecords::Entry* SubmitOffset(std::string_view partition,
                                        std::string_view offset) override;
  void RecordDropped(InFlight& record) override;
  void RecordDispatched(const connectd_source_record& record) override;
  void RecordSent(std::unique_ptr<InFlight> record, const rd_kafka_message_t& message) override;
  void FinalOffsetCommit() override;

  // The commit of the open transaction with the offsets of its records (then commitRecord for
  // each, then the plugin's commit).
  absl::Status CommitTransaction();
  void AbortTransaction();
  // The record's source offset joins the open transaction's.
  void KeepOffset(const connectd_source_record& record);

  const ExactlyOnceTaskOptions& eos_;  // options().exactly_once

  // Task thread only.
  bool transaction_open_ = false;
  bool eos_failed_ = false;   // a transaction failed: no final commit
  absl::Status eos_failure_;  // why, for the next iteration (a failed commit on pause)
  std::map<std::string, std::string> transaction_offsets_;  // partition JSON -> newest offset
  std::vector<Delivered> transaction_delivered_;            // acked, awaiting the commit
  std::chrono::steady_clock::time_point last_transaction_commit_;
};

}  // namespace connectd::worker
