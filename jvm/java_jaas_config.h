// File: java_jaas_config.h
//
// A Kafka client's `sasl.jaas.config` value, read as Java's JaasConfig reads it: exactly one
// login module, `<class> <flag> [name=value ...];`, values bare or in double quotes (a
// backslash escapes the next character inside quotes).
//
//   std::string error;
//   std::optional<JaasLoginModule> module = ParseJaasConfig(
//       R"(org.apache.kafka.common.security.plain.PlainLoginModule required
//          username="alice" password="secret";)", error);
//   module->options.at("username");   // "alice"
//
// `error` never quotes the value (it holds passwords and client secrets).
#pragma once

#include <map>
#include <optional>
#include <string>

namespace connectd::jvm {

struct JaasLoginModule {
  std::string class_name;  // e.g. org.apache.kafka.common.security.scram.ScramLoginModule
  std::string flag;        // required, requisite, sufficient or optional
  std::map<std::string, std::string> options;

  // Whether class_name is `simple_name` in any package (Kafka moved a few between releases).
  bool Is(const std::string& simple_name) const;
};

std::optional<JaasLoginModule> ParseJaasConfig(const std::string& value, std::string& error);

}  // namespace connectd::jvm
