// FrameBufferPool (runtime/kafka/protocol/frame_buffer_pool.h): a freed buffer is handed out
// again (the same memory) to a request it holds, up to the byte limit; small requests and
// buffers that outlive their pool are plain allocations.
#include "runtime/kafka/protocol/frame_buffer_pool.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>

namespace connectd::kafka::protocol {
namespace {

TEST(FrameBufferPoolTest, RoundsUpToAQuarterOfAPowerOfTwo) {
  EXPECT_EQ(FrameBufferPool::RoundUp(1 << 20), size_t{1} << 20);
  EXPECT_EQ(FrameBufferPool::RoundUp((1 << 20) + 1), size_t{5} << 18);
  EXPECT_EQ(FrameBufferPool::RoundUp(6'000'000), size_t{6} << 20);  // 4 MiB + 2 quarters
  EXPECT_EQ(FrameBufferPool::RoundUp(100'000), size_t{112} << 10);
  for (size_t size = 65536; size < (size_t{64} << 20); size = size * 3 / 2 + 7) {
    const size_t rounded = FrameBufferPool::RoundUp(size);
    EXPECT_GE(rounded, size);
    EXPECT_LE(rounded, size + size / 4) << size;
  }
}

TEST(FrameBufferPoolTest, AFreedBufferIsHandedOutAgain) {
  auto pool = std::make_shared<FrameBufferPool>(8 << 20);
  std::shared_ptr<char[]> first = pool->Get(3'000'000);
  char* memory = first.get();
  std::memset(memory, 'x', 3'000'000);
  EXPECT_EQ(pool->cached_bytes(), 0u);
  first.reset();
  EXPECT_EQ(pool->cached_bytes(), FrameBufferPool::RoundUp(3'000'000));
  // A smaller request fits it; the same pages come back.
  std::shared_ptr<char[]> second = pool->Get(2'500'000);
  EXPECT_EQ(second.get(), memory);
  EXPECT_EQ(pool->cached_bytes(), 0u);
  // A larger one does not: new memory.
  second.reset();
  std::shared_ptr<char[]> larger = pool->Get(4'000'000);
  EXPECT_NE(larger.get(), memory);
  EXPECT_EQ(pool->cached_bytes(), FrameBufferPool::RoundUp(3'000'000));
}

TEST(FrameBufferPoolTest, KeepsNoMoreThanItsLimitAndSmallFramesAreNotPooled) {
  auto pool = std::make_shared<FrameBufferPool>(5 << 20, 64 << 10);
  std::shared_ptr<char[]> a = pool->Get(3 << 20);
  std::shared_ptr<char[]> b = pool->Get(3 << 20);
  const char* b_memory = b.get();
  std::shared_ptr<char[]> c = pool->Get(1 << 20);
  c.reset();
  EXPECT_EQ(pool->cached_bytes(), size_t{1} << 20);
  a.reset();  // 4 MiB cached
  b.reset();  // 7 MiB would exceed 5: the smallest go first (the 1 MiB, then a 3 MiB)
  EXPECT_EQ(pool->cached_bytes(), size_t{3} << 20);
  EXPECT_EQ(pool->Get(1 << 20).get(), b_memory) << "a large buffer serves a small request";
  std::shared_ptr<char[]> small = pool->Get(1000);
  small.reset();
  EXPECT_EQ(pool->cached_bytes(), size_t{3} << 20);
}

TEST(FrameBufferPoolTest, ABufferMayOutliveItsPool) {
  auto pool = std::make_shared<FrameBufferPool>(8 << 20);
  std::shared_ptr<char[]> buffer = pool->Get(1 << 20);
  std::weak_ptr<FrameBufferPool> gone = pool;
  pool.reset();
  EXPECT_TRUE(gone.expired());
  std::memset(buffer.get(), 'y', 1 << 20);  // still the buffer's own memory
  EXPECT_EQ(buffer[(1 << 20) - 1], 'y');
  buffer.reset();  // freed, not returned (ASan checks the memory)
}

TEST(FrameBufferPoolTest, ABoundedPoolGrantsWhatFitsAndWaitsBeyond) {
  auto pool = std::make_shared<FrameBufferPool>(8 << 20, 64 << 10, /*max_held_bytes=*/10 << 20);
  int me = 0;
  EXPECT_EQ(pool->Reserve(&me, 6 << 20, 1 << 20), size_t{6} << 20);
  // 4 MiB left: granted in part, as long as the least asked for fits.
  EXPECT_EQ(pool->Reserve(&me, 6 << 20, 1 << 20), size_t{4} << 20);
  EXPECT_EQ(pool->Reserve(&me, 6 << 20, 1 << 20), 0u) << "full: the fetch waits";
  pool->Forget(&me);
  EXPECT_EQ(pool->held_bytes(), size_t{10} << 20);
  // A response arrives: its buffer is held, then its reservation goes.
  std::shared_ptr<char[]> response = pool->Get(3 << 20);
  pool->Unreserve(6 << 20);
  EXPECT_EQ(pool->held_bytes(), (size_t{4} << 20) + FrameBufferPool::RoundUp(3 << 20));
  std::shared_ptr<char[]> small = pool->Get(1000);  // not pooled, still held
  EXPECT_EQ(pool->held_bytes(), (size_t{4} << 20) + FrameBufferPool::RoundUp(3 << 20) + 1000);
  small.reset();
  response.reset();  // acknowledged: back in the cache, no longer held
  pool->Unreserve(4 << 20);
  EXPECT_EQ(pool->held_bytes(), 0u);
  EXPECT_EQ(pool->Reserve(&me, 20 << 20, 1 << 20), size_t{10} << 20);
}

// A copier that was refused is served before one that asks later (no starvation, issue 49:
// four copiers of 50 MiB fetches on a 128 MiB bound left one of them without a fetch).
TEST(FrameBufferPoolTest, ARefusedCallerIsServedFirst) {
  auto pool = std::make_shared<FrameBufferPool>(8 << 20, 64 << 10, /*max_held_bytes=*/4 << 20);
  int busy = 0, waiting = 0, gone = 0;
  ASSERT_EQ(pool->Reserve(&busy, 3 << 20, 1 << 20), size_t{3} << 20);
  EXPECT_EQ(pool->Reserve(&waiting, 2 << 20, 2 << 20), 0u);  // 1 MiB free: refused, queued
  pool->Unreserve(3 << 20);
  EXPECT_EQ(pool->Reserve(&busy, 3 << 20, 1 << 20), 0u) << "the waiting caller comes first";
  EXPECT_EQ(pool->Reserve(&waiting, 2 << 20, 2 << 20), size_t{2} << 20);
  EXPECT_EQ(pool->Reserve(&busy, 3 << 20, 1 << 20), size_t{2} << 20);
  pool->Unreserve(4 << 20);
  // A caller that stops while queued does not block the others.
  ASSERT_EQ(pool->Reserve(&busy, 4 << 20, 1 << 20), size_t{4} << 20);
  EXPECT_EQ(pool->Reserve(&gone, 1 << 20, 1 << 20), 0u);
  pool->Forget(&gone);
  pool->Unreserve(4 << 20);
  EXPECT_EQ(pool->Reserve(&waiting, 1 << 20, 1 << 20), size_t{1} << 20);
  // A bound smaller than the least asked for is granted whole.
  auto tiny = std::make_shared<FrameBufferPool>(0, 64 << 10, /*max_held_bytes=*/1 << 20);
  EXPECT_EQ(tiny->Reserve(&busy, 2 << 20, 2 << 20), size_t{1} << 20);
}

TEST(FrameBufferPoolTest, AnUnboundedPoolGrantsEverything) {
  auto pool = std::make_shared<FrameBufferPool>(8 << 20);
  int me = 0;
  EXPECT_EQ(pool->Reserve(&me, size_t{1} << 33, 1), size_t{1} << 33);
  pool->Unreserve(size_t{1} << 33);
  EXPECT_EQ(pool->held_bytes(), 0u);
}

}  // namespace
}  // namespace connectd::kafka::protocol
