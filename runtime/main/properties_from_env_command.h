// `connectd properties-from-env PREFIX`: a worker config from environment variables, as Kafka
// Connect's images take it (the container entry point, packaging/container/entrypoint): each
// variable PREFIX<NAME> becomes a property, NAME lowercased with "___" read as "-", "__" as "_"
// and "_" as "." (CONNECT_BOOTSTRAP_SERVERS -> bootstrap.servers). Written to stdout as a
// properties file (config::FormatProperties): a value keeps its line breaks (a PEM, say) as
// escapes and can never add a line of its own, however it was written.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace connectd::main {

// The properties of the variables in `environment` ("NAME=value" entries) named PREFIX<NAME>.
std::map<std::string, std::string> PropertiesFromEnvironment(
    const std::vector<std::string>& environment, const std::string& prefix);

int RunPropertiesFromEnv(const std::vector<std::string>& args);

}  // namespace connectd::main
