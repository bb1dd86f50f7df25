#include "runtime/storage/kafka_offset_backing_store.h"

#include <atomic>
#include <mutex>

#include "runtime/common/logging.h"

namespace connectd::storage {

KafkaOffsetBackingStore::KafkaOffsetBackingStore(KafkaBasedLog::Options log_options,
                                                 std::chrono::milliseconds read_timeout,
                                                 TopicLogOpener open_log)
    : log_options_(std::move(log_options)),
      read_timeout_(read_timeout),
      open_log_(std::move(open_log)) {}

KafkaOffsetBackingStore::~KafkaOffsetBackingStore() { Stop(); }

absl::Status KafkaOffsetBackingStore::Start() {
  absl::Status started = memory_.Start();
  if (!started.ok()) return started;
  auto log = OpenTopicLog(open_log_, log_options_, [this](const LogRecord& record) {
    if (!record.key) return;  // Connect ignores keyless records in this topic
    memory_.Set({{*record.key, record.value}}, nullptr);
  });
  if (!log.ok()) return log.status();
  log_ = *std::move(log);
  return absl::OkStatus();
}

void KafkaOffsetBackingStore::Stop() {
  if (log_) log_->Stop();
  memory_.Stop();
}

absl::StatusOr<std::map<std::string, std::string>> KafkaOffsetBackingStore::Get(
    const std::vector<std::string>& keys) {
  if (!log_) return absl::FailedPreconditionError("offset store not started");
  absl::Status current = log_->ReadToEndSync(read_timeout_);
  if (!current.ok()) return current;
  return memory_.Get(keys);
}

void KafkaOffsetBackingStore::Set(storage::OffsetWrites values, SetCallback callback) {
  if (!log_) {
    if (callback) callback(absl::FailedPreconditionError("offset store not started"));
    return;
  }
  if (values.empty()) {
    if (callback) callback(absl::OkStatus());
    return;
  }
  memory_.Set(values, nullptr);
  // One callback for the whole batch: the first error, or OK once every record is acked.
  struct Batch {
    std::atomic<size_t> left;
    std::mutex mu;
    absl::Status first_error;
    SetCallback callback;
  };
  auto batch = std::make_shared<Batch>();
  batch->left = values.size();
  batch->callback = std::move(callback);
  for (auto& [key, value] : values) {
    log_->Send(key, value, [batch](absl::Status status) {
      if (!status.ok()) {
        std::lock_guard lock(batch->mu);
        if (batch->first_error.ok()) batch->first_error = status;
      }
      if (--batch->left == 0 && batch->callback) {
        absl::Status result;
        {
          std::lock_guard lock(batch->mu);
          result = batch->first_error;
        }
        batch->callback(result);
      }
    });
  }
}

std::vector<std::string> KafkaOffsetBackingStore::ConnectorPartitions(std::string_view connector) {
  // What the topic holds now, as Java's freshly started store lists them for the offsets
  // endpoints: another worker's task may have committed a partition a moment ago (a KIP-875
  // reset that missed it would leave its offset behind).
  if (log_) {
    if (absl::Status current = log_->ReadToEndSync(read_timeout_); !current.ok()) {
      CONNECTD_LOG(kWarn, "org.apache.kafka.connect.storage.KafkaOffsetBackingStore")
          << "Listing the partitions of " << connector
          << " without reading the offsets topic to its end: " << current.message();
    }
  }
  return memory_.ConnectorPartitions(connector);
}

absl::StatusOr<std::optional<std::string>> KafkaOffsetBackingStore::FindOffset(
    std::string_view connector, std::string_view partition_json) {
  if (read_to_end_on_lookup_) {
    // Java's OffsetStorageReader reads the topic to its end before every lookup.
    if (!log_) return absl::FailedPreconditionError("offset store not started");
    if (absl::Status current = log_->ReadToEndSync(read_timeout_); !current.ok()) return current;
  }
  return memory_.FindOffset(connector, partition_json);
}

}  // namespace connectd::storage
