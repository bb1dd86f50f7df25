#include "runtime/plugin/plugin_instances.h"

#include <cstddef>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "runtime/common/strings.h"

namespace connectd::plugin {

PropsView::PropsView(const Props& props) {
  items_.reserve(props.size());
  for (const auto& [k, v] : props) {
    items_.push_back({{k.data(), k.size()}, {v.data(), v.size()}});
  }
}

absl::Status HookStatus(connectd_status code, const HookError& error, std::string_view hook) {
  if (code == CONNECTD_STATUS_OK) return absl::OkStatus();
  absl::StatusCode status_code = (code > 0 && code <= CONNECTD_STATUS_UNAUTHENTICATED)
                                     ? static_cast<absl::StatusCode>(code)
                                     : absl::StatusCode::kUnknown;
  std::string message = error.message.empty()
                            ? absl::StrCat(AsAbsl(hook), " failed with code ", code)
                            : error.message;
  return absl::Status(status_code, message);
}

// ---- ConnectorInstance ---------------------------------------------------------------------

absl::StatusOr<std::unique_ptr<ConnectorInstance>> ConnectorInstance::Create(
    const ConnectorPlugin& plugin, ConnectorContextHost* context) {
  HookError error;
  connectd_connector_plugin_ptr* ptr =
      plugin.descriptor->connector->create(ToHandle(context), ToHandle(&error));
  if (ptr == nullptr) {
    return absl::InternalError(
        absl::StrCat("Failed to create connector ", plugin.class_name, ": ", error.message));
  }
  return std::unique_ptr<ConnectorInstance>(new ConnectorInstance(plugin, ptr));
}

ConnectorInstance::~ConnectorInstance() { plugin_.descriptor->connector->destroy(ptr_); }

absl::Status ConnectorInstance::Start(const Props& props) {
  HookError error;
  PropsView view(props);
  return HookStatus(plugin_.descriptor->connector->start(ptr_, view.get(), ToHandle(&error)), error,
                    "Connector.start");
}

absl::StatusOr<TaskConfigList> ConnectorInstance::TaskConfigs(int max_tasks) {
  HookError error;
  TaskConfigSink sink;
  absl::Status status = HookStatus(plugin_.descriptor->connector->task_configs(
                                       ptr_, max_tasks, ToHandle(&sink), ToHandle(&error)),
                                   error, "Connector.taskConfigs");
  if (!status.ok()) return status;
  if (!sink.error.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("Connector.taskConfigs: ", sink.error));
  }
  return std::move(sink.configs);
}

absl::Status ConnectorInstance::Stop() {
  HookError error;
  return HookStatus(plugin_.descriptor->connector->stop(ptr_, ToHandle(&error)), error,
                    "Connector.stop");
}

absl::StatusOr<ValidationErrors> ConnectorInstance::Validate(const Props& props) {
  ValidationErrors errors;
  if (plugin_.descriptor->connector->validate == nullptr) return errors;
  HookError error;
  PropsView view(props);
  absl::Status status = HookStatus(plugin_.descriptor->connector->validate(
                                       ptr_, view.get(), ToHandle(&errors), ToHandle(&error)),
                                   error, "Connector.validate");
  if (!status.ok()) return status;
  return errors;
}

absl::StatusOr<bool> ConnectorInstance::AlterOffsets(
    const Props& config, const std::map<std::string, std::optional<std::string>>& offsets) {
  const connectd_connector_vtable* vtable = plugin_.descriptor->connector;
  if (vtable->struct_size < offsetof(connectd_connector_vtable, alter_offsets) + sizeof(void*) ||
      vtable->alter_offsets == nullptr) {
    return false;
  }
  std::vector<connectd_kv> items;
  items.reserve(offsets.size());
  for (const auto& [partition, offset] : offsets) {
    items.push_back(
        {{partition.data(), partition.size()},
         offset ? connectd_str{offset->data(), offset->size()} : connectd_str{nullptr, 0}});
  }
  PropsView view(config);
  HookError error;
  int32_t handled = 0;
  absl::Status status =
      HookStatus(vtable->alter_offsets(ptr_, view.get(), {items.data(), items.size()}, &handled,
                                       ToHandle(&error)),
                 error, "Connector.alterOffsets");
  if (!status.ok()) return status;
  return handled != 0;
}

absl::StatusOr<int32_t> ConnectorInstance::ExactlyOnceSupport(const Props& config) {
  const connectd_connector_vtable* vtable = plugin_.descriptor->connector;
  if (vtable->struct_size <
          offsetof(connectd_connector_vtable, exactly_once_support) + sizeof(void*) ||
      vtable->exactly_once_support == nullptr) {
    return CONNECTD_EXACTLY_ONCE_SUPPORT_NONE;
  }
  PropsView view(config);
  HookError error;
  int32_t support = CONNECTD_EXACTLY_ONCE_SUPPORT_NONE;
  absl::Status status =
      HookStatus(vtable->exactly_once_support(ptr_, view.get(), &support, ToHandle(&error)), error,
                 "SourceConnector.exactlyOnceSupport");
  if (!status.ok()) return status;
  return support;
}

// ---- SourceTaskInstance --------------------------------------------------------------------

absl::StatusOr<std::unique_ptr<SourceTaskInstance>> SourceTaskInstance::Create(
    const ConnectorPlugin& plugin, SourceTaskContextHost* context) {
  const connectd_source_task_vtable* vtable = plugin.descriptor->source_task;
  if (vtable == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat(plugin.class_name, " is not a source connector"));
  }
  HookError error;
  connectd_task_plugin_ptr* ptr = vtable->create(ToHandle(context), ToHandle(&error));
  if (ptr == nullptr) {
    return absl::InternalError(
        absl::StrCat("Failed to create task of ", plugin.class_name, ": ", error.message));
  }
  return std::unique_ptr<SourceTaskInstance>(
      new SourceTaskInstance(vtable, ptr, plugin.class_name));
}

SourceTaskInstance::~SourceTaskInstance() { vtable_->destroy(ptr_); }

absl::Status SourceTaskInstance::Start(const Props& props) {
  HookError error;
  PropsView view(props);
  return HookStatus(vtable_->start(ptr_, view.get(), ToHandle(&error)), error, "SourceTask.start");
}

absl::Status SourceTaskInstance::Poll(int32_t timeout_ms, SourceBatchHost* batch) {
  HookError error;
  return HookStatus(vtable_->poll(ptr_, timeout_ms, ToHandle(batch), ToHandle(&error)), error,
                    "SourceTask.poll");
}

absl::Status SourceTaskInstance::Commit() {
  if (vtable_->commit == nullptr) return absl::OkStatus();
  HookError error;
  return HookStatus(vtable_->commit(ptr_, ToHandle(&error)), error, "SourceTask.commit");
}

absl::Status SourceTaskInstance::CommitRecord(const connectd_source_record& record,
                                              const connectd_record_metadata* metadata) {
  if (vtable_->commit_record == nullptr) return absl::OkStatus();
  HookError error;
  return HookStatus(vtable_->commit_record(ptr_, &record, metadata, ToHandle(&error)), error,
                    "SourceTask.commitRecord");
}

bool SourceTaskInstance::has_batch_copy_event() const {
  return vtable_->struct_size >= offsetof(connectd_source_task_vtable, batch_copy_event) +
                                     sizeof(vtable_->batch_copy_event) &&
         vtable_->batch_copy_event != nullptr;
}

absl::Status SourceTaskInstance::BatchCopyEvent(const connectd_batch_copy_event& event) {
  if (!has_batch_copy_event()) return absl::OkStatus();
  HookError error;
  return HookStatus(vtable_->batch_copy_event(ptr_, &event, ToHandle(&error)), error,
                    "SourceTask.batchCopyEvent");
}

void SourceTaskInstance::Stop() { vtable_->stop(ptr_); }

// ---- SinkTaskInstance ----------------------------------------------------------------------

absl::StatusOr<std::unique_ptr<SinkTaskInstance>> SinkTaskInstance::Create(
    const ConnectorPlugin& plugin, SinkTaskContextHost* context) {
  const connectd_sink_task_vtable* vtable = plugin.descriptor->sink_task;
  if (vtable == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(plugin.class_name, " is not a sink connector"));
  }
  HookError error;
  connectd_task_plugin_ptr* ptr = vtable->create(ToHandle(context), ToHandle(&error));
  if (ptr == nullptr) {
    return absl::InternalError(
        absl::StrCat("Failed to create task of ", plugin.class_name, ": ", error.message));
  }
  // Before 1.5 the record ended at header_count.
  const size_t record_size = plugin.abi_minor >= 5 ? sizeof(connectd_sink_record)
                                                   : offsetof(connectd_sink_record, key_schema);
  return std::unique_ptr<SinkTaskInstance>(
      new SinkTaskInstance(vtable, ptr, plugin.class_name, record_size));
}

SinkTaskInstance::~SinkTaskInstance() { vtable_->destroy(ptr_); }

absl::Status SinkTaskInstance::Start(const Props& props) {
  HookError error;
  PropsView view(props);
  return HookStatus(vtable_->start(ptr_, view.get(), ToHandle(&error)), error, "SinkTask.start");
}

absl::Status SinkTaskInstance::Open(const std::vector<connectd_topic_partition>& partitions) {
  if (vtable_->open == nullptr) return absl::OkStatus();
  HookError error;
  return HookStatus(vtable_->open(ptr_, partitions.data(), partitions.size(), ToHandle(&error)),
                    error, "SinkTask.open");
}

absl::Status SinkTaskInstance::Close(const std::vector<connectd_topic_partition>& partitions) {
  if (vtable_->close == nullptr) return absl::OkStatus();
  HookError error;
  return HookStatus(vtable_->close(ptr_, partitions.data(), partitions.size(), ToHandle(&error)),
                    error, "SinkTask.close");
}

absl::Status SinkTaskInstance::Put(const connectd_sink_record* records, size_t count) {
  HookError error;
  if (record_size_ < sizeof(connectd_sink_record) && count > 0) {
    packed_.resize(count * record_size_);
    for (size_t i = 0; i < count; ++i) {
      connectd_sink_record prefix = records[i];
      prefix.struct_size = static_cast<uint32_t>(record_size_);
      std::memcpy(packed_.data() + i * record_size_, &prefix, record_size_);
    }
    records = reinterpret_cast<const connectd_sink_record*>(packed_.data());
  }
  return HookStatus(vtable_->put(ptr_, records, count, ToHandle(&error)), error, "SinkTask.put");
}

absl::StatusOr<CommittableOffsets> SinkTaskInstance::PreCommit(
    const std::vector<connectd_topic_partition_offset>& current) {
  HookError error;
  CommittableOffsets committable;
  if (vtable_->pre_commit != nullptr) {
    absl::Status status = HookStatus(vtable_->pre_commit(ptr_, current.data(), current.size(),
                                                         ToHandle(&committable), ToHandle(&error)),
                                     error, "SinkTask.preCommit");
    if (!status.ok()) return status;
    return committable;
  }
  if (vtable_->flush != nullptr) {
    absl::Status status =
        HookStatus(vtable_->flush(ptr_, current.data(), current.size(), ToHandle(&error)), error,
                   "SinkTask.flush");
    if (!status.ok()) return status;
  }
  for (const auto& o : current) {
    committable.push_back({std::string(o.topic.data, o.topic.size), o.partition, o.offset});
  }
  return committable;
}

void SinkTaskInstance::Stop() { vtable_->stop(ptr_); }

}  // namespace connectd::plugin
