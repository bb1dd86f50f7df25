#include "runtime/kafka/group_admin.h"

#include <vector>

#include "absl/strings/str_cat.h"

namespace connectd::kafka {
namespace {

struct EventDeleter {
  void operator()(rd_kafka_event_t* event) const { rd_kafka_event_destroy(event); }
};
using EventPtr = std::unique_ptr<rd_kafka_event_t, EventDeleter>;
struct QueueDeleter {
  void operator()(rd_kafka_queue_t* queue) const { rd_kafka_queue_destroy(queue); }
};
struct OptionsDeleter {
  void operator()(rd_kafka_AdminOptions_t* options) const {
    rd_kafka_AdminOptions_destroy(options);
  }
};

// Runs one Admin call: `issue` starts it on the given queue; returns its result event.
template <typename Issue>
absl::StatusOr<EventPtr> RunAdmin(rd_kafka_t* client, rd_kafka_admin_op_t op,
                                  std::chrono::milliseconds timeout, Issue issue,
                                  const std::string& what) {
  std::unique_ptr<rd_kafka_queue_t, QueueDeleter> queue(rd_kafka_queue_new(client));
  std::unique_ptr<rd_kafka_AdminOptions_t, OptionsDeleter> options(
      rd_kafka_AdminOptions_new(client, op));
  char errstr[256];
  rd_kafka_AdminOptions_set_request_timeout(options.get(), static_cast<int>(timeout.count()),
                                            errstr, sizeof(errstr));
  issue(options.get(), queue.get());
  EventPtr event(rd_kafka_queue_poll(queue.get(), static_cast<int>(timeout.count()) + 1000));
  if (!event) {
    return absl::DeadlineExceededError(absl::StrCat(what, " timed out"));
  }
  if (rd_kafka_event_error(event.get())) {
    return ToStatus(rd_kafka_event_error(event.get()),
                    absl::StrCat(what, ": ", rd_kafka_event_error_string(event.get())));
  }
  return event;
}

absl::Status GroupResultStatus(const rd_kafka_group_result_t* result, const std::string& what) {
  const rd_kafka_error_t* error = rd_kafka_group_result_error(result);
  if (error == nullptr) return absl::OkStatus();
  rd_kafka_resp_err_t code = rd_kafka_error_code(error);
  if (code == RD_KAFKA_RESP_ERR_NON_EMPTY_GROUP || code == RD_KAFKA_RESP_ERR_UNKNOWN_MEMBER_ID) {
    return absl::FailedPreconditionError(absl::StrCat(what, ": ", rd_kafka_error_string(error)));
  }
  return ToStatus(code, absl::StrCat(what, ": ", rd_kafka_error_string(error)));
}

}  // namespace

absl::StatusOr<std::unique_ptr<GroupAdmin>> GroupAdmin::Create(
    const std::map<std::string, std::string>& properties, std::chrono::milliseconds timeout) {
  absl::StatusOr<ConfPtr> conf = MakeConf(properties);
  if (!conf.ok()) return conf.status();
  absl::StatusOr<RdKafkaPtr> client = MakeClient(RD_KAFKA_PRODUCER, *std::move(conf));
  if (!client.ok()) return client.status();
  return std::unique_ptr<GroupAdmin>(new GroupAdmin(*std::move(client), timeout));
}

absl::StatusOr<PartitionOffsets> GroupAdmin::ListOffsets(const std::string& group) {
  rd_kafka_ListConsumerGroupOffsets_t* request =
      rd_kafka_ListConsumerGroupOffsets_new(group.c_str(), nullptr);  // all partitions
  absl::StatusOr<EventPtr> event = RunAdmin(
      client_.get(), RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPOFFSETS, timeout_,
      [&](rd_kafka_AdminOptions_t* options, rd_kafka_queue_t* queue) {
        rd_kafka_ListConsumerGroupOffsets(client_.get(), &request, 1, options, queue);
      },
      "listing consumer group offsets");
  rd_kafka_ListConsumerGroupOffsets_destroy(request);
  if (!event.ok()) return event.status();
  size_t count = 0;
  const rd_kafka_group_result_t** groups = rd_kafka_ListConsumerGroupOffsets_result_groups(
      rd_kafka_event_ListConsumerGroupOffsets_result(event->get()), &count);
  PartitionOffsets out;
  for (size_t i = 0; i < count; ++i) {
    absl::Status status = GroupResultStatus(groups[i], "listing consumer group offsets");
    if (absl::IsNotFound(status)) return out;
    if (!status.ok()) return status;
    const rd_kafka_topic_partition_list_t* partitions = rd_kafka_group_result_partitions(groups[i]);
    for (int p = 0; partitions != nullptr && p < partitions->cnt; ++p) {
      const rd_kafka_topic_partition_t& tp = partitions->elems[p];
      if (tp.err == RD_KAFKA_RESP_ERR_NO_ERROR && tp.offset >= 0) {
        out[{tp.topic, tp.partition}] = tp.offset;
      }
    }
  }
  return out;
}

absl::Status GroupAdmin::AlterOffsets(const std::string& group, const PartitionOffsets& offsets) {
  TopicPartitionListPtr list(rd_kafka_topic_partition_list_new(static_cast<int>(offsets.size())));
  for (const auto& [tp, offset] : offsets) {
    rd_kafka_topic_partition_list_add(list.get(), tp.first.c_str(), tp.second)->offset = offset;
  }
  rd_kafka_AlterConsumerGroupOffsets_t* request =
      rd_kafka_AlterConsumerGroupOffsets_new(group.c_str(), list.get());
  absl::StatusOr<EventPtr> event = RunAdmin(
      client_.get(), RD_KAFKA_ADMIN_OP_ALTERCONSUMERGROUPOFFSETS, timeout_,
      [&](rd_kafka_AdminOptions_t* options, rd_kafka_queue_t* queue) {
        rd_kafka_AlterConsumerGroupOffsets(client_.get(), &request, 1, options, queue);
      },
      "altering consumer group offsets");
  rd_kafka_AlterConsumerGroupOffsets_destroy(request);
  if (!event.ok()) return event.status();
  size_t count = 0;
  const rd_kafka_group_result_t** groups = rd_kafka_AlterConsumerGroupOffsets_result_groups(
      rd_kafka_event_AlterConsumerGroupOffsets_result(event->get()), &count);
  for (size_t i = 0; i < count; ++i) {
    if (absl::Status status = GroupResultStatus(groups[i], "altering consumer group offsets");
        !status.ok()) {
      return status;
    }
    const rd_kafka_topic_partition_list_t* partitions = rd_kafka_group_result_partitions(groups[i]);
    for (int p = 0; partitions != nullptr && p < partitions->cnt; ++p) {
      const rd_kafka_topic_partition_t& tp = partitions->elems[p];
      if (!tp.err) continue;
      const std::string what = absl::StrCat("altering the offset of ", tp.topic, "-", tp.partition);
      // Kafka refuses an admin commit per partition while the group has members (the new
      // group coordinator answers UNKNOWN_MEMBER_ID for each partition).
      if (tp.err == RD_KAFKA_RESP_ERR_UNKNOWN_MEMBER_ID ||
          tp.err == RD_KAFKA_RESP_ERR_NON_EMPTY_GROUP) {
        return absl::FailedPreconditionError(
            absl::StrCat(what, ": ", rd_kafka_err2str(tp.err), " (the group has members)"));
      }
      return ToStatus(tp.err, what);
    }
  }
  return absl::OkStatus();
}

absl::Status GroupAdmin::DeleteOffsets(
    const std::string& group, const std::vector<std::pair<std::string, int32_t>>& partitions) {
  TopicPartitionListPtr list(
      rd_kafka_topic_partition_list_new(static_cast<int>(partitions.size())));
  for (const auto& [topic, partition] : partitions) {
    rd_kafka_topic_partition_list_add(list.get(), topic.c_str(), partition);
  }
  rd_kafka_DeleteConsumerGroupOffsets_t* request =
      rd_kafka_DeleteConsumerGroupOffsets_new(group.c_str(), list.get());
  absl::StatusOr<EventPtr> event = RunAdmin(
      client_.get(), RD_KAFKA_ADMIN_OP_DELETECONSUMERGROUPOFFSETS, timeout_,
      [&](rd_kafka_AdminOptions_t* options, rd_kafka_queue_t* queue) {
        rd_kafka_DeleteConsumerGroupOffsets(client_.get(), &request, 1, options, queue);
      },
      "deleting consumer group offsets");
  rd_kafka_DeleteConsumerGroupOffsets_destroy(request);
  if (!event.ok()) return event.status();
  size_t count = 0;
  const rd_kafka_group_result_t** groups = rd_kafka_DeleteConsumerGroupOffsets_result_groups(
      rd_kafka_event_DeleteConsumerGroupOffsets_result(event->get()), &count);
  for (size_t i = 0; i < count; ++i) {
    absl::Status status = GroupResultStatus(groups[i], "deleting consumer group offsets");
    if (!status.ok() && !absl::IsNotFound(status)) return status;
  }
  return absl::OkStatus();
}

absl::Status GroupAdmin::DeleteGroup(const std::string& group) {
  rd_kafka_DeleteGroup_t* request = rd_kafka_DeleteGroup_new(group.c_str());
  absl::StatusOr<EventPtr> event = RunAdmin(
      client_.get(), RD_KAFKA_ADMIN_OP_DELETEGROUPS, timeout_,
      [&](rd_kafka_AdminOptions_t* options, rd_kafka_queue_t* queue) {
        rd_kafka_DeleteGroups(client_.get(), &request, 1, options, queue);
      },
      "deleting consumer group");
  rd_kafka_DeleteGroup_destroy(request);
  if (!event.ok()) return event.status();
  size_t count = 0;
  const rd_kafka_group_result_t** groups =
      rd_kafka_DeleteGroups_result_groups(rd_kafka_event_DeleteGroups_result(event->get()), &count);
  for (size_t i = 0; i < count; ++i) {
    const rd_kafka_error_t* error = rd_kafka_group_result_error(groups[i]);
    if (error && rd_kafka_error_code(error) == RD_KAFKA_RESP_ERR_GROUP_ID_NOT_FOUND) continue;
    if (absl::Status status = GroupResultStatus(groups[i], "deleting consumer group");
        !status.ok()) {
      return status;
    }
  }
  return absl::OkStatus();
}

}  // namespace connectd::kafka
