// File: converter_factory.h
//
// The converters connectd ships, by Java class name, configured as Connect configures a task's
// converters (Plugins.newConverter): the connector's `key.converter` / `value.converter` /
// `header.converter` with its own `<that>.` prefixed configs, else the worker's, with
// `converter.type` set to key, value or header.
//
//   org.apache.kafka.connect.converters.ByteArrayConverter  bytes as they are (BYTES schema)
//   org.apache.kafka.connect.storage.StringConverter        UTF-8 text (STRING schema)
//   org.apache.kafka.connect.json.JsonConverter             json_converter.h
//   org.apache.kafka.connect.storage.SimpleHeaderConverter  headers only: Values' text form
//
// Deliberate differences (docs/compatibility.md): StringConverter writes a BYTES value as its
// bytes (Java writes byte[].toString(), "[B@1f2a3b"); records that a plugin hands over as bytes
// stay bytes through any converter that can carry them.
//
// Thread safety: factories are pure; a converter belongs to one task thread.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "runtime/converters/converter.h"

namespace connectd::converters {

enum class ConverterType { kKey, kValue, kHeader };

inline constexpr std::string_view kByteArrayConverter =
    "org.apache.kafka.connect.converters.ByteArrayConverter";
inline constexpr std::string_view kStringConverter =
    "org.apache.kafka.connect.storage.StringConverter";
inline constexpr std::string_view kJsonConverter = "org.apache.kafka.connect.json.JsonConverter";
inline constexpr std::string_view kSimpleHeaderConverter =
    "org.apache.kafka.connect.storage.SimpleHeaderConverter";

// The full class name for a class name or its simple alias ("JsonConverter"); empty when the
// class is not one connectd ships (SimpleHeaderConverter only as a header converter).
std::string CanonicalConverterClass(std::string_view class_name, ConverterType type);

// Builds and configures a converter; kInvalidArgument for an unknown class or a bad config.
absl::StatusOr<std::unique_ptr<Converter>> MakeConverter(
    std::string_view class_name, const std::map<std::string, std::string>& configs,
    ConverterType type);

// The converter config of a task for `key`, `value` or `header` (without ".converter"):
// class and its configs from the connector config when it names the class, else from the
// worker config; `default_class` when neither does.
struct ConverterSpec {
  std::string class_name;
  std::map<std::string, std::string> configs;
};
ConverterSpec ResolveConverter(const std::map<std::string, std::string>& connector_config,
                               const std::map<std::string, std::string>& worker_config,
                               std::string_view which, std::string_view default_class);

// True when the converter passes a plugin's bytes through unchanged both ways (ByteArray and
// String converters): a task with only such converters and no transforms skips conversion.
bool IsPassThrough(std::string_view class_name);

}  // namespace connectd::converters
