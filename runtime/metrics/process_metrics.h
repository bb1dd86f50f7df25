// File: process_metrics.h
//
// The worker process's own figures in Prometheus text, read when /metrics is scraped: the
// standard process collector's names (process_resident_memory_bytes, process_open_fds, ...), so
// the dashboards and alerts teams already have for any process work, and connectd's heap in use
// and retained by the allocator (glibc's mallinfo2), which tell a leak (in use grows) from an
// allocator that keeps freed memory for reuse (RSS grows, in use does not).
//
// Thread safety: any thread.
#pragma once

#include <string>

namespace connectd::metrics {

struct ProcessFigures {
  double resident_bytes = 0;
  double virtual_bytes = 0;
  double open_fds = 0;
  double max_fds = 0;
  double threads = 0;
  double cpu_seconds = 0;
  double start_time_seconds = 0;  // since the Unix epoch
  double heap_in_use_bytes = 0;   // allocated and not freed (small and mmap'd blocks)
  double heap_free_bytes = 0;     // freed, kept by the allocator for reuse
};

// The figures now (zeros where /proc cannot be read).
ProcessFigures ReadProcessFigures();

// The figures as Prometheus text (HELP, TYPE and one sample each).
std::string ProcessMetricsText(const ProcessFigures& figures);

}  // namespace connectd::metrics
