// Where a connectd binary finds what ships with it, in a build tree and in an installed one.
//
//   build tree    build/bin/connectd        build/plugins/*.so
//   install tree  P/bin/connectd            P/lib/connectd/plugins/*.so   (cmake --install, the
//   .deb)
//
// The binary is found through /proc/self/exe, so neither argv[0] (`connectd` from PATH) nor the
// working directory matters.
#pragma once

#include <filesystem>
#include <string>

namespace connectd::main {

// The running binary's own path; empty if /proc is not mounted.
std::filesystem::path ExecutablePath();

// The plugin directory shipped with the running binary: the install tree's lib/connectd/plugins,
// else the build tree's plugins/; empty when neither exists. A configured plugin.path wins over it.
std::string DefaultPluginPath();

}  // namespace connectd::main
