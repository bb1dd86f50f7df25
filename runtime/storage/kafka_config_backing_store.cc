#include "runtime/storage/kafka_config_backing_store.h"

#include <future>

#include "absl/strings/str_cat.h"
#include "runtime/common/logging.h"

namespace connectd::storage {
namespace {
constexpr char kLogger[] = "org.apache.kafka.connect.storage.KafkaConfigBackingStore";
}  // namespace

KafkaConfigBackingStore::KafkaConfigBackingStore(KafkaBasedLog::Options log_options,
                                                 ConfigStateListener* listener,
                                                 std::chrono::milliseconds write_timeout,
                                                 TopicLogOpener open_log)
    : log_options_(std::move(log_options)),
      write_timeout_(write_timeout),
      open_log_(std::move(open_log)),
      tracker_(listener) {}

KafkaConfigBackingStore::~KafkaConfigBackingStore() { Stop(); }

absl::Status KafkaConfigBackingStore::Start() {
  KafkaBasedLog::Options options = log_options_;
  options.partitions = 1;
  options.await_leaders_when_created = true;  // the herder writes the session key at once
  auto log = OpenTopicLog(open_log_, options, [this](const LogRecord& record) {
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
  RelinquishWritePrivileges();
  if (log_) log_->Stop();
}

void KafkaConfigBackingStore::UseTransactionalLeader(
    std::map<std::string, std::string> producer_config) {
  transactional_config_ = std::move(producer_config);
}

absl::Status KafkaConfigBackingStore::ClaimWritePrivileges() {
  if (!transactional_config_) return absl::OkStatus();
  std::lock_guard lock(leader_mu_);
  if (leader_producer_) return absl::OkStatus();
  absl::StatusOr<std::unique_ptr<kafka::TransactionalProducer>> producer =
      kafka::TransactionalProducer::Create(*transactional_config_, write_timeout_);
  if (!producer.ok()) {
    return absl::Status(producer.status().code(),
                        absl::StrCat("Failed to create and initialize fencable producer for config "
                                     "topic: ",
                                     producer.status().message()));
  }
  leader_producer_ = *std::move(producer);
  CONNECTD_LOG(kInfo, kLogger) << "Claimed write privileges on the config topic as "
                               << transactional_config_->at("transactional.id");
  return absl::OkStatus();
}

void KafkaConfigBackingStore::RelinquishWritePrivileges() {
  std::lock_guard lock(leader_mu_);
  leader_producer_.reset();
}

absl::Status KafkaConfigBackingStore::WritePrivileged(const std::vector<ConfigTopicRecord>& records,
                                                      bool read_to_end) {
  if (!transactional_config_) return Write(records, read_to_end);
  if (!log_) return absl::FailedPreconditionError("config store not started");
  if (absl::Status claimed = ClaimWritePrivileges(); !claimed.ok()) return claimed;
  const auto deadline = std::chrono::steady_clock::now() + write_timeout_;
  {
    std::lock_guard lock(leader_mu_);
    if (!leader_producer_) return absl::FailedPreconditionError("config store leader relinquished");
    std::vector<kafka::TransactionalRecord> batch;
    for (const ConfigTopicRecord& record : records) {
      batch.push_back({log_options_.topic, record.key, record.value});
    }
    absl::Status sent = leader_producer_->SendInTransaction(batch, write_timeout_);
    if (!sent.ok()) {
      CONNECTD_LOG(kWarn, kLogger)
          << "Failed to perform fencable send to config topic: " << sent.message();
      leader_producer_.reset();  // fenced or broken: claim again on the next privileged write
      return absl::Status(sent.code(), absl::StrCat("Failed to perform fencable send to config "
                                                    "topic: ",
                                                    sent.message()));
    }
  }
  if (!read_to_end) return absl::OkStatus();
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - std::chrono::steady_clock::now());
  return log_->ReadToEndSync(std::max(left, std::chrono::milliseconds(1)));
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
  return WritePrivileged(ConnectorConfigWrite(connector, config, initial_state),
                         /*read_to_end=*/true);
}

absl::Status KafkaConfigBackingStore::RemoveConnectorConfig(const std::string& connector) {
  return WritePrivileged(RemoveConnectorWrite(connector), /*read_to_end=*/true);
}

absl::Status KafkaConfigBackingStore::PutTaskConfigs(
    const std::string& connector, const std::vector<ConfigProperties>& task_configs) {
  // Java: read to end, the task records, read to end, the commit record, read to end.
  absl::Status status = Refresh(write_timeout_);
  if (!status.ok()) return status;
  TaskConfigsWrite write = TaskConfigsWriteFor(connector, task_configs);
  if (!write.task_records.empty()) {
    status = WritePrivileged(write.task_records, /*read_to_end=*/true);
    if (!status.ok()) return status;
  }
  return WritePrivileged({write.commit}, /*read_to_end=*/true);
}

absl::Status KafkaConfigBackingStore::PutTargetState(const std::string& connector,
                                                     herder::TargetState state) {
  return Write({TargetStateWrite(connector, state)}, /*read_to_end=*/false);
}

absl::Status KafkaConfigBackingStore::PutRestartRequest(const herder::RestartRequest& request) {
  return WritePrivileged({RestartRequestWrite(request)}, /*read_to_end=*/true);
}

absl::Status KafkaConfigBackingStore::PutSessionKey(const SessionKey& key) {
  return WritePrivileged({SessionKeyWrite(key)}, /*read_to_end=*/true);
}

absl::Status KafkaConfigBackingStore::PutLoggerLevel(const std::string& logging_namespace,
                                                     const std::string& level) {
  return Write({LoggerLevelWrite(logging_namespace, level)}, /*read_to_end=*/false);
}

}  // namespace connectd::storage

namespace connectd::storage {

absl::Status KafkaConfigBackingStore::PutTaskCountRecord(const std::string& connector,
                                                         int32_t task_count) {
  return WritePrivileged({TaskCountRecordWrite(connector, task_count)}, /*read_to_end=*/true);
}

}  // namespace connectd::storage
