// File: connectd/sdk/testing/fake_host.h
//
// FakeHost: an in-memory worker for a connector's unit tests. It drives the connector through
// the same C vtables and SDK trampolines the real worker uses, so the tests see what the worker
// would see, without Kafka and without a worker process.
//
//   connectd::sdk::testing::FakeHost host;
//   auto connector = host.connector<FileStreamSourceConnector>();
//   ASSERT_TRUE(connector.start({{"file", path}, {"topic", "lines"}}).ok());
//   auto configs = connector.taskConfigs(1);
//   auto task = host.sourceTask<FileStreamSourceConnector>();
//   ASSERT_TRUE(task.start(configs.value[0]).ok());
//   auto records = task.poll(100);   // records.value: copies of what the task added
//
// Only one FakeHost may exist at a time in a process (it installs itself as the SDK's host).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "connectd/plugin/abi.h"
#include "connectd/sdk/plugin.h"

namespace connectd::sdk::testing {

// The outcome of a hook: a status code, the message the plugin set, and a value.
template <typename T = bool>
struct Result {
  connectd_status code = CONNECTD_STATUS_OK;
  std::string message;
  T value{};
  bool ok() const { return code == CONNECTD_STATUS_OK; }
  bool retriable() const { return code == CONNECTD_STATUS_UNAVAILABLE; }
};

// A copy of a record a source task added.
struct CapturedRecord {
  SourceRecord record;
  bool zero_copy = false;  // handed over with a release callback (released at once by the fake)
};

// A sensor a plugin added, with every value it recorded.
struct FakeSensor {
  std::string domain;
  std::string group;
  MetricTags tags;
  std::vector<std::pair<std::string, int32_t>> stats;  // name, CONNECTD_STAT_*
  std::vector<double> values;
  bool removed = false;
};

struct LogLine {
  int32_t level;
  std::string logger;
  std::string message;
};

class FakeHost {
 public:
  FakeHost() : api_(MakeApi()) {
    instance() = this;
    internal::g_host = &api_;
  }
  ~FakeHost() {
    instance() = nullptr;
    internal::g_host = nullptr;
  }
  FakeHost(const FakeHost&) = delete;
  FakeHost& operator=(const FakeHost&) = delete;

  const connectd_host_api& api() const { return api_; }

  // The offset store source tasks read: source partition JSON -> offset JSON (exact text).
  std::map<std::string, std::string>& offsets() { return offsets_; }
  // A copy: connectors may log from other threads meanwhile.
  std::vector<LogLine> logs() const {
    std::lock_guard<std::mutex> lock(logs_mu_);
    return logs_;
  }
  int taskReconfigurationRequests() const { return reconfiguration_requests_; }
  const std::vector<std::string>& raisedErrors() const { return raised_errors_; }
  int commitRequests() const { return commit_requests_; }
  const std::map<TopicPartition, int64_t>& seeks() const { return seeks_; }
  // Every sensor added so far (removed ones flagged), in order. A copy: tasks record from
  // their own threads.
  std::vector<FakeSensor> sensors() const {
    std::lock_guard<std::mutex> lock(sensors_mu_);
    std::vector<FakeSensor> out;
    for (const auto& sensor : sensors_) out.push_back(*sensor);
    return out;
  }

  // ---- Connector -------------------------------------------------------------------------
  class FakeConnector {
   public:
    FakeConnector(const connectd_connector_descriptor* d, FakeHost* host) : d_(d) {
      Error error;
      ptr_ = d_->connector->create(reinterpret_cast<connectd_connector_context_host_ptr*>(host),
                                   error.handle());
      create_error_ = error.message;
    }
    ~FakeConnector() {
      if (ptr_ != nullptr) d_->connector->destroy(ptr_);
    }
    FakeConnector(FakeConnector&& o) noexcept : d_(o.d_), ptr_(std::exchange(o.ptr_, nullptr)) {}

    bool created() const { return ptr_ != nullptr; }
    const std::string& createError() const { return create_error_; }
    const connectd_connector_descriptor& descriptor() const { return *d_; }

    Result<> start(const Props& props) {
      KvArray kv(props);
      Error error;
      return Finish(d_->connector->start(ptr_, kv.props(), error.handle()), error);
    }
    Result<std::vector<Props>> taskConfigs(int max_tasks) {
      Error error;
      std::vector<Props> configs;
      connectd_status code = d_->connector->task_configs(
          ptr_, max_tasks, reinterpret_cast<connectd_task_configs_host_ptr*>(&configs),
          error.handle());
      Result<std::vector<Props>> r{code, error.message, std::move(configs)};
      return r;
    }
    // The per-key errors Connector.validate added.
    Result<std::map<std::string, std::vector<std::string>>> validate(const Props& props) {
      KvArray kv(props);
      Error error;
      std::map<std::string, std::vector<std::string>> errors;
      connectd_status code = d_->connector->validate(
          ptr_, kv.props(), reinterpret_cast<connectd_validation_host_ptr*>(&errors),
          error.handle());
      return {code, error.message, std::move(errors)};
    }
    Result<> stop() {
      Error error;
      return Finish(d_->connector->stop(ptr_, error.handle()), error);
    }

   private:
    const connectd_connector_descriptor* d_;
    connectd_connector_plugin_ptr* ptr_ = nullptr;
    std::string create_error_;
  };

  // ---- Source task -----------------------------------------------------------------------
  class FakeSourceTask {
   public:
    FakeSourceTask(const connectd_source_task_vtable* vt, FakeHost* host) : vt_(vt) {
      Error error;
      ptr_ = vt_->create(reinterpret_cast<connectd_source_task_context_host_ptr*>(host),
                         error.handle());
      create_error_ = error.message;
    }
    ~FakeSourceTask() {
      if (ptr_ != nullptr) vt_->destroy(ptr_);
    }
    FakeSourceTask(FakeSourceTask&& o) noexcept
        : vt_(o.vt_), ptr_(std::exchange(o.ptr_, nullptr)) {}

    bool created() const { return ptr_ != nullptr; }
    Result<> start(const Props& props) {
      KvArray kv(props);
      Error error;
      return Finish(vt_->start(ptr_, kv.props(), error.handle()), error);
    }
    Result<std::vector<CapturedRecord>> poll(int32_t timeout_ms) {
      Error error;
      std::vector<CapturedRecord> records;
      connectd_status code =
          vt_->poll(ptr_, timeout_ms, reinterpret_cast<connectd_source_batch_host_ptr*>(&records),
                    error.handle());
      return {code, error.message, std::move(records)};
    }
    Result<> commit() {
      Error error;
      return Finish(vt_->commit(ptr_, error.handle()), error);
    }
    // Tells the task `record` was acknowledged at (topic, partition, offset).
    Result<> commitRecord(const SourceRecord& record, int32_t partition, int64_t offset) {
      std::vector<connectd_header> headers;
      for (const auto& [k, v] : record.headers) headers.push_back({ToStr(k), ToBytes(v)});
      connectd_source_record r = SourceBatch::MakeAbi(
          record.source_partition, record.source_offset, record.topic, record.partition,
          ToBytes(record.key), ToBytes(record.value), record.timestamp_ms);
      r.headers = headers.data();
      r.header_count = headers.size();
      connectd_record_metadata m{sizeof(connectd_record_metadata), ToStr(record.topic), partition,
                                 offset, record.timestamp_ms};
      Error error;
      return Finish(vt_->commit_record(ptr_, &r, &m, error.handle()), error);
    }
    void stop() { vt_->stop(ptr_); }

   private:
    const connectd_source_task_vtable* vt_;
    connectd_task_plugin_ptr* ptr_ = nullptr;
    std::string create_error_;
  };

  // ---- Sink task -------------------------------------------------------------------------
  // An owning sink record for FakeSinkTask::put.
  struct SinkInput {
    std::string topic;
    int32_t partition = 0;
    int64_t offset = 0;
    std::optional<std::string> key;
    std::optional<std::string> value;
    int64_t timestamp_ms = CONNECTD_NO_TIMESTAMP;
  };

  class FakeSinkTask {
   public:
    FakeSinkTask(const connectd_sink_task_vtable* vt, FakeHost* host) : vt_(vt) {
      Error error;
      ptr_ =
          vt_->create(reinterpret_cast<connectd_sink_task_context_host_ptr*>(host), error.handle());
    }
    ~FakeSinkTask() {
      if (ptr_ != nullptr) vt_->destroy(ptr_);
    }
    FakeSinkTask(FakeSinkTask&& o) noexcept : vt_(o.vt_), ptr_(std::exchange(o.ptr_, nullptr)) {}

    bool created() const { return ptr_ != nullptr; }
    Result<> start(const Props& props) {
      KvArray kv(props);
      Error error;
      return Finish(vt_->start(ptr_, kv.props(), error.handle()), error);
    }
    Result<> open(const std::vector<TopicPartition>& partitions) {
      std::vector<connectd_topic_partition> tps;
      for (const auto& tp : partitions) tps.push_back({ToStr(tp.topic), tp.partition});
      Error error;
      return Finish(vt_->open(ptr_, tps.data(), tps.size(), error.handle()), error);
    }
    Result<> put(const std::vector<SinkInput>& inputs) {
      std::vector<connectd_sink_record> records;
      for (const SinkInput& in : inputs) {
        connectd_sink_record r{};
        r.struct_size = sizeof(r);
        r.topic = ToStr(in.topic);
        r.partition = in.partition;
        r.offset = in.offset;
        r.key = ToBytes(in.key);
        r.value = ToBytes(in.value);
        r.timestamp_ms = in.timestamp_ms;
        r.timestamp_type = CONNECTD_TIMESTAMP_CREATE_TIME;
        records.push_back(r);
      }
      Error error;
      return Finish(vt_->put(ptr_, records.data(), records.size(), error.handle()), error);
    }
    // Calls pre_commit (or flush, when the task has no pre_commit) and returns what to commit.
    Result<OffsetMap> preCommit(const OffsetMap& current) {
      std::vector<connectd_topic_partition_offset> offsets;
      for (const auto& [tp, offset] : current)
        offsets.push_back({ToStr(tp.topic), tp.partition, offset});
      Error error;
      OffsetMap committable;
      connectd_status code;
      if (vt_->pre_commit != nullptr) {
        code = vt_->pre_commit(ptr_, offsets.data(), offsets.size(),
                               reinterpret_cast<connectd_offsets_host_ptr*>(&committable),
                               error.handle());
      } else {
        code = vt_->flush(ptr_, offsets.data(), offsets.size(), error.handle());
        committable = current;
      }
      return {code, error.message, std::move(committable)};
    }
    void stop() { vt_->stop(ptr_); }

   private:
    const connectd_sink_task_vtable* vt_;
    connectd_task_plugin_ptr* ptr_ = nullptr;
  };

  template <typename C>
  FakeConnector connector() {
    return FakeConnector(internal::Describe<C>(), this);
  }
  template <typename C>
  FakeSourceTask sourceTask() {
    return FakeSourceTask(internal::Describe<C>()->source_task, this);
  }
  template <typename C>
  FakeSinkTask sinkTask() {
    return FakeSinkTask(internal::Describe<C>()->sink_task, this);
  }

 private:
  struct Error {
    std::string message;
    connectd_error_host_ptr* handle() { return reinterpret_cast<connectd_error_host_ptr*>(this); }
  };

  // Keeps a Props map alive as a connectd_props array for one call.
  class KvArray {
   public:
    explicit KvArray(const Props& props) {
      for (const auto& [k, v] : props) items_.push_back({ToStr(k), ToStr(v)});
    }
    connectd_props props() const { return {items_.data(), items_.size()}; }

   private:
    std::vector<connectd_kv> items_;
  };

  static Result<> Finish(connectd_status code, const Error& error) {
    return {code, error.message, code == CONNECTD_STATUS_OK};
  }

  static FakeHost*& instance() {
    static FakeHost* host = nullptr;
    return host;
  }

  static connectd_host_api MakeApi() {
    connectd_host_api api{};
    api.struct_size = sizeof(connectd_host_api);
    api.abi_major = CONNECTD_PLUGIN_ABI_VERSION_MAJOR;
    api.abi_minor = CONNECTD_PLUGIN_ABI_VERSION_MINOR;
    api.set_error = [](connectd_error_host_ptr* e, connectd_str m) {
      reinterpret_cast<Error*>(e)->message.assign(FromStr(m));
    };
    api.log = [](int32_t level, connectd_str logger, connectd_str message) {
      // Connectors log from their own threads too.
      std::lock_guard<std::mutex> lock(instance()->logs_mu_);
      instance()->logs_.push_back(
          {level, std::string(FromStr(logger)), std::string(FromStr(message))});
    };
    api.log_enabled = [](int32_t, connectd_str) -> int32_t { return 1; };
    api.connector_request_task_reconfiguration = [](connectd_connector_context_host_ptr*) {
      ++instance()->reconfiguration_requests_;
    };
    api.connector_raise_error = [](connectd_connector_context_host_ptr*, connectd_str m) {
      instance()->raised_errors_.emplace_back(FromStr(m));
    };
    api.task_configs_add = [](connectd_task_configs_host_ptr* out, connectd_props props) {
      reinterpret_cast<std::vector<Props>*>(out)->push_back(FromAbi(props));
    };
    api.validation_add_error = [](connectd_validation_host_ptr* v, connectd_str name,
                                  connectd_str message) {
      (*reinterpret_cast<std::map<std::string, std::vector<std::string>>*>(
          v))[std::string(FromStr(name))]
          .emplace_back(FromStr(message));
    };
    api.source_batch_append = [](connectd_source_batch_host_ptr* batch,
                                 const connectd_source_record* r) -> connectd_status {
      CapturedRecord captured;
      SourceRecord& out = captured.record;
      out.source_partition.assign(FromStr(r->source_partition));
      out.source_offset.assign(FromStr(r->source_offset));
      out.topic.assign(FromStr(r->topic));
      out.partition = r->partition;
      if (auto k = FromBytes(r->key)) out.key = std::string(*k);
      if (auto v = FromBytes(r->value)) out.value = std::string(*v);
      out.timestamp_ms = r->timestamp_ms;
      for (size_t i = 0; i < r->header_count; ++i) {
        auto v = FromBytes(r->headers[i].value);
        out.headers.emplace_back(std::string(FromStr(r->headers[i].key)),
                                 v ? std::optional<std::string>(std::string(*v)) : std::nullopt);
      }
#if CONNECTD_PLUGIN_ABI_TARGET_MINOR >= 5
      // The key and value as Connect data, when the task gave them (ABI 1.5).
      if (r->struct_size >= offsetof(connectd_source_record, value_data) + sizeof(void*)) {
        AbiReader reader;
        if (r->key_data != nullptr) {
          out.key_data = SchemaAndValue{reader.schema(r->key_schema), reader.value(*r->key_data)};
        }
        if (r->value_data != nullptr) {
          out.value_data =
              SchemaAndValue{reader.schema(r->value_schema), reader.value(*r->value_data)};
        }
      }
#endif
      captured.zero_copy = r->release != nullptr;
      if (r->release != nullptr) r->release(r->release_opaque);
      reinterpret_cast<std::vector<CapturedRecord>*>(batch)->push_back(std::move(captured));
      return CONNECTD_STATUS_OK;
    };
    api.source_task_offset = [](connectd_source_task_context_host_ptr*, connectd_str partition,
                                void (*receive)(void*, connectd_str), void* opaque) -> int32_t {
      auto& offsets = instance()->offsets_;
      auto it = offsets.find(std::string(FromStr(partition)));
      if (it == offsets.end()) return 0;
      receive(opaque, ToStr(it->second));
      return 1;
    };
    api.sink_task_request_commit = [](connectd_sink_task_context_host_ptr*) {
      ++instance()->commit_requests_;
    };
    api.sink_task_seek = [](connectd_sink_task_context_host_ptr*, connectd_topic_partition tp,
                            int64_t offset) {
      instance()->seeks_[{std::string(FromStr(tp.topic)), tp.partition}] = offset;
    };
    api.sink_task_pause = [](connectd_sink_task_context_host_ptr*, connectd_topic_partition) {};
    api.sink_task_resume = [](connectd_sink_task_context_host_ptr*, connectd_topic_partition) {};
    api.offsets_add = [](connectd_offsets_host_ptr* out, connectd_topic_partition_offset o) {
      (*reinterpret_cast<OffsetMap*>(out))[{std::string(FromStr(o.topic)), o.partition}] = o.offset;
    };
    // Every context shares one scope: the fake host itself.
    api.source_task_metrics = [](connectd_source_task_context_host_ptr*) {
      return reinterpret_cast<connectd_metrics_host_ptr*>(instance());
    };
    api.sink_task_metrics = [](connectd_sink_task_context_host_ptr*) {
      return reinterpret_cast<connectd_metrics_host_ptr*>(instance());
    };
    api.connector_metrics = [](connectd_connector_context_host_ptr*) {
      return reinterpret_cast<connectd_metrics_host_ptr*>(instance());
    };
    api.sensor_add = [](connectd_metrics_host_ptr*, connectd_str domain, connectd_str group,
                        const connectd_metric_tag* tags, size_t tag_count,
                        const connectd_metric_stat* stats,
                        size_t stat_count) -> connectd_sensor_host_ptr* {
      auto sensor = std::make_unique<FakeSensor>();
      sensor->domain.assign(FromStr(domain));
      sensor->group.assign(FromStr(group));
      for (size_t i = 0; i < tag_count; ++i) {
        sensor->tags.emplace_back(std::string(FromStr(tags[i].key)),
                                  std::string(FromStr(tags[i].value)));
      }
      for (size_t i = 0; i < stat_count; ++i) {
        sensor->stats.emplace_back(std::string(FromStr(stats[i].name)), stats[i].kind);
      }
      std::lock_guard<std::mutex> lock(instance()->sensors_mu_);
      instance()->sensors_.push_back(std::move(sensor));
      return reinterpret_cast<connectd_sensor_host_ptr*>(instance()->sensors_.back().get());
    };
    api.sensor_record = [](connectd_sensor_host_ptr* sensor, double value, int64_t) {
      std::lock_guard<std::mutex> lock(instance()->sensors_mu_);
      reinterpret_cast<FakeSensor*>(sensor)->values.push_back(value);
    };
    api.sensor_remove = [](connectd_sensor_host_ptr* sensor) {
      std::lock_guard<std::mutex> lock(instance()->sensors_mu_);
      reinterpret_cast<FakeSensor*>(sensor)->removed = true;
    };
    return api;
  }

  connectd_host_api api_;
  std::map<std::string, std::string> offsets_;
  mutable std::mutex logs_mu_;
  std::vector<LogLine> logs_;  // guarded by logs_mu_
  int reconfiguration_requests_ = 0;
  std::vector<std::string> raised_errors_;
  int commit_requests_ = 0;
  std::map<TopicPartition, int64_t> seeks_;
  mutable std::mutex sensors_mu_;
  std::vector<std::unique_ptr<FakeSensor>> sensors_;  // guarded by sensors_mu_
};

}  // namespace connectd::sdk::testing
