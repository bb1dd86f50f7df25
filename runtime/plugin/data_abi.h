// File: data_abi.h
//
// Connect data across the plugin ABI (1.5): the worker's data model (runtime/data) to and from
// the C views of abi.h (connectd_schema, connectd_value, connectd_connect_record).
//
//   DataReader  reads what a plugin hands over (valid only during the call) into owned data,
//               refusing malformed views with kInvalidArgument instead of crashing: unknown
//               types or kinds, NULL data with a size, a STRUCT without a STRUCT schema or with
//               another number of values than fields, nesting deeper than kMaxDataDepth.
//   DataWriter  lays owned data out as C views for a plugin; the writer owns everything the
//               views point at and must outlive their use. Bytes and strings are not copied:
//               the views point into the data written, which must outlive them too.
//
// Thread safety: an instance belongs to one call on one thread.
#pragma once

#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "connectd/plugin/abi.h"
#include "runtime/data/schema.h"
#include "runtime/data/value.h"
#include "runtime/transforms/connect_record.h"

namespace connectd::plugin {

inline constexpr int kMaxDataDepth = 64;

class DataReader {
 public:
  absl::StatusOr<data::SchemaPtr> ReadSchema(const connectd_schema* schema, int depth = 0);
  absl::StatusOr<data::Value> ReadValue(const connectd_value& value, int depth = 0);
  absl::StatusOr<transforms::ConnectRecord> ReadRecord(const connectd_connect_record& record);

 private:
  std::map<const connectd_schema*, data::SchemaPtr> schemas_;
};

class DataWriter {
 public:
  DataWriter() = default;
  DataWriter(const DataWriter&) = delete;
  DataWriter& operator=(const DataWriter&) = delete;

  // The ABI view of `schema`, valid as long as this writer (which keeps `schema` alive).
  const connectd_schema* WriteSchema(const data::SchemaPtr& schema);
  connectd_value WriteValue(const data::Value& value);
  // `out` views `record` and this writer.
  void WriteRecord(const transforms::ConnectRecord& record, connectd_connect_record* out);

 private:
  std::deque<connectd_schema> schema_store_;
  std::deque<std::vector<connectd_kv>> kv_store_;
  std::deque<std::vector<connectd_field>> field_store_;
  std::deque<std::vector<connectd_value>> value_store_;
  std::deque<connectd_value> single_store_;
  std::vector<connectd_connect_header> headers_;
  // Written schemas by address. Each is kept alive here: the views point into it, and a schema
  // freed while cached could leave its address to another one.
  std::map<const data::Schema*, const connectd_schema*> schemas_;
  std::vector<data::SchemaPtr> written_schemas_;
};

// The views of a record that is already bytes (Schema.OPTIONAL_BYTES data over the same memory,
// no copy): the ABI's sink-record data for the pass-through path.
const connectd_schema* OptionalBytesSchema();
connectd_value BytesView(connectd_bytes bytes);

}  // namespace connectd::plugin
