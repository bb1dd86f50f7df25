#include "runtime/data/connect_json.h"

#include <cctype>
#include <cstddef>
#include <cstdlib>
#include <limits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "jvm/utf8.h"
#include "runtime/common/strings.h"

namespace connectd::data {
namespace {

constexpr int kMaxDepth = 1000;
// StreamReadConstraints.maxNumberLength: integer digits for an integer, characters for any other
// number.
constexpr size_t kMaxNumberLength = 1000;

bool IsHighSurrogate(uint32_t u) { return u >= 0xD800 && u <= 0xDBFF; }
bool IsLowSurrogate(uint32_t u) { return u >= 0xDC00 && u <= 0xDFFF; }

// Builds a string's UTF-8 from UTF-16 units, joining a high surrogate and the low surrogate right
// after it into one character (a Java String holds the pair; std::string its 4-byte form).
class Utf16ToUtf8 {
 public:
  explicit Utf16ToUtf8(std::string& out) : out_(out) {}

  // Unit appends one UTF-16 unit from a \u escape.
  void Unit(uint32_t u) {
    if (pending_high_ != 0 && IsLowSurrogate(u)) {
      jvm::AppendUtf8(0x10000 + ((pending_high_ - 0xD800) << 10) + (u - 0xDC00), out_);
      pending_high_ = 0;
      return;
    }
    Flush();
    if (IsHighSurrogate(u)) {
      pending_high_ = u;
    } else {
      jvm::AppendUtf8(u, out_);
    }
  }

  // CodePoint appends a character that no surrogate before or after it joins.
  void CodePoint(uint32_t cp) {
    Flush();
    jvm::AppendUtf8(cp, out_);
  }

  // Ascii appends characters below 0x80 (none a surrogate) at once.
  void Ascii(std::string_view text) {
    Flush();
    out_.append(text);
  }

  void Flush() {
    if (pending_high_ != 0) jvm::AppendUtf8(pending_high_, out_);
    pending_high_ = 0;
  }

 private:
  std::string& out_;
  uint32_t pending_high_ = 0;  // a high surrogate waiting for its low one; 0: none
};

// A recursive-descent reader for what Jackson accepts (see connect_json.h).
class JacksonReader {
 public:
  explicit JacksonReader(std::string_view in) : in_(in) {}

  absl::StatusOr<JsonValue> ParseRoot() {
    if (in_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
    SkipWhitespace();
    if (pos_ == in_.size()) return JsonValue{};  // no content: MissingNode, read as null
    JsonValue value;
    if (!ParseValue(value, 0)) return absl::InvalidArgumentError(error_);
    // A root-level number must be followed by whitespace or the end (_verifyRootSpace).
    const bool number =
        value.kind == JsonValue::Kind::kLong || value.kind == JsonValue::Kind::kDouble;
    if (number && pos_ < in_.size() && !IsWhitespace(in_[pos_])) {
      return absl::InvalidArgumentError(
          absl::StrCat("expected space separating root-level values at byte ", pos_));
    }
    return value;
  }

 private:
  static bool IsWhitespace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

  bool Fail(std::string_view message) {
    if (error_.empty()) error_ = absl::StrCat(AsAbsl(message), " at byte ", pos_);
    return false;
  }

  void SkipWhitespace() {
    while (pos_ < in_.size() && IsWhitespace(in_[pos_])) ++pos_;
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

  bool ParseValue(JsonValue& out, int depth) {
    if (pos_ >= in_.size()) return Fail("unexpected end of input");
    switch (in_[pos_]) {
      case '{':
        return ParseObject(out, depth + 1);
      case '[':
        return ParseArray(out, depth + 1);
      case '"':
        out.kind = JsonValue::Kind::kString;
        return ParseString(out.text);
      case 't':
        out.kind = JsonValue::Kind::kBool;
        out.boolean = true;
        return Literal("true");
      case 'f':
        out.kind = JsonValue::Kind::kBool;
        out.boolean = false;
        return Literal("false");
      case 'n':
        out.kind = JsonValue::Kind::kNull;
        return Literal("null");
      default:
        return ParseNumber(out);
    }
  }

  bool ParseObject(JsonValue& out, int depth) {
    if (depth > kMaxDepth) return Fail("nesting depth exceeds 1000");
    out.kind = JsonValue::Kind::kObject;
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
      JsonValue member;
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
      if (!EndOfMember('}')) return false;
      if (in_[pos_ - 1] == '}') return true;
    }
  }

  bool ParseArray(JsonValue& out, int depth) {
    if (depth > kMaxDepth) return Fail("nesting depth exceeds 1000");
    out.kind = JsonValue::Kind::kArray;
    ++pos_;  // '['
    SkipWhitespace();
    if (pos_ < in_.size() && in_[pos_] == ']') {
      ++pos_;
      return true;
    }
    while (true) {
      SkipWhitespace();
      JsonValue element;
      if (!ParseValue(element, depth)) return false;
      out.elements.push_back(std::move(element));
      if (!EndOfMember(']')) return false;
      if (in_[pos_ - 1] == ']') return true;
    }
  }

  // EndOfMember consumes the ',' or `close` after a container's member.
  bool EndOfMember(char close) {
    SkipWhitespace();
    if (pos_ >= in_.size()) {
      return Fail(close == '}' ? "unexpected end of input in an object"
                               : "unexpected end of input in an array");
    }
    if (in_[pos_] != ',' && in_[pos_] != close) {
      return Fail(close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
    }
    ++pos_;
    return true;
  }

  size_t Digits() {
    const size_t start = pos_;
    while (pos_ < in_.size() && in_[pos_] >= '0' && in_[pos_] <= '9') ++pos_;
    return pos_ - start;
  }

  // -?digits(.digits)?([eE][+-]?digits)?, leading zeros allowed.
  bool ParseNumber(JsonValue& out) {
    const size_t start = pos_;
    const bool negative = in_[pos_] == '-';
    if (negative) ++pos_;
    const size_t int_start = pos_;
    const size_t int_digits = Digits();
    if (int_digits == 0) return Fail("unexpected character");
    if (int_digits > kMaxNumberLength) return Fail("number longer than the limit");
    const size_t int_end = pos_;
    bool integral = true;
    size_t fraction_digits = 0;
    if (pos_ < in_.size() && in_[pos_] == '.') {
      integral = false;
      ++pos_;
      fraction_digits = Digits();
      if (fraction_digits == 0) return Fail("decimal point not followed by a digit");
    }
    if (pos_ < in_.size() && (in_[pos_] == 'e' || in_[pos_] == 'E')) {
      integral = false;
      ++pos_;
      const bool negative_exponent = pos_ < in_.size() && in_[pos_] == '-';
      if (pos_ < in_.size() && (in_[pos_] == '+' || in_[pos_] == '-')) ++pos_;
      const size_t exponent_start = pos_;
      if (Digits() == 0) return Fail("exponent not followed by a digit");
      // new BigDecimal(literal): the exponent must fit an int, and so must the scale
      // (fraction digits - exponent); Jackson then fails to read the number.
      const std::string_view exponent_digits = in_.substr(exponent_start, pos_ - exponent_start);
      const size_t first = exponent_digits.find_first_not_of('0');
      const std::string_view significant =
          first == std::string_view::npos ? std::string_view() : exponent_digits.substr(first);
      int64_t exponent = 0;
      if (significant.size() > 10) return Fail("number exponent out of range");
      for (char c : significant) exponent = exponent * 10 + (c - '0');
      if (negative_exponent) exponent = -exponent;
      const int64_t scale = static_cast<int64_t>(fraction_digits) - exponent;
      if (exponent > std::numeric_limits<int32_t>::max() ||
          exponent < -int64_t{std::numeric_limits<int32_t>::max()} ||
          scale > std::numeric_limits<int32_t>::max() ||
          scale < std::numeric_limits<int32_t>::min()) {
        return Fail("number exponent out of range");
      }
    }
    if (integral) {
      // BigInteger.longValue(): the low 64 bits of the two's complement value.
      uint64_t magnitude = 0;
      for (size_t i = int_start; i < int_end; ++i) {
        magnitude = magnitude * 10 + static_cast<uint64_t>(in_[i] - '0');
      }
      out.kind = JsonValue::Kind::kLong;
      out.integer = static_cast<int64_t>(negative ? ~magnitude + 1 : magnitude);
      out.number.assign(in_.substr(start, pos_ - start));
      return true;
    }
    if (pos_ - start > kMaxNumberLength) return Fail("number longer than the limit");
    // Jackson reads the decimal exactly (BigDecimal) and takes doubleValue(): correctly rounded,
    // overflow to infinity, underflow to a signed zero, but an exact zero is +0.0 ("-0.0").
    const std::string text(in_.substr(start, pos_ - start));
    out.kind = JsonValue::Kind::kDouble;
    out.real = std::strtod(text.c_str(), nullptr);
    out.number = text;
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

  bool Escape(Utf16ToUtf8& sink) {
    if (pos_ >= in_.size()) return Fail("unterminated string");
    const char e = in_[pos_++];
    uint32_t unit = 0;
    switch (e) {
      case '"':
      case '\\':
      case '/':
        unit = static_cast<uint32_t>(e);
        break;
      case 'b':
        unit = '\b';
        break;
      case 'f':
        unit = '\f';
        break;
      case 'n':
        unit = '\n';
        break;
      case 'r':
        unit = '\r';
        break;
      case 't':
        unit = '\t';
        break;
      case 'u':
        if (!Hex4(unit)) return false;
        break;
      default:
        return Fail("unrecognized character escape");
    }
    sink.Unit(unit);
    return true;
  }

  // RawUtf8 decodes the multi-byte form led by `c` (already consumed) as Jackson does.
  bool RawUtf8(unsigned char c, Utf16ToUtf8& sink) {
    uint32_t cp = 0;
    if (c >= 0xC0 && c <= 0xDF) {  // overlong forms are not checked
      cp = c & 0x1F;
      if (!Continuation(cp)) return false;
      sink.CodePoint(cp);
    } else if (c >= 0xE0 && c <= 0xEF) {
      cp = c & 0x0F;
      if (!Continuation(cp) || !Continuation(cp)) return false;
      if (IsHighSurrogate(cp) || IsLowSurrogate(cp)) return Fail("UTF-8 encoded surrogate");
      sink.CodePoint(cp);
    } else if (c >= 0xF0 && c <= 0xF7) {
      cp = c & 0x07;
      if (!Continuation(cp) || !Continuation(cp) || !Continuation(cp)) return false;
      if (cp <= 0x10FFFF) {
        sink.CodePoint(cp);
      } else {  // Java keeps the two (out-of-range) UTF-16 units
        const uint32_t v = cp - 0x10000;
        sink.CodePoint(0xD800 + (v >> 10));
        sink.CodePoint(0xDC00 + (v & 0x3FF));
      }
    } else {
      return Fail("invalid UTF-8 start byte");
    }
    return true;
  }

  bool ParseString(std::string& out) {
    ++pos_;  // '"'
    Utf16ToUtf8 sink(out);
    while (true) {
      if (pos_ >= in_.size()) return Fail("unterminated string");
      const unsigned char c = static_cast<unsigned char>(in_[pos_]);
      if (c == '"') {
        ++pos_;
        sink.Flush();
        return true;
      }
      if (c < 0x20) return Fail("unescaped control character in a string");
      if (c < 0x80 && c != '\\') {
        // A run of plain ASCII, the usual string, in one append.
        size_t end = pos_ + 1;
        while (end < in_.size()) {
          const unsigned char d = static_cast<unsigned char>(in_[end]);
          if (d < 0x20 || d >= 0x80 || d == '"' || d == '\\') break;
          ++end;
        }
        sink.Ascii(in_.substr(pos_, end - pos_));
        pos_ = end;
        continue;
      }
      ++pos_;
      if (c == '\\') {
        if (!Escape(sink)) return false;
      } else if (c < 0x80) {
        sink.CodePoint(c);
      } else if (!RawUtf8(c, sink)) {
        return false;
      }
    }
  }

  std::string_view in_;
  size_t pos_ = 0;
  std::string error_;
};

}  // namespace

const JsonValue* JsonValue::Find(std::string_view key) const {
  if (kind != Kind::kObject) return nullptr;
  for (const auto& [name, value] : members) {
    if (name == key) return &value;
  }
  return nullptr;
}

absl::StatusOr<JsonValue> ReadConnectJson(std::string_view bytes) {
  return JacksonReader(bytes).ParseRoot();
}

}  // namespace connectd::data
