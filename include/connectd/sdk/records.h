// File: connectd/sdk/records.h
//
// Records as plugin code sees them:
//   - SourceRecord: an owning record a source task builds and adds to a SourceBatch (copied).
//   - SourceBatch::addZeroCopy: hands payload memory to the host with a release callback.
//   - SourceRecordView / SinkRecordView: non-owning views of records the host passes in.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "connectd/plugin/abi.h"
#include "connectd/sdk/data.h"
#include "connectd/sdk/errors.h"
#include "connectd/sdk/host.h"

namespace connectd::sdk {

inline connectd_bytes ToBytes(const std::optional<std::string>& b) {
  return b ? connectd_bytes{b->data(), b->size()} : connectd_bytes{nullptr, 0};
}
inline std::optional<std::string_view> FromBytes(connectd_bytes b) {
  if (b.data == nullptr) return std::nullopt;
  return std::string_view(static_cast<const char*>(b.data), b.size);
}

// An owning source record (Connect's SourceRecord with byte key and value). `key` or `value`
// empty-optional is Kafka's null.
struct SourceRecord {
  std::string source_partition;  // JSON object, e.g. {"filename":"/tmp/in.txt"}
  std::string source_offset;     // JSON object, e.g. {"position":42}
  std::string topic;
  int32_t partition = CONNECTD_ANY_PARTITION;
  std::optional<std::string> key;
  std::optional<std::string> value;
  int64_t timestamp_ms = CONNECTD_NO_TIMESTAMP;
  std::vector<std::pair<std::string, std::optional<std::string>>> headers;
  // Since ABI 1.5: the key or value as Connect data (SourceRecord's keySchema/key,
  // valueSchema/value); when set, `key` or `value` above is ignored and the connector's
  // converter writes the data, as Java's worker does.
  std::optional<SchemaAndValue> key_data;
  std::optional<SchemaAndValue> value_data;
};

// A view of a source record the host hands back (commitRecord).
class SourceRecordView {
 public:
  explicit SourceRecordView(const connectd_source_record& r) : r_(r) {}
  std::string_view sourcePartition() const { return FromStr(r_.source_partition); }
  std::string_view sourceOffset() const { return FromStr(r_.source_offset); }
  std::string_view topic() const { return FromStr(r_.topic); }
  int32_t partition() const { return r_.partition; }
  std::optional<std::string_view> key() const { return FromBytes(r_.key); }
  std::optional<std::string_view> value() const { return FromBytes(r_.value); }
  int64_t timestampMs() const { return r_.timestamp_ms; }
  size_t headerCount() const { return r_.header_count; }
  std::string_view headerKey(size_t i) const { return FromStr(r_.headers[i].key); }
  std::optional<std::string_view> headerValue(size_t i) const {
    return FromBytes(r_.headers[i].value);
  }
  const connectd_source_record& raw() const { return r_; }

 private:
  const connectd_source_record& r_;
};

// Where the broker put an acknowledged source record.
struct RecordMetadata {
  std::string_view topic;
  int32_t partition;
  int64_t offset;
  int64_t timestamp_ms;
};

// The output of SourceTask::poll.
class SourceBatch {
 public:
  SourceBatch(connectd_source_batch_host_ptr* batch, int32_t timeout_ms)
      : batch_(batch), timeout_ms_(timeout_ms) {}

  // How long poll may take before returning (it may return earlier, with or without records).
  int32_t timeoutMs() const { return timeout_ms_; }

  // Appends a copy of `record`.
  void add(const SourceRecord& record) {
    header_scratch_.clear();
    for (const auto& [k, v] : record.headers) header_scratch_.push_back({ToStr(k), ToBytes(v)});
    connectd_source_record r = MakeAbi(record.source_partition, record.source_offset,
                                       record.topic, record.partition, ToBytes(record.key),
                                       ToBytes(record.value), record.timestamp_ms);
    r.headers = header_scratch_.data();
    r.header_count = header_scratch_.size();
#if CONNECTD_PLUGIN_ABI_TARGET_MINOR >= 5
    AbiWriter writer;
    connectd_value key_data{}, value_data{};
    if (record.key_data) {
      key_data = writer.value(record.key_data->value);
      r.key_schema = writer.schema(record.key_data->schema);
      r.key_data = &key_data;
    }
    if (record.value_data) {
      value_data = writer.value(record.value_data->value);
      r.value_schema = writer.schema(record.value_data->schema);
      r.value_data = &value_data;
    }
#endif
    Append(r);
  }

  // Appends a record whose views stay valid until the host calls release(opaque), once, after
  // the record is acknowledged or dropped. Nothing is copied.
  void addZeroCopy(connectd_source_record record, void (*release)(void*), void* opaque) {
    record.struct_size = sizeof(connectd_source_record);
    record.release = release;
    record.release_opaque = opaque;
    Append(record);
  }

  size_t size() const { return count_; }

  static connectd_source_record MakeAbi(std::string_view source_partition,
                                        std::string_view source_offset, std::string_view topic,
                                        int32_t partition, connectd_bytes key,
                                        connectd_bytes value, int64_t timestamp_ms) {
    connectd_source_record r{};
    r.struct_size = sizeof(connectd_source_record);
    r.source_partition = ToStr(source_partition);
    r.source_offset = ToStr(source_offset);
    r.topic = ToStr(topic);
    r.partition = partition;
    r.key = key;
    r.value = value;
    r.timestamp_ms = timestamp_ms;
    return r;
  }

 private:
  void Append(const connectd_source_record& r) {
    connectd_status status = Host().source_batch_append(batch_, &r);
    if (status != CONNECTD_STATUS_OK) {
      throw ConnectException("the worker refused a source record for topic " +
                                 std::string(FromStr(r.topic)),
                             status);
    }
    ++count_;
  }

  connectd_source_batch_host_ptr* batch_;
  int32_t timeout_ms_;
  size_t count_ = 0;
  std::vector<connectd_header> header_scratch_;
};

// A view of a consumed record passed to SinkTask::put; valid during put only.
class SinkRecordView {
 public:
  explicit SinkRecordView(const connectd_sink_record& r) : r_(&r) {}
  std::string_view topic() const { return FromStr(r_->topic); }
  int32_t kafkaPartition() const { return r_->partition; }
  int64_t kafkaOffset() const { return r_->offset; }
  std::optional<std::string_view> key() const { return FromBytes(r_->key); }
  std::optional<std::string_view> value() const { return FromBytes(r_->value); }
  int64_t timestampMs() const { return r_->timestamp_ms; }
  int32_t timestampType() const { return r_->timestamp_type; }
  size_t headerCount() const { return r_->header_count; }
  std::string_view headerKey(size_t i) const { return FromStr(r_->headers[i].key); }
  std::optional<std::string_view> headerValue(size_t i) const {
    return FromBytes(r_->headers[i].value);
  }
#if CONNECTD_PLUGIN_ABI_TARGET_MINOR >= 5
  // Since ABI 1.5: the key and value as Connect data (SinkRecord.keySchema()/key(), ...), a
  // copy; nullopt from an older worker. The raw views are in raw().
  std::optional<SchemaAndValue> keyData() const {
    return Data(r_->key_schema, r_->key_data, offsetof(connectd_sink_record, key_data));
  }
  std::optional<SchemaAndValue> valueData() const {
    return Data(r_->value_schema, r_->value_data, offsetof(connectd_sink_record, value_data));
  }
#endif
  const connectd_sink_record& raw() const { return *r_; }

 private:
#if CONNECTD_PLUGIN_ABI_TARGET_MINOR >= 5
  std::optional<SchemaAndValue> Data(const connectd_schema* schema, const connectd_value* value,
                                     size_t field_offset) const {
    if (r_->struct_size < field_offset + sizeof(void*) || value == nullptr) return std::nullopt;
    AbiReader reader;
    return SchemaAndValue{reader.schema(schema), reader.value(*value)};
  }
#endif
  const connectd_sink_record* r_;
};

// The records of one SinkTask::put call, iterable as SinkRecordView.
class SinkRecords {
 public:
  SinkRecords(const connectd_sink_record* records, size_t count)
      : records_(records), count_(count) {}
  size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  SinkRecordView operator[](size_t i) const { return SinkRecordView(records_[i]); }

  class Iterator {
   public:
    explicit Iterator(const connectd_sink_record* p) : p_(p) {}
    SinkRecordView operator*() const { return SinkRecordView(*p_); }
    Iterator& operator++() {
      ++p_;
      return *this;
    }
    bool operator!=(const Iterator& other) const { return p_ != other.p_; }

   private:
    const connectd_sink_record* p_;
  };
  Iterator begin() const { return Iterator(records_); }
  Iterator end() const { return Iterator(records_ + count_); }

 private:
  const connectd_sink_record* records_;
  size_t count_;
};

struct TopicPartition {
  std::string topic;
  int32_t partition = 0;
  bool operator<(const TopicPartition& o) const {
    return topic < o.topic || (topic == o.topic && partition < o.partition);
  }
  bool operator==(const TopicPartition& o) const {
    return topic == o.topic && partition == o.partition;
  }
};

}  // namespace connectd::sdk
