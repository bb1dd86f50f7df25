// File: kafka_test_env.h
//
// Where integration tests find their real Apache Kafka clusters. tests/CMakeLists.txt declares
// ctest fixtures that start clusters "ctest-a" and "ctest-b" with scripts/kafka; each writes its
// bootstrap address to $CONNECTD_RUN_DIR/<name>/bootstrap (default: build/kafka-run).
// CONNECTD_TEST_KAFKA_<NAME> (e.g. CONNECTD_TEST_KAFKA_CTEST_A=host:port) points a test at another
// broker instead.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace connectd::testing {

// Bootstrap servers of the test cluster `name`, or an error saying how to start it.
absl::StatusOr<std::string> TestKafkaBootstrap(const std::string& name);

// A name unique to this process and call, for topics and groups: "<prefix>-<pid>-<n>".
std::string UniqueName(const std::string& prefix);

}  // namespace connectd::testing
