// The process figures /metrics serves: they follow what the process does (a thread, a
// descriptor, a large allocation), and the text is the Prometheus form scrapers expect.
#include "runtime/metrics/process_metrics.h"

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <future>
#include <memory>
#include <thread>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace connectd::metrics {
namespace {

using ::testing::HasSubstr;

// Under ASan or TSan the sanitizer's allocator serves malloc and glibc's mallinfo2 sees nothing
// (the heap figures read 0), and TSan starts a background thread of its own.
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
constexpr bool kGlibcAllocator = false;
#else
constexpr bool kGlibcAllocator = true;
#endif

TEST(ProcessMetricsTest, FiguresFollowThreadsDescriptorsAndHeap) {
  const ProcessFigures before = ReadProcessFigures();
  EXPECT_GT(before.resident_bytes, 1 << 20);
  EXPECT_GE(before.virtual_bytes, before.resident_bytes);
  EXPECT_GT(before.max_fds, 0);
  EXPECT_GE(before.cpu_seconds, 0);
  const double now = static_cast<double>(std::time(nullptr));
  EXPECT_LE(before.start_time_seconds, now + 1);
  EXPECT_GT(before.start_time_seconds, now - 3600);

  int fd = open("/dev/null", O_RDONLY);
  ASSERT_GE(fd, 0);
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::thread thread([released] { released.wait(); });
  auto big = std::make_unique<char[]>(64 << 20);  // mmap'd by glibc: counted in use at once
  big[0] = 1;

  const ProcessFigures during = ReadProcessFigures();
  EXPECT_EQ(during.open_fds, before.open_fds + 1);
  if (kGlibcAllocator) {
    EXPECT_EQ(during.threads, before.threads + 1);
    EXPECT_GE(during.heap_in_use_bytes, before.heap_in_use_bytes + (64 << 20));
  } else {
    EXPECT_GE(during.threads, before.threads + 1);
  }

  big.reset();
  release.set_value();
  thread.join();
  close(fd);
  const ProcessFigures after = ReadProcessFigures();
  EXPECT_EQ(after.open_fds, before.open_fds);
  if (kGlibcAllocator) {
    EXPECT_LT(after.heap_in_use_bytes, during.heap_in_use_bytes - (32 << 20));
  }
}

TEST(ProcessMetricsTest, TextHasOneTypedSamplePerFigure) {
  ProcessFigures f;
  f.resident_bytes = 31.5 * (1 << 20);
  f.open_fds = 42;
  f.heap_in_use_bytes = 1234567;
  const std::string text = ProcessMetricsText(f);
  EXPECT_THAT(text, HasSubstr("# TYPE process_resident_memory_bytes gauge\n"
                              "process_resident_memory_bytes 33030144\n"));
  EXPECT_THAT(text, HasSubstr("# TYPE process_cpu_seconds_total counter\n"));
  EXPECT_THAT(text, HasSubstr("\nprocess_open_fds 42\n"));
  EXPECT_THAT(text, HasSubstr("\nconnectd_process_heap_in_use_bytes 1234567\n"));
}

}  // namespace
}  // namespace connectd::metrics
