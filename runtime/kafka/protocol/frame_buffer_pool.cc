#include "runtime/kafka/protocol/frame_buffer_pool.h"

#include <bit>
#include <utility>
#include <vector>

namespace connectd::kafka::protocol {

FrameBufferPool::FrameBufferPool(size_t max_cached_bytes, size_t min_pooled_bytes)
    : max_cached_bytes_(max_cached_bytes), min_pooled_bytes_(min_pooled_bytes) {}

size_t FrameBufferPool::RoundUp(size_t size) {
  if (size <= 4) return size;
  const size_t quarter = std::bit_floor(size) / 4;
  return (size + quarter - 1) / quarter * quarter;
}

std::shared_ptr<char[]> FrameBufferPool::Get(size_t size) {
  if (size < min_pooled_bytes_) return std::shared_ptr<char[]>(new char[size]);
  std::unique_ptr<char[]> buffer;
  size_t capacity = 0;
  {
    std::lock_guard lock(mu_);
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
  std::weak_ptr<FrameBufferPool> pool = weak_from_this();
  return std::shared_ptr<char[]>(buffer.release(), [pool, capacity](char* p) {
    if (std::shared_ptr<FrameBufferPool> alive = pool.lock()) return alive->Release(p, capacity);
    delete[] p;
  });
}

void FrameBufferPool::Release(char* buffer, size_t capacity) {
  std::unique_ptr<char[]> owned(buffer);
  std::vector<std::unique_ptr<char[]>> evicted;  // freed outside the lock
  std::lock_guard lock(mu_);
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

size_t FrameBufferPool::cached_bytes() const {
  std::lock_guard lock(mu_);
  return cached_bytes_;
}

}  // namespace connectd::kafka::protocol
