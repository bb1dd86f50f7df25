// File: backing_store_offsets.h
//
// BackingStoreOffsets: a connector's view of the process's OffsetBackingStore, serializing keys
// and values exactly as Connect does (["<connector>",{partition}] -> {offset}), so offsets
// written by a Java worker are found and the reverse. Partition JSON keeps the key order the
// plugin gave (Connect keeps its Map's order); lookups match any key order.
//
// Thread safety: as the backing store (any thread).
#pragma once

#include <string>

#include "runtime/storage/offset_backing_store.h"
#include "runtime/worker/source_offsets.h"

namespace connectd::worker {

class BackingStoreOffsets : public ConnectorOffsetStore {
 public:
  BackingStoreOffsets(storage::OffsetBackingStore& store, std::string connector)
      : store_(store), connector_(std::move(connector)) {}

  absl::StatusOr<std::optional<std::string>> Offset(std::string_view partition_json) override;
  absl::Status Write(const std::map<std::string, std::optional<std::string>>& offsets,
                     std::chrono::milliseconds timeout) override;
  absl::StatusOr<std::map<std::string, std::string>> All() override;

 private:
  storage::OffsetBackingStore& store_;
  const std::string connector_;
};

}  // namespace connectd::worker
