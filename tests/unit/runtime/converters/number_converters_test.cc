// Kafka's primitive converters: the serializers' bytes, Connect's optional schemas, Java's
// messages (checked against the 4.4.0 jars' classes: NumberConverter, BooleanConverter and the
// deserializers of kafka-clients).
#include "runtime/converters/number_converters.h"

#include <gtest/gtest.h>

#include "runtime/converters/converter_factory.h"

namespace connectd::converters {
namespace {

using data::Value;

std::unique_ptr<Converter> Make(std::string_view name) {
  absl::StatusOr<std::unique_ptr<Converter>> made = MakeConverter(name, {}, ConverterType::kValue);
  EXPECT_TRUE(made.ok()) << made.status();
  return made.ok() ? *std::move(made) : nullptr;
}

TEST(NumberConvertersTest, BytesAreKafkasSerializers) {
  EXPECT_EQ(*Make("IntegerConverter")->FromConnectData("t", nullptr, Value::Int32(-2)),
            std::string("\xff\xff\xff\xfe", 4));
  EXPECT_EQ(*Make(kLongConverter)->FromConnectData("t", nullptr, Value::Int64(258)),
            std::string("\0\0\0\0\0\0\x01\x02", 8));
  EXPECT_EQ(*Make("ShortConverter")->FromConnectData("t", nullptr, Value::Int16(1)),
            std::string("\0\x01", 2));
  EXPECT_EQ(*Make("FloatConverter")->FromConnectData("t", nullptr, Value::Float32(1.0f)),
            std::string("\x3f\x80\0\0", 4));
  EXPECT_EQ(*Make("DoubleConverter")->FromConnectData("t", nullptr, Value::Float64(-2.0)),
            std::string("\xc0\0\0\0\0\0\0\0", 8));
  EXPECT_EQ(*Make("BooleanConverter")->FromConnectData("t", nullptr, Value::Boolean(true)),
            std::string("\x01", 1));
  EXPECT_EQ(*Make("IntegerConverter")->FromConnectData("t", nullptr, Value()), std::nullopt);
}

TEST(NumberConvertersTest, ReadBackWithOptionalSchemas) {
  absl::StatusOr<SchemaAndValue> i =
      Make("IntegerConverter")->ToConnectData("t", std::string_view("\xff\xff\xff\xfe", 4));
  ASSERT_TRUE(i.ok());
  EXPECT_EQ(i->schema->type, data::Type::kInt32);
  EXPECT_TRUE(i->schema->optional);
  EXPECT_EQ(i->value.int32(), -2);
  absl::StatusOr<SchemaAndValue> d =
      Make("DoubleConverter")->ToConnectData("t", std::string_view("\xc0\0\0\0\0\0\0\0", 8));
  EXPECT_EQ(d->value.float64(), -2.0);
  absl::StatusOr<SchemaAndValue> b =
      Make("BooleanConverter")->ToConnectData("t", std::string_view("\x00", 1));
  EXPECT_TRUE(b.ok());
  absl::StatusOr<SchemaAndValue> null = Make("LongConverter")->ToConnectData("t", std::nullopt);
  EXPECT_TRUE(null->value.is_null());
  EXPECT_EQ(null->schema->type, data::Type::kInt64);
}

TEST(NumberConvertersTest, JavasMessages) {
  EXPECT_EQ(std::string(Make("IntegerConverter")
                            ->FromConnectData("t", nullptr, Value::String("x"))
                            .status()
                            .message()),
            "Failed to serialize to integer (was class java.lang.String): ");
  EXPECT_EQ(Make("LongConverter")->ToConnectData("t", "abc").status().message(),
            "Failed to deserialize long: Size of data received by LongDeserializer is not 8");
  EXPECT_EQ(Make("BooleanConverter")->ToConnectData("t", "\x02").status().message(),
            "Failed to deserialize boolean: Unexpected byte received by BooleanDeserializer: 2");
  EXPECT_EQ(
      Make("BooleanConverter")
          ->FromConnectData("t", data::Schema::Optional(data::Type::kString), Value::String("x"))
          .status()
          .message(),
      "Invalid schema type for BooleanConverter: STRING");
}

}  // namespace
}  // namespace connectd::converters
