// File: java_text.h
//
// How Java and Jackson render the scalar values of Connect's internal JSON, byte for byte:
// Double.toString, Jackson's string escaping (UTF8JsonGenerator defaults), and String.hashCode
// (which decides java.util.HashMap iteration order). offset_codec.h builds on these.
//
// Facts relied on (see also runtime/storage/README.md):
//  - Jackson writes a double with Double.toString of the running JDK (USE_FAST_DOUBLE_WRITER is
//    off by default). JDK 17 and 18 use the FloatingDecimal algorithm, which is not always the
//    shortest round-trip form (large integral doubles get extra digits, e.g. 4.3179785128870888E16;
//    1e23 prints as 9.999999999999999E22). JDK 19+ prints the shortest form with at least two
//    significant digits (JDK-4511638). Both render as Java does: plain notation for
//    1e-3 <= |v| < 1e7 ("100.0", "0.001"), else "d.dddE[-]n" ("1.0E10", "4.9E-324").
//  - UTF8JsonGenerator escapes '"', '\\', control characters below 0x20 (\b \t \n \f \r, else
//    \u00XX with upper-case hex) and writes each UTF-16 surrogate of a supplementary character as
//    its own \uXXXX escape (COMBINE_UNICODE_SURROGATES_IN_UTF8 is off by default); every other
//    character, 0x7F and U+2028 included, is written as raw UTF-8.
//
// Thread safety: all functions are pure and may be called from any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace connectd::storage {

// Which JDK's Double.toString to reproduce.
enum class JavaDoubleStyle {
  kJdk17,  // JDK 17/18 FloatingDecimal (the reference Kafka 4.4 worker on Java 17)
  kJdk19,  // JDK 19+ shortest-decimal algorithm (Java 21, 25)
};

// FormatJavaDouble returns Double.toString(value) as the chosen JDK prints it; NaN and the
// infinities give "NaN", "Infinity", "-Infinity".
std::string FormatJavaDouble(double value, JavaDoubleStyle style = JavaDoubleStyle::kJdk17);

// FormatJavaFloat returns Float.toString(value) as JDK 19+ prints it: the shortest decimal that
// reads back as the value, in Double.toString's layout. JDK 17's legacy algorithm prints a longer
// form for some floats; those are not reproduced.
std::string FormatJavaFloat(float value);

// AppendJacksonString appends `utf8` as a quoted JSON string exactly as Jackson's
// UTF8JsonGenerator writes it. REQUIRES: `utf8` is valid UTF-8 (callers validate input first;
// a surrogate code point encoded on its own, as RapidJSON decodes a lone "\uDC00", is escaped
// as Jackson escapes a lone surrogate).
void AppendJacksonString(std::string_view utf8, std::string& out);

// JavaStringHashCode returns java.lang.String.hashCode() of the Java string whose UTF-8 encoding
// is `utf8`: s[0]*31^(n-1) + ... over UTF-16 code units, with int overflow.
// REQUIRES: `utf8` is valid UTF-8.
int32_t JavaStringHashCode(std::string_view utf8);

// JavaHashMapIterationOrder returns the permutation of keys, given by their hashCode() values in
// insertion order (distinct keys), in which a java.util.HashMap created with a table of
// `initial_capacity` (a power of two; 16 for `new HashMap<>()`) iterates them: bucket by bucket (bucket = low bits of h ^ (h >>> 16)), insertion order within
// a bucket, the table doubling at 3/4 full and when a bucket already holding 8 gets another
// while the table is smaller than 64 (treeifyBin resizes instead). Tree bins (a 9th key in one
// bucket of a table of 64 or more) are not modelled and keep insertion order.
std::vector<size_t> JavaHashMapIterationOrder(const std::vector<int32_t>& hash_codes,
                                              size_t initial_capacity = 16);

// JavaHashMapCopyCapacity is the table capacity of `new HashMap<>(m)` for a map of `entries`
// (JDK 17); its first put of m's entries uses it.
size_t JavaHashMapCopyCapacity(size_t entries);

}  // namespace connectd::storage
