#include "connectors/mirror/offset_index.h"

#include <algorithm>

namespace connectd::mirror {

void OffsetIndex::Add(const OffsetRun& run) {
  if (run.count < 1 || run.upstream < 0 || run.downstream < 0) return;
  if (!runs_.empty()) {
    OffsetRun& last = runs_.back();
    if (run.upstream == last.upstream_end() && run.downstream == last.downstream_end()) {
      last.count += run.count;
      return;
    }
    if (run.upstream < last.upstream_end()) {
      // A rewind: from run.upstream on, the new copies are the ones to resume at.
      while (!runs_.empty() && runs_.back().upstream >= run.upstream) runs_.pop_back();
      if (!runs_.empty() && runs_.back().upstream_end() > run.upstream) {
        runs_.back().count = run.upstream - runs_.back().upstream;
      }
    }
  }
  runs_.push_back(run);
  while (runs_.size() > max_runs_) runs_.pop_front();
}

std::optional<OffsetTranslation> OffsetIndex::Translate(int64_t upstream) const {
  if (runs_.empty() || upstream < runs_.front().upstream) return std::nullopt;
  auto next =
      std::upper_bound(runs_.begin(), runs_.end(), upstream,
                       [](int64_t offset, const OffsetRun& run) { return offset < run.upstream; });
  const OffsetRun& run = *std::prev(next);
  if (upstream < run.upstream_end()) {
    return OffsetTranslation{run.downstream + (upstream - run.upstream), true};
  }
  // After the run: its end. Exact only when the next run follows it downstream (an upstream
  // gap, nothing copied in between); otherwise the records in between may be copies the index
  // does not know of, so reading them again is the safe side.
  const bool contiguous = next != runs_.end() && next->downstream == run.downstream_end();
  return OffsetTranslation{run.downstream_end(), contiguous || upstream == run.upstream_end()};
}

void OffsetIndex::TrimBefore(int64_t upstream) {
  while (!runs_.empty() && runs_.front().upstream_end() <= upstream) runs_.pop_front();
}

std::optional<OffsetRun> OpenRun::Add(int64_t upstream, int64_t downstream, int64_t count) {
  if (run_.count > 0 && upstream == run_.upstream_end() && downstream == run_.downstream_end()) {
    run_.count += count;
    changed_ = true;
    return std::nullopt;
  }
  std::optional<OffsetRun> closed = TakeChanged();
  run_ = OffsetRun{upstream, downstream, count};
  changed_ = true;
  return closed;
}

std::optional<OffsetRun> OpenRun::TakeChanged() {
  if (!changed_) return std::nullopt;
  changed_ = false;
  return run_;
}

}  // namespace connectd::mirror
