// File: internal_topic_reader.h
//
// InternalTopicReader: tails partition 0 of a single-partition internal topic (offset syncs,
// the offset index) from the beginning with its own librdkafka consumer (assign, never
// committing), hands every record to a handler and reports the first read-to-end: the moment it
// reached the partition's end as it was when reading began (high watermark), or an earlier
// end-of-partition (the last offsets hold transaction markers). A missing topic is waited for,
// asked again every second.
//
// Lifecycle: Make, Start (launches the thread), then Stop or destruction (joins the thread,
// closes the consumer).
//
// Threads: the handlers run on the reader's own thread and synchronise with their owner
// themselves; every public method is thread-safe.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "connectd/sdk/host.h"
#include "connectors/mirror/kafka_clients.h"

namespace connectd::mirror {

class InternalTopicReader {
 public:
  // Called for each record; false when it cannot be decoded (counted, logged, skipped).
  using RecordHandler = std::function<bool(std::string_view key, std::string_view value)>;

  struct Options {
    std::string topic;
    std::string description;  // in log lines: "offset syncs topic"
    std::string logger;       // the logger name of those lines
    // The level of the "cannot read the end offset" line (once a minute while it lasts): a
    // topic that must exist warns, one that may never exist does not.
    int32_t missing_topic_log_level = CONNECTD_LOG_WARN;
  };

  // `consumer_props` are Java client properties (ClientProps of the side holding the topic).
  // nullptr with `error` set when the consumer cannot be created.
  static std::unique_ptr<InternalTopicReader> Make(const Props& consumer_props, Options options,
                                                   std::string* error);
  ~InternalTopicReader();
  InternalTopicReader(const InternalTopicReader&) = delete;
  InternalTopicReader& operator=(const InternalTopicReader&) = delete;

  // Starts reading. `on_read_to_end` runs once, before readToEnd() turns true. Once only.
  void Start(RecordHandler on_record, std::function<void()> on_read_to_end);
  // Blocks until the first read-to-end completed (true), `timeout` passed or Stop() (false).
  bool WaitForReadToEnd(std::chrono::milliseconds timeout);
  bool readToEnd() const { return read_to_end_.load(); }
  // Stops and joins the reader thread. Idempotent.
  void Stop();

  const std::string& topic() const { return options_.topic; }

 private:
  InternalTopicReader(KafkaHandle consumer, Options options);
  void Run();
  // Waits up to `d` unless stopping; returns true when stopping.
  bool SleepOrStop(std::chrono::milliseconds d);
  void CompleteReadToEnd(int64_t position);
  bool stopping() const;

  // Constant after construction (the handlers: after Start).
  KafkaHandle consumer_;
  const Options options_;
  RecordHandler on_record_;
  std::function<void()> on_read_to_end_;

  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;  // guarded by mu_
  std::atomic<bool> read_to_end_{false};
  std::thread thread_;
};

}  // namespace connectd::mirror
