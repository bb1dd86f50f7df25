#include "runtime/storage/kafka_status_backing_store.h"

#include "runtime/common/logging.h"

namespace connectd::storage {
namespace {
constexpr char kLogger[] = "org.apache.kafka.connect.storage.KafkaStatusBackingStore";
}  // namespace

KafkaStatusBackingStore::KafkaStatusBackingStore(KafkaBasedLog::Options log_options,
                                                 TopicLogOpener open_log)
    : log_options_(std::move(log_options)), open_log_(std::move(open_log)) {}

KafkaStatusBackingStore::~KafkaStatusBackingStore() { Stop(); }

absl::Status KafkaStatusBackingStore::Start() {
  KafkaBasedLog::Options options = log_options_;
  options.producer["retries"] = "0";  // Java's: the store decides about resending itself
  auto log = OpenTopicLog(open_log_, options, [this](const LogRecord& record) {
    if (!record.key) return;
    std::optional<std::string_view> value;
    if (record.value) value = *record.value;
    std::lock_guard lock(mu_);
    StatusCache::ReadOutcome outcome = cache_.Read(*record.key, value);
    if (outcome == StatusCache::ReadOutcome::kInvalidKey ||
        outcome == StatusCache::ReadOutcome::kInvalidValue) {
      CONNECTD_LOG(kWarn, kLogger) << "Discarding status record " << *record.key << " at offset "
                                   << record.offset << ": not understood";
    }
  });
  if (!log.ok()) return log.status();
  log_ = *std::move(log);
  return absl::OkStatus();
}

void KafkaStatusBackingStore::Stop() {
  if (log_) log_->Stop();
}

void KafkaStatusBackingStore::Send(StatusWrite write) {
  if (!log_) return;
  std::string key = write.key;
  std::optional<std::string> value = write.value;
  log_->Send(std::move(key), std::move(value), [this, write](absl::Status status) {
    if (status.ok()) return;
    bool retry = false;
    if (status.code() == absl::StatusCode::kUnavailable) {
      std::lock_guard lock(mu_);
      retry = cache_.ShouldRetry(write);
    }
    if (retry) {
      Send(write);
      return;
    }
    CONNECTD_LOG(kError, kLogger) << "Failed to write status update " << write.key << ": "
                                  << status.message();
  });
}

void KafkaStatusBackingStore::PutConnector(const std::string& connector, const StatusValue& status,
                                           WriteMode mode) {
  absl::StatusOr<std::optional<StatusWrite>> write;
  {
    std::lock_guard lock(mu_);
    write = cache_.PutConnector(connector, status, mode);
  }
  if (!write.ok()) {
    CONNECTD_LOG(kError, kLogger) << "Not writing the status of connector " << connector << ": "
                                  << write.status().message();
    return;
  }
  if (*write) Send(**write);
}

void KafkaStatusBackingStore::PutTask(const herder::ConnectorTaskId& id, const StatusValue& status,
                                      WriteMode mode) {
  absl::StatusOr<std::optional<StatusWrite>> write;
  {
    std::lock_guard lock(mu_);
    write = cache_.PutTask(id, status, mode);
  }
  if (!write.ok()) {
    CONNECTD_LOG(kError, kLogger) << "Not writing the status of task " << id.connector << "-"
                                  << id.task << ": " << write.status().message();
    return;
  }
  if (*write) Send(**write);
}

void KafkaStatusBackingStore::PutTopic(const TopicStatusValue& status) {
  StatusWrite write;
  {
    std::lock_guard lock(mu_);
    write = cache_.PutTopic(status);
  }
  Send(std::move(write));
}

void KafkaStatusBackingStore::DeleteTopic(const std::string& connector, const std::string& topic) {
  StatusWrite write;
  {
    std::lock_guard lock(mu_);
    write = cache_.DeleteTopic(connector, topic);
  }
  Send(std::move(write));
}

std::optional<StatusValue> KafkaStatusBackingStore::Connector(const std::string& connector) const {
  std::lock_guard lock(mu_);
  return cache_.Connector(connector);
}

std::optional<StatusValue> KafkaStatusBackingStore::Task(const herder::ConnectorTaskId& id) const {
  std::lock_guard lock(mu_);
  return cache_.Task(id);
}

std::vector<std::pair<int32_t, StatusValue>> KafkaStatusBackingStore::Tasks(
    const std::string& connector) const {
  std::lock_guard lock(mu_);
  return cache_.Tasks(connector);
}

std::map<std::string, TopicStatusValue> KafkaStatusBackingStore::Topics(
    const std::string& connector) const {
  std::lock_guard lock(mu_);
  return cache_.Topics(connector);
}

std::set<std::string> KafkaStatusBackingStore::Connectors() const {
  std::lock_guard lock(mu_);
  std::set<std::string> out;
  for (std::string& c : cache_.Connectors()) out.insert(std::move(c));
  for (std::string& c : cache_.ConnectorsWithTasksOrTopics()) out.insert(std::move(c));
  return out;
}

absl::Status KafkaStatusBackingStore::Flush(std::chrono::milliseconds timeout) {
  if (!log_) return absl::FailedPreconditionError("status store not started");
  return log_->Flush(timeout);
}

absl::Status KafkaStatusBackingStore::Refresh(std::chrono::milliseconds timeout) {
  if (!log_) return absl::FailedPreconditionError("status store not started");
  return log_->ReadToEndSync(timeout);
}

}  // namespace connectd::storage
