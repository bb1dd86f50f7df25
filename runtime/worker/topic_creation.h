// File: topic_creation.h
//
// Topic creation for source connectors (KIP-158), as Connect does it: when the worker allows it
// (`topic.creation.enable`, default true) and the connector config has any `topic.creation.*`
// key, the first record a task sends to a topic that does not exist creates it, with the
// settings of the first group of `topic.creation.groups` whose `include` regexes match the topic
// and whose `exclude` ones do not, else of the `default` group:
//   topic.creation.default.replication.factor / .partitions   required (-1: the broker's)
//   topic.creation.<g>.include / .exclude                      regex lists (not for default)
//   topic.creation.<g>.replication.factor / .partitions        default: the default group's
//   topic.creation.<g>.<topic config>                          e.g. cleanup.policy=compact
// A topic that exists is left as it is. A creation the broker refuses (not authorized, ...)
// fails the task with Java's message.
//
// Threads: the task thread (Ensure blocks on the admin requests, as Java's task does).
#pragma once

#include <librdkafka/rdkafka.h>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/transforms/java_pattern.h"

namespace connectd::worker {

class TopicCreation {
 public:
  struct Group {
    std::string name;
    std::optional<transforms::JavaPattern> include;  // none: matches nothing (default: all)
    std::optional<transforms::JavaPattern> exclude;
    int16_t replication_factor = -1;
    int32_t partitions = -1;
    std::map<std::string, std::string> topic_configs;
  };

  // nullptr when creation is off for this connector; kInvalidArgument with Java's message for a
  // bad or missing setting.
  static absl::StatusOr<std::unique_ptr<TopicCreation>> FromConfigs(
      bool worker_enabled, const std::map<std::string, std::string>& connector_config);

  // The group whose settings a new `topic` gets (TopicCreation.findFirstGroup).
  const Group& GroupFor(const std::string& topic) const;

  // Creates `topic` through `client` unless it exists; remembers topics already checked.
  absl::Status Ensure(rd_kafka_t* client, const std::string& topic);

 private:
  Group default_group_;
  std::vector<Group> groups_;  // in topic.creation.groups order
  std::set<std::string> known_;
};

}  // namespace connectd::worker
