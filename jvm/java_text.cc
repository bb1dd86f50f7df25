#include "jvm/java_text.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "jvm/utf8.h"

namespace connectd::jvm {
namespace {

// ---- Decimal layout shared by both JDK styles ----------------------------------------------

// value = 0.d1d2...dn * 10^dec_exponent, digits in ASCII. A JDK 17 rounding carry can leave
// trailing zeros in `digits`; Java prints them, so they are kept.
struct JavaDecimal {
  std::string digits;
  int dec_exponent = 0;
};

// Double.toString's layout: plain notation when 1e-3 <= |v| < 1e7, else computerized scientific
// notation with at least one digit after the point and an upper-case 'E'.
std::string LayoutJavaDecimal(bool negative, const JavaDecimal& d) {
  std::string out;
  if (negative) out.push_back('-');
  const int n = static_cast<int>(d.digits.size());
  const int e = d.dec_exponent;
  if (e > 0 && e < 8) {
    const int integer_digits = std::min(n, e);
    out.append(d.digits, 0, integer_digits);
    if (integer_digits < e) {
      out.append(e - integer_digits, '0');
      out.append(".0");
    } else {
      out.push_back('.');
      if (integer_digits < n) {
        out.append(d.digits, integer_digits, std::string::npos);
      } else {
        out.push_back('0');
      }
    }
  } else if (e <= 0 && e > -3) {
    out.append("0.");
    out.append(-e, '0');
    out.append(d.digits);
  } else {
    out.push_back(d.digits[0]);
    out.push_back('.');
    if (n > 1) {
      out.append(d.digits, 1, std::string::npos);
    } else {
      out.push_back('0');
    }
    out.push_back('E');
    out.append(std::to_string(e - 1));
  }
  return out;
}

// ---- JDK 17 FloatingDecimal -----------------------------------------------------------------
//
// The legacy algorithm, reproduced from its documented behaviour: integral values below 2^63
// print their exact integer digits (rounding away a few "insignificant" low digits for values
// above 2^54); every other value develops digits from B/S while the remainder is farther than
// half an ULP (M) from both neighbours, a symmetric test that is why the output is sometimes
// longer than the shortest round-trip form. Depending on estimated operand sizes the digit loop
// runs in Java int, long (both with Java's wrap-around overflow) or big-integer arithmetic, whose
// "high" tests differ in strictness; each is emulated as is.

constexpr int kExpShift = 52;
constexpr uint64_t kFractHob = uint64_t{1} << kExpShift;
constexpr uint64_t kSignifMask = kFractHob - 1;
constexpr int kExpBias = 1023;
constexpr int kMaxSmallBinExp = 62;
constexpr int kMinSmallBinExp = -(63 / 3);

constexpr uint64_t Pow5(int n) {
  uint64_t p = 1;
  for (int i = 0; i < n; ++i) p *= 5;
  return p;
}

// Approximately ceil(log2(5^i)), as the legacy code tabulates it for i < 27.
int Approx5Bits(int i) {
  if (i < 27) return i == 0 ? 0 : std::bit_width(Pow5(i));
  return i * 3;
}

// Java's two's-complement arithmetic on int/long.
template <typename T>
T WrapMul(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
}
template <typename T>
T WrapAdd(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
}
template <typename T>
T WrapSub(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(a) - static_cast<U>(b));
}
template <typename T>
T WrapShl(T a, int n) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(a) << (n & (sizeof(T) * 8 - 1)));
}

// floor(log10(2^p2)) for 1 < p2 < 64, else 0.
int InsignificantDigitsForPow2(int p2) {
  if (p2 <= 1 || p2 >= 64) return 0;
  uint64_t v = uint64_t{1} << p2;
  int digits = 0;
  while (v >= 10) {
    v /= 10;
    ++digits;
  }
  return digits;
}

JavaDecimal DevelopLongDigits(uint64_t value, int insignificant) {
  JavaDecimal d;
  if (insignificant != 0) {
    uint64_t pow10 = 1;
    for (int i = 0; i < insignificant; ++i) pow10 *= 10;
    const uint64_t residue = value % pow10;
    value /= pow10;
    d.dec_exponent = insignificant;
    if (residue >= pow10 / 2) ++value;
  }
  const std::string text = std::to_string(value);
  d.digits = text.substr(0, text.find_last_not_of('0') + 1);
  d.dec_exponent += static_cast<int>(text.size());
  return d;
}

int EstimateDecExp(uint64_t fract_bits, int bin_exp) {
  double d2;
  const uint64_t bits = (uint64_t{kExpBias} << kExpShift) | (fract_bits & kSignifMask);
  std::memcpy(&d2, &bits, sizeof d2);
  // Evaluated exactly as written (no contraction: this file builds with -ffp-contract=off).
  const double d =
      (d2 - 1.5) * 0.289529654 + 0.176091259 + static_cast<double>(bin_exp) * 0.301029995663981;
  return static_cast<int>(std::floor(d));
}

// Unsigned big integer, little-endian 32-bit limbs; just what digit development needs.
class BigNat {
 public:
  explicit BigNat(uint64_t v) {
    while (v != 0) {
      limbs_.push_back(static_cast<uint32_t>(v));
      v >>= 32;
    }
  }

  static BigNat Pow52(uint64_t factor, int p5, int p2) {
    BigNat n(factor);
    for (; p5 >= 13; p5 -= 13) n.MulSmall(static_cast<uint32_t>(Pow5(13)));
    if (p5 > 0) n.MulSmall(static_cast<uint32_t>(Pow5(p5)));
    n.ShiftLeft(p2);
    return n;
  }

  void MulSmall(uint32_t m) {
    uint64_t carry = 0;
    for (uint32_t& limb : limbs_) {
      const uint64_t product = uint64_t{limb} * m + carry;
      limb = static_cast<uint32_t>(product);
      carry = product >> 32;
    }
    if (carry != 0) limbs_.push_back(static_cast<uint32_t>(carry));
    Trim();
  }

  void ShiftLeft(int n) {
    if (limbs_.empty() || n <= 0) return;
    const int words = n / 32;
    const int bits = n % 32;
    if (bits != 0) {
      uint32_t carry = 0;
      for (uint32_t& limb : limbs_) {
        const uint32_t next = limb >> (32 - bits);
        limb = (limb << bits) | carry;
        carry = next;
      }
      if (carry != 0) limbs_.push_back(carry);
    }
    limbs_.insert(limbs_.begin(), words, 0);
  }

  // REQUIRES: *this >= other.
  void Sub(const BigNat& other) {
    int64_t borrow = 0;
    for (size_t i = 0; i < limbs_.size(); ++i) {
      int64_t diff = int64_t{limbs_[i]} - borrow - (i < other.limbs_.size() ? other.limbs_[i] : 0);
      borrow = diff < 0 ? 1 : 0;
      limbs_[i] = static_cast<uint32_t>(diff + (borrow << 32));
    }
    Trim();
  }

  static BigNat Sum(const BigNat& a, const BigNat& b) {
    BigNat r(0);
    const size_t n = std::max(a.limbs_.size(), b.limbs_.size());
    uint64_t carry = 0;
    for (size_t i = 0; i < n; ++i) {
      const uint64_t s =
          carry + (i < a.limbs_.size() ? a.limbs_[i] : 0) + (i < b.limbs_.size() ? b.limbs_[i] : 0);
      r.limbs_.push_back(static_cast<uint32_t>(s));
      carry = s >> 32;
    }
    if (carry != 0) r.limbs_.push_back(static_cast<uint32_t>(carry));
    return r;
  }

  static int Compare(const BigNat& a, const BigNat& b) {
    if (a.limbs_.size() != b.limbs_.size()) return a.limbs_.size() < b.limbs_.size() ? -1 : 1;
    for (size_t i = a.limbs_.size(); i-- > 0;) {
      if (a.limbs_[i] != b.limbs_[i]) return a.limbs_[i] < b.limbs_[i] ? -1 : 1;
    }
    return 0;
  }

  // q = *this / s; *this = 10 * (*this % s); returns q.
  int QuoRemTimesTen(const BigNat& s) {
    int q = 0;
    while (Compare(*this, s) >= 0) {
      Sub(s);
      ++q;
    }
    MulSmall(10);
    return q;
  }

 private:
  void Trim() {
    while (!limbs_.empty() && limbs_.back() == 0) limbs_.pop_back();
  }

  std::vector<uint32_t> limbs_;
};

struct DigitLoopResult {
  std::string digits;
  int dec_exp = 0;
  bool low = false;
  bool high = false;
  int low_digit_difference = 0;  // sign of 2*remainder - 10*S when it matters
};

// The int/long variants: T is int32_t or int64_t with Java overflow semantics.
template <typename T>
DigitLoopResult FixedWidthDigits(T b, T s, T m, int dec_exp) {
  DigitLoopResult r;
  r.dec_exp = dec_exp;
  const T tens = WrapMul<T>(s, 10);
  int q = static_cast<int>(b / s);
  b = WrapMul<T>(10, b % s);
  m = WrapMul<T>(m, 10);
  bool low = b < m;
  bool high = WrapAdd(b, m) > tens;
  if (q == 0 && !high) {
    --r.dec_exp;  // the exponent estimate was one too high
  } else {
    r.digits.push_back(static_cast<char>('0' + q));
  }
  // Scientific notation needs a digit after the point.
  if (r.dec_exp < -3 || r.dec_exp >= 8) low = high = false;
  while (!low && !high) {
    q = static_cast<int>(b / s);
    b = WrapMul<T>(10, b % s);
    m = WrapMul<T>(m, 10);
    if (m > 0) {
      low = b < m;
      high = WrapAdd(b, m) > tens;
    } else {
      low = high = true;  // m overflowed
    }
    r.digits.push_back(static_cast<char>('0' + q));
  }
  const T difference = WrapSub(WrapShl(b, 1), tens);
  r.low = low;
  r.high = high;
  r.low_digit_difference = difference == 0 ? 0 : (difference > 0 ? 1 : -1);
  return r;
}

DigitLoopResult BigDigits(uint64_t fract_bits, int b5, int b2, int s5, int s2, int m5, int m2,
                          int dec_exp) {
  DigitLoopResult r;
  r.dec_exp = dec_exp;
  const BigNat s = BigNat::Pow52(1, s5, s2);
  const BigNat ten_s = BigNat::Pow52(1, s5 + 1, s2 + 1);
  BigNat b = BigNat::Pow52(fract_bits, b5, b2);
  BigNat m = BigNat::Pow52(1, m5 + 1, m2 + 1);  // 10 * M, matching b after the first step
  int q = b.QuoRemTimesTen(s);
  bool low = BigNat::Compare(b, m) < 0;
  bool high = BigNat::Compare(ten_s, BigNat::Sum(b, m)) <= 0;  // non-strict, unlike int/long
  if (q == 0 && !high) {
    --r.dec_exp;
  } else {
    r.digits.push_back(static_cast<char>('0' + q));
  }
  if (r.dec_exp < -3 || r.dec_exp >= 8) low = high = false;
  while (!low && !high) {
    q = b.QuoRemTimesTen(s);
    m.MulSmall(10);
    low = BigNat::Compare(b, m) < 0;
    high = BigNat::Compare(ten_s, BigNat::Sum(b, m)) <= 0;
    r.digits.push_back(static_cast<char>('0' + q));
  }
  if (high && low) {
    BigNat twice = b;
    twice.ShiftLeft(1);
    r.low_digit_difference = BigNat::Compare(twice, ten_s);
  }
  r.low = low;
  r.high = high;
  return r;
}

// Adds one to the last digit; a carry out of the first digit turns it into '1' and bumps the
// exponent without shortening the digit string (Java's behaviour).
void RoundUp(JavaDecimal& d) {
  size_t i = d.digits.size() - 1;
  while (d.digits[i] == '9' && i > 0) {
    d.digits[i] = '0';
    --i;
  }
  if (d.digits[i] == '9') {
    d.dec_exponent += 1;
    d.digits[0] = '1';
    return;
  }
  d.digits[i] = static_cast<char>(d.digits[i] + 1);
}

// REQUIRES: fract_bits has its leading one at bit 52; value = fract_bits * 2^(bin_exp - 52).
JavaDecimal LegacyDigits(uint64_t fract_bits, int bin_exp, int n_significant_bits) {
  const int tail_zeros = std::countr_zero(fract_bits);
  const int n_fract_bits = kExpShift + 1 - tail_zeros;
  const int n_tiny_bits = std::max(0, n_fract_bits - bin_exp - 1);
  if (bin_exp <= kMaxSmallBinExp && bin_exp >= kMinSmallBinExp && n_tiny_bits == 0) {
    // An integer below 2^63: its exact digits, minus insignificant ones.
    const int insignificant = bin_exp > n_significant_bits
                                  ? InsignificantDigitsForPow2(bin_exp - n_significant_bits - 1)
                                  : 0;
    const uint64_t value = bin_exp >= kExpShift ? fract_bits << (bin_exp - kExpShift)
                                                : fract_bits >> (kExpShift - bin_exp);
    return DevelopLongDigits(value, insignificant);
  }

  const int dec_exp = EstimateDecExp(fract_bits, bin_exp);
  const int b5 = std::max(0, -dec_exp);
  int b2 = b5 + n_tiny_bits + bin_exp;
  const int s5 = std::max(0, dec_exp);
  int s2 = s5 + n_tiny_bits;
  const int m5 = b5;
  int m2 = b2 - n_significant_bits;

  fract_bits >>= tail_zeros;
  b2 -= n_fract_bits - 1;
  const int common2 = std::min(b2, s2);
  b2 -= common2;
  s2 -= common2;
  m2 -= common2;
  if (n_fract_bits == 1) m2 -= 1;  // the ULP below a power of two is half as large
  if (m2 < 0) {
    b2 -= m2;
    s2 -= m2;
    m2 = 0;
  }

  const int b_bits = n_fract_bits + b2 + Approx5Bits(b5);
  const int ten_s_bits = s2 + 1 + Approx5Bits(s5 + 1);
  DigitLoopResult loop;
  if (b_bits < 64 && ten_s_bits < 64) {
    if (b_bits < 32 && ten_s_bits < 32) {
      const int32_t b =
          WrapShl(WrapMul(static_cast<int32_t>(fract_bits), static_cast<int32_t>(Pow5(b5))), b2);
      const int32_t s = WrapShl(static_cast<int32_t>(Pow5(s5)), s2);
      const int32_t m = WrapShl(static_cast<int32_t>(Pow5(m5)), m2);
      loop = FixedWidthDigits<int32_t>(b, s, m, dec_exp);
    } else {
      const int64_t b =
          WrapShl(WrapMul(static_cast<int64_t>(fract_bits), static_cast<int64_t>(Pow5(b5))), b2);
      const int64_t s = WrapShl(static_cast<int64_t>(Pow5(s5)), s2);
      const int64_t m = WrapShl(static_cast<int64_t>(Pow5(m5)), m2);
      loop = FixedWidthDigits<int64_t>(b, s, m, dec_exp);
    }
  } else {
    loop = BigDigits(fract_bits, b5, b2, s5, s2, m5, m2, dec_exp);
  }

  JavaDecimal d;
  d.digits = std::move(loop.digits);
  d.dec_exponent = loop.dec_exp + 1;
  if (loop.high) {
    if (loop.low) {
      if (loop.low_digit_difference == 0) {
        if (((d.digits.back() - '0') & 1) != 0) RoundUp(d);  // a tie: prefer an even digit
      } else if (loop.low_digit_difference > 0) {
        RoundUp(d);
      }
    } else {
      RoundUp(d);
    }
  }
  return d;
}

std::string FormatJdk17(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  const bool negative = (bits >> 63) != 0;
  uint64_t fract_bits = bits & kSignifMask;
  int bin_exp = static_cast<int>((bits >> kExpShift) & 0x7FF);
  int n_significant_bits;
  if (bin_exp == 0) {
    // Subnormal (zero was handled by the caller): normalize.
    const int leading_zeros = std::countl_zero(fract_bits);
    const int shift = leading_zeros - (63 - kExpShift);
    fract_bits <<= shift;
    bin_exp = 1 - shift;
    n_significant_bits = 64 - leading_zeros;
  } else {
    fract_bits |= kFractHob;
    n_significant_bits = kExpShift + 1;
  }
  bin_exp -= kExpBias;
  return LayoutJavaDecimal(negative, LegacyDigits(fract_bits, bin_exp, n_significant_bits));
}

// ---- JDK 19+ shortest -------------------------------------------------------------------------

// Splits std::to_chars scientific output ("d.ddde+XX") into digits and Java's exponent.
JavaDecimal FromScientific(std::string_view text) {
  JavaDecimal d;
  const size_t e = text.find('e');
  for (char c : text.substr(0, e)) {
    if (c != '.') d.digits.push_back(c);
  }
  int exponent = 0;
  std::string_view exp_text = text.substr(e + 1);
  if (!exp_text.empty() && exp_text[0] == '+') exp_text.remove_prefix(1);
  std::from_chars(exp_text.data(), exp_text.data() + exp_text.size(), exponent);
  d.digits.erase(d.digits.find_last_not_of('0') + 1);
  d.dec_exponent = exponent + 1;
  return d;
}

// Float.toString and JDK 19+'s Double.toString: the shortest decimal that reads back as the
// value, at least two significant digits (the closest of length 1 or 2 when one would do).
template <typename F>
std::string FormatShortest(F value) {
  const F magnitude = std::fabs(value);
  char buffer[64];
  auto result =
      std::to_chars(buffer, buffer + sizeof buffer, magnitude, std::chars_format::scientific);
  JavaDecimal d = FromScientific(std::string_view(buffer, result.ptr - buffer));
  if (d.digits.size() == 1) {
    // Java picks among decimals of length 1 or 2 the one closest to the value.
    result =
        std::to_chars(buffer, buffer + sizeof buffer, magnitude, std::chars_format::scientific, 1);
    const std::string_view two(buffer, result.ptr - buffer);
    F back = 0;
    std::from_chars(two.data(), two.data() + two.size(), back);
    if (back == magnitude) d = FromScientific(two);
  }
  return LayoutJavaDecimal(std::signbit(value), d);
}

void AppendUnicodeEscape(uint32_t unit, std::string& out) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  out.append("\\u");
  for (int shift = 12; shift >= 0; shift -= 4) out.push_back(kHex[(unit >> shift) & 0xF]);
}

}  // namespace

std::string FormatJavaDouble(double value, JavaDoubleStyle style) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  if (value == 0) return std::signbit(value) ? "-0.0" : "0.0";
  return style == JavaDoubleStyle::kJdk17 ? FormatJdk17(value) : FormatShortest(value);
}

std::string FormatJavaFloat(float value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  if (value == 0) return std::signbit(value) ? "-0.0" : "0.0";
  return FormatShortest(value);
}

void AppendJacksonString(std::string_view utf8, std::string& out) {
  out.push_back('"');
  size_t i = 0;
  while (i < utf8.size()) {
    const unsigned char c = static_cast<unsigned char>(utf8[i]);
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
      // A run of characters written as they are, the usual string, in one append.
      size_t end = i + 1;
      while (end < utf8.size()) {
        const unsigned char d = static_cast<unsigned char>(utf8[end]);
        if (d < 0x20 || d >= 0x80 || d == '"' || d == '\\') break;
        ++end;
      }
      out.append(utf8.substr(i, end - i));
      i = end;
      continue;
    }
    if (c >= 0x80) {
      const size_t start = i;
      const uint32_t cp = DecodeOneUtf8(utf8, &i, /*surrogates=*/true);
      if (cp >= 0x10000) {
        // Jackson escapes each UTF-16 surrogate of a supplementary character.
        AppendUnicodeEscape(0xD800 + ((cp - 0x10000) >> 10), out);
        AppendUnicodeEscape(0xDC00 + ((cp - 0x10000) & 0x3FF), out);
      } else if (cp >= 0xD800 && cp <= 0xDFFF) {
        AppendUnicodeEscape(cp, out);  // a lone surrogate (RapidJSON decodes "\uDC00" to one)
      } else {
        out.append(utf8.substr(start, i - start));
      }
      continue;
    }
    ++i;
    switch (c) {
      case '"':
        out.append("\\\"");
        break;
      case '\\':
        out.append("\\\\");
        break;
      case '\b':
        out.append("\\b");
        break;
      case '\t':
        out.append("\\t");
        break;
      case '\n':
        out.append("\\n");
        break;
      case '\f':
        out.append("\\f");
        break;
      case '\r':
        out.append("\\r");
        break;
      default:
        if (c < 0x20) {
          AppendUnicodeEscape(c, out);
        } else {
          out.push_back(static_cast<char>(c));
        }
    }
  }
  out.push_back('"');
}

std::string JavaUrlEncode(std::string_view utf8) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : utf8) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
        c == '-' || c == '*' || c == '_') {
      out += static_cast<char>(c);
    } else if (c == ' ') {
      out += '+';
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

}  // namespace connectd::jvm
