// `connectd health`: asks a worker's REST API for GET /health, for probes that have no HTTP
// client of their own (the container image's HEALTHCHECK, scripts).
#pragma once

#include <string>
#include <vector>

namespace connectd::main {

// connectd health [--url http(s)://HOST:PORT] [worker.properties]
// The URL, or the first of the worker file's `listeners` (an empty or wildcard host read as
// 127.0.0.1; TLS from its ssl.* / listeners.https.ssl.* keys). Prints the answer's body.
// Exit status: 0 HTTP 200 (serving), 1 another answer (503 while starting), 2 usage,
// 3 the worker cannot be reached.
int RunHealth(const std::vector<std::string>& args);

}  // namespace connectd::main
