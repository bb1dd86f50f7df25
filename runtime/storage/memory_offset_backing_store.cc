#include "runtime/storage/memory_offset_backing_store.h"

#include <utility>

namespace connectd::storage {
namespace {

absl::Status NotStarted() {
  return absl::FailedPreconditionError("the offset backing store is not started");
}

}  // namespace

absl::Status MemoryOffsetBackingStore::Start() {
  absl::MutexLock lock(&mu_);
  started_ = true;
  return absl::OkStatus();
}

void MemoryOffsetBackingStore::Stop() {
  absl::MutexLock lock(&mu_);
  started_ = false;
}

absl::StatusOr<std::map<std::string, std::string>> MemoryOffsetBackingStore::Get(
    const std::vector<std::string>& keys) {
  absl::MutexLock lock(&mu_);
  if (!started_) return NotStarted();
  std::map<std::string, std::string> result;
  for (const std::string& key : keys) {
    auto it = data_.find(key);
    if (it != data_.end() && it->second.has_value()) result.emplace(key, *it->second);
  }
  return result;
}

void MemoryOffsetBackingStore::Set(OffsetWrites values, SetCallback callback) {
  absl::Status status;
  {
    absl::MutexLock lock(&mu_);
    if (!started_) {
      status = NotStarted();
    } else {
      for (auto& [key, value] : values) {
        // Keys that are not ["<connector>",{...}] are stored but not tracked, as in Connect.
        index_.Apply(key, value ? std::optional<std::string_view>(*value) : std::nullopt);
        data_.insert_or_assign(key, std::move(value));
      }
    }
  }
  if (callback) callback(status);
}

std::vector<std::string> MemoryOffsetBackingStore::ConnectorPartitions(std::string_view connector) {
  absl::MutexLock lock(&mu_);
  return index_.Partitions(connector);
}

absl::StatusOr<std::optional<std::string>> MemoryOffsetBackingStore::FindOffset(
    std::string_view connector, std::string_view partition_json) {
  absl::MutexLock lock(&mu_);
  if (!started_) return NotStarted();
  return index_.Find(connector, partition_json);
}

OffsetWrites MemoryOffsetBackingStore::Snapshot() const {
  absl::MutexLock lock(&mu_);
  return data_;
}

}  // namespace connectd::storage
