// File: client_config.h
//
// librdkafka configs from translated Java client properties (see jvm/java_client_config.h).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "jvm/java_client_config.h"
#include "runtime/kafka/rdkafka_handles.h"

namespace connectd::kafka {

// Builds a librdkafka conf from translated properties; keys librdkafka does not know are
// dropped with a warning. A known key with an invalid value is an error (kInvalidArgument).
absl::StatusOr<ConfPtr> MakeConfWithWarnings(const std::map<std::string, std::string>& properties,
                                             std::vector<std::string>& warnings);

}  // namespace connectd::kafka
