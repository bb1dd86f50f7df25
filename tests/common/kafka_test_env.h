// File: kafka_test_env.h
//
// Where integration tests find their real Apache Kafka clusters. tests/CMakeLists.txt declares
// ctest fixtures that start clusters "ctest-a" and "ctest-b" with scripts/kafka; each writes its
// bootstrap address to $CONNECTD_RUN_DIR/<name>/bootstrap (default: build/kafka-run).
// CONNECTD_TEST_KAFKA_<NAME> (e.g. CONNECTD_TEST_KAFKA_CTEST_A=host:port) points a test at another
// broker instead. The fixture clusters also have an SSL listener (`scripts/kafka start --ssl`),
// found in $CONNECTD_RUN_DIR/<name>/ssl_bootstrap and .../ca, or through
// CONNECTD_TEST_KAFKA_<NAME>_SSL=host:port and CONNECTD_TEST_KAFKA_<NAME>_CA=/path/ca.pem.
// Likewise their SASL_PLAINTEXT listener (`scripts/kafka start --sasl`): .../sasl_bootstrap,
// .../sasl_username and .../sasl_password, or CONNECTD_TEST_KAFKA_<NAME>_SASL=host:port,
// CONNECTD_TEST_KAFKA_<NAME>_SASL_USERNAME and CONNECTD_TEST_KAFKA_<NAME>_SASL_PASSWORD.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace connectd::testing {

// Bootstrap servers of the test cluster `name`, or an error saying how to start it.
absl::StatusOr<std::string> TestKafkaBootstrap(const std::string& name);

// The SSL listener of test cluster `name`: where it is and the CA (PEM file) that signed the
// broker's certificate (for IP:127.0.0.1 and DNS:localhost).
struct TestKafkaSsl {
  std::string bootstrap;    // 127.0.0.1:PORT
  std::string ca_location;  // ssl.truststore.location (PEM) / ssl.ca.location
};

// The SSL listener of test cluster `name`, or an error saying how to start one.
absl::StatusOr<TestKafkaSsl> TestKafkaSslListener(const std::string& name);

// The SASL_PLAINTEXT listener of test cluster `name` and its one user, valid for the
// mechanisms PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512 (a super user when ACLs are on).
struct TestKafkaSasl {
  std::string bootstrap;  // 127.0.0.1:PORT
  std::string username;
  std::string password;
};

// The SASL_PLAINTEXT listener of test cluster `name`, or an error saying how to start one.
absl::StatusOr<TestKafkaSasl> TestKafkaSaslListener(const std::string& name);

// The OAUTHBEARER listeners of test cluster `name` (`scripts/kafka start --oauth`): OAUTH checks
// RS256 JWTs from the test identity provider, whose client-credentials token endpoint gives
// `client_id` tokens for User:<client_id> (not a super user); OAUTH_UNSECURED takes Kafka's
// unsecured JWTs. `dir` is the provider's directory (token_seconds, server.log).
struct TestKafkaOAuth {
  std::string bootstrap;            // 127.0.0.1:PORT of OAUTH
  std::string unsecured_bootstrap;  // 127.0.0.1:PORT of OAUTH_UNSECURED
  std::string token_url;            // http://127.0.0.1:PORT/token
  std::string client_id;
  std::string client_secret;
};

// The OAUTHBEARER listeners of test cluster `name`, or an error saying how to start them.
absl::StatusOr<TestKafkaOAuth> TestKafkaOAuthListeners(const std::string& name);

// The GSSAPI listener of test cluster `name` (`scripts/kafka start --kerberos`), advertised as
// localhost (the broker's service principal is kafka/localhost), and the client principal of
// its throw-away KDC, not a super user. MIT's library finds the KDC through `krb5_conf`
// (KRB5_CONFIG).
struct TestKafkaKerberos {
  std::string bootstrap;  // localhost:PORT
  std::string principal;  // connectd-krb@CONNECTD.TEST
  std::string keytab;
  std::string krb5_conf;
};

// The GSSAPI listener of test cluster `name`, or an error saying how to start it.
absl::StatusOr<TestKafkaKerberos> TestKafkaKerberosListener(const std::string& name);

// A name unique to this process and call, for topics and groups: "<prefix>-<pid>-<n>".
std::string UniqueName(const std::string& prefix);

}  // namespace connectd::testing
