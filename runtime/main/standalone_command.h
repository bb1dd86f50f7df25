// File: standalone_command.h
//
// `connectd standalone worker.properties [connector.properties|connector.json]...`: the same
// arguments as Java's connect-standalone.sh. Offsets in offset.storage.file.filename; connector
// configs from the files and the REST API. SIGINT/SIGTERM stop it in order (REST, tasks with a
// final offset flush, connectors, offset file); a second signal exits at once.
#pragma once

#include <string>
#include <vector>

namespace connectd::main {

int RunStandalone(const std::vector<std::string>& args);

}  // namespace connectd::main
