// KAFKA_OPTS for one test: where connectd reads Java's system properties
// (jvm/java_system_properties.h), restored when the scope ends.
#pragma once

#include <cstdlib>
#include <optional>
#include <string>

namespace connectd::jvm {

class ScopedKafkaOpts {
 public:
  explicit ScopedKafkaOpts(const std::string& value) {
    if (const char* old = std::getenv("KAFKA_OPTS")) old_ = old;
    setenv("KAFKA_OPTS", value.c_str(), 1);
  }
  ~ScopedKafkaOpts() {
    if (old_) {
      setenv("KAFKA_OPTS", old_->c_str(), 1);
    } else {
      unsetenv("KAFKA_OPTS");
    }
  }
  ScopedKafkaOpts(const ScopedKafkaOpts&) = delete;
  ScopedKafkaOpts& operator=(const ScopedKafkaOpts&) = delete;

 private:
  std::optional<std::string> old_;
};

}  // namespace connectd::jvm
