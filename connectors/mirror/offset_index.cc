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

std::optional<int64_t> OffsetIndex::Translate(int64_t upstream) const {
  if (runs_.empty() || upstream < runs_.front().upstream) return std::nullopt;
  auto next =
      std::upper_bound(runs_.begin(), runs_.end(), upstream,
                       [](int64_t offset, const OffsetRun& run) { return offset < run.upstream; });
  const OffsetRun& run = *std::prev(next);
  if (upstream < run.upstream_end()) return run.downstream + (upstream - run.upstream);
  if (next != runs_.end()) return next->downstream;  // in a gap: the next record copied
  if (upstream == run.upstream_end()) return run.downstream_end();  // caught up
  return std::nullopt;                                              // not copied yet
}

void OffsetIndex::TrimBefore(int64_t upstream) {
  while (!runs_.empty() && runs_.front().upstream_end() <= upstream) runs_.pop_front();
}

}  // namespace connectd::mirror
