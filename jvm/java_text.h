// File: java_text.h
//
// How Java and Jackson render the scalar values of Connect's internal JSON, byte for byte:
// Double.toString and Jackson's string escaping (UTF8JsonGenerator defaults); String.hashCode
// and HashMap order are java_hash_order.h's. runtime/storage/offset_codec.h builds on these.
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

namespace connectd::jvm {

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

// java.net.URLEncoder.encode(s, UTF_8): a-z, A-Z, 0-9, '.', '-', '*' and '_' as they are, a space
// as '+', every other byte of the UTF-8 as %XX (upper-case hex).
std::string JavaUrlEncode(std::string_view utf8);

}  // namespace connectd::jvm
