#include "runtime/storage/kafka_based_log.h"

#include <future>

#include "absl/strings/str_cat.h"
#include "runtime/common/logging.h"

namespace connectd::storage {
namespace {

constexpr char kLogger[] = "org.apache.kafka.connect.util.KafkaBasedLog";
constexpr int kQueryTimeoutMs = 5000;

// Errors of a partition whose leader is not known (yet): asking again shortly succeeds.
bool IsLeaderless(rd_kafka_resp_err_t err) {
  return err == RD_KAFKA_RESP_ERR_NOT_LEADER_FOR_PARTITION ||
         err == RD_KAFKA_RESP_ERR_LEADER_NOT_AVAILABLE ||
         err == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART ||
         err == RD_KAFKA_RESP_ERR__UNKNOWN_PARTITION || err == RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC ||
         err == RD_KAFKA_RESP_ERR_FENCED_LEADER_EPOCH ||
         err == RD_KAFKA_RESP_ERR_UNKNOWN_LEADER_EPOCH;
}

struct EventDeleter {
  void operator()(rd_kafka_event_t* e) const { rd_kafka_event_destroy(e); }
};
using EventPtr = std::unique_ptr<rd_kafka_event_t, EventDeleter>;
using kafka::QueuePtr;

// Waits for the result event of an admin call on `queue`.
EventPtr AwaitResult(rd_kafka_queue_t* queue, int timeout_ms) {
  return EventPtr(rd_kafka_queue_poll(queue, timeout_ms));
}

// The partition count of `topic`, 0 when it does not exist. Lists all topics: asking for one
// topic by name would let a broker with auto.create.topics.enable create it, uncompacted.
absl::StatusOr<int32_t> PartitionCount(rd_kafka_t* rk, const std::string& topic) {
  const rd_kafka_metadata_t* metadata = nullptr;
  rd_kafka_resp_err_t err = rd_kafka_metadata(rk, 1, nullptr, &metadata, kQueryTimeoutMs);
  if (err) return kafka::ToStatus(err, "metadata of topic " + topic);
  int32_t count = 0;
  for (int i = 0; i < metadata->topic_cnt; ++i) {
    if (topic == metadata->topics[i].topic &&
        metadata->topics[i].err == RD_KAFKA_RESP_ERR_NO_ERROR) {
      count = metadata->topics[i].partition_cnt;
    }
  }
  rd_kafka_metadata_destroy(metadata);
  return count;
}

}  // namespace

KafkaBasedLog::KafkaBasedLog(Options options, Consumed consumed)
    : options_(std::move(options)), consumed_(std::move(consumed)) {}

KafkaBasedLog::~KafkaBasedLog() { Stop(); }

absl::StatusOr<std::unique_ptr<KafkaBasedLog>> KafkaBasedLog::Start(Options options,
                                                                    Consumed consumed) {
  std::unique_ptr<KafkaBasedLog> log(new KafkaBasedLog(std::move(options), std::move(consumed)));
  absl::Status status = log->EnsureTopic();
  if (status.ok() && !log->created_ && log->options_.on_topic_ready) {
    log->options_.on_topic_ready();
  }
  if (status.ok()) status = log->StartClients();
  if (!status.ok()) return status;
  log->thread_ = std::thread([raw = log.get()] { raw->Run(); });
  if (log->created_ && !log->options_.await_leaders_when_created) {
    // Empty when created: nothing to read. Whatever another worker writes from now on is read
    // as it comes, and by every later ReadToEnd.
    CONNECTD_LOG(kInfo, kLogger) << "Topic " << log->options_.topic
                                 << " was just created: nothing to read yet";
    return log;
  }
  status = log->ReadToEndSync(log->options_.start_timeout);
  if (!status.ok()) {
    return absl::Status(status.code(), absl::StrCat("could not read topic ", log->options_.topic,
                                                    " to its end: ", status.message()));
  }
  CONNECTD_LOG(kInfo, kLogger) << "Finished reading KafkaBasedLog for topic "
                               << log->options_.topic;
  if (log->created_ && log->options_.on_topic_ready) log->options_.on_topic_ready();
  return log;
}

absl::Status KafkaBasedLog::EnsureTopic() {
  auto conf = kafka::MakeConf(options_.admin);
  if (!conf.ok()) return conf.status();
  auto admin = kafka::MakeClient(RD_KAFKA_PRODUCER, *std::move(conf));
  if (!admin.ok()) return admin.status();
  absl::StatusOr<int32_t> existing = PartitionCount(admin->get(), options_.topic);
  if (!existing.ok()) return existing.status();
  QueuePtr queue(rd_kafka_queue_new(admin->get()));
  char err[512];
  if (*existing == 0) {
    if (options_.create_after.valid()) options_.create_after.wait();
    rd_kafka_NewTopic_t* spec = rd_kafka_NewTopic_new(options_.topic.c_str(), options_.partitions,
                                                      options_.replication_factor, err, sizeof err);
    if (spec == nullptr) return absl::InvalidArgumentError(err);
    std::map<std::string, std::string> configs = options_.topic_configs;
    configs["cleanup.policy"] = "compact";
    for (const auto& [name, value] : configs) {
      rd_kafka_NewTopic_set_config(spec, name.c_str(), value.c_str());
    }
    rd_kafka_CreateTopics(admin->get(), &spec, 1, nullptr, queue.get());
    rd_kafka_NewTopic_destroy(spec);
    EventPtr event = AwaitResult(queue.get(), static_cast<int>(options_.start_timeout.count()));
    if (!event) return absl::DeadlineExceededError("creating topic " + options_.topic);
    size_t n = 0;
    const rd_kafka_topic_result_t** results =
        rd_kafka_CreateTopics_result_topics(rd_kafka_event_CreateTopics_result(event.get()), &n);
    if (rd_kafka_event_error(event.get())) {
      return kafka::ToStatus(rd_kafka_event_error(event.get()), "creating topic " + options_.topic);
    }
    for (size_t i = 0; i < n; ++i) {
      rd_kafka_resp_err_t e = rd_kafka_topic_result_error(results[i]);
      if (e && e != RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS) {
        return kafka::ToStatus(e, absl::StrCat("creating topic ", options_.topic, ": ",
                                               rd_kafka_topic_result_error_string(results[i])));
      }
    }
    // Created by this call only if the broker did not answer that it exists (a worker starting
    // at the same moment may have created it, and written to it since).
    created_ = n == 1 && rd_kafka_topic_result_error(results[0]) == RD_KAFKA_RESP_ERR_NO_ERROR;
    CONNECTD_LOG(kInfo, kLogger) << "Created topic " << options_.topic << " with "
                                 << options_.partitions << " partitions";
    return absl::OkStatus();
  }
  if (!options_.require_compaction) return absl::OkStatus();
  // Connect refuses an internal topic that is not compacted: deleted records would lose
  // configs, statuses or offsets.
  rd_kafka_ConfigResource_t* resource =
      rd_kafka_ConfigResource_new(RD_KAFKA_RESOURCE_TOPIC, options_.topic.c_str());
  rd_kafka_DescribeConfigs(admin->get(), &resource, 1, nullptr, queue.get());
  rd_kafka_ConfigResource_destroy(resource);
  EventPtr event = AwaitResult(queue.get(), kQueryTimeoutMs);
  if (!event || rd_kafka_event_error(event.get())) {
    CONNECTD_LOG(kWarn, kLogger) << "Could not check the cleanup.policy of topic " << options_.topic
                                 << "; assuming it is compacted";
    return absl::OkStatus();
  }
  size_t n = 0;
  const rd_kafka_ConfigResource_t** described = rd_kafka_DescribeConfigs_result_resources(
      rd_kafka_event_DescribeConfigs_result(event.get()), &n);
  for (size_t i = 0; i < n; ++i) {
    size_t entries = 0;
    const rd_kafka_ConfigEntry_t** configs =
        rd_kafka_ConfigResource_configs(described[i], &entries);
    for (size_t j = 0; j < entries; ++j) {
      if (std::string(rd_kafka_ConfigEntry_name(configs[j])) != "cleanup.policy") continue;
      const char* value = rd_kafka_ConfigEntry_value(configs[j]);
      if (value == nullptr || std::string(value) != "compact") {
        return absl::FailedPreconditionError(absl::StrCat(
            "Topic '", options_.topic, "' supplied via the '", options_.topic_property,
            "' property is required to have 'cleanup.policy=compact' to guarantee consistency "
            "and durability of source connector offsets, but found the topic currently has "
            "'cleanup.policy=",
            value ? value : "",
            "'. Continuing would likely result in "
            "eventually losing source connector offsets and problems restarting this Connect "
            "cluster in the future. Change the topic's cleanup.policy to 'compact'."));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status KafkaBasedLog::StartClients() {
  std::map<std::string, std::string> producer = options_.producer;
  producer["partitioner"] = "murmur2_random";  // Java's default partitioner for keyed records
  producer.emplace("topic.metadata.refresh.fast.interval.ms", "50");
  auto pconf = kafka::MakeConf(producer);
  if (!pconf.ok()) return pconf.status();
  rd_kafka_conf_set_dr_msg_cb(pconf->get(), &KafkaBasedLog::DeliveryCallback);
  rd_kafka_conf_set_opaque(pconf->get(), this);
  auto p = kafka::MakeClient(RD_KAFKA_PRODUCER, *std::move(pconf));
  if (!p.ok()) return p.status();
  producer_ = *std::move(p);
  kafka::WarmTopicMetadata(producer_.get(), options_.topic, kQueryTimeoutMs);

  auto c = MakeConsumer();
  if (!c.ok()) return c.status();
  consumer_ = *std::move(c);
  consumer_queue_.reset(rd_kafka_queue_get_consumer(consumer_.get()));
  char isolation[32] = "";
  size_t isolation_size = sizeof isolation;
  read_committed_ = rd_kafka_conf_get(rd_kafka_conf(consumer_.get()), "isolation.level", isolation,
                                      &isolation_size) == RD_KAFKA_CONF_OK &&
                    std::string_view(isolation) == "read_committed";

  if (created_) {
    // Just created: its partitions are the ones asked for, each starting at offset 0 (an
    // explicit offset, fetched as soon as the leader is known, without an offset query).
    partitions_ = options_.partitions;
    next_offsets_.assign(static_cast<size_t>(partitions_), 0);
    kafka::TopicPartitionListPtr assignment(rd_kafka_topic_partition_list_new(partitions_));
    for (int32_t p = 0; p < partitions_; ++p) {
      rd_kafka_topic_partition_list_add(assignment.get(), options_.topic.c_str(), p)->offset = 0;
    }
    rd_kafka_resp_err_t err = rd_kafka_assign(consumer_.get(), assignment.get());
    if (err) return kafka::ToStatus(err, "assigning topic " + options_.topic);
    // The consumer learns the topic now: one it has no metadata for waits for its once-a-second
    // scan, one whose leaders are still unknown is asked again every 50 ms.
    kafka::WarmTopicMetadata(consumer_.get(), options_.topic, kQueryTimeoutMs);
    return absl::OkStatus();
  }
  absl::StatusOr<int32_t> count = PartitionCount(consumer_.get(), options_.topic);
  for (int attempt = 0; count.ok() && *count == 0 && attempt < 50; ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));  // a just-created topic
    count = PartitionCount(consumer_.get(), options_.topic);
  }
  if (!count.ok()) return count.status();
  if (*count == 0) return absl::NotFoundError("topic " + options_.topic + " has no partitions");
  partitions_ = *count;
  next_offsets_.assign(static_cast<size_t>(partitions_), 0);
  // Assigned at each partition's first offset, asked for in one ListOffsets round (-2: the
  // earliest) while the topic has leaderless partitions: assigned at OFFSET_BEGINNING instead,
  // a partition whose leader the consumer has not learnt yet would wait 500 ms for librdkafka's
  // offset-query timer, delaying the first read of a just-created topic.
  kafka::TopicPartitionListPtr assignment(rd_kafka_topic_partition_list_new(partitions_));
  for (int32_t p = 0; p < partitions_; ++p) {
    rd_kafka_topic_partition_list_add(assignment.get(), options_.topic.c_str(), p)->offset =
        RD_KAFKA_OFFSET_BEGINNING;
  }
  for (int attempt = 0; attempt < 20; ++attempt) {
    for (int i = 0; i < assignment->cnt; ++i) {
      assignment->elems[i].offset = RD_KAFKA_OFFSET_BEGINNING;
      assignment->elems[i].err = RD_KAFKA_RESP_ERR_NO_ERROR;
    }
    const rd_kafka_resp_err_t listed =
        rd_kafka_offsets_for_times(consumer_.get(), assignment.get(), kQueryTimeoutMs);
    bool leaderless = IsLeaderless(listed);
    for (int i = 0; i < assignment->cnt; ++i) {
      leaderless = leaderless || IsLeaderless(assignment->elems[i].err);
    }
    if (!leaderless) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  for (int i = 0; i < assignment->cnt; ++i) {
    rd_kafka_topic_partition_t& tp = assignment->elems[i];
    if (tp.err != RD_KAFKA_RESP_ERR_NO_ERROR || tp.offset < 0)
      tp.offset = RD_KAFKA_OFFSET_BEGINNING;
    tp.err = RD_KAFKA_RESP_ERR_NO_ERROR;
  }
  rd_kafka_resp_err_t err = rd_kafka_assign(consumer_.get(), assignment.get());
  if (err) return kafka::ToStatus(err, "assigning topic " + options_.topic);
  return absl::OkStatus();
}

absl::StatusOr<kafka::RdKafkaPtr> KafkaBasedLog::MakeConsumer() const {
  std::map<std::string, std::string> consumer = options_.consumer;
  consumer["enable.auto.commit"] = "false";
  consumer["enable.partition.eof"] = "true";  // how the log sees the end past markers
  consumer.emplace("auto.offset.reset", "earliest");
  consumer.emplace("group.id", "connectd-kafka-based-log");  // never joined: assign() only
  // Internal topics are mostly idle: a short broker-side wait lets ReadToEnd notice new records
  // in ~0.1 s instead of Java's 0.5 s (fetch.max.wait.ms), for a few more idle fetches.
  consumer.emplace("fetch.wait.max.ms", "100");
  consumer.emplace("fetch.error.backoff.ms", "20");
  // A just-created internal topic whose leader the first metadata missed is asked for again
  // after 50 ms rather than 250 ms (both clients).
  consumer.emplace("topic.metadata.refresh.fast.interval.ms", "50");
  auto conf = kafka::MakeConf(consumer);
  if (!conf.ok()) return conf.status();
  auto c = kafka::MakeClient(RD_KAFKA_CONSUMER, *std::move(conf));
  if (!c.ok()) return c.status();
  rd_kafka_poll_set_consumer(c->get());
  return c;
}

void KafkaBasedLog::DeliveryCallback(rd_kafka_t*, const rd_kafka_message_t* message, void* opaque) {
  static_cast<KafkaBasedLog*>(opaque)->awaiting_reports_.fetch_sub(1);
  auto* done = static_cast<std::function<void(absl::Status)>*>(message->_private);
  if (done == nullptr) return;
  (*done)(message->err ? kafka::ToStatus(message->err, "writing to an internal topic")
                       : absl::OkStatus());
  delete done;
}

void KafkaBasedLog::Send(std::optional<std::string> key, std::optional<std::string> value,
                         std::function<void(absl::Status)> done) {
  auto* opaque = done ? new std::function<void(absl::Status)>(std::move(done)) : nullptr;
  const char* key_data = key ? key->data() : nullptr;
  const size_t key_size = key ? key->size() : 0;
  char* value_data = value ? value->data() : nullptr;  // copied (RD_KAFKA_MSG_F_COPY)
  const size_t value_size = value ? value->size() : 0;
  awaiting_reports_.fetch_add(1);
  rd_kafka_resp_err_t err = rd_kafka_producev(
      producer_.get(), RD_KAFKA_V_TOPIC(options_.topic.c_str()), RD_KAFKA_V_KEY(key_data, key_size),
      RD_KAFKA_V_VALUE(value_data, value_size), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
      RD_KAFKA_V_OPAQUE(opaque), RD_KAFKA_V_END);
  if (err) awaiting_reports_.fetch_sub(1);
  if (err && opaque != nullptr) {
    (*opaque)(kafka::ToStatus(err, "writing to topic " + options_.topic));
    delete opaque;
  }
}

absl::Status KafkaBasedLog::Flush(std::chrono::milliseconds timeout) {
  rd_kafka_resp_err_t err = rd_kafka_flush(producer_.get(), static_cast<int>(timeout.count()));
  return err ? kafka::ToStatus(err, "flushing writes to topic " + options_.topic)
             : absl::OkStatus();
}

void KafkaBasedLog::ReadToEnd(std::function<void(absl::Status)> done) {
  std::lock_guard lock(mu_);
  read_requests_.push_back(std::move(done));
  // The reader may be waiting in its poll: it takes the request now rather than after it.
  if (consumer_queue_) rd_kafka_queue_yield(consumer_queue_.get());
}

absl::Status KafkaBasedLog::ReadToEndSync(std::chrono::milliseconds timeout) {
  auto promise = std::make_shared<std::promise<absl::Status>>();
  std::future<absl::Status> future = promise->get_future();
  ReadToEnd([promise](absl::Status s) { promise->set_value(std::move(s)); });
  if (future.wait_for(timeout) != std::future_status::ready) {
    return absl::DeadlineExceededError("reading topic " + options_.topic + " to its end");
  }
  return future.get();
}

absl::StatusOr<std::vector<int64_t>> KafkaBasedLog::EndOffsets(int timeout_ms,
                                                               bool one_round_trip) {
  std::vector<int64_t> ends(static_cast<size_t>(partitions_), 0);
  // One ListOffsets round trip for every partition (the latest offsets at the consumer's
  // isolation level, as Java's admin ListOffsets), instead of one watermark query per
  // partition: a 25-partition offsets topic would take 25 round trips per read to the end.
  // Partitions it does not answer are asked one by one below.
  //
  // A read_uncommitted log asks on the producer's connections: the consumer's connection to
  // the same broker carries a fetch that waits fetch.wait.max.ms for records, and a broker
  // answers a connection's requests in order, so a ListOffsets behind it waited that long
  // (100 ms per read to the end, several per connector created: strace of a POST
  // /connectors). (The admin API's ListOffsets, tried first, stopped answering after a broker
  // restart: flow_health_test's DELETE of a connector timed out.)
  std::vector<bool> known(static_cast<size_t>(partitions_), false);
  kafka::TopicPartitionListPtr latest(rd_kafka_topic_partition_list_new(partitions_));
  for (int32_t p = 0; p < partitions_; ++p) {
    rd_kafka_topic_partition_list_add(latest.get(), options_.topic.c_str(), p)->offset =
        RD_KAFKA_OFFSET_END;  // as a timestamp: the latest offset
  }
  // A read_committed log asks its consumer, behind the parked fetch: its end is the last
  // stable offset, and a transaction's commit markers land after commit_transaction returns,
  // so a quicker answer found the end before a just-committed write (a config writer read back
  // its own transactional write without it: ExactlyOnceIntegrationTest). The producer's
  // isolation level is librdkafka's default (read_committed), which for a log no transaction
  // writes is the same end.
  rd_kafka_t* asker = read_committed_ ? consumer_.get() : producer_.get();
  const rd_kafka_resp_err_t listed = rd_kafka_offsets_for_times(asker, latest.get(), timeout_ms);
  bool leaderless = false;
  size_t answered = 0;
  for (int i = 0; i < latest->cnt; ++i) {
    const rd_kafka_topic_partition_t& tp = latest->elems[i];
    leaderless = leaderless || IsLeaderless(tp.err);
    if (tp.err == RD_KAFKA_RESP_ERR_NO_ERROR && tp.offset >= 0 && tp.partition >= 0 &&
        tp.partition < partitions_ && !known[static_cast<size_t>(tp.partition)]) {
      ends[static_cast<size_t>(tp.partition)] = tp.offset;
      known[static_cast<size_t>(tp.partition)] = true;
      ++answered;
    }
  }
  // No answer at all for a topic just created (its metadata not yet in the producer's cache,
  // seen as "Local: Unknown partition" from the fallback below) is asked again as well.
  leaderless =
      leaderless || IsLeaderless(listed) || (listed == RD_KAFKA_RESP_ERR_NO_ERROR && answered == 0);
  if (answered == static_cast<size_t>(partitions_)) return ends;
  if (leaderless || one_round_trip) {
    // A topic created a moment ago whose partitions do not all have a leader yet: the whole
    // round again shortly (one request), rather than a slower query per partition.
    return absl::UnavailableError("topic " + options_.topic + " has partitions without a leader");
  }
  for (int32_t p = 0; p < partitions_; ++p) {
    if (known[static_cast<size_t>(p)]) continue;
    int64_t low = 0, high = 0;
    rd_kafka_resp_err_t err = rd_kafka_query_watermark_offsets(
        consumer_.get(), options_.topic.c_str(), p, &low, &high, timeout_ms);
    if (IsLeaderless(err)) {
      // E.g. a topic just created that this consumer has no metadata for yet ("Local: Unknown
      // partition"; seen failing a worker's start): asked again on the next round.
      return absl::UnavailableError("topic " + options_.topic + " has partitions without a leader");
    }
    if (err) return kafka::ToStatus(err, "end offsets of topic " + options_.topic);
    ends[static_cast<size_t>(p)] = high;
  }
  return ends;
}

void KafkaBasedLog::Run() {
  while (!stopping_.load()) {
    std::vector<std::function<void(absl::Status)>> requests;
    {
      std::lock_guard lock(mu_);
      requests.swap(read_requests_);
    }
    if (!requests.empty()) {
      absl::StatusOr<std::vector<int64_t>> ends = EndOffsets(kQueryTimeoutMs);
      if (!ends.ok() && ends.status().code() == absl::StatusCode::kUnavailable) {
        // E.g. a topic created a moment ago has no leader yet: ask again on the next round
        // (the caller's own timeout bounds the wait).
        std::lock_guard lock(mu_);
        read_requests_.insert(read_requests_.begin(), std::make_move_iterator(requests.begin()),
                              std::make_move_iterator(requests.end()));
      } else if (!ends.ok()) {
        for (auto& done : requests) done(ends.status());
      } else {
        pending_reads_.push_back(PendingRead{*std::move(ends), std::move(requests)});
        CompleteReachedReads();  // often already there: no poll to wait for
      }
    }
    rd_kafka_poll(producer_.get(), 0);  // delivery reports
    PollOnce();
    CompleteReachedReads();
    CheckForStall();  // after the message is gone: it may replace the consumer that gave it
  }
  for (auto& read : pending_reads_) {
    for (auto& done : read.done) done(absl::CancelledError("log stopped"));
  }
  pending_reads_.clear();
}

void KafkaBasedLog::PollOnce() {
  kafka::MessagePtr message(
      rd_kafka_consumer_poll(consumer_.get(), awaiting_reports_.load() > 0 ? 2 : 50));
  if (!message) return;
  const size_t p = static_cast<size_t>(message->partition);
  if (message->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
    if (p < next_offsets_.size()) next_offsets_[p] = std::max(next_offsets_[p], message->offset);
  } else if (message->err == RD_KAFKA_RESP_ERR_GROUP_AUTHORIZATION_FAILED) {
    // librdkafka looks up the coordinator of the group.id its consumers require, though this log
    // only assigns partitions and never joins or commits: a principal that ACLs limit to what a
    // Java worker needs is not granted that group, and nothing is wrong.
    CONNECTD_LOG(kDebug, kLogger) << "Reading topic " << options_.topic << ": "
                                  << rd_kafka_message_errstr(message.get())
                                  << " (the log's consumer joins no group)";
  } else if (message->err) {
    CONNECTD_LOG(kWarn, kLogger) << "Error reading topic " << options_.topic << ": "
                                 << rd_kafka_message_errstr(message.get());
  } else {
    LogRecord record;
    record.partition = message->partition;
    record.offset = message->offset;
    if (message->key) record.key.emplace(static_cast<const char*>(message->key), message->key_len);
    if (message->payload) {
      record.value.emplace(static_cast<const char*>(message->payload), message->len);
    }
    record.timestamp_ms = rd_kafka_message_timestamp(message.get(), nullptr);
    consumed_(record);
    if (p < next_offsets_.size()) next_offsets_[p] = message->offset + 1;
  }
}

void KafkaBasedLog::CompleteReachedReads() {
  // A read still short of its end after this long is logged once with where each lagging
  // partition stands, so a stall names its partitions instead of only timing out its callers.
  constexpr auto kSlowRead = std::chrono::seconds(10);
  for (auto it = pending_reads_.begin(); it != pending_reads_.end();) {
    bool reached = true;
    for (size_t p = 0; p < it->end.size() && reached; ++p) {
      reached = next_offsets_[p] >= it->end[p];
    }
    if (!reached) {
      if (!it->reported && std::chrono::steady_clock::now() - it->since >= kSlowRead) {
        it->reported = true;
        std::string behind;
        for (size_t p = 0; p < it->end.size(); ++p) {
          if (next_offsets_[p] >= it->end[p]) continue;
          absl::StrAppend(&behind, behind.empty() ? "" : ", ", p, " at ", next_offsets_[p], " of ",
                          it->end[p]);
        }
        CONNECTD_LOG(kWarn, kLogger)
            << "Reading topic " << options_.topic << " to its end takes more than "
            << std::chrono::duration_cast<std::chrono::seconds>(kSlowRead).count()
            << " s; partitions short of the end: " << behind;
      }
      ++it;
      continue;
    }
    for (auto& done : it->done) done(absl::OkStatus());
    it = pending_reads_.erase(it);
  }
}

void KafkaBasedLog::CheckForStall() {
  const auto now = std::chrono::steady_clock::now();
  if (now < next_stall_check_) return;
  next_stall_check_ = now + options_.stall_check_interval;
  // One short round trip: with the broker unreachable there is nothing to tell (and the loop
  // must not wait long: delivery reports and reads are served here too).
  constexpr int kStallQueryTimeoutMs = 1000;
  absl::StatusOr<std::vector<int64_t>> ends = EndOffsets(kStallQueryTimeoutMs, true);
  if (!ends.ok()) return;
  std::vector<int32_t> stalled = stall_detector_.Check(next_offsets_, *ends);
  if (stalled.empty()) return;
  std::string where;
  for (int32_t p : stalled) {
    absl::StrAppend(&where, where.empty() ? "" : ", ", p, " at ", next_offsets_[p], " of ",
                    (*ends)[static_cast<size_t>(p)]);
  }
  CONNECTD_LOG(kWarn, kLogger) << "Reading topic " << options_.topic << ": partitions " << where
                               << " made no progress for " << options_.stall_check_interval.count()
                               << " ms while the broker has more; reading them with a new "
                                  "consumer from where the log stands";
  ReplaceConsumer(stalled);
}

void KafkaBasedLog::ReplaceConsumer(const std::vector<int32_t>& stalled) {
  absl::StatusOr<kafka::RdKafkaPtr> fresh = MakeConsumer();
  kafka::TopicPartitionListPtr assignment(rd_kafka_topic_partition_list_new(partitions_));
  for (int32_t p = 0; p < partitions_; ++p) {
    rd_kafka_topic_partition_list_add(assignment.get(), options_.topic.c_str(), p)->offset =
        next_offsets_[static_cast<size_t>(p)];
  }
  rd_kafka_resp_err_t err =
      fresh.ok() ? rd_kafka_assign(fresh->get(), assignment.get()) : RD_KAFKA_RESP_ERR_NO_ERROR;
  if (!fresh.ok() || err) {
    CONNECTD_LOG(kWarn, kLogger) << "Reading topic " << options_.topic << ": no new consumer for "
                                 << "stalled partitions (" << stalled.size() << "): "
                                 << (fresh.ok() ? rd_kafka_err2str(err)
                                                : std::string(fresh.status().message()))
                                 << "; trying again at the next check";
    return;
  }
  kafka::QueuePtr queue(rd_kafka_queue_get_consumer(fresh->get()));
  kafka::RdKafkaPtr old;
  kafka::QueuePtr old_queue;
  {
    std::lock_guard lock(mu_);
    old_queue = std::move(consumer_queue_);
    consumer_queue_ = std::move(queue);
    old = std::move(consumer_);
    consumer_ = *std::move(fresh);
  }
  old_queue.reset();  // before its client
  rd_kafka_consumer_close(old.get());
  stall_detector_.Reset();
}

void KafkaBasedLog::PauseFetchingForTest() {
  std::lock_guard lock(mu_);
  kafka::TopicPartitionListPtr all(rd_kafka_topic_partition_list_new(partitions_));
  for (int32_t p = 0; p < partitions_; ++p) {
    rd_kafka_topic_partition_list_add(all.get(), options_.topic.c_str(), p);
  }
  rd_kafka_pause_partitions(consumer_.get(), all.get());
}

void KafkaBasedLog::Stop() {
  if (stopping_.exchange(true)) return;
  if (thread_.joinable()) thread_.join();
  std::vector<std::function<void(absl::Status)>> requests;
  {
    std::lock_guard lock(mu_);
    requests.swap(read_requests_);
  }
  for (auto& done : requests) done(absl::CancelledError("log stopped"));
  if (producer_) rd_kafka_flush(producer_.get(), 5000);
  if (consumer_) rd_kafka_consumer_close(consumer_.get());
}

}  // namespace connectd::storage

namespace connectd::storage {

absl::StatusOr<std::unique_ptr<TopicLog>> OpenTopicLog(const TopicLogOpener& open,
                                                       const KafkaBasedLog::Options& options,
                                                       TopicLog::Consumed consumed) {
  if (open) return open(options, std::move(consumed));
  absl::StatusOr<std::unique_ptr<KafkaBasedLog>> log =
      KafkaBasedLog::Start(options, std::move(consumed));
  if (!log.ok()) return log.status();
  return std::unique_ptr<TopicLog>(*std::move(log));
}

}  // namespace connectd::storage
