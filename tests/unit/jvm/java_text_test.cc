#include "jvm/java_text.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

namespace connectd::jvm {
namespace {

double FromBits(uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

struct DoubleCase {
  uint64_t bits;
  const char* jdk17;  // Double.toString on OpenJDK 17.0.15
  const char* jdk19;  // Double.toString on Temurin 25
};

// Printed by the JDKs themselves (see tests/golden/offsets/README.md for the random comparison).
constexpr DoubleCase kDoubleCases[] = {
    {0x0000000000000001ULL, "4.9E-324", "4.9E-324"},
    {0x0000000000000002ULL, "1.0E-323", "9.9E-324"},
    {0x0000000000000003ULL, "1.5E-323", "1.5E-323"},
    {0x0010000000000000ULL, "2.2250738585072014E-308", "2.2250738585072014E-308"},
    {0x3c079ca10c924223ULL, "1.6E-19", "1.6E-19"},
    {0x3ee4f8b588e368f1ULL, "1.0E-5", "1.0E-5"},
    {0x3f0a36e2eb1c432dULL, "5.0E-5", "5.0E-5"},
    {0x3f505e1c15097c81ULL, "9.99E-4", "9.99E-4"},
    {0x3f50624dd2f1a9fcULL, "0.001", "0.001"},
    {0x3f60624dd2f1a9fcULL, "0.002", "0.002"},
    {0x3fb999999999999aULL, "0.1", "0.1"},
    {0x3fd3333333333334ULL, "0.30000000000000004", "0.30000000000000004"},
    {0x3fd5555555555555ULL, "0.3333333333333333", "0.3333333333333333"},
    {0x3fe0000000000000ULL, "0.5", "0.5"},
    {0x3fe5555555555555ULL, "0.6666666666666666", "0.6666666666666666"},
    {0x3ff0000000000000ULL, "1.0", "1.0"},
    {0x4011666666666666ULL, "4.35", "4.35"},
    {0x4059000000000000ULL, "100.0", "100.0"},
    {0x40fe240c9fbe76c9ULL, "123456.789", "123456.789"},
    {0x4132d68700000000ULL, "1234567.0", "1234567.0"},
    {0x416312cfe0000000ULL, "9999999.0", "9999999.0"},
    {0x416312d000000000ULL, "1.0E7", "1.0E7"},
    {0x41678c29dccccccdULL, "1.23456789E7", "1.23456789E7"},
    {0x41b1de784a000000ULL, "2.99792458E8", "2.99792458E8"},
    {0x4202a05f20000000ULL, "1.0E10", "1.0E10"},
    {0x4278bcfe56800000ULL, "1.7E12", "1.7E12"},
    {0x430c6bf526340000ULL, "1.0E15", "1.0E15"},
    {0x4340000000000000ULL, "9.007199254740992E15", "9.007199254740992E15"},
    {0x4341c37937e08000ULL, "1.0E16", "1.0E16"},
    {0x4350000000000000ULL, "1.8014398509481984E16", "1.8014398509481984E16"},
    {0x4360000000000000ULL, "3.6028797018963968E16", "3.602879701896397E16"},
    {0x43632cf92542b07dULL, "4.3179785128870888E16", "4.317978512887089E16"},
    {0x4370000000000000ULL, "7.2057594037927936E16", "7.205759403792794E16"},
    {0x4376345785d8a000ULL, "1.0E17", "1.0E17"},
    {0x437b69b4ba630f35ULL, "1.2345678901234568E17", "1.2345678901234568E17"},
    {0x43b0000000000000ULL, "1.15292150460684698E18", "1.152921504606847E18"},
    {0x43c0000000000000ULL, "2.305843009213694E18", "2.305843009213694E18"},
    {0x43d0000000000000ULL, "4.6116860184273879E18", "4.611686018427388E18"},
    {0x43dfffffffffffffULL, "9.2233720368547748E18", "9.223372036854775E18"},
    {0x43e0000000000000ULL, "9.223372036854776E18", "9.223372036854776E18"},
    {0x444b1ae4d6e2ef50ULL, "1.0E21", "1.0E21"},
    {0x447c7e83209e90b2ULL, "8.409999999999999E21", "8.41E21"},
    {0x4480f0cf064dd592ULL, "1.0E22", "1.0E22"},
    {0x44a52d02c7e14af6ULL, "4.9999999999999996E22", "5.0E22"},
    {0x44b52d02c7e14af6ULL, "9.999999999999999E22", "1.0E23"},
    {0x44c52d02c7e14af6ULL, "1.9999999999999998E23", "2.0E23"},
    {0x44dfe185ca57c517ULL, "6.02214076E23", "6.02214076E23"},
    {0x453679dedaf8b9c6ULL, "2.7171885331698986E25", "2.7171885331698987E25"},
    {0x47efffffe0000000ULL, "3.4028234663852886E38", "3.4028234663852886E38"},
    {0x7fefffffffffffffULL, "1.7976931348623157E308", "1.7976931348623157E308"},
    {0x8000000000000000ULL, "-0.0", "-0.0"},
    {0xc004000000000000ULL, "-2.5", "-2.5"},
};

TEST(JavaDoubleTest, MatchesJdk17DoubleToString) {
  for (const DoubleCase& c : kDoubleCases) {
    EXPECT_EQ(FormatJavaDouble(FromBits(c.bits), JavaDoubleStyle::kJdk17), c.jdk17)
        << std::hex << c.bits;
  }
}

TEST(JavaDoubleTest, MatchesJdk19PlusDoubleToString) {
  for (const DoubleCase& c : kDoubleCases) {
    EXPECT_EQ(FormatJavaDouble(FromBits(c.bits), JavaDoubleStyle::kJdk19), c.jdk19)
        << std::hex << c.bits;
  }
}

TEST(JavaDoubleTest, NegativeValuesAndSpecials) {
  EXPECT_EQ(FormatJavaDouble(-0.1), "-0.1");
  EXPECT_EQ(FormatJavaDouble(-1e10), "-1.0E10");
  EXPECT_EQ(FormatJavaDouble(0.0), "0.0");
  EXPECT_EQ(FormatJavaDouble(std::numeric_limits<double>::quiet_NaN()), "NaN");
  EXPECT_EQ(FormatJavaDouble(std::numeric_limits<double>::infinity()), "Infinity");
  EXPECT_EQ(FormatJavaDouble(-std::numeric_limits<double>::infinity()), "-Infinity");
}

std::string Jackson(std::string_view utf8) {
  std::string out;
  AppendJacksonString(utf8, out);
  return out;
}

TEST(JacksonStringTest, EscapesLikeUtf8JsonGenerator) {
  EXPECT_EQ(Jackson("plain /path"), R"("plain /path")");
  EXPECT_EQ(Jackson("q\"b\\"), R"("q\"b\\")");
  EXPECT_EQ(Jackson("\b\t\n\f\r"), R"("\b\t\n\f\r")");
  EXPECT_EQ(Jackson(std::string_view("\x00\x01\x1f\x7f", 4)), "\"\\u0000\\u0001\\u001F\x7f\"");
  // Non-ASCII BMP characters (U+2028 included) stay raw UTF-8.
  EXPECT_EQ(Jackson("d\xc3\xa4ta \xe6\x97\xa5 \xe2\x80\xa8"),
            "\"d\xc3\xa4ta \xe6\x97\xa5 \xe2\x80\xa8\"");
  // Supplementary characters become two escaped surrogates, upper-case hex.
  EXPECT_EQ(Jackson("\xf0\x9f\x98\x80"), R"("\uD83D\uDE00")");
}

TEST(JacksonStringTest, TruncatedUtf8NeverReadsPastTheEnd) {
  std::string out;
  AppendJacksonString(std::string_view("a\xf0\x9f", 3), out);
  EXPECT_FALSE(out.empty());
}

TEST(JavaUrlEncodeTest, AsJavaNetUrlEncoderWithUtf8) {
  // URLEncoder.encode(s, StandardCharsets.UTF_8) on JDK 17.
  EXPECT_EQ(JavaUrlEncode("a b+c/\xC3\xA9~!*._-"), "a+b%2Bc%2F%C3%A9%7E%21*._-");
  EXPECT_EQ(JavaUrlEncode(""), "");
  EXPECT_EQ(JavaUrlEncode("svc:p@ss&x=1"), "svc%3Ap%40ss%26x%3D1");
}

}  // namespace
}  // namespace connectd::jvm
