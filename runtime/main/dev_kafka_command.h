// File: dev_kafka_command.h
//
// `connectd dev-kafka`: JVM-free demo clusters on loopback from librdkafka's mock cluster.
#pragma once

#include <string>
#include <vector>

namespace connectd::main {

// Runs the command with the arguments after "dev-kafka"; returns the process exit code.
// Blocks until SIGINT or SIGTERM.
int RunDevKafka(const std::vector<std::string>& args);

}  // namespace connectd::main
