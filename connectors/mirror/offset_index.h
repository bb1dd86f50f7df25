// File: offset_index.h
//
// OffsetIndex: the exact upstream -> downstream offset map of one replicated partition, the
// ground of exact offset translation (issue 31). Java's offset syncs are sparse (one per
// offset.lag.max records, thinned further by the checkpoint task's OffsetSyncStore), so a group
// committed between two syncs translates to the older one and replays after a failover; this
// index keeps every copy, compressed into runs.
//
// A run says: the upstream offsets [upstream, upstream + count) were copied, in order, to the
// downstream offsets [downstream, downstream + count). Copies are added in the order the target
// acknowledged them (per partition, the order they were produced). A copy that does not extend
// the last run starts a new one:
//   - an upstream gap (compaction, transaction markers, offsets deleted before they were read):
//     the new run starts after it;
//   - a downstream gap (another writer, a transaction marker on the target);
//   - a rewind (a task restarted from its committed source offset and copies records again):
//     the new copies supersede what older runs say about those upstream offsets, so runs stay
//     ordered and disjoint by upstream offset. A group resuming there reads the newest copies.
//
// Translate(u) answers where a consumer that committed u on the source (its next record is u)
// resumes on the target. Inside a run the answer is exact: u's own copy. Elsewhere it is a lower
// bound, never past a record the group has not read: in a gap between two runs, or past the last
// run, the end of the run before (runs can be missing: a write of the index failed, or the
// writer dropped runs beyond its budget, and the records they describe sit in between); a gap
// whose two runs are contiguous downstream is still exact. nullopt before the first run
// (trimmed, or copied before the index began).
//
// Threads: not thread-safe; the owner serialises calls.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>

namespace connectd::mirror {

struct OffsetRun {
  int64_t upstream = 0;
  int64_t downstream = 0;
  int64_t count = 0;  // >= 1

  int64_t upstream_end() const { return upstream + count; }
  int64_t downstream_end() const { return downstream + count; }
  friend bool operator==(const OffsetRun&, const OffsetRun&) = default;
};

// One translation: the downstream offset to resume at, and whether it is exact (nothing read
// twice) or a lower bound (some records may be read twice, none skipped).
struct OffsetTranslation {
  int64_t downstream = 0;
  bool exact = false;
  friend bool operator==(const OffsetTranslation&, const OffsetTranslation&) = default;
};

class OffsetIndex {
 public:
  // At most `max_runs` runs are kept; beyond, the oldest are forgotten (a compacted or
  // transactional topic makes a run per gap).
  explicit OffsetIndex(size_t max_runs = 100000) : max_runs_(max_runs) {}

  // One record copied: upstream offset `upstream` acknowledged at `downstream`.
  void Add(int64_t upstream, int64_t downstream) { Add(OffsetRun{upstream, downstream, 1}); }
  // `run.count` records copied at consecutive offsets on both sides (a batch moved whole, or a
  // run read back from storage). Ignored when count < 1 or an offset is negative.
  void Add(const OffsetRun& run);

  // See the file comment.
  std::optional<OffsetTranslation> Translate(int64_t upstream) const;

  // Forgets the runs that end at or before `upstream` (the source's log start offset: a group
  // cannot be behind it).
  void TrimBefore(int64_t upstream);
  // Forgets the oldest run, if any.
  void PopOldest() {
    if (!runs_.empty()) runs_.pop_front();
  }

  // Ordered and disjoint by upstream offset.
  const std::deque<OffsetRun>& runs() const { return runs_; }

 private:
  const size_t max_runs_;
  std::deque<OffsetRun> runs_;
};

// OpenRun: the writer's side, the run of one partition that the next copy may extend.
// Threads: not thread-safe.
class OpenRun {
 public:
  // `count` consecutive copies acknowledged, the first `upstream` -> `downstream`. When they do
  // not extend the open run, the open run is closed and returned if it changed since it was
  // last taken (a closed run is written once more, whole).
  std::optional<OffsetRun> Add(int64_t upstream, int64_t downstream, int64_t count = 1);
  // The open run if it changed since it was last taken (an offset commit writes it).
  std::optional<OffsetRun> TakeChanged();

 private:
  OffsetRun run_;  // count 0: none yet
  bool changed_ = false;
};

}  // namespace connectd::mirror
