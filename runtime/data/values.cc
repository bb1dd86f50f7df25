#include "runtime/data/values.h"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "runtime/common/strings.h"
#include "runtime/data/simple_date_format.h"
#include "jvm/java_text.h"

namespace connectd::data {
namespace {

constexpr int64_t kMillisPerDay = 86400000;

const SimpleDateFormat& IsoFormat(std::string_view pattern) {
  static const auto* date = new SimpleDateFormat(*SimpleDateFormat::Compile("yyyy-MM-dd"));
  static const auto* time = new SimpleDateFormat(*SimpleDateFormat::Compile("HH:mm:ss.SSS'Z'"));
  static const auto* timestamp =
      new SimpleDateFormat(*SimpleDateFormat::Compile("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'"));
  if (pattern == "date") return *date;
  if (pattern == "time") return *time;
  return *timestamp;
}

const SchemaPtr& LogicalSchema(std::string_view name) {
  static const auto* date = new SchemaPtr(Freeze(DateSchema()));
  static const auto* time = new SchemaPtr(Freeze(TimeSchema()));
  static const auto* timestamp = new SchemaPtr(Freeze(TimestampSchema()));
  if (name == kDateLogicalName) return *date;
  if (name == kTimeLogicalName) return *time;
  return *timestamp;
}

absl::Status DataError(std::string message) { return absl::InvalidArgumentError(message); }

// String.trim(): strips characters up to U+0020 from both ends.
std::string_view JavaTrim(std::string_view s) {
  while (!s.empty() && static_cast<unsigned char>(s.front()) <= ' ') s.remove_prefix(1);
  while (!s.empty() && static_cast<unsigned char>(s.back()) <= ' ') s.remove_suffix(1);
  return s;
}
bool IsBlank(std::string_view s) { return JavaTrim(s).empty(); }

// String.length(): UTF-16 code units of UTF-8 text.
size_t Utf16Length(std::string_view utf8) {
  size_t n = 0;
  for (unsigned char c : utf8) {
    if ((c & 0xC0) != 0x80) ++n;
    if (c >= 0xF0) ++n;
  }
  return n;
}

// ---- new BigDecimal(String) -------------------------------------------------------------------

// A decimal literal as Java's BigDecimal reads it: value = digits x 10^-scale.
struct DecimalText {
  bool negative = false;
  std::string digits;  // as written, leading zeros included; never empty
  int64_t scale = 0;
};

std::optional<DecimalText> ReadDecimal(std::string_view s) {
  DecimalText d;
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) d.negative = s[i++] == '-';
  bool any = false;
  for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
    d.digits.push_back(s[i]);
    any = true;
  }
  if (i < s.size() && s[i] == '.') {
    for (++i; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
      d.digits.push_back(s[i]);
      ++d.scale;
      any = true;
    }
  }
  if (!any) return std::nullopt;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool exponent_negative = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) exponent_negative = s[i++] == '-';
    if (i == s.size()) return std::nullopt;
    int64_t exponent = 0;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
      exponent = exponent * 10 + (s[i] - '0');
      if (exponent > std::numeric_limits<int32_t>::max()) return std::nullopt;
    }
    d.scale -= exponent_negative ? -exponent : exponent;
  }
  if (i != s.size()) return std::nullopt;
  if (d.scale > std::numeric_limits<int32_t>::max() ||
      d.scale < std::numeric_limits<int32_t>::min()) {
    return std::nullopt;
  }
  return d;
}

// The literal in a form strtod and ParseJavaDecimal read.
std::string CanonicalText(const DecimalText& d) {
  std::string out = d.negative ? "-" : "";
  out += d.digits;
  if (d.scale != 0) absl::StrAppend(&out, "E", -d.scale);
  return out;
}

absl::StatusOr<Decimal> ToDecimal(const DecimalText& d) {
  return ParseJavaDecimal(CanonicalText(d));
}

// The value as a long when it is a whole number within long's range (Values' exact decimal).
std::optional<int64_t> ExactLong(const DecimalText& d) {
  std::string_view coeff = d.digits;
  while (!coeff.empty() && coeff.front() == '0') coeff.remove_prefix(1);
  if (coeff.empty()) return 0;
  int64_t scale = d.scale;
  while (coeff.back() == '0') {
    coeff.remove_suffix(1);
    --scale;
  }
  if (scale > 0) return std::nullopt;
  if (static_cast<int64_t>(coeff.size()) - scale > 19) return std::nullopt;
  const std::string magnitude = std::string(coeff) + std::string(static_cast<size_t>(-scale), '0');
  if (magnitude.size() == 19 &&
      magnitude > (d.negative ? "9223372036854775808" : "9223372036854775807")) {
    return std::nullopt;
  }
  const uint64_t m = std::strtoull(magnitude.c_str(), nullptr, 10);
  return static_cast<int64_t>(d.negative ? 0 - m : m);
}

// ---- Java number conversions ------------------------------------------------------------------

std::optional<int64_t> NumberLongValue(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kInt8:
      return v.int8();
    case Value::Kind::kInt16:
      return v.int16();
    case Value::Kind::kInt32:
      return v.int32();
    case Value::Kind::kInt64:
      return v.int64();
    case Value::Kind::kFloat32:
      return JavaDoubleToLong(v.float32());
    case Value::Kind::kFloat64:
      return JavaDoubleToLong(v.float64());
    case Value::Kind::kDecimal:
      return LongValue(v.decimal());
    default:
      return std::nullopt;
  }
}

std::optional<double> NumberDoubleValue(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kInt8:
      return v.int8();
    case Value::Kind::kInt16:
      return v.int16();
    case Value::Kind::kInt32:
      return v.int32();
    case Value::Kind::kInt64:
      return static_cast<double>(v.int64());
    case Value::Kind::kFloat32:
      return v.float32();
    case Value::Kind::kFloat64:
      return v.float64();
    case Value::Kind::kDecimal:
      return DoubleValue(v.decimal());
    default:
      return std::nullopt;
  }
}

// Values.asLong.
absl::StatusOr<int64_t> AsLong(const Value& value, const Schema* schema) {
  if (std::optional<int64_t> n = NumberLongValue(value)) return *n;
  if (value.kind() == Value::Kind::kString) {
    if (std::optional<DecimalText> d = ReadDecimal(value.string())) {
      if (absl::StatusOr<Decimal> dec = ToDecimal(*d); dec.ok()) return LongValue(*dec);
    }
  }
  if (schema != nullptr) {
    if (value.kind() == Value::Kind::kDate &&
        (schema->IsLogical(kDateLogicalName) || schema->IsLogical(kTimeLogicalName) ||
         schema->IsLogical(kTimestampLogicalName))) {
      absl::StatusOr<Value> encoded = EncodeLogical(*schema, value);
      if (!encoded.ok()) return encoded.status();
      return encoded->kind() == Value::Kind::kInt32 ? encoded->int32() : encoded->int64();
    }
    return DataError(absl::StrCat("Unable to convert ", JavaToString(value), " (",
                                  AsAbsl(JavaClassName(value.kind())), ") to ", ToString(schema)));
  }
  return DataError(absl::StrCat("Unable to convert ", JavaToString(value), " (",
                                AsAbsl(JavaClassName(value.kind())), ") to a number"));
}

// Values.asDouble.
absl::StatusOr<double> AsDouble(const Value& value, const Schema* schema) {
  if (std::optional<double> n = NumberDoubleValue(value)) return *n;
  if (value.kind() == Value::Kind::kString) {
    if (std::optional<DecimalText> d = ReadDecimal(value.string())) {
      if (absl::StatusOr<Decimal> dec = ToDecimal(*d); dec.ok()) return DoubleValue(*dec);
    }
  }
  absl::StatusOr<int64_t> l = AsLong(value, schema);
  if (!l.ok()) return l.status();
  return static_cast<double>(*l);
}

// ---- Values.convertTo (toSchema, no fromSchema): how parsed arrays and maps are aligned ---------

absl::StatusOr<std::pair<SchemaPtr, Value>> ParseStringInternal(std::string_view text);

absl::StatusOr<Value> ConvertToLogical(std::string_view name, Value value) {
  if (value.kind() == Value::Kind::kString) {
    absl::StatusOr<std::pair<SchemaPtr, Value>> parsed = ParseStringInternal(value.string());
    if (!parsed.ok()) return parsed.status();
    value = parsed->second;
  }
  if (value.kind() == Value::Kind::kDate) return value;  // no fromSchema: as it is
  absl::StatusOr<int64_t> numeric = AsLong(value, nullptr);
  if (!numeric.ok()) return numeric.status();
  const auto as_int = static_cast<int32_t>(static_cast<uint32_t>(*numeric));
  if (name == kDateLogicalName) return Value::OfDate(static_cast<int64_t>(as_int) * kMillisPerDay);
  if (name == kTimeLogicalName) {
    if (as_int < 0 || as_int > kMillisPerDay) {
      return DataError(
          "Time values must use number of milliseconds greater than 0 and less than 86400000");
    }
    return Value::OfDate(as_int);
  }
  return Value::OfDate(*numeric);
}

absl::StatusOr<Value> ConvertTo(const Schema& to, const Value& value) {
  if (value.is_null()) {
    if (to.optional) return Value();
    return DataError("Unable to convert a null value to a schema that requires a value");
  }
  auto unable = [&]() {
    return DataError(absl::StrCat("Unable to convert ", JavaToString(value), " (",
                                  AsAbsl(JavaClassName(value.kind())), ") to ", ToString(&to)));
  };
  switch (to.type) {
    case Type::kBytes:
      if (to.IsLogical(kDecimalLogicalName)) {
        if (value.kind() == Value::Kind::kDecimal) return value;
        if (std::optional<double> d = NumberDoubleValue(value)) {
          absl::StatusOr<Decimal> dec = ParseBigDecimal(jvm::FormatJavaDouble(*d));
          if (!dec.ok()) return dec.status();
          return Value::OfDecimal(*dec);
        }
        if (value.kind() == Value::Kind::kString) {
          absl::StatusOr<Decimal> dec = ParseBigDecimal(value.string());
          if (!dec.ok()) return dec.status();
          return Value::OfDecimal(*dec);
        }
        return unable();
      }
      if (value.kind() == Value::Kind::kBytes) return value;
      return unable();
    case Type::kString:
      return Value::String(ConvertToString(nullptr, value));
    case Type::kBoolean:
      return ConvertToBoolean(nullptr, value);
    case Type::kInt8:
      return ConvertToByte(nullptr, value);
    case Type::kInt16:
      return ConvertToShort(nullptr, value);
    case Type::kInt32:
      if (to.IsLogical(kDateLogicalName)) return ConvertToLogical(kDateLogicalName, value);
      if (to.IsLogical(kTimeLogicalName)) return ConvertToLogical(kTimeLogicalName, value);
      return ConvertToInteger(nullptr, value);
    case Type::kInt64:
      if (to.IsLogical(kTimestampLogicalName))
        return ConvertToLogical(kTimestampLogicalName, value);
      return ConvertToLong(nullptr, value);
    case Type::kFloat32:
      return ConvertToFloat(nullptr, value);
    case Type::kFloat64:
      return ConvertToDouble(nullptr, value);
    case Type::kArray:
    case Type::kMap: {
      Value v = value;
      if (v.kind() == Value::Kind::kString) {
        absl::StatusOr<std::pair<SchemaPtr, Value>> parsed = ParseStringInternal(v.string());
        if (!parsed.ok()) return parsed.status();
        v = parsed->second;
      }
      const auto want = to.type == Type::kArray ? Value::Kind::kArray : Value::Kind::kMap;
      if (v.kind() == want) return v;
      return DataError(absl::StrCat("Unable to convert ", JavaToString(v), " (",
                                    AsAbsl(JavaClassName(v.kind())), ") to ", ToString(&to)));
    }
    case Type::kStruct:
      if (value.kind() == Value::Kind::kStruct) return value;
      return unable();
  }
  return unable();
}

// ---- Values.parseString -----------------------------------------------------------------------

// Values.Parser: splits the text into tokens at the delimiters : , { } [ ] " (unless escaped with
// a backslash; escapes stay in the tokens), each delimiter a token of its own, with one token of
// look-ahead and rewinding to a mark.
class Tokenizer {
 public:
  explicit Tokenizer(std::string_view original) : original_(original) {}

  std::string_view original() const { return original_; }
  size_t Mark() const { return pos_ - (next_ ? next_->size() : 0); }
  void RewindTo(size_t position) {
    pos_ = position;
    next_.reset();
    previous_.reset();
  }
  bool HasNext() const { return next_.has_value() || pos_ < original_.size(); }

  std::string_view Next() {
    if (next_) {
      previous_ = next_;
      next_.reset();
    } else {
      previous_ = Consume();
    }
    return *previous_;
  }

  // The text of the next n tokens, or nullopt (nothing consumed) when fewer remain.
  std::optional<std::string_view> Next(int n) {
    const size_t start = Mark();
    for (int i = 0; i < n; ++i) {
      if (!HasNext()) {
        RewindTo(start);
        return std::nullopt;
      }
      Next();
    }
    return original_.substr(start, pos_ - start);
  }

  // Consumes the next token if, trimmed, it is `expected`; white-space tokens before it are
  // skipped (and lost) either way.
  bool CanConsume(std::string_view expected) {
    if (!next_) {
      if (!HasNext()) return false;
      next_ = Consume();
    }
    while (IsBlank(*next_) && pos_ < original_.size()) next_ = Consume();
    if (JavaTrim(*next_) != expected) return false;
    next_.reset();
    return true;
  }

 private:
  std::string_view Consume() {
    bool escaped = false;
    const size_t start = pos_;
    for (; pos_ < original_.size(); ++pos_) {
      switch (original_[pos_]) {
        case '\\':
          escaped = !escaped;
          break;
        case ':':
        case ',':
        case '{':
        case '}':
        case '[':
        case ']':
        case '"':
          if (!escaped) {
            if (start < pos_) return original_.substr(start, pos_ - start);
            ++pos_;
            return original_.substr(start, 1);
          }
          escaped = false;
          break;
        default:
          escaped = false;
          break;
      }
    }
    return original_.substr(start, pos_ - start);
  }

  std::string_view original_;
  size_t pos_ = 0;
  std::optional<std::string_view> next_;
  std::optional<std::string_view> previous_;
};

struct SchemaAndValue {
  SchemaPtr schema;
  Value value;
};
// nullopt is Java's null SchemaAndValue (a "null" literal, or nothing left to parse).
using Parsed = std::optional<SchemaAndValue>;

// Values.mergeSchemas: a schema for values of both, numbers widening; nullptr when none.
SchemaPtr MergeSchemas(const SchemaPtr& previous, const SchemaPtr& latest) {
  const Type a = previous->type;
  const Type b = latest->type;
  auto is = [&](std::initializer_list<Type> types) {
    for (Type t : types) {
      if (b == t) return true;
    }
    return false;
  };
  if (a != b) {
    switch (a) {
      case Type::kInt8:
        return is({Type::kInt16, Type::kInt32, Type::kInt64, Type::kFloat32, Type::kFloat64})
                   ? latest
                   : nullptr;
      case Type::kInt16:
        if (b == Type::kInt8) return previous;
        return is({Type::kInt32, Type::kInt64, Type::kFloat32, Type::kFloat64}) ? latest : nullptr;
      case Type::kInt32:
        if (is({Type::kInt8, Type::kInt16})) return previous;
        return is({Type::kInt64, Type::kFloat32, Type::kFloat64}) ? latest : nullptr;
      case Type::kInt64:
        if (is({Type::kInt8, Type::kInt16, Type::kInt32})) return previous;
        return is({Type::kFloat32, Type::kFloat64}) ? latest : nullptr;
      case Type::kFloat32:
        if (is({Type::kInt8, Type::kInt16, Type::kInt32, Type::kInt64})) return previous;
        return b == Type::kFloat64 ? latest : nullptr;
      case Type::kFloat64:
        return is({Type::kInt8, Type::kInt16, Type::kInt32, Type::kInt64, Type::kFloat32})
                   ? previous
                   : nullptr;
      default:
        return nullptr;
    }
  }
  if (previous->optional == latest->optional) return previous->optional ? previous : latest;
  return SchemaEquals(previous, latest) ? previous : nullptr;
}

// Values.SchemaMerger: the common schema of the elements seen so far.
struct SchemaMerger {
  SchemaPtr common;
  bool compatible = true;

  void Merge(const Parsed& latest) {
    if (!latest || latest->schema == nullptr || !compatible) return;
    if (common == nullptr) {
      common = latest->schema;
    } else {
      common = MergeSchemas(common, latest->schema);
      compatible = common != nullptr;
    }
  }
};

// LinkedHashMap.put: a key already present keeps its place and takes the new value.
void LinkedPut(Value::Map& map, Value key, Value value) {
  for (auto& [k, v] : map) {
    if (k == key) {
      v = std::move(value);
      return;
    }
  }
  map.emplace_back(std::move(key), std::move(value));
}

// Values.ValueParser. A failure (Java's DataException) makes the enclosing array or map, and
// so the whole text, parse as a string.
class ValueParser {
 public:
  explicit ValueParser(Tokenizer& t) : t_(t) {}

  absl::StatusOr<Parsed> Parse(bool embedded) {
    if (!t_.HasNext()) return Parsed();
    if (embedded && t_.CanConsume("\"")) return ParseQuotedString();
    if (LiteralFollows(embedded, "null")) return Parsed();
    if (LiteralFollows(embedded, "true")) {
      return Parsed(SchemaAndValue{Schema::Required(Type::kBoolean), Value::Boolean(true)});
    }
    if (LiteralFollows(embedded, "false")) {
      return Parsed(SchemaAndValue{Schema::Required(Type::kBoolean), Value::Boolean(false)});
    }
    const size_t start = t_.Mark();
    if (t_.CanConsume("[")) {
      absl::StatusOr<Parsed> array = ParseArray();
      if (array.ok()) return array;
      t_.RewindTo(start);
    } else if (t_.CanConsume("{")) {
      absl::StatusOr<Parsed> map = ParseMap();
      if (map.ok()) return map;
      t_.RewindTo(start);
    }
    const std::string_view token = t_.Next();
    if (IsBlank(token)) {
      return Parsed(
          SchemaAndValue{Schema::Required(Type::kString), Value::String(std::string(token))});
    }
    return ParseNextToken(embedded, JavaTrim(token));
  }

 private:
  // A single-token literal: embedded, or alone in the text.
  bool LiteralFollows(bool embedded, std::string_view literal) {
    const size_t start = t_.Mark();
    if (t_.CanConsume(literal) && (embedded || !t_.HasNext())) return true;
    t_.RewindTo(start);
    return false;
  }

  absl::StatusOr<Parsed> ParseNextToken(bool embedded, std::string_view token) {
    const char first = token[0];
    const bool digit = first >= '0' && first <= '9';
    if (digit) {
      if (Parsed temporal = ParseMultipleTokensAsTemporal(token)) return temporal;
    }
    if (digit || first == '+' || first == '-') {
      if (Parsed number = ParseAsNumber(token)) return number;
    }
    if (embedded) return DataError("Failed to parse embedded value");
    return Parsed(
        SchemaAndValue{Schema::Required(Type::kString), Value::String(std::string(t_.original()))});
  }

  absl::StatusOr<Parsed> ParseQuotedString() {
    std::string content;
    while (t_.HasNext()) {
      if (t_.CanConsume("\"")) break;
      const std::string_view token = t_.Next();
      content.append(token.data(), token.size());
    }
    if (Parsed temporal = ParseAsTemporal(content)) return temporal;
    return Parsed(
        SchemaAndValue{Schema::Required(Type::kString), Value::String(std::move(content))});
  }

  absl::StatusOr<Parsed> ParseArray() {
    Value::Array result;
    SchemaMerger elements;
    while (t_.HasNext()) {
      if (t_.CanConsume("]")) {
        Schema schema = Schema::Of(Type::kArray);
        if (elements.common != nullptr) {
          schema.value_schema = elements.common;
          for (Value& element : result) {
            absl::StatusOr<Value> aligned = ConvertTo(*elements.common, element);
            if (!aligned.ok()) return aligned.status();
            element = *std::move(aligned);
          }
        }
        return Parsed(SchemaAndValue{Freeze(std::move(schema)), Value::OfArray(std::move(result))});
      }
      if (t_.CanConsume(",")) {
        return DataError(
            absl::StrCat("Unable to parse an empty array element: ", AsAbsl(t_.original())));
      }
      absl::StatusOr<Parsed> element = Parse(true);
      if (!element.ok()) return element.status();
      elements.Merge(*element);
      result.push_back(*element ? (*element)->value : Value());
      const size_t position = t_.Mark();
      if (t_.CanConsume("]")) {
        t_.RewindTo(position);
      } else if (!t_.CanConsume(",")) {
        return DataError("Array elements missing ',' delimiter");
      }
    }
    return DataError(absl::StrCat("Array is missing terminating ']': ", AsAbsl(t_.original())));
  }

  absl::StatusOr<Parsed> ParseMap() {
    Value::Map result;
    SchemaMerger keys;
    SchemaMerger values;
    while (t_.HasNext()) {
      if (t_.CanConsume("}")) {
        Schema schema = Schema::Of(Type::kMap);
        if (keys.common != nullptr) {
          schema.key_schema = keys.common;
          if (values.common != nullptr) schema.value_schema = values.common;
          Value::Map aligned;
          for (auto& [k, v] : result) {
            absl::StatusOr<Value> key = ConvertTo(*keys.common, k);
            if (!key.ok()) return key.status();
            Value value = v;
            if (values.common != nullptr) {
              absl::StatusOr<Value> converted = ConvertTo(*values.common, v);
              if (!converted.ok()) return converted.status();
              value = *std::move(converted);
            }
            LinkedPut(aligned, *std::move(key), std::move(value));
          }
          result = std::move(aligned);
        }
        return Parsed(SchemaAndValue{Freeze(std::move(schema)), Value::OfMap(std::move(result))});
      }
      if (t_.CanConsume(",")) {
        return DataError(absl::StrCat("Unable to parse a map entry with no key or value: ",
                                      AsAbsl(t_.original())));
      }
      absl::StatusOr<Parsed> key = Parse(true);
      if (!key.ok()) return key.status();
      if (!*key || (*key)->value.is_null()) {
        return DataError(
            absl::StrCat("Map entry may not have a null key: ", AsAbsl(t_.original())));
      }
      if (!t_.CanConsume(":")) {
        return DataError(absl::StrCat("Map entry is missing ':' in ", AsAbsl(t_.original())));
      }
      absl::StatusOr<Parsed> value = Parse(true);
      if (!value.ok()) return value.status();
      LinkedPut(result, (*key)->value, *value ? (*value)->value : Value());
      t_.CanConsume(",");
      keys.Merge(*key);
      values.Merge(*value);
    }
    return DataError(absl::StrCat("Map is missing terminating '}': ", AsAbsl(t_.original())));
  }

  // A time or timestamp is split at its colons: try the token with the next four tokens first.
  Parsed ParseMultipleTokensAsTemporal(std::string_view token) {
    const size_t position = t_.Mark();
    if (std::optional<std::string_view> rest = t_.Next(4)) {
      if (Parsed temporal = ParseAsTemporal(absl::StrCat(AsAbsl(token), AsAbsl(*rest)))) {
        return temporal;
      }
    }
    t_.RewindTo(position);
    return ParseAsTemporal(token);
  }

  static Parsed ParseAsTemporal(std::string_view text) {
    const std::string token = absl::StrReplaceAll(AsAbsl(text), {{"\\:", ":"}});
    const size_t length = Utf16Length(token);
    std::string_view format;
    std::string_view logical;
    if (length == 13) {
      format = "time";
      logical = kTimeLogicalName;
    } else if (length == 24) {
      format = "timestamp";
      logical = kTimestampLogicalName;
    } else if (length == 10) {
      format = "date";
      logical = kDateLogicalName;
    } else {
      return Parsed();
    }
    std::optional<SimpleDateFormat::Parsed> parsed = IsoFormat(format).Parse(token);
    if (!parsed) return Parsed();
    return Parsed(SchemaAndValue{LogicalSchema(logical), Value::OfDate(parsed->epoch_millis)});
  }

  static Parsed ParseAsNumber(std::string_view token) {
    std::optional<DecimalText> d = ReadDecimal(token);
    if (!d) return Parsed();
    if (std::optional<int64_t> exact = ExactLong(*d)) {
      const int64_t v = *exact;
      if (v == static_cast<int8_t>(v)) {
        return Parsed(
            SchemaAndValue{Schema::Required(Type::kInt8), Value::Int8(static_cast<int8_t>(v))});
      }
      if (v == static_cast<int16_t>(v)) {
        return Parsed(
            SchemaAndValue{Schema::Required(Type::kInt16), Value::Int16(static_cast<int16_t>(v))});
      }
      if (v == static_cast<int32_t>(v)) {
        return Parsed(
            SchemaAndValue{Schema::Required(Type::kInt32), Value::Int32(static_cast<int32_t>(v))});
      }
      return Parsed(SchemaAndValue{Schema::Required(Type::kInt64), Value::Int64(v)});
    }
    const std::string canonical = CanonicalText(*d);
    const float f = std::strtof(canonical.c_str(), nullptr);
    if (!std::isinf(f) && d->scale != 0) {
      return Parsed(SchemaAndValue{Schema::Required(Type::kFloat32), Value::Float32(f)});
    }
    const double v = std::strtod(canonical.c_str(), nullptr);
    if (!std::isinf(v) && d->scale != 0) {
      return Parsed(SchemaAndValue{Schema::Required(Type::kFloat64), Value::Float64(v)});
    }
    absl::StatusOr<Decimal> decimal = ToDecimal(*d);
    if (!decimal.ok()) return Parsed();
    return Parsed(SchemaAndValue{Freeze(DecimalSchema(static_cast<int32_t>(d->scale))),
                                 Value::OfDecimal(*decimal)});
  }

  Tokenizer& t_;
};

absl::StatusOr<std::pair<SchemaPtr, Value>> ParseStringInternal(std::string_view text) {
  if (text.empty()) return std::make_pair(Schema::Required(Type::kString), Value::String(""));
  Tokenizer tokenizer(text);
  ValueParser parser(tokenizer);
  absl::StatusOr<Parsed> parsed = parser.Parse(false);
  if (!parsed.ok()) return parsed.status();
  if (!*parsed) return std::make_pair(SchemaPtr(), Value());
  return std::make_pair((*parsed)->schema, (*parsed)->value);
}

// Values.escape: backslashes doubled, quotes escaped.
std::string Escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '\\' || c == '"') out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

// Values.append.
void Append(const Value& value, bool embedded, std::string& out) {
  switch (value.kind()) {
    case Value::Kind::kNull:
      out += "null";
      return;
    case Value::Kind::kString:
      if (embedded) {
        absl::StrAppend(&out, "\"", Escape(value.string()), "\"");
      } else {
        out += value.string();
      }
      return;
    case Value::Kind::kBytes: {
      const std::string encoded = absl::Base64Escape(value.bytes());
      out += embedded ? absl::StrCat("\"", encoded, "\"") : encoded;
      return;
    }
    case Value::Kind::kArray: {
      out += '[';
      for (size_t i = 0; i < value.array().size(); ++i) {
        if (i) out += ',';
        Append(value.array()[i], true, out);
      }
      out += ']';
      return;
    }
    case Value::Kind::kMap: {
      out += '{';
      bool first = true;
      for (const auto& [k, v] : value.map()) {
        if (!first) out += ',';
        first = false;
        Append(k, true, out);
        out += ':';
        Append(v, true, out);
      }
      out += '}';
      return;
    }
    case Value::Kind::kStruct: {
      const Struct& s = *value.structure();
      out += '{';
      bool first = true;
      for (const Field& field : s.schema()->fields) {
        if (!first) out += ',';
        first = false;
        Append(Value::String(field.name), true, out);
        out += ':';
        const Value* v = s.Get(field.name);
        Append(v != nullptr ? *v : Value(), true, out);
      }
      out += '}';
      return;
    }
    case Value::Kind::kDate:
      out += FormatDateValue(value.date_millis());
      return;
    default:
      out += JavaToString(value);  // numbers and booleans
      return;
  }
}

}  // namespace

absl::StatusOr<std::pair<SchemaPtr, Value>> ParseString(std::string_view text) {
  return ParseStringInternal(text);
}

std::string ConvertToString(const Schema* /*schema*/, const Value& value) {
  std::string out;
  Append(value, false, out);
  return out;
}

std::string FormatDateValue(int64_t epoch_millis) {
  if (epoch_millis < kMillisPerDay) return IsoFormat("time").Format(epoch_millis);
  if (epoch_millis % kMillisPerDay == 0) return IsoFormat("date").Format(epoch_millis);
  return IsoFormat("timestamp").Format(epoch_millis);
}

absl::StatusOr<Value> ConvertToBoolean(const Schema* schema, const Value& value) {
  if (value.is_null() || value.kind() == Value::Kind::kBoolean) return value;
  if (value.kind() == Value::Kind::kString) {
    absl::StatusOr<std::pair<SchemaPtr, Value>> parsed = ParseString(value.string());
    if (parsed.ok() && parsed->second.kind() == Value::Kind::kBoolean) return parsed->second;
  }
  absl::StatusOr<int64_t> l = AsLong(value, schema);
  if (!l.ok()) return l.status();
  return Value::Boolean(*l != 0);
}

absl::StatusOr<Value> ConvertToByte(const Schema* schema, const Value& value) {
  if (value.is_null() || value.kind() == Value::Kind::kInt8) return value;
  absl::StatusOr<int64_t> l = AsLong(value, schema);
  if (!l.ok()) return l.status();
  return Value::Int8(static_cast<int8_t>(static_cast<uint8_t>(*l)));
}

absl::StatusOr<Value> ConvertToShort(const Schema* schema, const Value& value) {
  if (value.is_null() || value.kind() == Value::Kind::kInt16) return value;
  absl::StatusOr<int64_t> l = AsLong(value, schema);
  if (!l.ok()) return l.status();
  return Value::Int16(static_cast<int16_t>(static_cast<uint16_t>(*l)));
}

absl::StatusOr<Value> ConvertToInteger(const Schema* schema, const Value& value) {
  if (value.is_null() || value.kind() == Value::Kind::kInt32) return value;
  absl::StatusOr<int64_t> l = AsLong(value, schema);
  if (!l.ok()) return l.status();
  return Value::Int32(static_cast<int32_t>(static_cast<uint32_t>(*l)));
}

absl::StatusOr<Value> ConvertToLong(const Schema* schema, const Value& value) {
  if (value.is_null() || value.kind() == Value::Kind::kInt64) return value;
  absl::StatusOr<int64_t> l = AsLong(value, schema);
  if (!l.ok()) return l.status();
  return Value::Int64(*l);
}

absl::StatusOr<Value> ConvertToFloat(const Schema* schema, const Value& value) {
  if (value.is_null() || value.kind() == Value::Kind::kFloat32) return value;
  absl::StatusOr<double> d = AsDouble(value, schema);
  if (!d.ok()) return d.status();
  return Value::Float32(static_cast<float>(*d));
}

absl::StatusOr<Value> ConvertToDouble(const Schema* schema, const Value& value) {
  if (value.is_null() || value.kind() == Value::Kind::kFloat64) return value;
  absl::StatusOr<double> d = AsDouble(value, schema);
  if (!d.ok()) return d.status();
  return Value::Float64(*d);
}

absl::StatusOr<Decimal> ParseBigDecimal(std::string_view text) {
  std::optional<DecimalText> d = ReadDecimal(text);
  if (!d) return absl::InvalidArgumentError(absl::StrCat("Invalid BigDecimal: ", AsAbsl(text)));
  return ToDecimal(*d);
}

absl::StatusOr<Value> EncodeLogical(const Schema& schema, const Value& value) {
  if (value.kind() != Value::Kind::kDate) return value;
  const int64_t millis = value.date_millis();
  if (schema.IsLogical(kDateLogicalName)) {
    if (millis % kMillisPerDay != 0) {
      return DataError(
          "Kafka Connect Date type should not have any time fields set to non-zero values.");
    }
    return Value::Int32(static_cast<int32_t>(static_cast<uint32_t>(millis / kMillisPerDay)));
  }
  if (schema.IsLogical(kTimeLogicalName)) {
    if (millis < 0 || millis > kMillisPerDay) {
      return DataError(
          "Kafka Connect Time type should not have any date fields set to non-zero values.");
    }
    return Value::Int32(static_cast<int32_t>(millis));
  }
  if (schema.IsLogical(kTimestampLogicalName)) return Value::Int64(millis);
  return value;
}

int64_t JavaDoubleToLong(double d) {
  if (std::isnan(d)) return 0;
  if (d >= 9223372036854775807.0) return std::numeric_limits<int64_t>::max();
  if (d <= -9223372036854775808.0) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(d);
}

int32_t JavaDoubleToInt(double d) {
  if (std::isnan(d)) return 0;
  if (d >= 2147483647.0) return std::numeric_limits<int32_t>::max();
  if (d <= -2147483648.0) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(d);
}

}  // namespace connectd::data
