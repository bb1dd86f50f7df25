// Cost per record across the plugin boundary: a no-op source task (tests/plugins NoopSource)
// polled in a loop by the real loader and host wrappers, for copied and zero-copy records,
// against a baseline that builds the same records in-process with no ABI crossing.
//
// Usage: plugin_abi_bench [seconds-per-case=2] [record-size=100] [batch=1000]
// Prints records/s and ns/record per case; measured, never asserted.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/plugin/plugin_instances.h"
#include "runtime/plugin/plugin_registry.h"

namespace {

using Clock = std::chrono::steady_clock;

// A host batch that does what the worker must do per record at minimum: copy the payload into
// its own buffer (copy mode) or keep the view and release it (zero-copy mode), and remember the
// newest offset per partition.
class BenchBatch : public connectd::plugin::SourceBatchHost {
 public:
  connectd_status Append(const connectd_source_record& r) override {
    if (r.release != nullptr) {
      bytes_ += r.value.size;
      r.release(r.release_opaque);
    } else {
      arena_.append(static_cast<const char*>(r.value.data), r.value.size);
    }
    last_offset_.assign(r.source_offset.data, r.source_offset.size);
    ++records_;
    return CONNECTD_STATUS_OK;
  }
  void Reset() { arena_.clear(); }
  long long records_ = 0;
  long long bytes_ = 0;
  std::string arena_;
  std::string last_offset_;
};

class NoContext : public connectd::plugin::SourceTaskContextHost {
  std::optional<std::string> Offset(std::string_view) override { return std::nullopt; }
  connectd::metrics::MetricsScope* Metrics() override { return &scope_; }

 private:
  connectd::metrics::MetricsRegistry registry_;
  connectd::metrics::MetricsScope scope_{&registry_};
};

double RunPlugin(const connectd::plugin::ConnectorPlugin& plugin, bool zero_copy, double seconds,
                 int record_size, int batch_size) {
  NoContext context;
  auto task = connectd::plugin::SourceTaskInstance::Create(plugin, &context);
  if (!task.ok()) {
    std::fprintf(stderr, "%s\n", task.status().ToString().c_str());
    std::exit(1);
  }
  (void)(*task)->Start({{"batch.size", std::to_string(batch_size)},
                        {"record.size", std::to_string(record_size)},
                        {"zero.copy", zero_copy ? "1" : "0"}});
  BenchBatch batch;
  auto start = Clock::now();
  auto deadline = start + std::chrono::duration<double>(seconds);
  while (Clock::now() < deadline) {
    batch.Reset();
    if (!(*task)->Poll(100, &batch).ok()) std::exit(1);
  }
  double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  return static_cast<double>(batch.records_) / elapsed;
}

// The same per-record work with no plugin: format the offset, copy the payload.
double RunBaseline(double seconds, int record_size, int batch_size) {
  std::string payload(static_cast<size_t>(record_size), 'x');
  std::string arena, last_offset;
  long long records = 0, seq = 0;
  char offset[32];
  auto start = Clock::now();
  auto deadline = start + std::chrono::duration<double>(seconds);
  while (Clock::now() < deadline) {
    arena.clear();
    for (int i = 0; i < batch_size; ++i, ++seq, ++records) {
      int n = std::snprintf(offset, sizeof(offset), "{\"o\":%lld}", seq);
      arena.append(payload);
      last_offset.assign(offset, static_cast<size_t>(n));
    }
  }
  double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  return static_cast<double>(records) / elapsed;
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = argc > 1 ? std::atof(argv[1]) : 2.0;
  int record_size = argc > 2 ? std::atoi(argv[2]) : 100;
  int batch_size = argc > 3 ? std::atoi(argv[3]) : 1000;
  connectd::plugin::PluginRegistry registry;
  registry.LoadPluginPath(std::string(CONNECTD_TEST_PLUGIN_DIR) + "/good");
  const auto* plugin = registry.Find("NoopSource");
  if (plugin == nullptr) {
    std::fprintf(stderr, "NoopSource plugin not found under %s\n", CONNECTD_TEST_PLUGIN_DIR);
    return 1;
  }
  double baseline = RunBaseline(seconds, record_size, batch_size);
  double copied = RunPlugin(*plugin, false, seconds, record_size, batch_size);
  double zero_copy = RunPlugin(*plugin, true, seconds, record_size, batch_size);
  std::printf("record size %d B, batch %d, %.1f s per case\n", record_size, batch_size, seconds);
  std::printf("%-28s %14s %12s %10s\n", "case", "records/s", "ns/record", "vs base");
  auto row = [&](const char* name, double rate) {
    std::printf("%-28s %14.0f %12.1f %9.2fx\n", name, rate, 1e9 / rate, rate / baseline);
  };
  row("in-process baseline", baseline);
  row("plugin, copied records", copied);
  row("plugin, zero-copy records", zero_copy);
  return 0;
}
