// The task's data plane: converters, transforms and error handling between a plugin's bytes
// and Kafka's (runtime/worker/record_pipeline.h).
#include "runtime/worker/record_pipeline.h"

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
