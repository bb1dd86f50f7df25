// libFuzzer target: config-topic records (runtime/storage/config_records.h) as a worker
// consumes them: key and value bytes through ParseConfigRecord, Java's reading rules on top of
// the JsonConverter reader (connect_json.h).
// Input: key NUL value (no NUL after the key: a tombstone).
// Property: a record that reads with a valid value re-encodes (with the same record type's
// encoder and key function) to a record that reads back to the same key and fields.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "jvm/utf8.h"
#include "runtime/storage/config_records.h"
#include "tests/fuzz/targets/fuzz_check.h"

namespace dist = connectd::storage;
namespace jvm = connectd::jvm;
using dist::ConfigRecordType;

namespace {

// The encoders require valid UTF-8 (their input comes from REST and plugins, which are).
bool AllValidUtf8(const dist::ConfigProperties& properties) {
  for (const auto& [key, value] : properties) {
    if (!jvm::IsValidUtf8(key) || (value && !jvm::IsValidUtf8(*value))) return false;
  }
  return true;
}

void CheckSameKey(const dist::ConfigKey& a, const dist::ConfigKey& b) {
  FUZZ_CHECK(a.type == b.type);
  FUZZ_CHECK(a.name == b.name);
  FUZZ_CHECK(a.task == b.task);
}

// The record read back from `key` -> `value`: it must read and have a valid value.
dist::ConfigRecord ReadBack(const std::string& key, const std::optional<std::string>& value,
                            const dist::ConfigKey& expected_key) {
  absl::StatusOr<dist::ConfigRecord> again = dist::ParseConfigRecord(key, value);
  FUZZ_CHECK(again.ok());
  FUZZ_CHECK(again->value_status.ok());
  CheckSameKey(again->key, expected_key);
  return *std::move(again);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  connectd::fuzz::FuzzInput input(data, size);
  std::string_view key = input.Piece();
  // The value runs to the end of the input (it may hold NULs); none at all is a tombstone.
  std::optional<std::string_view> value;
  if (size > key.size()) value = input.Rest();
  absl::StatusOr<dist::ConfigRecord> record = dist::ParseConfigRecord(key, value);
  if (!record.ok()) {
    FUZZ_CHECK(record.status().code() == absl::StatusCode::kInvalidArgument);
    return 0;
  }
  // Classification is the same through ParseConfigRecord and ParseConfigKey.
  CheckSameKey(record->key, dist::ParseConfigKey(key));
  if (!record->value_status.ok() || record->tombstone) return 0;

  const dist::ConfigKey& k = record->key;
  switch (k.type) {
    case ConfigRecordType::kConnectorConfig:
      if (!AllValidUtf8(record->properties)) break;
      FUZZ_CHECK(ReadBack(dist::ConnectorConfigKey(k.name),
                          dist::EncodeConnectorConfig(record->properties), k)
                     .properties == record->properties);
      break;
    case ConfigRecordType::kTaskConfig:
      if (!AllValidUtf8(record->properties)) break;
      FUZZ_CHECK(ReadBack(dist::TaskConfigKey({k.name, k.task}),
                          dist::EncodeTaskConfig(record->properties), k)
                     .properties == record->properties);
      break;
    case ConfigRecordType::kTasksCommit:
      FUZZ_CHECK(
          ReadBack(dist::CommitTasksKey(k.name), dist::EncodeTasksCommit(record->count), k).count ==
          record->count);
      break;
    case ConfigRecordType::kTaskCountRecord:
      FUZZ_CHECK(
          ReadBack(dist::TaskCountRecordKey(k.name), dist::EncodeTaskCountRecord(record->count), k)
              .count == record->count);
      break;
    case ConfigRecordType::kTargetState:
      FUZZ_CHECK(
          ReadBack(dist::TargetStateKey(k.name), dist::EncodeTargetState(record->target_state), k)
              .target_state == record->target_state);
      break;
    case ConfigRecordType::kRestartRequest: {
      dist::ConfigRecord again =
          ReadBack(dist::RestartKey(k.name), dist::EncodeRestartRequest(record->restart), k);
      FUZZ_CHECK(again.restart.connector == record->restart.connector);
      FUZZ_CHECK(again.restart.only_failed == record->restart.only_failed);
      FUZZ_CHECK(again.restart.include_tasks == record->restart.include_tasks);
      break;
    }
    case ConfigRecordType::kSessionKey:
      if (!jvm::IsValidUtf8(record->session_key.algorithm)) break;
      FUZZ_CHECK(ReadBack(std::string(dist::kSessionKeyKey),
                          dist::EncodeSessionKey(record->session_key), k)
                     .session_key == record->session_key);
      break;
    case ConfigRecordType::kLoggerLevel:
      if (!jvm::IsValidUtf8(record->level)) break;
      FUZZ_CHECK(ReadBack(dist::LoggerClusterKey(k.name), dist::EncodeLoggerLevel(record->level), k)
                     .level == record->level);
      break;
    case ConfigRecordType::kUnknown:
      break;
  }
  return 0;
}
