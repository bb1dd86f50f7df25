#include "runtime/mirror_maker/failover/group_failover.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "connectors/mirror_client/records.h"
#include "connectors/mirror_client/replication_policy.h"
#include "jvm/java_client_config.h"
#include "runtime/kafka/client_config.h"
#include "runtime/kafka/group_admin.h"
#include "runtime/kafka/rdkafka_handles.h"

namespace connectd::mirror_maker {
namespace {

using TopicPartition = std::pair<std::string, int32_t>;

absl::StatusOr<std::string> CheckpointsTopic(const FailoverRequest& request) {
  std::string error;
  std::unique_ptr<mirror::ReplicationPolicy> policy =
      mirror::MakeReplicationPolicy(request.policy, &error);
  if (!policy) return absl::InvalidArgumentError(error);
  return policy->CheckpointsTopic(request.source_alias);
}

// librdkafka properties of a client of B in `role`; errors name keys, never values.
absl::StatusOr<std::map<std::string, std::string>> ClientProperties(const FailoverRequest& request,
                                                                    jvm::ClientRole role) {
  jvm::TranslatedConfig translated = jvm::TranslateJavaClientConfig(request.target_client, role);
  if (!translated.errors.empty()) {
    std::string message = "the target cluster's client settings cannot be honoured:";
    for (const std::string& e : translated.errors) absl::StrAppend(&message, " ", e, ";");
    message.pop_back();
    return absl::InvalidArgumentError(message);
  }
  if (!translated.properties.count("bootstrap.servers")) {
    return absl::InvalidArgumentError("no bootstrap.servers for the target cluster");
  }
  return std::move(translated.properties);
}

absl::StatusOr<std::unique_ptr<kafka::GroupAdmin>> MakeAdmin(const FailoverRequest& request) {
  absl::StatusOr<std::map<std::string, std::string>> props =
      ClientProperties(request, jvm::ClientRole::kAdmin);
  if (!props.ok()) return props.status();
  return kafka::GroupAdmin::Create(*props, request.timeout);
}

// The newest checkpoint of `group` per remote partition in partition 0 of `topic`, read from
// the beginning to the end it had when reading began.
absl::StatusOr<std::map<TopicPartition, mirror::Checkpoint>> ReadCheckpoints(
    const FailoverRequest& request, const std::string& topic) {
  absl::StatusOr<std::map<std::string, std::string>> props =
      ClientProperties(request, jvm::ClientRole::kConsumer);
  if (!props.ok()) return props.status();
  (*props)["group.id"] = "connectd-mirror-failover";  // never joined: assign() only
  (*props)["enable.auto.commit"] = "false";
  (*props)["enable.partition.eof"] = "true";
  std::vector<std::string> warnings;
  absl::StatusOr<kafka::ConfPtr> conf = kafka::MakeConfWithWarnings(*props, warnings);
  if (!conf.ok()) return conf.status();
  absl::StatusOr<kafka::RdKafkaPtr> consumer =
      kafka::MakeClient(RD_KAFKA_CONSUMER, *std::move(conf));
  if (!consumer.ok()) return consumer.status();
  rd_kafka_t* rk = consumer->get();
  rd_kafka_poll_set_consumer(rk);
  const int timeout_ms = static_cast<int>(request.timeout.count());
  int64_t low = 0, high = 0;
  if (rd_kafka_resp_err_t err =
          rd_kafka_query_watermark_offsets(rk, topic.c_str(), 0, &low, &high, timeout_ms)) {
    if (err == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART || err == RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC ||
        err == RD_KAFKA_RESP_ERR__UNKNOWN_PARTITION) {
      return absl::NotFoundError(absl::StrCat("the target cluster has no topic ", topic,
                                              ": no MirrorCheckpointConnector from ",
                                              request.source_alias, " has written there"));
    }
    return kafka::ToStatus(err, absl::StrCat("reading the end offset of ", topic));
  }
  std::map<TopicPartition, mirror::Checkpoint> newest;
  if (high > low) {
    kafka::TopicPartitionListPtr assignment(rd_kafka_topic_partition_list_new(1));
    rd_kafka_topic_partition_list_add(assignment.get(), topic.c_str(), 0)->offset =
        RD_KAFKA_OFFSET_BEGINNING;
    if (rd_kafka_resp_err_t err = rd_kafka_assign(rk, assignment.get())) {
      return kafka::ToStatus(err, absl::StrCat("assigning ", topic));
    }
    const auto deadline = std::chrono::steady_clock::now() + request.timeout;
    int64_t position = low;
    while (position < high) {
      if (std::chrono::steady_clock::now() > deadline) {
        rd_kafka_consumer_close(rk);
        return absl::DeadlineExceededError(
            absl::StrCat("reading ", topic, " to its end (offset ", high, ") took longer than ",
                         request.timeout.count(), " ms; at offset ", position));
      }
      kafka::MessagePtr m(rd_kafka_consumer_poll(rk, 200));
      if (!m) continue;
      if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
        position = high;  // the last offsets hold transaction markers
      } else if (m->err) {
        rd_kafka_consumer_close(rk);
        return kafka::ToStatus(m->err, absl::StrCat("reading ", topic));
      } else {
        position = m->offset + 1;
        std::optional<mirror::Checkpoint> checkpoint = mirror::DecodeCheckpoint(
            std::string_view(static_cast<const char*>(m->key), m->key_len),
            std::string_view(static_cast<const char*>(m->payload), m->len));
        if (checkpoint && checkpoint->group == request.group) {
          newest.insert_or_assign({checkpoint->topic, checkpoint->partition}, *checkpoint);
        }
      }
    }
    rd_kafka_consumer_close(rk);
  }
  return newest;
}

}  // namespace

absl::StatusOr<GroupTranslation> TranslateGroupOffsets(const FailoverRequest& request) {
  if (request.group.empty()) return absl::InvalidArgumentError("no consumer group given");
  if (request.source_alias.empty()) return absl::InvalidArgumentError("no source alias given");
  absl::StatusOr<std::string> topic = CheckpointsTopic(request);
  if (!topic.ok()) return topic.status();
  absl::StatusOr<std::map<TopicPartition, mirror::Checkpoint>> checkpoints =
      ReadCheckpoints(request, *topic);
  if (!checkpoints.ok()) return checkpoints.status();
  if (checkpoints->empty()) {
    return absl::NotFoundError(absl::StrCat(
        "no checkpoint of consumer group '", request.group, "' in ", *topic,
        " on the target cluster: is it in the MirrorCheckpointConnector's groups, and did it "
        "commit offsets on ",
        request.source_alias, "?"));
  }
  absl::StatusOr<std::unique_ptr<kafka::GroupAdmin>> admin = MakeAdmin(request);
  if (!admin.ok()) return admin.status();
  absl::StatusOr<kafka::PartitionOffsets> committed = (*admin)->ListOffsets(request.group);
  if (!committed.ok()) return committed.status();

  GroupTranslation out{request.group, request.source_alias, *topic, {}, false};
  std::vector<GroupOffsetPlan> translated;
  for (const auto& [tp, c] : *checkpoints) {
    translated.push_back(
        {c.topic, c.partition, c.upstream_offset, c.downstream_offset, c.metadata, {}, false});
  }
  out.partitions = PlanFailover(std::move(translated), *committed);
  return out;
}

absl::StatusOr<GroupTranslation> FailoverGroup(const FailoverRequest& request, bool dry_run) {
  absl::StatusOr<GroupTranslation> translation = TranslateGroupOffsets(request);
  if (!translation.ok() || dry_run) return translation;
  kafka::PartitionOffsets to_commit;
  for (const GroupOffsetPlan& plan : translation->partitions) {
    if (plan.commit) to_commit[{plan.topic, plan.partition}] = plan.downstream_offset;
  }
  if (!to_commit.empty()) {
    absl::StatusOr<std::unique_ptr<kafka::GroupAdmin>> admin = MakeAdmin(request);
    if (!admin.ok()) return admin.status();
    absl::Status altered = (*admin)->AlterOffsets(request.group, to_commit);
    if (absl::IsFailedPrecondition(altered)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "consumer group '", request.group,
          "' is active on the target cluster (it has members); stop its consumers there and "
          "run the failover again. Nothing was committed (",
          altered.message(), ")"));
    }
    if (!altered.ok()) return altered;
  }
  translation->committed = true;
  return translation;
}

}  // namespace connectd::mirror_maker
