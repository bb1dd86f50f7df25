// File: basic_auth.h
//
// HTTP Basic authentication as Connect's BasicAuthSecurityRestExtension does it
// (`rest.extension.classes=org.apache.kafka.connect.rest.basic.auth.extension.
// BasicAuthSecurityRestExtension`): the JAAS configuration named by
// `-Djava.security.auth.login.config=PATH` in KAFKA_OPTS (the same environment a Java worker
// reads) must have a `KafkaConnect` entry with Connect's PropertyFileLoginModule, whose `file`
// option names a properties file of `user=password` lines.
//
// Java's rules, which the dispatcher applies after routing: every matched request needs valid
// credentials except the two internal, signed requests (POST connectors/{c}/tasks, PUT
// connectors/{c}/fence); an empty credentials file permits everything; failures are 401 with
// the body "User cannot access the resource." and no WWW-Authenticate header; an undecodable
// Base64 payload is a 500 with java.util.Base64's message.
//
// Threads: immutable after LoadBasicAuth; Check runs on any thread.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace connectd::rest {

inline constexpr char kBasicAuthExtensionClass[] =
    "org.apache.kafka.connect.rest.basic.auth.extension.BasicAuthSecurityRestExtension";
inline constexpr char kPropertyFileLoginModuleClass[] =
    "org.apache.kafka.connect.rest.basic.auth.extension.PropertyFileLoginModule";
inline constexpr char kUnauthorizedMessage[] = "User cannot access the resource.";

// One login module line of a JAAS entry: `class flag name="value" ...;`.
struct JaasLoginModule {
  std::string class_name;
  std::string flag;  // required, requisite, sufficient or optional
  std::map<std::string, std::string> options;
};

// Parses a JAAS configuration file's text: `Name { module flag opt=value...; ... };` with
// `//`, `/* */` and `#` comments. Entry names are case-sensitive, as in Java.
absl::StatusOr<std::map<std::string, std::vector<JaasLoginModule>>> ParseJaasConfig(
    std::string_view text);

// The path in `-Djava.security.auth.login.config=PATH` (or `==PATH`) among the JVM options of
// `kafka_opts`, as a Java worker started with those KAFKA_OPTS would read it.
std::optional<std::string> JaasConfigPathFromKafkaOpts(std::string_view kafka_opts);

class BasicAuth {
 public:
  enum class Outcome { kAllowed, kUnauthorized, kMalformed };
  struct Result {
    Outcome outcome;
    std::string message;  // for kMalformed: java.util.Base64's message
  };

  // `credentials` as read from the PropertyFileLoginModule's file.
  explicit BasicAuth(std::map<std::string, std::string> credentials)
      : credentials_(std::move(credentials)) {}

  // Decides one request. `path` is the request path, still percent-encoded, without query.
  Result Check(std::string_view method, std::string_view path,
               const std::optional<std::string>& authorization) const;

  // True for the internal requests Connect exempts: they are signed instead.
  static bool IsInternalRequest(std::string_view method, std::string_view path);

 private:
  std::map<std::string, std::string> credentials_;
};

// Loads the authenticator for the configured REST extensions: null when none is configured;
// kUnimplemented for an extension connectd lacks; kInvalidArgument when the JAAS configuration
// or the credentials file cannot be used (missing path, unreadable, no KafkaConnect entry, a
// login module other than PropertyFileLoginModule).
absl::StatusOr<std::shared_ptr<const BasicAuth>> LoadBasicAuth(
    const std::vector<std::string>& extension_classes,
    const std::optional<std::string>& jaas_config_path);

}  // namespace connectd::rest
