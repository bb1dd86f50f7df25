// The task's data plane: converters, transforms and error handling between a plugin's bytes
// and Kafka's (runtime/worker/record_pipeline.h).
#include "runtime/worker/record_pipeline.h"

#include <chrono>

#include "gtest/gtest.h"

namespace connectd::worker {
namespace {

using Config = std::map<std::string, std::string>;

std::unique_ptr<RecordPipeline> Pipeline(const Config& connector, const Config& worker = {}) {
  absl::StatusOr<std::unique_ptr<RecordPipeline>> p = RecordPipeline::Make(connector, worker);
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? *std::move(p) : nullptr;
}

KafkaRecord Record(std::string topic, std::optional<std::string> value) {
  KafkaRecord r;
  r.topic = std::move(topic);
  r.value = std::move(value);
  r.timestamp_ms = 1700000000000;
  return r;
}

TEST(RecordPipelineTest, ByteConvertersWithoutTransformsPassThrough) {
  EXPECT_TRUE(Pipeline({})->PassThrough());
  EXPECT_TRUE(Pipeline({{"value.converter", "org.apache.kafka.connect.storage.StringConverter"}},
                       {{"key.converter", "ByteArrayConverter"}})
                  ->PassThrough());
  EXPECT_FALSE(Pipeline({{"value.converter", "org.apache.kafka.connect.json.JsonConverter"}})
                   ->PassThrough());
  EXPECT_FALSE(Pipeline({{"transforms", "f"}, {"transforms.f.type", "Filter"}})->PassThrough());
}

TEST(RecordPipelineTest, WorkerConvertersApplyUnlessTheConnectorNamesItsOwn) {
  const Config worker = {{"value.converter", "org.apache.kafka.connect.json.JsonConverter"},
                         {"value.converter.schemas.enable", "false"}};
  PipelineOutcome out = Pipeline({}, worker)->FromSource(Record("t", "ab"));
  ASSERT_TRUE(out.record);
  EXPECT_EQ(*out.record->value, "\"YWI=\"");  // bytes, schemaless: Base64 text
  out = Pipeline({{"value.converter", "org.apache.kafka.connect.json.JsonConverter"}}, worker)
            ->FromSource(Record("t", "ab"));
  ASSERT_TRUE(out.record);
  // The connector's converter, with its own (default) schemas.enable=true.
  EXPECT_EQ(*out.record->value, R"({"schema":{"type":"bytes","optional":true},"payload":"YWI="})");
}

TEST(RecordPipelineTest, SourceRecordsAreTransformedThenConverted) {
  std::unique_ptr<RecordPipeline> p =
      Pipeline({{"transforms", "route,tag"},
                {"transforms.route.type", "org.apache.kafka.connect.transforms.RegexRouter"},
                {"transforms.route.regex", "(.*)-raw"},
                {"transforms.route.replacement", "$1-clean"},
                {"transforms.tag.type", "InsertHeader"},
                {"transforms.tag.header", "origin"},
                {"transforms.tag.value.literal", "connectd"}});
  KafkaRecord in = Record("orders-raw", "payload");
  in.headers.emplace_back("kept", std::string("\x01\x02", 2));
  PipelineOutcome out = p->FromSource(in);
  ASSERT_TRUE(out.record) << (out.error ? out.error->message : "filtered");
  EXPECT_EQ(out.record->topic, "orders-clean");
  EXPECT_EQ(*out.record->value, "payload");
  ASSERT_EQ(out.record->headers.size(), 2u);
  EXPECT_EQ(*out.record->headers[0].second, std::string("\x01\x02", 2));  // bytes unchanged
  EXPECT_EQ(out.record->headers[1].first, "origin");
  EXPECT_EQ(*out.record->headers[1].second, "connectd");  // SimpleHeaderConverter's text
  EXPECT_EQ(out.record->timestamp_ms, 1700000000000);
}

TEST(RecordPipelineTest, PredicatesDecideWhichRecordsAreDropped) {
  std::unique_ptr<RecordPipeline> p =
      Pipeline({{"transforms", "drop"},
                {"transforms.drop.type", "org.apache.kafka.connect.transforms.Filter"},
                {"transforms.drop.predicate", "tombstone"},
                {"predicates", "tombstone"},
                {"predicates.tombstone.type",
                 "org.apache.kafka.connect.transforms.predicates.RecordIsTombstone"}});
  EXPECT_TRUE(p->FromSource(Record("t", std::nullopt)).filtered());
  EXPECT_TRUE(p->FromSource(Record("t", "v")).record.has_value());
}

TEST(RecordPipelineTest, SinkRecordsAreConvertedTransformedAndHandedOverAsBytes) {
  std::unique_ptr<RecordPipeline> p =
      Pipeline({{"value.converter", "org.apache.kafka.connect.json.JsonConverter"},
                {"value.converter.schemas.enable", "false"},
                {"transforms", "name,offset"},
                {"transforms.offset.type", "InsertField$Value"},
                {"transforms.offset.offset.field", "at"},
                {"transforms.name.type", "ReplaceField$Value"},
                {"transforms.name.exclude", "secret"}});
  PipelineOutcome out = p->ToSink(Record("t", R"({"id":1,"secret":"x"})"), 42);
  ASSERT_TRUE(out.record) << (out.error ? out.error->message : "filtered");
  // HashMap order: "id" and "at" share a bucket, so they keep their insertion order.
  EXPECT_EQ(*out.record->value, R"({"id":1,"at":42})");
  // A string result reaches the plugin as its text.
  p = Pipeline({{"value.converter", "JsonConverter"},
                {"value.converter.schemas.enable", "false"},
                {"transforms", "x"},
                {"transforms.x.type", "ExtractField$Value"},
                {"transforms.x.field", "name"}});
  out = p->ToSink(Record("t", R"({"name":"ada"})"), 0);
  ASSERT_TRUE(out.record);
  EXPECT_EQ(*out.record->value, "ada");
}

TEST(RecordPipelineTest, FailuresNameTheirStageAndClass) {
  std::unique_ptr<RecordPipeline> p =
      Pipeline({{"value.converter", "org.apache.kafka.connect.json.JsonConverter"},
                {"transforms", "cast"},
                {"transforms.cast.type", "org.apache.kafka.connect.transforms.HoistField$Key"},
                {"transforms.cast.field", "k"},
                {"errors.tolerance", "all"}});
  EXPECT_TRUE(p->errors().tolerate_all);
  PipelineOutcome out = p->ToSink(Record("t", "{not json"), 7);
  ASSERT_TRUE(out.error);
  EXPECT_EQ(out.error->stage, Stage::kValueConverter);
  EXPECT_EQ(StageName(out.error->stage), "VALUE_CONVERTER");
  EXPECT_EQ(out.error->executing_class, "org.apache.kafka.connect.json.JsonConverter");
  EXPECT_EQ(out.error->exception_class, "org.apache.kafka.connect.errors.DataException");
  EXPECT_EQ(out.error->message,
            "Converting byte[] to Kafka Connect data failed due to serialization error: ");

  p = Pipeline({{"transforms", "x"},
                {"transforms.x.type", "org.apache.kafka.connect.transforms.ExtractField$Value"},
                {"transforms.x.field", "f"}});
  out = p->FromSource(Record("t", "raw bytes"));
  ASSERT_TRUE(out.error);
  EXPECT_EQ(out.error->stage, Stage::kTransformation);
  EXPECT_EQ(out.error->executing_class, "org.apache.kafka.connect.transforms.ExtractField$Value");
  // A plugin's bytes are Connect BYTES: ExtractField needs a struct.
  EXPECT_EQ(out.error->message, "Only Struct objects supported for [field extraction], found: [B");
}

// A plugin-like transformation that fails retriably (kUnavailable) `failures` times in a row.
class Flaky : public transforms::Transformation {
 public:
  explicit Flaky(int* failures, int* calls) : failures_(failures), calls_(calls) {}
  absl::Status Configure(const transforms::Configs&) override { return absl::OkStatus(); }
  absl::StatusOr<std::optional<transforms::ConnectRecord>> Apply(
      transforms::ConnectRecord record) override {
    ++*calls_;
    if (*failures_ > 0) {
      --*failures_;
      return absl::UnavailableError("not yet");
    }
    record.topic += "-ok";
    return std::optional<transforms::ConnectRecord>(std::move(record));
  }

 private:
  int* failures_;
  int* calls_;
};

class FlakyClasses : public transforms::StageClasses {
 public:
  absl::StatusOr<std::unique_ptr<transforms::Transformation>> MakeTransformation(
      std::string_view class_name) const override {
    if (class_name != "Flaky") return std::unique_ptr<transforms::Transformation>();
    return std::unique_ptr<transforms::Transformation>(new Flaky(&failures, &calls));
  }
  absl::StatusOr<std::unique_ptr<transforms::Predicate>> MakePredicate(
      std::string_view) const override {
    return std::unique_ptr<transforms::Predicate>();
  }
  mutable int failures = 0;
  mutable int calls = 0;
};

// errors.retry.timeout: Connect retries a retriable failure with backoff (300 ms, 600 ms, ...)
// until the timeout; 0 (the default) does not retry.
TEST(RecordPipelineTest, RetriableTransformFailuresAreRetriedWithinTheTimeout) {
  FlakyClasses classes;
  const Config chain{{"transforms", "f"}, {"transforms.f.type", "Flaky"}};
  auto no_retry = RecordPipeline::Make(chain, {}, &classes);
  ASSERT_TRUE(no_retry.ok()) << no_retry.status();
  classes.failures = 1;
  PipelineOutcome failed = (*no_retry)->FromSource(Record("t", "v"));
  ASSERT_TRUE(failed.error.has_value());
  EXPECT_EQ(failed.error->message, "not yet");
  EXPECT_EQ(classes.calls, 1);

  Config retrying = chain;
  retrying["errors.retry.timeout"] = "5000";
  auto pipeline = RecordPipeline::Make(retrying, {}, &classes);
  ASSERT_TRUE(pipeline.ok()) << pipeline.status();
  classes.failures = 2;
  classes.calls = 0;
  const auto start = std::chrono::steady_clock::now();
  PipelineOutcome ok = (*pipeline)->FromSource(Record("t", "v"));
  const auto waited = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(ok.error.has_value()) << ok.error->message;
  ASSERT_TRUE(ok.record.has_value());
  EXPECT_EQ(ok.record->topic, "t-ok");
  EXPECT_EQ(classes.calls, 3);
  EXPECT_GE(waited, std::chrono::milliseconds(900));  // 300 + 600 ms of backoff

  // A stopping task gives up at once.
  (*pipeline)->SetStopCheck([] { return true; });
  classes.failures = 100;
  classes.calls = 0;
  PipelineOutcome stopped = (*pipeline)->FromSource(Record("t", "v"));
  ASSERT_TRUE(stopped.error.has_value());
  EXPECT_EQ(classes.calls, 1);
}

// The timeout bounds the retries; the delay never passes errors.retry.delay.max.ms.
TEST(RecordPipelineTest, RetriesEndAtTheTimeout) {
  FlakyClasses classes;
  auto pipeline = RecordPipeline::Make({{"transforms", "f"},
                                        {"transforms.f.type", "Flaky"},
                                        {"errors.retry.timeout", "700"},
                                        {"errors.retry.delay.max.ms", "100"}},
                                       {}, &classes);
  ASSERT_TRUE(pipeline.ok()) << pipeline.status();
  classes.failures = 1000;
  const auto start = std::chrono::steady_clock::now();
  PipelineOutcome failed = (*pipeline)->FromSource(Record("t", "v"));
  const auto waited = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(failed.error.has_value());
  EXPECT_EQ(failed.error->stage, Stage::kTransformation);
  EXPECT_GE(waited, std::chrono::milliseconds(700));
  EXPECT_LT(waited, std::chrono::milliseconds(3000));
  EXPECT_GE(classes.calls, 3);  // each delay is below 100 ms
}

TEST(RecordPipelineTest, BadConfigsAreRejectedWithJavasMessages) {
  EXPECT_EQ(RecordPipeline::Make({{"transforms", "a"}}, {}).status().message(),
            "Missing required configuration \"transforms.a.type\" which has no default value.");
  EXPECT_FALSE(RecordPipeline::Make({{"value.converter", "io.confluent.AvroConverter"}}, {}).ok());
  EXPECT_EQ(RecordPipeline::Make({{"errors.tolerance", "some"}}, {}).status().message(),
            "Invalid value some for configuration errors.tolerance: String must be one of: none, "
            "all");
  absl::StatusOr<ErrorHandlingConfig> errors = ErrorHandlingConfig::FromConnectorConfig(
      {{"errors.tolerance", "ALL"},
       {"errors.deadletterqueue.topic.name", " dlq "},
       {"errors.deadletterqueue.topic.replication.factor", "1"},
       {"errors.deadletterqueue.context.headers.enable", "true"}});
  ASSERT_TRUE(errors.ok());
  EXPECT_TRUE(errors->tolerate_all);
  EXPECT_EQ(errors->dlq_topic, "dlq");
  EXPECT_EQ(errors->dlq_replication_factor, 1);
  EXPECT_TRUE(errors->dlq_context_headers);
}

}  // namespace
}  // namespace connectd::worker
