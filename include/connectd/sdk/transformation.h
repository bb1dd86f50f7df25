// File: connectd/sdk/transformation.h
//
// Single Message Transforms and predicates as plugins (ABI 1.5), as Connect's
// org.apache.kafka.connect.transforms.Transformation and .predicates.Predicate. A class declares:
//   static constexpr char kClassName[] = "com.example.transforms.Uppercase";  // Connect's name
//   static constexpr char kVersion[] = "1.0.0";
//   static connectd::sdk::ConfigDef configDef();
// and is listed in the plugin's CONNECTD_PLUGIN(...) next to any connectors. Connectors then use
// it as they use a built-in: transforms=up, transforms.up.type=com.example.transforms.Uppercase
// (or its simple name, Uppercase).
//
// Threads: an instance belongs to one task and runs on its thread.
// Errors: configure throws ConfigException for a bad config (the connector config is refused);
// apply/test throw DataException for a record they cannot handle (errors.tolerance decides).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "connectd/plugin/abi.h"
#include "connectd/sdk/config_def.h"
#include "connectd/sdk/connector.h"
#include "connectd/sdk/data.h"

namespace connectd::sdk {

// Connect's ConnectRecord: a SourceRecord after poll, or a SinkRecord after the converters.
struct ConnectRecord {
  struct Header {
    std::string key;
    SchemaPtr schema;
    Value value;
  };
  std::string topic;
  std::optional<int32_t> kafkaPartition;
  SchemaPtr keySchema;
  Value key;
  SchemaPtr valueSchema;
  Value value;
  std::optional<int64_t> timestamp;
  std::vector<Header> headers;
  std::optional<int64_t> kafkaOffset;  // sink records only

  // A copy with another topic, key and value, as ConnectRecord.newRecord.
  ConnectRecord newRecord(std::string new_topic, SchemaPtr new_key_schema, Value new_key,
                          SchemaPtr new_value_schema, Value new_value) const {
    ConnectRecord r = *this;
    r.topic = std::move(new_topic);
    r.keySchema = std::move(new_key_schema);
    r.key = std::move(new_key);
    r.valueSchema = std::move(new_value_schema);
    r.value = std::move(new_value);
    return r;
  }
};

class Transformation {
 public:
  virtual ~Transformation() = default;
  virtual void configure(const Props& configs) = 0;
  // The transformed record, or nullopt to drop it (Java's null).
  virtual std::optional<ConnectRecord> apply(const ConnectRecord& record) = 0;
};

class Predicate {
 public:
  virtual ~Predicate() = default;
  virtual void configure(const Props& configs) = 0;
  virtual bool test(const ConnectRecord& record) = 0;
};

namespace internal {

inline ConnectRecord FromAbi(const connectd_connect_record& r) {
  AbiReader reader;
  ConnectRecord out;
  out.topic = std::string(FromStr(r.topic));
  if (r.partition != CONNECTD_ANY_PARTITION) out.kafkaPartition = r.partition;
  out.keySchema = reader.schema(r.key_schema);
  out.key = reader.value(r.key);
  out.valueSchema = reader.schema(r.value_schema);
  out.value = reader.value(r.value);
  if (r.timestamp_ms != CONNECTD_NO_TIMESTAMP) out.timestamp = r.timestamp_ms;
  for (size_t i = 0; i < r.header_count; ++i) {
    const connectd_connect_header& h = r.headers[i];
    out.headers.push_back(
        {std::string(FromStr(h.key)), reader.schema(h.schema), reader.value(h.value)});
  }
  if (r.has_kafka_offset != 0) out.kafkaOffset = r.kafka_offset;
  return out;
}

// Fills `out` with views into `record` and `writer`; both must outlive the views' use.
inline void ToAbi(const ConnectRecord& record, AbiWriter& writer,
                  std::vector<connectd_connect_header>& headers, connectd_connect_record& out) {
  out = connectd_connect_record{};
  out.struct_size = sizeof(connectd_connect_record);
  out.topic = ToStr(record.topic);
  out.partition = record.kafkaPartition.value_or(CONNECTD_ANY_PARTITION);
  out.key_schema = writer.schema(record.keySchema);
  out.key = writer.value(record.key);
  out.value_schema = writer.schema(record.valueSchema);
  out.value = writer.value(record.value);
  out.timestamp_ms = record.timestamp.value_or(CONNECTD_NO_TIMESTAMP);
  headers.clear();
  for (const ConnectRecord::Header& h : record.headers) {
    headers.push_back({ToStr(h.key), writer.schema(h.schema), writer.value(h.value)});
  }
  out.headers = headers.data();
  out.header_count = headers.size();
  out.has_kafka_offset = record.kafkaOffset ? 1 : 0;
  out.kafka_offset = record.kafkaOffset.value_or(-1);
}

}  // namespace internal
}  // namespace connectd::sdk
