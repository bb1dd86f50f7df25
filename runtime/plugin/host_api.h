// File: host_api.h
//
// The worker's connectd_host_api table: the functions every plugin calls back into. Handles are
// the interfaces of host_interfaces.h; outputs that have no interface (task configs, validation
// errors, committable offsets) are plain containers named below.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "connectd/plugin/abi.h"
#include "runtime/plugin/host_interfaces.h"

namespace connectd::plugin {

using TaskConfigList = std::vector<std::map<std::string, std::string>>;
// Where host->task_configs_add writes: the configs, and the first malformed call (props.items
// NULL with a non-zero count), which fails Connector.taskConfigs instead of crashing the host.
struct TaskConfigSink {
  TaskConfigList configs;
  std::string error;
};
using ValidationErrors = std::map<std::string, std::vector<std::string>>;
struct CommittableOffset {
  std::string topic;
  int32_t partition;
  int64_t offset;
};
using CommittableOffsets = std::vector<CommittableOffset>;

// The table, valid for the process's life.
const connectd_host_api* HostApi();

// Casts between the C handles and their C++ objects (the only place these casts happen).
inline connectd_error_host_ptr* ToHandle(HookError* e) {
  return reinterpret_cast<connectd_error_host_ptr*>(e);
}
inline connectd_connector_context_host_ptr* ToHandle(ConnectorContextHost* c) {
  return reinterpret_cast<connectd_connector_context_host_ptr*>(c);
}
inline connectd_source_task_context_host_ptr* ToHandle(SourceTaskContextHost* c) {
  return reinterpret_cast<connectd_source_task_context_host_ptr*>(c);
}
inline connectd_source_batch_host_ptr* ToHandle(SourceBatchHost* b) {
  return reinterpret_cast<connectd_source_batch_host_ptr*>(b);
}
inline connectd_sink_task_context_host_ptr* ToHandle(SinkTaskContextHost* c) {
  return reinterpret_cast<connectd_sink_task_context_host_ptr*>(c);
}
inline connectd_task_configs_host_ptr* ToHandle(TaskConfigSink* l) {
  return reinterpret_cast<connectd_task_configs_host_ptr*>(l);
}
inline connectd_validation_host_ptr* ToHandle(ValidationErrors* v) {
  return reinterpret_cast<connectd_validation_host_ptr*>(v);
}
inline connectd_record_out_host_ptr* ToHandle(RecordOutHost* o) {
  return reinterpret_cast<connectd_record_out_host_ptr*>(o);
}
inline connectd_offsets_host_ptr* ToHandle(CommittableOffsets* o) {
  return reinterpret_cast<connectd_offsets_host_ptr*>(o);
}

}  // namespace connectd::plugin
