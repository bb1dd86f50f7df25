#include "runtime/worker/abstract_worker_source_task.h"

#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "runtime/common/logging.h"
#include "runtime/common/strings.h"
#include "runtime/kafka/client_config.h"
#include "runtime/kafka/metadata_wait.h"
#include "runtime/plugin/data_abi.h"

namespace connectd::worker {

using plugin::View;

namespace {

// How long the first record to a topic waits at most for the topic's metadata.
constexpr int kWarmMetadataTimeoutMs = 2000;
constexpr char kLogger[] = "org.apache.kafka.connect.runtime.AbstractWorkerSourceTask";

// A record the producer refused as too large, named as an operator needs it: where it comes
// from, where it goes, how big it is and which key allows it (Java's RecordTooLargeException
// names only the size and max.request.size).
absl::Status RecordTooLarge(rd_kafka_t* producer, const connectd_source_record& r,
                            std::string_view topic, bool by_broker) {
  size_t headers = 0;
  for (size_t i = 0; i < r.header_count; ++i) {
    headers += r.headers[i].key.size + r.headers[i].value.size;
  }
  char limit[32] = "?";
  size_t limit_size = sizeof(limit);
  rd_kafka_conf_get(rd_kafka_conf(producer), "message.max.bytes", limit, &limit_size);
  return absl::InvalidArgumentError(absl::StrCat(
      "The record of source partition ", AsAbsl(plugin::View(r.source_partition)),
      " at source offset ", AsAbsl(plugin::View(r.source_offset)), " for topic ", AsAbsl(topic),
      r.partition == CONNECTD_ANY_PARTITION ? std::string()
                                            : absl::StrCat(" partition ", r.partition),
      " is ", r.key.size + r.value.size + headers, " bytes (key ", r.key.size, ", value ",
      r.value.size, ", headers ", headers, "): ",
      by_broker ? std::string("the target broker refused it as larger than the topic's "
                              "max.message.bytes (or the broker's message.max.bytes): raise "
                              "that topic config")
                : absl::StrCat("larger than the producer's max.request.size (", limit,
                               " bytes): raise producer.override.max.request.size on the "
                               "connector (or producer.max.request.size on the worker), and "
                               "the target topic's max.message.bytes if it is lower")));
}
}  // namespace

// The host side of SourceTask.poll: turns each appended record into an InFlight; a record with a
// source offset is offered to the subclass in poll order (SubmitOffset).
class AbstractWorkerSourceTask::Batch : public plugin::SourceBatchHost {
 public:
  explicit Batch(AbstractWorkerSourceTask& task) : task_(task) {}

  connectd_status Append(const connectd_source_record& r) override {
    // `r` is whole: host_api zeroes what an older plugin's struct lacks.
    if (r.struct_size < offsetof(connectd_source_record, release) || r.topic.size == 0) {
      if (r.release) r.release(r.release_opaque);
      return CONNECTD_STATUS_INVALID_ARGUMENT;
    }
    auto f = std::make_unique<InFlight>();
    bool zero_copy = r.release != nullptr;
    f->view = r;
    f->view.struct_size = sizeof(connectd_source_record);
    f->view.key_schema = f->view.value_schema = nullptr;
    f->view.key_data = f->view.value_data = nullptr;
    if (r.key_data != nullptr || r.value_data != nullptr) {
      f->extras().data = std::make_unique<SourceData>();
      absl::Status read = ReadData(r, *f->extra->data);
      if (!read.ok()) {
        CONNECTD_LOG(kError, kLogger) << "Task " << task_.id().connector << "-" << task_.id().task
                                      << " handed over malformed data: " << read.message();
        return CONNECTD_STATUS_INVALID_ARGUMENT;  // `f` releases the record
      }
    }
    // Copied in every case (ABI 1.2): needed after the poll call returns.
    const std::string_view topic = task_.Intern(View(r.topic));
    f->view.topic = {topic.data(), topic.size()};
    if (r.source_partition.size > 0 && r.source_offset.size > 0) {
      f->entry = task_.SubmitOffset(View(r.source_partition), View(r.source_offset));
    }
    if (f->entry != nullptr) {
      const std::string_view partition = f->entry->partition();
      const std::string_view offset = f->entry->offset.view();
      f->view.source_partition = {partition.data(), partition.size()};
      f->view.source_offset = {offset.data(), offset.size()};
    } else {
      InFlight::Extra& extra = f->extras();
      extra.owned_partition.assign(View(r.source_partition));
      extra.owned_offset.assign(View(r.source_offset));
      f->view.source_partition = {extra.owned_partition.data(), extra.owned_partition.size()};
      f->view.source_offset = {extra.owned_offset.data(), extra.owned_offset.size()};
    }
    if (!zero_copy) {
      f->view.release = nullptr;
      InFlight::Extra& extra = f->extras();
      if (r.key.data) {
        extra.owned_key.emplace(static_cast<const char*>(r.key.data), r.key.size);
        f->view.key = {extra.owned_key->data(), extra.owned_key->size()};
      }
      if (r.value.data) {
        extra.owned_value.emplace(static_cast<const char*>(r.value.data), r.value.size);
        f->view.value = {extra.owned_value->data(), extra.owned_value->size()};
      }
      extra.owned_header_keys.reserve(r.header_count);
      extra.owned_header_values.reserve(r.header_count);
      for (size_t i = 0; i < r.header_count; ++i) {
        extra.owned_header_keys.emplace_back(View(r.headers[i].key));
        if (r.headers[i].value.data) {
          extra.owned_header_values.emplace_back(std::string(
              static_cast<const char*>(r.headers[i].value.data), r.headers[i].value.size));
        } else {
          extra.owned_header_values.emplace_back(std::nullopt);
        }
      }
      for (size_t i = 0; i < r.header_count; ++i) {
        const auto& value = extra.owned_header_values[i];
        extra.headers.push_back(
            {{extra.owned_header_keys[i].data(), extra.owned_header_keys[i].size()},
             value ? connectd_bytes{value->data(), value->size()} : connectd_bytes{nullptr, 0}});
      }
      f->view.headers = extra.headers.data();
    }
    records.push_back(std::move(f));
    return CONNECTD_STATUS_OK;
  }
  std::vector<std::unique_ptr<InFlight>> records;

 private:
  // Copies the plugin's Connect data (valid only during this call).
  static absl::Status ReadData(const connectd_source_record& r, SourceData& data) {
    plugin::DataReader reader;
    if (r.key_data != nullptr) {
      absl::Status read = ReadOne(reader, r.key_schema, *r.key_data, data.key);
      if (!read.ok()) return read;
    }
    if (r.value_data != nullptr) return ReadOne(reader, r.value_schema, *r.value_data, data.value);
    return absl::OkStatus();
  }
  static absl::Status ReadOne(plugin::DataReader& reader, const connectd_schema* schema,
                              const connectd_value& value,
                              std::optional<converters::SchemaAndValue>& out) {
    absl::StatusOr<data::SchemaPtr> read_schema = reader.ReadSchema(schema);
    if (!read_schema.ok()) return read_schema.status();
    absl::StatusOr<data::Value> read_value = reader.ReadValue(value);
    if (!read_value.ok()) return read_value.status();
    out = converters::SchemaAndValue{*std::move(read_schema), *std::move(read_value)};
    return absl::OkStatus();
  }

  AbstractWorkerSourceTask& task_;
};

AbstractWorkerSourceTask::AbstractWorkerSourceTask(herder::ConnectorTaskId id,
                                                   StatusListener& listener,
                                                   herder::TargetState initial_state,
                                                   const plugin::ConnectorPlugin& plugin,
                                                   SourceTaskOptions options,
                                                   std::shared_ptr<ConnectorOffsetStore> offsets)
    : WorkerTask(std::move(id), listener, initial_state, *options.metrics),
      plugin_(plugin),
      options_(std::move(options)),
      offsets_(std::move(offsets)),
      task_metrics_(metrics_scope_, this->id()),
      error_metrics_(metrics_scope_, this->id()) {}

AbstractWorkerSourceTask::~AbstractWorkerSourceTask() = default;

std::optional<std::string> AbstractWorkerSourceTask::Offset(std::string_view source_partition) {
  absl::StatusOr<std::optional<std::string>> offset = offsets_->Offset(source_partition);
  if (offset.ok()) return *std::move(offset);
  CONNECTD_LOG(kError, kLogger) << "Failed to fetch the offset of " << source_partition << ": "
                                << offset.status().message();
  std::lock_guard lock(offset_read_mu_);
  if (offset_read_failure_.ok()) offset_read_failure_ = offset.status();
  return std::nullopt;
}

absl::Status AbstractWorkerSourceTask::CopyBatches(const connectd_batch_copy_request& request) {
  if (options_.exactly_once) {
    return absl::FailedPreconditionError(
        "exactly.once.source.support is enabled: batches are not copied inside the task's "
        "transactions (yet)");
  }
  if (options_.pipeline && !options_.pipeline->PassThrough()) {
    return absl::FailedPreconditionError(
        "the connector's transforms or converters need the records (batches travel only "
        "without transforms and with ByteArrayConverter as key and value converter)");
  }
  if (!instance_ || !instance_->has_batch_copy_event()) {
    return absl::FailedPreconditionError("the plugin does not implement batch_copy_event");
  }
  if (request.partition_count > 0 && request.partitions == nullptr) {
    return absl::InvalidArgumentError("a batch copy request without its partitions");
  }
  std::vector<kafka::BatchCopyPartition> partitions;
  std::vector<CopiedPartition> copied;
  std::set<std::pair<std::string, int32_t>> keys;
  for (size_t i = 0; i < request.partition_count; ++i) {
    const connectd_batch_copy_partition& p = request.partitions[i];
    if (p.struct_size < sizeof(connectd_batch_copy_partition)) {
      return absl::InvalidArgumentError("a batch copy partition of an unknown layout");
    }
    CopiedPartition c{std::string(plugin::View(p.source_topic)),
                      std::string(plugin::View(p.target_topic)),
                      p.partition,
                      std::string(plugin::View(p.source_partition)),
                      std::string(plugin::View(p.offset_prefix)),
                      std::string(plugin::View(p.offset_suffix))};
    if (c.source_topic.empty() || c.target_topic.empty() || p.partition < 0 || p.start_offset < 0 ||
        c.source_partition.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "batch copy partition ", c.source_topic, "-", p.partition, " -> ", c.target_topic, " at ",
          p.start_offset, ": topics, a source partition and offsets >= 0 are required"));
    }
    if (copying_.count({c.source_topic, p.partition}) ||
        !keys.insert({c.source_topic, p.partition}).second) {
      return absl::InvalidArgumentError(
          absl::StrCat(c.source_topic, "-", p.partition, " is already copied as batches"));
    }
    partitions.push_back({c.source_topic, p.partition, c.target_topic, p.start_offset});
    copied.push_back(std::move(c));
  }
  if (!copier_) {
    kafka::BatchCopierOptions copier_options;
    for (size_t i = 0; i < request.source_client.count; ++i) {
      copier_options.source[std::string(plugin::View(request.source_client.items[i].key))] =
          std::string(plugin::View(request.source_client.items[i].value));
    }
    copier_options.target = options_.producer;
    copier_options.fetch_buffers = options_.batch_copy_buffers;
    // The target's quota on the task's producer client id, published as the record path's
    // ThrottleCallback does (flow health names the quota with it).
    if (metrics::Sensor* throttle = producer_throttle_) {
      copier_options.on_produce_throttle = [throttle](int32_t ms) {
        throttle->Record(static_cast<double>(ms), metrics::NowMs());
      };
    }
    if (auto it = options_.producer.find("request.timeout.ms"); it != options_.producer.end()) {
      int64_t ms = 0;
      if (absl::SimpleAtoi(it->second, &ms) && ms > 0) {
        copier_options.request_timeout = std::chrono::milliseconds(ms);
      }
    }
    absl::StatusOr<std::unique_ptr<kafka::BatchCopier>> copier =
        kafka::BatchCopier::Create(std::move(copier_options));
    if (!copier.ok()) return copier.status();
    copier_ = *std::move(copier);
  }
  CONNECTD_LOG(kInfo, kLogger) << id_.connector << "-" << id_.task << " copies "
                               << partitions.size()
                               << " partitions as record batches (pass-through)";
  for (CopiedPartition& c : copied) {
    copying_.insert({c.source_topic, c.partition});
    copied_.push_back(std::move(c));
  }
  copier_->Add(std::move(partitions));
  return absl::OkStatus();
}

absl::Status AbstractWorkerSourceTask::ServeBatchCopies() {
  if (!copier_) return absl::OkStatus();
  std::vector<kafka::BatchCopyEvent> events = copier_->TakeEvents();
  int64_t records = 0;
  for (const kafka::BatchCopyEvent& e : events) {
    const CopiedPartition& c = copied_.at(e.index);
    const int32_t kind = e.kind == kafka::BatchCopyEvent::Kind::kAcked ? CONNECTD_BATCH_COPY_ACKED
                         : e.kind == kafka::BatchCopyEvent::Kind::kReturned
                             ? CONNECTD_BATCH_COPY_RETURNED
                             : CONNECTD_BATCH_COPY_PROGRESS;
    const connectd_batch_copy_event event{sizeof(connectd_batch_copy_event),
                                          kind,
                                          {c.source_topic.data(), c.source_topic.size()},
                                          c.partition,
                                          {c.target_topic.data(), c.target_topic.size()},
                                          e.position,
                                          e.source_end_offset,
                                          e.upstream_first,
                                          e.upstream_last,
                                          e.record_count,
                                          e.downstream_base,
                                          e.batch_bytes,
                                          e.max_timestamp_ms,
                                          e.error_code,
                                          {e.reason.data(), e.reason.size()},
                                          e.copy_again_at,
                                          e.fetch_throttle_ms,
                                          e.source_error_code,
                                          e.target_error_code,
                                          e.truncated_offsets};
    if (absl::Status s = instance_->BatchCopyEvent(event); !s.ok()) return s;
    if (kind == CONNECTD_BATCH_COPY_ACKED) {
      records += e.record_count;
      BatchAcknowledged(c.source_partition,
                        absl::StrCat(c.offset_prefix, e.upstream_last, c.offset_suffix));
    } else if (kind == CONNECTD_BATCH_COPY_RETURNED) {
      copying_.erase({c.source_topic, c.partition});
    }
  }
  if (records > 0) {
    records_polled_ += records;
    task_metrics_.RecordPoll(records, 0);
    records_acked_ += records;
    RecordAcknowledged();
  }
  return absl::OkStatus();
}

void AbstractWorkerSourceTask::StopBatchCopies(std::chrono::milliseconds timeout) {
  if (copier_) copier_->Stop(timeout);
}

absl::Status AbstractWorkerSourceTask::OffsetReadFailure() {
  std::lock_guard lock(offset_read_mu_);
  if (offset_read_failure_.ok()) return absl::OkStatus();
  return absl::Status(offset_read_failure_.code(),
                      absl::StrCat("Failed to fetch offsets: ", offset_read_failure_.message()));
}

absl::Status AbstractWorkerSourceTask::Initialize() {
  if (options_.pipeline) {
    options_.pipeline->SetStopCheck([this] { return stopping(); });
    options_.pipeline->SetErrorMetrics(&error_metrics_);
  }
  std::vector<std::string> warnings;
  absl::StatusOr<kafka::ConfPtr> conf = kafka::MakeConfWithWarnings(options_.producer, warnings);
  if (!conf.ok()) return conf.status();
  for (const std::string& warning : warnings) CONNECTD_LOG(kWarn, kLogger) << warning;
  rd_kafka_conf_set_dr_msg_cb(conf->get(), &AbstractWorkerSourceTask::DeliveryCallback);
  rd_kafka_conf_set_throttle_cb(conf->get(), &AbstractWorkerSourceTask::ThrottleCallback);
  rd_kafka_conf_set_stats_cb(conf->get(), &AbstractWorkerSourceTask::StatsCallback);
  rd_kafka_conf_set_opaque(conf->get(), this);
  const auto client_id = options_.producer.find("client.id");
  client_metrics_ = std::make_unique<kafka::ClientMetrics>(
      metrics_scope_, kafka::ClientMetrics::Kind::kProducer,
      client_id != options_.producer.end() ? client_id->second : "");
  producer_throttle_ = metrics_scope_.AddSensor(
      "kafka.producer", "producer-metrics",
      {{"client-id", client_id != options_.producer.end() ? client_id->second : ""}},
      {{"produce-throttle-time-avg", "The average time in ms a request was throttled by a broker",
        metrics::StatKind::kAvg},
       {"produce-throttle-time-max", "The maximum time in ms a request was throttled by a broker",
        metrics::StatKind::kMax}},
      metrics::NowMs());
  absl::StatusOr<kafka::RdKafkaPtr> producer =
      kafka::MakeClient(RD_KAFKA_PRODUCER, *std::move(conf));
  if (!producer.ok()) return producer.status();
  producer_ = *std::move(producer);
  {
    std::lock_guard lock(cancel_mu_);
    if (cancelled_) return absl::CancelledError("the task was abandoned while starting");
    cancellable_producer_ = producer_.get();
  }

  if (absl::Status prepared = PrepareToInitializeTask(); !prepared.ok()) return prepared;
  if (stopping()) return absl::OkStatus();

  absl::StatusOr<std::unique_ptr<plugin::SourceTaskInstance>> instance =
      plugin::SourceTaskInstance::Create(plugin_, this);
  if (!instance.ok()) return instance.status();
  {
    std::lock_guard lock(instance_mu_);
    instance_ = std::shared_ptr<plugin::SourceTaskInstance>(std::move(*instance));
  }
  if (stopping()) return absl::OkStatus();
  absl::Status started = instance_->Start(options_.task_config);
  if (!started.ok()) return started;
  return OffsetReadFailure();
}

void AbstractWorkerSourceTask::RecordPolled(const Batch& batch,
                                            std::chrono::steady_clock::time_point poll_start) {
  const auto records = static_cast<int64_t>(batch.records.size());
  records_polled_ += records;
  task_metrics_.RecordPoll(records, std::chrono::duration_cast<std::chrono::milliseconds>(
                                        std::chrono::steady_clock::now() - poll_start)
                                        .count());
  if (records > 0) {
    task_group_metrics().RecordBatchSize(records);
    task_metrics_.RecordActive(in_flight_ + records);
  }
}

void AbstractWorkerSourceTask::RecordAcknowledged() {
  const int64_t acked = records_acked_.load();
  if (acked != acked_published_) {
    task_metrics_.RecordWrite(acked - acked_published_);
    task_metrics_.RecordActive(in_flight_);
    acked_published_ = acked;
  }
}

absl::StatusOr<std::vector<std::unique_ptr<AbstractWorkerSourceTask::InFlight>>>
AbstractWorkerSourceTask::Poll(std::chrono::milliseconds timeout) {
  Batch batch(*this);
  const auto poll_start = std::chrono::steady_clock::now();
  absl::Status polled = instance_->Poll(static_cast<int32_t>(timeout.count()), &batch);
  if (!polled.ok() && polled.code() != absl::StatusCode::kUnavailable) return polled;
  if (!polled.ok()) {
    CONNECTD_LOG(kWarn, kLogger) << "Retriable error in poll: " << polled.message();
  }
  RecordPolled(batch, poll_start);
  if (absl::Status read = OffsetReadFailure(); !read.ok()) return read;
  return std::move(batch.records);
}

bool AbstractWorkerSourceTask::cancelled() {
  std::lock_guard lock(cancel_mu_);
  return cancelled_;
}

std::string_view AbstractWorkerSourceTask::Intern(std::string_view topic) {
  // A batch's records mostly share a topic: a compare is cheaper than hashing.
  if (topic == last_interned_) return last_interned_;
  auto it = topics_.find(absl::string_view(topic.data(), topic.size()));
  if (it == topics_.end()) it = topics_.emplace(topic).first;
  last_interned_ = std::string_view(it->data(), it->size());
  return last_interned_;
}

absl::StatusOr<bool> AbstractWorkerSourceTask::Transform(InFlight& f) {
  const connectd_source_record& v = f.view;
  KafkaRecord in;
  in.topic = std::string(View(v.topic));
  if (v.partition != CONNECTD_ANY_PARTITION) in.partition = v.partition;
  if (v.key.data) in.key.emplace(static_cast<const char*>(v.key.data), v.key.size);
  if (v.value.data) in.value.emplace(static_cast<const char*>(v.value.data), v.value.size);
  in.timestamp_ms = v.timestamp_ms;
  for (size_t i = 0; i < v.header_count; ++i) {
    const connectd_header& h = v.headers[i];
    in.headers.emplace_back(std::string(View(h.key)),
                            h.value.data
                                ? std::optional<std::string>(std::string(
                                      static_cast<const char*>(h.value.data), h.value.size))
                                : std::nullopt);
  }
  PipelineOutcome outcome = options_.pipeline->FromSource(
      std::move(in), f.has_data() ? std::move(*f.extra->data) : SourceData{});
  if (outcome.error) {
    const ProcessingError& error = *outcome.error;
    error_metrics_.RecordError();
    if (!options_.pipeline->errors().tolerate_all) {
      return absl::FailedPreconditionError(
          absl::StrCat("Tolerance exceeded in error handler: executing stage '",
                       AsAbsl(StageName(error.stage)), "' with class '", error.executing_class,
                       "' failed: ", error.exception_class, ": ", error.message));
    }
    if (options_.pipeline->errors().log_enable) {
      CONNECTD_LOG(kError, kLogger)
          << "Error encountered in task " << id_.connector << "-" << id_.task
          << ". Executing stage '" << StageName(error.stage) << "' with class '"
          << error.executing_class << "'. " << error.exception_class << ": " << error.message;
      error_metrics_.RecordErrorLogged();
    }
    error_metrics_.RecordSkipped();
  }
  if (!outcome.record) {
    // Dropped: acknowledged as it is (Connect commits a filtered record's offset too).
    CommitRecord(f.view, nullptr);
    RecordDropped(f);
    return false;
  }
  InFlight::Extra& extra = f.extras();
  extra.transformed = std::move(outcome.record);
  KafkaRecord& out = *extra.transformed;
  connectd_source_record p = f.view;
  const std::string_view topic = Intern(out.topic);
  p.topic = {topic.data(), topic.size()};
  p.partition = out.partition ? *out.partition : CONNECTD_ANY_PARTITION;
  p.key = out.key ? connectd_bytes{out.key->data(), out.key->size()} : connectd_bytes{nullptr, 0};
  p.value =
      out.value ? connectd_bytes{out.value->data(), out.value->size()} : connectd_bytes{nullptr, 0};
  p.timestamp_ms = out.timestamp_ms;
  for (const auto& [k, hv] : out.headers) {
    extra.transformed_headers.push_back(
        {{k.data(), k.size()},
         hv ? connectd_bytes{hv->data(), hv->size()} : connectd_bytes{nullptr, 0}});
  }
  p.headers = extra.transformed_headers.data();
  p.header_count = extra.transformed_headers.size();
  extra.produced = p;
  return true;
}

absl::Status AbstractWorkerSourceTask::Send(std::unique_ptr<InFlight> record) {
  const bool has_data = record->has_data();
  if (has_data && !options_.pipeline) {
    return absl::FailedPreconditionError(
        "a record carries Connect data but the task has no converters");
  }
  if (options_.pipeline && (!options_.pipeline->PassThrough() || has_data)) {
    absl::StatusOr<bool> produce = Transform(*record);
    if (!produce.ok()) return produce.status();
    if (!*produce) return absl::OkStatus();
  }
  const connectd_source_record& r = record->produced();
  // Offered to the subclass in Batch::Append; RecordDispatched once the producer took it.
  const std::string_view topic = View(r.topic);  // interned: NUL-terminated
  if (topic.data() != last_produced_topic_ && !produced_topics_.contains(topic.data())) {
    // The first record to this topic (after transforms): create it first when the connector
    // asks for that.
    if (options_.topic_creation) {
      absl::Status created = options_.topic_creation->Ensure(producer_.get(), std::string(topic));
      if (!created.ok()) return created;
    }
    // Its partitions now, or that it is missing, so a missing topic is waited for at produce
    // time as Java waits for it (rdkafka_handles.h).
    kafka::WarmTopicMetadata(producer_.get(), std::string(topic), kWarmMetadataTimeoutMs);
    produced_topics_.insert(topic.data());
    listener_.OnTopicUsed(id_.connector, std::string(topic));
  }
  last_produced_topic_ = topic.data();
  kafka::PartitionMetadataWait metadata_wait;
  while (true) {
    rd_kafka_headers_t* headers = nullptr;
    if (r.header_count > 0) {
      headers = rd_kafka_headers_new(r.header_count);
      for (size_t i = 0; i < r.header_count; ++i) {
        rd_kafka_header_add(
            headers, r.headers[i].key.data, static_cast<ssize_t>(r.headers[i].key.size),
            r.headers[i].value.data,
            r.headers[i].value.data ? static_cast<ssize_t>(r.headers[i].value.size) : 0);
      }
    }
    // No copy flag: librdkafka reads the key and value in place until the delivery report.
    rd_kafka_resp_err_t err = rd_kafka_producev(
        producer_.get(), RD_KAFKA_V_TOPIC(topic.data()),
        RD_KAFKA_V_PARTITION(r.partition == CONNECTD_ANY_PARTITION ? RD_KAFKA_PARTITION_UA
                                                                   : r.partition),
        RD_KAFKA_V_KEY(r.key.data, r.key.size),
        RD_KAFKA_V_VALUE(const_cast<void*>(r.value.data), r.value.size),
        RD_KAFKA_V_TIMESTAMP(r.timestamp_ms < 0 ? 0 : r.timestamp_ms), RD_KAFKA_V_HEADERS(headers),
        RD_KAFKA_V_OPAQUE(record.get()), RD_KAFKA_V_END);
    if (err == RD_KAFKA_RESP_ERR_NO_ERROR) {
      RecordDispatched(r);
      ++in_flight_;
      record.release();  // owned by librdkafka until OnDelivery
      return absl::OkStatus();
    }
    if (headers) rd_kafka_headers_destroy(headers);
    if (kafka::IsMissingFromMetadata(err)) {
      // A remote topic just created, or whose partitions just grew, may not be in the
      // producer's metadata yet. Java's producer waits for it (waitOnMetadata, up to
      // max.block.ms, which Connect sets to Long.MAX_VALUE for source tasks); so does this.
      if (absl::Status waited = metadata_wait.Wait(producer_.get(), topic, r.partition, err,
                                                   [this] { return stopping(); });
          !waited.ok()) {
        return waited;
      }
      if (!send_failure_.ok()) return send_failure_;
      continue;
    }
    if (err == RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE) {
      return RecordTooLarge(producer_.get(), r, topic, /*by_broker=*/false);
    }
    if (err != RD_KAFKA_RESP_ERR__QUEUE_FULL) {
      return kafka::ToStatus(err,
                             absl::StrCat("failed to send a record to topic ", std::string(topic)));
    }
    rd_kafka_poll(producer_.get(), 100);  // queue full: serve delivery reports, then retry
    if (!send_failure_.ok()) return send_failure_;
    // The target may be unreachable for good: a task asked to stop sends no more (the rest of
    // the batch is never acknowledged, so its offsets are not committed).
    if (stopping()) return absl::CancelledError("the task is stopping");
  }
}

void AbstractWorkerSourceTask::Cancel() {
  std::lock_guard lock(cancel_mu_);
  cancelled_ = true;
  if (cancellable_producer_ == nullptr) return;
  CONNECTD_LOG(kWarn, kLogger) << "Dropping the records task " << id_.connector << "-" << id_.task
                               << " has not delivered yet";
  rd_kafka_purge(cancellable_producer_, RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT);
}

int AbstractWorkerSourceTask::StatsCallback(rd_kafka_t*, char* json, size_t json_len,
                                            void* opaque) {
  auto* task = static_cast<AbstractWorkerSourceTask*>(opaque);
  if (task->client_metrics_) task->client_metrics_->Update(std::string_view(json, json_len));
  return 0;  // librdkafka frees the JSON
}

void AbstractWorkerSourceTask::ThrottleCallback(rd_kafka_t*, const char*, int32_t,
                                                int throttle_time_ms, void* opaque) {
  auto* self = static_cast<AbstractWorkerSourceTask*>(opaque);
  if (self->producer_throttle_ != nullptr) {
    self->producer_throttle_->Record(static_cast<double>(throttle_time_ms), metrics::NowMs());
  }
}

void AbstractWorkerSourceTask::DeliveryCallback(rd_kafka_t*, const rd_kafka_message_t* message,
                                                void* opaque) {
  static_cast<AbstractWorkerSourceTask*>(opaque)->OnDelivery(message);
}

void AbstractWorkerSourceTask::OnDelivery(const rd_kafka_message_t* message) {
  if (message->_private == nullptr) {
    // An offsets record of a transaction: its failure fails commit_transaction.
    if (message->err) {
      CONNECTD_LOG(kWarn, kLogger)
          << "Failed to write an offsets record: " << rd_kafka_err2str(message->err);
    }
    return;
  }
  std::unique_ptr<InFlight> record(static_cast<InFlight*>(message->_private));
  --in_flight_;
  if (message->err) {
    if (message->err == RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE && send_failure_.ok()) {
      send_failure_ = RecordTooLarge(producer_.get(), record->produced(),
                                     rd_kafka_topic_name(message->rkt), /*by_broker=*/true);
    } else if (message->err != RD_KAFKA_RESP_ERR__PURGE_QUEUE &&
               message->err != RD_KAFKA_RESP_ERR__PURGE_INFLIGHT && send_failure_.ok()) {
      send_failure_ = kafka::ToStatus(
          message->err,
          absl::StrCat("Unrecoverable exception from producer send callback for topic ",
                       rd_kafka_topic_name(message->rkt)));
    }
    return;  // not acknowledged: its offset is never committed
  }
  ++records_acked_;
  RecordSent(std::move(record), *message);
}

void AbstractWorkerSourceTask::CommitRecord(const connectd_source_record& record,
                                            const connectd_record_metadata* metadata) {
  if (!instance_->has_commit_record()) return;
  absl::Status committed = instance_->CommitRecord(record, metadata);
  if (!committed.ok()) {
    CONNECTD_LOG(kWarn, kLogger) << "Exception thrown while calling task.commitRecord(): "
                                 << committed.message();
  }
}

void AbstractWorkerSourceTask::CommitTask() {
  absl::Status committed = instance_->Commit();
  if (!committed.ok()) {
    CONNECTD_LOG(kError, kLogger) << "Exception thrown while calling task.commit(): "
                                  << committed.message();
  }
}

void AbstractWorkerSourceTask::ForgetProducer() {
  std::lock_guard lock(cancel_mu_);
  cancellable_producer_ = nullptr;
}

void AbstractWorkerSourceTask::Close() {
  if (producer_) {
    FinalOffsetCommit();
    // Whatever was not committed is dropped: its offsets are never stored.
    rd_kafka_purge(producer_.get(), RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT);
    rd_kafka_poll(producer_.get(), 0);
    ForgetProducer();
    producer_.reset();
  }
  copier_.reset();  // stopped by FinalOffsetCommit; nothing may reach the plugin after this
  std::lock_guard lock(instance_mu_);
  instance_.reset();  // destroyed here unless a hanging stop() still holds it
}

void AbstractWorkerSourceTask::SignalPluginStop() {
  std::shared_ptr<plugin::SourceTaskInstance> instance;
  {
    std::lock_guard lock(instance_mu_);
    instance = instance_;
  }
  if (!instance) return;
  // The plugin's stop() may block; it runs on its own thread, which keeps the instance alive,
  // so a hanging plugin cannot hold the caller (the herder) hostage.
  std::thread([instance] { instance->Stop(); }).detach();
}

}  // namespace connectd::worker
