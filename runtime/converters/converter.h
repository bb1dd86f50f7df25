// File: converter.h
//
// Connect's Converter: turns a record key or value between Kafka bytes and Connect data
// (org.apache.kafka.connect.storage.Converter). The worker runs one per task for keys and one
// for values, configured from `key.converter.*` / `value.converter.*` (converter_factory.h).
//
// Bytes are std::nullopt for Kafka's null (a tombstone). Failures are kInvalidArgument with
// Java's DataException message, which errors.tolerance and the dead-letter queue report.
//
// Thread safety: a converter is used by one task thread at a time.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "runtime/data/schema.h"
#include "runtime/data/value.h"

namespace connectd::converters {

struct SchemaAndValue {
  data::SchemaPtr schema;  // nullptr: no schema
  data::Value value;
};

class Converter {
 public:
  virtual ~Converter() = default;

  // fromConnectData: Connect data to record bytes.
  virtual absl::StatusOr<std::optional<std::string>> FromConnectData(
      std::string_view topic, const data::SchemaPtr& schema, const data::Value& value) = 0;

  // toConnectData: record bytes to Connect data.
  virtual absl::StatusOr<SchemaAndValue> ToConnectData(std::string_view topic,
                                                       std::optional<std::string_view> bytes) = 0;
};

}  // namespace connectd::converters
