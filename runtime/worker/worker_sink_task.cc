#include "runtime/worker/worker_sink_task.h"

#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/common/logging.h"
#include "runtime/common/strings.h"
#include "runtime/kafka/client_config.h"
#include "runtime/plugin/data_abi.h"

namespace connectd::worker {
namespace {

constexpr char kLogger[] = "org.apache.kafka.connect.runtime.WorkerSinkTask";

kafka::TopicPartitionListPtr ToList(const std::map<std::pair<std::string, int32_t>, int64_t>& m,
                                    bool with_offsets) {
  kafka::TopicPartitionListPtr list(rd_kafka_topic_partition_list_new(static_cast<int>(m.size())));
  for (const auto& [tp, offset] : m) {
    rd_kafka_topic_partition_t* p =
        rd_kafka_topic_partition_list_add(list.get(), tp.first.c_str(), tp.second);
    if (with_offsets) p->offset = offset;
  }
  return list;
}

}  // namespace

WorkerSinkTask::WorkerSinkTask(herder::ConnectorTaskId id, StatusListener& listener,
                               herder::TargetState initial_state,
                               const plugin::ConnectorPlugin& plugin, SinkTaskOptions options)
    : WorkerTask(std::move(id), listener, initial_state, *options.metrics),
      plugin_(plugin),
      options_(std::move(options)),
      task_metrics_(metrics_scope_, this->id()),
      error_metrics_(metrics_scope_, this->id()) {}

WorkerSinkTask::~WorkerSinkTask() = default;

int WorkerSinkTask::StatsCallback(rd_kafka_t*, char* json, size_t json_len, void* opaque) {
  auto* task = static_cast<WorkerSinkTask*>(opaque);
  if (task->client_metrics_) task->client_metrics_->Update(std::string_view(json, json_len));
  return 0;  // librdkafka frees the JSON
}

absl::Status WorkerSinkTask::Initialize() {
  if (options_.pipeline) {
    options_.pipeline->SetStopCheck([this] { return stopping(); });
    options_.pipeline->SetErrorMetrics(&error_metrics_);
  }
  std::vector<std::string> warnings;
  absl::StatusOr<kafka::ConfPtr> conf = kafka::MakeConfWithWarnings(options_.consumer, warnings);
  if (!conf.ok()) return conf.status();
  for (const std::string& warning : warnings) CONNECTD_LOG(kWarn, kLogger) << warning;
  rd_kafka_conf_set_rebalance_cb(conf->get(), &WorkerSinkTask::RebalanceCallback);
  rd_kafka_conf_set_stats_cb(conf->get(), &WorkerSinkTask::StatsCallback);
  rd_kafka_conf_set_opaque(conf->get(), this);
  const auto client_id = options_.consumer.find("client.id");
  client_metrics_ = std::make_unique<kafka::ClientMetrics>(
      metrics_scope_, kafka::ClientMetrics::Kind::kConsumer,
      client_id != options_.consumer.end() ? client_id->second : "");
  absl::StatusOr<kafka::RdKafkaPtr> consumer =
      kafka::MakeClient(RD_KAFKA_CONSUMER, *std::move(conf));
  if (!consumer.ok()) return consumer.status();
  consumer_ = *std::move(consumer);
  rd_kafka_poll_set_consumer(consumer_.get());
  if (options_.pipeline && !options_.pipeline->errors().dlq_topic.empty()) {
    absl::StatusOr<std::unique_ptr<DeadLetterQueueReporter>> dlq =
        DeadLetterQueueReporter::Make(options_.pipeline->errors(), id_, options_.dlq_producer);
    if (!dlq.ok()) return dlq.status();
    dlq_ = *std::move(dlq);
    dlq_->set_metrics(&error_metrics_);
  }

  absl::StatusOr<std::unique_ptr<plugin::SinkTaskInstance>> instance =
      plugin::SinkTaskInstance::Create(plugin_, this);
  if (!instance.ok()) return instance.status();
  {
    std::lock_guard lock(instance_mu_);
    instance_ = std::shared_ptr<plugin::SinkTaskInstance>(std::move(*instance));
  }
  if (absl::Status started = instance_->Start(options_.task_config); !started.ok()) return started;

  kafka::TopicPartitionListPtr subscription(rd_kafka_topic_partition_list_new(1));
  if (!options_.topics_regex.empty()) {
    std::string regex = "^" + options_.topics_regex;  // librdkafka: a leading ^ marks a regex
    rd_kafka_topic_partition_list_add(subscription.get(), regex.c_str(), RD_KAFKA_PARTITION_UA);
  } else {
    for (const std::string& topic : options_.topics) {
      rd_kafka_topic_partition_list_add(subscription.get(), topic.c_str(), RD_KAFKA_PARTITION_UA);
    }
  }
  CONNECTD_LOG(kInfo, kLogger) << "Subscribing to "
                               << (options_.topics_regex.empty()
                                       ? absl::StrJoin(options_.topics, ",")
                                       : "regex " + options_.topics_regex);
  next_commit_ = std::chrono::steady_clock::now() + options_.offset_flush_interval;
  return kafka::ToStatus(rd_kafka_subscribe(consumer_.get(), subscription.get()), "subscribe");
}

void WorkerSinkTask::RebalanceCallback(rd_kafka_t*, rd_kafka_resp_err_t err,
                                       rd_kafka_topic_partition_list_t* partitions, void* opaque) {
  static_cast<WorkerSinkTask*>(opaque)->OnRebalance(err, partitions);
}

void WorkerSinkTask::OnRebalance(rd_kafka_resp_err_t err,
                                 rd_kafka_topic_partition_list_t* partitions) {
  bool cooperative =
      std::string_view(rd_kafka_rebalance_protocol(consumer_.get())) == "COOPERATIVE";
  std::vector<connectd_topic_partition> tps;
  for (int i = 0; i < partitions->cnt; ++i) {
    tps.push_back({{partitions->elems[i].topic, std::strlen(partitions->elems[i].topic)},
                   partitions->elems[i].partition});
  }
  if (err == RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS) {
    if (cooperative) {
      kafka::ErrorPtr(rd_kafka_incremental_assign(consumer_.get(), partitions));
    } else {
      rd_kafka_assign(consumer_.get(), partitions);
    }
    for (int i = 0; i < partitions->cnt; ++i) {
      assigned_[{partitions->elems[i].topic, partitions->elems[i].partition}] = -1;
    }
    task_metrics_.RecordPartitionCount(static_cast<int64_t>(assigned_.size()));
    if (paused_) PauseAll(true);
    absl::Status opened = instance_->Open(tps);
    if (!opened.ok() && rebalance_failure_.ok()) rebalance_failure_ = opened;
    return;
  }
  // Revocation: commit what is safe, then close the partitions in the plugin.
  absl::Status committed = Commit(/*sync=*/true);
  if (!committed.ok()) {
    CONNECTD_LOG(kWarn, kLogger) << "Commit before revocation failed: " << committed.message();
  }
  absl::Status closed = instance_->Close(tps);
  if (!closed.ok() && rebalance_failure_.ok()) rebalance_failure_ = closed;
  for (int i = 0; i < partitions->cnt; ++i) {
    assigned_.erase({partitions->elems[i].topic, partitions->elems[i].partition});
    committed_.erase({partitions->elems[i].topic, partitions->elems[i].partition});
  }
  task_metrics_.RecordPartitionCount(static_cast<int64_t>(assigned_.size()));
  PublishActive();
  if (cooperative) {
    kafka::ErrorPtr(rd_kafka_incremental_unassign(consumer_.get(), partitions));
  } else {
    rd_kafka_assign(consumer_.get(), nullptr);
  }
}

absl::Status WorkerSinkTask::Iterate() {
  ApplyContextRequests();
  std::vector<kafka::MessagePtr> messages;
  int timeout_ms = 500;
  while (static_cast<int>(messages.size()) < options_.max_batch) {
    kafka::MessagePtr message(rd_kafka_consumer_poll(consumer_.get(), timeout_ms));
    timeout_ms = 0;
    if (!message) break;
    if (message->err) {
      if (message->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) continue;
      CONNECTD_LOG(kWarn, kLogger) << "Consumer error: " << rd_kafka_message_errstr(message.get());
      if (message->err == RD_KAFKA_RESP_ERR__FATAL) {
        return kafka::ToStatus(message->err, "consumer");
      }
      continue;
    }
    messages.push_back(std::move(message));
  }
  if (!rebalance_failure_.ok()) return rebalance_failure_;
  if (!messages.empty()) {
    // What the plugin gets: the consumed bytes, or (through the pipeline) the bytes and Connect
    // data of each transformed record, which `converted` and `data` own during put; `writer`
    // lays the data out for the ABI. On the pass-through path the data views the bytes.
    std::vector<KafkaRecord> converted;
    std::vector<transforms::ConnectRecord> data;
    std::vector<const rd_kafka_message_t*> sources;
    const bool through_pipeline = options_.pipeline && !options_.pipeline->PassThrough();
    if (through_pipeline) {
      absl::Status processed = RunPipeline(messages, converted, data, sources);
      if (!processed.ok()) return processed;
    }
    std::vector<connectd_sink_record> records;
    const size_t count = through_pipeline ? converted.size() : messages.size();
    std::vector<std::vector<connectd_header>> headers(count);
    std::vector<connectd_value> keys(count), values(count);
    plugin::DataWriter writer;
    records.reserve(count);
    for (size_t i = 0; i < count; ++i) {
      const rd_kafka_message_t* m = through_pipeline ? sources[i] : messages[i].get();
      connectd_sink_record r{};
      r.struct_size = sizeof(r);
      if (through_pipeline) {
        const KafkaRecord& c = converted[i];
        r.topic = {c.topic.data(), c.topic.size()};
        r.partition = c.partition.value_or(m->partition);
        r.offset = m->offset;
        r.key = c.key ? connectd_bytes{c.key->data(), c.key->size()} : connectd_bytes{nullptr, 0};
        r.value =
            c.value ? connectd_bytes{c.value->data(), c.value->size()} : connectd_bytes{nullptr, 0};
        r.timestamp_ms = c.timestamp_ms;
        rd_kafka_timestamp_type_t type;
        rd_kafka_message_timestamp(m, &type);
        r.timestamp_type = type == RD_KAFKA_TIMESTAMP_CREATE_TIME ? CONNECTD_TIMESTAMP_CREATE_TIME
                           : type == RD_KAFKA_TIMESTAMP_LOG_APPEND_TIME
                               ? CONNECTD_TIMESTAMP_LOG_APPEND_TIME
                               : CONNECTD_TIMESTAMP_NO_TYPE;
        for (const auto& [k, v] : c.headers) {
          headers[i].push_back(
              {{k.data(), k.size()},
               v ? connectd_bytes{v->data(), v->size()} : connectd_bytes{nullptr, 0}});
        }
        r.headers = headers[i].data();
        r.header_count = headers[i].size();
        keys[i] = writer.WriteValue(data[i].key);
        values[i] = writer.WriteValue(data[i].value);
        r.key_schema = writer.WriteSchema(data[i].key_schema);
        r.key_data = &keys[i];
        r.value_schema = writer.WriteSchema(data[i].value_schema);
        r.value_data = &values[i];
        records.push_back(r);
        continue;
      }
      const char* topic = rd_kafka_topic_name(m->rkt);
      r.topic = {topic, std::strlen(topic)};
      r.partition = m->partition;
      r.offset = m->offset;
      r.key = {m->key, m->key_len};
      r.value = {m->payload, m->len};
      rd_kafka_timestamp_type_t type;
      r.timestamp_ms = rd_kafka_message_timestamp(m, &type);
      r.timestamp_type = type == RD_KAFKA_TIMESTAMP_CREATE_TIME ? CONNECTD_TIMESTAMP_CREATE_TIME
                         : type == RD_KAFKA_TIMESTAMP_LOG_APPEND_TIME
                             ? CONNECTD_TIMESTAMP_LOG_APPEND_TIME
                             : CONNECTD_TIMESTAMP_NO_TYPE;
      rd_kafka_headers_t* hdrs = nullptr;
      if (rd_kafka_message_headers(m, &hdrs) == RD_KAFKA_RESP_ERR_NO_ERROR) {
        const char* name;
        const void* value;
        size_t size;
        for (size_t h = 0; !rd_kafka_header_get_all(hdrs, h, &name, &value, &size); ++h) {
          headers[i].push_back({{name, std::strlen(name)}, {value, size}});
        }
      }
      r.headers = headers[i].data();
      r.header_count = headers[i].size();
      keys[i] = plugin::BytesView(r.key);
      values[i] = plugin::BytesView(r.value);
      r.key_schema = r.value_schema = plugin::OptionalBytesSchema();
      r.key_data = &keys[i];
      r.value_data = &values[i];
      records.push_back(r);
    }
    task_metrics_.RecordRead(static_cast<int64_t>(messages.size()));
    task_group_metrics().RecordBatchSize(static_cast<int64_t>(records.size()));
    const auto put_start = std::chrono::steady_clock::now();
    absl::Status put =
        records.empty() ? absl::OkStatus() : instance_->Put(records.data(), records.size());
    task_metrics_.RecordPut(std::chrono::duration_cast<std::chrono::milliseconds>(
                                std::chrono::steady_clock::now() - put_start)
                                .count());
    if (!put.ok() && put.code() != absl::StatusCode::kUnavailable) return put;
    if (put.ok()) task_metrics_.RecordSend(static_cast<int64_t>(records.size()));
    if (!put.ok()) {
      // RetriableException: Connect redelivers the same batch after a backoff.
      CONNECTD_LOG(kWarn, kLogger) << "Retriable error in put, redelivering: " << put.message();
      for (const auto& m : messages) {
        rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(1);
        rd_kafka_topic_partition_list_add(list, rd_kafka_topic_name(m->rkt), m->partition)->offset =
            m->offset;
        kafka::ErrorPtr(rd_kafka_seek_partitions(consumer_.get(), list, 1000));
        rd_kafka_topic_partition_list_destroy(list);
        break;
      }
      WaitFor(std::chrono::milliseconds(500));
      return absl::OkStatus();
    }
    for (const auto& m : messages) {
      std::string topic = rd_kafka_topic_name(m->rkt);
      assigned_[{topic, m->partition}] = m->offset + 1;
      committed_.try_emplace({topic, m->partition}, m->offset);
      if (topics_seen_.insert(topic).second) listener_.OnTopicUsed(id_.connector, topic);
    }
    PublishActive();
    records_put_ += static_cast<int64_t>(records.size());
  }
  bool requested = false;
  {
    std::lock_guard lock(requests_mu_);
    requested = std::exchange(commit_requested_, false);
  }
  if (requested || std::chrono::steady_clock::now() >= next_commit_) {
    absl::Status committed = Commit(/*sync=*/false);
    if (!committed.ok() && committed.code() != absl::StatusCode::kUnavailable) return committed;
    next_commit_ = std::chrono::steady_clock::now() + options_.offset_flush_interval;
  }
  return absl::OkStatus();
}

absl::Status WorkerSinkTask::RunPipeline(const std::vector<kafka::MessagePtr>& messages,
                                         std::vector<KafkaRecord>& converted,
                                         std::vector<transforms::ConnectRecord>& data,
                                         std::vector<const rd_kafka_message_t*>& sources) {
  RecordPipeline& pipeline = *options_.pipeline;
  for (const kafka::MessagePtr& message : messages) {
    const rd_kafka_message_t* m = message.get();
    KafkaRecord consumed;
    consumed.topic = rd_kafka_topic_name(m->rkt);
    consumed.partition = m->partition;
    if (m->key) consumed.key.emplace(static_cast<const char*>(m->key), m->key_len);
    if (m->payload) consumed.value.emplace(static_cast<const char*>(m->payload), m->len);
    consumed.timestamp_ms = rd_kafka_message_timestamp(m, nullptr);
    rd_kafka_headers_t* hdrs = nullptr;
    if (rd_kafka_message_headers(m, &hdrs) == RD_KAFKA_RESP_ERR_NO_ERROR) {
      const char* name;
      const void* value;
      size_t size;
      for (size_t h = 0; !rd_kafka_header_get_all(hdrs, h, &name, &value, &size); ++h) {
        consumed.headers.emplace_back(name, value ? std::optional<std::string>(std::string(
                                                        static_cast<const char*>(value), size))
                                                  : std::nullopt);
      }
    }
    PipelineOutcome outcome = pipeline.ToSink(consumed, m->offset);
    if (outcome.record) {
      converted.push_back(std::move(*outcome.record));
      data.push_back(std::move(*outcome.data));
      sources.push_back(m);
      continue;
    }
    if (!outcome.error) continue;  // dropped by a transform
    const ProcessingError& error = *outcome.error;
    error_metrics_.RecordError();
    if (!pipeline.errors().tolerate_all) {
      return absl::FailedPreconditionError(
          absl::StrCat("Tolerance exceeded in error handler: executing stage '",
                       AsAbsl(StageName(error.stage)), "' with class '", error.executing_class,
                       "' failed: ", error.exception_class, ": ", error.message));
    }
    if (pipeline.errors().log_enable) {
      std::string where;
      if (pipeline.errors().log_include_messages) {
        where = absl::StrCat(", where consumed record is {topic='", consumed.topic,
                             "', partition=", m->partition, ", offset=", m->offset,
                             ", timestamp=", consumed.timestamp_ms, "}");
      }
      CONNECTD_LOG(kError, kLogger) << "Error encountered in task " << id_.connector << "-"
                                    << id_.task << ". Executing stage '" << StageName(error.stage)
                                    << "' with class '" << error.executing_class << "'" << where
                                    << ". " << error.exception_class << ": " << error.message;
      error_metrics_.RecordErrorLogged();
    }
    error_metrics_.RecordSkipped();
    if (dlq_) dlq_->Report(consumed, m->offset, error);
  }
  if (dlq_) dlq_->Poll();
  return absl::OkStatus();
}

void WorkerSinkTask::PublishActive() {
  int64_t active = 0;
  for (const auto& [tp, next] : assigned_) {
    auto committed = committed_.find(tp);
    if (next >= 0 && committed != committed_.end())
      active += std::max<int64_t>(0, next - committed->second);
  }
  task_metrics_.RecordActive(active);
}

absl::Status WorkerSinkTask::RecordCommitAttempt(absl::Status status,
                                                 std::chrono::steady_clock::time_point start) {
  const int64_t ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::steady_clock::now() - start)
                         .count();
  task_metrics_.RecordCommit(status.ok());
  task_group_metrics().RecordCommit(status.ok(), ms);
  return status;
}

absl::Status WorkerSinkTask::Commit(bool sync) {
  const auto start = std::chrono::steady_clock::now();
  // A skipped record's offset may be committed only once its dead-letter copy is stored.
  if (dlq_ && !dlq_->Flush(options_.offset_flush_timeout)) {
    return RecordCommitAttempt(
        absl::DeadlineExceededError(
            "the dead letter queue did not acknowledge its records in time; offsets not committed"),
        start);
  }
  std::vector<connectd_topic_partition_offset> current;
  for (const auto& [tp, offset] : assigned_) {
    if (offset >= 0) current.push_back({{tp.first.data(), tp.first.size()}, tp.second, offset});
  }
  if (current.empty()) return absl::OkStatus();
  absl::StatusOr<plugin::CommittableOffsets> committable = instance_->PreCommit(current);
  if (!committable.ok()) {
    CONNECTD_LOG(kError, kLogger) << "Commit of offsets threw an unexpected exception: "
                                  << committable.status().message();
    return RecordCommitAttempt(committable.status(), start);
  }
  if (committable->empty()) return absl::OkStatus();
  kafka::TopicPartitionListPtr list(
      rd_kafka_topic_partition_list_new(static_cast<int>(committable->size())));
  for (const auto& c : *committable) {
    if (assigned_.count({c.topic, c.partition}) == 0) continue;  // only what we still own
    rd_kafka_topic_partition_list_add(list.get(), c.topic.c_str(), c.partition)->offset = c.offset;
  }
  if (list->cnt == 0) return absl::OkStatus();
  absl::Status committed = kafka::ToStatus(
      rd_kafka_commit(consumer_.get(), list.get(), sync ? 0 : 1), "committing sink offsets");
  if (committed.ok()) {
    for (int i = 0; i < list->cnt; ++i) {
      committed_[{list->elems[i].topic, list->elems[i].partition}] = list->elems[i].offset;
    }
    PublishActive();
  }
  return RecordCommitAttempt(std::move(committed), start);
}

void WorkerSinkTask::ApplyContextRequests() {
  std::map<TopicPartition, int64_t> seeks;
  std::map<TopicPartition, bool> pauses;
  {
    std::lock_guard lock(requests_mu_);
    seeks.swap(seeks_);
    pauses.swap(pause_requests_);
  }
  for (const auto& [tp, offset] : seeks) {
    if (assigned_.count(tp) == 0) continue;
    kafka::TopicPartitionListPtr list = ToList({{tp, offset}}, true);
    kafka::ErrorPtr error(rd_kafka_seek_partitions(consumer_.get(), list.get(), 5000));
    if (error) {
      CONNECTD_LOG(kWarn, kLogger) << "Seek of " << tp.first << "-" << tp.second
                                   << " failed: " << rd_kafka_error_string(error.get());
    }
  }
  for (const auto& [tp, pause] : pauses) {
    kafka::TopicPartitionListPtr list = ToList({{tp, 0}}, false);
    if (pause) {
      rd_kafka_pause_partitions(consumer_.get(), list.get());
    } else if (!paused_) {
      rd_kafka_resume_partitions(consumer_.get(), list.get());
    }
  }
}

void WorkerSinkTask::PauseAll(bool pause) {
  kafka::TopicPartitionListPtr list = ToList(assigned_, false);
  if (pause) {
    rd_kafka_pause_partitions(consumer_.get(), list.get());
  } else {
    rd_kafka_resume_partitions(consumer_.get(), list.get());
  }
}

void WorkerSinkTask::OnPause() {
  paused_ = true;
  PauseAll(true);
}

void WorkerSinkTask::OnResume() {
  paused_ = false;
  PauseAll(false);
}

void WorkerSinkTask::IdleWhilePaused() {
  // Keep polling so the group keeps this member; paused partitions return nothing.
  kafka::MessagePtr message(rd_kafka_consumer_poll(consumer_.get(), 500));
}

void WorkerSinkTask::Close() {
  if (consumer_ && instance_) {
    absl::Status committed = Commit(/*sync=*/true);
    if (!committed.ok()) {
      CONNECTD_LOG(kWarn, kLogger) << "Final commit failed: " << committed.message();
    }
    std::vector<connectd_topic_partition> tps;
    for (const auto& [tp, offset] : assigned_) {
      tps.push_back({{tp.first.data(), tp.first.size()}, tp.second});
    }
    (void)instance_->Close(tps);
    assigned_.clear();
  }
  if (consumer_) {
    rd_kafka_consumer_close(consumer_.get());
    consumer_.reset();
  }
  std::lock_guard lock(instance_mu_);
  instance_.reset();
}

void WorkerSinkTask::SignalPluginStop() {
  std::shared_ptr<plugin::SinkTaskInstance> instance;
  {
    std::lock_guard lock(instance_mu_);
    instance = instance_;
  }
  if (instance) std::thread([instance] { instance->Stop(); }).detach();
}

void WorkerSinkTask::RequestCommit() {
  std::lock_guard lock(requests_mu_);
  commit_requested_ = true;
}

void WorkerSinkTask::Seek(std::string_view topic, int32_t partition, int64_t offset) {
  std::lock_guard lock(requests_mu_);
  seeks_[{std::string(topic), partition}] = offset;
}

void WorkerSinkTask::Pause(std::string_view topic, int32_t partition) {
  std::lock_guard lock(requests_mu_);
  pause_requests_[{std::string(topic), partition}] = true;
}

void WorkerSinkTask::Resume(std::string_view topic, int32_t partition) {
  std::lock_guard lock(requests_mu_);
  pause_requests_[{std::string(topic), partition}] = false;
}

}  // namespace connectd::worker
