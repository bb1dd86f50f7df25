// A connector written with the SDK that throws a C++ exception in the hook named by its
// `throw.in` config (issue #10, plugin faults; tests/fault/plugin_faults_test.py):
//   connector.validate, connector.start, connector.taskConfigs, connector.stop,
//   task.start, task.poll, task.commit, task.stop
// The SDK's trampolines turn each exception into a status and message at the ABI boundary;
// the worker must make the connector or task FAILED with the message as its trace, and go on.
// Without `throw.in` (or another value) it behaves: one record per poll to `topic`.
// `retriable.task.configs` = N: taskConfigs throws RetriableException for its first N calls (not
// ready yet, as MirrorCheckpoint before its first group listing): the connector stays RUNNING
// and the herder asks again after a backoff.
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

#include "connectd/sdk/sdk.h"

namespace throwingplugin {

using connectd::sdk::ConfigDef;
using connectd::sdk::Props;

std::string Get(const Props& props, const std::string& key) {
  auto it = props.find(key);
  return it == props.end() ? std::string() : it->second;
}

void ThrowIf(const std::string& where, const std::string& hook) {
  if (where == hook) throw std::runtime_error("thrown in " + hook);
}

class ThrowEverywhereTask : public connectd::sdk::SourceTask {
 public:
  void start(const Props& props) override {
    where_ = Get(props, "throw.in");
    topic_ = Get(props, "topic");
    ThrowIf(where_, "task.start");
  }
  void poll(connectd::sdk::SourceBatch& batch) override {
    ThrowIf(where_, "task.poll");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    connectd::sdk::SourceRecord record;
    record.source_partition = "{\"p\":0}";
    record.source_offset = "{\"n\":" + std::to_string(++seq_) + "}";
    record.topic = topic_.empty() ? "throwing-topic" : topic_;
    record.value = "v";
    batch.add(record);
  }
  void commit() override { ThrowIf(where_, "task.commit"); }
  void stop() override { ThrowIf(where_, "task.stop"); }

 private:
  std::string where_, topic_;
  long long seq_ = 0;
};

class ThrowEverywhereSourceConnector : public connectd::sdk::SourceConnector {
 public:
  static constexpr char kClassName[] = "org.connectd.test.ThrowEverywhereSourceConnector";
  static constexpr char kVersion[] = "1.0.0";
  using TaskType = ThrowEverywhereTask;
  static ConfigDef configDef() { return ConfigDef(); }
  void validate(const Props& props, connectd::sdk::Validation&) override {
    ThrowIf(Get(props, "throw.in"), "connector.validate");
  }
  void start(const Props& props) override {
    props_ = props;
    ThrowIf(Get(props, "throw.in"), "connector.start");
  }
  std::vector<Props> taskConfigs(int) override {
    ThrowIf(Get(props_, "throw.in"), "connector.taskConfigs");
    const std::string not_ready = Get(props_, "retriable.task.configs");
    if (!not_ready.empty() && not_ready_calls_++ < std::stoi(not_ready)) {
      throw connectd::sdk::RetriableException("not ready yet (call " +
                                              std::to_string(not_ready_calls_) + ")");
    }
    return {props_};
  }
  void stop() override { ThrowIf(Get(props_, "throw.in"), "connector.stop"); }

 private:
  Props props_;
  int not_ready_calls_ = 0;
};

}  // namespace throwingplugin

CONNECTD_PLUGIN("connectd-throwing-plugin", "1.0.0", throwingplugin::ThrowEverywhereSourceConnector)
