#include "runtime/worker/backing_store_offsets.h"

#include <future>

#include "absl/strings/str_cat.h"
#include "runtime/common/logging.h"
#include "runtime/storage/offset_codec.h"

namespace connectd::worker {

absl::StatusOr<std::optional<std::string>> BackingStoreOffsets::Offset(
    std::string_view partition_json) {
  absl::StatusOr<std::optional<std::string>> value = store_.FindOffset(connector_, partition_json);
  if (!value.ok()) return value.status();
  if (!value->has_value()) return std::nullopt;
  absl::StatusOr<std::string> offset = storage::ParseOffsetValue(**value);
  if (!offset.ok()) return std::optional<std::string>();  // Java skips a value it cannot read
  return std::optional<std::string>(*std::move(offset));
}

absl::Status BackingStoreOffsets::Write(
    const std::map<std::string, std::optional<std::string>>& offsets,
    std::chrono::milliseconds timeout) {
  storage::OffsetWrites writes;
  for (const auto& [partition, offset] : offsets) {
    absl::StatusOr<std::string> key = storage::SerializeOffsetKey(connector_, partition);
    if (!key.ok()) return key.status();
    std::optional<std::string_view> offset_view;
    if (offset) offset_view = *offset;
    absl::StatusOr<std::optional<std::string>> value = storage::SerializeOffsetValue(offset_view);
    if (!value.ok()) return value.status();
    writes[*std::move(key)] = *std::move(value);
  }
  auto done = std::make_shared<std::promise<absl::Status>>();
  std::future<absl::Status> result = done->get_future();
  store_.Set(std::move(writes),
             [done](absl::Status status) { done->set_value(std::move(status)); });
  if (result.wait_for(timeout) != std::future_status::ready) {
    return absl::DeadlineExceededError(
        absl::StrCat("Timed out waiting ", timeout.count(), " ms for offsets to be written"));
  }
  return result.get();
}

absl::StatusOr<std::map<std::string, std::string>> BackingStoreOffsets::All() {
  std::map<std::string, std::string> out;
  for (const std::string& partition : store_.ConnectorPartitions(connector_)) {
    absl::StatusOr<std::optional<std::string>> offset = Offset(partition);
    if (!offset.ok()) return offset.status();
    if (offset->has_value()) out[partition] = **offset;
  }
  return out;
}

}  // namespace connectd::worker
