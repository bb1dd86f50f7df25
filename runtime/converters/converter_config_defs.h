// File: converter_config_defs.h
//
// The ConfigDefs Kafka Connect 4.4 reports for the converters connectd ships
// (GET /connector-plugins/<class>/config): ByteArrayConverter, StringConverter, JsonConverter
// and SimpleHeaderConverter, key for key as Java gives them (converter_factory.h lists what each
// converter does). The converters still parse their own configs (JsonConverterConfig::Parse);
// these definitions describe them for REST and config validation. The truth is
// tests/golden/rest/java-4.4.0-plugin-configs.json (tests/unit/builtin_config_defs_test.cc).
//
// Thread safety: the definitions are built once, on first use, and never change; callable from
// any thread.
#pragma once

#include <string_view>

#include "runtime/config/config_def.h"

namespace connectd::converters {

// The definition of a converter connectd ships, by any name CanonicalConverterClass accepts
// (the Java class name or its simple alias, "JsonConverter"; SimpleHeaderConverter included).
// nullptr for any other class. The pointer stays valid for the process's life.
const config::ConfigDef* ConverterConfigDef(std::string_view class_name);

}  // namespace connectd::converters
