// File: connect_record.h
//
// A record as transforms and predicates see it (Connect's ConnectRecord: a SourceRecord after
// the task's poll, or a SinkRecord after the converters): topic, partition, key and value with
// their schemas, timestamp and headers as Connect data. Kafka nulls are null Values; an unset
// partition or timestamp is nullopt.
//
// Thread safety: plain data, owned by one task thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/data/schema.h"
#include "runtime/data/value.h"

namespace connectd::transforms {

struct Header {
  std::string key;
  data::SchemaPtr schema;
  data::Value value;
  // The bytes the header arrived with, when the worker read it from a plugin or a consumed
  // record (schema and value are then BYTES of these bytes); such a header is written back as
  // these bytes. Headers a transform creates have none and go through the header converter.
  std::optional<std::string> raw;
};

struct ConnectRecord {
  std::string topic;
  std::optional<int32_t> kafka_partition;
  data::SchemaPtr key_schema;
  data::Value key;
  data::SchemaPtr value_schema;
  data::Value value;
  std::optional<int64_t> timestamp;
  std::vector<Header> headers;
  // Set for sink records (SinkRecord.kafkaOffset()); InsertField's offset.field needs it.
  std::optional<int64_t> kafka_offset;
};

}  // namespace connectd::transforms
