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

// Java's check of a login module against the system properties (JaasContext, Kafka 4.4):
// org.apache.kafka.allowed.login.modules, when set (even empty), is an allow-list; otherwise
// org.apache.kafka.disallowed.login.modules (deprecated) is a deny-list, by default JndiLoginModule
// and LdapLoginModule (CVE-2023-25194, CVE-2025-27818). Comma lists, entries trimmed. Java's
// message when `class_name` is refused, or "" when it is allowed.
std::string LoginModuleRefusal(const std::string& class_name);

}  // namespace connectd::jvm
