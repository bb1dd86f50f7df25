#include "runtime/worker/worker.h"

#include <malloc.h>

#include "runtime/kafka/client_metrics.h"
#include "runtime/kafka/protocol/frame_buffer_pool.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/common/logging.h"
#include "runtime/config/connector_config.h"
#include "runtime/kafka/client_config.h"
#include "runtime/worker/exactly_once_worker_source_task.h"
#include "runtime/worker/worker_sink_task.h"
#include "runtime/worker/worker_source_task.h"

namespace connectd::worker {
namespace {

constexpr char kLogger[] = "org.apache.kafka.connect.runtime.Worker";

std::string Get(const herder::ConfigMap& config, const std::string& key,
                const std::string& fallback = "") {
  auto it = config.find(key);
  return it == config.end() ? fallback : it->second;
}

}  // namespace

std::string TaskClassName(std::string_view connector_class) {
  constexpr std::string_view kSuffix = "Connector";
  std::string_view stem = connector_class;
  if (stem.size() > kSuffix.size() && stem.substr(stem.size() - kSuffix.size()) == kSuffix) {
    stem.remove_suffix(kSuffix.size());
  }
  return std::string(stem) + "Task";
}

Worker::Worker(const config::WorkerConfig& config, const plugin::PluginRegistry& plugins,
               config::ConfigProviders providers, OffsetStoreFactory offsets,
               StatusListener& listener, ConnectorEvents& events, std::string worker_id,
               metrics::MetricsRegistry& metrics)
    : config_(config),
      plugins_(plugins),
      providers_(std::move(providers)),
      offsets_(std::move(offsets)),
      listener_(listener),
      events_(events),
      worker_id_(std::move(worker_id)),
      metrics_(metrics),
      metrics_group_(metrics, listener, worker_id_),
      batch_copy_buffers_(std::make_shared<kafka::protocol::FrameBufferPool>(
          /*max_cached_bytes=*/std::min<size_t>(
              32 << 20, static_cast<size_t>(config.passthrough_buffer_memory()) / 4),
          /*min_pooled_bytes=*/64 << 10,
          /*max_held_bytes=*/static_cast<size_t>(config.passthrough_buffer_memory()))) {
  PublishCounts();
}

void Worker::PublishCounts() { metrics_group_.SetCounts(connectors_.size(), tasks_.size()); }

Worker::~Worker() { StopAll(); }

absl::Status Worker::StartConnector(const std::string& name, const herder::ConfigMap& config,
                                    herder::TargetState state) {
  if (connectors_.count(name) != 0) {
    return absl::AlreadyExistsError(absl::StrCat("Connector ", name, " already running"));
  }
  const std::string cls = Get(config, "connector.class");
  metrics_group_.ConnectorStarting(name);
  const plugin::ConnectorPlugin* plugin = plugins_.FindForConfig(config);
  if (plugin == nullptr) {
    absl::Status missing = absl::NotFoundError(absl::StrCat(
        "Failed to find any class that implements Connector and which name matches ", cls,
        config.count("connector.plugin.version")
            ? absl::StrCat(" at version ", Get(config, "connector.plugin.version"))
            : std::string()));
    metrics_group_.OnConnectorState(name, State::kFailed, std::string(missing.message()));
    return missing;
  }
  absl::StatusOr<herder::ConfigMap> resolved = providers_.Transform(config);
  if (!resolved.ok()) {
    metrics_group_.OnConnectorState(name, State::kFailed, std::string(resolved.status().message()));
    return resolved.status();
  }
  auto connector = std::make_unique<WorkerConnector>(name, *plugin, *std::move(resolved),
                                                     metrics_group_, events_, metrics_);
  absl::Status started = connector->Initialize(state);
  connectors_[name] = std::move(connector);
  PublishCounts();
  return started;
}

bool Worker::IsConnectorRunning(const std::string& name) const {
  auto it = connectors_.find(name);
  return it != connectors_.end() && it->second->running();
}

void Worker::SetConnectorTargetState(const std::string& name, herder::TargetState state) {
  auto it = connectors_.find(name);
  if (it != connectors_.end()) it->second->Transition(state);
}

absl::StatusOr<std::vector<herder::ConfigMap>> Worker::ConnectorTaskConfigs(
    const std::string& name, const herder::ConfigMap& config) {
  auto it = connectors_.find(name);
  if (it == connectors_.end()) {
    return absl::NotFoundError(absl::StrCat("Connector ", name, " is not running here"));
  }
  int max_tasks = 1;
  (void)absl::SimpleAtoi(Get(config, "tasks.max", "1"), &max_tasks);
  bool enforce = Get(config, "tasks.max.enforce", "true") != "false";
  absl::StatusOr<plugin::TaskConfigList> configs = it->second->TaskConfigs(max_tasks, enforce);
  if (!configs.ok()) return configs.status();
  // As Java's Worker.connectorTaskConfigs, then AbstractHerder.reverseTransform (see worker.h).
  const std::string task_class = TaskClassName(it->second->plugin().class_name);
  std::vector<std::string> with_references;
  for (const auto& [key, value] : config) {
    if (config::ConfigProviders::HasReference(value)) with_references.push_back(key);
  }
  std::vector<herder::ConfigMap> out;
  for (herder::ConfigMap task : *configs) {
    task.try_emplace("task.class", task_class);
    for (const char* key : {"topics", "topics.regex"}) {
      if (auto topics = config.find(key); topics != config.end()) task[key] = topics->second;
    }
    for (const std::string& key : with_references) {
      if (auto resolved = task.find(key); resolved != task.end()) resolved->second = config.at(key);
    }
    out.push_back(std::move(task));
  }
  return out;
}

void Worker::StopConnector(const std::string& name) {
  auto it = connectors_.find(name);
  if (it == connectors_.end()) return;
  it->second->Shutdown();
  connectors_.erase(it);
  PublishCounts();
}

absl::StatusOr<std::unique_ptr<WorkerTask>> Worker::BuildTask(
    const herder::ConnectorTaskId& id, const plugin::ConnectorPlugin& plugin,
    const herder::ConfigMap& connector_config, const herder::ConfigMap& task_config,
    herder::TargetState state) {
  absl::StatusOr<herder::ConfigMap> resolved_task = providers_.Transform(task_config);
  if (!resolved_task.ok()) return resolved_task.status();
  absl::StatusOr<herder::ConfigMap> resolved_connector = providers_.Transform(connector_config);
  if (!resolved_connector.ok()) return resolved_connector.status();
  // Converters, transforms and error handling: a bad one fails the task at start, as Java's
  // Worker fails to build the task.
  absl::StatusOr<std::unique_ptr<RecordPipeline>> pipeline =
      RecordPipeline::Make(*resolved_connector, config_.parsed().originals(), &plugin_stages_);
  if (!pipeline.ok()) return pipeline.status();
  // Connect's settings for the client (`base`), then producer.*/consumer.*, then the
  // connector's overrides; Java's client defaults fill what none of them sets.
  auto client_config = [&](const std::string& client, jvm::ClientRole role,
                           std::map<std::string, std::string> base)
      -> absl::StatusOr<std::map<std::string, std::string>> {
    std::map<std::string, std::string> java = config_.ClientJava(
        role == jvm::ClientRole::kProducer   ? config::WorkerConfig::Client::kProducer
        : role == jvm::ClientRole::kConsumer ? config::WorkerConfig::Client::kConsumer
                                             : config::WorkerConfig::Client::kAdmin);
    absl::StatusOr<std::map<std::string, std::string>> overrides = config::AllowedClientOverrides(
        *resolved_connector, client, config_.client_override_policy());
    if (!overrides.ok()) return overrides.status();
    for (const auto& [k, v] : *overrides) java[k] = v;
    jvm::TranslatedConfig translated = jvm::TranslateJavaClientConfig(java, role);
    if (!translated.errors.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("The ", client,
                       " settings cannot be honoured: ", absl::StrJoin(translated.errors, "; ")));
    }
    for (const std::string& warning : translated.warnings) {
      CONNECTD_LOG(kWarn, kLogger) << "[" << id.connector << "|task-" << id.task << "] " << warning;
    }
    std::map<std::string, std::string> props = jvm::OverlayOn(std::move(base), translated);
    // librdkafka's statistics feed the client's Java-named metrics (kafka/client_metrics.h).
    props.try_emplace("statistics.interval.ms", kafka::kDefaultStatisticsIntervalMs);
    return props;
  };
  const std::string task_suffix = absl::StrCat(id.connector, "-", id.task);
  if (plugin.type == plugin::ConnectorType::kSource) {
    SourceTaskOptions options;
    options.metrics = &metrics_;
    options.task_config = *std::move(resolved_task);
    // Connect's source producer defaults, then producer.*, then producer.override.*.
    // Java's buffer.memory default (32 MiB, a Java client default applied by the translation)
    // bounds what a task holds: a record stays in its fetched buffer until acknowledged.
    absl::StatusOr<std::map<std::string, std::string>> producer =
        client_config("producer", jvm::ClientRole::kProducer,
                      {{"acks", "all"},
                       {"max.in.flight.requests.per.connection", "1"},
                       {"enable.idempotence", "false"},
                       {"message.timeout.ms", "2147483647"},
                       {"client.id", "connector-producer-" + task_suffix}});
    if (!producer.ok()) return producer.status();
    options.producer = *std::move(producer);
    options.offset_flush_interval = std::chrono::milliseconds(config_.offset_flush_interval_ms());
    options.offset_flush_timeout = std::chrono::milliseconds(config_.offset_flush_timeout_ms());
    options.pipeline = *std::move(pipeline);
    absl::StatusOr<std::unique_ptr<TopicCreation>> topic_creation = TopicCreation::FromConfigs(
        config_.parsed().GetBool("topic.creation.enable"), *resolved_connector);
    if (!topic_creation.ok()) return topic_creation.status();
    options.topic_creation = *std::move(topic_creation);
    options.batch_copy_buffers = batch_copy_buffers_;
    std::shared_ptr<ConnectorOffsetStore> offsets = offsets_(id.connector);
    if (exactly_once_) {
      absl::StatusOr<ExactlyOnceTaskOptions> eos =
          ExactlyOnceOptionsFor(id, *resolved_connector, options);
      if (!eos.ok()) return eos.status();
      options.exactly_once = *std::move(eos);
      const std::string& topic = options.exactly_once->offsets_topic;
      if (topic != exactly_once_->worker_offsets_topic && exactly_once_->connector_offsets) {
        absl::StatusOr<std::shared_ptr<ConnectorOffsetStore>> store =
            exactly_once_->connector_offsets(id.connector, topic);
        if (!store.ok()) return store.status();
        offsets = *std::move(store);
      }
    }
    if (options.exactly_once) {
      return std::unique_ptr<WorkerTask>(new ExactlyOnceWorkerSourceTask(
          id, metrics_group_, state, plugin, std::move(options), std::move(offsets)));
    }
    return std::unique_ptr<WorkerTask>(new WorkerSourceTask(
        id, metrics_group_, state, plugin, std::move(options), std::move(offsets)));
  }
  if (absl::Status topics = config::ValidateSinkTopics(connector_config); !topics.ok()) {
    return topics;
  }
  SinkTaskOptions options;
  options.metrics = &metrics_;
  options.task_config = *std::move(resolved_task);
  absl::StatusOr<std::map<std::string, std::string>> consumer =
      client_config("consumer", jvm::ClientRole::kConsumer,
                    {{"group.id", "connect-" + id.connector},
                     {"enable.auto.commit", "false"},
                     {"auto.offset.reset", "earliest"},
                     {"client.id", "connector-consumer-" + task_suffix}});
  if (!consumer.ok()) return consumer.status();
  options.consumer = *std::move(consumer);
  options.pipeline = *std::move(pipeline);
  if (!options.pipeline->errors().dlq_topic.empty()) {
    // Java's DLQ producer: the worker's producer configs with the connector's overrides.
    absl::StatusOr<std::map<std::string, std::string>> producer =
        client_config("producer", jvm::ClientRole::kProducer,
                      {{"acks", "all"}, {"client.id", "connector-dlq-producer-" + task_suffix}});
    if (!producer.ok()) return producer.status();
    options.dlq_producer = *std::move(producer);
  }
  options.topics = config::SplitList(Get(connector_config, "topics"));
  options.topics_regex = Get(connector_config, "topics.regex");
  options.offset_flush_interval = std::chrono::milliseconds(config_.offset_flush_interval_ms());
  options.offset_flush_timeout = std::chrono::milliseconds(config_.offset_flush_timeout_ms());
  return std::unique_ptr<WorkerTask>(
      new WorkerSinkTask(id, metrics_group_, state, plugin, std::move(options)));
}

absl::StatusOr<ExactlyOnceTaskOptions> Worker::ExactlyOnceOptionsFor(
    const herder::ConnectorTaskId& id, const herder::ConfigMap& connector_config,
    SourceTaskOptions& options) {
  const ExactlyOnceHooks& hooks = *exactly_once_;
  absl::StatusOr<kafka::TransactionBoundary> boundary =
      kafka::ParseTransactionBoundary(connector_config);
  if (!boundary.ok()) return boundary.status();
  if (*boundary == kafka::TransactionBoundary::kConnector) {
    // The plugin ABI has no TransactionContext: validation refuses this boundary already.
    return absl::InvalidArgumentError(
        "The connector does not support connector-defined transaction boundaries with the given "
        "configuration. Please reconfigure it to use a different transaction boundary "
        "definition.");
  }
  ExactlyOnceTaskOptions eos;
  eos.boundary = *boundary;
  eos.boundary_interval =
      kafka::TransactionBoundaryInterval(connector_config, config_.offset_flush_interval_ms());
  const std::string connector_topic = Get(connector_config, "offsets.storage.topic");
  eos.offsets_topic = connector_topic.empty() ? hooks.worker_offsets_topic : connector_topic;
  std::vector<std::string> warnings;
  options.producer = kafka::ExactlyOnceProducerConfig(
      std::move(options.producer),
      kafka::TaskTransactionalId(hooks.group_id, id.connector, id.task), &warnings);
  for (const std::string& warning : warnings) {
    CONNECTD_LOG(kWarn, kLogger) << "[" << id.connector << "|task-" << id.task << "] " << warning;
  }
  int64_t transaction_timeout = 0;
  if (auto it = options.producer.find("transaction.timeout.ms");
      it == options.producer.end() || !absl::SimpleAtoi(it->second, &transaction_timeout) ||
      transaction_timeout <= 0) {
    transaction_timeout = 60000;  // librdkafka's default
  }
  eos.transaction_timeout = std::chrono::milliseconds(transaction_timeout);
  const std::optional<int32_t> generation =
      hooks.generation ? hooks.generation(id.connector) : std::nullopt;
  if (hooks.fence) {
    eos.pre_producer_check = [fence = hooks.fence, id](const std::function<bool()>& stopping) {
      return fence(id, stopping);
    };
  }
  if (hooks.verify) {
    eos.post_producer_check = [verify = hooks.verify, id,
                               generation](const std::function<bool()>& stopping) {
      return verify(id, generation, stopping);
    };
  }
  return eos;
}

absl::Status Worker::StartTask(const herder::ConnectorTaskId& id,
                               const herder::ConfigMap& connector_config,
                               const herder::ConfigMap& task_config, herder::TargetState state) {
  if (tasks_.count(id) != 0) {
    return absl::AlreadyExistsError(
        absl::StrCat("Task ", id.connector, "-", id.task, " already running"));
  }
  metrics_group_.TaskStarting(id);
  const plugin::ConnectorPlugin* plugin = plugins_.FindForConfig(connector_config);
  absl::StatusOr<std::unique_ptr<WorkerTask>> task =
      plugin == nullptr
          ? absl::StatusOr<std::unique_ptr<WorkerTask>>(absl::NotFoundError(
                absl::StrCat("Failed to find any class that implements Connector and which name "
                             "matches ",
                             Get(connector_config, "connector.class"))))
          : BuildTask(id, *plugin, connector_config, task_config, state);
  if (!task.ok()) {
    CONNECTD_LOG(kError, kLogger) << "Failed to start task " << id.connector << "-" << id.task
                                  << ": " << task.status().message();
    metrics_group_.OnTaskState(id, State::kFailed, std::string(task.status().message()));
    metrics_group_.TaskRemoved(id);
    return task.status();
  }
  (*task)->Start();
  tasks_[id] = *std::move(task);
  PublishCounts();
  return absl::OkStatus();
}

void Worker::SetTaskTargetState(const herder::ConnectorTaskId& id, herder::TargetState state) {
  auto it = tasks_.find(id);
  if (it != tasks_.end()) it->second->Transition(state);
}

void Worker::StopAndAwaitTasks(const std::vector<herder::ConnectorTaskId>& ids) {
  std::vector<std::unique_ptr<WorkerTask>> stopping;
  for (const auto& id : ids) {
    auto it = tasks_.find(id);
    if (it == tasks_.end()) continue;
    it->second->Stop();
    stopping.push_back(std::move(it->second));
    tasks_.erase(it);
    metrics_group_.TaskRemoved(id);
  }
  PublishCounts();
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::milliseconds(config_.task_shutdown_graceful_timeout_ms());
  for (auto& task : stopping) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (!task->AwaitStop(std::max(left, std::chrono::milliseconds(0)))) {
      // Abandoned: its thread deletes the task when it ends.
      task.release();
    }
  }
  if (stopping.empty()) return;
  stopping.clear();
  // What the stopped tasks freed goes back to the system. glibc keeps freed memory in the arena
  // of the thread that freed it (one per task and client thread, up to 8 per core), so a worker
  // whose tasks come and go (rebalances, connectors deleted, pass-through copies handed over)
  // otherwise keeps much of what every task it ever ran held: RSS 98 MiB after six 3.6M-record
  // pass-through copies, 40 MiB after the first (issue 49, README's memory table).
  malloc_trim(0);
}

std::vector<herder::ConnectorTaskId> Worker::TaskIds(const std::string& connector) const {
  std::vector<herder::ConnectorTaskId> ids;
  for (const auto& [id, task] : tasks_) {
    if (id.connector == connector) ids.push_back(id);
  }
  return ids;
}

void Worker::StopAll() {
  std::vector<herder::ConnectorTaskId> ids;
  for (const auto& [id, task] : tasks_) ids.push_back(id);
  StopAndAwaitTasks(ids);
  for (auto& [name, connector] : connectors_) connector->Shutdown();
  connectors_.clear();
}

}  // namespace connectd::worker
