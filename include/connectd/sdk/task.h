// File: connectd/sdk/task.h
//
// Task base classes, as in Kafka Connect.
//
// Threads: every method runs on the task's own thread, except stop(), which may be called from
// another thread while poll()/put() runs: stop() must be thread-safe and only signal, and poll()
// must return within about SourceBatch::timeoutMs().
// Errors: throw ConnectException (the task fails) or RetriableException (the call is retried).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "connectd/plugin/abi.h"
#include "connectd/sdk/connector.h"
#include "connectd/sdk/errors.h"
#include "connectd/sdk/records.h"

namespace connectd::sdk {

using OffsetMap = std::map<TopicPartition, int64_t>;

// Batch pass-through (ABI 1.7): a partition the host copies as record batches, and what became
// of it (connectd_batch_copy_partition and connectd_batch_copy_event in abi.h say more).
struct BatchCopyPartition {
  std::string source_topic;
  int32_t partition = 0;
  std::string target_topic;
  int64_t start_offset = 0;
  std::string source_partition;  // JSON
  std::string offset_prefix;     // the source offset JSON is prefix + N + suffix
  std::string offset_suffix;
};

struct BatchCopyEvent {
  enum class Kind { kAcked, kProgress, kReturned };
  Kind kind = Kind::kProgress;
  std::string_view source_topic;
  int32_t partition = 0;
  std::string_view target_topic;
  int64_t position = -1;
  int64_t source_end_offset = -1;
  int64_t upstream_first = -1;
  int64_t upstream_last = -1;
  int32_t record_count = 0;
  int64_t downstream_base = -1;
  int64_t batch_bytes = 0;
  int64_t max_timestamp_ms = -1;
  int32_t error_code = 0;
  std::string_view reason;
  int64_t copy_again_at = -1;
  int32_t fetch_throttle_ms = 0;
  // ABI 1.8 (an older host leaves them 0 and puts either side's error in error_code).
  int32_t source_error_code = 0;
  int32_t target_error_code = 0;
  // ABI 1.9 (an older host leaves it 0).
  int64_t truncated_offsets = 0;
};

// True if the host offers the 1.7 batch pass-through.
inline bool HostCopiesBatches() {
  return Host().struct_size >= offsetof(connectd_host_api, source_task_copy_batches) +
                                   sizeof(Host().source_task_copy_batches);
}

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
  // Hands `partitions` to the host to copy as record batches (ABI 1.7): true when it does (the
  // task then hears of them through SourceTask::batchCopyEvent and must not copy them itself);
  // false with `*why` when the task must copy them (the host needs the records, or is older
  // than 1.7). `source_client`: librdkafka properties reaching the source cluster. Throws
  // ConnectException for a request the host calls malformed.
  bool copyBatches(const Props& source_client, const std::vector<BatchCopyPartition>& partitions,
                   std::string* why) {
    if (!HostCopiesBatches()) {
      *why = "the worker is older than plugin ABI 1.7";
      return false;
    }
    std::vector<connectd_kv> client;
    for (const auto& [key, value] : source_client) client.push_back({ToStr(key), ToStr(value)});
    std::vector<connectd_batch_copy_partition> items;
    for (const BatchCopyPartition& p : partitions) {
      items.push_back({sizeof(connectd_batch_copy_partition), ToStr(p.source_topic), p.partition,
                       ToStr(p.target_topic), p.start_offset, ToStr(p.source_partition),
                       ToStr(p.offset_prefix), ToStr(p.offset_suffix)});
    }
    const connectd_batch_copy_request request{sizeof(connectd_batch_copy_request),
                                              {client.data(), client.size()},
                                              items.data(),
                                              items.size()};
    auto explain = [](void* opaque, connectd_str message) {
      static_cast<std::string*>(opaque)->assign(FromStr(message));
    };
    const connectd_status status =
        Host().source_task_copy_batches(context_, &request, explain, why);
    if (status == CONNECTD_STATUS_OK) return true;
    if (status == CONNECTD_STATUS_FAILED_PRECONDITION) return false;
    throw ConnectException("the worker refused to copy batches: " + *why, status);
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
  // What became of the partitions handed to SourceTaskContext::copyBatches (ABI 1.7); a task
  // that hands any over overrides it.
  virtual void batchCopyEvent(const BatchCopyEvent& /*event*/) {}
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
  void pause(const TopicPartition& tp) {
    Host().sink_task_pause(context_, {ToStr(tp.topic), tp.partition});
  }
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
