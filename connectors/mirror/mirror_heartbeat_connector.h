// File: mirror_heartbeat_connector.h
//
// MirrorHeartbeatConnector (Kafka's class name and aliases): every
// emit.heartbeats.interval.seconds one Heartbeat(source alias, target alias, now) record, Kafka's
// bytes, into the `heartbeats` topic (1 partition, compacted, created if missing).
//
// Placement (connectd's documented difference, heartbeats.topic.location):
//   source (default)  the flow's SOURCE cluster, through the task's own producer: the record
//                     for A->B travels the same path as data and arrives on B as
//                     A.heartbeats with key (A, B), so its age on B measures the whole flow;
//   target            Kafka's placement: the TARGET cluster, through the worker's producer.
// Emission keeps its interval while data topics are idle; librdkafka reconnects by itself.
//
// Threads: the task's poll on its thread; stop from any thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>

#include "connectd/sdk/sdk.h"
#include "connectors/mirror/kafka_clients.h"
#include "connectors/mirror/mirror_config.h"

namespace connectd::mirror {

class MirrorHeartbeatTask : public sdk::SourceTask {
 public:
  ~MirrorHeartbeatTask() override;
  void start(const sdk::Props& props) override;
  void poll(sdk::SourceBatch& batch) override;
  void stop() override;

 private:
  std::string source_alias_, target_alias_, topic_, partition_json_;
  bool on_source_ = true;
  std::chrono::milliseconds interval_{1000};
  std::chrono::steady_clock::time_point next_;
  KafkaHandle producer_;  // source placement only
  std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;  // guarded by mu_
};

class MirrorHeartbeatConnector : public sdk::SourceConnector {
 public:
  static constexpr char kClassName[] = "org.apache.kafka.connect.mirror.MirrorHeartbeatConnector";
  static constexpr char kVersion[] = "4.4.0";
  using TaskType = MirrorHeartbeatTask;
  static sdk::ConfigDef configDef();

  void start(const sdk::Props& props) override;
  std::vector<sdk::Props> taskConfigs(int max_tasks) override;
  void validate(const sdk::Props& props, sdk::Validation& validation) override {
    ValidateForwardingAdmin(props, validation);
    ValidateClientConfigs(props, validation);
  }
  void stop() override {}
  bool alterOffsets(const sdk::Props& config,
                    const std::vector<sdk::OffsetChange>& changes) override;

 private:
  sdk::Props props_;
};

}  // namespace connectd::mirror
