#include "runtime/storage/config_records.h"

#include <charconv>
#include <system_error>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "jvm/java_base64.h"
#include "jvm/java_split.h"
#include "jvm/java_text.h"
#include "runtime/common/strings.h"

namespace connectd::storage {
namespace {

using jvm::AppendJacksonString;

// ---- Writers -------------------------------------------------------------------------------

void AppendProperties(const ConfigProperties& properties, std::string& out) {
  out.append("{\"properties\":{");
  bool first = true;
  for (const auto& [key, value] : properties) {
    if (!first) out.push_back(',');
    first = false;
    jvm::AppendJacksonString(key, out);
    out.push_back(':');
    if (value) {
      jvm::AppendJacksonString(*value, out);
    } else {
      out.append("null");
    }
  }
  out.append("}}");
}

std::string IntField(std::string_view field, int64_t value) {
  std::string out = "{";
  jvm::AppendJacksonString(field, out);
  out.push_back(':');
  out.append(std::to_string(value));
  out.push_back('}');
  return out;
}

// ---- Record readers ------------------------------------------------------------------------

std::string_view KindName(const ConfigValue* v) {
  if (v == nullptr) return "null";
  switch (v->kind) {
    case ConfigValue::Kind::kNull:
      return "null";
    case ConfigValue::Kind::kBool:
      return "Boolean";
    case ConfigValue::Kind::kLong:
      return "Long";
    case ConfigValue::Kind::kDouble:
      return "Double";
    case ConfigValue::Kind::kString:
      return "String";
    case ConfigValue::Kind::kArray:
      return "ArrayList";
    case ConfigValue::Kind::kObject:
      return "HashMap";
  }
  return "null";
}

absl::Status WrongFormat(std::string_view what, const ConfigValue& value) {
  return absl::InvalidArgumentError(absl::StrCat(
      "ignoring ", AsAbsl(what), " because it is in the wrong format: ", AsAbsl(KindName(&value))));
}

absl::Status FieldError(std::string_view field, std::string_view expected, const ConfigValue* v) {
  return absl::InvalidArgumentError(absl::StrCat(
      "'", AsAbsl(field), "' field should be ", AsAbsl(expected), " but is ", AsAbsl(KindName(v))));
}

absl::Status ReadProperties(const ConfigValue& value, std::string_view what,
                            ConfigProperties& out) {
  if (value.kind != ConfigValue::Kind::kObject) return WrongFormat(what, value);
  const ConfigValue* properties = value.Find("properties");
  if (properties == nullptr || properties->kind != ConfigValue::Kind::kObject) {
    return FieldError("properties", "a Map", properties);
  }
  out.clear();
  for (const auto& [key, v] : properties->members) {
    if (v.kind == ConfigValue::Kind::kNull) {
      out.emplace_back(key, std::nullopt);
    } else if (v.kind == ConfigValue::Kind::kString) {
      out.emplace_back(key, v.text);
    } else {
      return absl::InvalidArgumentError(absl::StrCat(
          "property '", key, "' should be a String or null but is ", AsAbsl(KindName(&v))));
    }
  }
  return absl::OkStatus();
}

absl::Status ReadInt(const ConfigValue& value, std::string_view what, std::string_view field,
                     int32_t& out) {
  if (value.kind != ConfigValue::Kind::kObject) return WrongFormat(what, value);
  const ConfigValue* v = value.Find(field);
  if (v == nullptr || v->kind != ConfigValue::Kind::kLong) {
    return FieldError(field, "an Integer or Long", v);
  }
  out = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v->integer)));
  return absl::OkStatus();
}

absl::Status ReadTargetState(const ConfigValue& value, herder::TargetState& out) {
  if (value.kind != ConfigValue::Kind::kObject) return WrongFormat("target state", value);
  const ConfigValue* state = value.Find("state.v2");
  if (state != nullptr && state->kind != ConfigValue::Kind::kString) state = nullptr;
  if (state == nullptr || state->is_null()) {
    state = value.Find("state");  // written by an older worker
    if (state == nullptr || state->kind != ConfigValue::Kind::kString) {
      return FieldError("state", "a String", state);
    }
  }
  if (state->text == "STARTED") {
    out = herder::TargetState::kStarted;
  } else if (state->text == "PAUSED") {
    out = herder::TargetState::kPaused;
  } else if (state->text == "STOPPED") {
    out = herder::TargetState::kStopped;
  } else {
    return absl::InvalidArgumentError(absl::StrCat("invalid target state ", state->text));
  }
  return absl::OkStatus();
}

absl::Status ReadSessionKey(const ConfigValue& value, SessionKey& out) {
  if (value.is_null()) return absl::InvalidArgumentError("session key is unexpectedly null");
  if (value.kind != ConfigValue::Kind::kObject) return WrongFormat("session key", value);
  const ConfigValue* key = value.Find("key");
  if (key == nullptr || key->kind != ConfigValue::Kind::kString) {
    return FieldError("key", "a String", key);
  }
  std::string error;
  std::optional<std::string> bytes = jvm::JavaBase64Decode(key->text, &error);
  if (!bytes) return absl::InvalidArgumentError(absl::StrCat("session key: ", error));
  // new SecretKeySpec(key, algorithm) rejects an empty key.
  if (bytes->empty()) return absl::InvalidArgumentError("session key is empty");
  const ConfigValue* algorithm = value.Find("algorithm");
  if (algorithm == nullptr || algorithm->kind != ConfigValue::Kind::kString) {
    return FieldError("algorithm", "a String", algorithm);
  }
  const ConfigValue* created = value.Find("creation-timestamp");
  if (created == nullptr || created->kind != ConfigValue::Kind::kLong) {
    return FieldError("creation-timestamp", "a long", created);
  }
  out.key = *std::move(bytes);
  out.algorithm = algorithm->text;
  out.creation_timestamp_ms = created->integer;
  return absl::OkStatus();
}

bool ParseJavaInt(std::string_view text, int32_t& out) {
  // Integer.parseInt (ASCII digits only): optional sign, at least one digit, int32 range.
  if (!text.empty() && text[0] == '+') text.remove_prefix(1);
  if (text.empty() || text[0] == '+') return false;
  if (text[0] == '-' && (text.size() == 1 || text[1] == '-' || text[1] == '+')) return false;
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return false;
  if (v < INT32_MIN || v > INT32_MAX) return false;
  out = static_cast<int32_t>(v);
  return true;
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

}  // namespace

herder::ConfigMap ToConfigMap(const ConfigProperties& properties) {
  herder::ConfigMap out;
  for (const auto& [key, value] : properties) {
    if (value) out[key] = *value;
  }
  return out;
}

ConfigProperties FromConfigMap(const herder::ConfigMap& config) {
  ConfigProperties out;
  out.reserve(config.size());
  for (const auto& [key, value] : config) out.emplace_back(key, value);
  return out;
}

std::string TargetStateKey(std::string_view connector) {
  return absl::StrCat(AsAbsl(kTargetStatePrefix), AsAbsl(connector));
}
std::string ConnectorConfigKey(std::string_view connector) {
  return absl::StrCat(AsAbsl(kConnectorPrefix), AsAbsl(connector));
}
std::string TaskConfigKey(const herder::ConnectorTaskId& id) {
  return absl::StrCat(AsAbsl(kTaskPrefix), id.connector, "-", id.task);
}
std::string CommitTasksKey(std::string_view connector) {
  return absl::StrCat(AsAbsl(kCommitTasksPrefix), AsAbsl(connector));
}
std::string RestartKey(std::string_view connector) {
  return absl::StrCat(AsAbsl(kRestartPrefix), AsAbsl(connector));
}
std::string TaskCountRecordKey(std::string_view connector) {
  return absl::StrCat(AsAbsl(kTaskCountRecordPrefix), AsAbsl(connector));
}
std::string LoggerClusterKey(std::string_view logging_namespace) {
  return absl::StrCat(AsAbsl(kLoggerClusterPrefix), AsAbsl(logging_namespace));
}

ConfigKey ParseConfigKey(std::string_view key) {
  ConfigKey out;
  if (StartsWith(key, kTargetStatePrefix)) {
    out.type = ConfigRecordType::kTargetState;
    out.name = std::string(key.substr(kTargetStatePrefix.size()));
  } else if (StartsWith(key, kConnectorPrefix)) {
    out.type = ConfigRecordType::kConnectorConfig;
    out.name = std::string(key.substr(kConnectorPrefix.size()));
  } else if (StartsWith(key, kTaskPrefix)) {
    const std::vector<std::string_view> parts = jvm::JavaSplit(key, '-');
    int32_t task = 0;
    if (parts.size() < 3 || !ParseJavaInt(parts.back(), task)) return ConfigKey{};
    std::string connector;
    for (size_t i = 1; i + 1 < parts.size(); ++i) {
      if (i > 1) connector.push_back('-');
      connector.append(parts[i]);
    }
    out.type = ConfigRecordType::kTaskConfig;
    out.name = std::move(connector);
    out.task = task;
  } else if (StartsWith(key, kCommitTasksPrefix)) {
    out.type = ConfigRecordType::kTasksCommit;
    out.name = std::string(key.substr(kCommitTasksPrefix.size()));
  } else if (StartsWith(key, kRestartPrefix)) {
    out.type = ConfigRecordType::kRestartRequest;
    out.name = std::string(key.substr(kRestartPrefix.size()));
  } else if (StartsWith(key, kTaskCountRecordPrefix)) {
    out.type = ConfigRecordType::kTaskCountRecord;
    out.name = std::string(key.substr(kTaskCountRecordPrefix.size()));
  } else if (key == kSessionKeyKey) {
    out.type = ConfigRecordType::kSessionKey;
  } else if (StartsWith(key, kLoggerClusterPrefix)) {
    out.type = ConfigRecordType::kLoggerLevel;
    out.name = std::string(key.substr(kLoggerClusterPrefix.size()));
  }
  return out;
}

std::string EncodeConnectorConfig(const ConfigProperties& properties) {
  std::string out;
  AppendProperties(properties, out);
  return out;
}

std::string EncodeTaskConfig(const ConfigProperties& properties) {
  return EncodeConnectorConfig(properties);
}

std::string EncodeTasksCommit(int32_t task_count) { return IntField("tasks", task_count); }

std::string EncodeTargetState(herder::TargetState state) {
  const std::string_view name = herder::TargetStateName(state);
  const std::string_view compatible = state == herder::TargetState::kStopped
                                          ? herder::TargetStateName(herder::TargetState::kPaused)
                                          : name;
  std::string out = "{\"state\":";
  jvm::AppendJacksonString(compatible, out);
  out.append(",\"state.v2\":");
  jvm::AppendJacksonString(name, out);
  out.push_back('}');
  return out;
}

std::string EncodeRestartRequest(const herder::RestartRequest& request) {
  return absl::StrCat("{\"include-tasks\":", request.include_tasks ? "true" : "false",
                      ",\"only-failed\":", request.only_failed ? "true" : "false", "}");
}

std::string EncodeTaskCountRecord(int32_t task_count) { return IntField("task-count", task_count); }

std::string EncodeSessionKey(const SessionKey& key) {
  std::string out = "{\"key\":";
  jvm::AppendJacksonString(AsStd(absl::Base64Escape(AsAbsl(key.key))), out);
  out.append(",\"algorithm\":");
  jvm::AppendJacksonString(key.algorithm, out);
  out.append(",\"creation-timestamp\":");
  out.append(std::to_string(key.creation_timestamp_ms));
  out.push_back('}');
  return out;
}

std::string EncodeLoggerLevel(std::string_view level) {
  std::string out = "{\"level\":";
  jvm::AppendJacksonString(level, out);
  out.push_back('}');
  return out;
}

absl::StatusOr<ConfigValue> ParseConfigValue(std::optional<std::string_view> bytes) {
  if (!bytes) return ConfigValue{};
  return data::ReadConnectJson(*bytes);
}

absl::StatusOr<ConfigRecord> ParseConfigRecord(std::string_view key,
                                               std::optional<std::string_view> value) {
  absl::StatusOr<ConfigValue> parsed = ParseConfigValue(value);
  if (!parsed.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("failed to convert config data of record ",
                                                   AsAbsl(key), ": ", parsed.status().message()));
  }
  ConfigRecord record;
  record.key = ParseConfigKey(key);
  record.tombstone = parsed->is_null();
  const ConfigValue& v = *parsed;
  switch (record.key.type) {
    case ConfigRecordType::kConnectorConfig:
      if (!record.tombstone) {
        record.value_status = ReadProperties(v, "connector configuration", record.properties);
      }
      break;
    case ConfigRecordType::kTaskConfig:
      record.value_status =
          record.tombstone ? absl::InvalidArgumentError("task configuration is unexpectedly null")
                           : ReadProperties(v, "task configuration", record.properties);
      break;
    case ConfigRecordType::kTasksCommit:
      record.value_status = ReadInt(v, "tasks commit", "tasks", record.count);
      break;
    case ConfigRecordType::kTaskCountRecord:
      record.value_status = ReadInt(v, "task count record", "task-count", record.count);
      break;
    case ConfigRecordType::kTargetState:
      if (!record.tombstone) record.value_status = ReadTargetState(v, record.target_state);
      break;
    case ConfigRecordType::kRestartRequest: {
      record.restart.connector = record.key.name;
      if (v.kind != ConfigValue::Kind::kObject) {
        record.value_status = WrongFormat("restart request", v);
        break;
      }
      const ConfigValue* only_failed = v.Find("only-failed");
      const ConfigValue* include_tasks = v.Find("include-tasks");
      record.restart.only_failed = only_failed != nullptr &&
                                   only_failed->kind == ConfigValue::Kind::kBool &&
                                   only_failed->boolean;
      record.restart.include_tasks = include_tasks != nullptr &&
                                     include_tasks->kind == ConfigValue::Kind::kBool &&
                                     include_tasks->boolean;
      break;
    }
    case ConfigRecordType::kSessionKey:
      record.value_status = ReadSessionKey(v, record.session_key);
      break;
    case ConfigRecordType::kLoggerLevel: {
      if (record.tombstone) {
        record.value_status = absl::InvalidArgumentError("logging level is unexpectedly null");
        break;
      }
      if (v.kind != ConfigValue::Kind::kObject) {
        record.value_status = WrongFormat("logging level", v);
        break;
      }
      const ConfigValue* level = v.Find("level");
      if (level == nullptr || level->kind != ConfigValue::Kind::kString) {
        record.value_status = FieldError("level", "a String", level);
        break;
      }
      record.level = level->text;
      break;
    }
    case ConfigRecordType::kUnknown:
      record.value_status = absl::InvalidArgumentError(
          absl::StrCat("discarding config update record with invalid key: ", AsAbsl(key)));
      break;
  }
  return record;
}

}  // namespace connectd::storage
