// File: mirror_maker_command.h
//
// `connectd mirror-maker mm2.properties [--clusters A B ...]`: Kafka's dedicated MirrorMaker 2
// (connect-mirror-maker.sh) on the same file. One distributed herder per replication flow
// src->tgt (runtime/mirror_maker: the flows, their worker configs and connector configs), each a
// member of group `<src>-mm2` on the target cluster with Java's internal topics
// (mm2-{configs,offsets,status}.<src>.internal); the leader of each group writes the flow's three
// connector configs when they differ from the stored ones. `--clusters` keeps the flows whose
// target is listed. With dedicated.mode.enable.internal.rest=true a REST server on `listeners`
// serves the internal endpoints under /{src}/{tgt}/connectors/... so several nodes form one
// cluster per flow (KIP-710); without it there is no REST server, as in Java.
//
// Exit status: 0 after SIGINT/SIGTERM (stopped in order); 1 with a message for a bad file or a
// cluster that cannot be reached; 2 for bad arguments. A second signal exits at once.
#pragma once

#include <string>
#include <vector>

namespace connectd::main {

int RunMirrorMaker(const std::vector<std::string>& args);

}  // namespace connectd::main
