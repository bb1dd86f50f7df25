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
// A pool may also bound what its users hold (issue 49: a worker's pass-through memory): the
// buffers handed out and not yet released, plus the reservations made for responses still to
// come, stay within `max_held_bytes`. A reader reserves the most a response may take before it
// asks for one (Reserve), and gives the reservation back once the response's buffer is its own
// (Unreserve); a request that cannot reserve waits.
//
// Thread-safety: every member function and the buffers' release on any thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <map>
#include <memory>
#include <mutex>

#include "absl/synchronization/mutex.h"

namespace connectd::kafka::protocol {

class FrameBufferPool : public std::enable_shared_from_this<FrameBufferPool> {
 public:
  // Keeps at most `max_cached_bytes` of free buffers; frames below `min_pooled_bytes` are
  // allocated as usual (malloc serves small ones from memory already mapped).
  // `max_held_bytes` bounds held_bytes() (0: no bound).
  explicit FrameBufferPool(size_t max_cached_bytes, size_t min_pooled_bytes = 64 << 10,
                           size_t max_held_bytes = 0);

  // At least `size` bytes, uninitialised; held until its last reference goes. Never refused
  // (the bound is kept by Reserve). REQUIRES: the pool is owned by a shared_ptr.
  std::shared_ptr<char[]> Get(size_t size);

  // Reserves up to `wanted` bytes of the bound for `who` (any address that names the caller):
  // the bytes granted, at least `at_least` (or the whole bound, if smaller), or 0 when fewer
  // are free (nothing reserved). Callers refused are served first come, first served: while
  // one waits, no later caller is granted anything, so a busy caller cannot starve another. A
  // waiting caller asks again at least every kWaiterPatience or loses its place.
  // Without a bound, `wanted`.
  size_t Reserve(const void* who, size_t wanted, size_t at_least);
  // Gives back `bytes` of an earlier Reserve.
  void Unreserve(size_t bytes);
  // `who` waits no more (it stops): callers behind it move up.
  void Forget(const void* who);

  static constexpr std::chrono::milliseconds kWaiterPatience{1000};

  size_t cached_bytes() const;
  // Buffers handed out and not released (their capacities) plus reservations.
  size_t held_bytes() const;
  size_t max_held_bytes() const { return max_held_bytes_; }

  // The capacity a request of `size` gets when nothing cached holds it.
  static size_t RoundUp(size_t size);

 private:
  void Release(char* buffer, size_t capacity);
  void Unhold(size_t capacity);

  const size_t max_cached_bytes_;
  const size_t min_pooled_bytes_;
  const size_t max_held_bytes_;
  // Between the threads that take, release and reserve buffers (clang's -Wthread-safety checks
  // it: scripts/check-thread-safety).
  mutable absl::Mutex mu_;
  size_t held_bytes_ ABSL_GUARDED_BY(mu_) = 0;
  struct Waiter {
    const void* who;
    std::chrono::steady_clock::time_point asked;
  };
  std::deque<Waiter> waiters_ ABSL_GUARDED_BY(mu_);  // refused callers, first come first
  std::multimap<size_t, std::unique_ptr<char[]>> free_ ABSL_GUARDED_BY(mu_);  // by capacity
  size_t cached_bytes_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace connectd::kafka::protocol
