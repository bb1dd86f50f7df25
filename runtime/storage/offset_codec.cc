#include "runtime/storage/offset_codec.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <set>
#include <system_error>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "jvm/utf8.h"
#include "rapidjson/error/en.h"
#include "rapidjson/memorystream.h"
#include "rapidjson/reader.h"
#include "rapidjson/stream.h"
#include "runtime/common/status_macros.h"
#include "runtime/common/strings.h"

namespace connectd::storage {
namespace {

// One value of a flat offset map.
struct FlatValue {
  enum class Kind { kNull, kBool, kInt, kDouble, kString };
  Kind kind = Kind::kNull;
  bool boolean = false;
  int64_t integer = 0;
  double real = 0;
  std::string text;
};

using FlatObject = std::vector<std::pair<std::string, FlatValue>>;

// What the text being parsed must be.
enum class Shape {
  kObject,     // {flat object}
  kOffsetKey,  // ["connector",{flat object}]
};

// True if `text` holds a surrogate's 3-byte form (ED A0..BF xx), which only the decoding of a lone
// surrogate escape puts there.
bool HoldsSurrogate(std::string_view text) {
  for (size_t i = text.find('\xED'); i != std::string_view::npos; i = text.find('\xED', i + 1)) {
    if (i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0xA0) return true;
  }
  return false;
}

// SAX handler accepting only flat objects (or an offset key around one). Numbers arrive as raw
// text (kParseNumbersAsStringsFlag) so integers and doubles are told apart as Jackson does.
class FlatJsonHandler : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, FlatJsonHandler> {
 public:
  explicit FlatJsonHandler(Shape shape) : shape_(shape) {}

  bool Null() { return AddValue(FlatValue{}); }
  bool Bool(bool b) {
    FlatValue v;
    v.kind = FlatValue::Kind::kBool;
    v.boolean = b;
    return AddValue(std::move(v));
  }
  bool RawNumber(const char* str, rapidjson::SizeType length, bool) {
    const std::string_view token(str, length);
    FlatValue v;
    if (token.find_first_of(".eE") == std::string_view::npos) {
      v.kind = FlatValue::Kind::kInt;
      const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), v.integer);
      if (ec != std::errc() || end != token.data() + token.size()) {
        return Fail(absl::StrCat("integer ", AsAbsl(token), " is outside the int64 range"));
      }
    } else {
      v.kind = FlatValue::Kind::kDouble;
      const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), v.real);
      if (ec != std::errc() || end != token.data() + token.size()) {
        return Fail(absl::StrCat("number ", AsAbsl(token), " is outside the double range"));
      }
    }
    return AddValue(std::move(v));
  }
  bool String(const char* str, rapidjson::SizeType length, bool) {
    if (state_ == State::kExpectConnector) {
      connector_.assign(str, length);
      state_ = State::kExpectPartition;
      return true;
    }
    FlatValue v;
    v.kind = FlatValue::Kind::kString;
    v.text.assign(str, length);
    return AddValue(std::move(v));
  }
  bool Key(const char* str, rapidjson::SizeType length, bool) {
    pending_key_.assign(str, length);
    if (HoldsSurrogate(pending_key_)) {
      // Jackson reads a lone surrogate in a string but refuses one in a field name.
      return Fail("a map key holds a lone surrogate escape (Java's JSON parser refuses it)");
    }
    if (!keys_.insert(pending_key_).second) {
      return Fail(absl::StrCat("duplicate key \"", pending_key_, "\""));
    }
    state_ = State::kExpectValue;
    return true;
  }
  bool StartObject() {
    if (state_ == State::kStart && shape_ == Shape::kObject) {
      state_ = State::kInObject;
      return true;
    }
    if (state_ == State::kExpectPartition) {
      state_ = State::kInObject;
      return true;
    }
    if (state_ == State::kExpectValue) return Fail(NestedMessage("an object"));
    return Fail(Unexpected("an object"));
  }
  bool EndObject(rapidjson::SizeType) {
    state_ = shape_ == Shape::kObject ? State::kDone : State::kExpectArrayEnd;
    return true;
  }
  bool StartArray() {
    if (state_ == State::kStart && shape_ == Shape::kOffsetKey) {
      state_ = State::kExpectConnector;
      return true;
    }
    if (state_ == State::kExpectValue) return Fail(NestedMessage("an array"));
    return Fail(Unexpected("an array"));
  }
  bool EndArray(rapidjson::SizeType) {
    if (state_ != State::kExpectArrayEnd) {
      return Fail("an offset key must be a two-element array [\"<connector>\",{<partition>}]");
    }
    state_ = State::kDone;
    return true;
  }

  bool done() const { return state_ == State::kDone; }
  const std::string& error() const { return error_; }
  FlatObject TakeObject() { return std::move(object_); }
  std::string TakeConnector() { return std::move(connector_); }

 private:
  enum class State {
    kStart,
    kExpectConnector,
    kExpectPartition,
    kInObject,
    kExpectValue,
    kExpectArrayEnd,
    kDone,
  };

  bool AddValue(FlatValue v) {
    if (state_ != State::kExpectValue) return Fail(Unexpected(KindName(v.kind)));
    object_.emplace_back(std::move(pending_key_), std::move(v));
    pending_key_.clear();
    state_ = State::kInObject;
    return true;
  }

  static const char* KindName(FlatValue::Kind kind) {
    switch (kind) {
      case FlatValue::Kind::kNull:
        return "null";
      case FlatValue::Kind::kBool:
        return "a boolean";
      case FlatValue::Kind::kInt:
      case FlatValue::Kind::kDouble:
        return "a number";
      case FlatValue::Kind::kString:
        return "a string";
    }
    return "a value";
  }

  std::string NestedMessage(std::string_view found) const {
    return absl::StrCat("key \"", pending_key_, "\" holds ", AsAbsl(found),
                        "; only null, string, number and boolean values are allowed");
  }

  std::string Unexpected(std::string_view found) const {
    if (shape_ == Shape::kObject)
      return absl::StrCat("expected a JSON object, found ", AsAbsl(found));
    switch (state_) {
      case State::kStart:
        return absl::StrCat("an offset key must be a JSON array, found ", AsAbsl(found));
      case State::kExpectConnector:
        return absl::StrCat("an offset key must start with the connector name (a string), found ",
                            AsAbsl(found));
      case State::kExpectPartition:
        return absl::StrCat("the partition of an offset key must be a JSON object, found ",
                            AsAbsl(found));
      default:
        return "an offset key must be a two-element array [\"<connector>\",{<partition>}]";
    }
  }

  bool Fail(std::string message) {
    if (error_.empty()) error_ = std::move(message);
    return false;
  }

  const Shape shape_;
  State state_ = State::kStart;
  std::string connector_;
  std::string pending_key_;
  std::set<std::string> keys_;
  FlatObject object_;
  std::string error_;
};

struct Parsed {
  std::string connector;  // kOffsetKey only
  FlatObject object;
};

// Lone UTF-16 surrogates. A Java String may hold one (a connector named "a\uD800b"), and Jackson
// writes it as its own escape; RapidJSON refuses a lone high-surrogate escape. The text is read
// as Java reads it: each lone surrogate escape becomes the surrogate's 3-byte form (as
// connect_json.h and jvm/utf8.h keep such a char), which AppendJacksonString writes back as the
// same escape. Raw bytes stay strict UTF-8, so a 3-byte surrogate can only come from an escape.
bool IsHex4(std::string_view text, size_t at) {
  if (at + 4 > text.size()) return false;
  for (size_t k = at; k < at + 4; ++k) {
    if (!std::isxdigit(static_cast<unsigned char>(text[k]))) return false;
  }
  return true;
}

uint32_t Hex4(std::string_view text, size_t at) {
  uint32_t value = 0;
  std::from_chars(text.data() + at, text.data() + at + 4, value, 16);
  return value;
}

// The escape "\uXXXX" at `at` (its backslash), or -1 when there is none.
int64_t EscapedUnit(std::string_view text, size_t at) {
  if (at + 1 < text.size() && text[at] == '\\' && text[at + 1] == 'u' && IsHex4(text, at + 2)) {
    return Hex4(text, at + 2);
  }
  return -1;
}

// `text` with every lone surrogate escape inside a string replaced by the surrogate's 3-byte
// form; nullopt when there is none (the common case: no copy).
std::optional<std::string> WithLoneSurrogatesDecoded(std::string_view text) {
  if (text.find("\\u") == std::string_view::npos) return std::nullopt;
  std::string out;
  bool in_string = false;
  size_t copied = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (!in_string) {
      in_string = c == '"';
      continue;
    }
    if (c == '"') {
      in_string = false;
      continue;
    }
    if (c != '\\') continue;
    const int64_t unit = EscapedUnit(text, i);
    if (unit < 0xD800 || unit > 0xDFFF) {
      ++i;  // the escaped character (for "\uXXXX" the hex digits are plain characters)
      continue;
    }
    const int64_t next = EscapedUnit(text, i + 6);
    if (unit <= 0xDBFF && next >= 0xDC00 && next <= 0xDFFF) {
      i += 11;  // a surrogate pair: RapidJSON decodes it
      continue;
    }
    out.append(text.substr(copied, i - copied));
    out.push_back(static_cast<char>(0xE0 | (unit >> 12)));
    out.push_back(static_cast<char>(0x80 | ((unit >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (unit & 0x3F)));
    i += 5;
    copied = i + 1;
  }
  if (copied == 0) return std::nullopt;
  out.append(text.substr(copied));
  return out;
}

absl::StatusOr<Parsed> ParseFlat(std::string_view text, Shape shape, std::string_view what) {
  const auto invalid = [&](std::string_view message) {
    return absl::InvalidArgumentError(
        absl::StrCat("invalid ", AsAbsl(what), ": ", AsAbsl(message)));
  };
  // RapidJSON reads a NUL byte as the end of input; JSON text never contains one unescaped.
  if (std::memchr(text.data(), '\0', text.size()) != nullptr) {
    return invalid("contains a NUL byte");
  }
  // JSON text is UTF-8 (checked here, not by RapidJSON's kParseValidateEncodingFlag, which would
  // refuse the 3-byte surrogates that WithLoneSurrogatesDecoded puts in).
  if (!jvm::IsValidUtf8(text)) return invalid("is not valid UTF-8");
  const std::optional<std::string> decoded = WithLoneSurrogatesDecoded(text);
  if (decoded.has_value()) text = *decoded;
  // A length-bounded stream: RapidJSON 1.1.0 takes all continuation bytes of a UTF-8 sequence,
  // so text ending in a truncated one ("\xe6") read past a NUL terminator (found by
  // offsets_topic_fuzz); a MemoryStream reads '\0' at its end instead.
  rapidjson::MemoryStream memory(text.data(), text.size());
  FlatJsonHandler handler(shape);
  rapidjson::Reader reader;
  const rapidjson::ParseResult result =
      reader.Parse<rapidjson::kParseNumbersAsStringsFlag>(memory, handler);
  if (!handler.error().empty()) return invalid(handler.error());
  if (result.IsError()) {
    return invalid(absl::StrCat(rapidjson::GetParseError_En(result.Code()), " (at byte ",
                                result.Offset(), ")"));
  }
  if (!handler.done()) return invalid("incomplete JSON");
  Parsed parsed;
  parsed.connector = handler.TakeConnector();
  parsed.object = handler.TakeObject();
  return parsed;
}

void AppendValue(const FlatValue& v, jvm::JavaDoubleStyle style, std::string& out) {
  switch (v.kind) {
    case FlatValue::Kind::kNull:
      out.append("null");
      break;
    case FlatValue::Kind::kBool:
      out.append(v.boolean ? "true" : "false");
      break;
    case FlatValue::Kind::kInt:
      out.append(std::to_string(v.integer));
      break;
    case FlatValue::Kind::kDouble:
      out.append(jvm::FormatJavaDouble(v.real, style));
      break;
    case FlatValue::Kind::kString:
      jvm::AppendJacksonString(v.text, out);
      break;
  }
}

void AppendObject(const FlatObject& object, jvm::JavaDoubleStyle style, std::string& out) {
  out.push_back('{');
  bool first = true;
  for (const auto& [key, value] : object) {
    if (!first) out.push_back(',');
    first = false;
    jvm::AppendJacksonString(key, out);
    out.push_back(':');
    AppendValue(value, style, out);
  }
  out.push_back('}');
}

std::string ObjectText(const FlatObject& object, jvm::JavaDoubleStyle style) {
  std::string out;
  AppendObject(object, style, out);
  return out;
}

std::string KeyText(std::string_view connector, const FlatObject& partition,
                    jvm::JavaDoubleStyle style) {
  std::string out = "[";
  jvm::AppendJacksonString(connector, out);
  out.push_back(',');
  AppendObject(partition, style, out);
  out.push_back(']');
  return out;
}

FlatObject InHashMapOrder(FlatObject object) {
  std::vector<std::string> keys;
  keys.reserve(object.size());
  for (const auto& member : object) keys.push_back(member.first);
  FlatObject ordered;
  ordered.reserve(object.size());
  for (size_t index : jvm::JavaHashMapIterationOrder(keys))
    ordered.push_back(std::move(object[index]));
  return ordered;
}

FlatObject Sorted(FlatObject object) {
  std::sort(object.begin(), object.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  return object;
}

// A name as a Java String may hold it: UTF-8 (no overlongs or code points above U+10FFFF) in
// which a lone surrogate is its 3-byte form, as the parser above reads one. A high surrogate's
// form right before a low one's is refused: that pair is a supplementary character, which only
// has its 4-byte form.
absl::Status CheckJavaName(std::string_view text, std::string_view what) {
  const auto invalid = [&] {
    return absl::InvalidArgumentError(absl::StrCat(AsAbsl(what), " is not valid UTF-8"));
  };
  bool after_high_surrogate = false;
  for (size_t i = 0; i < text.size();) {
    const size_t start = i;
    const char32_t cp = jvm::DecodeOneUtf8(text, &i, /*surrogates=*/true);
    const bool replaced = cp == 0xFFFD && text.substr(start, i - start) != "\xEF\xBF\xBD";
    if (replaced) return invalid();
    const bool low = cp >= 0xDC00 && cp <= 0xDFFF;
    if (after_high_surrogate && low) return invalid();
    after_high_surrogate = cp >= 0xD800 && cp <= 0xDBFF;
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::string> SerializeOffsetKey(std::string_view connector,
                                               std::string_view partition_json,
                                               jvm::JavaDoubleStyle double_style) {
  CONNECTD_RETURN_IF_ERROR(CheckJavaName(connector, "connector name"));
  CONNECTD_ASSIGN_OR_RETURN(Parsed partition,
                            ParseFlat(partition_json, Shape::kObject, "source partition"));
  return KeyText(connector, partition.object, double_style);
}

absl::StatusOr<std::optional<std::string>> SerializeOffsetValue(
    std::optional<std::string_view> offset_json, jvm::JavaDoubleStyle double_style) {
  if (!offset_json.has_value()) return std::optional<std::string>();
  CONNECTD_ASSIGN_OR_RETURN(Parsed offset,
                            ParseFlat(*offset_json, Shape::kObject, "source offset"));
  return std::optional<std::string>(ObjectText(offset.object, double_style));
}

absl::StatusOr<OffsetKey> ParseOffsetKey(std::string_view key_bytes) {
  CONNECTD_ASSIGN_OR_RETURN(Parsed parsed, ParseFlat(key_bytes, Shape::kOffsetKey, "offset key"));
  OffsetKey key;
  key.connector = std::move(parsed.connector);
  key.partition_json = ObjectText(parsed.object, jvm::JavaDoubleStyle::kJdk17);
  return key;
}

absl::StatusOr<std::string> ParseOffsetValue(std::string_view value_bytes) {
  CONNECTD_ASSIGN_OR_RETURN(Parsed parsed, ParseFlat(value_bytes, Shape::kObject, "offset value"));
  return ObjectText(parsed.object, jvm::JavaDoubleStyle::kJdk17);
}

absl::StatusOr<std::string> CanonicalJavaHashMapOrder(std::string_view object_json,
                                                      jvm::JavaDoubleStyle double_style) {
  CONNECTD_ASSIGN_OR_RETURN(Parsed parsed, ParseFlat(object_json, Shape::kObject, "JSON map"));
  return ObjectText(InHashMapOrder(std::move(parsed.object)), double_style);
}

absl::StatusOr<std::string> CanonicalOffsetKey(std::string_view connector,
                                               std::string_view partition_json) {
  CONNECTD_RETURN_IF_ERROR(CheckJavaName(connector, "connector name"));
  CONNECTD_ASSIGN_OR_RETURN(Parsed partition,
                            ParseFlat(partition_json, Shape::kObject, "source partition"));
  return KeyText(connector, Sorted(std::move(partition.object)), jvm::JavaDoubleStyle::kJdk17);
}

bool OffsetLookupIndex::Apply(std::string_view key, std::optional<std::string_view> value) {
  absl::StatusOr<Parsed> parsed = ParseFlat(key, Shape::kOffsetKey, "offset key");
  if (!parsed.ok()) return false;
  const std::string canonical = ObjectText(Sorted(parsed->object), jvm::JavaDoubleStyle::kJdk17);
  if (!value.has_value()) {
    auto connector = connectors_.find(parsed->connector);
    if (connector != connectors_.end()) {
      connector->second.erase(canonical);
      if (connector->second.empty()) connectors_.erase(connector);
    }
    return true;
  }
  auto& partitions = connectors_[parsed->connector];
  auto [it, inserted] = partitions.try_emplace(canonical);
  if (inserted) {
    // Like Java's HashSet.add, an equal partition already present keeps its first form.
    it->second.partition_json =
        ObjectText(InHashMapOrder(std::move(parsed->object)), jvm::JavaDoubleStyle::kJdk17);
  }
  it->second.value.assign(value->data(), value->size());
  return true;
}

absl::StatusOr<std::optional<std::string>> OffsetLookupIndex::Find(
    std::string_view connector, std::string_view partition_json) const {
  CONNECTD_ASSIGN_OR_RETURN(Parsed partition,
                            ParseFlat(partition_json, Shape::kObject, "source partition"));
  const auto partitions = connectors_.find(connector);
  if (partitions == connectors_.end()) return std::optional<std::string>();
  const auto entry = partitions->second.find(
      ObjectText(Sorted(std::move(partition.object)), jvm::JavaDoubleStyle::kJdk17));
  if (entry == partitions->second.end()) return std::optional<std::string>();
  return std::optional<std::string>(entry->second.value);
}

std::vector<std::string> OffsetLookupIndex::Partitions(std::string_view connector) const {
  std::vector<std::string> result;
  const auto partitions = connectors_.find(connector);
  if (partitions == connectors_.end()) return result;
  result.reserve(partitions->second.size());
  for (const auto& [canonical, entry] : partitions->second) result.push_back(entry.partition_json);
  return result;
}

}  // namespace connectd::storage
