// File: number_converters.h
//
// Kafka's primitive converters (org.apache.kafka.connect.converters): IntegerConverter,
// LongConverter, ShortConverter, FloatConverter, DoubleConverter (NumberConverter) and
// BooleanConverter, as keys, values or headers. The bytes are Kafka's serializers' (big-endian
// two's complement, IEEE 754, one byte 0/1 for a boolean); Connect data is the optional schema
// of the type. The messages are Java's: "Failed to serialize to integer (was class
// java.lang.String): ", "Failed to deserialize long: Size of data received by LongDeserializer is
// not 8", "Invalid schema type for BooleanConverter: STRING", ...
//
// Thread safety: a converter belongs to one task thread.
#pragma once

#include <memory>
#include <string_view>

#include "runtime/converters/converter.h"

namespace connectd::converters {

inline constexpr std::string_view kBooleanConverter =
    "org.apache.kafka.connect.converters.BooleanConverter";
inline constexpr std::string_view kDoubleConverter =
    "org.apache.kafka.connect.converters.DoubleConverter";
inline constexpr std::string_view kFloatConverter =
    "org.apache.kafka.connect.converters.FloatConverter";
inline constexpr std::string_view kIntegerConverter =
    "org.apache.kafka.connect.converters.IntegerConverter";
inline constexpr std::string_view kLongConverter =
    "org.apache.kafka.connect.converters.LongConverter";
inline constexpr std::string_view kShortConverter =
    "org.apache.kafka.connect.converters.ShortConverter";

// The six, for listing.
inline constexpr std::string_view kNumberConverters[] = {kBooleanConverter, kDoubleConverter,
                                                         kFloatConverter,   kIntegerConverter,
                                                         kLongConverter,    kShortConverter};

// The converter for one of the six full class names; nullptr for any other.
std::unique_ptr<Converter> MakeNumberConverter(std::string_view class_name);

}  // namespace connectd::converters
