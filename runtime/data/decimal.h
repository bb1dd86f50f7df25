// File: decimal.h
//
// java.math.BigDecimal as Connect's Decimal logical type uses it: an unscaled integer of any
// size (kept as BigInteger.toByteArray(): minimal big-endian two's complement, at least one
// byte) and a scale; value = unscaled x 10^-scale. Equality includes the scale (1.5 != 1.50),
// as BigDecimal.equals.
//
// Parsing and printing follow Java: ParseJavaDecimal is new BigDecimal(String) over a JSON
// number literal, ToJavaString is BigDecimal.toString() (scientific notation when the scale is
// negative or the adjusted exponent below -6).
//
// Thread safety: all functions are pure.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace connectd::data {

struct Decimal {
  std::string unscaled = std::string(1, '\0');  // BigInteger.toByteArray()
  int32_t scale = 0;
  bool operator==(const Decimal& o) const { return scale == o.scale && unscaled == o.unscaled; }
};

// ParseJavaDecimal parses a JSON number literal (-?digits(.digits)?([eE][+-]?digits)?) as
// new BigDecimal(text): "1.50" is 150 scale 2, "1e3" is 1 scale -3. kInvalidArgument when the
// text is not such a literal or its scale does not fit an int.
absl::StatusOr<Decimal> ParseJavaDecimal(std::string_view text);

// DecimalFromLong is BigDecimal.valueOf(v) (scale 0).
Decimal DecimalFromLong(int64_t v);

// MinimalTwosComplement returns `bytes` (big-endian two's complement, non-empty) without
// redundant leading sign bytes, as new BigInteger(bytes).toByteArray().
std::string MinimalTwosComplement(std::string_view bytes);

// ToJavaString is BigDecimal.toString().
std::string ToJavaString(const Decimal& d);

// UnscaledDecimalDigits is BigInteger.toString() of the unscaled value ("-123").
std::string UnscaledDecimalDigits(const Decimal& d);

// LongValue is BigDecimal.longValue(): the integer part (truncated toward zero), low 64 bits.
int64_t LongValue(const Decimal& d);

// DoubleValue is BigDecimal.doubleValue() (correctly rounded).
double DoubleValue(const Decimal& d);

// JavaHashCode is BigDecimal.hashCode(): 31 * unscaled.hashCode() + scale.
int32_t JavaHashCode(const Decimal& d);

}  // namespace connectd::data
