// Connect data across the plugin ABI (1.5): the host's DataWriter/DataReader round trip and its
// refusal of malformed views, transformations and predicates from a plugin in a connector's
// chain, source records carrying data, sink records receiving it, and a 1.4 sink plugin that
// gets records at its own (shorter) stride.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "runtime/data/decimal.h"
#include "runtime/plugin/data_abi.h"
#include "runtime/plugin/plugin_instances.h"
#include "runtime/plugin/plugin_stages.h"
#include "runtime/transforms/transformation_chain.h"

namespace connectd::plugin {
namespace {

using ::testing::HasSubstr;
using transforms::ConnectRecord;

data::SchemaPtr PersonSchema() {
  data::Schema s = data::Schema::Of(data::Type::kStruct);
  s.name = "org.connectd.test.Person";
  s.version = 3;
  s.doc = "a person";
  s.AddField("id", data::Schema::Required(data::Type::kInt32));
  s.AddField("name", data::Schema::Optional(data::Type::kString));
  data::Schema tags = data::Schema::Of(data::Type::kArray);
  tags.value_schema = data::Schema::Required(data::Type::kString);
  s.AddField("tags", data::Freeze(tags));
  data::Schema scores = data::Schema::Of(data::Type::kMap);
  scores.key_schema = data::Schema::Required(data::Type::kString);
  scores.value_schema = data::Schema::Required(data::Type::kFloat64);
  s.AddField("scores", data::Freeze(scores));
  s.AddField("balance", data::Freeze(data::DecimalSchema(2)));
  s.AddField("born", data::Freeze(data::DateSchema()));
  s.AddField("photo", data::Schema::Optional(data::Type::kBytes));
  data::Schema flag = data::Schema::Of(data::Type::kBoolean);
  flag.default_value = std::make_shared<const data::Value>(data::Value::Boolean(true));
  flag.SetParameter("origin", "test");
  s.AddField("active", data::Freeze(flag));
  return data::Freeze(s);
}

data::Value Person() {
  data::Struct person(PersonSchema());
  EXPECT_TRUE(person.Put("id", data::Value::Int32(7)).ok());
  EXPECT_TRUE(person.Put("name", data::Value::String("Ada")).ok());
  EXPECT_TRUE(
      person.Put("tags", data::Value::OfArray({data::Value::String("a"), data::Value::String("b")}))
          .ok());
  EXPECT_TRUE(person
                  .Put("scores",
                       data::Value::OfMap({{data::Value::String("x"), data::Value::Float64(1.5)}}))
                  .ok());
  EXPECT_TRUE(person.Put("balance", data::Value::OfDecimal(*data::ParseJavaDecimal("12.34"))).ok());
  EXPECT_TRUE(person.Put("born", data::Value::OfDate(86400000)).ok());
  EXPECT_TRUE(person.Put("photo", data::Value::OfBytes(std::string("\0\xff", 2))).ok());
  return data::StructValue(std::move(person));
}

TEST(DataAbiTest, EveryTypeRoundTrips) {
  ConnectRecord record;
  record.topic = "people";
  record.kafka_partition = 2;
  record.key_schema = data::Schema::Optional(data::Type::kInt64);
  record.key = data::Value::Int64(-5);
  record.value_schema = PersonSchema();
  record.value = Person();
  record.timestamp = 1700000000000;
  record.headers.push_back(
      {"h", data::Schema::Optional(data::Type::kInt8), data::Value::Int8(-1), std::nullopt});
  record.kafka_offset = 99;

  DataWriter writer;
  connectd_connect_record view;
  writer.WriteRecord(record, &view);
  DataReader reader;
  absl::StatusOr<ConnectRecord> back = reader.ReadRecord(view);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->topic, "people");
  EXPECT_EQ(back->kafka_partition, 2);
  EXPECT_TRUE(data::SchemaEquals(back->key_schema, record.key_schema));
  EXPECT_EQ(back->key, record.key);
  EXPECT_TRUE(data::SchemaEquals(back->value_schema, record.value_schema));
  EXPECT_EQ(back->value, record.value);
  EXPECT_EQ(back->timestamp, record.timestamp);
  ASSERT_EQ(back->headers.size(), 1u);
  EXPECT_EQ(back->headers[0].key, "h");
  EXPECT_EQ(back->headers[0].value, data::Value::Int8(-1));
  EXPECT_EQ(back->kafka_offset, 99);
  // Schema metadata survives too (SchemaEquals compares it, but say it plainly).
  EXPECT_EQ(back->value_schema->name, "org.connectd.test.Person");
  EXPECT_EQ(back->value_schema->version, 3);
  EXPECT_EQ(back->value_schema->fields.back().schema->Parameter("origin"), "test");
}

TEST(DataAbiTest, NullsAndAbsentPartsStayAbsent) {
  ConnectRecord record;
  record.topic = "t";
  DataWriter writer;
  connectd_connect_record view;
  writer.WriteRecord(record, &view);
  EXPECT_EQ(view.partition, CONNECTD_ANY_PARTITION);
  EXPECT_EQ(view.timestamp_ms, CONNECTD_NO_TIMESTAMP);
  DataReader reader;
  absl::StatusOr<ConnectRecord> back = reader.ReadRecord(view);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->key_schema, nullptr);
  EXPECT_TRUE(back->value.is_null());
  EXPECT_FALSE(back->kafka_partition.has_value());
  EXPECT_FALSE(back->timestamp.has_value());
  EXPECT_FALSE(back->kafka_offset.has_value());
}

TEST(DataAbiTest, BytesViewsTheRecordWithoutCopying) {
  static const char kPayload[] = "payload";
  connectd_value v = BytesView(connectd_bytes{kPayload, 7});
  EXPECT_EQ(v.kind, CONNECTD_VALUE_BYTES);
  EXPECT_EQ(v.bytes.data, kPayload);
  EXPECT_EQ(OptionalBytesSchema()->type, CONNECTD_TYPE_BYTES);
  EXPECT_NE(OptionalBytesSchema()->optional, 0);
}

// A plugin's malformed views are refused with kInvalidArgument, never followed.
TEST(DataAbiTest, MalformedViewsAreRefused) {
  DataReader reader;
  connectd_value bad_kind{};
  bad_kind.kind = 99;
  EXPECT_EQ(reader.ReadValue(bad_kind).status().code(), absl::StatusCode::kInvalidArgument);

  connectd_schema bad_type{};
  bad_type.struct_size = sizeof(connectd_schema);
  bad_type.type = 42;
  EXPECT_EQ(reader.ReadSchema(&bad_type).status().code(), absl::StatusCode::kInvalidArgument);

  connectd_value null_string{};
  null_string.kind = CONNECTD_VALUE_STRING;
  null_string.str = connectd_str{nullptr, 5};
  absl::Status s = reader.ReadValue(null_string).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);

  // A STRUCT with fewer values than its schema's fields.
  DataWriter writer;
  const connectd_schema* person = writer.WriteSchema(PersonSchema());
  connectd_value one{};
  one.kind = CONNECTD_VALUE_INT32;
  one.i = 1;
  connectd_value short_struct{};
  short_struct.kind = CONNECTD_VALUE_STRUCT;
  short_struct.struct_schema = person;
  short_struct.items = &one;
  short_struct.count = 1;
  s = reader.ReadValue(short_struct).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);

  // A STRUCT without a schema.
  short_struct.struct_schema = nullptr;
  EXPECT_EQ(reader.ReadValue(short_struct).status().code(), absl::StatusCode::kInvalidArgument);

  // Arrays nested deeper than kMaxDataDepth.
  std::vector<connectd_value> chain(kMaxDataDepth + 2);
  for (size_t i = 0; i + 1 < chain.size(); ++i) {
    chain[i].kind = CONNECTD_VALUE_ARRAY;
    chain[i].items = &chain[i + 1];
    chain[i].count = 1;
  }
  chain.back().kind = CONNECTD_VALUE_NULL;
  s = reader.ReadValue(chain[0]).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("deep"));
}

// ---- Plugins ---------------------------------------------------------------------------------

class PluginDataTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    registry_ = new PluginRegistry();
    registry_->LoadPluginPath(std::string(CONNECTD_TEST_PLUGIN_DIR) + "/good");
  }
  static PluginRegistry* registry_;
};
PluginRegistry* PluginDataTest::registry_ = nullptr;

ConnectRecord StringRecord(std::string value) {
  ConnectRecord record;
  record.topic = "t";
  record.value_schema = data::Schema::Optional(data::Type::kString);
  record.value = data::Value::String(std::move(value));
  return record;
}

TEST_F(PluginDataTest, StagesAreRegisteredUnderTheirClassNameAndSimpleName) {
  const StagePlugin* up =
      registry_->FindStage(StageKind::kTransformation, "org.connectd.test.transforms.Uppercase");
  ASSERT_NE(up, nullptr);
  EXPECT_EQ(registry_->FindStage(StageKind::kTransformation, "Uppercase"), up);
  EXPECT_EQ(up->version, "1.0.0");
  EXPECT_NE(registry_->FindStage(StageKind::kPredicate, "ValueHasPrefix"), nullptr);
  // A transformation is not a predicate.
  EXPECT_EQ(registry_->FindStage(StageKind::kPredicate, "Uppercase"), nullptr);
}

TEST_F(PluginDataTest, PluginTransformAndPredicateRunInTheChain) {
  const PluginStages stages(*registry_);
  auto chain = transforms::TransformationChain::FromConnectorConfig(
      {{"transforms", "up,route"},
       {"transforms.up.type", "Uppercase"},  // the plugin's, by simple name
       {"transforms.up.predicate", "shout"},
       {"transforms.up.drop.value", "drop me"},
       {"transforms.route.type", "org.apache.kafka.connect.transforms.RegexRouter"},
       {"transforms.route.regex", "t"},
       {"transforms.route.replacement", "routed"},
       {"predicates", "shout"},
       {"predicates.shout.type", "org.connectd.test.predicates.ValueHasPrefix"},
       {"predicates.shout.prefix", "hey"}},
      &stages);
  ASSERT_TRUE(chain.ok()) << chain.status();

  auto shouted = chain->Apply(StringRecord("hey you"));
  ASSERT_TRUE(shouted.ok()) << shouted.status();
  ASSERT_TRUE(shouted->has_value());
  EXPECT_EQ((*shouted)->value.string(), "HEY YOU");
  EXPECT_EQ((*shouted)->topic, "routed");  // the built-in after the plugin

  auto quiet = chain->Apply(StringRecord("hello"));
  ASSERT_TRUE(quiet.ok());
  EXPECT_EQ((*quiet)->value.string(), "hello");  // predicate false: not applied
}

TEST_F(PluginDataTest, PluginTransformDropsAndFailsRecords) {
  const PluginStages stages(*registry_);
  auto chain = transforms::TransformationChain::FromConnectorConfig(
      {{"transforms", "up"},
       {"transforms.up.type", "org.connectd.test.transforms.Uppercase"},
       {"transforms.up.drop.value", "drop me"}},
      &stages);
  ASSERT_TRUE(chain.ok()) << chain.status();
  auto dropped = chain->Apply(StringRecord("drop me"));
  ASSERT_TRUE(dropped.ok());
  EXPECT_FALSE(dropped->has_value());

  ConnectRecord number;
  number.topic = "t";
  number.value_schema = data::Schema::Required(data::Type::kInt32);
  number.value = data::Value::Int32(3);
  std::string failed_class;
  auto failed = chain->Apply(number, &failed_class);
  ASSERT_FALSE(failed.ok());
  EXPECT_THAT(std::string(failed.status().message()), HasSubstr("Uppercase needs a STRING value"));
  EXPECT_EQ(failed_class, "org.connectd.test.transforms.Uppercase");
}

TEST_F(PluginDataTest, PluginTransformRewritesAStructField) {
  const PluginStages stages(*registry_);
  auto chain = transforms::TransformationChain::FromConnectorConfig(
      {{"transforms", "up"}, {"transforms.up.type", "Uppercase"}, {"transforms.up.field", "name"}},
      &stages);
  ASSERT_TRUE(chain.ok()) << chain.status();
  ConnectRecord record;
  record.topic = "people";
  record.value_schema = PersonSchema();
  record.value = Person();
  auto out = chain->Apply(record);
  ASSERT_TRUE(out.ok()) << out.status();
  const data::Struct& person = *(*out)->value.structure();
  EXPECT_EQ(person.Get("name")->string(), "ADA");
  EXPECT_EQ(*person.Get("balance"), *record.value.structure()->Get("balance"));
  EXPECT_TRUE(data::SchemaEquals((*out)->value_schema, record.value_schema));
}

TEST_F(PluginDataTest, BadPluginStageConfigRefusesTheConnectorConfig) {
  const PluginStages stages(*registry_);
  auto chain = transforms::TransformationChain::FromConnectorConfig(
      {{"transforms", "up"},
       {"transforms.up.type", "Uppercase"},
       {"transforms.up.predicate", "p"},
       {"predicates", "p"},
       {"predicates.p.type", "ValueHasPrefix"}},
      &stages);
  ASSERT_FALSE(chain.ok());
  EXPECT_EQ(chain.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(chain.status().message()), HasSubstr("prefix"));

  auto unknown = transforms::TransformationChain::FromConnectorConfig(
      {{"transforms", "x"}, {"transforms.x.type", "NoSuchTransform"}}, &stages);
  ASSERT_FALSE(unknown.ok());
  EXPECT_THAT(std::string(unknown.status().message()), HasSubstr("NoSuchTransform"));
}

class DataBatch : public SourceBatchHost {
 public:
  connectd_status Append(const connectd_source_record& r) override {
    DataReader reader;
    if (r.key_data == nullptr || r.value_data == nullptr) return CONNECTD_STATUS_INVALID_ARGUMENT;
    auto key_schema = reader.ReadSchema(r.key_schema);
    auto key = reader.ReadValue(*r.key_data);
    auto value_schema = reader.ReadSchema(r.value_schema);
    auto value = reader.ReadValue(*r.value_data);
    if (!key_schema.ok() || !key.ok() || !value_schema.ok() || !value.ok()) {
      return CONNECTD_STATUS_INVALID_ARGUMENT;
    }
    keys.push_back(*key);
    value_schemas.push_back(*value_schema);
    values.push_back(*value);
    return CONNECTD_STATUS_OK;
  }
  std::vector<data::Value> keys, values;
  std::vector<data::SchemaPtr> value_schemas;
};

class NoSourceOffsets : public SourceTaskContextHost {
 public:
  metrics::MetricsScope* Metrics() override { return nullptr; }
  std::optional<std::string> Offset(std::string_view) override { return std::nullopt; }
};

TEST_F(PluginDataTest, SourceRecordsCarryConnectData) {
  const ConnectorPlugin* plugin = registry_->Find("StructSource");
  ASSERT_NE(plugin, nullptr);
  NoSourceOffsets context;
  auto task = SourceTaskInstance::Create(*plugin, &context);
  ASSERT_TRUE(task.ok()) << task.status();
  ASSERT_TRUE((*task)->Start({{"count", "2"}}).ok());
  DataBatch batch;
  ASSERT_TRUE((*task)->Poll(100, &batch).ok());
  ASSERT_EQ(batch.values.size(), 2u);
  EXPECT_EQ(batch.keys[1], data::Value::String("k1"));
  ASSERT_EQ(batch.value_schemas[1]->type, data::Type::kStruct);
  EXPECT_EQ(batch.value_schemas[1]->name, "org.connectd.test.Person");
  const data::Struct& person = *batch.values[1].structure();
  EXPECT_EQ(*person.Get("id"), data::Value::Int32(1));
  EXPECT_EQ(*person.Get("name"), data::Value::String("person 1"));
}

class NoSinkContext : public SinkTaskContextHost {
 public:
  void RequestCommit() override {}
  void Seek(std::string_view, int32_t, int64_t) override {}
  void Pause(std::string_view, int32_t) override {}
  void Resume(std::string_view, int32_t) override {}
  metrics::MetricsScope* Metrics() override { return nullptr; }
};

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST_F(PluginDataTest, SinkRecordsReceiveConnectData) {
  const std::filesystem::path out =
      std::filesystem::temp_directory_path() / "connectd-recording-sink-data.txt";
  std::filesystem::remove(out);
  const ConnectorPlugin* plugin = registry_->Find("RecordingSink");
  ASSERT_NE(plugin, nullptr);
  NoSinkContext context;
  auto task = SinkTaskInstance::Create(*plugin, &context);
  ASSERT_TRUE(task.ok()) << task.status();
  ASSERT_TRUE((*task)->Start({{"file", out.string()}, {"record.data", "true"}}).ok());

  DataWriter writer;
  data::Schema small = data::Schema::Of(data::Type::kStruct);
  small.AddField("id", data::Schema::Required(data::Type::kInt32));
  small.AddField("name", data::Schema::Optional(data::Type::kString));
  const data::SchemaPtr small_schema = data::Freeze(small);
  data::Struct ada(small_schema);
  ASSERT_TRUE(ada.Put("id", data::Value::Int32(7)).ok());
  ASSERT_TRUE(ada.Put("name", data::Value::String("Ada")).ok());
  const data::Value ada_value = data::StructValue(std::move(ada));
  connectd_value struct_view = writer.WriteValue(ada_value);

  connectd_sink_record records[3] = {};
  for (int i = 0; i < 3; ++i) {
    records[i].struct_size = sizeof(connectd_sink_record);
    records[i].topic = {"t", 1};
    records[i].offset = i;
    records[i].value = {"raw", 3};
  }
  records[0].value_schema = writer.WriteSchema(small_schema);
  records[0].value_data = &struct_view;
  connectd_value bytes_view = BytesView(connectd_bytes{"raw", 3});  // the pass-through path
  records[1].value_schema = OptionalBytesSchema();
  records[1].value_data = &bytes_view;
  ASSERT_TRUE((*task)->Put(records, 3).ok());
  ASSERT_TRUE((*task)->PreCommit({}).ok());  // SinkTask.flush
  (void)(*task)->Stop();
  EXPECT_EQ(ReadFile(out),
            "t/0/0 null=raw data=STRUCT{id=INT32:7,name=STRING:Ada}\n"
            "t/0/1 null=raw data=BYTES:raw\n"
            "t/0/2 null=raw data=absent\n");
}

// A sink plugin built for ABI 1.4 walks records at its own sizeof: the host repacks them.
TEST_F(PluginDataTest, OlderMinorSinkGetsRecordsAtItsOwnStride) {
  const std::filesystem::path out =
      std::filesystem::temp_directory_path() / "connectd-older-sink.txt";
  std::filesystem::remove(out);
  const ConnectorPlugin* plugin = registry_->Find("org.connectd.test.OlderMinorSinkConnector");
  ASSERT_NE(plugin, nullptr);
  EXPECT_EQ(plugin->abi_minor, 4);
  NoSinkContext context;
  auto task = SinkTaskInstance::Create(*plugin, &context);
  ASSERT_TRUE(task.ok()) << task.status();
  ASSERT_TRUE((*task)->Start({{"file", out.string()}}).ok());
  DataWriter writer;
  connectd_value data = writer.WriteValue(data::Value::String("ignored by 1.4"));
  connectd_sink_record records[3] = {};
  const char* values[] = {"first", "second", "third"};
  for (int i = 0; i < 3; ++i) {
    records[i].struct_size = sizeof(connectd_sink_record);
    records[i].topic = {"old", 3};
    records[i].partition = i;
    records[i].offset = 100 + i;
    records[i].value = {values[i], std::strlen(values[i])};
    records[i].value_schema = writer.WriteSchema(data::Schema::Optional(data::Type::kString));
    records[i].value_data = &data;
  }
  ASSERT_TRUE((*task)->Put(records, 3).ok());
  ASSERT_TRUE((*task)->PreCommit({}).ok());  // SinkTask.flush
  (void)(*task)->Stop();
  EXPECT_EQ(ReadFile(out),
            "old/0/100 own-size first\nold/1/101 own-size second\nold/2/102 own-size third\n");
}

}  // namespace
}  // namespace connectd::plugin
