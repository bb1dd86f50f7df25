// File: doctor_command.h
//
// `connectd doctor --url http://HOST:PORT [--json] [--flow A->B] [--config FILE]`: asks a
// worker's REST API (GET /mirror/flows, runtime/mirror_maker/health) what is wrong with each
// MirrorMaker flow and prints a table (flow, verdict, emit age, replication age, latency, tasks,
// next step) and, for every flow that is not HEALTHY, its evidence; `--json` prints the worker's
// JSON instead.
// `--config` reads the REST client's TLS settings (ssl.* or listeners.https.ssl.*, as a worker
// reads them) for https URLs.
//
// Exit status: 0 when every flow is HEALTHY (or there is none), 1 when one is not (or --flow
// names no flow), 2 for a usage error, 3 when the worker cannot be reached or answers something
// else than flows.
#pragma once

#include <string>
#include <vector>

namespace connectd::main {

int RunDoctor(const std::vector<std::string>& args);

}  // namespace connectd::main
