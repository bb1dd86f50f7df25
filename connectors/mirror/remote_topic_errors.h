// File: remote_topic_errors.h
//
// RemoteTopicErrors: what the MirrorSourceConnector's target admin client reported while it
// created a remote topic or added partitions to one, published so that flow health
// (runtime/mirror_maker/health) can name a remote topic that cannot be written because it cannot be
// made:
//
//   connectd.mirror:type=MirrorSourceConnector,source=A,target=B,topic=<remote>,
//                   operation=create-topics|create-partitions
//     admin-error-code       Kafka's (or librdkafka's local) error code, 0 once it succeeded
//     admin-error-count      errors of the operation on the topic since the connector started
//     admin-error-first-ms   when the current error was first reported (Unix ms)
//     admin-error-last-ms    when it was last reported
//
// A topic's sensors are made on its first error (so a healthy flow publishes none) and read 0
// once the operation succeeded; they disappear with the connector.
//
//   RemoteTopicErrors errors(context().metrics(), "A", "B");
//   errors.Failed("A.orders", kCreateTopics, admin_error, now_ms);
//   errors.Succeeded("A.orders", kCreateTopics, now_ms);  // created, or found on the target
//
// Threads: one caller at a time (the connector's start and its scheduler thread, which run one
// after the other); sensors may be read from any thread.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "connectd/sdk/metrics.h"
#include "connectors/mirror/kafka_clients.h"

namespace connectd::mirror {

inline constexpr char kCreateTopics[] = "create-topics";
inline constexpr char kCreatePartitions[] = "create-partitions";

class RemoteTopicErrors {
 public:
  RemoteTopicErrors(sdk::Metrics metrics, std::string source, std::string target)
      : metrics_(metrics), source_(std::move(source)), target_(std::move(target)) {}

  void Failed(const std::string& topic, const char* operation, const AdminError& error,
              int64_t now_ms);
  // Clears the topic's error for `operation`; nothing happens for a topic that never failed.
  void Succeeded(const std::string& topic, const char* operation, int64_t now_ms);

 private:
  struct Entry {
    sdk::Sensor code, count, first_ms, last_ms;
    bool active = false;
  };

  sdk::Metrics metrics_;
  const std::string source_, target_;
  std::map<std::pair<std::string, std::string>, Entry> entries_;  // (topic, operation)
};

}  // namespace connectd::mirror
