// File: bootstrap.h
//
// bootstrap.servers read once, by one rule, for every client connectd writes itself (the
// `connect` group member, the batch copier). The rule is Java's (ClientUtils): a comma-separated
// list of host:port, each optionally behind a security-protocol prefix ("SASL_SSL://h:9093"),
// an IPv6 host in brackets ("[::1]:9092"), blanks around entries ignored, empty entries
// skipped; an entry that is not host:port with a port in 1..65535 is an error, never skipped.
//
// Thread-safety: pure functions; any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace connectd::kafka::client {

struct BrokerAddress {
  std::string host;
  uint16_t port = 0;
  bool operator==(const BrokerAddress&) const = default;
};

// kInvalidArgument "Invalid url in bootstrap.servers: <entry>" for a bad entry, and
// "No resolvable bootstrap urls given in bootstrap.servers" for a list without one (Java's
// messages).
absl::StatusOr<std::vector<BrokerAddress>> ParseBootstrapServers(std::string_view list);

}  // namespace connectd::kafka::client
