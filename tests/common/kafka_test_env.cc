#include "tests/common/kafka_test_env.h"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <optional>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/strip.h"

namespace connectd::testing {

namespace {

std::string EnvName(const std::string& name, const std::string& suffix) {
  return absl::StrCat("CONNECTD_TEST_KAFKA_",
                      absl::AsciiStrToUpper(absl::StrReplaceAll(name, {{"-", "_"}})), suffix);
}

// The first line of $CONNECTD_RUN_DIR/<name>/<file>, unless environment variable `env_name`
// gives the value; nullopt when neither has one.
std::optional<std::string> ClusterFile(const std::string& name, const std::string& file,
                                       const std::string& env_name, std::string* path) {
  if (const char* value = std::getenv(env_name.c_str()); value != nullptr && *value != '\0') {
    return std::string(value);
  }
  const char* run_dir = std::getenv("CONNECTD_RUN_DIR");
  if (run_dir == nullptr) run_dir = CONNECTD_KAFKA_RUN_DIR;
  *path = absl::StrCat(run_dir, "/", name, "/", file);
  std::ifstream in(*path);
  std::string line;
  if (!in || !std::getline(in, line) || absl::StripAsciiWhitespace(line).empty()) {
    return std::nullopt;
  }
  return std::string(absl::StripAsciiWhitespace(line));
}

}  // namespace

absl::StatusOr<std::string> TestKafkaBootstrap(const std::string& name) {
  std::string env_name = EnvName(name, ""), path;
  std::optional<std::string> bootstrap = ClusterFile(name, "bootstrap", env_name, &path);
  if (!bootstrap) {
    return absl::FailedPreconditionError(absl::StrCat(
        "no Kafka test cluster '", name, "' (", path, " missing): run the tests with ctest, ",
        "which starts it, or `scripts/kafka start ", name, "`, or set ", env_name));
  }
  return *bootstrap;
}

absl::StatusOr<TestKafkaSsl> TestKafkaSslListener(const std::string& name) {
  std::string bootstrap_env = EnvName(name, "_SSL"), ca_env = EnvName(name, "_CA"), path;
  std::optional<std::string> bootstrap = ClusterFile(name, "ssl_bootstrap", bootstrap_env, &path);
  std::optional<std::string> ca;
  if (bootstrap) ca = ClusterFile(name, "ca", ca_env, &path);
  if (!bootstrap || !ca) {
    return absl::FailedPreconditionError(absl::StrCat(
        "Kafka test cluster '", name, "' has no SSL listener (", path, " missing): run the ",
        "tests with ctest, which starts it, or `scripts/kafka start ", name, " --ssl`, or set ",
        bootstrap_env, " and ", ca_env));
  }
  return TestKafkaSsl{*bootstrap, *ca};
}

absl::StatusOr<TestKafkaSasl> TestKafkaSaslListener(const std::string& name) {
  std::string bootstrap_env = EnvName(name, "_SASL"), path;
  std::optional<std::string> bootstrap = ClusterFile(name, "sasl_bootstrap", bootstrap_env, &path);
  std::optional<std::string> username, password;
  if (bootstrap) username = ClusterFile(name, "sasl_username", bootstrap_env + "_USERNAME", &path);
  if (username) password = ClusterFile(name, "sasl_password", bootstrap_env + "_PASSWORD", &path);
  if (!bootstrap || !username || !password) {
    return absl::FailedPreconditionError(absl::StrCat(
        "Kafka test cluster '", name, "' has no SASL listener (", path, " missing): run the ",
        "tests with ctest, which starts it, or `scripts/kafka start ", name, " --sasl`, or set ",
        bootstrap_env, ", ", bootstrap_env, "_USERNAME and ", bootstrap_env, "_PASSWORD"));
  }
  return TestKafkaSasl{*bootstrap, *username, *password};
}

absl::StatusOr<TestKafkaOAuth> TestKafkaOAuthListeners(const std::string& name) {
  TestKafkaOAuth oauth;
  std::string path;
  for (auto [file, field] : {std::pair{"oauth_bootstrap", &oauth.bootstrap},
                             std::pair{"oauth_unsecured_bootstrap", &oauth.unsecured_bootstrap},
                             std::pair{"oauth_token_url", &oauth.token_url},
                             std::pair{"oauth_client_id", &oauth.client_id},
                             std::pair{"oauth_client_secret", &oauth.client_secret}}) {
    std::optional<std::string> value = ClusterFile(
        name, file, EnvName(name, absl::AsciiStrToUpper(absl::StrCat("_", file))), &path);
    if (!value) {
      return absl::FailedPreconditionError(absl::StrCat(
          "Kafka test cluster '", name, "' has no OAUTHBEARER listeners (", path,
          " missing): run the tests with ctest, which starts them, or `scripts/kafka start ", name,
          " --oauth`"));
    }
    *field = *value;
  }
  return oauth;
}

absl::StatusOr<TestKafkaKerberos> TestKafkaKerberosListener(const std::string& name) {
  TestKafkaKerberos kerberos;
  std::string path;
  for (auto [file, field] : {std::pair{"kerberos_bootstrap", &kerberos.bootstrap},
                             std::pair{"kerberos_principal", &kerberos.principal},
                             std::pair{"kerberos_keytab", &kerberos.keytab},
                             std::pair{"kerberos_krb5_conf", &kerberos.krb5_conf}}) {
    std::optional<std::string> value = ClusterFile(
        name, file, EnvName(name, absl::AsciiStrToUpper(absl::StrCat("_", file))), &path);
    if (!value) {
      return absl::FailedPreconditionError(absl::StrCat(
          "Kafka test cluster '", name, "' has no GSSAPI listener (", path,
          " missing): run the tests with ctest, which starts it, or `scripts/kafka start ", name,
          " --kerberos`"));
    }
    *field = *value;
  }
  return kerberos;
}

std::string UniqueName(const std::string& prefix) {
  static std::atomic<int> counter{0};
  return absl::StrCat(prefix, "-", getpid(), "-", counter.fetch_add(1));
}

}  // namespace connectd::testing
