// File: worker_source_task.h
//
// WorkerSourceTask: runs one source task (Connect's AbstractWorkerSourceTask, at-least-once):
// poll the plugin -> produce each record with the task's own producer -> on acknowledgement
// call commitRecord and make its source offset committable -> every offset.flush.interval.ms
// (and on stop) commit the committable offsets, then call the plugin's commit.
//
// No data loss: an offset is committed only for records the broker acknowledged, together with
// every earlier record of the same source partition (SubmittedRecords). Records handed over
// zero-copy go to librdkafka without a copy and are released after their delivery report.
//
// Threads: everything on the task thread (delivery reports run inside rd_kafka_poll there);
// Stop()/Transition() from any thread.
#pragma once

#include <librdkafka/rdkafka.h>

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "runtime/kafka/rdkafka_handles.h"
#include "runtime/plugin/plugin_instances.h"
#include "runtime/plugin/plugin_registry.h"
#include "runtime/worker/source_offsets.h"
#include "runtime/worker/worker_task.h"

namespace connectd::worker {

struct SourceTaskOptions {
  plugin::Props task_config;                    // resolved (config providers applied)
  std::map<std::string, std::string> producer;  // librdkafka properties, final
  std::chrono::milliseconds offset_flush_interval{60000};
  std::chrono::milliseconds offset_flush_timeout{5000};
  std::chrono::milliseconds poll_timeout{1000};
  metrics::MetricsRegistry* metrics = nullptr;  // not null
};

class WorkerSourceTask : public WorkerTask, private plugin::SourceTaskContextHost {
 public:
  WorkerSourceTask(herder::ConnectorTaskId id, StatusListener& listener,
                   herder::TargetState initial_state, const plugin::ConnectorPlugin& plugin,
                   SourceTaskOptions options, std::shared_ptr<ConnectorOffsetStore> offsets);
  ~WorkerSourceTask() override;

  // Counters for tests and metrics (read from any thread).
  int64_t records_polled() const { return records_polled_.load(); }
  int64_t records_acked() const { return records_acked_.load(); }
  int64_t offset_commits() const { return offset_commits_.load(); }

 private:
  struct InFlight;
  class Batch;

  absl::Status Initialize() override;
  absl::Status Iterate() override;
  void Close() override;
  void SignalPluginStop() override;

  // SourceTaskContextHost
  std::optional<std::string> Offset(std::string_view source_partition) override;
  metrics::MetricsScope* Metrics() override { return &metrics_scope_; }

  absl::Status Send(std::unique_ptr<InFlight> record);
  void OnDelivery(const rd_kafka_message_t* message);
  static void DeliveryCallback(rd_kafka_t* rk, const rd_kafka_message_t* message, void* opaque);
  void CommitOffsets();

  const plugin::ConnectorPlugin& plugin_;
  SourceTaskOptions options_;
  std::shared_ptr<ConnectorOffsetStore> offsets_;

  std::mutex instance_mu_;
  std::shared_ptr<plugin::SourceTaskInstance> instance_;  // guarded by instance_mu_

  // Task thread only.
  kafka::RdKafkaPtr producer_;
  SubmittedRecords submitted_;
  absl::Status send_failure_;
  std::chrono::steady_clock::time_point next_commit_;
  std::set<std::string> topics_seen_;

  std::atomic<int64_t> records_polled_{0};
  std::atomic<int64_t> records_acked_{0};
  int64_t in_flight_ = 0;  // task thread: produced, delivery report not yet served
  // The longest plugin poll while records await their acknowledgement.
  static constexpr std::chrono::milliseconds kAckPollInterval{20};
  std::atomic<int64_t> offset_commits_{0};
};

}  // namespace connectd::worker
