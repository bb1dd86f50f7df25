#include "connectors/mirror/checkpoint_admin.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace connectd::mirror {
namespace {

struct QueueDeleter {
  void operator()(rd_kafka_queue_t* q) const { rd_kafka_queue_destroy(q); }
};
struct EventDeleter {
  void operator()(rd_kafka_event_t* e) const { rd_kafka_event_destroy(e); }
};
struct OptionsDeleter {
  void operator()(rd_kafka_AdminOptions_t* o) const { rd_kafka_AdminOptions_destroy(o); }
};
struct PartitionsDeleter {
  void operator()(rd_kafka_topic_partition_list_t* p) const {
    rd_kafka_topic_partition_list_destroy(p);
  }
};
using Queue = std::unique_ptr<rd_kafka_queue_t, QueueDeleter>;
using Event = std::unique_ptr<rd_kafka_event_t, EventDeleter>;
using Options = std::unique_ptr<rd_kafka_AdminOptions_t, OptionsDeleter>;
using Partitions = std::unique_ptr<rd_kafka_topic_partition_list_t, PartitionsDeleter>;

// Requests in flight at once for the one-group-per-request APIs.
constexpr size_t kMaxInFlight = 32;

using Clock = std::chrono::steady_clock;

Options MakeOptions(rd_kafka_t* rk, rd_kafka_admin_op_t op, int timeout_ms, void* opaque) {
  Options options(rd_kafka_AdminOptions_new(rk, op));
  char errstr[256];
  rd_kafka_AdminOptions_set_request_timeout(options.get(), timeout_ms, errstr, sizeof(errstr));
  rd_kafka_AdminOptions_set_opaque(options.get(), opaque);
  return options;
}

// The next event on `queue` before `deadline`, polling in short slices so `stop` is seen.
Event Await(rd_kafka_queue_t* queue, Clock::time_point deadline, const std::atomic<bool>* stop) {
  while (stop == nullptr || !stop->load()) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return nullptr;
    int slice = static_cast<int>(std::min<int64_t>(left.count(), 200));
    if (rd_kafka_event_t* e = rd_kafka_queue_poll(queue, slice)) return Event(e);
  }
  return nullptr;
}

std::string WhyNoEvent(const std::atomic<bool>* stop) {
  return stop != nullptr && stop->load() ? "stopping" : "timed out";
}

GroupOffsets ToGroupOffsets(const rd_kafka_topic_partition_list_t* list) {
  GroupOffsets out;
  if (list == nullptr) return out;
  for (int i = 0; i < list->cnt; ++i) {
    const rd_kafka_topic_partition_t& p = list->elems[i];
    if (p.err) continue;  // Java skips partitions that report an error
    CommittedOffset committed;
    committed.offset = p.offset < 0 ? -1 : p.offset;
    if (p.metadata != nullptr) {
      committed.metadata.assign(static_cast<const char*>(p.metadata), p.metadata_size);
    }
    out[{p.topic, p.partition}] = std::move(committed);
  }
  return out;
}

// Runs one request per group (at most kMaxInFlight at once) and hands each result event to
// `on_result(index, event)`; groups without an event within the deadline get `errors`.
template <typename Issue, typename OnResult>
bool PerGroup(rd_kafka_t* rk, const std::vector<std::string>& groups, int timeout_ms,
              const std::atomic<bool>* stop, std::map<std::string, std::string>* errors,
              Issue issue, OnResult on_result) {
  Queue queue(rd_kafka_queue_new(rk));
  const auto deadline =
      Clock::now() + std::chrono::milliseconds(timeout_ms) + std::chrono::milliseconds(1000);
  std::vector<bool> done(groups.size(), false);
  size_t next = 0, in_flight = 0, finished = 0;
  while (finished < groups.size()) {
    while (next < groups.size() && in_flight < kMaxInFlight) {
      issue(queue.get(), next);
      ++next;
      ++in_flight;
    }
    Event event = Await(queue.get(), deadline, stop);
    if (!event) break;
    auto index = reinterpret_cast<uintptr_t>(rd_kafka_event_opaque(event.get()));
    if (index >= groups.size() || done[index]) continue;
    done[index] = true;
    --in_flight;
    ++finished;
    if (rd_kafka_event_error(event.get())) {
      (*errors)[groups[index]] = rd_kafka_event_error_string(event.get());
      continue;
    }
    on_result(index, event.get());
  }
  if (finished == groups.size()) return true;
  for (size_t i = 0; i < groups.size(); ++i) {
    if (!done[i]) (*errors)[groups[i]] = WhyNoEvent(stop);
  }
  return false;
}

}  // namespace

std::optional<std::vector<std::string>> ListConsumerGroupIds(rd_kafka_t* rk, int timeout_ms,
                                                             const std::atomic<bool>* stop,
                                                             std::string* error) {
  Queue queue(rd_kafka_queue_new(rk));
  Options options = MakeOptions(rk, RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPS, timeout_ms, nullptr);
  rd_kafka_ListConsumerGroups(rk, options.get(), queue.get());
  Event event = Await(
      queue.get(),
      Clock::now() + std::chrono::milliseconds(timeout_ms) + std::chrono::milliseconds(1000), stop);
  if (!event) {
    *error = "listing consumer groups " + WhyNoEvent(stop);
    return std::nullopt;
  }
  if (rd_kafka_event_error(event.get())) {
    *error = std::string("listing consumer groups: ") + rd_kafka_event_error_string(event.get());
    return std::nullopt;
  }
  const rd_kafka_ListConsumerGroups_result_t* result =
      rd_kafka_event_ListConsumerGroups_result(event.get());
  size_t count = 0;
  const rd_kafka_ConsumerGroupListing_t** listings =
      rd_kafka_ListConsumerGroups_result_valid(result, &count);
  // Per-broker failures: Java's valid() ignores them, but librdkafka also reports an unreachable
  // cluster this way (no listing at all), which must not read as "no groups".
  size_t error_count = 0;
  const rd_kafka_error_t** errors = rd_kafka_ListConsumerGroups_result_errors(result, &error_count);
  if (error_count > 0 && count == 0) {
    *error = std::string("listing consumer groups: ") + rd_kafka_error_string(errors[0]);
    return std::nullopt;
  }
  std::vector<std::string> ids;
  ids.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    ids.emplace_back(rd_kafka_ConsumerGroupListing_group_id(listings[i]));
  }
  return ids;
}

std::optional<std::map<std::string, GroupOffsets>> ListConsumerGroupOffsets(
    rd_kafka_t* rk, const std::vector<std::string>& groups, int timeout_ms,
    const std::atomic<bool>* stop, std::map<std::string, std::string>* errors) {
  std::map<std::string, GroupOffsets> out;
  auto issue = [&](rd_kafka_queue_t* queue, size_t index) {
    Options options = MakeOptions(rk, RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPOFFSETS, timeout_ms,
                                  reinterpret_cast<void*>(static_cast<uintptr_t>(index)));
    rd_kafka_ListConsumerGroupOffsets_t* request =
        rd_kafka_ListConsumerGroupOffsets_new(groups[index].c_str(), nullptr);
    rd_kafka_ListConsumerGroupOffsets(rk, &request, 1, options.get(), queue);
    rd_kafka_ListConsumerGroupOffsets_destroy(request);
  };
  auto on_result = [&](size_t index, rd_kafka_event_t* event) {
    size_t n = 0;
    const rd_kafka_group_result_t** results = rd_kafka_ListConsumerGroupOffsets_result_groups(
        rd_kafka_event_ListConsumerGroupOffsets_result(event), &n);
    if (n == 0) {
      (*errors)[groups[index]] = "no result";
      return;
    }
    if (const rd_kafka_error_t* e = rd_kafka_group_result_error(results[0])) {
      (*errors)[groups[index]] = rd_kafka_error_string(e);
      return;
    }
    out[groups[index]] = ToGroupOffsets(rd_kafka_group_result_partitions(results[0]));
  };
  bool complete = PerGroup(rk, groups, timeout_ms, stop, errors, issue, on_result);
  if (!complete && stop != nullptr && stop->load()) return std::nullopt;
  return out;
}

std::optional<std::map<std::string, rd_kafka_consumer_group_state_t>> DescribeConsumerGroupStates(
    rd_kafka_t* rk, const std::vector<std::string>& groups, int timeout_ms,
    const std::atomic<bool>* stop, std::map<std::string, std::string>* errors) {
  std::map<std::string, rd_kafka_consumer_group_state_t> out;
  if (groups.empty()) return out;
  Queue queue(rd_kafka_queue_new(rk));
  Options options = MakeOptions(rk, RD_KAFKA_ADMIN_OP_DESCRIBECONSUMERGROUPS, timeout_ms, nullptr);
  std::vector<const char*> names;
  for (const std::string& g : groups) names.push_back(g.c_str());
  rd_kafka_DescribeConsumerGroups(rk, names.data(), names.size(), options.get(), queue.get());
  Event event = Await(
      queue.get(),
      Clock::now() + std::chrono::milliseconds(timeout_ms) + std::chrono::milliseconds(1000), stop);
  if (!event) {
    for (const std::string& g : groups) (*errors)[g] = WhyNoEvent(stop);
    return std::nullopt;
  }
  if (rd_kafka_event_error(event.get())) {
    for (const std::string& g : groups) (*errors)[g] = rd_kafka_event_error_string(event.get());
    return std::nullopt;
  }
  size_t n = 0;
  const rd_kafka_ConsumerGroupDescription_t** descriptions =
      rd_kafka_DescribeConsumerGroups_result_groups(
          rd_kafka_event_DescribeConsumerGroups_result(event.get()), &n);
  for (size_t i = 0; i < n; ++i) {
    const char* id = rd_kafka_ConsumerGroupDescription_group_id(descriptions[i]);
    if (const rd_kafka_error_t* e = rd_kafka_ConsumerGroupDescription_error(descriptions[i])) {
      (*errors)[id] = rd_kafka_error_string(e);
      continue;
    }
    out[id] = rd_kafka_ConsumerGroupDescription_state(descriptions[i]);
  }
  return out;
}

bool AlterConsumerGroupOffsets(rd_kafka_t* rk, const std::string& group,
                               const GroupOffsets& offsets, int timeout_ms,
                               const std::atomic<bool>* stop, rd_kafka_resp_err_t* code,
                               std::string* error) {
  *code = RD_KAFKA_RESP_ERR_NO_ERROR;
  if (offsets.empty()) return true;
  Partitions partitions(rd_kafka_topic_partition_list_new(static_cast<int>(offsets.size())));
  for (const auto& [tp, committed] : offsets) {
    rd_kafka_topic_partition_t* p =
        rd_kafka_topic_partition_list_add(partitions.get(), tp.topic.c_str(), tp.partition);
    p->offset = committed.offset;
    if (!committed.metadata.empty()) {
      // librdkafka frees the list's metadata: hand it a malloc'ed copy.
      p->metadata = malloc(committed.metadata.size());
      memcpy(p->metadata, committed.metadata.data(), committed.metadata.size());
      p->metadata_size = committed.metadata.size();
    }
  }
  Queue queue(rd_kafka_queue_new(rk));
  Options options =
      MakeOptions(rk, RD_KAFKA_ADMIN_OP_ALTERCONSUMERGROUPOFFSETS, timeout_ms, nullptr);
  rd_kafka_AlterConsumerGroupOffsets_t* request =
      rd_kafka_AlterConsumerGroupOffsets_new(group.c_str(), partitions.get());
  rd_kafka_AlterConsumerGroupOffsets(rk, &request, 1, options.get(), queue.get());
  rd_kafka_AlterConsumerGroupOffsets_destroy(request);
  Event event = Await(
      queue.get(),
      Clock::now() + std::chrono::milliseconds(timeout_ms) + std::chrono::milliseconds(1000), stop);
  if (!event) {
    *code = RD_KAFKA_RESP_ERR__TIMED_OUT;
    *error = WhyNoEvent(stop);
    return false;
  }
  if (rd_kafka_event_error(event.get())) {
    *code = rd_kafka_event_error(event.get());
    *error = rd_kafka_event_error_string(event.get());
    return false;
  }
  size_t n = 0;
  const rd_kafka_group_result_t** results = rd_kafka_AlterConsumerGroupOffsets_result_groups(
      rd_kafka_event_AlterConsumerGroupOffsets_result(event.get()), &n);
  for (size_t i = 0; i < n; ++i) {
    if (const rd_kafka_error_t* e = rd_kafka_group_result_error(results[i])) {
      *code = rd_kafka_error_code(e);
      *error = rd_kafka_error_string(e);
      return false;
    }
    const rd_kafka_topic_partition_list_t* list = rd_kafka_group_result_partitions(results[i]);
    for (int k = 0; list != nullptr && k < list->cnt; ++k) {
      if (list->elems[k].err) {
        *code = list->elems[k].err;
        *error = std::string(list->elems[k].topic) + "-" +
                 std::to_string(list->elems[k].partition) + ": " +
                 rd_kafka_err2str(list->elems[k].err);
        return false;
      }
    }
  }
  return true;
}

}  // namespace connectd::mirror
