// File: worker.h
//
// Worker: runs this process's connectors and tasks (Connect's Worker). The herder decides what
// runs; the Worker builds each connector instance and task with its clients (producer per
// source task, consumer per sink task, configs as Connect builds them), resolves config-provider
// references just before start, and stops them.
//
// Threads: every method on the herder's thread (it may block: connector start/stop, task
// joins). Tasks run on their own threads and report through the StatusListener.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/config/config_providers.h"
#include "runtime/config/worker_config.h"
#include "runtime/herder_api/herder_types.h"
#include "runtime/herder_api/task_status.h"
#include "runtime/plugin/plugin_registry.h"
#include "runtime/plugin/plugin_stages.h"
#include "runtime/worker/abstract_worker_source_task.h"
#include "runtime/worker/source_offsets.h"
#include "runtime/worker/worker_connector.h"
#include "runtime/worker/worker_metrics.h"
#include "runtime/worker/worker_task.h"

namespace connectd::worker {

// Gives a connector's offset view (the backing store bound to a connector name).
using OffsetStoreFactory = std::function<std::shared_ptr<ConnectorOffsetStore>(const std::string&)>;

// The task class name Java's connector would report for `connector_class`, by Connect's naming
// convention: a trailing "Connector" becomes "Task" (org.apache.kafka.connect.file.
// FileStreamSourceConnector -> ...FileStreamSourceTask), any other name gets "Task" appended.
// This holds for every connector connectd ships with a Java twin: FileStreamSource/Sink,
// VerifiableSource, MockSource and MirrorSource/Checkpoint/Heartbeat.
std::string TaskClassName(std::string_view connector_class);

// What the worker needs from a distributed herder to run source tasks exactly once (KIP-618,
// exactly.once.source.support=enabled). Every callback may block; none runs on the herder's
// thread except `generation`.
struct ExactlyOnceHooks {
  std::string group_id;
  std::string worker_offsets_topic;  // offset.storage.topic
  // The connector's current task-config generation (herder thread, when the task is built).
  std::function<std::optional<int32_t>(const std::string& connector)> generation;
  // Connect's preProducerCheck: a zombie-fencing round for the connector, done by the leader
  // (task thread; gives up once `stopping` says so).
  std::function<absl::Status(const herder::ConnectorTaskId& task,
                             const std::function<bool()>& stopping)>
      fence;
  // Connect's postProducerCheck: the config topic read to its end still has `generation` and the
  // task is still assigned here (task thread).
  std::function<absl::Status(const herder::ConnectorTaskId& task, std::optional<int32_t> generation,
                             const std::function<bool()>& stopping)>
      verify;
  // The offsets a task of `connector` reads when the connector sets offsets.storage.topic to
  // `topic` (read_committed; falls back to the worker's topic). Null: the worker's store.
  std::function<absl::StatusOr<std::shared_ptr<ConnectorOffsetStore>>(const std::string& connector,
                                                                      const std::string& topic)>
      connector_offsets;
};

class Worker {
 public:
  Worker(const config::WorkerConfig& config, const plugin::PluginRegistry& plugins,
         config::ConfigProviders providers, OffsetStoreFactory offsets, StatusListener& listener,
         ConnectorEvents& events, std::string worker_id, metrics::MetricsRegistry& metrics);
  ~Worker();

  const std::string& worker_id() const { return worker_id_; }

  // From now on source tasks run exactly once (ExactlyOnceWorkerSourceTask). Before any task.
  void EnableExactlyOnce(ExactlyOnceHooks hooks) { exactly_once_ = std::move(hooks); }
  bool exactly_once_enabled() const { return exactly_once_.has_value(); }
  const plugin::PluginRegistry& plugins() const { return plugins_; }

  // Starts connector `name` from its raw (unresolved) config in `state`. A failure is also
  // reported as FAILED status.
  absl::Status StartConnector(const std::string& name, const herder::ConfigMap& config,
                              herder::TargetState state);
  bool IsConnectorRunning(const std::string& name) const;
  void SetConnectorTargetState(const std::string& name, herder::TargetState state);
  // The connector's task configs for its tasks.max, exactly the maps a Java worker writes to
  // the config topic for the same connector config (a leader rewrites task configs only when
  // these maps change, so Java and connectd workers sharing a config topic must agree), built as
  // Java's Worker.connectorTaskConfigs and AbstractHerder.reverseTransform build them:
  //   - each map the connector returned, plus `task.class`: Java puts the connector's
  //     taskClass().getName() there. The plugin ABI carries no task class name, so it is derived
  //     from the connector class by Connect's naming (TaskClassName below), unless the
  //     plugin's task config already sets `task.class` (a plugin whose Java twin breaks the
  //     naming rule declares its task class that way);
  //   - `topics` and `topics.regex` from `config` when it has them, for every connector type
  //     (Java adds them to sink and source task configs alike);
  //   - each key whose value in `config` holds a config-provider reference (${provider:key}) gets
  //     that raw value back, so no resolved secret reaches the config topic (reverseTransform).
  // `config` is the raw connector config, as stored (not resolved).
  absl::StatusOr<std::vector<herder::ConfigMap>> ConnectorTaskConfigs(
      const std::string& name, const herder::ConfigMap& config);
  void StopConnector(const std::string& name);

  // Starts one task from the raw connector config and raw task config.
  absl::Status StartTask(const herder::ConnectorTaskId& id,
                         const herder::ConfigMap& connector_config,
                         const herder::ConfigMap& task_config, herder::TargetState state);
  void SetTaskTargetState(const herder::ConnectorTaskId& id, herder::TargetState state);
  // Signals every task, then waits for all together (task.shutdown.graceful.timeout.ms).
  void StopAndAwaitTasks(const std::vector<herder::ConnectorTaskId>& ids);
  std::vector<herder::ConnectorTaskId> TaskIds(const std::string& connector) const;

  // Stops everything (shutdown).
  void StopAll();

 private:
  absl::StatusOr<std::unique_ptr<WorkerTask>> BuildTask(const herder::ConnectorTaskId& id,
                                                        const plugin::ConnectorPlugin& plugin,
                                                        const herder::ConfigMap& connector_config,
                                                        const herder::ConfigMap& task_config,
                                                        herder::TargetState state);

  // The exactly-once settings of a source task (and its producer config, made transactional).
  absl::StatusOr<ExactlyOnceTaskOptions> ExactlyOnceOptionsFor(
      const herder::ConnectorTaskId& id, const herder::ConfigMap& connector_config,
      SourceTaskOptions& options);

  const config::WorkerConfig& config_;
  const plugin::PluginRegistry& plugins_;
  const plugin::PluginStages plugin_stages_{plugins_};
  const config::ConfigProviders providers_;
  OffsetStoreFactory offsets_;
  StatusListener& listener_;
  ConnectorEvents& events_;
  const std::string worker_id_;
  metrics::MetricsRegistry& metrics_;
  // connect-worker-metrics; every state report of the worker's connectors and tasks passes
  // through it to listener_. Declared before them: it outlives them.
  WorkerMetricsGroup metrics_group_;
  // Fetch responses of every task's batch pass-through, bounded by passthrough.buffer.memory.
  const std::shared_ptr<kafka::protocol::FrameBufferPool> batch_copy_buffers_;

  std::optional<ExactlyOnceHooks> exactly_once_;
  std::map<std::string, std::unique_ptr<WorkerConnector>> connectors_;
  std::map<herder::ConnectorTaskId, std::unique_ptr<WorkerTask>> tasks_;

  // connector-count and task-count into metrics_group_.
  void PublishCounts();
};

}  // namespace connectd::worker
