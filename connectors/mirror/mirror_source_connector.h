// File: mirror_source_connector.h
//
// MirrorSourceConnector (Kafka's class name and aliases): chooses the source topics to mirror,
// creates their remote topics on the target (same partition count, replicated configs), keeps
// watching for new topics and partitions, and deals the source partitions to tasks round robin.
//
// Topic discovery: one Metadata request to the source every refresh.topics.interval.seconds
// (connectd default 5 s, Kafka's 600 s), so a new topic is mirrored within seconds while the
// source sees one cheap request per interval; configs are described only for new topics.
//
// Threads: start/taskConfigs/stop on a worker thread; the refresher on its own thread, which
// asks the worker for task reconfiguration when the partition set changes.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "connectd/sdk/sdk.h"
#include "connectors/mirror/kafka_clients.h"
#include "connectors/mirror/mirror_source_task.h"
#include "connectors/mirror_client/filters.h"
#include "connectors/mirror_client/replication_policy.h"

namespace connectd::mirror {

class MirrorSourceConnector : public sdk::SourceConnector {
 public:
  static constexpr char kClassName[] = "org.apache.kafka.connect.mirror.MirrorSourceConnector";
  static constexpr char kVersion[] = "4.4.0";
  using TaskType = MirrorSourceTask;
  static sdk::ConfigDef configDef();

  ~MirrorSourceConnector() override;
  void start(const sdk::Props& props) override;
  std::vector<sdk::Props> taskConfigs(int max_tasks) override;
  void stop() override;
  void validate(const sdk::Props& props, sdk::Validation& validation) override;
  bool alterOffsets(const sdk::Props& config,
                    const std::vector<sdk::OffsetChange>& changes) override;

 private:
  // The source partitions to mirror ("topic-partition"), creating what the target lacks.
  // Returns false (logged) if a cluster could not be reached.
  bool Refresh();
  void CreateOffsetSyncsTopic();
  void RefreshLoop();
  bool ShouldReplicate(const std::string& topic) const;

  sdk::Props props_;
  bool enabled_ = true;
  std::string source_alias_, target_alias_;
  std::unique_ptr<ReplicationPolicy> policy_;
  std::optional<TopicFilter> topic_filter_;
  std::optional<ConfigPropertyFilter> config_filter_;
  KafkaHandle source_admin_, target_admin_;
  int admin_timeout_ms_ = 60000;

  std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;                // guarded by mu_
  std::vector<std::string> partitions_;  // guarded by mu_
  std::thread refresher_;
};

}  // namespace connectd::mirror
