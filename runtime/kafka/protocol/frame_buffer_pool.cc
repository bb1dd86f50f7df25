#include "runtime/kafka/protocol/frame_buffer_pool.h"

#include <algorithm>
#include <bit>
#include <utility>
#include <vector>

namespace connectd::kafka::protocol {

FrameBufferPool::FrameBufferPool(size_t max_cached_bytes, size_t min_pooled_bytes,
                                 size_t max_held_bytes)
    : max_cached_bytes_(max_cached_bytes),
      min_pooled_bytes_(min_pooled_bytes),
      max_held_bytes_(max_held_bytes) {}

size_t FrameBufferPool::RoundUp(size_t size) {
  if (size <= 4) return size;
  const size_t quarter = std::bit_floor(size) / 4;
  return (size + quarter - 1) / quarter * quarter;
}

std::shared_ptr<char[]> FrameBufferPool::Get(size_t size) {
  std::weak_ptr<FrameBufferPool> pool = weak_from_this();
  if (size < min_pooled_bytes_) {
    {
      absl::MutexLock lock(&mu_);
      held_bytes_ += size;
    }
    return std::shared_ptr<char[]>(new char[size], [pool, size](char* p) {
      delete[] p;
      if (std::shared_ptr<FrameBufferPool> alive = pool.lock()) alive->Unhold(size);
    });
  }
  std::unique_ptr<char[]> buffer;
  size_t capacity = 0;
  {
    absl::MutexLock lock(&mu_);
    if (auto it = free_.lower_bound(size); it != free_.end()) {
      capacity = it->first;
      buffer = std::move(it->second);
      free_.erase(it);
      cached_bytes_ -= capacity;
    }
  }
  if (buffer == nullptr) {
    capacity = RoundUp(size);
    buffer.reset(new char[capacity]);
  }
  {
    absl::MutexLock lock(&mu_);
    held_bytes_ += capacity;
  }
  return std::shared_ptr<char[]>(buffer.release(), [pool, capacity](char* p) {
    if (std::shared_ptr<FrameBufferPool> alive = pool.lock()) return alive->Release(p, capacity);
    delete[] p;
  });
}

void FrameBufferPool::Release(char* buffer, size_t capacity) {
  std::unique_ptr<char[]> owned(buffer);
  std::vector<std::unique_ptr<char[]>> evicted;  // freed outside the lock
  absl::MutexLock lock(&mu_);
  held_bytes_ -= capacity;
  if (capacity > max_cached_bytes_) return;  // freed
  cached_bytes_ += capacity;
  free_.emplace(capacity, std::move(owned));
  // Over the limit, the smallest go: a large buffer holds the next request of any size.
  while (cached_bytes_ > max_cached_bytes_) {
    cached_bytes_ -= free_.begin()->first;
    evicted.push_back(std::move(free_.begin()->second));
    free_.erase(free_.begin());
  }
}

void FrameBufferPool::Unhold(size_t capacity) {
  absl::MutexLock lock(&mu_);
  held_bytes_ -= capacity;
}

size_t FrameBufferPool::Reserve(const void* who, size_t wanted, size_t at_least) {
  absl::MutexLock lock(&mu_);
  if (max_held_bytes_ == 0) {
    held_bytes_ += wanted;
    return wanted;
  }
  const auto now = std::chrono::steady_clock::now();
  // A waiter that stopped asking (it has nothing to fetch now) does not hold the others.
  while (!waiters_.empty() && waiters_.front().who != who &&
         now - waiters_.front().asked > kWaiterPatience) {
    waiters_.pop_front();
  }
  auto queued = std::find_if(waiters_.begin(), waiters_.end(),
                             [who](const Waiter& w) { return w.who == who; });
  const size_t free = held_bytes_ < max_held_bytes_ ? max_held_bytes_ - held_bytes_ : 0;
  const size_t granted = std::min(wanted, free);
  const bool my_turn = waiters_.empty() || waiters_.front().who == who;
  if (!my_turn || granted == 0 || granted < std::min(at_least, max_held_bytes_)) {
    if (queued == waiters_.end()) {
      waiters_.push_back({who, now});
    } else {
      queued->asked = now;
    }
    return 0;
  }
  if (queued != waiters_.end()) waiters_.erase(queued);
  held_bytes_ += granted;
  return granted;
}

void FrameBufferPool::Forget(const void* who) {
  absl::MutexLock lock(&mu_);
  waiters_.erase(std::remove_if(waiters_.begin(), waiters_.end(),
                                [who](const Waiter& w) { return w.who == who; }),
                 waiters_.end());
}

void FrameBufferPool::Unreserve(size_t bytes) { Unhold(bytes); }

size_t FrameBufferPool::held_bytes() const {
  absl::MutexLock lock(&mu_);
  return held_bytes_;
}

size_t FrameBufferPool::cached_bytes() const {
  absl::MutexLock lock(&mu_);
  return cached_bytes_;
}

}  // namespace connectd::kafka::protocol
