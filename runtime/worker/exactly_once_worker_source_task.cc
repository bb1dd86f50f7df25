#include "runtime/worker/exactly_once_worker_source_task.h"

#include "absl/strings/str_cat.h"
#include "runtime/common/logging.h"
#include "runtime/storage/offset_codec.h"

namespace connectd::worker {

using plugin::View;

namespace {
constexpr char kLogger[] = "org.apache.kafka.connect.runtime.ExactlyOnceWorkerSourceTask";
}  // namespace

ExactlyOnceWorkerSourceTask::ExactlyOnceWorkerSourceTask(
    herder::ConnectorTaskId id, StatusListener& listener, herder::TargetState initial_state,
    const plugin::ConnectorPlugin& plugin, SourceTaskOptions options,
    std::shared_ptr<ConnectorOffsetStore> offsets)
    : AbstractWorkerSourceTask(std::move(id), listener, initial_state, plugin, std::move(options),
                               std::move(offsets)),
      eos_(*this->options().exactly_once) {}

// Connect's prepareToInitializeTask: fence older generations, claim the transactional id (which
// fences any zombie of this very task), then make sure the configs are still ours.
absl::Status ExactlyOnceWorkerSourceTask::PrepareToInitializeTask() {
  if (eos_.pre_producer_check) {
    if (absl::Status fenced = eos_.pre_producer_check([this] { return stopping(); });
        !fenced.ok()) {
      return fenced;
    }
  }
  if (stopping()) return absl::OkStatus();
  const auto deadline = std::chrono::steady_clock::now() + eos_.transaction_timeout;
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    rd_kafka_error_t* error = rd_kafka_init_transactions(
        producer(), static_cast<int>(std::max<int64_t>(left.count(), 1)));
    if (error == nullptr) break;
    const bool retriable = rd_kafka_error_is_retriable(error);
    absl::Status failed =
        kafka::TransactionError(error, "Failed to initialize the task's producer");
    if (!retriable || stopping() || std::chrono::steady_clock::now() >= deadline) return failed;
    WaitFor(std::chrono::milliseconds(100));
  }
  if (eos_.post_producer_check) {
    if (absl::Status verified = eos_.post_producer_check([this] { return stopping(); });
        !verified.ok()) {
      return verified;
    }
  }
  last_transaction_commit_ = std::chrono::steady_clock::now();
  return absl::OkStatus();
}

absl::Status ExactlyOnceWorkerSourceTask::Iterate() {
  if (!eos_failure_.ok()) return eos_failure_;  // e.g. the commit on pause failed
  rd_kafka_poll(producer(), 0);
  RecordAcknowledged();
  absl::StatusOr<std::vector<std::unique_ptr<InFlight>>> records = Poll(options().poll_timeout);
  if (!records.ok()) {
    eos_failed_ = true;
    return records.status();
  }
  for (auto& record : *records) {
    if (View(record->view.topic) == eos_.offsets_topic) {
      // A transaction left open on the offsets topic would block this task's own offset reads.
      eos_failed_ = true;
      return absl::FailedPreconditionError(
          "Source tasks may not produce to their own offsets topics when exactly-once support "
          "is enabled");
    }
    if (!transaction_open_) {
      if (rd_kafka_error_t* error = rd_kafka_begin_transaction(producer())) {
        eos_failed_ = true;
        return kafka::TransactionError(error, "Failed to begin a transaction");
      }
      transaction_open_ = true;
    }
    absl::Status sent = Send(std::move(record));
    if (!sent.ok()) {
      eos_failed_ = true;
      return absl::Status(sent.code(),
                          absl::StrCat("Unrecoverable exception trying to send: ", sent.message()));
    }
  }
  rd_kafka_poll(producer(), 0);
  if (!send_failure().ok()) {
    eos_failed_ = true;
    return send_failure();
  }
  // Connect's batchDispatched: poll commits after every batch (an empty one just calls the
  // task's commit), interval once the interval has passed since the last commit.
  const auto now = std::chrono::steady_clock::now();
  if (eos_.boundary == kafka::TransactionBoundary::kInterval &&
      now < last_transaction_commit_ + eos_.boundary_interval) {
    return absl::OkStatus();
  }
  last_transaction_commit_ = now;
  return CommitTransaction();
}

SubmittedRecords::Entry* ExactlyOnceWorkerSourceTask::SubmitOffset(std::string_view,
                                                                   std::string_view) {
  return nullptr;  // offsets travel with the transaction instead (KeepOffset)
}

void ExactlyOnceWorkerSourceTask::KeepOffset(const connectd_source_record& record) {
  if (record.source_partition.size > 0 && record.source_offset.size > 0) {
    transaction_offsets_[std::string(View(record.source_partition))] =
        std::string(View(record.source_offset));
  }
}

void ExactlyOnceWorkerSourceTask::RecordDropped(InFlight& record) { KeepOffset(record.view); }

void ExactlyOnceWorkerSourceTask::RecordDispatched(const connectd_source_record& record) {
  KeepOffset(record);
}

void ExactlyOnceWorkerSourceTask::RecordSent(std::unique_ptr<InFlight> record,
                                             const rd_kafka_message_t& message) {
  // commitRecord waits for the transaction's commit (Connect's committableRecords).
  transaction_delivered_.push_back({std::move(record), rd_kafka_topic_name(message.rkt),
                                    message.partition, message.offset,
                                    rd_kafka_message_timestamp(&message, nullptr)});
}

void ExactlyOnceWorkerSourceTask::FinalOffsetCommit() {
  // Connect's finalOffsetCommit: commit what the open transaction holds unless the task failed
  // or was abandoned (its undelivered records were dropped); whatever is not committed is
  // aborted (its offsets were never written).
  if (has_instance() && !eos_failed_ && !cancelled() && send_failure().ok()) {
    if (absl::Status committed = CommitTransaction(); !committed.ok()) {
      CONNECTD_LOG(kError, kLogger) << committed.message();
    }
  }
  AbortTransaction();
}

absl::Status ExactlyOnceWorkerSourceTask::CommitTransaction() {
  const auto started = std::chrono::steady_clock::now();
  if (!transaction_open_ && transaction_offsets_.empty()) {
    // Nothing of the framework's to commit: no transaction, only the task's commit hook.
    CommitTask();
    return absl::OkStatus();
  }
  auto elapsed_ms = [started] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                 started)
        .count();
  };
  auto fail = [this, elapsed_ms](absl::Status cause) {
    task_group_metrics().RecordCommit(false, elapsed_ms());
    eos_failed_ = true;
    AbortTransaction();
    eos_failure_ = absl::Status(cause.code(),
                                absl::StrCat("Failed to flush offsets and/or records for task ",
                                             id_.connector, "-", id_.task, ": ", cause.message()));
    return eos_failure_;
  };
  if (!transaction_open_) {
    if (rd_kafka_error_t* error = rd_kafka_begin_transaction(producer())) {
      return fail(kafka::TransactionError(error, "begin_transaction"));
    }
    transaction_open_ = true;
  }
  // The offsets, in the same transaction, to the connector's offsets topic (Java's key/value
  // bytes; murmur2 partitioning by the producer, as Java's offsets writer).
  for (const auto& [partition, offset] : transaction_offsets_) {
    absl::StatusOr<std::string> key = storage::SerializeOffsetKey(id_.connector, partition);
    if (!key.ok()) return fail(key.status());
    absl::StatusOr<std::optional<std::string>> value =
        storage::SerializeOffsetValue(std::optional<std::string_view>(offset));
    if (!value.ok()) return fail(value.status());
    void* value_data = *value ? const_cast<char*>((*value)->data()) : nullptr;
    const size_t value_size = *value ? (*value)->size() : 0;
    while (true) {
      rd_kafka_resp_err_t err = rd_kafka_producev(
          producer(), RD_KAFKA_V_TOPIC(eos_.offsets_topic.c_str()),
          RD_KAFKA_V_KEY(key->data(), key->size()), RD_KAFKA_V_VALUE(value_data, value_size),
          RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_OPAQUE(nullptr), RD_KAFKA_V_END);
      if (err == RD_KAFKA_RESP_ERR_NO_ERROR) break;
      if (err != RD_KAFKA_RESP_ERR__QUEUE_FULL) {
        return fail(kafka::ToStatus(err, "writing offsets to " + eos_.offsets_topic));
      }
      rd_kafka_poll(producer(), 100);
    }
  }
  // Blocks until every record of the transaction is acknowledged; their delivery reports are
  // served meanwhile (this thread).
  rd_kafka_error_t* error =
      rd_kafka_commit_transaction(producer(), static_cast<int>(eos_.transaction_timeout.count()));
  rd_kafka_poll(producer(), 0);
  if (error != nullptr) return fail(kafka::TransactionError(error, "commit_transaction"));
  if (!send_failure().ok()) return fail(send_failure());
  transaction_open_ = false;
  transaction_offsets_.clear();
  CountOffsetCommit();
  task_group_metrics().RecordCommit(true, elapsed_ms());
  RecordTransactionSize(static_cast<int64_t>(transaction_delivered_.size()));
  CONNECTD_LOG(kDebug, kLogger) << "Committed a transaction of " << transaction_delivered_.size()
                                << " records in "
                                << std::chrono::duration_cast<std::chrono::milliseconds>(
                                       std::chrono::steady_clock::now() - started)
                                       .count()
                                << " ms";
  std::vector<Delivered> committed = std::move(transaction_delivered_);
  transaction_delivered_.clear();
  for (const Delivered& d : committed) {
    const connectd_record_metadata metadata{sizeof(connectd_record_metadata),
                                            {d.topic.data(), d.topic.size()},
                                            d.partition,
                                            d.offset,
                                            d.timestamp_ms};
    CommitRecord(d.record->view, &metadata);
  }
  CommitTask();
  return absl::OkStatus();
}

void ExactlyOnceWorkerSourceTask::AbortTransaction() {
  transaction_offsets_.clear();
  transaction_delivered_.clear();
  if (!transaction_open_ || producer() == nullptr) return;
  transaction_open_ = false;
  // Java's abortTransaction blocks up to max.block.ms (60 s): a target that is down for a while
  // (a broker restart) is waited for, so the transaction ends with abort markers rather than in
  // an unknown state. A timed-out attempt is resumed by calling again; the task's cancellation
  // (an abandoned task) cuts the wait short.
  constexpr auto kAbortPatience = std::chrono::seconds(60);
  const auto deadline = std::chrono::steady_clock::now() + kAbortPatience;
  while (rd_kafka_error_t* error = rd_kafka_abort_transaction(producer(), 5000)) {
    const bool retriable = rd_kafka_error_is_retriable(error);
    const std::string message = rd_kafka_error_string(error);
    rd_kafka_error_destroy(error);
    if (!retriable || cancelled() || std::chrono::steady_clock::now() >= deadline) {
      // Fenced or fatal: the broker aborts the transaction itself (the new owner's
      // InitProducerId, or the transaction timeout).
      CONNECTD_LOG(kWarn, kLogger) << "Could not abort the transaction: " << message;
      return;
    }
    CONNECTD_LOG(kInfo, kLogger) << "Aborting the transaction again: " << message;
  }
}

void ExactlyOnceWorkerSourceTask::OnPause() {
  // Connect commits on pause so a paused task holds no transaction open (and is not fenced by
  // the transaction timeout meanwhile).
  if (producer() == nullptr || !has_instance() || eos_failed_) return;
  if (absl::Status committed = CommitTransaction(); !committed.ok()) {
    CONNECTD_LOG(kError, kLogger) << committed.message();
  }
}

}  // namespace connectd::worker
