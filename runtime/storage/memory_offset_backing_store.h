// File: memory_offset_backing_store.h
//
// MemoryOffsetBackingStore: an OffsetBackingStore that keeps everything in memory and persists
// nothing, like Connect's MemoryOffsetBackingStore. It is the fake for tests of offset users, and
// FileOffsetBackingStore keeps its data in one.
//
// Set applies the writes and runs the callback (with OK) on the calling thread before returning.
// Thread safety: every method may be called from any thread.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "runtime/storage/offset_backing_store.h"
#include "runtime/storage/offset_codec.h"

namespace connectd::storage {

class MemoryOffsetBackingStore final : public OffsetBackingStore {
 public:
  MemoryOffsetBackingStore() = default;
  ~MemoryOffsetBackingStore() override = default;

  [[nodiscard]] absl::Status Start() override;
  void Stop() override;
  [[nodiscard]] absl::StatusOr<std::map<std::string, std::string>> Get(
      const std::vector<std::string>& keys) override;
  void Set(OffsetWrites values, SetCallback callback) override;
  std::vector<std::string> ConnectorPartitions(std::string_view connector) override;
  [[nodiscard]] absl::StatusOr<std::optional<std::string>> FindOffset(
      std::string_view connector, std::string_view partition_json) override;

  // Snapshot returns every stored key, tombstones (nullopt) included, ordered by key bytes.
  OffsetWrites Snapshot() const;

 private:
  mutable absl::Mutex mu_;
  bool started_ ABSL_GUARDED_BY(mu_) = false;
  OffsetWrites data_ ABSL_GUARDED_BY(mu_);
  OffsetLookupIndex index_ ABSL_GUARDED_BY(mu_);
};

}  // namespace connectd::storage
