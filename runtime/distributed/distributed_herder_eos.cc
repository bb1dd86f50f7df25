// DistributedHerder: exactly-once source support (KIP-618): zombie fencing on the leader, the
// task preflight checks, the leader's transactional claim on the config topic, the validation of
// exactly.once.support / transaction.boundary, and transactional offset writes for KIP-875.
#include <future>
#include <thread>

#include <boost/asio/post.hpp>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "runtime/common/logging.h"
#include "runtime/distributed/distributed_herder.h"
#include "runtime/herder/connector_validation.h"
#include "runtime/kafka/exactly_once.h"
#include "runtime/plugin/plugin_instances.h"
#include "runtime/storage/kafka_offset_backing_store.h"
#include "runtime/storage/offset_codec.h"
#include "runtime/worker/backing_store_offsets.h"

namespace connectd::distributed {
namespace {

constexpr char kLogger[] = "org.apache.kafka.connect.runtime.distributed.DistributedHerder";
// How long a task waits for a fencing round or a preflight check (Java waits without bound; a
// task asked to stop gives up at once).
constexpr auto kPreflightTimeout = std::chrono::seconds(120);
constexpr auto kFencingTimeout = std::chrono::seconds(90);  // Java's REST request timeout
constexpr auto kFencingRetryBackoff = std::chrono::seconds(1);

// Waits for `result` in slices, giving up when `stopping` says so or after kPreflightTimeout.
absl::Status Await(std::future<absl::Status>& result, const std::function<bool()>& stopping,
                   std::string_view what) {
  const auto deadline = std::chrono::steady_clock::now() + kPreflightTimeout;
  while (result.wait_for(std::chrono::milliseconds(100)) != std::future_status::ready) {
    if (stopping && stopping())
      return absl::CancelledError(absl::StrCat(std::string(what), ": task stopping"));
    if (std::chrono::steady_clock::now() >= deadline) {
      return absl::DeadlineExceededError(absl::StrCat(std::string(what), ": timed out"));
    }
  }
  return result.get();
}

std::string Get(const herder::ConfigMap& config, const std::string& key) {
  auto it = config.find(key);
  return it == config.end() ? std::string() : it->second;
}

// Adds `message` to the validated value of `key` (which the framework ConfigDef defines).
void AddErrorTo(herder::ConfigInfos& infos, const std::string& key, const std::string& message) {
  for (herder::ConfigInfo& info : infos.configs) {
    if (info.value && info.value->name == key) {
      info.value->errors.push_back(message);
      ++infos.error_count;
      return;
    }
  }
}

bool HasErrors(const herder::ConfigInfos& infos, const std::string& key) {
  for (const herder::ConfigInfo& info : infos.configs) {
    if (info.value && info.value->name == key) return !info.value->errors.empty();
  }
  return true;
}

// Offsets read through a connector-specific offsets topic (read_committed), falling back to the
// worker's store, as Java's ConnectorOffsetBackingStore with a connector and a worker store.
class ConnectorTopicOffsets : public worker::ConnectorOffsetStore {
 public:
  ConnectorTopicOffsets(std::unique_ptr<storage::KafkaOffsetBackingStore> store,
                        std::shared_ptr<worker::ConnectorOffsetStore> fallback,
                        const std::string& connector)
      : store_(std::move(store)), own_(*store_, connector), fallback_(std::move(fallback)) {}
  ~ConnectorTopicOffsets() override { store_->Stop(); }

  absl::StatusOr<std::optional<std::string>> Offset(std::string_view partition_json) override {
    absl::StatusOr<std::optional<std::string>> offset = own_.Offset(partition_json);
    if (!offset.ok() || offset->has_value()) return offset;
    return fallback_->Offset(partition_json);
  }
  absl::Status Write(const std::map<std::string, std::optional<std::string>>& offsets,
                     std::chrono::milliseconds timeout) override {
    return own_.Write(offsets, timeout);
  }
  absl::StatusOr<std::map<std::string, std::string>> All() override {
    absl::StatusOr<std::map<std::string, std::string>> all = fallback_->All();
    if (!all.ok()) return all;
    absl::StatusOr<std::map<std::string, std::string>> own = own_.All();
    if (!own.ok()) return own;
    for (auto& [partition, offset] : *own) (*all)[partition] = offset;
    return all;
  }

 private:
  std::unique_ptr<storage::KafkaOffsetBackingStore> store_;
  worker::BackingStoreOffsets own_;
  std::shared_ptr<worker::ConnectorOffsetStore> fallback_;
};

// KIP-875 writes of an exactly-once source connector: reads as the worker's store, writes in one
// transaction of the producer with task 0's transactional id (Java's modifySourceConnectorOffsets
// with exactly-once support), which also fences any zombie of task 0.
class TransactionalOffsetWriter : public worker::ConnectorOffsetStore {
 public:
  TransactionalOffsetWriter(worker::ConnectorOffsetStore& reads,
                            std::map<std::string, std::string> producer, std::string topic,
                            std::string connector)
      : reads_(reads),
        producer_(std::move(producer)),
        topic_(std::move(topic)),
        connector_(std::move(connector)) {}

  absl::StatusOr<std::optional<std::string>> Offset(std::string_view partition_json) override {
    return reads_.Offset(partition_json);
  }
  absl::StatusOr<std::map<std::string, std::string>> All() override { return reads_.All(); }
  absl::Status Write(const std::map<std::string, std::optional<std::string>>& offsets,
                     std::chrono::milliseconds timeout) override {
    std::vector<kafka::TransactionalRecord> records;
    for (const auto& [partition, offset] : offsets) {
      absl::StatusOr<std::string> key = storage::SerializeOffsetKey(connector_, partition);
      if (!key.ok()) return key.status();
      std::optional<std::string_view> view;
      if (offset) view = *offset;
      absl::StatusOr<std::optional<std::string>> value = storage::SerializeOffsetValue(view);
      if (!value.ok()) return value.status();
      records.push_back({topic_, *std::move(key), *std::move(value)});
    }
    absl::StatusOr<std::unique_ptr<kafka::TransactionalProducer>> producer =
        kafka::TransactionalProducer::Create(producer_, timeout);
    if (!producer.ok()) return producer.status();
    absl::Status sent = (*producer)->SendInTransaction(records, timeout);
    if (!sent.ok()) return sent;
    // The worker's store reads read_committed: make the new offsets visible to the caller.
    return absl::OkStatus();
  }

 private:
  worker::ConnectorOffsetStore& reads_;
  const std::map<std::string, std::string> producer_;
  const std::string topic_;
  const std::string connector_;
};

// SourceConnector.exactlyOnceSupport as the plugin answers it on a fresh, unstarted instance
// (ABI 1.4; a plugin without the hook answers as a Java connector that does not override it:
// null). A failure is the message Java adds for an exception.
absl::StatusOr<int32_t> QueryExactlyOnceSupport(const plugin::ConnectorPlugin& plugin,
                                                const herder::ConfigMap& config) {
  plugin::DetachedConnectorContext context;
  absl::StatusOr<std::unique_ptr<plugin::ConnectorInstance>> instance =
      plugin::ConnectorInstance::Create(plugin, &context);
  if (!instance.ok()) return instance.status();
  return (*instance)->ExactlyOnceSupport(plugin::Props(config.begin(), config.end()));
}

}  // namespace

template <typename Fn>
void DistributedHerder::Post(Fn&& fn) {
  boost::asio::post(io_, std::forward<Fn>(fn));
}

// ---- Hooks for the worker ------------------------------------------------------------------

worker::ExactlyOnceHooks DistributedHerder::MakeExactlyOnceHooks() {
  worker::ExactlyOnceHooks hooks;
  hooks.group_id = options_.group.group_id;
  hooks.worker_offsets_topic = options_.offset_log.topic;
  hooks.generation = [this](const std::string& connector) {
    return snapshot_.TaskConfigGeneration(connector);  // herder thread (Worker::StartTask)
  };
  hooks.fence = [this](const herder::ConnectorTaskId& task, const std::function<bool()>& stopping) {
    return FenceForTask(task, stopping);
  };
  hooks.verify = [this](const herder::ConnectorTaskId& task, std::optional<int32_t> generation,
                        const std::function<bool()>& stopping) {
    return VerifyTaskGeneration(task, generation, stopping);
  };
  hooks.connector_offsets = [this](const std::string& connector, const std::string& topic)
      -> absl::StatusOr<std::shared_ptr<worker::ConnectorOffsetStore>> {
    storage::KafkaBasedLog::Options log = options_.offset_log;
    log.topic = topic;
    log.topic_property = "offsets.storage.topic";
    log.consumer["isolation.level"] = "read_committed";
    auto store = std::make_unique<storage::KafkaOffsetBackingStore>(log, std::chrono::seconds(30),
                                                                    options_.open_log);
    store->SetReadToEndOnLookup(true);
    if (absl::Status started = store->Start(); !started.ok()) return started;
    return std::shared_ptr<worker::ConnectorOffsetStore>(std::make_shared<ConnectorTopicOffsets>(
        std::move(store), std::make_shared<worker::BackingStoreOffsets>(*offset_store_, connector),
        connector));
  };
  return hooks;
}

absl::Status DistributedHerder::FenceForTask(const herder::ConnectorTaskId& task,
                                             const std::function<bool()>& stopping) {
  // A round that fails for a passing reason (the config topic not read to its end within
  // worker.sync.timeout.ms after a broker restart, no leader known during a rebalance) is tried
  // again until the preflight bound: Java fails the task at once, which leaves it FAILED until
  // someone restarts it although the next round would have succeeded.
  const auto deadline = std::chrono::steady_clock::now() + kPreflightTimeout;
  for (int attempt = 1;; ++attempt) {
    absl::Status fenced = FenceOnce(task, stopping);
    if (fenced.ok() || fenced.code() == absl::StatusCode::kCancelled) return fenced;
    const bool passing = fenced.code() == absl::StatusCode::kUnavailable ||
                         fenced.code() == absl::StatusCode::kDeadlineExceeded;
    if (!passing || std::chrono::steady_clock::now() + kFencingRetryBackoff >= deadline) {
      return absl::Status(fenced.code(), absl::StrCat("Failed to perform round of zombie fencing: ",
                                                      fenced.message()));
    }
    CONNECTD_LOG(kWarn, kLogger) << "Round " << attempt << " of zombie fencing for task "
                                 << task.connector << "-" << task.task
                                 << " failed; trying again: " << fenced.message();
    for (auto until = std::chrono::steady_clock::now() + kFencingRetryBackoff;
         std::chrono::steady_clock::now() < until;) {
      if (stopping && stopping()) {
        return absl::CancelledError("Failed to perform round of zombie fencing: task stopping");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
}

absl::Status DistributedHerder::FenceOnce(const herder::ConnectorTaskId& task,
                                          const std::function<bool()>& stopping) {
  auto result = std::make_shared<std::promise<absl::Status>>();
  std::future<absl::Status> done = result->get_future();
  const std::string c = task.connector;
  Post([this, c, result] {
    if (is_leader_) {
      result->set_value(DoFenceZombies(c));
      return;
    }
    if (!options_.forward_fence) {
      result->set_value(absl::FailedPreconditionError(
          "This worker is not able to communicate with the leader of the cluster, which is "
          "required for exactly-once source tasks. If running MirrorMaker 2 in dedicated mode, "
          "consider enabling inter-worker communication via the "
          "'dedicated.mode.enable.internal.rest' property."));
      return;
    }
    if (leader_url_.empty()) {
      result->set_value(absl::UnavailableError("the leader of the cluster is not known yet"));
      return;
    }
    CONNECTD_LOG(kDebug, kLogger) << "Forwarding zombie fencing request for connector " << c
                                  << " to leader at " << leader_url_;
    options_.forward_fence(leader_url_, c, snapshot_.session_key(),
                           [result](absl::Status status) { result->set_value(std::move(status)); });
  });
  return Await(done, stopping, "Failed to perform round of zombie fencing");
}

absl::Status DistributedHerder::VerifyTaskGeneration(const herder::ConnectorTaskId& task,
                                                     std::optional<int32_t> generation,
                                                     const std::function<bool()>& stopping) {
  // Java: read the config topic to its end (no bound), then check on the herder thread.
  if (absl::Status read = config_store_->Refresh(kPreflightTimeout); !read.ok()) {
    return absl::Status(read.code(),
                        absl::StrCat("Failed to read to end of config topic: ", read.message()));
  }
  auto result = std::make_shared<std::promise<absl::Status>>();
  std::future<absl::Status> done = result->get_future();
  Post([this, task, generation, result] {
    UpdateSnapshot();
    const std::string id = absl::StrCat(task.connector, "-", task.task);
    if (snapshot_.TaskConfigGeneration(task.connector) != generation) {
      result->set_value(absl::FailedPreconditionError(
          absl::StrCat("Cannot start source task ", id,
                       " with exactly-once support as the connector has already generated a new "
                       "set of task configs")));
    } else if (!OwnsTask(task)) {
      result->set_value(absl::FailedPreconditionError(absl::StrCat(
          "Cannot start source task ", id, " as it has already been revoked from this worker")));
    } else {
      result->set_value(absl::OkStatus());
    }
  });
  return Await(
      done, stopping,
      absl::StrCat("Failed to perform preflight check for task ", task.connector, "-", task.task));
}

// ---- Fencing (leader, herder thread) -----------------------------------------------------------

absl::Status DistributedHerder::DoFenceZombies(const std::string& c) {
  if (!is_leader_) return NotLeader("perform zombie fencing");
  if (!snapshot_.Contains(c)) {
    return absl::NotFoundError(absl::StrCat("Connector ", c, " not found"));
  }
  if (TypeOf(c) != herder::ConnectorType::kSource) {
    return absl::InvalidArgumentError(absl::StrCat("Connector ", c, " is not a source connector"));
  }
  if (absl::Status read = config_store_->Refresh(options_.worker_sync_timeout); !read.ok()) {
    return absl::Status(read.code(),
                        absl::StrCat("Failed to read to end of config topic before performing "
                                     "zombie fencing: ",
                                     read.message()));
  }
  UpdateSnapshot();
  const kafka::FencingDecision decision = kafka::DecideFencing(
      snapshot_.PendingFencing(c), snapshot_.TaskCountRecord(c), snapshot_.TaskCount(c));
  if (!decision.write_task_count) {
    CONNECTD_LOG(kDebug, kLogger) << "Skipping zombie fencing round for connector " << c
                                  << " as all old task generations have already been fenced out";
    return absl::OkStatus();
  }
  const std::optional<int32_t> generation = snapshot_.TaskConfigGeneration(c);
  if (decision.fence_count > 0) {
    if (!fencing_in_progress_.insert(c).second) {
      return absl::UnavailableError(
          absl::StrCat("A zombie fencing round for connector ", c, " is already in progress"));
    }
    std::vector<std::string> ids;
    for (int32_t t = 0; t < decision.fence_count; ++t) {
      ids.push_back(kafka::TaskTransactionalId(options_.group.group_id, c, t));
    }
    CONNECTD_LOG(kInfo, kLogger) << "Fencing out " << decision.fence_count
                                 << " task producers for source connector " << c;
    absl::Status fenced = kafka::FenceProducers(options_.config_log.producer, ids, kFencingTimeout);
    fencing_in_progress_.erase(c);
    if (!fenced.ok()) return fenced;
    if (absl::Status read = config_store_->Refresh(options_.worker_sync_timeout); !read.ok()) {
      return absl::Status(read.code(),
                          absl::StrCat("Failed to read to end of config topic: ", read.message()));
    }
    UpdateSnapshot();
    if (generation < snapshot_.TaskConfigGeneration(c)) {
      return herder::WithHttpStatus(
          absl::AbortedError(
              "Fencing failed because new task configurations were generated for the connector"),
          409);
    }
  } else {
    CONNECTD_LOG(kDebug, kLogger) << "Skipping zombie fencing round but writing task count "
                                  << "record for connector " << c;
  }
  absl::Status written = config_store_->PutTaskCountRecord(c, decision.task_count);
  if (!written.ok()) return written;
  UpdateSnapshot();
  return absl::OkStatus();
}

void DistributedHerder::UpdateWritePrivileges() {
  if (!config_store_->uses_transactional_leader()) return;
  if (is_leader_ && !claimed_leadership_) {
    claimed_leadership_ = true;
    // Fences a previous leader's writer now; a failure is retried by the next privileged write.
    if (absl::Status claimed = config_store_->ClaimWritePrivileges(); !claimed.ok()) {
      CONNECTD_LOG(kWarn, kLogger) << claimed.message();
    }
  } else if (!is_leader_ && claimed_leadership_) {
    claimed_leadership_ = false;
    config_store_->RelinquishWritePrivileges();
  }
}

// ---- Validation --------------------------------------------------------------------------------

void DistributedHerder::ValidateExactlyOnce(const herder::ConfigMap& config,
                                            herder::ConfigInfos& infos) const {
  if (herder::ConnectorTypeOf(plugins_, config) != herder::ConnectorType::kSource) return;
  const plugin::ConnectorPlugin* plugin = plugins_.FindForConfig(config);
  if (plugin == nullptr) return;
  if (!HasErrors(infos, "exactly.once.support") &&
      absl::AsciiStrToLower(Get(config, "exactly.once.support")) == "required") {
    if (!ExactlyOnceEnabled()) {
      AddErrorTo(infos, "exactly.once.support",
                 "This worker does not have exactly-once source support enabled.");
    }
    const absl::StatusOr<int32_t> support = QueryExactlyOnceSupport(*plugin, config);
    if (!support.ok()) {
      const std::string why(absl::StripAsciiWhitespace(support.status().message()));
      AddErrorTo(infos, "exactly.once.support",
                 why.empty()
                     ? "An unexpected error occurred during validation; please see the "
                       "worker logs for more details."
                     : absl::StrCat("An unexpected error occurred during validation: ", why));
    } else if (*support == CONNECTD_EXACTLY_ONCE_SUPPORT_NONE) {
      AddErrorTo(infos, "exactly.once.support",
                 "The connector does not implement the API required for preflight validation of "
                 "exactly-once source support. Please consult the documentation for the "
                 "connector to determine whether it supports exactly-once semantics, and then "
                 "consider reconfiguring the connector to use the value \"requested\" for this "
                 "property (which will disable this preflight check and allow the connector to "
                 "be created).");
    } else if (*support == CONNECTD_EXACTLY_ONCE_SUPPORT_UNSUPPORTED) {
      AddErrorTo(infos, "exactly.once.support",
                 "The connector does not support exactly-once semantics with the provided "
                 "configuration.");
    }
  }
  if (!HasErrors(infos, "transaction.boundary") &&
      absl::AsciiStrToLower(Get(config, "transaction.boundary")) == "connector") {
    // The plugin ABI offers no TransactionContext, so no connectd plugin can define its own
    // transaction boundaries: Java's answer for a connector that reports UNSUPPORTED.
    AddErrorTo(infos, "transaction.boundary",
               "The connector does not support connector-defined transaction boundaries with the "
               "given configuration. Please reconfigure it to use a different transaction "
               "boundary definition.");
  }
}

// ---- KIP-875 ------------------------------------------------------------------------------------

std::unique_ptr<worker::ConnectorOffsetStore> DistributedHerder::MakeTransactionalOffsetWriter(
    const std::string& c, const herder::ConfigMap& config, worker::ConnectorOffsetStore& reads) {
  const std::string connector_topic = Get(config, "offsets.storage.topic");
  const std::string topic = connector_topic.empty() ? options_.offset_log.topic : connector_topic;
  std::map<std::string, std::string> producer = options_.offset_log.producer;
  // Its records live as long as their transaction (ExactlyOnceProducerConfig), not as long as
  // the worker's at-least-once offset commits.
  producer.erase("message.timeout.ms");
  producer["partitioner"] = "murmur2_random";
  producer["client.id"] = "connector-producer-" + c + "-0";
  producer = kafka::ExactlyOnceProducerConfig(
      std::move(producer), kafka::TaskTransactionalId(options_.group.group_id, c, 0));
  return std::make_unique<TransactionalOffsetWriter>(reads, std::move(producer), topic, c);
}

}  // namespace connectd::distributed
