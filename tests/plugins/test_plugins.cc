// Test connectors after Kafka Connect's connect/test-plugins, built with the SDK as one plugin:
//   MockSourceConnector          a source that emits nothing (lifecycle tests); one task, as Java's
//   VerifiableSourceConnector    Java's: key = task id, value = seqno, `throughput` records/s,
//                                resumes after its stored seqno
//   ThrowingSourceConnector      its task throws in poll (a RetriableException first if asked;
//                                only while `fail.while.file.exists` exists, if set)
//   HangingSourceConnector       its task's stop() blocks for `stop.hang.ms`
//   NoopSourceConnector          `batch.size` records of `record.size` bytes per poll, copied or
//                                zero-copy (`zero.copy`), for the ABI cost benchmark
//   RecordingSinkConnector       appends "topic/partition/offset key=value" lines to `file`
//                                (with `record.data=true`, the value as Connect data after it)
//   StructSourceConnector        `count` records whose key and value are Connect data (ABI 1.5):
//                                key STRING "k<n>", value STRUCT {id INT32, name STRING}
//   Uppercase (transformation)   upper-cases a STRING value, or the STRUCT value's `field`;
//                                drops a record whose value is `drop.value`
//   ValueHasPrefix (predicate)   whether the STRING value starts with `prefix` (required)
#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <fstream>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "connectd/sdk/sdk.h"

namespace testplugins {

using connectd::sdk::ConfigDef;
using connectd::sdk::ConfigKey;
using connectd::sdk::Props;

int IntProp(const Props& props, const std::string& key, int fallback) {
  auto it = props.find(key);
  return it == props.end() ? fallback : std::stoi(it->second);
}

std::vector<Props> SameConfigForEachTask(const Props& props, int max_tasks) {
  std::vector<Props> configs;
  for (int i = 0; i < max_tasks; ++i) {
    Props config = props;
    config["task.id"] = std::to_string(i);
    configs.push_back(config);
  }
  return configs;
}

// A connector whose every task gets the connector's config plus "task.id"; the named
// subclasses below differ only in their class name and task.
template <typename Task>
class EveryTaskSameConfig : public connectd::sdk::SourceConnector {
 public:
  static constexpr char kVersion[] = "1.0.0";
  using TaskType = Task;
  static ConfigDef configDef() { return ConfigDef(); }
  void start(const Props& props) override { props_ = props; }
  std::vector<Props> taskConfigs(int max_tasks) override {
    return SameConfigForEachTask(props_, max_tasks);
  }
  void stop() override {}

 protected:
  Props props_;
};

// ---- MockSource --------------------------------------------------------------------------
class MockSourceTask : public connectd::sdk::SourceTask {
 public:
  void start(const Props&) override {}
  void poll(connectd::sdk::SourceBatch& batch) override {
    std::this_thread::sleep_for(std::chrono::milliseconds(std::min(batch.timeoutMs(), 10)));
  }
  void stop() override {}
};

class MockSourceConnector : public EveryTaskSameConfig<MockSourceTask> {
 public:
  static constexpr char kClassName[] = "org.apache.kafka.connect.tools.MockSourceConnector";
  // Java's MockConnector: one task, whose config is the connector config.
  std::vector<Props> taskConfigs(int /*max_tasks*/) override { return {props_}; }
};

// ---- VerifiableSource --------------------------------------------------------------------
// Java's org.apache.kafka.connect.tools.VerifiableSourceConnector, so that Java and connectd
// workers can run each other's task configs: the connector gives task i its own config plus
// `id` = i; the task writes one record per seqno to `topic`, source partition {"id":<id>},
// offset {"seqno":<n>}, key the task id and value the seqno as decimal text (what Java's
// StringConverter makes of its INT32 key and INT64 value), resuming after the stored seqno.
// `throughput` is records per second per task as Java's ThroughputThrottler keeps it (negative:
// unthrottled; 0: nothing). connectd's own `max.records` stops a task at that seqno (Java's
// plugin has no such cap and ignores the key). Java's `complete.record.data` is not supported.
class VerifiableSourceTask : public connectd::sdk::SourceTask {
 public:
  using Clock = std::chrono::steady_clock;

  void start(const Props& props) override {
    std::optional<long long> id = LongProp(props, "id");
    std::optional<long long> throughput =
        props.count("throughput") ? LongProp(props, "throughput") : std::optional<long long>(-1);
    if (!id || *id < std::numeric_limits<int32_t>::min() ||
        *id > std::numeric_limits<int32_t>::max() || !throughput || !props.count("topic")) {
      throw connectd::sdk::ConnectException("Invalid VerifiableSourceTask configuration");
    }
    id_ = std::to_string(*id);
    throughput_ = *throughput;
    topic_ = props.at("topic");
    max_ = LongProp(props, "max.records").value_or(-1);
    partition_ = "{\"id\":" + id_ + "}";
    if (auto offset = context().offset(partition_)) {
      // {"seqno":N}: resume after N.
      size_t key = offset->find("\"seqno\"");
      size_t colon = key == std::string::npos ? key : offset->find(':', key);
      if (colon != std::string::npos) next_ = std::stoll(offset->substr(colon + 1)) + 1;
    }
    first_ = next_;
    started_ = Clock::now();
    polled_ = context().metrics().sensor(
        "connectd.test", "VerifiableSourceTask", {{"task", id_}},
        {{"record-count", connectd::sdk::Stat::kCumulativeSum, "Records polled"},
         {"batch-size-max", connectd::sdk::Stat::kMax, "Largest batch"}});
    commits_ = context().metrics().sensor(
        "connectd.test", "VerifiableSourceTask", {{"task", id_}},
        {{"commit-count", connectd::sdk::Stat::kCumulativeCount, "SourceTask.commit() calls"}});
    polls_ = context().metrics().sensor(
        "connectd.test", "VerifiableSourceTask", {{"task", id_}},
        {{"poll-count", connectd::sdk::Stat::kCumulativeCount, "poll() calls that returned records",
          connectd::sdk::RecordingLevel::kDebug}});
  }
  void commit() override { commits_.record(1); }
  void poll(connectd::sdk::SourceBatch& batch) override {
    const Clock::time_point deadline =
        Clock::now() + std::chrono::milliseconds(std::max(batch.timeoutMs(), 0));
    long long count = Due(Clock::now());
    while (count <= 0) {
      // Nothing due yet (or the cap reached): wait for the next record's time, in short steps
      // so that the worker's offset commits between polls keep their cadence.
      Clock::time_point wake = std::min(deadline, Clock::now() + std::chrono::milliseconds(50));
      if (throughput_ > 0 && (max_ < 0 || next_ < max_)) {
        wake = std::min(wake, DueAt(next_ - first_));
      }
      std::unique_lock lock(mu_);
      if (stop_cv_.wait_until(lock, wake, [this] { return stopping_; })) return;
      lock.unlock();
      const Clock::time_point now = Clock::now();
      if (now >= deadline || (max_ >= 0 && next_ >= max_)) return;
      count = Due(now);
    }
    for (long long i = 0; i < count; ++i, ++next_) {
      connectd::sdk::SourceRecord record;
      record.source_partition = partition_;
      record.source_offset = "{\"seqno\":" + std::to_string(next_) + "}";
      record.topic = topic_;
      record.key = id_;
      record.value = std::to_string(next_);
      batch.add(record);
    }
    polled_.record(static_cast<double>(batch.size()));
    polls_.record(1);
  }
  void stop() override {
    std::lock_guard lock(mu_);
    stopping_ = true;
    stop_cv_.notify_all();
  }

 private:
  static constexpr long long kMaxBatch = 100;

  // A whole decimal number (Java's Long.parseLong), or nullopt (also when absent).
  static std::optional<long long> LongProp(const Props& props, const std::string& key) {
    auto it = props.find(key);
    if (it == props.end()) return std::nullopt;
    const std::string& text = it->second;
    long long value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || text.empty()) {
      return std::nullopt;
    }
    return value;
  }
  // When the record `index` records after the first of this run is due at `throughput_`.
  Clock::time_point DueAt(long long index) const {
    return started_ + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(
                          static_cast<double>(index) / static_cast<double>(throughput_)));
  }
  // How many records to write now: those due by `now` (all, unthrottled), at most a batch and
  // never past max.records.
  long long Due(Clock::time_point now) const {
    long long count = kMaxBatch;
    if (throughput_ == 0) return 0;
    if (throughput_ > 0) {
      const double elapsed = std::chrono::duration<double>(now - started_).count();
      const long long due = static_cast<long long>(elapsed * static_cast<double>(throughput_)) + 1;
      count = std::min(count, due - (next_ - first_));
    }
    if (max_ >= 0) count = std::min(count, max_ - next_);
    return count;
  }

  connectd::sdk::Sensor polled_;
  connectd::sdk::Sensor commits_;
  connectd::sdk::Sensor polls_;
  std::string topic_, id_, partition_;
  long long throughput_ = -1;
  long long next_ = 0;   // the next seqno
  long long first_ = 0;  // the first seqno of this run (throttling counts from it)
  long long max_ = -1;
  Clock::time_point started_;
  std::mutex mu_;
  std::condition_variable stop_cv_;
  bool stopping_ = false;  // guarded by mu_
};

class VerifiableSourceConnector : public connectd::sdk::SourceConnector {
 public:
  static constexpr char kClassName[] = "org.apache.kafka.connect.tools.VerifiableSourceConnector";
  static constexpr char kVersion[] = "1.0.0";
  using TaskType = VerifiableSourceTask;
  static ConfigDef configDef() {
    return ConfigDef()
        .define(ConfigKey("topic", ConfigKey::kString).importance(ConfigKey::kHigh).doc("Topic."))
        .define(ConfigKey("throughput", ConfigKey::kLong)
                    .withDefault("-1")
                    .importance(ConfigKey::kMedium)
                    .doc("Records per second per task; negative for unthrottled."))
        .define(ConfigKey("max.records", ConfigKey::kLong)
                    .withDefault("-1")
                    .importance(ConfigKey::kLow)
                    .doc("Records per task, -1 for unbounded (connectd only)."));
  }
  void start(const Props& props) override { props_ = props; }
  // Java's taskConfigs: the connector config plus "id", and nothing else.
  std::vector<Props> taskConfigs(int max_tasks) override {
    std::vector<Props> configs;
    for (int i = 0; i < max_tasks; ++i) {
      Props config = props_;
      config["id"] = std::to_string(i);
      configs.push_back(std::move(config));
    }
    return configs;
  }
  void stop() override {}

 private:
  Props props_;
};

// ---- ThrowingSource ----------------------------------------------------------------------
class ThrowingSourceTask : public connectd::sdk::SourceTask {
 public:
  void start(const Props& props) override {
    retriable_first_ = IntProp(props, "retriable.first", 0);
    if (props.count("fail.while.file.exists")) fail_while_ = props.at("fail.while.file.exists");
  }
  void poll(connectd::sdk::SourceBatch& batch) override {
    if (retriable_first_-- > 0) throw connectd::sdk::RetriableException("try again");
    // With fail.while.file.exists, the task fails only while that file exists (so a test can
    // repair it and restart the task); otherwise it always fails.
    if (!fail_while_.empty() && !std::ifstream(fail_while_).good()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(std::min(batch.timeoutMs(), 50)));
      return;
    }
    throw std::runtime_error("poll exploded");
  }
  void stop() override {}

 private:
  int retriable_first_ = 0;
  std::string fail_while_;
};

class ThrowingSourceConnector : public EveryTaskSameConfig<ThrowingSourceTask> {
 public:
  static constexpr char kClassName[] = "org.connectd.test.ThrowingSourceConnector";
  void start(const Props& props) override {
    if (props.count("fail.start")) throw connectd::sdk::ConnectException("start refused");
    props_ = props;
  }
};

// ---- HangingSource -----------------------------------------------------------------------
class HangingSourceTask : public connectd::sdk::SourceTask {
 public:
  void start(const Props& props) override { hang_ms_ = IntProp(props, "stop.hang.ms", 3600000); }
  void poll(connectd::sdk::SourceBatch&) override {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  void stop() override { std::this_thread::sleep_for(std::chrono::milliseconds(hang_ms_)); }

 private:
  int hang_ms_ = 0;
};

class HangingSourceConnector : public EveryTaskSameConfig<HangingSourceTask> {
 public:
  static constexpr char kClassName[] = "org.connectd.test.HangingSourceConnector";
};

// ---- NoopSource (benchmark) --------------------------------------------------------------
class NoopSourceTask : public connectd::sdk::SourceTask {
 public:
  void start(const Props& props) override {
    batch_size_ = IntProp(props, "batch.size", 1000);
    zero_copy_ = IntProp(props, "zero.copy", 0) != 0;
    payload_.assign(static_cast<size_t>(IntProp(props, "record.size", 100)), 'x');
    topic_ = props.count("topic") ? props.at("topic") : "noop";
  }
  void poll(connectd::sdk::SourceBatch& batch) override {
    static constexpr char kPartition[] = "{\"p\":0}";
    char offset[32];
    for (int i = 0; i < batch_size_; ++i, ++seq_) {
      int n = std::snprintf(offset, sizeof(offset), "{\"o\":%lld}", seq_);
      connectd_source_record r = connectd::sdk::SourceBatch::MakeAbi(
          kPartition, std::string_view(offset, static_cast<size_t>(n)), topic_,
          CONNECTD_ANY_PARTITION, connectd_bytes{nullptr, 0},
          connectd_bytes{payload_.data(), payload_.size()}, CONNECTD_NO_TIMESTAMP);
      if (zero_copy_) {
        // The payload is immutable for the task's life; the offset text is copied by the host
        // during the append (ABI 1.2), so only the payload is held zero-copy.
        batch.addZeroCopy(
            r, [](void* opaque) { static_cast<NoopSourceTask*>(opaque)->released_++; }, this);
      } else {
        connectd::sdk::SourceRecord copy;  // exercise the owning path
        copy.source_partition = kPartition;
        copy.source_offset.assign(offset, static_cast<size_t>(n));
        copy.topic = topic_;
        copy.value = payload_;
        batch.add(copy);
      }
    }
  }
  void stop() override {}

 private:
  int batch_size_ = 1000;
  bool zero_copy_ = false;
  std::string payload_, topic_;
  long long seq_ = 0;
  std::atomic<long long> released_{0};
};

class NoopSourceConnector : public EveryTaskSameConfig<NoopSourceTask> {
 public:
  static constexpr char kClassName[] = "org.connectd.test.NoopSourceConnector";
  // KIP-618 (ABI 1.4): answers what `exactly.once.answer` says (supported, unsupported, or
  // nothing: Java's null), so tests can drive the herder's exactly.once.support=required check.
  connectd::sdk::ExactlyOnceSupport exactlyOnceSupport(const Props& config) override {
    auto it = config.find("exactly.once.answer");
    if (it == config.end()) return connectd::sdk::ExactlyOnceSupport::kNone;
    if (it->second == "throw") throw connectd::sdk::ConnectException("no answer today");
    return it->second == "supported" ? connectd::sdk::ExactlyOnceSupport::kSupported
                                     : connectd::sdk::ExactlyOnceSupport::kUnsupported;
  }
};

// ---- RecordingSink -----------------------------------------------------------------------
class RecordingSinkTask : public connectd::sdk::SinkTask {
 public:
  void start(const Props& props) override {
    out_.open(props.at("file"), std::ios::app);
    record_data_ = props.count("record.data") && props.at("record.data") == "true";
  }
  void put(const connectd::sdk::SinkRecords& records) override {
    for (auto record : records) {
      out_ << record.topic() << "/" << record.kafkaPartition() << "/" << record.kafkaOffset() << " "
           << record.key().value_or("null") << "=" << record.value().value_or("null");
      if (record_data_) {
        std::optional<connectd::sdk::SchemaAndValue> data = record.valueData();
        out_ << " data=" << (data ? Describe(*data) : "absent");
      }
      out_ << "\n";
    }
  }
  void flush(const connectd::sdk::OffsetMap&) override { out_.flush(); }
  void stop() override {}

 private:
  // "<schema type>:<value>" for the scalar, bytes and struct values the tests send.
  static std::string Describe(const connectd::sdk::SchemaAndValue& data) {
    using connectd::sdk::Type;
    if (data.schema == nullptr) return "schemaless";
    const connectd::sdk::Value& v = data.value;
    if (v.isNull()) return "null";
    switch (data.schema->type) {
      case Type::kString:
        return "STRING:" + v.string();
      case Type::kBytes:
        return "BYTES:" + v.bytes();
      case Type::kInt32:
        return "INT32:" + std::to_string(v.int32());
      case Type::kInt64:
        return "INT64:" + std::to_string(v.int64());
      case Type::kStruct: {
        std::string out = "STRUCT{";
        const auto& fields = data.schema->fields;
        for (size_t i = 0; i < fields.size(); ++i) {
          if (i > 0) out += ",";
          out += fields[i].name + "=" + Describe({fields[i].schema, v.structure()->values()[i]});
        }
        return out + "}";
      }
      default:
        return "type" + std::to_string(static_cast<int>(data.schema->type));
    }
  }

  std::ofstream out_;
  bool record_data_ = false;
};

class RecordingSinkConnector : public connectd::sdk::SinkConnector {
 public:
  static constexpr char kClassName[] = "org.connectd.test.RecordingSinkConnector";
  static constexpr char kVersion[] = "1.0.0";
  using TaskType = RecordingSinkTask;
  static ConfigDef configDef() {
    return ConfigDef().define(
        ConfigKey("file", ConfigKey::kString).importance(ConfigKey::kHigh).doc("Output file."));
  }
  void start(const Props& props) override { props_ = props; }
  std::vector<Props> taskConfigs(int max_tasks) override {
    return SameConfigForEachTask(props_, max_tasks);
  }
  void stop() override {}
  void validate(const Props& props, connectd::sdk::Validation& validation) override {
    auto it = props.find("file");
    if (it != props.end() && it->second.empty()) validation.addError("file", "must not be empty");
  }

 private:
  Props props_;
};

// ---- StructSource (ABI 1.5: Connect data) -------------------------------------------------
class StructSourceTask : public connectd::sdk::SourceTask {
 public:
  void start(const Props& props) override {
    topic_ = props.count("topic") ? props.at("topic") : "structs";
    count_ = IntProp(props, "count", 3);
    schema_ = connectd::sdk::SchemaBuilder::Struct()
                  .name("org.connectd.test.Person")
                  .field("id", connectd::sdk::Schema::Required(connectd::sdk::Type::kInt32))
                  .field("name", connectd::sdk::Schema::Optional(connectd::sdk::Type::kString))
                  .build();
  }
  void poll(connectd::sdk::SourceBatch& batch) override {
    if (next_ >= count_) {
      std::this_thread::sleep_for(std::chrono::milliseconds(std::min(batch.timeoutMs(), 10)));
      return;
    }
    for (; next_ < count_; ++next_) {
      auto person = std::make_shared<connectd::sdk::Struct>(schema_);
      person->put("id", connectd::sdk::Value::Int32(next_));
      person->put("name", connectd::sdk::Value::String("person " + std::to_string(next_)));
      connectd::sdk::SourceRecord record;
      record.source_partition = "{\"structs\":0}";
      record.source_offset = "{\"n\":" + std::to_string(next_) + "}";
      record.topic = topic_;
      record.key_data = connectd::sdk::SchemaAndValue{
          connectd::sdk::Schema::Optional(connectd::sdk::Type::kString),
          connectd::sdk::Value::String("k" + std::to_string(next_))};
      record.value_data =
          connectd::sdk::SchemaAndValue{schema_, connectd::sdk::Value::OfStruct(person)};
      batch.add(record);
    }
  }
  void stop() override {}

 private:
  std::string topic_;
  int count_ = 0;
  int next_ = 0;
  connectd::sdk::SchemaPtr schema_;
};

class StructSourceConnector : public EveryTaskSameConfig<StructSourceTask> {
 public:
  static constexpr char kClassName[] = "org.connectd.test.StructSourceConnector";
};

// ---- BatchHandingSource (ABI 1.7: batch pass-through) ------------------------------------
// Hands partition 0 of `src` (from offset 7) to the worker to copy as batches at start; each
// poll writes what happened since as records to `notes`: "accepted", "refused: <why>" and one
// line per batch_copy_event with every field the task saw.
class BatchHandingSourceTask : public connectd::sdk::SourceTask {
 public:
  void start(const Props& props) override {
    std::string why;
    const bool accepted = context().copyBatches(
        {{"bootstrap.servers",
          props.count("source.bootstrap") ? props.at("source.bootstrap") : "source:9092"}},
        {{"src", 0, "dst", 7, "{\"p\":0}", "{\"o\":", "}"}}, &why);
    notes_.push_back(accepted ? "accepted" : "refused: " + why);
  }
  void poll(connectd::sdk::SourceBatch& batch) override {
    for (const std::string& note : notes_) {
      connectd::sdk::SourceRecord record;
      record.topic = "notes";
      record.value = note;
      batch.add(record);
    }
    notes_.clear();
  }
  void batchCopyEvent(const connectd::sdk::BatchCopyEvent& e) override {
    notes_.push_back(
        "event " + std::to_string(static_cast<int>(e.kind)) + " " + std::string(e.source_topic) +
        "-" + std::to_string(e.partition) + "->" + std::string(e.target_topic) +
        " position=" + std::to_string(e.position) + " end=" + std::to_string(e.source_end_offset) +
        " upstream=" + std::to_string(e.upstream_first) + ".." + std::to_string(e.upstream_last) +
        " count=" + std::to_string(e.record_count) + " base=" + std::to_string(e.downstream_base) +
        " bytes=" + std::to_string(e.batch_bytes) + " ts=" + std::to_string(e.max_timestamp_ms) +
        " code=" + std::to_string(e.error_code) + " reason=" + std::string(e.reason) +
        " again=" + std::to_string(e.copy_again_at));
  }
  void stop() override {}

 private:
  std::vector<std::string> notes_;
};

class BatchHandingSourceConnector : public EveryTaskSameConfig<BatchHandingSourceTask> {
 public:
  static constexpr char kClassName[] = "org.connectd.test.BatchHandingSourceConnector";
};

// ---- Uppercase, ValueHasPrefix (ABI 1.5: transformations and predicates) -----------------
class Uppercase : public connectd::sdk::Transformation {
 public:
  static constexpr char kClassName[] = "org.connectd.test.transforms.Uppercase";
  static constexpr char kVersion[] = "1.0.0";
  static ConfigDef configDef() {
    return ConfigDef()
        .define(ConfigKey("field", ConfigKey::kString)
                    .withDefault("")
                    .importance(ConfigKey::kMedium)
                    .doc("The STRUCT value's field to upper-case; empty for a STRING value."))
        .define(ConfigKey("drop.value", ConfigKey::kString)
                    .withDefault("")
                    .importance(ConfigKey::kLow)
                    .doc("Drop records whose STRING value is this."));
  }
  void configure(const Props& configs) override {
    field_ = configs.count("field") ? configs.at("field") : "";
    drop_ = configs.count("drop.value") ? configs.at("drop.value") : "";
  }
  std::optional<connectd::sdk::ConnectRecord> apply(
      const connectd::sdk::ConnectRecord& record) override {
    using connectd::sdk::Type;
    using connectd::sdk::Value;
    if (field_.empty()) {
      if (record.value.isNull() || record.value.kind() != CONNECTD_VALUE_STRING) {
        throw connectd::sdk::DataException("Uppercase needs a STRING value");
      }
      if (!drop_.empty() && record.value.string() == drop_) return std::nullopt;
      return record.newRecord(record.topic, record.keySchema, record.key, record.valueSchema,
                              Value::String(Upper(record.value.string())));
    }
    if (record.valueSchema == nullptr || record.valueSchema->type != Type::kStruct) {
      throw connectd::sdk::DataException("Uppercase needs a STRUCT value for field " + field_);
    }
    auto copy = std::make_shared<connectd::sdk::Struct>(*record.value.structure());
    const Value& current = copy->get(field_);
    if (!current.isNull()) copy->put(field_, Value::String(Upper(current.string())));
    return record.newRecord(record.topic, record.keySchema, record.key, record.valueSchema,
                            Value::OfStruct(copy));
  }

 private:
  static std::string Upper(std::string text) {
    for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return text;
  }
  std::string field_, drop_;
};

class ValueHasPrefix : public connectd::sdk::Predicate {
 public:
  static constexpr char kClassName[] = "org.connectd.test.predicates.ValueHasPrefix";
  static constexpr char kVersion[] = "1.0.0";
  static ConfigDef configDef() {
    return ConfigDef().define(ConfigKey("prefix", ConfigKey::kString)
                                  .importance(ConfigKey::kHigh)
                                  .doc("The prefix a STRING value must start with."));
  }
  void configure(const Props& configs) override {
    auto it = configs.find("prefix");
    if (it == configs.end()) {
      throw connectd::sdk::ConfigException(
          "Missing required configuration \"prefix\" which has no default value.");
    }
    prefix_ = it->second;
  }
  bool test(const connectd::sdk::ConnectRecord& record) override {
    return !record.value.isNull() && record.value.kind() == CONNECTD_VALUE_STRING &&
           record.value.string().rfind(prefix_, 0) == 0;
  }

 private:
  std::string prefix_;
};

}  // namespace testplugins

CONNECTD_PLUGIN("connectd-test-plugins", "1.0.0", testplugins::MockSourceConnector,
                testplugins::VerifiableSourceConnector, testplugins::ThrowingSourceConnector,
                testplugins::HangingSourceConnector, testplugins::NoopSourceConnector,
                testplugins::RecordingSinkConnector, testplugins::StructSourceConnector,
                testplugins::BatchHandingSourceConnector, testplugins::Uppercase,
                testplugins::ValueHasPrefix)
