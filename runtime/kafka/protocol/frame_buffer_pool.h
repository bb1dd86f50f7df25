// File: frame_buffer_pool.h
//
// Recycled memory for large response frames. A replicator reads its data as Fetch responses of
// megabytes, several a second; freshly allocated, each one's pages are faulted in and zeroed by
// the kernel while the socket is read into them, and given back when it is freed — in
// pass-through that was a third of the copier's CPU. A pool keeps freed buffers (up to a byte
// limit) and hands them out again, so their pages stay mapped.
//
//   auto pool = std::make_shared<FrameBufferPool>(32 << 20);
//   std::shared_ptr<char[]> buffer = pool->Get(size);  // back in the pool when the last
//                                                      // reference goes, if it fits the limit
//
// Buffers are rounded up to a quarter step of a power of two (at most a quarter wasted), a
// request takes the smallest cached buffer that holds it, and over the limit the smallest cached
// buffers are freed first. Buffers outlive the pool safely (freed then).
//
// Thread-safety: Get() and the buffers' release on any thread.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>

namespace connectd::kafka::protocol {

class FrameBufferPool : public std::enable_shared_from_this<FrameBufferPool> {
 public:
  // Keeps at most `max_cached_bytes` of free buffers; frames below `min_pooled_bytes` are
  // allocated as usual (malloc serves small ones from memory already mapped).
  explicit FrameBufferPool(size_t max_cached_bytes, size_t min_pooled_bytes = 64 << 10);

  // At least `size` bytes, uninitialised. REQUIRES: the pool is owned by a shared_ptr.
  std::shared_ptr<char[]> Get(size_t size);

  size_t cached_bytes() const;

  // The capacity a request of `size` gets when nothing cached holds it.
  static size_t RoundUp(size_t size);

 private:
  void Release(char* buffer, size_t capacity);

  const size_t max_cached_bytes_;
  const size_t min_pooled_bytes_;
  mutable std::mutex mu_;
  std::multimap<size_t, std::unique_ptr<char[]>> free_;  // by capacity; guarded by mu_
  size_t cached_bytes_ = 0;                              // guarded by mu_
};

}  // namespace connectd::kafka::protocol
