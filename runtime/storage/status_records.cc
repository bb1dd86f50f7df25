#include "runtime/storage/status_records.h"

#include <array>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "jvm/java_split.h"
#include "jvm/java_text.h"
#include "jvm/utf8.h"
#include "runtime/common/strings.h"
#include "runtime/data/connect_json.h"

namespace connectd::storage {

using data::JsonValue;
using data::ReadConnectJson;

namespace {

constexpr std::array<std::pair<worker::State, std::string_view>, 7> kStateNames = {{
    {worker::State::kUnassigned, "UNASSIGNED"},
    {worker::State::kRunning, "RUNNING"},
    {worker::State::kPaused, "PAUSED"},
    {worker::State::kFailed, "FAILED"},
    {worker::State::kDestroyed, "DESTROYED"},
    {worker::State::kRestarting, "RESTARTING"},
    {worker::State::kStopped, "STOPPED"},
}};

// The value as JsonConverter reads it, which the store then needs to be a Map.
absl::StatusOr<JsonValue> ReadJsonObject(std::string_view bytes) {
  absl::StatusOr<JsonValue> root = ReadConnectJson(bytes);
  if (!root.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("invalid JSON: ", root.status().message()));
  }
  if (root->kind != JsonValue::Kind::kObject) {
    return absl::InvalidArgumentError("the value is not a JSON object");
  }
  return root;
}

absl::Status FieldError(std::string_view field, std::string_view expected) {
  return absl::InvalidArgumentError(
      absl::StrCat("field \"", AsAbsl(field), "\" must be ", AsAbsl(expected)));
}

// A (String) cast: absent or null gives nullopt, a string its text, anything else an error.
absl::StatusOr<std::optional<std::string>> OptionalString(const JsonValue& object,
                                                          std::string_view field) {
  const JsonValue* node = object.Find(field);
  if (node == nullptr || node->is_null()) return std::optional<std::string>();
  if (node->kind != JsonValue::Kind::kString) return FieldError(field, "a string or null");
  return std::optional<std::string>(node->text);
}

absl::StatusOr<std::string> RequiredString(const JsonValue& object, std::string_view field) {
  const JsonValue* node = object.Find(field);
  if (node == nullptr || node->kind != JsonValue::Kind::kString) {
    return FieldError(field, "a string");
  }
  return node->text;
}

// A (Long) cast of JsonConverter's INT64: any integral JSON number, as its low 64 bits.
absl::StatusOr<uint64_t> RequiredInteger(const JsonValue& object, std::string_view field) {
  const JsonValue* node = object.Find(field);
  if (node == nullptr || node->kind != JsonValue::Kind::kLong) {
    return FieldError(field, "an integer");
  }
  return static_cast<uint64_t>(node->integer);
}

// Integer.parseInt(token, 10) for ASCII digits.
std::optional<int32_t> ParseJavaInt(std::string_view token) {
  bool negative = false;
  if (!token.empty() && (token[0] == '+' || token[0] == '-')) {
    negative = token[0] == '-';
    token.remove_prefix(1);
  }
  if (token.empty()) return std::nullopt;
  int64_t value = 0;
  for (char c : token) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
    if (value > int64_t{2147483648}) return std::nullopt;
  }
  if (negative) value = -value;
  if (value > 2147483647 || value < -2147483648LL) return std::nullopt;
  return static_cast<int32_t>(value);
}

absl::Status InvalidKey(std::string_view key, std::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("invalid status key \"", AsAbsl(key), "\": ", AsAbsl(why)));
}

}  // namespace

std::string_view StatusStateName(worker::State state) {
  for (const auto& [s, name] : kStateNames) {
    if (s == state) return name;
  }
  return "UNASSIGNED";
}

std::optional<worker::State> ParseStatusStateName(std::string_view name) {
  for (const auto& [s, n] : kStateNames) {
    if (n == name) return s;
  }
  return std::nullopt;
}

std::string ConnectorStatusKey(std::string_view connector) {
  return absl::StrCat(AsAbsl(kConnectorStatusPrefix), AsAbsl(connector));
}

std::string TaskStatusKey(const herder::ConnectorTaskId& id) {
  return absl::StrCat(AsAbsl(kTaskStatusPrefix), id.connector, "-", id.task);
}

std::string TopicStatusKey(std::string_view topic, std::string_view connector) {
  return absl::StrCat(AsAbsl(kTopicStatusPrefix), AsAbsl(topic), AsAbsl(kTopicStatusSeparator),
                      AsAbsl(connector));
}

absl::StatusOr<std::optional<std::string>> EncodeStatusValue(const StatusValue& value) {
  if (value.state == worker::State::kDestroyed) return std::optional<std::string>();
  if (!value.worker_id.has_value()) {
    return absl::InvalidArgumentError("a status value needs a worker_id");
  }
  // Struct fields in STATUS_SCHEMA_V0 order; unset optional fields are written as null.
  std::string out = "{\"state\":";
  jvm::AppendJacksonString(StatusStateName(value.state), out);
  out.append(",\"trace\":");
  if (value.trace.has_value()) {
    jvm::AppendJacksonString(*value.trace, out);
  } else {
    out.append("null");
  }
  out.append(",\"worker_id\":");
  jvm::AppendJacksonString(*value.worker_id, out);
  absl::StrAppend(&out, ",\"generation\":", value.generation, ",\"version\":");
  if (value.version.has_value()) {
    jvm::AppendJacksonString(*value.version, out);
  } else {
    out.append("null");
  }
  out.push_back('}');
  return std::optional<std::string>(std::move(out));
}

std::string EncodeTopicStatusValue(const TopicStatusValue& value) {
  std::string out = "{\"topic\":{\"name\":";
  jvm::AppendJacksonString(value.topic, out);
  out.append(",\"connector\":");
  jvm::AppendJacksonString(value.connector, out);
  absl::StrAppend(&out, ",\"task\":", value.task,
                  ",\"discoverTimestamp\":", value.discover_timestamp, "}}");
  return out;
}

absl::StatusOr<StatusValue> DecodeStatusValue(std::string_view bytes) {
  auto root = ReadJsonObject(bytes);
  if (!root.ok()) return root.status();
  const JsonValue& object = *root;
  StatusValue value;
  auto state = RequiredString(object, "state");
  if (!state.ok()) return state.status();
  const auto parsed = ParseStatusStateName(*state);
  if (!parsed.has_value()) {
    return absl::InvalidArgumentError(absl::StrCat("unknown status state \"", *state, "\""));
  }
  value.state = *parsed;
  auto trace = OptionalString(object, "trace");
  if (!trace.ok()) return trace.status();
  value.trace = std::move(*trace);
  auto worker = OptionalString(object, "worker_id");
  if (!worker.ok()) return worker.status();
  value.worker_id = std::move(*worker);
  auto generation = RequiredInteger(object, "generation");
  if (!generation.ok()) return generation.status();
  value.generation = static_cast<int32_t>(static_cast<uint32_t>(*generation));
  auto version = OptionalString(object, "version");
  if (!version.ok()) return version.status();
  value.version = std::move(*version);
  return value;
}

absl::StatusOr<TopicStatusValue> DecodeTopicStatusValue(std::string_view bytes) {
  auto root = ReadJsonObject(bytes);
  if (!root.ok()) return root.status();
  const JsonValue* inner = root->Find("topic");
  if (inner == nullptr || inner->kind != JsonValue::Kind::kObject) {
    return FieldError("topic", "an object");
  }
  TopicStatusValue value;
  auto name = RequiredString(*inner, "name");
  if (!name.ok()) return name.status();
  value.topic = std::move(*name);
  auto connector = RequiredString(*inner, "connector");
  if (!connector.ok()) return connector.status();
  value.connector = std::move(*connector);
  auto task = RequiredInteger(*inner, "task");
  if (!task.ok()) return task.status();
  value.task = static_cast<int32_t>(static_cast<uint32_t>(*task));
  auto timestamp = RequiredInteger(*inner, "discoverTimestamp");
  if (!timestamp.ok()) return timestamp.status();
  value.discover_timestamp = static_cast<int64_t>(*timestamp);
  return value;
}

absl::StatusOr<StatusKey> ParseStatusKey(std::string_view key) {
  if (!jvm::IsValidUtf8(key)) return InvalidKey(key, "not valid UTF-8");
  StatusKey parsed;
  if (key.substr(0, kConnectorStatusPrefix.size()) == kConnectorStatusPrefix) {
    parsed.kind = StatusKey::Kind::kConnector;
    parsed.connector.assign(key.substr(kConnectorStatusPrefix.size()));
    if (parsed.connector.empty()) return InvalidKey(key, "empty connector name");
    return parsed;
  }
  if (key.substr(0, kTaskStatusPrefix.size()) == kTaskStatusPrefix) {
    parsed.kind = StatusKey::Kind::kTask;
    const std::vector<std::string_view> parts = jvm::JavaSplit(key, '-');
    if (parts.size() < 4) return InvalidKey(key, "no connector and task number");
    const auto task = ParseJavaInt(parts.back());
    if (!task.has_value()) return InvalidKey(key, "the task number is not an int");
    parsed.task = *task;
    for (size_t i = 2; i + 1 < parts.size(); ++i) {
      if (i > 2) parsed.connector.push_back('-');
      parsed.connector.append(parts[i]);
    }
    return parsed;
  }
  if (key.substr(0, kTopicStatusPrefix.size()) == kTopicStatusPrefix) {
    parsed.kind = StatusKey::Kind::kTopic;
    const size_t colon = key.find(':');
    if (colon == std::string_view::npos) return InvalidKey(key, "no ':'");
    parsed.topic.assign(key.substr(kTopicStatusPrefix.size(), colon - kTopicStatusPrefix.size()));
    if (parsed.topic.empty()) return InvalidKey(key, "empty topic");
    // Skip kTopicStatusSeparator.size() UTF-16 units (String.substring works on units).
    size_t pos = colon;
    size_t units = 0;
    std::string lone_low_surrogate;
    while (units < kTopicStatusSeparator.size() && pos < key.size()) {
      const auto b = static_cast<uint8_t>(key[pos]);
      const size_t len = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
      if (len == 4 && units + 1 == kTopicStatusSeparator.size()) {
        // The cut falls between the two surrogates of a supplementary character.
        uint32_t cp = b & 0x07;
        for (size_t k = 1; k < 4; ++k) cp = (cp << 6) | (static_cast<uint8_t>(key[pos + k]) & 0x3F);
        const uint32_t low = 0xDC00 | ((cp - 0x10000) & 0x3FF);
        lone_low_surrogate.push_back(static_cast<char>(0xE0 | (low >> 12)));
        lone_low_surrogate.push_back(static_cast<char>(0x80 | ((low >> 6) & 0x3F)));
        lone_low_surrogate.push_back(static_cast<char>(0x80 | (low & 0x3F)));
        units += 2;
      } else {
        units += len == 4 ? 2 : 1;
      }
      pos += len;
    }
    if (units < kTopicStatusSeparator.size()) return InvalidKey(key, "no connector");
    parsed.connector = absl::StrCat(lone_low_surrogate, AsAbsl(key.substr(pos)));
    if (parsed.connector.empty()) return InvalidKey(key, "empty connector name");
    return parsed;
  }
  return InvalidKey(key, "unknown prefix");
}

}  // namespace connectd::storage
