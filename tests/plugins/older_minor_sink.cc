// A sink plugin built with the SDK for ABI 1.4 (CONNECTD_PLUGIN_ABI_TARGET_MINOR=4), whose
// connectd_sink_record ends before 1.5's data fields: the worker must hand it records at this
// shorter stride. OlderMinorSinkConnector appends "topic/partition/offset own-size value" lines
// to `file` ("other-size" when a record's struct_size is not this build's sizeof).
#include <fstream>
#include <string>

#include "connectd/sdk/sdk.h"

namespace olderminor {

using connectd::sdk::ConfigDef;
using connectd::sdk::Props;

class OlderMinorSinkTask : public connectd::sdk::SinkTask {
 public:
  void start(const Props& props) override { out_.open(props.at("file"), std::ios::app); }
  void put(const connectd::sdk::SinkRecords& records) override {
    for (auto record : records) {
      const bool own = record.raw().struct_size == sizeof(connectd_sink_record);
      out_ << record.topic() << "/" << record.kafkaPartition() << "/" << record.kafkaOffset()
           << (own ? " own-size " : " other-size ") << record.value().value_or("null") << "\n";
    }
  }
  void flush(const connectd::sdk::OffsetMap&) override { out_.flush(); }
  void stop() override {}

 private:
  std::ofstream out_;
};

class OlderMinorSinkConnector : public connectd::sdk::SinkConnector {
 public:
  static constexpr char kClassName[] = "org.connectd.test.OlderMinorSinkConnector";
  static constexpr char kVersion[] = "1.4.0";
  using TaskType = OlderMinorSinkTask;
  static ConfigDef configDef() { return ConfigDef(); }
  void start(const Props& props) override { props_ = props; }
  std::vector<Props> taskConfigs(int max_tasks) override {
    return std::vector<Props>(static_cast<size_t>(max_tasks), props_);
  }
  void stop() override {}

 private:
  Props props_;
};

}  // namespace olderminor

CONNECTD_PLUGIN("connectd-older-minor-sink", "1.4.0", olderminor::OlderMinorSinkConnector)
