// File: connectd/sdk/task.h
//
// Task base classes, as in Kafka Connect.
//
// Threads: every method runs on the task's own thread, except stop(), which may be called from
// another thread while poll()/put() runs: stop() must be thread-safe and only signal, and poll()
// must return within about SourceBatch::timeoutMs().
// Errors: throw ConnectException (the task fails) or RetriableException (the call is retried).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "connectd/plugin/abi.h"
#include "connectd/sdk/connector.h"
#include "connectd/sdk/records.h"

namespace connectd::sdk {

using OffsetMap = std::map<TopicPartition, int64_t>;

// Connect's SourceTaskContext, with its OffsetStorageReader.
class SourceTaskContext {
 public:
  explicit SourceTaskContext(connectd_source_task_context_host_ptr* context) : context_(context) {}

  // The stored offset (a JSON object) of `source_partition` (a JSON object), if any.
  std::optional<std::string> offset(const std::string& source_partition) {
    std::string result;
    auto receive = [](void* opaque, connectd_str offset) {
      static_cast<std::string*>(opaque)->assign(FromStr(offset));
    };
    if (Host().source_task_offset(context_, ToStr(source_partition), receive, &result) == 0) {
      return std::nullopt;
    }
    return result;
  }
  // The task's metrics scope (inert on hosts older than ABI 1.3).
  Metrics metrics() {
    return Metrics(HostHasMetrics() ? Host().source_task_metrics(context_) : nullptr);
  }

 private:
  connectd_source_task_context_host_ptr* context_;
};

class SourceTask {
 public:
  virtual ~SourceTask() = default;
  virtual void start(const Props& props) = 0;
  // Adds the records available now to `batch`; may return none.
  virtual void poll(SourceBatch& batch) = 0;
  // Offsets were committed for every acknowledged record so far.
  virtual void commit() {}
  // `record` was acknowledged at `metadata`, or dropped (`metadata` null).
  virtual void commitRecord(const SourceRecordView& /*record*/,
                            const RecordMetadata* /*metadata*/) {}
  virtual void stop() = 0;

  SourceTaskContext& context() { return *context_; }

 private:
  template <typename T>
  friend struct SourceTaskTrampolines;
  std::optional<SourceTaskContext> context_;
};

// Connect's SinkTaskContext.
class SinkTaskContext {
 public:
  explicit SinkTaskContext(connectd_sink_task_context_host_ptr* context) : context_(context) {}
  void requestCommit() { Host().sink_task_request_commit(context_); }
  // Rewinds or skips `partition` to `offset` before the next put.
  void offset(const TopicPartition& tp, int64_t offset) {
    Host().sink_task_seek(context_, {ToStr(tp.topic), tp.partition}, offset);
  }
  void pause(const TopicPartition& tp) { Host().sink_task_pause(context_, {ToStr(tp.topic), tp.partition}); }
  void resume(const TopicPartition& tp) {
    Host().sink_task_resume(context_, {ToStr(tp.topic), tp.partition});
  }
  // The task's metrics scope (inert on hosts older than ABI 1.3).
  Metrics metrics() {
    return Metrics(HostHasMetrics() ? Host().sink_task_metrics(context_) : nullptr);
  }

 private:
  connectd_sink_task_context_host_ptr* context_;
};

class SinkTask {
 public:
  virtual ~SinkTask() = default;
  virtual void start(const Props& props) = 0;
  virtual void open(const std::vector<TopicPartition>& /*partitions*/) {}
  virtual void close(const std::vector<TopicPartition>& /*partitions*/) {}
  virtual void put(const SinkRecords& records) = 0;
  // Make everything passed to put durable.
  virtual void flush(const OffsetMap& /*current*/) {}
  // The offsets safe to commit; by default flush() then everything consumed.
  virtual OffsetMap preCommit(const OffsetMap& current) {
    flush(current);
    return current;
  }
  virtual void stop() = 0;

  SinkTaskContext& context() { return *context_; }

 private:
  template <typename T>
  friend struct SinkTaskTrampolines;
  std::optional<SinkTaskContext> context_;
};

}  // namespace connectd::sdk
