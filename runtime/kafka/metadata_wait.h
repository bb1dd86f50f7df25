// File: metadata_wait.h
//
// Waiting for a topic or partition to appear in a producer's metadata, as Java's producer does
// in KafkaProducer.waitOnMetadata. librdkafka refuses a record at once (Local: Unknown
// partition / Unknown topic) when its cached metadata lacks the topic or has fewer partitions
// than the record names; Java's send blocks until the metadata shows them, up to max.block.ms
// (Connect sets Long.MAX_VALUE for source tasks). A remote topic MirrorSource created a moment
// ago, or whose partitions it just grew, is such a case: it must be waited for, never fail the
// task.
//
//   kafka::PartitionMetadataWait wait;
//   while (true) {
//     err = rd_kafka_producev(...);
//     if (IsMissingFromMetadata(err)) {
//       if (absl::Status s = wait.Wait(rk, topic, partition, err, stopping); !s.ok()) return s;
//       continue;
//     }
//     ...
//   }
//
// Threads: one object per waiting thread (the caller's).
#pragma once

#include <librdkafka/rdkafka.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <string_view>

#include "absl/status/status.h"

namespace connectd::kafka {

// True for the produce errors that mean "not in the metadata yet".
bool IsMissingFromMetadata(rd_kafka_resp_err_t err);

class PartitionMetadataWait {
 public:
  // One round of waiting after a produce was refused with `err`: serves the producer's
  // delivery reports, asks the cluster for `topic`'s metadata, and backs off (100 ms doubling
  // to 1 s) before the caller retries. Logs a WARN naming topic and partition when the wait
  // starts and every 30 s while it lasts; Cancelled once `stopping` says so.
  absl::Status Wait(rd_kafka_t* producer, std::string_view topic, int32_t partition,
                    rd_kafka_resp_err_t err, const std::function<bool()>& stopping);
  // Logs how long the wait took, if there was one that was not cancelled.
  ~PartitionMetadataWait();

 private:
  std::chrono::steady_clock::time_point started_{};
  std::chrono::steady_clock::time_point last_warning_{};
  std::chrono::milliseconds backoff_{100};
  std::string topic_;
  int32_t partition_ = -1;
  bool cancelled_ = false;
};

}  // namespace connectd::kafka
