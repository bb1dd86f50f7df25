// File: read_stall.h
//
// ReadStallDetector tells a reader that has stopped from one that is merely behind. The log's
// reader checks now and then where it stands on each partition against the partition's end on
// the broker; a partition that was behind its end at the previous check, is behind now and has
// not moved in between has stalled: records are there and the reader's client is not fetching
// them. librdkafka's consumer can end up so after a broker restart (an assigned partition left
// waiting on a leader-epoch validation or on a broker it no longer has; librdkafka issues 4492,
// 4804, 5153), while Java's consumer goes on; a stalled internal topic would leave a worker
// answering from a stale view (a task FAILED on the topic, RUNNING in its REST answer).
//
//   ReadStallDetector detector;
//   std::vector<int32_t> stalled = detector.Check(next_offsets, end_offsets);  // each interval
//
// Not thread-safe: one reader thread owns it.
#pragma once

#include <cstdint>
#include <vector>

namespace connectd::storage {

class ReadStallDetector {
 public:
  // One check: `next` is the next offset the reader will hand over per partition, `end` each
  // partition's end offset now. Returns the stalled partitions (see above), in order. A
  // partition needs two checks to stall, so the first check never reports one.
  std::vector<int32_t> Check(const std::vector<int64_t>& next, const std::vector<int64_t>& end);

  // Forgets the previous check (after the reader's client was replaced).
  void Reset();

 private:
  std::vector<int64_t> last_next_;
  std::vector<bool> last_behind_;
};

}  // namespace connectd::storage
