// File: plugins_command.h
//
// `connectd plugins --plugin-path DIRS`: loads plugin.path as a worker would and lists every
// connector (class, aliases, type, version, file) and every plugin that failed to load. Exit 0
// if all loaded, 1 if any failed, 2 on bad arguments.
#pragma once

#include <string>
#include <vector>

namespace connectd::main {

int RunPlugins(const std::vector<std::string>& args);

}  // namespace connectd::main
