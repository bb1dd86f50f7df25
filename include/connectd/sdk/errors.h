// File: connectd/sdk/errors.h
//
// Errors in plugin code, as in Kafka Connect: throw ConnectException for a failure that stops
// the connector or task (it becomes FAILED with the message as its trace), RetriableException
// when the same call may succeed if repeated. The SDK's trampolines catch every exception at
// the ABI boundary; any other std::exception is fatal with its what() text.
#pragma once

#include <stdexcept>
#include <string>

#include "connectd/plugin/abi.h"

namespace connectd::sdk {

class ConnectException : public std::runtime_error {
 public:
  explicit ConnectException(const std::string& message,
                            connectd_status code = CONNECTD_STATUS_INTERNAL)
      : std::runtime_error(message), code_(code) {}
  connectd_status code() const { return code_; }

 private:
  connectd_status code_;
};

class RetriableException : public ConnectException {
 public:
  explicit RetriableException(const std::string& message)
      : ConnectException(message, CONNECTD_STATUS_UNAVAILABLE) {}
};

// A config value the connector refuses (Connect's ConfigException).
class ConfigException : public ConnectException {
 public:
  explicit ConfigException(const std::string& message)
      : ConnectException(message, CONNECTD_STATUS_INVALID_ARGUMENT) {}
  ConfigException(const std::string& name, const std::string& value, const std::string& why)
      : ConnectException("Invalid value " + value + " for configuration " + name +
                             (why.empty() ? "" : ": " + why),
                         CONNECTD_STATUS_INVALID_ARGUMENT) {}
};

}  // namespace connectd::sdk
