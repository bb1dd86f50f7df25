// File: plugin_registry.h
//
// PluginRegistry: finds connector plugins on `plugin.path`, loads them and answers "which
// connector (transformation, predicate) is class X?". Loading follows Kafka Connect:
//   - `plugin.path` is a comma-separated list of directories; a plugin is a shared object (.so)
//     in one of them or in their sub-directories (or a path to a .so itself).
//   - Each connector is registered under its full class name and under the aliases Connect
//     derives: the simple name (after the last '.') and, for names ending in "Connector", the
//     simple name without it (MirrorSourceConnector -> MirrorSource). An alias two classes
//     share is registered for neither (Connect does the same).
//   - Several versions of one class may load side by side (KIP-891); a name finds the newest
//     unless a config pins a version (Find with a version spec). The same class and version
//     twice is a problem: the second copy is ignored.
// A bad plugin never stops the worker: a library that fails to dlopen, has no entry symbol,
// speaks another ABI major or declares a class already registered is logged with its file and
// reason, recorded in problems(), and the others load.
//
// Libraries stay loaded for the process's life (RTLD_NODELETE): descriptors point into them.
// Thread safety: build on one thread; afterwards the const methods may be called from any.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "connectd/plugin/abi.h"

namespace connectd::plugin {

enum class ConnectorType { kSource, kSink };

// One loaded connector class.
struct ConnectorPlugin {
  std::string class_name;
  std::vector<std::string> aliases;  // those registered (unique ones only)
  ConnectorType type;
  std::string version;
  std::string library_path;
  std::string plugin_name;                                 // the descriptor's name
  uint32_t abi_minor = CONNECTD_PLUGIN_ABI_VERSION_MINOR;  // the minor it was built against
  const connectd_connector_descriptor* descriptor;         // lives as long as the process
};

// One loaded transformation or predicate class (ABI 1.5), registered under its class name and
// its simple name (after the last '.') when no other class of its kind has the same one.
enum class StageKind { kTransformation, kPredicate };
struct StagePlugin {
  std::string class_name;
  std::vector<std::string> aliases;
  StageKind kind;
  std::string version;
  std::string library_path;
  std::string plugin_name;
  const connectd_transformation_descriptor* transformation = nullptr;  // kTransformation
  const connectd_predicate_descriptor* predicate = nullptr;            // kPredicate
};

// A plugin (or one connector of it) that did not load.
struct LoadProblem {
  std::string path;
  std::string reason;
};

class PluginRegistry {
 public:
  PluginRegistry() = default;
  PluginRegistry(const PluginRegistry&) = delete;
  PluginRegistry& operator=(const PluginRegistry&) = delete;

  // Scans every directory of a `plugin.path` value ("dir1, dir2"); never fails as a whole.
  // Java plugins found there (.jar files, directories of .class files) cannot load: they are
  // listed in java_plugins() and named in one warning at the end of the scan.
  void LoadPluginPath(std::string_view plugin_path);

  // Loads one shared object. An error names the file and the reason; it is also recorded.
  absl::Status LoadLibrary(const std::string& path);

  // Registers a plugin already in memory (built-in connectors, tests).
  absl::Status AddDescriptor(const connectd_plugin_descriptor* descriptor,
                             const std::string& origin);

  // The connector whose class name or alias is `name` (its newest version), or nullptr.
  const ConnectorPlugin* Find(std::string_view name) const;
  // The newest version of that connector within `version_spec` (a version or range, see
  // plugin_version.h; nullopt: the newest of all): nullptr when no class is `name`,
  // kInvalidArgument with Connect's message when the spec is bad or no version matches.
  absl::StatusOr<const ConnectorPlugin*> Find(std::string_view name,
                                              const std::optional<std::string>& version_spec) const;
  // The connector a connector config runs: its connector.class at its connector.plugin.version
  // (the newest when unset); nullptr when none is loaded.
  const ConnectorPlugin* FindForConfig(const std::map<std::string, std::string>& config) const;
  // The versions loaded of the connector `name`, oldest first.
  std::vector<std::string> Versions(std::string_view name) const;

  // Every loaded connector (each version), sorted by class name, then version.
  std::vector<const ConnectorPlugin*> Connectors() const;

  // The transformation or predicate class whose name or simple name is `name`, or nullptr.
  const StagePlugin* FindStage(StageKind kind, std::string_view name) const;
  // Every loaded transformation or predicate class, sorted by class name.
  std::vector<const StagePlugin*> Stages(StageKind kind) const;

  const std::vector<LoadProblem>& problems() const { return problems_; }
  const std::vector<std::string>& java_plugins() const { return java_plugins_; }

 private:
  struct StageTable {
    std::map<std::string, std::unique_ptr<StagePlugin>, std::less<>> by_class;
    std::map<std::string, const StagePlugin*, std::less<>> by_alias;
  };

  absl::Status Record(const std::string& path, absl::Status status);
  const std::vector<std::unique_ptr<ConnectorPlugin>>* VersionsOf(std::string_view name) const;
  const ConnectorPlugin* FindExact(std::string_view class_name, std::string_view version) const;
  void RecomputeAliases();
  absl::Status AddStages(const connectd_plugin_descriptor* descriptor, const std::string& origin);
  absl::Status AddStage(std::unique_ptr<StagePlugin> stage);
  StageTable& Table(StageKind kind) { return stages_[static_cast<int>(kind)]; }
  const StageTable& Table(StageKind kind) const { return stages_[static_cast<int>(kind)]; }

  // Each class's versions, oldest first; an alias names a class.
  std::map<std::string, std::vector<std::unique_ptr<ConnectorPlugin>>, std::less<>> by_class_;
  std::map<std::string, std::string, std::less<>> by_alias_;
  std::map<std::string, std::string> loaded_files_;  // real path -> as given
  std::vector<LoadProblem> problems_;
  std::vector<std::string> java_plugins_;
  StageTable stages_[2];
};

// Connect's aliases for a class name: {simple name, simple name without "Connector"}.
std::vector<std::string> ConnectAliases(std::string_view class_name);

}  // namespace connectd::plugin
