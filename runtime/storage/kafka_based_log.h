// File: kafka_based_log.h
//
// KafkaBasedLog: Connect's KafkaBasedLog for the internal topics (configs, statuses, offsets).
// A producer writes records; a consumer assigned to every partition reads the topic from the
// beginning, forever, on the log's own thread, and hands each record to the `consumed`
// callback in partition order. ReadToEnd completes once everything that was in the topic when
// it was called has been consumed (end offsets are fetched at the call), which is how a worker
// knows its view is current before acting.
//
//   auto log = KafkaBasedLog::Start(options, [](const LogRecord& r) { store.Apply(r); });
//   (*log)->Send("connector-src", json, [](absl::Status s) { ... });
//   absl::Status current = (*log)->ReadToEndSync(std::chrono::seconds(30));
//
// Start creates the topic if missing (compacted, with the given partitions and replication
// factor), refuses an existing topic whose cleanup.policy is not exactly `compact` when asked
// to (Connect's check), and reads to the end before returning.
//
// The reader watches itself: every `stall_check_interval` it compares where it stands with the
// end of each partition, and a partition behind its end that has not moved over two checks
// (ReadStallDetector) gets the reader a new consumer, assigned where the log stands, so nothing
// is read twice or skipped (librdkafka's consumer can stop fetching a partition after a broker
// restart; see read_stall.h). Logged as a warning naming the partitions.
//
// Keys are partitioned with Kafka's murmur2 (librdkafka's murmur2_random), as Java's producer
// does, so equal keys land on the partition Java would choose.
//
// Threads: `consumed` and Send/ReadToEnd callbacks run on the log's thread; never block there
// for long. Public methods are thread-safe.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "runtime/kafka/rdkafka_handles.h"
#include "runtime/storage/read_stall.h"
#include "runtime/storage/topic_log.h"

namespace connectd::storage {

class KafkaBasedLog final : public TopicLog {
 public:
  struct Options {
    std::string topic;
    std::string topic_property = "config.storage.topic";  // the worker key naming it (messages)
    // librdkafka properties (bootstrap.servers, security ...) of the three clients.
    std::map<std::string, std::string> producer;
    std::map<std::string, std::string> consumer;
    std::map<std::string, std::string> admin;
    int32_t partitions = 1;
    int16_t replication_factor = -1;                   // -1: the broker's default
    std::map<std::string, std::string> topic_configs;  // cleanup.policy=compact is always set
    bool require_compaction = true;
    std::chrono::milliseconds start_timeout{60000};
    // A topic this log just created is empty, so Start() neither reads it nor waits for its
    // partitions' leaders (0.2-0.8 s for a new 25-partition topic). Set: Start() waits for them
    // all the same, for a log written at once (the config topic: the session key).
    bool await_leaders_when_created = false;
    // Set: called once the topic is known to exist with its leaders (found existing, or
    // created and awaited), or never if Start() fails before that (its caller then decides).
    std::function<void()> on_topic_ready;
    // Valid: a topic this log must create is created only once this is ready (another log's
    // on_topic_ready), so that the broker opens that log's partitions first.
    std::shared_future<void> create_after;
    // How often the reader checks itself for a stalled partition (see above).
    std::chrono::milliseconds stall_check_interval{5000};
  };
  // Creates or checks the topic, starts the clients and the log thread, reads to the end
  // (a topic it created: see await_leaders_when_created).
  static absl::StatusOr<std::unique_ptr<KafkaBasedLog>> Start(Options options, Consumed consumed);
  ~KafkaBasedLog() override;

  // TopicLog
  void Send(std::optional<std::string> key, std::optional<std::string> value,
            std::function<void(absl::Status)> done = nullptr) override;
  absl::Status Flush(std::chrono::milliseconds timeout) override;
  void ReadToEnd(std::function<void(absl::Status)> done) override;
  absl::Status ReadToEndSync(std::chrono::milliseconds timeout) override;
  // Stops the thread and closes the clients (idempotent).
  void Stop() override;
  int32_t partitions() const override { return partitions_; }

  // Tests only: the current consumer stops fetching every partition, as a stalled one does.
  void PauseFetchingForTest();

 private:
  KafkaBasedLog(Options options, Consumed consumed);
  absl::Status EnsureTopic();
  absl::Status StartClients();
  // A consumer of the log's topic with the log's settings, not yet assigned.
  absl::StatusOr<kafka::RdKafkaPtr> MakeConsumer() const;
  void Run();
  // Waits briefly for one record (or end-of-partition event) and hands it over (log thread).
  void PollOnce();
  // Every stall_check_interval: a stalled partition gets the reader a new consumer (log thread).
  void CheckForStall();
  void ReplaceConsumer(const std::vector<int32_t>& stalled);
  // Completes the pending reads whose end offsets have all been reached (log thread).
  void CompleteReachedReads();
  // End offsets of every partition now; on the log thread. `one_round_trip`: only the one
  // ListOffsets request (kUnavailable if it does not answer every partition), no slower
  // per-partition fallback.
  absl::StatusOr<std::vector<int64_t>> EndOffsets(int timeout_ms, bool one_round_trip = false);

  static void DeliveryCallback(rd_kafka_t*, const rd_kafka_message_t* message, void*);

  const Options options_;
  const Consumed consumed_;
  int32_t partitions_ = 0;
  kafka::RdKafkaPtr producer_;      // also asks for the end offsets (EndOffsets says why)
  kafka::RdKafkaPtr consumer_;      // replaced on the log thread; guarded by mu_ elsewhere
  bool read_committed_ = false;     // the consumer reads committed records only (EndOffsets)
  bool created_ = false;            // EnsureTopic created the topic: it was empty then
  kafka::QueuePtr consumer_queue_;  // yielded by ReadToEnd to wake the reader's poll; mu_
  std::thread thread_;
  std::atomic<bool> stopping_{false};
  // Records sent whose delivery report the reader thread has not served yet: while any are,
  // it polls in short steps, since a report does not wake its consumer poll (a config write
  // waited up to 50 ms for its acknowledgement, several times per connector at start-up).
  std::atomic<int> awaiting_reports_{0};

  std::mutex mu_;
  std::vector<std::function<void(absl::Status)>> read_requests_;  // guarded by mu_

  // Log thread only: reads waiting for these end offsets.
  struct PendingRead {
    std::vector<int64_t> end;
    std::vector<std::function<void(absl::Status)>> done;
    std::chrono::steady_clock::time_point since = std::chrono::steady_clock::now();
    bool reported = false;  // the slow read was logged
  };
  std::vector<PendingRead> pending_reads_;
  std::vector<int64_t> next_offsets_;  // next offset to consume per partition
  ReadStallDetector stall_detector_;
  std::chrono::steady_clock::time_point next_stall_check_ = std::chrono::steady_clock::now();
};

// Opens the log of one internal topic for a store: KafkaBasedLog::Start unless a test gives an
// in-memory topic. The stores take one; null means Kafka.
using TopicLogOpener = std::function<absl::StatusOr<std::unique_ptr<TopicLog>>(
    const KafkaBasedLog::Options& options, TopicLog::Consumed consumed)>;

// Opens `options.topic` with `open`, or on Kafka when `open` is null.
absl::StatusOr<std::unique_ptr<TopicLog>> OpenTopicLog(const TopicLogOpener& open,
                                                       const KafkaBasedLog::Options& options,
                                                       TopicLog::Consumed consumed);

}  // namespace connectd::storage
