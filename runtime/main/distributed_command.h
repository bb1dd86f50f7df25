// File: distributed_command.h
//
// `connectd distributed worker.properties`: the same argument as Java's connect-distributed.sh.
// The worker joins group.id through the Kafka group coordinator, keeps configs, statuses and
// offsets in the internal topics and serves the REST API; SIGINT/SIGTERM stop it in order (REST,
// tasks with a final offset flush, connectors, leaving the group, the stores); a second signal
// exits at once.
#pragma once

#include <string>
#include <vector>

namespace connectd::main {

int RunDistributed(const std::vector<std::string>& args, const std::string& executable);

}  // namespace connectd::main
