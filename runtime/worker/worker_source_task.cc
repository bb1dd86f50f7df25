#include "runtime/worker/worker_source_task.h"

#include <cstring>

#include "runtime/common/logging.h"

namespace connectd::worker {
namespace {
constexpr char kLogger[] = "org.apache.kafka.connect.runtime.WorkerSourceTask";
}  // namespace

WorkerSourceTask::WorkerSourceTask(herder::ConnectorTaskId id, StatusListener& listener,
                                   herder::TargetState initial_state,
                                   const plugin::ConnectorPlugin& plugin, SourceTaskOptions options,
                                   std::shared_ptr<ConnectorOffsetStore> offsets)
    : AbstractWorkerSourceTask(std::move(id), listener, initial_state, plugin, std::move(options),
                               std::move(offsets)) {}

absl::Status WorkerSourceTask::PrepareToInitializeTask() {
  next_commit_ = std::chrono::steady_clock::now() + options().offset_flush_interval;
  return absl::OkStatus();
}

absl::Status WorkerSourceTask::Iterate() {
  // Acknowledgements first, and short plugin polls while records are in flight, so commitRecord
  // follows the target's acks closely (Java calls it from the producer's thread as each ack
  // arrives; a task told to stop ignores late commitRecord calls).
  rd_kafka_poll(producer(), 0);
  if (absl::Status served = ServeBatchCopies(); !served.ok()) return served;
  std::chrono::milliseconds timeout =
      in_flight() > 0 ? std::min(options().poll_timeout, kAckPollInterval) : options().poll_timeout;
  if (copying_batches()) timeout = std::min(timeout, kBatchCopyPollInterval);
  RecordAcknowledged();
  absl::StatusOr<std::vector<std::unique_ptr<InFlight>>> records = Poll(timeout);
  if (!records.ok()) return records.status();
  for (auto& record : *records) {
    absl::Status sent = Send(std::move(record));
    if (!sent.ok()) return sent;
  }
  rd_kafka_poll(producer(), 0);
  if (!send_failure().ok()) return send_failure();
  if (std::chrono::steady_clock::now() >= next_commit_) {
    CommitOffsets();
    next_commit_ = std::chrono::steady_clock::now() + options().offset_flush_interval;
  }
  return absl::OkStatus();
}

SubmittedRecords::Entry* WorkerSourceTask::SubmitOffset(std::string_view partition,
                                                        std::string_view offset) {
  return submitted_.Submit(partition, offset);
}

void WorkerSourceTask::RecordDropped(InFlight& record) {
  if (record.entry) submitted_.Ack(record.entry);
  record.entry = nullptr;
}

void WorkerSourceTask::RecordSent(std::unique_ptr<InFlight> record,
                                  const rd_kafka_message_t& message) {
  const char* topic = rd_kafka_topic_name(message.rkt);
  const connectd_record_metadata metadata{sizeof(connectd_record_metadata),
                                          {topic, std::strlen(topic)},
                                          message.partition,
                                          message.offset,
                                          rd_kafka_message_timestamp(&message, nullptr)};
  CommitRecord(record->view, &metadata);
  // Last: draining the entry moves its offset out from under record->view.
  if (record->entry) submitted_.Ack(record->entry);
}

void WorkerSourceTask::CommitOffsets() {
  std::map<std::string, std::string> offsets = submitted_.TakeCommittable();
  // Like Java, SourceTask.commit() runs every interval even when no offset moved: tasks use it
  // as a periodic hook (MirrorSource fires its delayed offset syncs there).
  if (!offsets.empty()) {
    const auto start = std::chrono::steady_clock::now();
    absl::Status committed = this->offsets().Commit(offsets, options().offset_flush_timeout);
    task_group_metrics().RecordCommit(committed.ok(),
                                      std::chrono::duration_cast<std::chrono::milliseconds>(
                                          std::chrono::steady_clock::now() - start)
                                          .count());
    if (!committed.ok()) {
      CONNECTD_LOG(kError, kLogger) << "Failed to commit offsets: " << committed.message();
      submitted_.Restore(std::move(offsets));
      return;
    }
    CountOffsetCommit();
    CONNECTD_LOG(kDebug, kLogger) << "Committed offsets for " << offsets.size() << " partitions";
  }
  CommitTask();
}

void WorkerSourceTask::BatchAcknowledged(std::string_view partition, std::string_view offset) {
  submitted_.Ack(submitted_.Submit(partition, offset));
}

void WorkerSourceTask::FinalOffsetCommit() {
  // Deliver what was sent, commit what was acknowledged; the rest is dropped uncommitted.
  rd_kafka_flush(producer(), static_cast<int>(options().offset_flush_timeout.count()));
  StopBatchCopies(cancelled() ? std::chrono::milliseconds(0) : options().offset_flush_timeout);
  if (has_instance()) {
    if (absl::Status served = ServeBatchCopies(); !served.ok()) {
      CONNECTD_LOG(kError, kLogger)
          << "Failed to hand copied batches to the task: " << served.message();
    }
    CommitOffsets();
  }
}

}  // namespace connectd::worker
