#include "runtime/worker/record_pipeline.h"

#include <algorithm>
#include <chrono>
#include <random>
#include <thread>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "runtime/common/status_macros.h"
#include "runtime/converters/converter_factory.h"

namespace connectd::worker {
namespace {

using data::Value;
using transforms::ConnectRecord;
using transforms::Header;

constexpr char kDataException[] = "org.apache.kafka.connect.errors.DataException";

std::string Get(const std::map<std::string, std::string>& config, const std::string& key,
                std::string fallback) {
  auto it = config.find(key);
  return it == config.end() ? fallback : it->second;
}

data::SchemaPtr BytesSchema() { return data::Schema::Optional(data::Type::kBytes); }

Value BytesValue(const std::optional<std::string>& bytes) {
  return bytes ? Value::OfBytes(*bytes) : Value();
}

absl::StatusOr<std::unique_ptr<converters::Converter>> MakeFor(
    const converters::ConverterSpec& spec, converters::ConverterType type, std::string* canonical) {
  *canonical = converters::CanonicalConverterClass(spec.class_name, type);
  return converters::MakeConverter(spec.class_name, spec.configs, type);
}

}  // namespace

absl::StatusOr<ErrorHandlingConfig> ErrorHandlingConfig::FromConnectorConfig(
    const std::map<std::string, std::string>& config) {
  ErrorHandlingConfig out;
  const std::string tolerance =
      absl::AsciiStrToLower(absl::StripAsciiWhitespace(Get(config, "errors.tolerance", "none")));
  if (tolerance != "none" && tolerance != "all") {
    return absl::InvalidArgumentError(
        absl::StrCat("Invalid value ", Get(config, "errors.tolerance", ""),
                     " for configuration errors.tolerance: String must be one of: none, all"));
  }
  out.tolerate_all = tolerance == "all";
  const auto boolean = [&](const std::string& key) {
    return absl::AsciiStrToLower(absl::StripAsciiWhitespace(Get(config, key, "false"))) == "true";
  };
  const auto number = [&](const std::string& key, int64_t fallback) {
    int64_t v = fallback;
    return absl::SimpleAtoi(Get(config, key, ""), &v) ? v : fallback;
  };
  out.retry_timeout_ms = number("errors.retry.timeout", 0);
  out.retry_delay_max_ms = number("errors.retry.delay.max.ms", 60000);
  out.log_enable = boolean("errors.log.enable");
  out.log_include_messages = boolean("errors.log.include.messages");
  out.dlq_topic =
      std::string(absl::StripAsciiWhitespace(Get(config, "errors.deadletterqueue.topic.name", "")));
  out.dlq_replication_factor =
      static_cast<int16_t>(number("errors.deadletterqueue.topic.replication.factor", 3));
  out.dlq_context_headers = boolean("errors.deadletterqueue.context.headers.enable");
  return out;
}

std::string_view StageName(Stage stage) {
  switch (stage) {
    case Stage::kKeyConverter:
      return "KEY_CONVERTER";
    case Stage::kValueConverter:
      return "VALUE_CONVERTER";
    case Stage::kHeaderConverter:
      return "HEADER_CONVERTER";
    case Stage::kTransformation:
      return "TRANSFORMATION";
  }
  return "";
}

absl::StatusOr<std::unique_ptr<RecordPipeline>> RecordPipeline::Make(
    const std::map<std::string, std::string>& connector_config,
    const std::map<std::string, std::string>& worker_config,
    const transforms::StageClasses* plugin_stages) {
  std::unique_ptr<RecordPipeline> p(new RecordPipeline());
  const converters::ConverterSpec key = converters::ResolveConverter(
      connector_config, worker_config, "key", converters::kByteArrayConverter);
  const converters::ConverterSpec value = converters::ResolveConverter(
      connector_config, worker_config, "value", converters::kByteArrayConverter);
  const converters::ConverterSpec header = converters::ResolveConverter(
      connector_config, worker_config, "header", converters::kSimpleHeaderConverter);
  CONNECTD_ASSIGN_OR_RETURN(
      p->converters_.key, MakeFor(key, converters::ConverterType::kKey, &p->converters_.key_class));
  CONNECTD_ASSIGN_OR_RETURN(p->converters_.value, MakeFor(value, converters::ConverterType::kValue,
                                                          &p->converters_.value_class));
  CONNECTD_ASSIGN_OR_RETURN(
      p->converters_.header,
      MakeFor(header, converters::ConverterType::kHeader, &p->converters_.header_class));
  CONNECTD_ASSIGN_OR_RETURN(p->chain_, transforms::TransformationChain::FromConnectorConfig(
                                           connector_config, plugin_stages));
  CONNECTD_ASSIGN_OR_RETURN(p->errors_, ErrorHandlingConfig::FromConnectorConfig(connector_config));
  if (p->errors_.retry_timeout_ms != 0) {
    p->retrier_ = std::make_unique<JavaBackoffRetrier>(p->errors_.retry_timeout_ms,
                                                       p->errors_.retry_delay_max_ms);
  }
  p->pass_through_ = p->chain_.empty() && converters::IsPassThrough(key.class_name) &&
                     converters::IsPassThrough(value.class_name);
  return p;
}

// Connect's RetryWithToleranceOperator.execAndRetry and backoff for one stage.
class RecordPipeline::JavaBackoffRetrier : public transforms::StageRetrier {
 public:
  JavaBackoffRetrier(int64_t timeout_ms, int64_t max_delay_ms)
      : timeout_ms_(timeout_ms), max_delay_ms_(max_delay_ms) {}
  void set_stopping(std::function<bool()> stopping) { stopping_ = std::move(stopping); }
  void set_metrics(TaskErrorMetrics* metrics) { metrics_ = metrics; }

  absl::Status Run(const std::function<absl::Status()>& attempt) override {
    using Clock = std::chrono::steady_clock;
    const Clock::time_point start = Clock::now();
    const Clock::time_point deadline =
        timeout_ms_ < 0 ? Clock::time_point::max() : start + std::chrono::milliseconds(timeout_ms_);
    for (int n = 1;; ++n) {
      absl::Status status = attempt();
      if (status.code() != absl::StatusCode::kUnavailable) return status;
      if (metrics_ != nullptr) metrics_->RecordFailure();
      if (Clock::now() >= deadline || (stopping_ && stopping_())) return status;
      if (metrics_ != nullptr) metrics_->RecordRetry();
      int64_t delay = kMinDelayMs << std::min(n - 1, 40);
      if (delay > max_delay_ms_) {
        delay = max_delay_ms_ > 0
                    ? std::uniform_int_distribution<int64_t>(0, max_delay_ms_ - 1)(random_)
                    : 0;
      }
      const Clock::time_point wake =
          std::min(deadline, Clock::now() + std::chrono::milliseconds(delay));
      // In short steps, so that a stopping task is not held for the whole delay.
      while (Clock::now() < wake && !(stopping_ && stopping_())) {
        std::this_thread::sleep_for(
            std::min<Clock::duration>(wake - Clock::now(), std::chrono::milliseconds(50)));
      }
    }
  }

 private:
  static constexpr int64_t kMinDelayMs = 300;  // RETRIES_DELAY_MIN_MS
  const int64_t timeout_ms_;
  const int64_t max_delay_ms_;
  std::function<bool()> stopping_;
  TaskErrorMetrics* metrics_ = nullptr;
  std::minstd_rand random_{std::random_device{}()};
};

RecordPipeline::~RecordPipeline() = default;

void RecordPipeline::SetErrorMetrics(TaskErrorMetrics* metrics) {
  error_metrics_ = metrics;
  if (retrier_) retrier_->set_metrics(metrics);
}

void RecordPipeline::SetStopCheck(std::function<bool()> stopping) {
  if (retrier_) retrier_->set_stopping(std::move(stopping));
}

absl::StatusOr<KafkaRecord> RecordPipeline::Write(const ConnectRecord& record, Stage* failed_stage,
                                                  std::string* failed_class) {
  KafkaRecord out;
  out.topic = record.topic;
  out.partition = record.kafka_partition;
  out.timestamp_ms = record.timestamp.value_or(-1);
  const auto fail = [&](Stage stage, const std::string& cls, const absl::Status& status) {
    *failed_stage = stage;
    *failed_class = cls;
    return status;
  };
  absl::StatusOr<std::optional<std::string>> key =
      converters_.key->FromConnectData(record.topic, record.key_schema, record.key);
  if (!key.ok()) return fail(Stage::kKeyConverter, converters_.key_class, key.status());
  out.key = std::move(*key);
  absl::StatusOr<std::optional<std::string>> value =
      converters_.value->FromConnectData(record.topic, record.value_schema, record.value);
  if (!value.ok()) return fail(Stage::kValueConverter, converters_.value_class, value.status());
  out.value = std::move(*value);
  for (const Header& h : record.headers) {
    if (h.raw) {
      out.headers.emplace_back(h.key, h.raw);
      continue;
    }
    absl::StatusOr<std::optional<std::string>> bytes =
        converters_.header->FromConnectData(record.topic, h.schema, h.value);
    if (!bytes.ok()) {
      return fail(Stage::kHeaderConverter, converters_.header_class, bytes.status());
    }
    out.headers.emplace_back(h.key, std::move(*bytes));
  }
  return out;
}

ProcessingError RecordPipeline::Failed(Stage stage, const std::string& executing_class,
                                       const absl::Status& status) {
  // A retrier counted each of its attempts already.
  const bool counted = retrier_ && status.code() == absl::StatusCode::kUnavailable;
  if (error_metrics_ != nullptr && !counted) error_metrics_->RecordFailure();
  return ProcessingError{stage, executing_class, kDataException, std::string(status.message())};
}

PipelineOutcome RecordPipeline::FromSource(KafkaRecord plugin_record, SourceData data) {
  ConnectRecord record;
  record.topic = std::move(plugin_record.topic);
  record.kafka_partition = plugin_record.partition;
  if (data.key) {
    record.key_schema = std::move(data.key->schema);
    record.key = std::move(data.key->value);
  } else {
    record.key_schema = BytesSchema();
    record.key = BytesValue(plugin_record.key);
  }
  if (data.value) {
    record.value_schema = std::move(data.value->schema);
    record.value = std::move(data.value->value);
  } else {
    record.value_schema = BytesSchema();
    record.value = BytesValue(plugin_record.value);
  }
  if (plugin_record.timestamp_ms >= 0) record.timestamp = plugin_record.timestamp_ms;
  for (auto& [k, v] : plugin_record.headers) {
    record.headers.push_back(Header{k, BytesSchema(), BytesValue(v), v});
  }
  PipelineOutcome outcome;
  std::string failed_class;
  absl::StatusOr<std::optional<ConnectRecord>> transformed =
      chain_.Apply(std::move(record), &failed_class, retrier_.get());
  if (!transformed.ok()) {
    outcome.error = Failed(Stage::kTransformation, failed_class, transformed.status());
    return outcome;
  }
  if (!*transformed) return outcome;
  Stage stage = Stage::kValueConverter;
  absl::StatusOr<KafkaRecord> written = Write(**transformed, &stage, &failed_class);
  if (!written.ok()) {
    outcome.error = Failed(stage, failed_class, written.status());
    return outcome;
  }
  outcome.record = std::move(*written);
  return outcome;
}

PipelineOutcome RecordPipeline::ToSink(KafkaRecord consumed, int64_t offset) {
  PipelineOutcome outcome;
  const auto fail = [&](Stage stage, const std::string& cls, const absl::Status& status) {
    outcome.error = Failed(stage, cls, status);
    return outcome;
  };
  ConnectRecord record;
  record.topic = consumed.topic;
  record.kafka_partition = consumed.partition;
  record.kafka_offset = offset;
  if (consumed.timestamp_ms >= 0) record.timestamp = consumed.timestamp_ms;
  absl::StatusOr<converters::SchemaAndValue> key = converters_.key->ToConnectData(
      consumed.topic, consumed.key ? std::optional<std::string_view>(*consumed.key) : std::nullopt);
  if (!key.ok()) return fail(Stage::kKeyConverter, converters_.key_class, key.status());
  absl::StatusOr<converters::SchemaAndValue> value = converters_.value->ToConnectData(
      consumed.topic,
      consumed.value ? std::optional<std::string_view>(*consumed.value) : std::nullopt);
  if (!value.ok()) return fail(Stage::kValueConverter, converters_.value_class, value.status());
  record.key_schema = key->schema;
  record.key = std::move(key->value);
  record.value_schema = value->schema;
  record.value = std::move(value->value);
  for (auto& [k, v] : consumed.headers) {
    record.headers.push_back(Header{k, BytesSchema(), BytesValue(v), v});
  }
  std::string failed_class;
  absl::StatusOr<std::optional<ConnectRecord>> transformed =
      chain_.Apply(std::move(record), &failed_class, retrier_.get());
  if (!transformed.ok()) {
    return fail(Stage::kTransformation, failed_class, transformed.status());
  }
  if (!*transformed) return outcome;
  // The plugin gets bytes: a bytes or string value as it is, anything else as its converter
  // writes it.
  ConnectRecord& r = **transformed;
  KafkaRecord out;
  out.topic = r.topic;
  out.partition = r.kafka_partition;
  out.timestamp_ms = r.timestamp.value_or(-1);
  const auto plugin_bytes = [&](converters::Converter& converter, const data::SchemaPtr& schema,
                                const Value& v) -> absl::StatusOr<std::optional<std::string>> {
    if (v.is_null()) return std::optional<std::string>();
    if (v.kind() == Value::Kind::kBytes) return std::optional<std::string>(v.bytes());
    if (v.kind() == Value::Kind::kString) return std::optional<std::string>(v.string());
    return converter.FromConnectData(r.topic, schema, v);
  };
  absl::StatusOr<std::optional<std::string>> key_bytes =
      plugin_bytes(*converters_.key, r.key_schema, r.key);
  if (!key_bytes.ok()) return fail(Stage::kKeyConverter, converters_.key_class, key_bytes.status());
  absl::StatusOr<std::optional<std::string>> value_bytes =
      plugin_bytes(*converters_.value, r.value_schema, r.value);
  if (!value_bytes.ok()) {
    return fail(Stage::kValueConverter, converters_.value_class, value_bytes.status());
  }
  out.key = std::move(*key_bytes);
  out.value = std::move(*value_bytes);
  for (const Header& h : r.headers) {
    if (h.raw) {
      out.headers.emplace_back(h.key, h.raw);
      continue;
    }
    absl::StatusOr<std::optional<std::string>> bytes =
        converters_.header->FromConnectData(r.topic, h.schema, h.value);
    if (!bytes.ok()) {
      return fail(Stage::kHeaderConverter, converters_.header_class, bytes.status());
    }
    out.headers.emplace_back(h.key, std::move(*bytes));
  }
  outcome.record = std::move(out);
  outcome.data = std::move(r);
  return outcome;
}

}  // namespace connectd::worker
