#include "runtime/distributed/status_records.h"

#include <array>
#include <memory>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "runtime/common/strings.h"
#include "runtime/distributed/java_split.h"
#include "runtime/storage/java_text.h"

namespace connectd::distributed {
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

// Jackson's default maximum nesting depth (StreamReadConstraints, 2.15+); the golden scenarios
// show 1000 levels accepted and 1001 refused.
constexpr int kMaxJsonDepth = 1000;

// Appends UTF-16 code units as UTF-8; a surrogate without its partner becomes its own 3-byte
// sequence (the convention of runtime/storage/java_text.h).
void AppendUtf16AsUtf8(const std::vector<uint32_t>& units, std::string& out) {
  const auto put = [&out](uint32_t cp) {
    if (cp < 0x80) {
      out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  };
  for (size_t i = 0; i < units.size(); ++i) {
    const uint32_t u = units[i];
    if (u >= 0xD800 && u <= 0xDBFF && i + 1 < units.size() && units[i + 1] >= 0xDC00 &&
        units[i + 1] <= 0xDFFF) {
      put(0x10000 + ((u - 0xD800) << 10) + (units[i + 1] - 0xDC00));
      ++i;
    } else {
      put(u);
    }
  }
}

// A parsed JSON value. Numbers keep their text; objects keep every member in order (Lookup
// returns the last of duplicates, as Jackson's tree does).
struct JsonNode {
  enum class Type { kNull, kBool, kNumber, kString, kArray, kObject };
  Type type = Type::kNull;
  bool integral = false;  // kNumber: no fraction, no exponent
  std::string text;       // kString: UTF-8; kNumber: the token
  std::vector<std::pair<std::string, std::unique_ptr<JsonNode>>> members;
  std::vector<std::unique_ptr<JsonNode>> elements;

  const JsonNode* Lookup(std::string_view name) const {
    const JsonNode* found = nullptr;
    for (const auto& [key, value] : members) {
      if (key == name) found = value.get();
    }
    return found;
  }
};

// A JSON reader that accepts what Jackson's ObjectMapper.readTree accepts as configured by
// Connect's JsonDeserializer (see status_records.h).
class JacksonReader {
 public:
  explicit JacksonReader(std::string_view text) : text_(text) {}

  absl::StatusOr<std::unique_ptr<JsonNode>> ReadRoot() {
    if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
    SkipWhitespace();
    if (pos_ >= text_.size()) return Error("no JSON content");
    auto node = std::make_unique<JsonNode>();
    if (!ReadValue(*node, 0)) return Error(error_);
    // Jackson (FAIL_ON_TRAILING_TOKENS off) never looks past the root value.
    return node;
  }

 private:
  absl::Status Error(std::string_view message) const {
    return absl::InvalidArgumentError(
        absl::StrCat("invalid JSON: ", AsAbsl(message), " (at byte ", pos_, ")"));
  }

  bool Fail(std::string message) {
    if (error_.empty()) error_ = std::move(message);
    return false;
  }

  void SkipWhitespace() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
      ++pos_;
    }
  }

  bool Peek(char& c) const {
    if (pos_ >= text_.size()) return false;
    c = text_[pos_];
    return true;
  }

  bool ReadValue(JsonNode& node, int depth) {
    char c;
    if (!Peek(c)) return Fail("unexpected end of input");
    switch (c) {
      case '{':
        return ReadObject(node, depth + 1);
      case '[':
        return ReadArray(node, depth + 1);
      case '"':
        node.type = JsonNode::Type::kString;
        return ReadString(node.text);
      case 't':
        node.type = JsonNode::Type::kBool;
        return ReadLiteral("true");
      case 'f':
        node.type = JsonNode::Type::kBool;
        return ReadLiteral("false");
      case 'n':
        node.type = JsonNode::Type::kNull;
        return ReadLiteral("null");
      default:
        if (c == '-' || (c >= '0' && c <= '9')) return ReadNumber(node);
        return Fail(absl::StrCat("unexpected character 0x", absl::Hex(static_cast<uint8_t>(c))));
    }
  }

  bool ReadLiteral(std::string_view literal) {
    if (text_.substr(pos_, literal.size()) != literal) return Fail("unrecognized token");
    pos_ += literal.size();
    return true;
  }

  bool ReadObject(JsonNode& node, int depth) {
    if (depth > kMaxJsonDepth) return Fail("nesting too deep");
    node.type = JsonNode::Type::kObject;
    ++pos_;  // '{'
    SkipWhitespace();
    char c;
    if (Peek(c) && c == '}') {
      ++pos_;
      return true;
    }
    while (true) {
      SkipWhitespace();
      if (!Peek(c) || c != '"') return Fail("expected a field name");
      std::string name;
      if (!ReadString(name)) return false;
      SkipWhitespace();
      if (!Peek(c) || c != ':') return Fail("expected ':'");
      ++pos_;
      SkipWhitespace();
      auto value = std::make_unique<JsonNode>();
      if (!ReadValue(*value, depth)) return false;
      node.members.emplace_back(std::move(name), std::move(value));
      SkipWhitespace();
      if (!Peek(c)) return Fail("unexpected end of input in an object");
      ++pos_;
      if (c == '}') return true;
      if (c != ',') return Fail("expected ',' or '}'");
    }
  }

  bool ReadArray(JsonNode& node, int depth) {
    if (depth > kMaxJsonDepth) return Fail("nesting too deep");
    node.type = JsonNode::Type::kArray;
    ++pos_;  // '['
    SkipWhitespace();
    char c;
    if (Peek(c) && c == ']') {
      ++pos_;
      return true;
    }
    while (true) {
      SkipWhitespace();
      auto value = std::make_unique<JsonNode>();
      if (!ReadValue(*value, depth)) return false;
      node.elements.push_back(std::move(value));
      SkipWhitespace();
      if (!Peek(c)) return Fail("unexpected end of input in an array");
      ++pos_;
      if (c == ']') return true;
      if (c != ',') return Fail("expected ',' or ']'");
    }
  }

  bool ReadDigits() {
    const size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
    return pos_ > start;
  }

  // -?digits(.digits)?([eE][+-]?digits)?, leading zeros allowed.
  bool ReadNumber(JsonNode& node) {
    const size_t start = pos_;
    node.type = JsonNode::Type::kNumber;
    node.integral = true;
    if (text_[pos_] == '-') ++pos_;
    if (!ReadDigits()) return Fail("a number needs digits");
    char c;
    if (Peek(c) && c == '.') {
      ++pos_;
      node.integral = false;
      if (!ReadDigits()) return Fail("a decimal point must be followed by digits");
    }
    if (Peek(c) && (c == 'e' || c == 'E')) {
      ++pos_;
      node.integral = false;
      if (Peek(c) && (c == '+' || c == '-')) ++pos_;
      if (!ReadDigits()) return Fail("an exponent needs digits");
    }
    node.text.assign(text_.substr(start, pos_ - start));
    return true;
  }

  bool ReadHex4(uint32_t& value) {
    if (pos_ + 4 > text_.size()) return Fail("truncated \\u escape");
    value = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = text_[pos_++];
      uint32_t digit;
      if (c >= '0' && c <= '9') {
        digit = c - '0';
      } else if (c >= 'a' && c <= 'f') {
        digit = c - 'a' + 10;
      } else if (c >= 'A' && c <= 'F') {
        digit = c - 'A' + 10;
      } else {
        return Fail("invalid \\u escape");
      }
      value = value * 16 + digit;
    }
    return true;
  }

  bool Continuation(uint32_t& acc) {
    if (pos_ >= text_.size()) return Fail("truncated UTF-8 sequence");
    const auto b = static_cast<uint8_t>(text_[pos_++]);
    if ((b & 0xC0) != 0x80) return Fail("invalid UTF-8 middle byte");
    acc = (acc << 6) | (b & 0x3F);
    return true;
  }

  // Reads a string into UTF-16 units as Jackson's UTF8StreamJsonParser decodes it, then UTF-8.
  bool ReadString(std::string& out) {
    ++pos_;  // '"'
    std::vector<uint32_t> units;
    while (true) {
      if (pos_ >= text_.size()) return Fail("unterminated string");
      const auto b = static_cast<uint8_t>(text_[pos_++]);
      if (b == '"') break;
      if (b < 0x20) return Fail("unescaped control character in a string");
      if (b == '\\') {
        if (pos_ >= text_.size()) return Fail("unterminated string");
        const char e = text_[pos_++];
        switch (e) {
          case '"':
          case '\\':
          case '/':
            units.push_back(static_cast<uint8_t>(e));
            break;
          case 'b':
            units.push_back('\b');
            break;
          case 'f':
            units.push_back('\f');
            break;
          case 'n':
            units.push_back('\n');
            break;
          case 'r':
            units.push_back('\r');
            break;
          case 't':
            units.push_back('\t');
            break;
          case 'u': {
            uint32_t unit;
            if (!ReadHex4(unit)) return false;
            units.push_back(unit);
            break;
          }
          default:
            return Fail("unrecognized escape");
        }
        continue;
      }
      if (b < 0x80) {
        units.push_back(b);
      } else if ((b & 0xE0) == 0xC0) {
        uint32_t c = b & 0x1F;
        if (!Continuation(c)) return false;
        units.push_back(c);
      } else if ((b & 0xF0) == 0xE0) {
        uint32_t c = b & 0x0F;
        if (!Continuation(c) || !Continuation(c)) return false;
        units.push_back(c);
      } else if ((b & 0xF8) == 0xF0) {
        uint32_t c = b & 0x07;
        if (!Continuation(c) || !Continuation(c) || !Continuation(c)) return false;
        if (c > 0x10FFFF) return Fail("UTF-8 sequence beyond U+10FFFF");
        c -= 0x10000;
        units.push_back(0xD800 | (c >> 10));
        units.push_back(0xDC00 | (c & 0x3FF));
      } else {
        return Fail("invalid UTF-8 start byte");
      }
    }
    out.clear();
    AppendUtf16AsUtf8(units, out);
    return true;
  }

  std::string_view text_;
  size_t pos_ = 0;
  std::string error_;
};

absl::StatusOr<std::unique_ptr<JsonNode>> ReadJsonObject(std::string_view bytes) {
  JacksonReader reader(bytes);
  auto root = reader.ReadRoot();
  if (!root.ok()) return root.status();
  if ((*root)->type != JsonNode::Type::kObject) {
    return absl::InvalidArgumentError("the value is not a JSON object");
  }
  return root;
}

// The integer's low 64 bits (BigInteger.longValue / Long), from its decimal text.
uint64_t LowBits(std::string_view integer) {
  bool negative = false;
  if (!integer.empty() && integer[0] == '-') {
    negative = true;
    integer.remove_prefix(1);
  }
  uint64_t value = 0;
  for (char c : integer) value = value * 10 + static_cast<uint64_t>(c - '0');
  return negative ? ~value + 1 : value;
}

absl::Status FieldError(std::string_view field, std::string_view expected) {
  return absl::InvalidArgumentError(
      absl::StrCat("field \"", AsAbsl(field), "\" must be ", AsAbsl(expected)));
}

// A (String) cast: absent or null gives nullopt, a string its text, anything else an error.
absl::StatusOr<std::optional<std::string>> OptionalString(const JsonNode& object,
                                                          std::string_view field) {
  const JsonNode* node = object.Lookup(field);
  if (node == nullptr || node->type == JsonNode::Type::kNull) return std::optional<std::string>();
  if (node->type != JsonNode::Type::kString) return FieldError(field, "a string or null");
  return std::optional<std::string>(node->text);
}

absl::StatusOr<std::string> RequiredString(const JsonNode& object, std::string_view field) {
  const JsonNode* node = object.Lookup(field);
  if (node == nullptr || node->type != JsonNode::Type::kString) {
    return FieldError(field, "a string");
  }
  return node->text;
}

// A (Long) cast of JsonConverter's INT64: any integral JSON number.
absl::StatusOr<uint64_t> RequiredInteger(const JsonNode& object, std::string_view field) {
  const JsonNode* node = object.Lookup(field);
  if (node == nullptr || node->type != JsonNode::Type::kNumber || !node->integral) {
    return FieldError(field, "an integer");
  }
  return LowBits(node->text);
}

bool IsValidUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto b = static_cast<uint8_t>(s[i]);
    size_t n;
    uint32_t cp;
    if (b < 0x80) {
      ++i;
      continue;
    } else if (b >= 0xC2 && b <= 0xDF) {
      n = 1;
      cp = b & 0x1F;
    } else if (b >= 0xE0 && b <= 0xEF) {
      n = 2;
      cp = b & 0x0F;
    } else if (b >= 0xF0 && b <= 0xF4) {
      n = 3;
      cp = b & 0x07;
    } else {
      return false;
    }
    for (size_t k = 1; k <= n; ++k) {
      if (i + k >= s.size()) return false;
      const auto c = static_cast<uint8_t>(s[i + k]);
      if ((c & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (c & 0x3F);
    }
    if ((n == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
        (n == 3 && (cp < 0x10000 || cp > 0x10FFFF))) {
      return false;
    }
    i += n + 1;
  }
  return true;
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
  storage::AppendJacksonString(StatusStateName(value.state), out);
  out.append(",\"trace\":");
  if (value.trace.has_value()) {
    storage::AppendJacksonString(*value.trace, out);
  } else {
    out.append("null");
  }
  out.append(",\"worker_id\":");
  storage::AppendJacksonString(*value.worker_id, out);
  absl::StrAppend(&out, ",\"generation\":", value.generation, ",\"version\":");
  if (value.version.has_value()) {
    storage::AppendJacksonString(*value.version, out);
  } else {
    out.append("null");
  }
  out.push_back('}');
  return std::optional<std::string>(std::move(out));
}

std::string EncodeTopicStatusValue(const TopicStatusValue& value) {
  std::string out = "{\"topic\":{\"name\":";
  storage::AppendJacksonString(value.topic, out);
  out.append(",\"connector\":");
  storage::AppendJacksonString(value.connector, out);
  absl::StrAppend(&out, ",\"task\":", value.task,
                  ",\"discoverTimestamp\":", value.discover_timestamp, "}}");
  return out;
}

absl::StatusOr<StatusValue> DecodeStatusValue(std::string_view bytes) {
  auto root = ReadJsonObject(bytes);
  if (!root.ok()) return root.status();
  const JsonNode& object = **root;
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
  const JsonNode* inner = (*root)->Lookup("topic");
  if (inner == nullptr || inner->type != JsonNode::Type::kObject) {
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
  if (!IsValidUtf8(key)) return InvalidKey(key, "not valid UTF-8");
  StatusKey parsed;
  if (key.substr(0, kConnectorStatusPrefix.size()) == kConnectorStatusPrefix) {
    parsed.kind = StatusKey::Kind::kConnector;
    parsed.connector.assign(key.substr(kConnectorStatusPrefix.size()));
    if (parsed.connector.empty()) return InvalidKey(key, "empty connector name");
    return parsed;
  }
  if (key.substr(0, kTaskStatusPrefix.size()) == kTaskStatusPrefix) {
    parsed.kind = StatusKey::Kind::kTask;
    const std::vector<std::string_view> parts = JavaSplit(key, '-');
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

}  // namespace connectd::distributed
