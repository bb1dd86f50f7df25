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

#include "absl/status/statusor.h"
#include "runtime/config/worker_config.h"
#include "runtime/distributed/distributed_herder.h"

namespace connectd::main {

// The DistributedHerder options of a distributed worker config (group membership, internal
// topics, protocol, request signing) as `connectd distributed` builds them; `connectd
// mirror-maker` builds each of its herders the same way. The message names the bad key.
absl::StatusOr<distributed::DistributedHerder::Options> DistributedHerderOptions(
    const config::WorkerConfig& config, const std::string& kafka_cluster_id);

int RunDistributed(const std::vector<std::string>& args);

}  // namespace connectd::main
