#include "runtime/distributed/kafka_config_backing_store.h"

#include <future>

#include "absl/strings/str_cat.h"
#include "runtime/common/logging.h"

namespace connectd::distributed {
namespace {
constexpr char kLogger[] = "org.apache.kafka.connect.storage.KafkaConfigBackingStore";
}  // namespace

KafkaConfigBackingStore::KafkaConfigBackingStore(KafkaBasedLog::Options log_options,
                                                 ConfigStateListener* listener,
                                                 std::chrono::milliseconds write_timeout)
    : log_options_(std::move(log_options)), write_timeout_(write_timeout), tracker_(listener) {}

KafkaConfigBackingStore::~KafkaConfigBackingStore() { Stop(); }

absl::Status KafkaConfigBackingStore::Start() {
  KafkaBasedLog::Options options = log_options_;
  options.partitions = 1;
  auto log = KafkaBasedLog::Start(options, [this](const LogRecord& record) {
    if (!record.key) return;
    std::lock_guard lock(mu_);
    std::optional<std::string_view> value;
    if (record.value) value = *record.value;
    absl::Status applied = tracker_.Apply(record.offset, *record.key, value);
    if (!applied.ok()) {
      CONNECTD_LOG(kError, kLogger) << "Ignoring config record " << *record.key << " at offset "
                                    << record.offset << ": " << applied.message();
    }
  });
  if (!log.ok()) return log.status();
  if ((*log)->partitions() != 1) {
    return absl::FailedPreconditionError(absl::StrCat(
        "Topic '", options.topic, "' supplied via the '", options.topic_property,
        "' property is required to have a single partition in order to guarantee consistency of "
        "connector configurations, but found ",
        (*log)->partitions(), " partitions."));
  }
  log_ = *std::move(log);
  std::lock_guard lock(mu_);
  tracker_.MarkStarted();
  return absl::OkStatus();
}

void KafkaConfigBackingStore::Stop() {
  if (log_) log_->Stop();
}

ClusterConfigState KafkaConfigBackingStore::Snapshot() const {
  std::lock_guard lock(mu_);
  return tracker_.Snapshot();
}

absl::Status KafkaConfigBackingStore::Refresh(std::chrono::milliseconds timeout) {
  if (!log_) return absl::FailedPreconditionError("config store not started");
  return log_->ReadToEndSync(timeout);
}

absl::Status KafkaConfigBackingStore::Write(const std::vector<ConfigTopicRecord>& records,
                                            bool read_to_end) {
  if (!log_) return absl::FailedPreconditionError("config store not started");
  std::vector<std::future<absl::Status>> acks;
  for (const ConfigTopicRecord& record : records) {
    auto promise = std::make_shared<std::promise<absl::Status>>();
    acks.push_back(promise->get_future());
    log_->Send(record.key, record.value, [promise](absl::Status s) { promise->set_value(s); });
  }
  auto deadline = std::chrono::steady_clock::now() + write_timeout_;
  for (auto& ack : acks) {
    if (ack.wait_until(deadline) != std::future_status::ready) {
      return absl::DeadlineExceededError("timed out writing to the config topic " +
                                         log_options_.topic);
    }
    absl::Status status = ack.get();
    if (!status.ok()) return status;
  }
  if (!read_to_end) return absl::OkStatus();
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - std::chrono::steady_clock::now());
  return log_->ReadToEndSync(std::max(left, std::chrono::milliseconds(1)));
}

absl::Status KafkaConfigBackingStore::PutConnectorConfig(
    const std::string& connector, const ConfigProperties& config,
    std::optional<herder::TargetState> initial_state) {
  return Write(ConnectorConfigWrite(connector, config, initial_state), /*read_to_end=*/true);
}

absl::Status KafkaConfigBackingStore::RemoveConnectorConfig(const std::string& connector) {
  return Write(RemoveConnectorWrite(connector), /*read_to_end=*/true);
}

absl::Status KafkaConfigBackingStore::PutTaskConfigs(
    const std::string& connector, const std::vector<ConfigProperties>& task_configs) {
  // Java: read to end, the task records, read to end, the commit record, read to end.
  absl::Status status = Refresh(write_timeout_);
  if (!status.ok()) return status;
  TaskConfigsWrite write = TaskConfigsWriteFor(connector, task_configs);
  if (!write.task_records.empty()) {
    status = Write(write.task_records, /*read_to_end=*/true);
    if (!status.ok()) return status;
  }
  return Write({write.commit}, /*read_to_end=*/true);
}

absl::Status KafkaConfigBackingStore::PutTargetState(const std::string& connector,
                                                     herder::TargetState state) {
  return Write({TargetStateWrite(connector, state)}, /*read_to_end=*/false);
}

absl::Status KafkaConfigBackingStore::PutRestartRequest(const herder::RestartRequest& request) {
  return Write({RestartRequestWrite(request)}, /*read_to_end=*/true);
}

absl::Status KafkaConfigBackingStore::PutSessionKey(const SessionKey& key) {
  return Write({SessionKeyWrite(key)}, /*read_to_end=*/true);
}

absl::Status KafkaConfigBackingStore::PutLoggerLevel(const std::string& logging_namespace,
                                                     const std::string& level) {
  return Write({LoggerLevelWrite(logging_namespace, level)}, /*read_to_end=*/false);
}

}  // namespace connectd::distributed
