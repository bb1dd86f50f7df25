// A complete connectd source connector: emits "hello N" to `topic` every `interval.ms`,
// resuming its count from the offset the worker stored.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>

#include "connectd/sdk/sdk.h"

namespace example {

using connectd::sdk::ConfigDef;
using connectd::sdk::ConfigKey;
using connectd::sdk::Props;

class HelloSourceTask : public connectd::sdk::SourceTask {
 public:
  void start(const Props& props) override {
    topic_ = props.at("topic");
    interval_ms_ = std::stoi(props.at("interval.ms"));
    if (auto offset = context().offset(kPartition)) {  // {"count":N}
      next_ = std::stoll(offset->substr(offset->find(':') + 1)) + 1;
    }
  }

  void poll(connectd::sdk::SourceBatch& batch) override {
    {
      // Sleep one interval, but wake at once on stop().
      std::unique_lock lock(mu_);
      auto wait = std::chrono::milliseconds(std::min(interval_ms_, batch.timeoutMs()));
      if (cv_.wait_for(lock, wait, [this] { return stopping_; })) return;
    }
    connectd::sdk::SourceRecord record;
    record.source_partition = kPartition;
    record.source_offset = "{\"count\":" + std::to_string(next_) + "}";
    record.topic = topic_;
    record.value = "hello " + std::to_string(next_++);
    batch.add(record);
  }

  void stop() override {
    std::lock_guard lock(mu_);
    stopping_ = true;
    cv_.notify_all();
  }

 private:
  static constexpr char kPartition[] = "{\"source\":\"hello\"}";
  std::string topic_;
  int interval_ms_ = 1000;
  long long next_ = 0;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
};

class HelloSourceConnector : public connectd::sdk::SourceConnector {
 public:
  static constexpr char kClassName[] = "com.example.HelloSourceConnector";
  static constexpr char kVersion[] = "0.1.0";
  using TaskType = HelloSourceTask;

  static ConfigDef configDef() {
    return ConfigDef()
        .define(ConfigKey("topic", ConfigKey::kString)
                    .nonEmpty()
                    .importance(ConfigKey::kHigh)
                    .doc("The topic to write greetings to."))
        .define(ConfigKey("interval.ms", ConfigKey::kInt)
                    .withDefault("1000")
                    .atLeast(1)
                    .importance(ConfigKey::kMedium)
                    .doc("Milliseconds between greetings."));
  }

  void start(const Props& props) override { props_ = props; }
  std::vector<Props> taskConfigs(int /*max_tasks*/) override { return {props_}; }
  void stop() override {}

 private:
  Props props_;
};

}  // namespace example

CONNECTD_PLUGIN("hello-connector", "0.1.0", example::HelloSourceConnector)
