#include "runtime/metrics/process_metrics.h"

#include <dirent.h>
#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace connectd::metrics {
namespace {

double CountDirEntries(const char* path) {
  DIR* dir = opendir(path);
  if (dir == nullptr) return 0;
  double count = 0;
  while (dirent* entry = readdir(dir)) {
    if (entry->d_name[0] != '.') ++count;
  }
  closedir(dir);
  return count - 1;  // the descriptor opendir itself holds
}

// Seconds since the epoch at which the system booted (/proc/stat btime).
double BootTime() {
  std::ifstream stat("/proc/stat");
  std::string key;
  double value = 0;
  while (stat >> key) {
    if (key == "btime") {
      stat >> value;
      return value;
    }
    stat.ignore(1 << 20, '\n');
  }
  return 0;
}

}  // namespace

ProcessFigures ReadProcessFigures() {
  ProcessFigures f;
  const double page = static_cast<double>(sysconf(_SC_PAGESIZE));
  const double ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
  // /proc/self/stat: fields after the command (which may hold spaces) end with ')'.
  std::ifstream stat_file("/proc/self/stat");
  std::string stat((std::istreambuf_iterator<char>(stat_file)), std::istreambuf_iterator<char>());
  if (size_t close = stat.rfind(')'); close != std::string::npos) {
    std::istringstream fields(stat.substr(close + 2));
    std::vector<std::string> v;
    for (std::string field; fields >> field;) v.push_back(field);
    // v[0] is field 3 (state): utime 14, stime 15, num_threads 20, starttime 22, vsize 23, rss 24.
    auto at = [&](size_t field) { return field - 3 < v.size() ? std::stod(v[field - 3]) : 0.0; };
    if (v.size() >= 22) {
      f.cpu_seconds = (at(14) + at(15)) / ticks;
      f.threads = at(20);
      f.start_time_seconds = BootTime() + at(22) / ticks;
      f.virtual_bytes = at(23);
      f.resident_bytes = at(24) * page;
    }
  }
  f.open_fds = CountDirEntries("/proc/self/fd");
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0) f.max_fds = static_cast<double>(limit.rlim_cur);
  const struct mallinfo2 heap = mallinfo2();
  f.heap_in_use_bytes = static_cast<double>(heap.uordblks + heap.hblkhd);
  f.heap_free_bytes = static_cast<double>(heap.fordblks);
  return f;
}

std::string ProcessMetricsText(const ProcessFigures& f) {
  struct Row {
    const char* name;
    const char* type;
    const char* help;
    double value;
  };
  const Row rows[] = {
      {"process_cpu_seconds_total", "counter", "Total user and system CPU time in seconds.",
       f.cpu_seconds},
      {"process_open_fds", "gauge", "Number of open file descriptors.", f.open_fds},
      {"process_max_fds", "gauge", "Maximum number of open file descriptors.", f.max_fds},
      {"process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.", f.virtual_bytes},
      {"process_resident_memory_bytes", "gauge", "Resident memory size in bytes.",
       f.resident_bytes},
      {"process_start_time_seconds", "gauge",
       "Start time of the process since unix epoch in seconds.", f.start_time_seconds},
      {"process_threads", "gauge", "Number of OS threads in the process.", f.threads},
      {"connectd_process_heap_in_use_bytes", "gauge",
       "Heap memory allocated and not freed (glibc mallinfo2 uordblks + hblkhd).",
       f.heap_in_use_bytes},
      {"connectd_process_heap_free_bytes", "gauge",
       "Heap memory freed but kept by the allocator for reuse (glibc mallinfo2 fordblks).",
       f.heap_free_bytes},
  };
  std::string out;
  char value[64];
  for (const Row& row : rows) {
    std::snprintf(value, sizeof(value), "%.17g", row.value);
    out += std::string("# HELP ") + row.name + " " + row.help + "\n# TYPE " + row.name + " " +
           row.type + "\n" + row.name + " " + value + "\n";
  }
  return out;
}

}  // namespace connectd::metrics
