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

// Builds a librdkafka conf from translated properties through jvm::MakeClientConf (the one way
// connectd makes one: no property that loads code or runs a command, librdkafka's kinit off,
// Kerberos logins in the process). A key librdkafka does not know is dropped with a warning; a
// refused key or an invalid value is an error (kInvalidArgument naming the key).
absl::StatusOr<ConfPtr> MakeConfWithWarnings(const std::map<std::string, std::string>& properties,
                                             std::vector<std::string>& warnings);

}  // namespace connectd::kafka
