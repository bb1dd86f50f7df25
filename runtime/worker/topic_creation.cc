#include "runtime/worker/topic_creation.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/common/logging.h"
#include "runtime/config/config_def.h"
#include "runtime/kafka/rdkafka_handles.h"

namespace connectd::worker {
namespace {

constexpr char kLogger[] = "org.apache.kafka.connect.util.TopicCreation";
constexpr char kPrefix[] = "topic.creation.";
constexpr int kAdminTimeoutMs = 30000;

using Config = std::map<std::string, std::string>;

std::optional<std::string> Find(const Config& config, const std::string& key) {
  auto it = config.find(key);
  if (it == config.end()) return std::nullopt;
  return it->second;
}

absl::Status Invalid(const std::string& key, const std::string& value, const std::string& why) {
  return absl::InvalidArgumentError(
      absl::StrCat("Invalid value ", value, " for configuration ", key, ": ", why));
}

// A SHORT/INT setting that must be -1 or positive (TopicCreationConfig's validators).
absl::StatusOr<int64_t> Count(const Config& config, const std::string& key,
                              std::optional<int64_t> fallback, const char* what) {
  std::optional<std::string> text = Find(config, key);
  if (!text) {
    if (fallback) return *fallback;
    return absl::InvalidArgumentError(
        absl::StrCat("Missing required configuration \"", key, "\" which has no default value."));
  }
  int64_t v = 0;
  if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(*text), &v)) {
    return Invalid(key, *text, absl::StrCat("Not a number of type ", what));
  }
  if (v != -1 && v < 1) {
    return Invalid(key, *text,
                   std::string(what) == std::string("SHORT")
                       ? "Replication factor must be positive and not larger than the number of "
                         "brokers in the Kafka cluster, or -1 to use the broker's default"
                       : "Number of partitions must be positive, or -1 to use the broker's "
                         "default");
  }
  return v;
}

// A regex list as one pattern (TopicCreationGroup joins the list with '|').
absl::StatusOr<std::optional<transforms::JavaPattern>> Patterns(const Config& config,
                                                                const std::string& key) {
  std::optional<std::string> text = Find(config, key);
  if (!text) return std::optional<transforms::JavaPattern>();
  const std::vector<std::string> items = config::SplitList(*text);
  if (items.empty()) return std::optional<transforms::JavaPattern>();
  absl::StatusOr<transforms::JavaPattern> pattern =
      transforms::JavaPattern::Compile(absl::StrJoin(items, "|"));
  if (!pattern.ok()) {
    return Invalid(
        key, *text,
        absl::StrCat("Syntax error in regular expression: ", pattern.status().message()));
  }
  return std::optional<transforms::JavaPattern>(*std::move(pattern));
}

// A pattern that exceeds its match limit on `topic` counts as not matching (logged): the topic
// then gets a later group's settings or the default group's.
bool PatternMatches(const std::optional<transforms::JavaPattern>& pattern, const std::string& group,
                    const std::string& topic) {
  if (!pattern) return false;
  absl::StatusOr<bool> matches = pattern->Matches(topic);
  if (matches.ok()) return *matches;
  CONNECTD_LOG(kWarn, kLogger) << "Topic creation group '" << group
                               << "': " << matches.status().message();
  return false;
}

bool Matches(const TopicCreation::Group& g, const std::string& topic) {
  if (PatternMatches(g.exclude, g.name, topic)) return false;
  return PatternMatches(g.include, g.name, topic);
}

// Every topic name the cluster has (a metadata request for all topics: asking for one topic
// would let a producer's metadata request auto-create it).
absl::StatusOr<bool> TopicExists(rd_kafka_t* client, const std::string& topic) {
  const rd_kafka_metadata_t* metadata = nullptr;
  const rd_kafka_resp_err_t err = rd_kafka_metadata(client, 1, nullptr, &metadata, kAdminTimeoutMs);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return kafka::ToStatus(err, "listing topics before creating " + topic);
  }
  bool found = false;
  for (int i = 0; i < metadata->topic_cnt; ++i) {
    if (topic == metadata->topics[i].topic &&
        metadata->topics[i].err != RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART) {
      found = true;
    }
  }
  rd_kafka_metadata_destroy(metadata);
  return found;
}

}  // namespace

absl::StatusOr<std::unique_ptr<TopicCreation>> TopicCreation::FromConfigs(
    bool worker_enabled, const Config& connector_config) {
  const bool uses = std::any_of(connector_config.begin(), connector_config.end(),
                                [](const auto& kv) { return kv.first.rfind(kPrefix, 0) == 0; });
  if (!worker_enabled || !uses) return std::unique_ptr<TopicCreation>();
  auto creation = std::make_unique<TopicCreation>();
  const auto other_configs = [&](const std::string& group) {
    std::map<std::string, std::string> out;
    const std::string prefix = absl::StrCat(kPrefix, group, ".");
    for (auto it = connector_config.lower_bound(prefix); it != connector_config.end(); ++it) {
      if (it->first.compare(0, prefix.size(), prefix) != 0) break;
      const std::string key = it->first.substr(prefix.size());
      if (key != "include" && key != "exclude" && key != "replication.factor" &&
          key != "partitions") {
        out[key] = it->second;
      }
    }
    return out;
  };
  Group& d = creation->default_group_;
  d.name = "default";
  absl::StatusOr<int64_t> rf =
      Count(connector_config, "topic.creation.default.replication.factor", std::nullopt, "SHORT");
  if (!rf.ok()) return rf.status();
  absl::StatusOr<int64_t> partitions =
      Count(connector_config, "topic.creation.default.partitions", std::nullopt, "INT");
  if (!partitions.ok()) return partitions.status();
  d.replication_factor = static_cast<int16_t>(*rf);
  d.partitions = static_cast<int32_t>(*partitions);
  d.include = *transforms::JavaPattern::Compile(".*");  // the default group's regexes are ignored
  d.topic_configs = other_configs("default");

  std::vector<std::string> names;
  if (std::optional<std::string> list = Find(connector_config, "topic.creation.groups")) {
    for (const std::string& name : config::SplitList(*list)) {
      if (name != "default" && std::find(names.begin(), names.end(), name) == names.end()) {
        names.push_back(name);
      }
    }
  }
  for (const std::string& name : names) {
    Group g;
    g.name = name;
    const std::string prefix = absl::StrCat(kPrefix, name, ".");
    absl::StatusOr<std::optional<transforms::JavaPattern>> include =
        Patterns(connector_config, prefix + "include");
    if (!include.ok()) return include.status();
    absl::StatusOr<std::optional<transforms::JavaPattern>> exclude =
        Patterns(connector_config, prefix + "exclude");
    if (!exclude.ok()) return exclude.status();
    g.include = *std::move(include);
    g.exclude = *std::move(exclude);
    absl::StatusOr<int64_t> group_rf =
        Count(connector_config, prefix + "replication.factor", d.replication_factor, "SHORT");
    if (!group_rf.ok()) return group_rf.status();
    absl::StatusOr<int64_t> group_partitions =
        Count(connector_config, prefix + "partitions", d.partitions, "INT");
    if (!group_partitions.ok()) return group_partitions.status();
    g.replication_factor = static_cast<int16_t>(*group_rf);
    g.partitions = static_cast<int32_t>(*group_partitions);
    g.topic_configs = other_configs(name);
    creation->groups_.push_back(std::move(g));
  }
  return creation;
}

const TopicCreation::Group& TopicCreation::GroupFor(const std::string& topic) const {
  for (const Group& g : groups_) {
    if (Matches(g, topic)) return g;
  }
  return default_group_;
}

absl::Status TopicCreation::Ensure(rd_kafka_t* client, const std::string& topic) {
  if (known_.count(topic) != 0) return absl::OkStatus();
  CONNECTD_LOG(kInfo, kLogger) << "The task will send records to topic '" << topic
                               << "' for the first time. Checking whether topic exists";
  absl::StatusOr<bool> exists = TopicExists(client, topic);
  if (!exists.ok()) return exists.status();
  if (*exists) {
    CONNECTD_LOG(kInfo, kLogger) << "Topic '" << topic << "' already exists.";
    known_.insert(topic);
    return absl::OkStatus();
  }
  const Group& group = GroupFor(topic);
  const std::string description =
      absl::StrCat("(name=", topic, ", numPartitions=", group.partitions,
                   ", replicationFactor=", group.replication_factor, ")");
  const absl::Status refused = absl::FailedPreconditionError(
      absl::StrCat("Task failed to create new topic ", description,
                   ". Ensure that the task is authorized to create topics or that the topic "
                   "exists and restart the task"));
  char err[512];
  rd_kafka_NewTopic_t* spec = rd_kafka_NewTopic_new(topic.c_str(), group.partitions,
                                                    group.replication_factor, err, sizeof err);
  if (spec == nullptr) return absl::InvalidArgumentError(err);
  for (const auto& [k, v] : group.topic_configs) {
    rd_kafka_NewTopic_set_config(spec, k.c_str(), v.c_str());
  }
  rd_kafka_queue_t* queue = rd_kafka_queue_new(client);
  rd_kafka_CreateTopics(client, &spec, 1, nullptr, queue);
  rd_kafka_NewTopic_destroy(spec);
  rd_kafka_event_t* event = rd_kafka_queue_poll(queue, kAdminTimeoutMs);
  rd_kafka_queue_destroy(queue);
  if (event == nullptr) return refused;
  rd_kafka_resp_err_t e = rd_kafka_event_error(event);
  std::string reason = e ? rd_kafka_event_error_string(event) : "";
  if (!e) {
    size_t n = 0;
    const rd_kafka_topic_result_t** results =
        rd_kafka_CreateTopics_result_topics(rd_kafka_event_CreateTopics_result(event), &n);
    if (n > 0) {
      e = rd_kafka_topic_result_error(results[0]);
      if (e) reason = rd_kafka_topic_result_error_string(results[0]);
    }
  }
  rd_kafka_event_destroy(event);
  if (e == RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS) {
    CONNECTD_LOG(kInfo, kLogger) << "Found existing topic '" << topic << "'";
  } else if (e) {
    CONNECTD_LOG(kWarn, kLogger) << "Request to create new topic '" << topic
                                 << "' failed: " << reason;
    return refused;
  } else {
    CONNECTD_LOG(kInfo, kLogger) << "Created topic '" << description << "' using creation group "
                                 << group.name;
  }
  known_.insert(topic);
  return absl::OkStatus();
}

}  // namespace connectd::worker
