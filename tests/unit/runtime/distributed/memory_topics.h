// File: memory_topics.h
//
// MemoryTopics: Kafka topics in memory for the internal-topic stores, so that the herders can be
// tried without a broker. Every log opened through Opener() on the same MemoryTopics sees the
// same topics, as the workers of a cluster see the same internal topics: a config written by
// one worker's store is read by every worker's store. Records are partitioned with Java's
// murmur2 (storage::PartitionForKey) and never compacted; Send stores a record at once.
//
// Threads: each opened log runs its own thread, which calls `consumed` and every callback (the
// storage::TopicLog contract). Public methods are thread-safe.
#pragma once

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/storage/kafka_based_log.h"

namespace connectd::storage {

class MemoryTopics : public std::enable_shared_from_this<MemoryTopics> {
 public:
  static std::shared_ptr<MemoryTopics> Create() {
    return std::shared_ptr<MemoryTopics>(new MemoryTopics());
  }

  // What a store is given as its TopicLogOpener. A topic is created on first open with the
  // options' partition count.
  TopicLogOpener Opener();

  // Every record of `topic`, partition by partition (empty if there is no such topic).
  std::vector<LogRecord> Records(const std::string& topic);

 private:
  friend class MemoryTopicLog;
  MemoryTopics() = default;

  std::mutex mu_;
  std::condition_variable changed_;  // a record was stored or a log has work
  std::map<std::string, std::vector<std::vector<LogRecord>>> topics_;  // guarded by mu_
};

}  // namespace connectd::storage
