// File: offset_backing_store.h
//
// OffsetBackingStore: where a worker keeps source connectors' offsets, as opaque key/value
// bytes (offset_codec.h gives their format), after Connect's interface of the same name plus its
// per-connector partition tracking (OffsetUtils.processPartitionKey). Implementations:
// MemoryOffsetBackingStore (tests), FileOffsetBackingStore (standalone mode,
// offset.storage.file.filename); a Kafka-topic store for distributed mode implements it too.
//
// Semantics shared by every implementation, as in Connect:
//  - Keys are bytes; a write of nullopt (a tombstone) is stored as a key with a null value. Get
//    reports only keys with a value.
//  - Writes are applied in Set order; a Get after Set returns sees the new values.
//  - ConnectorPartitions/FindOffset parse the keys: ["<connector>",{partition}] keys are tracked,
//    anything else is stored but not tracked.
//
// Lifecycle: construct, Start() once, use, Stop() (the destructor stops too). Calls before
// Start or after Stop fail with kFailedPrecondition (Set reports it through its callback).
//
// Thread safety: every method may be called from any thread concurrently.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace connectd::storage {

// Key bytes -> value bytes (nullopt: tombstone), as passed to Set.
using OffsetWrites = std::map<std::string, std::optional<std::string>>;

class OffsetBackingStore {
 public:
  // Invoked exactly once per Set with OK once the writes are durable in the store (for the file
  // store: fsynced and renamed into place), or with the error that prevented it. Each
  // implementation documents the thread it runs on; it must not call Stop().
  using SetCallback = std::function<void(absl::Status)>;

  OffsetBackingStore() = default;
  OffsetBackingStore(const OffsetBackingStore&) = delete;
  OffsetBackingStore& operator=(const OffsetBackingStore&) = delete;
  virtual ~OffsetBackingStore() = default;

  // Start loads existing data. Errors: kDataLoss if stored data is unreadable.
  [[nodiscard]] virtual absl::Status Start() = 0;

  // Stop finishes pending writes (their callbacks run before it returns) and releases
  // resources. Idempotent.
  virtual void Stop() = 0;

  // Get returns the stored value of each of `keys` that has one; missing keys and tombstones are
  // absent from the result.
  [[nodiscard]] virtual absl::StatusOr<std::map<std::string, std::string>> Get(
      const std::vector<std::string>& keys) = 0;

  // Set stores `values` (nullopt: tombstone) and later calls `callback` (may be empty).
  virtual void Set(OffsetWrites values, SetCallback callback) = 0;

  // ConnectorPartitions returns the source partitions of `connector` that have a stored offset,
  // as compact JSON objects in the key order Java shows them (see OffsetLookupIndex::Partitions).
  virtual std::vector<std::string> ConnectorPartitions(std::string_view connector) = 0;

  // FindOffset returns the value bytes last stored for `connector`'s `partition_json` whatever
  // the key order it was written with, or nullopt. kInvalidArgument if `partition_json` is not a
  // flat JSON object.
  [[nodiscard]] virtual absl::StatusOr<std::optional<std::string>> FindOffset(
      std::string_view connector, std::string_view partition_json) = 0;
};

}  // namespace connectd::storage
