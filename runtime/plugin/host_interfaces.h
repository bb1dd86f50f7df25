// File: host_interfaces.h
//
// The C++ side of the plugin ABI's host handles. Each opaque `connectd_*_host_ptr` the worker
// hands a plugin is a pointer to one of these interfaces (reinterpret_cast at the boundary, in
// host_api.cc only); the worker implements them. Every method may be called from the thread the
// handle was given on, and the context ones from any thread (a connector may raise an error
// from its own thread).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "connectd/plugin/abi.h"
#include "runtime/metrics/metrics.h"

namespace connectd::plugin {

// The message a failing hook reports (host->set_error).
struct HookError {
  std::string message;
};

class ConnectorContextHost {
 public:
  virtual ~ConnectorContextHost() = default;
  virtual void RequestTaskReconfiguration() = 0;
  virtual void RaiseError(std::string message) = 0;
  // The connector's metrics scope (sensors removed when the connector is destroyed).
  virtual metrics::MetricsScope* Metrics() = 0;
};

// The context of a connector instance created only to validate a config or alter offsets:
// requests are ignored and its sensors are never published.
class DetachedConnectorContext : public ConnectorContextHost {
 public:
  void RequestTaskReconfiguration() override {}
  void RaiseError(std::string) override {}
  metrics::MetricsScope* Metrics() override { return &scope_; }

 private:
  metrics::MetricsRegistry registry_;
  metrics::MetricsScope scope_{&registry_};
};

class SourceTaskContextHost {
 public:
  virtual ~SourceTaskContextHost() = default;
  // The stored offset JSON of a source partition JSON, if any.
  virtual std::optional<std::string> Offset(std::string_view source_partition) = 0;
  // The task's metrics scope (sensors removed when the task is destroyed).
  virtual metrics::MetricsScope* Metrics() = 0;
  // source_task_copy_batches (ABI 1.7): OK when the host copies the request's partitions as
  // batches; kFailedPrecondition saying why when the task must copy them itself;
  // kInvalidArgument for a malformed request.
  virtual absl::Status CopyBatches(const connectd_batch_copy_request& request) {
    (void)request;
    return absl::FailedPreconditionError("this host does not copy record batches");
  }
};

class SourceBatchHost {
 public:
  virtual ~SourceBatchHost() = default;
  // Takes one record (copying it, or keeping it if it carries `release`); see abi.h.
  virtual connectd_status Append(const connectd_source_record& record) = 0;
};

class SinkTaskContextHost {
 public:
  virtual ~SinkTaskContextHost() = default;
  virtual void RequestCommit() = 0;
  virtual void Seek(std::string_view topic, int32_t partition, int64_t offset) = 0;
  virtual void Pause(std::string_view topic, int32_t partition) = 0;
  virtual void Resume(std::string_view topic, int32_t partition) = 0;
  // The task's metrics scope (sensors removed when the task is destroyed).
  virtual metrics::MetricsScope* Metrics() = 0;
};

// Where Transformation.apply puts its record (host->record_out_set).
class RecordOutHost {
 public:
  virtual ~RecordOutHost() = default;
  // Reads (copies) the record; CONNECTD_STATUS_INVALID_ARGUMENT for malformed data.
  virtual connectd_status Set(const connectd_connect_record& record) = 0;
};

}  // namespace connectd::plugin
