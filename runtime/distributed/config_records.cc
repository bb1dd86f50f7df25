#include "runtime/distributed/config_records.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <system_error>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "runtime/common/strings.h"
#include "runtime/distributed/java_split.h"
#include "runtime/storage/java_text.h"

namespace connectd::distributed {
namespace {

using storage::AppendJacksonString;

// ---- Jackson-compatible reader -------------------------------------------------------------
//
// A small recursive-descent reader for what Jackson 2.21's UTF8StreamJsonParser (as configured
// by Connect's JsonDeserializer) accepts: RFC 8259 plus leading zeros in numbers, a UTF-8 BOM,
// anything after the root value ignored (FAIL_ON_TRAILING_TOKENS is off), at most 1000 nested
// containers and 1000 integer digits (StreamReadConstraints defaults). Strings decode UTF-8 as
// Jackson does: 2-byte forms are not checked for overlong encodings, 3-byte forms must not
// encode a surrogate, 4-byte forms (lead bytes F0..F7) become a surrogate pair even past
// U+10FFFF. RapidJSON cannot be configured to accept leading zeros or that UTF-8, hence this.

constexpr int kMaxDepth = 1000;
constexpr size_t kMaxNumberLength = 1000;

void AppendUtf8(uint32_t cp, std::string& out) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {  // lone surrogates too (their generalized 3-byte form)
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

class JacksonReader {
 public:
  explicit JacksonReader(std::string_view in) : in_(in) {}

  absl::StatusOr<ConfigValue> ParseRoot() {
    if (in_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
    SkipWhitespace();
    if (pos_ == in_.size()) return ConfigValue{};  // no content: MissingNode, read as null
    ConfigValue value;
    if (!ParseValue(value, 0)) return absl::InvalidArgumentError(error_);
    // A root-level number must be followed by whitespace or the end (_verifyRootSpace).
    const bool number =
        value.kind == ConfigValue::Kind::kLong || value.kind == ConfigValue::Kind::kDouble;
    if (number && pos_ < in_.size()) {
      const char c = in_[pos_];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return absl::InvalidArgumentError("expected space separating root-level values");
      }
    }
    return value;
  }

 private:
  bool Fail(std::string message) {
    if (error_.empty()) error_ = absl::StrCat(message, " at byte ", pos_);
    return false;
  }

  void SkipWhitespace() {
    while (pos_ < in_.size()) {
      const char c = in_[pos_];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
      ++pos_;
    }
  }

  bool Literal(std::string_view word) {
    if (in_.substr(pos_, word.size()) != word) return Fail("unrecognized token");
    pos_ += word.size();
    // Jackson reads a whole token: "truex" is an error, "true," and "true]" are not.
    if (pos_ < in_.size()) {
      const unsigned char c = static_cast<unsigned char>(in_[pos_]);
      if (std::isalnum(c) || c == '_' || c >= 0x80) return Fail("unrecognized token");
    }
    return true;
  }

  bool ParseValue(ConfigValue& out, int depth) {
    if (pos_ >= in_.size()) return Fail("unexpected end of input");
    switch (in_[pos_]) {
      case '{':
        return ParseObject(out, depth + 1);
      case '[':
        return ParseArray(out, depth + 1);
      case '"':
        out.kind = ConfigValue::Kind::kString;
        return ParseString(out.text);
      case 't':
        out.kind = ConfigValue::Kind::kBool;
        out.boolean = true;
        return Literal("true");
      case 'f':
        out.kind = ConfigValue::Kind::kBool;
        out.boolean = false;
        return Literal("false");
      case 'n':
        out.kind = ConfigValue::Kind::kNull;
        return Literal("null");
      default:
        return ParseNumber(out);
    }
  }

  bool ParseObject(ConfigValue& out, int depth) {
    if (depth > kMaxDepth) return Fail("nesting depth exceeds 1000");
    out.kind = ConfigValue::Kind::kObject;
    ++pos_;  // '{'
    SkipWhitespace();
    if (pos_ < in_.size() && in_[pos_] == '}') {
      ++pos_;
      return true;
    }
    while (true) {
      SkipWhitespace();
      if (pos_ >= in_.size() || in_[pos_] != '"') return Fail("expected a field name");
      std::string name;
      if (!ParseString(name)) return false;
      SkipWhitespace();
      if (pos_ >= in_.size() || in_[pos_] != ':') return Fail("expected ':'");
      ++pos_;
      SkipWhitespace();
      ConfigValue member;
      if (!ParseValue(member, depth)) return false;
      bool replaced = false;
      for (auto& [existing, value] : out.members) {
        if (existing == name) {  // ObjectNode.set: the last value wins, in the first place
          value = std::move(member);
          replaced = true;
          break;
        }
      }
      if (!replaced) out.members.emplace_back(std::move(name), std::move(member));
      SkipWhitespace();
      if (pos_ >= in_.size()) return Fail("unexpected end of input in an object");
      if (in_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (in_[pos_] == '}') {
        ++pos_;
        return true;
      }
      return Fail("expected ',' or '}'");
    }
  }

  bool ParseArray(ConfigValue& out, int depth) {
    if (depth > kMaxDepth) return Fail("nesting depth exceeds 1000");
    out.kind = ConfigValue::Kind::kArray;
    ++pos_;  // '['
    SkipWhitespace();
    if (pos_ < in_.size() && in_[pos_] == ']') {
      ++pos_;
      return true;
    }
    while (true) {
      SkipWhitespace();
      ConfigValue element;
      if (!ParseValue(element, depth)) return false;
      out.elements.push_back(std::move(element));
      SkipWhitespace();
      if (pos_ >= in_.size()) return Fail("unexpected end of input in an array");
      if (in_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (in_[pos_] == ']') {
        ++pos_;
        return true;
      }
      return Fail("expected ',' or ']'");
    }
  }

  size_t Digits() {
    const size_t start = pos_;
    while (pos_ < in_.size() && in_[pos_] >= '0' && in_[pos_] <= '9') ++pos_;
    return pos_ - start;
  }

  bool ParseNumber(ConfigValue& out) {
    const size_t start = pos_;
    const bool negative = in_[pos_] == '-';
    if (negative) ++pos_;
    const size_t int_start = pos_;
    const size_t int_digits = Digits();
    if (int_digits == 0) return Fail("unexpected character");
    if (int_digits > kMaxNumberLength) return Fail("number longer than 1000 digits");
    const size_t int_end = pos_;
    bool integral = true;
    if (pos_ < in_.size() && in_[pos_] == '.') {
      integral = false;
      ++pos_;
      if (Digits() == 0) return Fail("decimal point not followed by a digit");
    }
    if (pos_ < in_.size() && (in_[pos_] == 'e' || in_[pos_] == 'E')) {
      integral = false;
      ++pos_;
      if (pos_ < in_.size() && (in_[pos_] == '+' || in_[pos_] == '-')) ++pos_;
      if (Digits() == 0) return Fail("exponent not followed by a digit");
    }
    if (integral) {
      // BigInteger.longValue(): the low 64 bits of the two's complement value.
      uint64_t magnitude = 0;
      for (size_t i = int_start; i < int_end; ++i) {
        magnitude = magnitude * 10 + static_cast<uint64_t>(in_[i] - '0');
      }
      out.kind = ConfigValue::Kind::kLong;
      out.integer = static_cast<int64_t>(negative ? ~magnitude + 1 : magnitude);
      return true;
    }
    if (pos_ - start > kMaxNumberLength) return Fail("number longer than 1000 characters");
    // Jackson reads the decimal exactly (BigDecimal) and takes doubleValue(): correctly rounded,
    // overflow to infinity, underflow to a signed zero, but an exact zero is +0.0 ("-0.0").
    const std::string text(in_.substr(start, pos_ - start));
    out.kind = ConfigValue::Kind::kDouble;
    out.real = std::strtod(text.c_str(), nullptr);
    const size_t mantissa_end = text.find_first_of("eE");
    if (text.substr(0, mantissa_end).find_first_of("123456789") == std::string::npos) {
      out.real = 0.0;
    }
    return true;
  }

  bool Hex4(uint32_t& out) {
    if (pos_ + 4 > in_.size()) return Fail("truncated \\u escape");
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = in_[pos_ + i];
      v <<= 4;
      if (c >= '0' && c <= '9') {
        v |= static_cast<uint32_t>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        v |= static_cast<uint32_t>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        v |= static_cast<uint32_t>(c - 'A' + 10);
      } else {
        return Fail("invalid \\u escape");
      }
    }
    pos_ += 4;
    out = v;
    return true;
  }

  bool Continuation(uint32_t& cp) {
    if (pos_ >= in_.size()) return Fail("truncated UTF-8 sequence");
    const unsigned char c = static_cast<unsigned char>(in_[pos_]);
    if ((c & 0xC0) != 0x80) return Fail("invalid UTF-8 middle byte");
    cp = (cp << 6) | (c & 0x3F);
    ++pos_;
    return true;
  }

  bool ParseString(std::string& out) {
    ++pos_;  // '"'
    // A high surrogate escape waiting for a low one, so a pair becomes one code point.
    // (0: none).
    uint32_t pending_high = 0;
    auto flush = [&]() {
      if (pending_high != 0) AppendUtf8(pending_high, out);
      pending_high = 0;
    };
    while (true) {
      if (pos_ >= in_.size()) return Fail("unterminated string");
      const unsigned char c = static_cast<unsigned char>(in_[pos_]);
      if (c == '"') {
        ++pos_;
        flush();
        return true;
      }
      if (c == '\\') {
        ++pos_;
        if (pos_ >= in_.size()) return Fail("unterminated string");
        const char e = in_[pos_++];
        uint32_t cp = 0;
        switch (e) {
          case '"':
          case '\\':
          case '/':
            cp = static_cast<uint32_t>(e);
            break;
          case 'b':
            cp = '\b';
            break;
          case 'f':
            cp = '\f';
            break;
          case 'n':
            cp = '\n';
            break;
          case 'r':
            cp = '\r';
            break;
          case 't':
            cp = '\t';
            break;
          case 'u':
            if (!Hex4(cp)) return false;
            break;
          default:
            return Fail("unrecognized character escape");
        }
        if (cp >= 0xDC00 && cp <= 0xDFFF && pending_high != 0) {
          AppendUtf8(0x10000 + ((pending_high - 0xD800) << 10) + (cp - 0xDC00), out);
          pending_high = 0;
          continue;
        }
        flush();
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          pending_high = cp;
        } else {
          AppendUtf8(cp, out);
        }
        continue;
      }
      flush();
      if (c < 0x20) return Fail("unescaped control character in a string");
      ++pos_;
      if (c < 0x80) {
        out.push_back(static_cast<char>(c));
        continue;
      }
      uint32_t cp = 0;
      if (c >= 0xC0 && c <= 0xDF) {
        cp = c & 0x1F;
        if (!Continuation(cp)) return false;
        AppendUtf8(cp, out);
      } else if (c >= 0xE0 && c <= 0xEF) {
        cp = c & 0x0F;
        if (!Continuation(cp) || !Continuation(cp)) return false;
        if (cp >= 0xD800 && cp <= 0xDFFF) return Fail("UTF-8 encoded surrogate");
        AppendUtf8(cp, out);
      } else if (c >= 0xF0 && c <= 0xF7) {
        cp = c & 0x07;
        if (!Continuation(cp) || !Continuation(cp) || !Continuation(cp)) return false;
        const uint32_t v = cp - 0x10000;
        const uint32_t high = 0xD800 + (v >> 10);
        const uint32_t low = 0xDC00 + (v & 0x3FF);
        if (high <= 0xDBFF) {
          AppendUtf8(cp, out);
        } else {  // past U+10FFFF: Java keeps the two (out-of-range) UTF-16 units
          AppendUtf8(high, out);
          AppendUtf8(low, out);
        }
      } else {
        return Fail("invalid UTF-8 start byte");
      }
    }
  }

  std::string_view in_;
  size_t pos_ = 0;
  std::string error_;
};

// ---- Writers -------------------------------------------------------------------------------

void AppendProperties(const ConfigProperties& properties, std::string& out) {
  out.append("{\"properties\":{");
  bool first = true;
  for (const auto& [key, value] : properties) {
    if (!first) out.push_back(',');
    first = false;
    AppendJacksonString(key, out);
    out.push_back(':');
    if (value) {
      AppendJacksonString(*value, out);
    } else {
      out.append("null");
    }
  }
  out.append("}}");
}

std::string IntField(std::string_view field, int64_t value) {
  std::string out = "{";
  AppendJacksonString(field, out);
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
  absl::StatusOr<std::string> bytes = DecodeJavaBase64(key->text);
  if (!bytes.ok()) return bytes.status();
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
    const std::vector<std::string_view> parts = JavaSplit(key, '-');
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
  AppendJacksonString(compatible, out);
  out.append(",\"state.v2\":");
  AppendJacksonString(name, out);
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
  AppendJacksonString(AsStd(absl::Base64Escape(AsAbsl(key.key))), out);
  out.append(",\"algorithm\":");
  AppendJacksonString(key.algorithm, out);
  out.append(",\"creation-timestamp\":");
  out.append(std::to_string(key.creation_timestamp_ms));
  out.push_back('}');
  return out;
}

std::string EncodeLoggerLevel(std::string_view level) {
  std::string out = "{\"level\":";
  AppendJacksonString(level, out);
  out.push_back('}');
  return out;
}

const ConfigValue* ConfigValue::Find(std::string_view key) const {
  if (kind != Kind::kObject) return nullptr;
  for (const auto& [name, value] : members) {
    if (name == key) return &value;
  }
  return nullptr;
}

absl::StatusOr<ConfigValue> ParseConfigValue(std::optional<std::string_view> bytes) {
  if (!bytes) return ConfigValue{};
  return JacksonReader(*bytes).ParseRoot();
}

absl::StatusOr<std::string> DecodeJavaBase64(std::string_view text) {
  std::string out;
  uint32_t bits = 0;
  int count = 0;  // sextets in the current quantum
  size_t i = 0;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    int v;
    if (c >= 'A' && c <= 'Z') {
      v = c - 'A';
    } else if (c >= 'a' && c <= 'z') {
      v = c - 'a' + 26;
    } else if (c >= '0' && c <= '9') {
      v = c - '0' + 52;
    } else if (c == '+') {
      v = 62;
    } else if (c == '/') {
      v = 63;
    } else if (c == '=') {
      break;
    } else {
      return absl::InvalidArgumentError(absl::StrCat("illegal base64 character at ", i));
    }
    bits = (bits << 6) | static_cast<uint32_t>(v);
    if (++count == 4) {
      out.push_back(static_cast<char>(bits >> 16));
      out.push_back(static_cast<char>(bits >> 8));
      out.push_back(static_cast<char>(bits));
      bits = 0;
      count = 0;
    }
  }
  if (i < text.size()) {  // padding: "xx==" or "xxx=", and nothing after it
    const size_t pad = text.size() - i;
    const bool ok = (count == 2 && pad == 2 && text.substr(i) == "==") || (count == 3 && pad == 1);
    if (!ok) return absl::InvalidArgumentError("base64 input has incorrect padding");
  }
  if (count == 1) return absl::InvalidArgumentError("last base64 unit has too few bits");
  if (count == 2) out.push_back(static_cast<char>(bits >> 4));
  if (count == 3) {
    out.push_back(static_cast<char>(bits >> 10));
    out.push_back(static_cast<char>(bits >> 2));
  }
  return out;
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

}  // namespace connectd::distributed
