#include "runtime/main/plugins_command.h"

#include <iostream>

#include "runtime/main/install_layout.h"
#include "runtime/plugin/plugin_registry.h"

namespace connectd::main {

int RunPlugins(const std::vector<std::string>& args) {
  std::string plugin_path;
  for (size_t i = 0; i < args.size(); ++i) {
    if ((args[i] == "--plugin-path" || args[i] == "--plugin.path") && i + 1 < args.size()) {
      plugin_path = args[++i];
    } else {
      std::cerr << "usage: connectd plugins [--plugin-path DIR[,DIR...]]\n";
      return 2;
    }
  }
  if (plugin_path.empty()) plugin_path = DefaultPluginPath();
  if (plugin_path.empty()) {
    std::cerr
        << "connectd plugins: no plugins are installed with this binary; give --plugin-path\n";
    return 2;
  }
  plugin::PluginRegistry registry;
  registry.LoadPluginPath(plugin_path);
  for (const plugin::ConnectorPlugin* c : registry.Connectors()) {
    std::cout << (c->type == plugin::ConnectorType::kSource ? "source" : "sink") << "\t"
              << c->class_name << "\t" << c->version << "\taliases=";
    for (size_t i = 0; i < c->aliases.size(); ++i) std::cout << (i ? "," : "") << c->aliases[i];
    std::cout << "\tabi=1." << c->abi_minor << "\t" << c->library_path << "\n";
  }
  for (const plugin::LoadProblem& problem : registry.problems()) {
    std::cout << "error\t" << problem.path << "\t" << problem.reason << "\n";
  }
  return registry.problems().empty() ? 0 : 1;
}

}  // namespace connectd::main
