// BigDecimal as Connect's Decimal uses it: parsing, printing and the Java facts around it.
#include "runtime/data/decimal.h"

#include "gtest/gtest.h"
#include "runtime/data/value.h"

namespace connectd::data {
namespace {

std::string Hex(const std::string& bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 0xF]);
  }
  return out;
}

TEST(DecimalTest, ParsesAsNewBigDecimalOfString) {
  absl::StatusOr<Decimal> d = ParseJavaDecimal("1.50");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(Hex(d->unscaled), "0096");  // 150: a sign byte keeps it positive
  EXPECT_EQ(d->scale, 2);
  d = ParseJavaDecimal("-1e3");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(Hex(d->unscaled), "ff");
  EXPECT_EQ(d->scale, -3);
  d = ParseJavaDecimal("-0.0");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(Hex(d->unscaled), "00");
  EXPECT_EQ(d->scale, 1);
  EXPECT_FALSE(ParseJavaDecimal("1.2.3").ok());
  EXPECT_FALSE(ParseJavaDecimal("e5").ok());
  EXPECT_FALSE(ParseJavaDecimal("1e99999999999").ok());
}

TEST(DecimalTest, PrintsAsBigDecimalToString) {
  auto text = [](std::string_view s) { return ToJavaString(*ParseJavaDecimal(s)); };
  EXPECT_EQ(text("123.45"), "123.45");
  EXPECT_EQ(text("-0.001"), "-0.001");
  EXPECT_EQ(text("0.0000001"), "1E-7");
  EXPECT_EQ(text("0.000001"), "0.000001");
  EXPECT_EQ(text("1e3"), "1E+3");
  EXPECT_EQ(text("12.5e3"), "1.25E+4");
  EXPECT_EQ(text("12345678901234567890.12"), "12345678901234567890.12");
  EXPECT_EQ(text("0"), "0");
  EXPECT_EQ(text("0.00"), "0.00");
}

TEST(DecimalTest, LongAndDoubleValues) {
  EXPECT_EQ(LongValue(*ParseJavaDecimal("-2.9")), -2);
  EXPECT_EQ(LongValue(*ParseJavaDecimal("18446744073709551617")), 1);  // low 64 bits
  EXPECT_EQ(LongValue(*ParseJavaDecimal("1e100")), 0);
  EXPECT_EQ(DoubleValue(*ParseJavaDecimal("0.1")), 0.1);
  EXPECT_EQ(DoubleValue(DecimalFromLong(-5)), -5.0);
}

TEST(DecimalTest, TwosComplementIsMinimal) {
  EXPECT_EQ(Hex(DecimalFromLong(0).unscaled), "00");
  EXPECT_EQ(Hex(DecimalFromLong(-1).unscaled), "ff");
  EXPECT_EQ(Hex(DecimalFromLong(128).unscaled), "0080");
  EXPECT_EQ(Hex(DecimalFromLong(-129).unscaled), "ff7f");
  EXPECT_EQ(Hex(MinimalTwosComplement(std::string("\xff\xff\x80", 3))), "80");
}

TEST(DecimalTest, HashCodeIsJavas) {
  // new BigDecimal("1.5").hashCode() == 31 * 15 + 1; BigInteger(-7).hashCode() == -7.
  EXPECT_EQ(JavaHashCode(*ParseJavaDecimal("1.5")), 31 * 15 + 1);
  EXPECT_EQ(JavaHashCode(*ParseJavaDecimal("-7")), 31 * -7);
  // 2^32 + 1 has the words [1, 1]: hash 31 * 1 + 1 = 32.
  EXPECT_EQ(JavaHashCode(*ParseJavaDecimal("4294967297")), 31 * 32);
}

TEST(ValueTest, HashMapOrderFollowsJava) {
  // A HashMap<String, Object> of these keys iterates a, b, c (hashes 97, 98, 99).
  Value::Map m = JavaHashMap({{Value::String("c"), Value::Int32(3)},
                              {Value::String("a"), Value::Int32(1)},
                              {Value::String("b"), Value::Int32(2)},
                              {Value::String("a"), Value::Int32(4)}});
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0].first.string(), "a");
  EXPECT_EQ(m[0].second.int32(), 4);  // the last value of a repeated key
  EXPECT_EQ(m[2].first.string(), "c");
}

TEST(ValueTest, EqualityIsJavas) {
  EXPECT_NE(Value::Int64(1), Value::Int32(1));
  EXPECT_NE(Value::Float64(0.0), Value::Float64(-0.0));
  EXPECT_EQ(Value::Float64(std::nan("")), Value::Float64(std::nan("")));
  EXPECT_NE(Value::OfDecimal(*ParseJavaDecimal("1.5")), Value::OfDecimal(*ParseJavaDecimal("1.50")));
  EXPECT_EQ(Value::OfMap({{Value::String("a"), Value()}, {Value::String("b"), Value::Int8(1)}}),
            Value::OfMap({{Value::String("b"), Value::Int8(1)}, {Value::String("a"), Value()}}));
}

TEST(ValueTest, StructPutValidatesAsJava) {
  Schema s = Schema::Of(Type::kStruct);
  s.AddField("id", Schema::Required(Type::kInt32));
  Struct st(Freeze(std::move(s)));
  EXPECT_EQ(st.Put("id", Value::Int64(1)).message(),
            "Invalid Java object for schema with type INT32: class java.lang.Long for field: \"id\"");
  EXPECT_EQ(st.Put("nope", Value::Int32(1)).message(), "nope is not a valid field name");
  EXPECT_EQ(st.Validate().message(),
            "Invalid value: null used for required field: \"id\", schema type: INT32");
  EXPECT_TRUE(st.Put("id", Value::Int32(1)).ok());
  EXPECT_TRUE(st.Validate().ok());
}

}  // namespace
}  // namespace connectd::data
