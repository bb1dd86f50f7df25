#include "runtime/plugin/host_api.h"

#include <cstddef>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "runtime/common/logging.h"
#include "runtime/plugin/abi_strings.h"

namespace connectd::plugin {
namespace {

log::Level ToLevel(int32_t level) {
  switch (level) {
    case CONNECTD_LOG_TRACE:
      return log::Level::kTrace;
    case CONNECTD_LOG_DEBUG:
      return log::Level::kDebug;
    case CONNECTD_LOG_WARN:
      return log::Level::kWarn;
    case CONNECTD_LOG_ERROR:
      return log::Level::kError;
    default:
      return log::Level::kInfo;
  }
}

connectd_metrics_host_ptr* ToMetricsHandle(metrics::MetricsScope* scope) {
  return reinterpret_cast<connectd_metrics_host_ptr*>(scope);
}

std::optional<metrics::StatKind> ToStatKind(int32_t kind) {
  switch (kind) {
    case CONNECTD_STAT_VALUE:
      return metrics::StatKind::kValue;
    case CONNECTD_STAT_CUMULATIVE_COUNT:
      return metrics::StatKind::kCumulativeCount;
    case CONNECTD_STAT_CUMULATIVE_SUM:
      return metrics::StatKind::kCumulativeSum;
    case CONNECTD_STAT_RATE:
      return metrics::StatKind::kRate;
    case CONNECTD_STAT_MIN:
      return metrics::StatKind::kMin;
    case CONNECTD_STAT_MAX:
      return metrics::StatKind::kMax;
    case CONNECTD_STAT_AVG:
      return metrics::StatKind::kAvg;
    default:
      return std::nullopt;
  }
}

// A view whose data is NULL but whose size is not: garbage (abi.h: NULL data means an absent
// or empty value, with size 0).
bool Garbage(const void* data, size_t size) { return data == nullptr && size > 0; }

// What source_batch_append checks before the worker reads a record: every pointer it would
// follow is either valid-looking or paired with a zero size. A plugin handing anything else gets
// CONNECTD_STATUS_INVALID_ARGUMENT instead of crashing the worker.
bool WellFormed(const connectd_source_record* r) {
  if (r == nullptr || r->struct_size < offsetof(connectd_source_record, release)) {
    return r != nullptr;  // too short: the worker refuses it (and releases) itself
  }
  if (Garbage(r->source_partition.data, r->source_partition.size) ||
      Garbage(r->source_offset.data, r->source_offset.size) ||
      Garbage(r->topic.data, r->topic.size) || Garbage(r->key.data, r->key.size) ||
      Garbage(r->value.data, r->value.size) || Garbage(r->headers, r->header_count)) {
    return false;
  }
  for (size_t i = 0; i < r->header_count; ++i) {
    const connectd_header& h = r->headers[i];
    if (Garbage(h.key.data, h.key.size) || Garbage(h.value.data, h.value.size)) return false;
  }
  return true;
}

connectd_host_api MakeHostApi() {
  connectd_host_api api{};
  api.struct_size = sizeof(connectd_host_api);
  api.abi_major = CONNECTD_PLUGIN_ABI_VERSION_MAJOR;
  api.abi_minor = CONNECTD_PLUGIN_ABI_VERSION_MINOR;
  api.set_error = [](connectd_error_host_ptr* error, connectd_str message) {
    reinterpret_cast<HookError*>(error)->message.assign(View(message));
  };
  api.log = [](int32_t level, connectd_str logger, connectd_str message) {
    std::string name(View(logger));
    if (log::IsEnabled(ToLevel(level), name)) log::Write(ToLevel(level), name, View(message));
  };
  api.log_enabled = [](int32_t level, connectd_str logger) -> int32_t {
    return log::IsEnabled(ToLevel(level), std::string(View(logger))) ? 1 : 0;
  };
  api.connector_request_task_reconfiguration = [](connectd_connector_context_host_ptr* c) {
    reinterpret_cast<ConnectorContextHost*>(c)->RequestTaskReconfiguration();
  };
  api.connector_raise_error = [](connectd_connector_context_host_ptr* c, connectd_str message) {
    reinterpret_cast<ConnectorContextHost*>(c)->RaiseError(std::string(View(message)));
  };
  api.task_configs_add = [](connectd_task_configs_host_ptr* out, connectd_props props) {
    auto* sink = reinterpret_cast<TaskConfigSink*>(out);
    if (props.items == nullptr && props.count > 0) {
      if (sink->error.empty()) {
        sink->error = "the plugin added a task config whose props have no items but a count of " +
                      std::to_string(props.count);
      }
      return;
    }
    std::map<std::string, std::string> config;
    for (size_t i = 0; i < props.count; ++i) {
      config[std::string(View(props.items[i].key))] = std::string(View(props.items[i].value));
    }
    sink->configs.push_back(std::move(config));
  };
  api.validation_add_error = [](connectd_validation_host_ptr* v, connectd_str name,
                                connectd_str message) {
    (*reinterpret_cast<ValidationErrors*>(v))[std::string(View(name))].emplace_back(View(message));
  };
  api.source_batch_append = [](connectd_source_batch_host_ptr* batch,
                               const connectd_source_record* record) -> connectd_status {
    if (!WellFormed(record)) return CONNECTD_STATUS_INVALID_ARGUMENT;
    // A plugin built against an older minor hands a shorter struct: the worker reads a whole
    // one, with the fields the plugin does not know zeroed.
    if (record->struct_size < sizeof(connectd_source_record)) {
      connectd_source_record whole{};
      std::memcpy(&whole, record, record->struct_size);
      return reinterpret_cast<SourceBatchHost*>(batch)->Append(whole);
    }
    return reinterpret_cast<SourceBatchHost*>(batch)->Append(*record);
  };
  api.source_task_offset = [](connectd_source_task_context_host_ptr* c, connectd_str partition,
                              void (*receive)(void*, connectd_str), void* opaque) -> int32_t {
    std::optional<std::string> offset =
        reinterpret_cast<SourceTaskContextHost*>(c)->Offset(View(partition));
    if (!offset) return 0;
    receive(opaque, connectd_str{offset->data(), offset->size()});
    return 1;
  };
  api.sink_task_request_commit = [](connectd_sink_task_context_host_ptr* c) {
    reinterpret_cast<SinkTaskContextHost*>(c)->RequestCommit();
  };
  api.sink_task_seek = [](connectd_sink_task_context_host_ptr* c, connectd_topic_partition tp,
                          int64_t offset) {
    reinterpret_cast<SinkTaskContextHost*>(c)->Seek(View(tp.topic), tp.partition, offset);
  };
  api.sink_task_pause = [](connectd_sink_task_context_host_ptr* c, connectd_topic_partition tp) {
    reinterpret_cast<SinkTaskContextHost*>(c)->Pause(View(tp.topic), tp.partition);
  };
  api.sink_task_resume = [](connectd_sink_task_context_host_ptr* c, connectd_topic_partition tp) {
    reinterpret_cast<SinkTaskContextHost*>(c)->Resume(View(tp.topic), tp.partition);
  };
  api.offsets_add = [](connectd_offsets_host_ptr* out, connectd_topic_partition_offset o) {
    reinterpret_cast<CommittableOffsets*>(out)->push_back(
        {std::string(View(o.topic)), o.partition, o.offset});
  };
  api.source_task_metrics = [](connectd_source_task_context_host_ptr* c) {
    return ToMetricsHandle(reinterpret_cast<SourceTaskContextHost*>(c)->Metrics());
  };
  api.sink_task_metrics = [](connectd_sink_task_context_host_ptr* c) {
    return ToMetricsHandle(reinterpret_cast<SinkTaskContextHost*>(c)->Metrics());
  };
  api.connector_metrics = [](connectd_connector_context_host_ptr* c) {
    return ToMetricsHandle(reinterpret_cast<ConnectorContextHost*>(c)->Metrics());
  };
  api.sensor_add = [](connectd_metrics_host_ptr* m, connectd_str domain, connectd_str group,
                      const connectd_metric_tag* tags, size_t tag_count,
                      const connectd_metric_stat* stats,
                      size_t stat_count) -> connectd_sensor_host_ptr* {
    if (m == nullptr || (tags == nullptr && tag_count > 0) || stats == nullptr) return nullptr;
    metrics::Tags tag_list;
    for (size_t i = 0; i < tag_count; ++i) {
      tag_list.emplace_back(View(tags[i].key), View(tags[i].value));
    }
    std::vector<metrics::StatSpec> specs;
    for (size_t i = 0; i < stat_count; ++i) {
      std::optional<metrics::StatKind> kind = ToStatKind(stats[i].kind & ~CONNECTD_STAT_DEBUG);
      if (!kind) return nullptr;
      specs.push_back(
          {std::string(View(stats[i].name)), std::string(View(stats[i].description)), *kind,
           (stats[i].kind & CONNECTD_STAT_DEBUG) != 0 ? metrics::RecordingLevel::kDebug
                                                      : metrics::RecordingLevel::kInfo});
    }
    metrics::Sensor* sensor = reinterpret_cast<metrics::MetricsScope*>(m)->AddSensor(
        std::string(View(domain)), std::string(View(group)), tag_list, std::move(specs),
        metrics::NowMs());
    return reinterpret_cast<connectd_sensor_host_ptr*>(sensor);
  };
  api.sensor_record = [](connectd_sensor_host_ptr* sensor, double value, int64_t time_ms) {
    if (sensor == nullptr) return;
    reinterpret_cast<metrics::Sensor*>(sensor)->Record(value,
                                                       time_ms > 0 ? time_ms : metrics::NowMs());
  };
  api.sensor_remove = [](connectd_sensor_host_ptr* sensor) {
    if (sensor == nullptr) return;
    auto* s = reinterpret_cast<metrics::Sensor*>(sensor);
    s->scope()->RemoveSensor(s);
  };
  api.source_task_copy_batches =
      [](connectd_source_task_context_host_ptr* c, const connectd_batch_copy_request* request,
         void (*explain)(void*, connectd_str), void* opaque) -> connectd_status {
    absl::Status status =
        request == nullptr || request->struct_size < sizeof(connectd_batch_copy_request)
            ? absl::InvalidArgumentError("a batch copy request of an unknown layout")
            : reinterpret_cast<SourceTaskContextHost*>(c)->CopyBatches(*request);
    if (!status.ok() && explain != nullptr) {
      explain(opaque, connectd_str{status.message().data(), status.message().size()});
    }
    return static_cast<connectd_status>(status.code());
  };
  api.sensor_record_many = [](connectd_sensor_host_ptr* sensor, double value, int64_t count,
                              int64_t time_ms) {
    if (sensor == nullptr || count <= 0) return;
    reinterpret_cast<metrics::Sensor*>(sensor)->RecordMany(
        value, count, time_ms > 0 ? time_ms : metrics::NowMs());
  };
  api.record_out_set = [](connectd_record_out_host_ptr* out,
                          const connectd_connect_record* record) -> connectd_status {
    if (out == nullptr || record == nullptr) return CONNECTD_STATUS_INVALID_ARGUMENT;
    return reinterpret_cast<RecordOutHost*>(out)->Set(*record);
  };
  return api;
}

}  // namespace

const connectd_host_api* HostApi() {
  static const connectd_host_api api = MakeHostApi();
  return &api;
}

}  // namespace connectd::plugin
