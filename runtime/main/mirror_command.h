// `connectd mirror`: the DR runbook of a MirrorMaker 2 flow, for a consumer group (issue 31).
//
//   connectd mirror translate-offsets --group G --source A TARGET
//   connectd mirror failover          --group G --source A TARGET [--dry-run]
//
// TARGET says how to reach the target cluster B: `--config mm2.properties --target B` (B's
// settings from the MirrorMaker file, config providers resolved, with its replication policy),
// or `--bootstrap-server HOST:PORT [--command-config client.properties]` (Java client
// properties, as Kafka's own tools take them). translate-offsets prints where the group resumes
// on B (from the checkpoints on B: the source cluster may be down); failover commits those
// offsets to the group on B, refused while the group has members there, and never moves a
// partition the group is already at or past on B. `--json` prints
// mirror_maker::GroupTranslationJson; `--timeout-ms` bounds each Kafka round trip (30000).
//
// Exit status: 0 done, 1 refused or failed (the message says why; nothing was committed),
// 2 usage.
#pragma once

#include <string>
#include <vector>

namespace connectd::main {

int RunMirror(const std::vector<std::string>& args);

}  // namespace connectd::main
