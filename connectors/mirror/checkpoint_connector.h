// File: checkpoint_connector.h
//
// MirrorCheckpointConnector (Kafka's class name): finds the consumer groups on the source whose
// offsets are worth checkpointing and deals them to MirrorCheckpointTasks (Kafka's
// MirrorCheckpointConnector).
//
// start() creates `<source>.checkpoints.internal` on the target (1 partition, compacted,
// checkpoints.topic.replication.factor) and loads the groups: ListConsumerGroups on the source,
// the group filter (groups / groups.exclude), then ListConsumerGroupOffsets for all of them,
// keeping groups with at least one committed partition of a topic the topic filter accepts.
// A refresher thread repeats this every refresh.groups.interval.seconds and asks the worker to
// reconfigure tasks when the set changed. taskConfigs deals the groups in contiguous chunks to
// min(tasks.max, #groups) tasks, with task.assigned.groups and task.index, in the order Java's
// HashSet of the groups iterates (the source's listing order put into a HashSet, see
// jvm/java_hash_order.h), so the task configs equal Java's; it throws
// RetriableException until the first load succeeded, and returns no tasks when the connector
// is disabled, no group qualifies, or emit.checkpoints.enabled=false.
//
// Threads: start/taskConfigs/stop/validate/alterOffsets on a worker thread; the refresher on its
// own thread.
#pragma once

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "connectd/sdk/sdk.h"
#include "connectors/mirror/checkpoint_task.h"
#include "connectors/mirror/kafka_clients.h"
#include "connectors/mirror_client/filters.h"
#include "connectors/mirror_client/replication_policy.h"

namespace connectd::mirror {

class MirrorCheckpointConnector : public sdk::SourceConnector {
 public:
  static constexpr char kClassName[] = "org.apache.kafka.connect.mirror.MirrorCheckpointConnector";
  static constexpr char kVersion[] = "4.4.0";
  using TaskType = MirrorCheckpointTask;
  static sdk::ConfigDef configDef();

  ~MirrorCheckpointConnector() override;
  void start(const sdk::Props& props) override;
  std::vector<sdk::Props> taskConfigs(int max_tasks) override;
  void stop() override;
  void validate(const sdk::Props& props, sdk::Validation& validation) override;
  bool alterOffsets(const sdk::Props& config,
                    const std::vector<sdk::OffsetChange>& changes) override;

  // The groups taskConfigs deals out (nullopt until the first load succeeded).
  std::optional<std::set<std::string>> knownConsumerGroupsForTest();

 private:
  // The groups to checkpoint now, in Java's iteration order; nullopt (logged) when the source
  // could not be queried.
  std::optional<std::vector<std::string>> FindConsumerGroups();
  void CreateInternalTopics();
  void RefreshLoop();

  // Constant after start().
  sdk::Props props_;
  bool enabled_ = true;
  std::string source_alias_, target_alias_;
  std::unique_ptr<ReplicationPolicy> policy_;
  std::optional<TopicFilter> topic_filter_;
  std::optional<GroupFilter> group_filter_;
  KafkaHandle source_admin_, target_admin_;
  int admin_timeout_ms_ = 60000;

  std::mutex mu_;
  std::condition_variable cv_;
  std::atomic<bool> stopping_{false};
  std::optional<std::vector<std::string>> known_groups_;  // Java's order; guarded by mu_
  std::thread refresher_;
};

}  // namespace connectd::mirror
