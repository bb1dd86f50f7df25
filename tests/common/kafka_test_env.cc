#include "tests/common/kafka_test_env.h"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/strip.h"

namespace connectd::testing {

absl::StatusOr<std::string> TestKafkaBootstrap(const std::string& name) {
  std::string env_name = absl::StrCat(
      "CONNECTD_TEST_KAFKA_", absl::AsciiStrToUpper(absl::StrReplaceAll(name, {{"-", "_"}})));
  if (const char* value = std::getenv(env_name.c_str()); value != nullptr && *value != '\0') {
    return std::string(value);
  }
  const char* run_dir = std::getenv("CONNECTD_RUN_DIR");
  if (run_dir == nullptr) run_dir = CONNECTD_KAFKA_RUN_DIR;
  std::string path = absl::StrCat(run_dir, "/", name, "/bootstrap");
  std::ifstream in(path);
  std::string bootstrap;
  if (!in || !std::getline(in, bootstrap) || bootstrap.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "no Kafka test cluster '", name, "' (", path, " missing): run the tests with ctest, ",
        "which starts it, or `scripts/kafka start ", name, "`, or set ", env_name));
  }
  return std::string(absl::StripAsciiWhitespace(bootstrap));
}

std::string UniqueName(const std::string& prefix) {
  static std::atomic<int> counter{0};
  return absl::StrCat(prefix, "-", getpid(), "-", counter.fetch_add(1));
}

}  // namespace connectd::testing
