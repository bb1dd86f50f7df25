#include "runtime/plugin/plugin_registry.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <set>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "runtime/common/logging.h"
#include "runtime/common/status_macros.h"
#include "runtime/common/strings.h"
#include "runtime/plugin/host_api.h"
#include "runtime/plugin/plugin_version.h"

namespace connectd::plugin {
namespace {

constexpr char kLogger[] = "connectd.plugin";
constexpr int kMaxScanDepth = 4;

bool IsSharedObject(const std::filesystem::path& path) {
  return path.extension() == ".so" || path.filename().string().find(".so.") != std::string::npos;
}

// What Java's Connect would load from plugin.path: a .jar, or a directory of .class files.
bool IsJar(const std::filesystem::path& path) { return path.extension() == ".jar"; }

// The shared objects under `dir` (into `out`) and the Java plugins (into `java`: each .jar, and
// each directory holding .class files once).
void CollectLibraries(const std::filesystem::path& dir, int depth, std::vector<std::string>& out,
                      std::vector<std::string>& java) {
  std::error_code ec;
  std::vector<std::filesystem::path> entries;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    entries.push_back(entry.path());
  }
  std::sort(entries.begin(), entries.end());  // deterministic load order
  bool classes = false;
  for (const auto& path : entries) {
    if (path.filename().string().starts_with(".")) continue;
    if (std::filesystem::is_directory(path, ec)) {
      if (depth < kMaxScanDepth) CollectLibraries(path, depth + 1, out, java);
    } else if (IsSharedObject(path)) {
      out.push_back(path.string());
    } else if (IsJar(path)) {
      java.push_back(path.string());
    } else if (path.extension() == ".class" && !classes) {
      classes = true;
      java.push_back(dir.string() + "/");
    }
  }
}

std::string TypeName(int32_t type) {
  return type == CONNECTD_CONNECTOR_TYPE_SOURCE ? "source" : "sink";
}

}  // namespace

std::vector<std::string> ConnectAliases(std::string_view class_name) {
  std::vector<std::string> aliases;
  size_t dot = class_name.rfind('.');
  std::string simple(dot == std::string_view::npos ? class_name : class_name.substr(dot + 1));
  if (simple.empty()) return aliases;
  if (simple != class_name) aliases.push_back(simple);
  constexpr std::string_view kSuffix = "Connector";
  if (simple.size() > kSuffix.size() && simple.ends_with(kSuffix)) {
    aliases.push_back(simple.substr(0, simple.size() - kSuffix.size()));
  }
  return aliases;
}

void PluginRegistry::LoadPluginPath(std::string_view plugin_path) {
  for (absl::string_view raw : absl::StrSplit(AsAbsl(plugin_path), ',', absl::SkipWhitespace())) {
    std::filesystem::path entry(std::string(absl::StripAsciiWhitespace(raw)));
    std::error_code ec;
    if (std::filesystem::is_regular_file(entry, ec) && IsJar(entry)) {
      java_plugins_.push_back(entry.string());
      continue;
    }
    if (std::filesystem::is_regular_file(entry, ec)) {
      (void)LoadLibrary(entry.string());
      continue;
    }
    if (!std::filesystem::is_directory(entry, ec)) {
      (void)Record(entry.string(), absl::NotFoundError("plugin.path entry is not a directory"));
      continue;
    }
    std::vector<std::string> libraries;
    CollectLibraries(entry, 0, libraries, java_plugins_);
    for (const std::string& library : libraries) (void)LoadLibrary(library);
  }
  // The same jar named directly and found in a scanned directory is one plugin.
  std::set<std::string> seen;
  std::erase_if(java_plugins_, [&seen](const std::string& p) { return !seen.insert(p).second; });
  if (!java_plugins_.empty()) {
    constexpr size_t kNamed = 10;
    std::vector<std::string> named(java_plugins_.begin(),
                                   java_plugins_.begin() + std::min(kNamed, java_plugins_.size()));
    CONNECTD_LOG(kWarn, kLogger)
        << "plugin.path holds " << java_plugins_.size()
        << " Java plugin file(s) or class director(ies) that connectd cannot load (it loads "
           "shared objects built against its plugin ABI; Java connectors need a Java worker): "
        << absl::StrJoin(named, ", ")
        << (java_plugins_.size() > kNamed
                ? absl::StrCat(" and ", java_plugins_.size() - kNamed, " more")
                : std::string());
  }
}

absl::Status PluginRegistry::Record(const std::string& path, absl::Status status) {
  if (!status.ok()) {
    CONNECTD_LOG(kError, kLogger) << "Skipping plugin " << path << ": " << status.message();
    problems_.push_back({path, std::string(status.message())});
  }
  return status;
}

absl::Status PluginRegistry::LoadLibrary(const std::string& path) {
  std::error_code ec;
  std::string real = std::filesystem::weakly_canonical(path, ec).string();
  if (ec) real = path;
  if (loaded_files_.count(real) != 0) return absl::OkStatus();  // same file via two routes

  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (handle == nullptr) {
    const char* why = dlerror();
    return Record(path, absl::FailedPreconditionError(
                            absl::StrCat("cannot load library: ", why ? why : "unknown error")));
  }
  dlerror();
  auto entry =
      reinterpret_cast<connectd_plugin_entry_fn>(dlsym(handle, CONNECTD_PLUGIN_ENTRY_SYMBOL));
  if (entry == nullptr) {
    dlclose(handle);  // RTLD_NODELETE keeps it mapped; nothing of it is used
    return Record(path, absl::NotFoundError(
                            absl::StrCat("no entry symbol '", CONNECTD_PLUGIN_ENTRY_SYMBOL, "'")));
  }
  loaded_files_[real] = path;
  HookError error;
  const connectd_plugin_descriptor* descriptor = entry(HostApi(), ToHandle(&error));
  if (descriptor == nullptr) {
    return Record(path, absl::FailedPreconditionError(absl::StrCat(
                            "plugin entry failed: ",
                            error.message.empty() ? "no descriptor returned" : error.message)));
  }
  return Record(path, AddDescriptor(descriptor, path));
}

absl::Status PluginRegistry::AddDescriptor(const connectd_plugin_descriptor* descriptor,
                                           const std::string& origin) {
  if (descriptor->struct_size < 3 * sizeof(uint32_t)) {
    return absl::InvalidArgumentError("plugin descriptor too small to carry a version");
  }
  if (descriptor->abi_major != CONNECTD_PLUGIN_ABI_VERSION_MAJOR) {
    return absl::FailedPreconditionError(absl::StrCat(
        "plugin ABI version ", descriptor->abi_major, ".", descriptor->abi_minor,
        " is not compatible with the worker's ABI version ", CONNECTD_PLUGIN_ABI_VERSION_MAJOR, ".",
        CONNECTD_PLUGIN_ABI_VERSION_MINOR, " (the major versions differ)"));
  }
  if (descriptor->struct_size < offsetof(connectd_plugin_descriptor, transformations)) {
    return absl::InvalidArgumentError("plugin descriptor is shorter than ABI 1.0's");
  }
  const char* plugin_name = descriptor->name ? descriptor->name : "(unnamed)";
  if (descriptor->abi_minor > CONNECTD_PLUGIN_ABI_VERSION_MINOR) {
    CONNECTD_LOG(kWarn, kLogger) << "Plugin " << plugin_name << " (" << origin
                                 << ") was built for ABI 1." << descriptor->abi_minor
                                 << ", newer than the worker's 1."
                                 << CONNECTD_PLUGIN_ABI_VERSION_MINOR
                                 << "; features newer than the worker's are unused";
  }
  absl::Status first_error;
  for (size_t i = 0; i < descriptor->connector_count; ++i) {
    const connectd_connector_descriptor* c = descriptor->connectors[i];
    absl::Status status;
    if (c == nullptr || c->struct_size < sizeof(connectd_connector_descriptor) ||
        c->class_name == nullptr || c->connector == nullptr) {
      status = absl::InvalidArgumentError(absl::StrCat("connector #", i, " is malformed"));
    } else if (c->type != CONNECTD_CONNECTOR_TYPE_SOURCE &&
               c->type != CONNECTD_CONNECTOR_TYPE_SINK) {
      status = absl::InvalidArgumentError(
          absl::StrCat(c->class_name, ": unknown connector type ", c->type));
    } else if ((c->type == CONNECTD_CONNECTOR_TYPE_SOURCE && c->source_task == nullptr) ||
               (c->type == CONNECTD_CONNECTOR_TYPE_SINK && c->sink_task == nullptr)) {
      status = absl::InvalidArgumentError(absl::StrCat(c->class_name, ": no task vtable"));
    } else if (const ConnectorPlugin* same =
                   FindExact(c->class_name, c->version ? c->version : "")) {
      status = absl::AlreadyExistsError(absl::StrCat("connector class ", c->class_name, " ",
                                                     same->version, " is already provided by ",
                                                     same->library_path, "; this copy is ignored"));
    }
    if (!status.ok()) {
      if (first_error.ok()) first_error = status;
      continue;
    }
    auto plugin = std::make_unique<ConnectorPlugin>();
    plugin->class_name = c->class_name;
    plugin->type =
        c->type == CONNECTD_CONNECTOR_TYPE_SOURCE ? ConnectorType::kSource : ConnectorType::kSink;
    plugin->version = c->version ? c->version : "";
    plugin->library_path = origin;
    plugin->plugin_name = plugin_name;
    plugin->abi_minor = descriptor->abi_minor;
    plugin->descriptor = c;
    CONNECTD_LOG(kInfo, kLogger) << "Loaded " << TypeName(c->type) << " connector "
                                 << plugin->class_name << " " << plugin->version << " from "
                                 << origin << " (ABI " << descriptor->abi_major << "."
                                 << descriptor->abi_minor << ")";
    std::vector<std::unique_ptr<ConnectorPlugin>>& versions = by_class_[plugin->class_name];
    versions.push_back(std::move(plugin));
    std::sort(versions.begin(), versions.end(), [](const auto& a, const auto& b) {
      return CompareVersions(a->version, b->version) < 0;
    });
  }
  RecomputeAliases();
  if (absl::Status stages = AddStages(descriptor, origin); first_error.ok()) first_error = stages;
  return first_error;
}

absl::Status PluginRegistry::AddStages(const connectd_plugin_descriptor* descriptor,
                                       const std::string& origin) {
  if (descriptor->abi_minor < 5 || descriptor->struct_size < sizeof(connectd_plugin_descriptor)) {
    return absl::OkStatus();
  }
  const char* plugin_name = descriptor->name ? descriptor->name : "(unnamed)";
  absl::Status first_error;
  const auto add = [&](absl::Status status) {
    if (!status.ok() && first_error.ok()) first_error = status;
  };
  if (descriptor->transformations == nullptr && descriptor->transformation_count > 0) {
    add(absl::InvalidArgumentError("the transformation list is NULL"));
  } else {
    for (size_t i = 0; i < descriptor->transformation_count; ++i) {
      const connectd_transformation_descriptor* t = descriptor->transformations[i];
      if (t == nullptr || t->struct_size < sizeof(connectd_transformation_descriptor) ||
          t->class_name == nullptr || t->vtable == nullptr ||
          t->vtable->struct_size < sizeof(connectd_transformation_vtable) ||
          t->vtable->create == nullptr || t->vtable->configure == nullptr ||
          t->vtable->apply == nullptr || t->vtable->destroy == nullptr) {
        add(absl::InvalidArgumentError(absl::StrCat("transformation #", i, " is malformed")));
        continue;
      }
      auto stage = std::make_unique<StagePlugin>();
      stage->class_name = t->class_name;
      stage->kind = StageKind::kTransformation;
      stage->version = t->version ? t->version : "";
      stage->library_path = origin;
      stage->plugin_name = plugin_name;
      stage->transformation = t;
      add(AddStage(std::move(stage)));
    }
  }
  if (descriptor->predicates == nullptr && descriptor->predicate_count > 0) {
    add(absl::InvalidArgumentError("the predicate list is NULL"));
  } else {
    for (size_t i = 0; i < descriptor->predicate_count; ++i) {
      const connectd_predicate_descriptor* p = descriptor->predicates[i];
      if (p == nullptr || p->struct_size < sizeof(connectd_predicate_descriptor) ||
          p->class_name == nullptr || p->vtable == nullptr ||
          p->vtable->struct_size < sizeof(connectd_predicate_vtable) ||
          p->vtable->create == nullptr || p->vtable->configure == nullptr ||
          p->vtable->test == nullptr || p->vtable->destroy == nullptr) {
        add(absl::InvalidArgumentError(absl::StrCat("predicate #", i, " is malformed")));
        continue;
      }
      auto stage = std::make_unique<StagePlugin>();
      stage->class_name = p->class_name;
      stage->kind = StageKind::kPredicate;
      stage->version = p->version ? p->version : "";
      stage->library_path = origin;
      stage->plugin_name = plugin_name;
      stage->predicate = p;
      add(AddStage(std::move(stage)));
    }
  }
  return first_error;
}

absl::Status PluginRegistry::AddStage(std::unique_ptr<StagePlugin> stage) {
  StageTable& table = Table(stage->kind);
  const char* kind = stage->kind == StageKind::kTransformation ? "transformation" : "predicate";
  if (auto it = table.by_class.find(stage->class_name); it != table.by_class.end()) {
    return absl::AlreadyExistsError(
        absl::StrCat(kind, " class ", stage->class_name, " is already provided by ",
                     it->second->library_path, "; this copy is ignored"));
  }
  CONNECTD_LOG(kInfo, kLogger) << "Loaded " << kind << " " << stage->class_name << " "
                               << stage->version << " from " << stage->library_path;
  table.by_class[stage->class_name] = std::move(stage);
  // Aliases: the simple name, when no other class of this kind has it.
  std::map<std::string, std::vector<StagePlugin*>> candidates;
  for (auto& [name, plugin] : table.by_class) {
    plugin->aliases.clear();
    const size_t dot = name.rfind('.');
    if (dot != std::string::npos && dot + 1 < name.size()) {
      candidates[name.substr(dot + 1)].push_back(plugin.get());
    }
  }
  table.by_alias.clear();
  for (auto& [alias, plugins] : candidates) {
    if (plugins.size() == 1 && table.by_class.count(alias) == 0) {
      plugins[0]->aliases.push_back(alias);
      table.by_alias[alias] = plugins[0];
    }
  }
  return absl::OkStatus();
}

const StagePlugin* PluginRegistry::FindStage(StageKind kind, std::string_view name) const {
  const StageTable& table = Table(kind);
  if (auto it = table.by_class.find(name); it != table.by_class.end()) return it->second.get();
  if (auto it = table.by_alias.find(name); it != table.by_alias.end()) return it->second;
  return nullptr;
}

std::vector<const StagePlugin*> PluginRegistry::Stages(StageKind kind) const {
  std::vector<const StagePlugin*> out;
  for (const auto& [name, plugin] : Table(kind).by_class) out.push_back(plugin.get());
  return out;
}

void PluginRegistry::RecomputeAliases() {
  std::map<std::string, std::vector<std::string>> candidates;
  for (auto& [name, versions] : by_class_) {
    for (std::string& alias : ConnectAliases(name)) candidates[alias].push_back(name);
  }
  by_alias_.clear();
  for (auto& [name, versions] : by_class_) {
    for (auto& plugin : versions) plugin->aliases.clear();
  }
  for (auto& [alias, classes] : candidates) {
    if (classes.size() == 1 && by_class_.count(alias) == 0) {
      for (auto& plugin : by_class_[classes[0]]) plugin->aliases.push_back(alias);
      by_alias_[alias] = classes[0];
    }
  }
}

const std::vector<std::unique_ptr<ConnectorPlugin>>* PluginRegistry::VersionsOf(
    std::string_view name) const {
  auto it = by_class_.find(name);
  if (it == by_class_.end()) {
    auto alias = by_alias_.find(name);
    if (alias == by_alias_.end()) return nullptr;
    it = by_class_.find(alias->second);
  }
  return it == by_class_.end() || it->second.empty() ? nullptr : &it->second;
}

const ConnectorPlugin* PluginRegistry::FindExact(std::string_view class_name,
                                                 std::string_view version) const {
  auto it = by_class_.find(class_name);
  if (it == by_class_.end()) return nullptr;
  for (const auto& plugin : it->second) {
    if (plugin->version == version) return plugin.get();
  }
  return nullptr;
}

const ConnectorPlugin* PluginRegistry::Find(std::string_view name) const {
  const auto* versions = VersionsOf(name);
  return versions == nullptr ? nullptr : versions->back().get();
}

absl::StatusOr<const ConnectorPlugin*> PluginRegistry::Find(
    std::string_view name, const std::optional<std::string>& version_spec) const {
  const auto* versions = VersionsOf(name);
  if (versions == nullptr) return nullptr;
  if (!version_spec) return versions->back().get();
  CONNECTD_ASSIGN_OR_RETURN(VersionRange range, VersionRange::Parse(*version_spec));
  for (auto it = versions->rbegin(); it != versions->rend(); ++it) {
    if (range.Contains((*it)->version)) return it->get();
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "Plugin ", versions->back()->class_name, " not found that matches the version range ",
      range.ToString(), ", available versions: [", absl::StrJoin(Versions(name), ", "), "]"));
}

const ConnectorPlugin* PluginRegistry::FindForConfig(
    const std::map<std::string, std::string>& config) const {
  auto cls = config.find("connector.class");
  if (cls == config.end()) return nullptr;
  std::optional<std::string> version;
  if (auto v = config.find("connector.plugin.version"); v != config.end()) version = v->second;
  absl::StatusOr<const ConnectorPlugin*> plugin = Find(cls->second, version);
  return plugin.ok() ? *plugin : nullptr;
}

std::vector<std::string> PluginRegistry::Versions(std::string_view name) const {
  std::vector<std::string> out;
  if (const auto* versions = VersionsOf(name)) {
    for (const auto& plugin : *versions) out.push_back(plugin->version);
  }
  return out;
}

std::vector<const ConnectorPlugin*> PluginRegistry::Connectors() const {
  std::vector<const ConnectorPlugin*> out;
  for (const auto& [name, versions] : by_class_) {
    for (const auto& plugin : versions) out.push_back(plugin.get());
  }
  return out;
}

}  // namespace connectd::plugin
