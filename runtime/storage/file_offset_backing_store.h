// File: file_offset_backing_store.h
//
// FileOffsetBackingStore: standalone mode's OffsetBackingStore, persisting every entry to
// `offset.storage.file.filename` in the format Java Connect's FileOffsetBackingStore uses (a
// Java-serialized java.util.HashMap<byte[],byte[]>, tombstones kept as null values; see
// java_serialization.h), so a standalone worker can move between Java and connectd with its
// offsets.
//
// Design. Data lives in a MemoryOffsetBackingStore; Set applies the writes there at once (so
// Get/FindOffset see them immediately) and wakes a writer thread. The writer saves the whole map
// like Java does on every set, but off the caller's thread and coalescing: one save covers every
// Set made before it took its snapshot (group commit). A save writes `<file>.tmp`, fsyncs it,
// renames it over the file and fsyncs the directory, so a crash leaves the old or the new file,
// never a torn one (Java truncates and rewrites in place). Callbacks run on the writer thread,
// after the save that covers them: with OK once durable, else with the write error (the data
// stays in memory and the next Set saves it again).
//
// Differences from Java: a file that is not a valid stream fails Start with kDataLoss (Java
// silently starts empty on a truncated file, losing every offset); a null key in a Java file is
// skipped (Connect never writes one).
//
// Lifecycle: Start() once (loads the file; a missing file is an empty store), Stop() waits for
// pending saves. Thread safety: every method may be called from any thread, but not Stop() from
// a Set callback.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <thread>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "runtime/storage/memory_offset_backing_store.h"
#include "runtime/storage/offset_backing_store.h"

namespace connectd::storage {

class FileOffsetBackingStore final : public OffsetBackingStore {
 public:
  // `filename`: the offset.storage.file.filename of the worker config.
  explicit FileOffsetBackingStore(std::string filename);
  ~FileOffsetBackingStore() override;

  // Errors: kDataLoss (naming the file) for an unreadable file, absl::ErrnoToStatus codes for
  // I/O failures, kFailedPrecondition if already started.
  [[nodiscard]] absl::Status Start() override;
  void Stop() override;
  [[nodiscard]] absl::StatusOr<std::map<std::string, std::string>> Get(
      const std::vector<std::string>& keys) override;
  void Set(OffsetWrites values, SetCallback callback) override;
  std::vector<std::string> ConnectorPartitions(std::string_view connector) override;
  [[nodiscard]] absl::StatusOr<std::optional<std::string>> FindOffset(
      std::string_view connector, std::string_view partition_json) override;

  const std::string& filename() const { return filename_; }

 private:
  enum class State { kNew, kRunning, kStopped };

  void WriterLoop();
  bool HasWork() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::Status Save(const OffsetWrites& snapshot) const;

  // Constant after construction.
  const std::string filename_;

  // Thread-safe on its own; written only under mu_ so snapshots match sequence numbers.
  MemoryOffsetBackingStore memory_;

  mutable absl::Mutex mu_;
  State state_ ABSL_GUARDED_BY(mu_) = State::kNew;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  uint64_t next_seq_ ABSL_GUARDED_BY(mu_) = 0;   // sequence number of the last Set
  uint64_t saved_seq_ ABSL_GUARDED_BY(mu_) = 0;  // last Set covered by a finished save
  std::deque<std::pair<uint64_t, SetCallback>> waiting_ ABSL_GUARDED_BY(mu_);
  std::thread writer_;  // started by Start, joined by Stop
};

}  // namespace connectd::storage
