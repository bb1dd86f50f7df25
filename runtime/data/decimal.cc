#include "runtime/data/decimal.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "absl/strings/str_cat.h"
#include "runtime/common/strings.h"

namespace connectd::data {
namespace {

// A magnitude: big-endian unsigned bytes without leading zero bytes (empty is zero).
using Magnitude = std::vector<uint8_t>;

void MultiplyAdd(Magnitude& m, uint32_t factor, uint32_t addend) {
  uint32_t carry = addend;
  for (auto it = m.rbegin(); it != m.rend(); ++it) {
    const uint32_t v = static_cast<uint32_t>(*it) * factor + carry;
    *it = static_cast<uint8_t>(v & 0xFF);
    carry = v >> 8;
  }
  while (carry != 0) {
    m.insert(m.begin(), static_cast<uint8_t>(carry & 0xFF));
    carry >>= 8;
  }
}

Magnitude FromDigits(std::string_view digits) {
  Magnitude m;
  for (char c : digits) MultiplyAdd(m, 10, static_cast<uint32_t>(c - '0'));
  while (!m.empty() && m.front() == 0) m.erase(m.begin());
  return m;
}

std::string ToDigits(Magnitude m) {
  std::string digits;
  while (!m.empty()) {
    uint32_t remainder = 0;
    for (uint8_t& b : m) {
      const uint32_t v = (remainder << 8) | b;
      b = static_cast<uint8_t>(v / 10);
      remainder = v % 10;
    }
    digits.push_back(static_cast<char>('0' + remainder));
    while (!m.empty() && m.front() == 0) m.erase(m.begin());
  }
  if (digits.empty()) digits = "0";
  std::reverse(digits.begin(), digits.end());
  return digits;
}

// Two's complement of a signed magnitude, minimal (BigInteger.toByteArray()).
std::string ToTwosComplement(bool negative, const Magnitude& m) {
  std::vector<uint8_t> out(m.begin(), m.end());
  out.insert(out.begin(), 0);  // room for the sign bit
  if (negative) {
    for (uint8_t& b : out) b = static_cast<uint8_t>(~b);
    for (auto it = out.rbegin(); it != out.rend(); ++it) {
      if (++*it != 0) break;
    }
  }
  return MinimalTwosComplement(std::string(out.begin(), out.end()));
}

void FromTwosComplement(std::string_view bytes, bool& negative, Magnitude& m) {
  m.assign(bytes.begin(), bytes.end());
  negative = !m.empty() && (m.front() & 0x80) != 0;
  if (negative) {
    for (uint8_t& b : m) b = static_cast<uint8_t>(~b);
    for (auto it = m.rbegin(); it != m.rend(); ++it) {
      if (++*it != 0) break;
    }
  }
  while (!m.empty() && m.front() == 0) m.erase(m.begin());
}

}  // namespace

std::string MinimalTwosComplement(std::string_view bytes) {
  size_t start = 0;
  while (start + 1 < bytes.size()) {
    const auto b = static_cast<uint8_t>(bytes[start]);
    const auto next = static_cast<uint8_t>(bytes[start + 1]);
    const bool redundant = (b == 0x00 && (next & 0x80) == 0) || (b == 0xFF && (next & 0x80) != 0);
    if (!redundant) break;
    ++start;
  }
  return std::string(bytes.substr(start));
}

absl::StatusOr<Decimal> ParseJavaDecimal(std::string_view text) {
  size_t pos = 0;
  const bool negative = pos < text.size() && text[pos] == '-';
  if (negative) ++pos;
  std::string digits;
  int64_t scale = 0;
  bool any_digit = false;
  while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
    digits.push_back(text[pos++]);
    any_digit = true;
  }
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      digits.push_back(text[pos++]);
      ++scale;
      any_digit = true;
    }
  }
  if (!any_digit) return absl::InvalidArgumentError(absl::StrCat("not a number: ", AsAbsl(text)));
  if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
    ++pos;
    const bool exp_negative = pos < text.size() && text[pos] == '-';
    if (pos < text.size() && (text[pos] == '-' || text[pos] == '+')) ++pos;
    int64_t exponent = 0;
    if (pos == text.size()) return absl::InvalidArgumentError(absl::StrCat("not a number: ", AsAbsl(text)));
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      exponent = std::min<int64_t>(exponent * 10 + (text[pos++] - '0'), int64_t{1} << 40);
    }
    scale -= exp_negative ? -exponent : exponent;
  }
  if (pos != text.size()) return absl::InvalidArgumentError(absl::StrCat("not a number: ", AsAbsl(text)));
  if (scale > INT32_MAX || scale < INT32_MIN) {
    return absl::InvalidArgumentError(absl::StrCat("scale out of range: ", AsAbsl(text)));
  }
  const Magnitude m = FromDigits(digits);
  return Decimal{ToTwosComplement(negative && !m.empty(), m), static_cast<int32_t>(scale)};
}

Decimal DecimalFromLong(int64_t v) {
  std::string bytes(8, '\0');
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>((static_cast<uint64_t>(v) >> (56 - 8 * i)) & 0xFF);
  return Decimal{MinimalTwosComplement(bytes), 0};
}

std::string UnscaledDecimalDigits(const Decimal& d) {
  bool negative = false;
  Magnitude m;
  FromTwosComplement(d.unscaled, negative, m);
  return (negative ? "-" : "") + ToDigits(std::move(m));
}

std::string ToJavaString(const Decimal& d) {
  bool negative = false;
  Magnitude m;
  FromTwosComplement(d.unscaled, negative, m);
  const std::string coeff = ToDigits(std::move(m));
  const int64_t adjusted = -static_cast<int64_t>(d.scale) + static_cast<int64_t>(coeff.size() - 1);
  std::string out = negative ? "-" : "";
  if (d.scale >= 0 && adjusted >= -6) {
    if (d.scale == 0) return out + coeff;
    const size_t scale = static_cast<size_t>(d.scale);
    if (coeff.size() > scale) {
      return absl::StrCat(out, coeff.substr(0, coeff.size() - scale), ".",
                          coeff.substr(coeff.size() - scale));
    }
    return absl::StrCat(out, "0.", std::string(scale - coeff.size(), '0'), coeff);
  }
  out += coeff[0];
  if (coeff.size() > 1) absl::StrAppend(&out, ".", coeff.substr(1));
  absl::StrAppend(&out, "E", adjusted > 0 ? "+" : "", adjusted);
  return out;
}

int64_t LongValue(const Decimal& d) {
  bool negative = false;
  Magnitude m;
  FromTwosComplement(d.unscaled, negative, m);
  std::string digits = ToDigits(std::move(m));
  if (d.scale > 0) {
    const size_t drop = static_cast<size_t>(d.scale);
    digits = drop >= digits.size() ? "0" : digits.substr(0, digits.size() - drop);
  } else if (d.scale < 0) {
    // 10^64 is 0 modulo 2^64: more zeros change nothing.
    digits.append(static_cast<size_t>(std::min<int64_t>(-static_cast<int64_t>(d.scale), 64)), '0');
  }
  uint64_t v = 0;
  for (char c : digits) v = v * 10 + static_cast<uint64_t>(c - '0');
  return static_cast<int64_t>(negative ? ~v + 1 : v);
}

double DoubleValue(const Decimal& d) {
  const std::string text = absl::StrCat(UnscaledDecimalDigits(d), "e", -static_cast<int64_t>(d.scale));
  return std::strtod(text.c_str(), nullptr);
}

int32_t JavaHashCode(const Decimal& d) {
  bool negative = false;
  Magnitude m;
  FromTwosComplement(d.unscaled, negative, m);
  // BigInteger.hashCode(): over the magnitude's 32-bit words, most significant first.
  while (m.size() % 4 != 0) m.insert(m.begin(), 0);
  uint32_t h = 0;
  for (size_t i = 0; i < m.size(); i += 4) {
    const uint32_t word = (uint32_t{m[i]} << 24) | (uint32_t{m[i + 1]} << 16) |
                          (uint32_t{m[i + 2]} << 8) | m[i + 3];
    h = 31 * h + word;
  }
  const int32_t signum = m.empty() ? 0 : (negative ? -1 : 1);
  const uint32_t big_integer_hash = h * static_cast<uint32_t>(signum);
  return static_cast<int32_t>(31 * big_integer_hash + static_cast<uint32_t>(d.scale));
}

}  // namespace connectd::data
