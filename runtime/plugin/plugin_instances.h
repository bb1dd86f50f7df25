// File: plugin_instances.h
//
// Owning C++ wrappers over plugin objects: ConnectorInstance, SourceTaskInstance and
// SinkTaskInstance create the plugin's object through its vtable, destroy it when they die, and
// turn each hook's status code and message into an absl::Status (code preserved, so
// kUnavailable still means retriable). The worker uses only these, never the vtables.
//
// Threads: as the ABI says: one call at a time, on the object's worker or task thread; Stop()
// of a task may be called from any thread.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "runtime/plugin/host_api.h"
#include "runtime/plugin/plugin_registry.h"

namespace connectd::plugin {

using Props = std::map<std::string, std::string>;

// Keeps a Props map as a connectd_props array for one call.
class PropsView {
 public:
  explicit PropsView(const Props& props);
  connectd_props get() const { return {items_.data(), items_.size()}; }

 private:
  std::vector<connectd_kv> items_;
};

class ConnectorInstance {
 public:
  // `context` must outlive the instance.
  static absl::StatusOr<std::unique_ptr<ConnectorInstance>> Create(const ConnectorPlugin& plugin,
                                                                   ConnectorContextHost* context);
  ~ConnectorInstance();

  absl::Status Start(const Props& props);
  absl::StatusOr<TaskConfigList> TaskConfigs(int max_tasks);
  absl::Status Stop();
  absl::StatusOr<ValidationErrors> Validate(const Props& props);
  // KIP-875 alterOffsets on an unstarted instance: partition JSON -> offset JSON (nullopt:
  // reset). True if the connector handled it; false if it declined or predates ABI 1.1.
  absl::StatusOr<bool> AlterOffsets(
      const Props& config, const std::map<std::string, std::optional<std::string>>& offsets);
  // SourceConnector.exactlyOnceSupport (ABI 1.4): CONNECTD_EXACTLY_ONCE_SUPPORT_*; NONE (Java's
  // null) when the plugin predates 1.4 or leaves the hook out.
  absl::StatusOr<int32_t> ExactlyOnceSupport(const Props& config);

 private:
  ConnectorInstance(const ConnectorPlugin& plugin, connectd_connector_plugin_ptr* ptr)
      : plugin_(plugin), ptr_(ptr) {}
  const ConnectorPlugin& plugin_;
  connectd_connector_plugin_ptr* ptr_;
};

class SourceTaskInstance {
 public:
  static absl::StatusOr<std::unique_ptr<SourceTaskInstance>> Create(const ConnectorPlugin& plugin,
                                                                    SourceTaskContextHost* context);
  ~SourceTaskInstance();

  absl::Status Start(const Props& props);
  // Records go to `batch` as the plugin appends them.
  absl::Status Poll(int32_t timeout_ms, SourceBatchHost* batch);
  absl::Status Commit();
  // `metadata` null: the record was dropped.
  absl::Status CommitRecord(const connectd_source_record& record,
                            const connectd_record_metadata* metadata);
  bool has_commit_record() const { return vtable_->commit_record != nullptr; }
  // batch_copy_event (ABI 1.7); has_batch_copy_event() false for plugins of older minors.
  absl::Status BatchCopyEvent(const connectd_batch_copy_event& event);
  bool has_batch_copy_event() const;
  void Stop();

 private:
  SourceTaskInstance(const connectd_source_task_vtable* vtable, connectd_task_plugin_ptr* ptr,
                     std::string class_name)
      : vtable_(vtable), ptr_(ptr), class_name_(std::move(class_name)) {}
  const connectd_source_task_vtable* vtable_;
  connectd_task_plugin_ptr* ptr_;
  std::string class_name_;
};

class SinkTaskInstance {
 public:
  static absl::StatusOr<std::unique_ptr<SinkTaskInstance>> Create(const ConnectorPlugin& plugin,
                                                                  SinkTaskContextHost* context);
  ~SinkTaskInstance();

  absl::Status Start(const Props& props);
  absl::Status Open(const std::vector<connectd_topic_partition>& partitions);
  absl::Status Close(const std::vector<connectd_topic_partition>& partitions);
  absl::Status Put(const connectd_sink_record* records, size_t count);
  // The offsets safe to commit given everything put so far (`current`).
  absl::StatusOr<CommittableOffsets> PreCommit(
      const std::vector<connectd_topic_partition_offset>& current);
  void Stop();

 private:
  SinkTaskInstance(const connectd_sink_task_vtable* vtable, connectd_task_plugin_ptr* ptr,
                   std::string class_name, size_t record_size)
      : vtable_(vtable), ptr_(ptr), class_name_(std::move(class_name)), record_size_(record_size) {}
  const connectd_sink_task_vtable* vtable_;
  connectd_task_plugin_ptr* ptr_;
  std::string class_name_;
  // sizeof(connectd_sink_record) as the plugin was built: the stride of the array put passes.
  size_t record_size_;
  std::vector<unsigned char> packed_;  // records repacked for a plugin of an older minor
};

// The Status for a hook's result: OK, or `code` with the plugin's message (or a default).
absl::Status HookStatus(connectd_status code, const HookError& error, std::string_view hook);

}  // namespace connectd::plugin
