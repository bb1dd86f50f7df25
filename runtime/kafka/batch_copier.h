// File: batch_copier.h
//
// BatchCopier: batch pass-through (issue 31). Copies source partitions to the same partitions of
// target topics on another cluster as Kafka's v2 record batches, never decoding a record: Fetch
// from each source partition's leader (read_committed or read_uncommitted, as the source client
// is set), drop control batches and (read_committed) aborted transactions, stamp each batch for
// an idempotent producer of the target (record_batch.h: producer id, epoch, sequence, CRC) and
// Produce it to the target partition's leader with acks=all, one batch per partition per
// request, at most kMaxInFlightPerPartition batches of a partition in flight.
//
// The bytes are not copied in the process: a batch stays in the Fetch response it came in
// (whose buffer is recycled once every batch of it was acknowledged), is stamped there, and the
// Produce request is written around it (BrokerConnection::SendGathered; TLS encrypts a copy).
// Its CRC is updated for the stamped fields, not recomputed: a corrupt source batch stays
// corrupt, the target broker refuses it (CORRUPT_MESSAGE), and it is returned from there.
//
// What the owner hears (TakeEvents), per partition in order:
//   kAcked     the target acknowledged a batch: its upstream offsets, record count and
//              downstream base offset (an exact offset pair for every record of it);
//   kProgress  about once a second: the position (next upstream offset to copy), the
//              source's end and the last error;
//   kReturned  once: the copier stopped copying the partition, from `position` on it needs
//              the record path. A batch that cannot travel as bytes (LogAppendTime, offset gaps
//              in a compacted batch, the old message formats, a batch that starts before the
//              position), an offset out of range, a refused batch (too large, not authorized,
//              invalid, corrupt) or a failure that will not pass (authentication) return it; every
//              batch before it was acknowledged first. `copy_again_at` says from where batches
//              could be copied again (-1: not in this copier's life). A source whose leader's
//              log lost what was copied (an unclean election: KIP-320's diverging epoch,
//              found with each fetch's last fetched epoch) returns it too, `position` at the
//              truncation and `truncated_offsets` the copied offsets the source no longer has.
// Fetches name the source leader's epoch (KIP-320): a deposed leader refuses them
// (FENCED_LEADER_EPOCH) and the copier asks Metadata for the new one.
// Leader changes, unreachable brokers, throttling and retriable produce errors are the copier's
// own: it refreshes metadata and retries. A produce error that leaves the producer's sequences
// in doubt stops sending, waits for the requests in flight, then starts over with a new
// producer id from the last acknowledged batch of every partition (batches the target may
// have written without an acknowledgement are then written again: at least once, never lost).
//
// Memory: what a copier holds is its Fetch responses, each until every batch of it was
// acknowledged or dropped. With a bounded pool (options.fetch_buffers) fetches wait for room;
// while they wait, the queued batches of partitions that cannot be sent (no target leader, a
// produce error being retried) are dropped and fetched again later, so that a stuck partition
// does not hold the responses other partitions' batches came in.
//
// Threads: a copier thread (the loop; it never blocks on a request) and an I/O thread (the
// broker connections' io_context). TakeEvents and SetPaused from any thread; Add and Stop from
// the owner's thread.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/kafka/client/broker_link.h"

namespace connectd::kafka {

namespace protocol {
class FrameBufferPool;
}

struct BatchCopyPartition {
  std::string source_topic;
  int32_t partition = 0;
  std::string target_topic;
  int64_t start_offset = 0;
};

struct BatchCopyEvent {
  enum class Kind { kAcked, kProgress, kReturned };
  Kind kind = Kind::kProgress;
  size_t index = 0;  // the partition: its position in the order of Add calls
  int64_t position = -1;
  int64_t source_end_offset = -1;
  // kAcked
  int64_t upstream_first = -1;
  int64_t upstream_last = -1;
  int32_t record_count = 0;
  int64_t downstream_base = -1;
  int64_t batch_bytes = 0;
  int64_t max_timestamp_ms = -1;
  // kProgress: the last error (Kafka's code; -195 unreachable, librdkafka's __TRANSPORT);
  // kReturned: the one that ended it (-1: authentication refused).
  int32_t error_code = 0;
  // kReturned
  std::string reason;
  int64_t copy_again_at = -1;
  // kProgress: the longest fetch throttle (ms) the source asked for since the last kProgress.
  int32_t fetch_throttle_ms = 0;
  // kProgress: error_code by the side that gave it (0: that side copies): the source's last
  // fetch error and the target's last produce error.
  int32_t source_error_code = 0;
  int32_t target_error_code = 0;
  // kReturned: offsets from `position` on that the target holds and the source lost since
  // (its leader's log was truncated below them: KIP-320), 0 otherwise.
  int64_t truncated_offsets = 0;
};

struct BatchCopierOptions {
  // librdkafka property names: bootstrap.servers, security.protocol, sasl.*, ssl.*, client.id;
  // `source`'s isolation.level (read_committed or the default read_uncommitted) and fetch
  // settings where set (Create() takes them over the fields below): fetch.wait.max.ms (Java's
  // fetch.max.wait.ms), fetch.min.bytes, fetch.max.bytes, max.partition.fetch.bytes (or
  // librdkafka's fetch.message.max.bytes).
  std::map<std::string, std::string> source;
  std::map<std::string, std::string> target;
  std::chrono::milliseconds request_timeout{30000};
  int32_t fetch_max_wait_ms = 100;  // below the consumers' 500: a copy's latency
  int32_t fetch_min_bytes = 1;
  int32_t fetch_max_bytes = 52428800;
  int32_t partition_fetch_bytes = 1 << 20;
  // Fetched batches a partition may hold before they are produced; fetching it pauses beyond.
  size_t max_queued_bytes_per_partition = 8 << 20;
  // How long a topic may be unknown to its cluster (a target topic not made yet, a deleted
  // source topic) before its partitions go back to the record path.
  std::chrono::milliseconds missing_topic_timeout{60000};
  // Called (on the copier thread) with each produce throttle time the target asks for (a
  // client quota on the target client's client.id); may be null.
  std::function<void(int32_t throttle_ms)> on_produce_throttle;
  // Where Fetch responses live, shared by the copiers of a worker (null: a pool of the
  // copier's own, unbounded). A pool with a bound (FrameBufferPool::max_held_bytes, the
  // worker's passthrough.buffer.memory) is the memory all of them may hold: a fetch is sent
  // only once its response's most (fetch_max_bytes, or at least partition_fetch_bytes) fits.
  std::shared_ptr<protocol::FrameBufferPool> fetch_buffers;
  // How the copier reaches each cluster's brokers (null: BrokerConnections made from `source`'s
  // and `target`'s properties). Tests put a fake cluster here.
  client::BrokerLinkFactory source_links;
  client::BrokerLinkFactory target_links;
};

class BatchCopier {
 public:
  // kInvalidArgument for a missing bootstrap.servers, an unusable security setting or a fetch
  // setting that is not a positive number.
  static absl::StatusOr<std::unique_ptr<BatchCopier>> Create(BatchCopierOptions options);
  ~BatchCopier();  // Stop(0)

  // Starts copying `partitions` (from their start offsets); the first call starts the threads.
  void Add(std::vector<BatchCopyPartition> partitions);
  // The events since the last call, in order.
  std::vector<BatchCopyEvent> TakeEvents();
  // While paused nothing more is fetched (what was fetched is still produced).
  void SetPaused(bool paused);
  // Fetches and sends no more; waits at most `timeout` for the produce requests in flight
  // (their acknowledgements become events), then closes the connections. Idempotent.
  void Stop(std::chrono::milliseconds timeout);

  // The options in effect (the source's fetch settings taken).
  const BatchCopierOptions& options() const { return options_; }

  // Counters (any thread).
  int64_t batches_acked() const { return batches_acked_.load(); }
  int64_t producer_resets() const { return producer_resets_.load(); }

 private:
  class Loop;
  explicit BatchCopier(BatchCopierOptions options);

  BatchCopierOptions options_;
  std::unique_ptr<Loop> loop_;
  std::thread thread_;
  std::atomic<int64_t> batches_acked_{0};
  std::atomic<int64_t> producer_resets_{0};
};

}  // namespace connectd::kafka
