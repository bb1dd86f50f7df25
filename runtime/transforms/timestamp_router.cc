// TimestampRouter: rename a record's topic after its timestamp, as Kafka 4.4's
// org.apache.kafka.connect.transforms.TimestampRouter. `topic.format` (default
// "${topic}-${timestamp}") has ${topic} replaced by the topic, then ${timestamp} by the record's
// timestamp formatted with `timestamp.format` (SimpleDateFormat, UTC; default "yyyyMMdd").
//
// As in Java, a bad timestamp.format is reported when a record is transformed (Java builds the
// format lazily), after the check for a missing timestamp.
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "runtime/common/status_macros.h"
#include "runtime/data/simple_date_format.h"
#include "runtime/transforms/builtin.h"

namespace connectd::transforms::builtin {

using data::SimpleDateFormat;

namespace {

// ConnectHeaders.toString().
std::string HeadersToString(const std::vector<Header>& headers) {
  std::string out = "ConnectHeaders(headers=";
  if (!headers.empty()) {
    out += '[';
    for (size_t i = 0; i < headers.size(); ++i) {
      if (i) out += ", ";
      absl::StrAppend(&out, "ConnectHeader(key=", headers[i].key,
                      ", value=", data::JavaToString(headers[i].value),
                      ", schema=", data::ToString(headers[i].schema.get()), ")");
    }
    out += ']';
  }
  return out + ")";
}

// SourceRecord.toString() / SinkRecord.toString() of a record without a timestamp. A source
// record's partition and offset, and a sink record's original topic, partition and offset, are
// not kept in ConnectRecord: they print as null and as the current ones.
std::string RecordToString(const ConnectRecord& r) {
  const std::string partition = r.kafka_partition ? std::to_string(*r.kafka_partition) : "null";
  std::string out;
  if (r.kafka_offset) {
    absl::StrAppend(&out, "SinkRecord{kafkaOffset=", *r.kafka_offset,
                    ", timestampType=NoTimestampType, originalTopic=", r.topic,
                    ", originalKafkaPartition=", partition,
                    ", originalKafkaOffset=", *r.kafka_offset, "} ");
  } else {
    out = "SourceRecord{sourcePartition=null, sourceOffset=null} ";
  }
  absl::StrAppend(&out, "ConnectRecord{topic='", r.topic, "', kafkaPartition=", partition,
                  ", key=", data::JavaToString(r.key),
                  ", keySchema=", data::ToString(r.key_schema.get()),
                  ", value=", data::JavaToString(r.value),
                  ", valueSchema=", data::ToString(r.value_schema.get()),
                  ", timestamp=", r.timestamp ? std::to_string(*r.timestamp) : "null",
                  ", headers=", HeadersToString(r.headers), "}");
  return out;
}

class TimestampRouter final : public Transformation {
 public:
  absl::Status Configure(const Configs& configs) override {
    config::ConfigDef def;
    def.Define(config::ConfigKey{
        .name = "topic.format",
        .type = config::Type::kString,
        .default_value = "${topic}-${timestamp}",
        .importance = config::Importance::kHigh,
        .documentation = "Format string which can contain <code>${topic}</code> and "
                         "<code>${timestamp}</code> as placeholders for the topic and timestamp, "
                         "respectively."});
    def.Define(config::ConfigKey{.name = "timestamp.format",
                                 .type = config::Type::kString,
                                 .default_value = "yyyyMMdd",
                                 .importance = config::Importance::kHigh,
                                 .documentation =
                                     "Format string for the timestamp that is compatible with "
                                     "<code>java.text.SimpleDateFormat</code>."});
    CONNECTD_ASSIGN_OR_RETURN(config::ParsedConfig config, ParseTransformConfig(def, configs));
    topic_format_ = config.GetString("topic.format").value_or("");
    timestamp_format_ =
        SimpleDateFormat::Compile(config.GetString("timestamp.format").value_or(""));
    return absl::OkStatus();
  }

  absl::StatusOr<std::optional<ConnectRecord>> Apply(ConnectRecord record) override {
    if (!record.timestamp) {
      return absl::InvalidArgumentError(
          absl::StrCat("Timestamp missing on record: ", RecordToString(record)));
    }
    if (!timestamp_format_.ok()) return timestamp_format_.status();
    const std::string formatted = timestamp_format_->Format(*record.timestamp);
    const std::string with_topic = absl::StrReplaceAll(topic_format_, {{"${topic}", record.topic}});
    record.topic = absl::StrReplaceAll(with_topic, {{"${timestamp}", formatted}});
    return record;
  }

 private:
  std::string topic_format_;
  absl::StatusOr<SimpleDateFormat> timestamp_format_ =
      absl::FailedPreconditionError("not configured");
};

}  // namespace

std::unique_ptr<Transformation> MakeTimestampRouter() {
  return std::make_unique<TimestampRouter>();
}

}  // namespace connectd::transforms::builtin
