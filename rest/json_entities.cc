#include "rest/json_entities.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "jvm/utf8.h"
#include "runtime/common/strings.h"

namespace connectd::rest {
namespace {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

// Deeper documents are refused: walking them recursively could exhaust the stack.
constexpr int kMaxJsonDepth = 64;

// JSON text is UTF-8 (RFC 8259): malformed bytes (a plugin's trace, a raw request target echoed
// in a message) are written as U+FFFD rather than passed through.
void String(Writer& w, std::string_view s) {
  if (!jvm::IsValidUtf8(s)) {
    std::string valid = jvm::ToJavaString(s);
    w.String(valid.data(), static_cast<rapidjson::SizeType>(valid.size()));
    return;
  }
  w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
}

void Key(Writer& w, std::string_view s) {
  if (!jvm::IsValidUtf8(s)) {
    std::string valid = jvm::ToJavaString(s);
    w.Key(valid.data(), static_cast<rapidjson::SizeType>(valid.size()));
    return;
  }
  w.Key(s.data(), static_cast<rapidjson::SizeType>(s.size()));
}

void OptionalString(Writer& w, const std::optional<std::string>& s) {
  if (s) {
    String(w, *s);
  } else {
    w.Null();
  }
}

void Raw(Writer& w, std::string_view json, rapidjson::Type type) {
  w.RawValue(json.data(), json.size(), type);
}

void StringArray(Writer& w, const std::vector<std::string>& values) {
  w.StartArray();
  for (const std::string& v : values) String(w, v);
  w.EndArray();
}

void ConfigMap(Writer& w, const herder::ConfigMap& config) {
  w.StartObject();
  for (const auto& [k, v] : config) {
    Key(w, k);
    String(w, v);
  }
  w.EndObject();
}

void TaskId(Writer& w, const herder::ConnectorTaskId& id) {
  w.StartObject();
  Key(w, "connector");
  String(w, id.connector);
  Key(w, "task");
  w.Int(id.task);
  w.EndObject();
}

// AbstractState's "state", "worker_id", "trace" (omitted when null or empty) and, since 4.4,
// the plugin "version" (omitted when unknown).
void StateFields(Writer& w, const herder::StateInfo& state) {
  Key(w, "state");
  String(w, state.state);
  Key(w, "worker_id");
  String(w, state.worker_id);
  if (state.trace && !state.trace->empty()) {
    Key(w, "trace");
    String(w, *state.trace);
  }
  if (state.version) {
    Key(w, "version");
    String(w, *state.version);
  }
}

void TaskState(Writer& w, const herder::TaskStateInfo& task) {
  w.StartObject();
  Key(w, "id");
  w.Int(task.id);
  StateFields(w, task.state);
  w.EndObject();
}

void ConnectorInfo(Writer& w, const herder::ConnectorInfo& info) {
  w.StartObject();
  Key(w, "name");
  String(w, info.name);
  Key(w, "config");
  ConfigMap(w, info.config);
  Key(w, "tasks");
  w.StartArray();
  for (const herder::ConnectorTaskId& id : info.tasks) TaskId(w, id);
  w.EndArray();
  Key(w, "type");
  String(w, herder::ConnectorTypeName(info.type));
  w.EndObject();
}

void ConfigKeyInfo(Writer& w, const herder::ConfigKeyInfo& key) {
  w.StartObject();
  Key(w, "name");
  String(w, key.name);
  Key(w, "type");
  String(w, key.type);
  Key(w, "required");
  w.Bool(key.required);
  Key(w, "default_value");
  OptionalString(w, key.default_value);
  Key(w, "importance");
  String(w, key.importance);
  Key(w, "documentation");
  String(w, key.documentation);
  Key(w, "group");
  OptionalString(w, key.group);
  Key(w, "width");
  String(w, key.width);
  Key(w, "display_name");
  String(w, key.display_name);
  Key(w, "dependents");
  StringArray(w, key.dependents);
  Key(w, "order_in_group");
  w.Int(key.order_in_group);
  w.EndObject();
}

void ConfigValueInfo(Writer& w, const herder::ConfigValueInfo& value) {
  w.StartObject();
  Key(w, "name");
  String(w, value.name);
  Key(w, "value");
  OptionalString(w, value.value);
  Key(w, "recommended_values");
  StringArray(w, value.recommended_values);
  Key(w, "errors");
  StringArray(w, value.errors);
  Key(w, "visible");
  w.Bool(value.visible);
  w.EndObject();
}

void LoggerLevelObject(Writer& w, const LoggerLevel& level) {
  w.StartObject();
  Key(w, "level");
  String(w, level.level);
  Key(w, "last_modified");
  if (level.last_modified) {
    w.Int64(*level.last_modified);
  } else {
    w.Null();
  }
  w.EndObject();
}

template <typename Fn>
std::string Render(Fn&& fn) {
  rapidjson::StringBuffer buffer;
  Writer writer(buffer);
  fn(writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}

// ---- Parsing helpers ------------------------------------------------------------------------

bool TooDeep(const rapidjson::Value& v, int depth) {
  if (depth > kMaxJsonDepth) return true;
  if (v.IsObject()) {
    for (const auto& m : v.GetObject()) {
      if (TooDeep(m.value, depth + 1)) return true;
    }
  } else if (v.IsArray()) {
    for (const auto& e : v.GetArray()) {
      if (TooDeep(e, depth + 1)) return true;
    }
  }
  return false;
}

// Parses `body` with the iterative parser (no recursion on untrusted nesting).
template <unsigned kExtraFlags>
absl::Status ParseDocument(std::string_view body, rapidjson::Document& doc) {
  constexpr unsigned kFlags =
      rapidjson::kParseIterativeFlag | rapidjson::kParseValidateEncodingFlag | kExtraFlags;
  doc.Parse<kFlags>(body.data(), body.size());
  if (doc.HasParseError()) {
    return absl::InvalidArgumentError(
        absl::StrCat("Malformed JSON in request body: ", GetParseError_En(doc.GetParseError()),
                     " (at offset ", doc.GetErrorOffset(), ")"));
  }
  if (TooDeep(doc, 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("JSON request body nests deeper than ", kMaxJsonDepth, " levels"));
  }
  return absl::OkStatus();
}

std::string_view TypeName(const rapidjson::Value& v) {
  switch (v.GetType()) {
    case rapidjson::kNullType:
      return "null";
    case rapidjson::kFalseType:
    case rapidjson::kTrueType:
      return "a boolean";
    case rapidjson::kObjectType:
      return "an object";
    case rapidjson::kArrayType:
      return "an array";
    case rapidjson::kStringType:
      return "a string";
    case rapidjson::kNumberType:
      return "a number";
  }
  return "a value";
}

std::string_view View(const rapidjson::Value& v) {
  return std::string_view(v.GetString(), v.GetStringLength());
}

// A string of a parsed body as the worker keeps it. RapidJSON turns an escaped lone surrogate
// ("\udd89") into its 3-byte form, which is not UTF-8: it becomes U+FFFD here, as the writers
// above would write it, so what is parsed is what is stored and forwarded (two keys that differ
// only there are one key, not two keys written alike).
std::string Text(const rapidjson::Value& v) { return jvm::ToJavaString(View(v)); }

// A scalar as Jackson's StringDeserializer reads it; nullopt for null. Numbers must have been
// parsed with kParseNumbersAsStringsFlag so they keep their text.
absl::StatusOr<std::optional<std::string>> ScalarAsString(const rapidjson::Value& v,
                                                          std::string_view key) {
  if (v.IsString()) return std::optional<std::string>(Text(v));
  if (v.IsBool()) return std::optional<std::string>(v.GetBool() ? "true" : "false");
  if (v.IsNull()) return std::optional<std::string>();
  return absl::InvalidArgumentError(absl::StrCat("Invalid value for configuration key '",
                                                 AsAbsl(key), "': expected a string but got ",
                                                 AsAbsl(TypeName(v))));
}

absl::Status ExpectObject(const rapidjson::Value& v, std::string_view what) {
  if (v.IsObject()) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(AsAbsl(what), " must be a JSON object, not ", AsAbsl(TypeName(v))));
}

absl::StatusOr<herder::ConfigMap> ConfigMapFromValue(const rapidjson::Value& v,
                                                     std::string_view what) {
  if (absl::Status s = ExpectObject(v, what); !s.ok()) return s;
  herder::ConfigMap config;
  for (const auto& m : v.GetObject()) {
    std::string key = Text(m.name);
    absl::StatusOr<std::optional<std::string>> value = ScalarAsString(m.value, key);
    if (!value.ok()) return value.status();
    if (!value->has_value()) {
      return absl::InvalidArgumentError(
          absl::StrCat("Invalid value for configuration key '", key,
                       "': null is not allowed here (only PATCH .../config removes keys "
                       "with null)"));
    }
    config[key] = std::move(**value);  // a repeated key keeps its last value, as Jackson does
  }
  return config;
}

// A parsed value's JSON text; strings holding an escaped lone surrogate (invalid UTF-8 after
// RapidJSON's parse, see Text) get U+FFFD there, so the text is valid JSON for the next reader
// (found by connector_json_fuzz: a forwarded PATCH .../offsets body the leader refused).
std::string ValueText(const rapidjson::Value& v) {
  return jvm::ToJavaString(Render([&](Writer& w) { v.Accept(w); }));
}

}  // namespace

// ---- Writers --------------------------------------------------------------------------------

std::string ErrorMessageJson(int error_code, std::string_view message) {
  return Render([&](Writer& w) {
    w.StartObject();
    Key(w, "error_code");
    w.Int(error_code);
    Key(w, "message");
    String(w, message);
    w.EndObject();
  });
}

std::string MessageJson(std::string_view message) {
  return Render([&](Writer& w) {
    w.StartObject();
    Key(w, "message");
    String(w, message);
    w.EndObject();
  });
}

std::string WorkerStatusJson(std::string_view status, std::string_view message) {
  return Render([&](Writer& w) {
    w.StartObject();
    Key(w, "status");
    String(w, status);
    Key(w, "message");
    String(w, message);
    w.EndObject();
  });
}

std::string ServerInfoJson(const herder::ServerInfo& info) {
  return Render([&](Writer& w) {
    w.StartObject();
    Key(w, "version");
    String(w, info.version);
    Key(w, "commit");
    String(w, info.commit);
    Key(w, "kafka_cluster_id");
    String(w, info.kafka_cluster_id);
    w.EndObject();
  });
}

std::string StringArrayJson(const std::vector<std::string>& values) {
  return Render([&](Writer& w) { StringArray(w, values); });
}

std::string ConfigMapJson(const herder::ConfigMap& config) {
  return Render([&](Writer& w) { ConfigMap(w, config); });
}

std::string ConnectorInfoJson(const herder::ConnectorInfo& info) {
  return Render([&](Writer& w) { ConnectorInfo(w, info); });
}

std::string TaskInfosJson(const std::vector<herder::TaskInfo>& tasks) {
  return Render([&](Writer& w) {
    w.StartArray();
    for (const herder::TaskInfo& task : tasks) {
      w.StartObject();
      Key(w, "id");
      TaskId(w, task.id);
      Key(w, "config");
      ConfigMap(w, task.config);
      w.EndObject();
    }
    w.EndArray();
  });
}

std::string ConnectorStateInfoJson(const herder::ConnectorStateInfo& info) {
  return Render([&](Writer& w) {
    w.StartObject();
    Key(w, "name");
    String(w, info.name);
    Key(w, "connector");
    w.StartObject();
    StateFields(w, info.connector);
    w.EndObject();
    Key(w, "tasks");
    w.StartArray();
    for (const herder::TaskStateInfo& task : info.tasks) TaskState(w, task);
    w.EndArray();
    Key(w, "type");
    String(w, herder::ConnectorTypeName(info.type));
    w.EndObject();
  });
}

std::string TaskStateJson(const herder::TaskStateInfo& state) {
  return Render([&](Writer& w) { TaskState(w, state); });
}

std::string ActiveTopicsJson(std::string_view connector, const std::vector<std::string>& topics) {
  return Render([&](Writer& w) {
    w.StartObject();
    Key(w, connector);
    w.StartObject();
    Key(w, "topics");
    StringArray(w, topics);
    w.EndObject();
    w.EndObject();
  });
}

std::string ConnectorOffsetsJson(const herder::ConnectorOffsets& offsets) {
  return Render([&](Writer& w) {
    w.StartObject();
    Key(w, "offsets");
    w.StartArray();
    for (const herder::ConnectorOffset& offset : offsets.offsets) {
      w.StartObject();
      Key(w, "partition");
      Raw(w, offset.partition_json, rapidjson::kObjectType);
      Key(w, "offset");
      if (offset.offset_json) {
        Raw(w, *offset.offset_json, rapidjson::kObjectType);
      } else {
        w.Null();
      }
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  });
}

std::string PluginInfosJson(const std::vector<herder::PluginInfo>& plugins) {
  return Render([&](Writer& w) {
    w.StartArray();
    for (const herder::PluginInfo& plugin : plugins) {
      w.StartObject();
      Key(w, "class");
      String(w, plugin.class_name);
      Key(w, "type");
      String(w, plugin.type);
      if (!plugin.version.empty()) {
        Key(w, "version");
        String(w, plugin.version);
      }
      w.EndObject();
    }
    w.EndArray();
  });
}

std::string ConfigKeyInfosJson(const std::vector<herder::ConfigKeyInfo>& keys) {
  return Render([&](Writer& w) {
    w.StartArray();
    for (const herder::ConfigKeyInfo& key : keys) ConfigKeyInfo(w, key);
    w.EndArray();
  });
}

std::string ConfigInfosJson(const herder::ConfigInfos& infos) {
  return Render([&](Writer& w) {
    w.StartObject();
    Key(w, "name");
    String(w, infos.name);
    Key(w, "error_count");
    w.Int(infos.error_count);
    Key(w, "groups");
    StringArray(w, infos.groups);
    Key(w, "configs");
    w.StartArray();
    for (const herder::ConfigInfo& config : infos.configs) {
      w.StartObject();
      Key(w, "definition");
      if (config.definition) {
        ConfigKeyInfo(w, *config.definition);
      } else {
        w.Null();
      }
      Key(w, "value");
      if (config.value) {
        ConfigValueInfo(w, *config.value);
      } else {
        w.Null();
      }
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  });
}

std::string LoggerLevelJson(const LoggerLevel& level) {
  return Render([&](Writer& w) { LoggerLevelObject(w, level); });
}

std::string LoggerLevelsJson(const std::map<std::string, LoggerLevel>& levels) {
  return Render([&](Writer& w) {
    w.StartObject();
    for (const auto& [name, level] : levels) {
      Key(w, name);
      LoggerLevelObject(w, level);
    }
    w.EndObject();
  });
}

std::string ExpandedConnectorsJson(const std::vector<ExpandedConnector>& connectors) {
  return Render([&](Writer& w) {
    w.StartObject();
    for (const ExpandedConnector& connector : connectors) {
      Key(w, connector.name);
      w.StartObject();
      for (const auto& [expansion, json] : connector.expansions) {
        Key(w, expansion);
        if (json) {
          Raw(w, *json, rapidjson::kObjectType);
        } else {
          w.Null();
        }
      }
      w.EndObject();
    }
    w.EndObject();
  });
}

std::string ConfigErrorsMessage(const herder::ConfigInfos& infos) {
  std::string message =
      absl::StrCat("Connector configuration is invalid and contains the following ",
                   infos.error_count, " error(s):");
  for (const herder::ConfigInfo& config : infos.configs) {
    if (!config.value) continue;
    for (const std::string& error : config.value->errors) absl::StrAppend(&message, "\n", error);
  }
  absl::StrAppend(&message,
                  "\nYou can also find the above list of errors at the endpoint "
                  "`/connector-plugins/{connectorType}/config/validate`");
  return message;
}

// ---- Parsers --------------------------------------------------------------------------------

absl::StatusOr<CreateConnectorRequest> ParseCreateConnectorRequest(std::string_view body) {
  rapidjson::Document doc;
  if (absl::Status s = ParseDocument<rapidjson::kParseNumbersAsStringsFlag>(body, doc); !s.ok()) {
    return s;
  }
  if (absl::Status s = ExpectObject(doc, "The request body"); !s.ok()) return s;
  CreateConnectorRequest request;
  for (const auto& m : doc.GetObject()) {
    std::string_view field = View(m.name);
    if (field == "name") {
      if (m.value.IsNull()) {
        request.name.reset();
      } else if (m.value.IsString()) {
        request.name = Text(m.value);
      } else {
        return absl::InvalidArgumentError(
            absl::StrCat("Field 'name' must be a string, not ", AsAbsl(TypeName(m.value))));
      }
    } else if (field == "config") {
      if (m.value.IsNull()) {
        request.config.reset();
        continue;
      }
      absl::StatusOr<herder::ConfigMap> config = ConfigMapFromValue(m.value, "Field 'config'");
      if (!config.ok()) return config.status();
      request.config = std::move(*config);
    } else if (field == "initial_state") {
      if (m.value.IsNull()) {
        request.initial_state.reset();
        continue;
      }
      std::string state =
          m.value.IsString() ? absl::AsciiStrToUpper(AsAbsl(View(m.value))) : std::string();
      if (state == "RUNNING") {
        request.initial_state = herder::TargetState::kStarted;
      } else if (state == "PAUSED") {
        request.initial_state = herder::TargetState::kPaused;
      } else if (state == "STOPPED") {
        request.initial_state = herder::TargetState::kStopped;
      } else {
        return absl::InvalidArgumentError(
            absl::StrCat("Invalid value for 'initial_state': ", ValueText(m.value),
                         "; expected one of RUNNING, PAUSED, STOPPED"));
      }
    }
    // Unknown fields are ignored (Connect's ObjectMapper is lenient here as well).
  }
  return request;
}

absl::StatusOr<herder::ConfigMap> ParseConfigMap(std::string_view body) {
  rapidjson::Document doc;
  if (absl::Status s = ParseDocument<rapidjson::kParseNumbersAsStringsFlag>(body, doc); !s.ok()) {
    return s;
  }
  return ConfigMapFromValue(doc, "The request body");
}

absl::StatusOr<std::map<std::string, std::optional<std::string>>> ParseConfigPatch(
    std::string_view body) {
  rapidjson::Document doc;
  if (absl::Status s = ParseDocument<rapidjson::kParseNumbersAsStringsFlag>(body, doc); !s.ok()) {
    return s;
  }
  if (absl::Status s = ExpectObject(doc, "The request body"); !s.ok()) return s;
  std::map<std::string, std::optional<std::string>> patch;
  for (const auto& m : doc.GetObject()) {
    std::string key = Text(m.name);
    absl::StatusOr<std::optional<std::string>> value = ScalarAsString(m.value, key);
    if (!value.ok()) return value.status();
    patch[key] = std::move(*value);
  }
  return patch;
}

absl::StatusOr<herder::ConnectorOffsets> ParseConnectorOffsets(std::string_view body) {
  rapidjson::Document doc;
  if (absl::Status s = ParseDocument<0>(body, doc); !s.ok()) return s;
  if (absl::Status s = ExpectObject(doc, "The request body"); !s.ok()) return s;
  herder::ConnectorOffsets offsets;
  auto it = doc.FindMember("offsets");
  if (it == doc.MemberEnd() || it->value.IsNull()) return offsets;
  if (!it->value.IsArray()) {
    return absl::InvalidArgumentError(
        absl::StrCat("Field 'offsets' must be a JSON array, not ", AsAbsl(TypeName(it->value))));
  }
  int index = 0;
  for (const auto& element : it->value.GetArray()) {
    std::string where = absl::StrCat("offsets[", index++, "]");
    if (absl::Status s = ExpectObject(element, where); !s.ok()) return s;
    herder::ConnectorOffset offset;
    auto partition = element.FindMember("partition");
    if (partition == element.MemberEnd() || !partition->value.IsObject()) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ".partition must be a JSON object, not ",
          partition == element.MemberEnd() ? "missing" : std::string(TypeName(partition->value))));
    }
    offset.partition_json = ValueText(partition->value);
    auto value = element.FindMember("offset");
    if (value != element.MemberEnd() && !value->value.IsNull()) {
      if (!value->value.IsObject()) {
        return absl::InvalidArgumentError(absl::StrCat(
            where, ".offset must be a JSON object or null, not ", AsAbsl(TypeName(value->value))));
      }
      offset.offset_json = ValueText(value->value);
    }
    offsets.offsets.push_back(std::move(offset));
  }
  return offsets;
}

absl::StatusOr<std::optional<std::string>> ParseLoggerLevelBody(std::string_view body) {
  rapidjson::Document doc;
  if (absl::Status s = ParseDocument<rapidjson::kParseNumbersAsStringsFlag>(body, doc); !s.ok()) {
    return s;
  }
  if (absl::Status s = ExpectObject(doc, "The request body"); !s.ok()) return s;
  auto it = doc.FindMember("level");
  if (it == doc.MemberEnd()) return std::optional<std::string>();
  return ScalarAsString(it->value, "level");
}

absl::StatusOr<std::vector<herder::ConfigMap>> ParseTaskConfigs(std::string_view body) {
  rapidjson::Document doc;
  if (absl::Status s = ParseDocument<rapidjson::kParseNumbersAsStringsFlag>(body, doc); !s.ok()) {
    return s;
  }
  if (!doc.IsArray()) {
    return absl::InvalidArgumentError(
        absl::StrCat("The request body must be a JSON array, not ", AsAbsl(TypeName(doc))));
  }
  std::vector<herder::ConfigMap> configs;
  for (const auto& element : doc.GetArray()) {
    absl::StatusOr<herder::ConfigMap> config = ConfigMapFromValue(element, "A task config");
    if (!config.ok()) return config.status();
    configs.push_back(std::move(*config));
  }
  return configs;
}

// ---- Bodies sent to other workers ------------------------------------------------------------

std::string CreateConnectorRequestJson(const CreateConnectorRequest& request) {
  return Render([&](Writer& w) {
    w.StartObject();
    Key(w, "name");
    OptionalString(w, request.name);
    Key(w, "config");
    if (request.config) {
      ConfigMap(w, *request.config);
    } else {
      w.Null();
    }
    Key(w, "initial_state");
    if (!request.initial_state) {
      w.Null();
    } else if (*request.initial_state == herder::TargetState::kStarted) {
      String(w, "RUNNING");  // InitialState's name for STARTED
    } else {
      String(w, herder::TargetStateName(*request.initial_state));
    }
    w.EndObject();
  });
}

std::string ConfigPatchJson(const std::map<std::string, std::optional<std::string>>& patch) {
  return Render([&](Writer& w) {
    w.StartObject();
    for (const auto& [key, value] : patch) {
      Key(w, key);
      OptionalString(w, value);
    }
    w.EndObject();
  });
}

std::string TaskConfigsJson(const std::vector<herder::ConfigMap>& configs) {
  return Render([&](Writer& w) {
    w.StartArray();
    for (const herder::ConfigMap& config : configs) ConfigMap(w, config);
    w.EndArray();
  });
}

std::string JsonStringLiteral(std::string_view text) {
  return Render([&](Writer& w) { String(w, text); });
}

namespace {

absl::Status ParseResponseDocument(std::string_view body, rapidjson::Document& doc) {
  doc.Parse<rapidjson::kParseIterativeFlag>(body.data(), body.size());
  if (doc.HasParseError()) {
    return absl::InvalidArgumentError(
        absl::StrCat("Malformed JSON in response body: ", GetParseError_En(doc.GetParseError()),
                     " (at offset ", doc.GetErrorOffset(), ")"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ErrorMessageBody> ParseErrorMessage(std::string_view body) {
  rapidjson::Document doc;
  if (absl::Status s = ParseResponseDocument(body, doc); !s.ok()) return s;
  if (!doc.IsObject()) {
    return absl::InvalidArgumentError(
        absl::StrCat("The error response body must be a JSON object, not ", AsAbsl(TypeName(doc))));
  }
  ErrorMessageBody error;
  auto code = doc.FindMember("error_code");
  if (code != doc.MemberEnd() && code->value.IsInt()) error.error_code = code->value.GetInt();
  auto message = doc.FindMember("message");
  if (message != doc.MemberEnd() && message->value.IsString()) {
    error.message = Text(message->value);
  }
  return error;
}

absl::Status CheckJsonDocument(std::string_view body) {
  rapidjson::Document doc;
  return ParseResponseDocument(body, doc);
}

}  // namespace connectd::rest
