// File: mirror_source_connector.h
//
// MirrorSourceConnector (Kafka's class name and aliases): chooses the source topics to mirror,
// creates their remote topics on the target (same partition count, replicated configs), keeps
// watching for new topics and partitions, and deals the source partitions to tasks round robin,
// in the order Java lists them (its Admin client's HashMaps, see
// jvm/java_hash_order.h), so task.assigned.partitions equals Java's.
//
// Topic discovery: one Metadata request to the source every refresh.topics.interval.seconds
// (connectd default 5 s, Kafka's 600 s), so a new topic is mirrored within seconds while the
// source sees one cheap request per interval; configs are described only for new topics. One
// DescribeTopics request per refresh reads the mirrored topics' IDs, which the task configs
// carry (kTaskAssignedTopicIds): a topic deleted and re-created between two refreshes gets a new
// ID, so new task configs, so restarted tasks that copy the new topic from its beginning.
//
// Periodic jobs (as Kafka's MirrorSourceConnector schedules them), all on ONE scheduler thread, run
// one at a time:
//   topic refresh      every refresh.topics.interval.seconds, first after one interval (start()
//                      itself refreshes once); asks for task reconfiguration on a change.
//   ACL sync           every sync.topic.acls.interval.seconds, first right after start
//   (syncTopicAcls). topic config sync  every sync.topic.configs.interval.seconds, first right
//   after start (KIP-894:
//                      IncrementalAlterConfigs, the ops of topic_config_sync.h).
// A job that is disabled (`*.enabled=false`) or has a negative interval is not scheduled; an
// interval of 0 runs every second. Job errors are logged and the job runs again next interval;
// only a target that cannot alter configs at all fails the connector (context().raiseError),
// as Java does.
//
// Threads: start/taskConfigs/stop on a worker thread; the scheduler on its own thread. stop()
// wakes the scheduler and cancels the admin request it is waiting for (checked every 100 ms),
// so it returns promptly; only the topic listing (a blocking Metadata request, fast on a
// reachable cluster) runs to its timeout.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "connectd/sdk/sdk.h"
#include "connectors/mirror/kafka_clients.h"
#include "connectors/mirror/mirror_source_task.h"
#include "connectors/mirror/remote_topic_errors.h"
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
  // KIP-618, as Java's: SUPPORTED iff the source consumer's configured isolation.level is
  // read_committed (records of aborted source transactions are not copied then).
  sdk::ExactlyOnceSupport exactlyOnceSupport(const sdk::Props& config) override;

 private:
  // The source partitions to mirror ("topic-partition"), creating what the target lacks.
  // Returns false (logged) if a cluster could not be reached.
  bool Refresh();
  // The offset-syncs topic and, with emit.offset-index.enabled, the offset index topic beside it.
  void CreateOffsetSyncsTopics();
  bool ShouldReplicate(const std::string& topic) const;
  // The scheduler jobs (scheduler thread only).
  void RefreshJob();
  void SyncTopicAcls();
  void SyncTopicConfigs();
  void RunScheduler();

  // A periodic job of the scheduler.
  struct Job {
    const char* name;
    std::chrono::steady_clock::duration interval;
    std::chrono::steady_clock::time_point next_run;
    std::function<void()> run;
  };

  sdk::Props props_;
  bool enabled_ = true;
  std::string source_alias_, target_alias_;
  std::unique_ptr<ReplicationPolicy> policy_;
  std::optional<TopicFilter> topic_filter_;
  std::optional<ConfigPropertyFilter> config_filter_;
  KafkaHandle source_admin_, target_admin_;
  int admin_timeout_ms_ = 60000;

  std::vector<Job> jobs_;                  // set in start(), then scheduler thread only
  bool no_acl_authorizer_logged_ = false;  // scheduler thread only

  std::mutex mu_;
  std::condition_variable cv_;
  std::atomic<bool> stopping_ = false;   // written under mu_; read anywhere (cancels admin waits)
  std::vector<std::string> partitions_;  // guarded by mu_
  // Source topics whose remote topic existed on the target at the last refresh (Java's
  // topicsBeingReplicated): the topics config sync looks after. Guarded by mu_.
  std::set<std::string> replicated_topics_;
  // The ops last applied to each remote topic, as logged (the scheduler thread's own).
  std::map<std::string, std::string> synced_config_ops_;
  // The source topics' IDs at the last refresh (topic -> base64 ID). Guarded by mu_.
  std::map<std::string, std::string> topic_ids_;
  bool topic_ids_error_logged_ = false;  // scheduler thread only
  std::thread scheduler_;
  // Set in start() when enabled; start() and then the scheduler thread only.
  std::optional<RemoteTopicErrors> remote_topic_errors_;
};

}  // namespace connectd::mirror
