#include "runtime/storage/read_stall.h"

#include <algorithm>
#include <cstddef>

namespace connectd::storage {

std::vector<int32_t> ReadStallDetector::Check(const std::vector<int64_t>& next,
                                              const std::vector<int64_t>& end) {
  std::vector<int32_t> stalled;
  const size_t n = std::min(next.size(), end.size());
  const bool comparable = last_next_.size() == n;
  std::vector<bool> behind(n, false);
  for (size_t p = 0; p < n; ++p) {
    behind[p] = next[p] < end[p];
    if (comparable && behind[p] && last_behind_[p] && next[p] == last_next_[p]) {
      stalled.push_back(static_cast<int32_t>(p));
    }
  }
  last_next_.assign(next.begin(), next.begin() + static_cast<std::ptrdiff_t>(n));
  last_behind_ = std::move(behind);
  return stalled;
}

void ReadStallDetector::Reset() {
  last_next_.clear();
  last_behind_.clear();
}

}  // namespace connectd::storage
