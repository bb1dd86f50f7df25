#include "runtime/herder/config_enrichment.h"

#include <algorithm>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "runtime/config/config_def.h"
#include "runtime/converters/converter_config_defs.h"
#include "runtime/converters/converter_factory.h"
#include "runtime/converters/number_converters.h"
#include "runtime/plugin/plugin_version.h"
#include "runtime/transforms/builtin_config_defs.h"
#include "runtime/transforms/transformation.h"

namespace connectd::herder {
namespace {

using config::ConfigDef;
using config::ConfigKey;

ConfigInfo* FindConfig(ConfigInfos& infos, const std::string& name) {
  for (ConfigInfo& info : infos.configs) {
    if (info.definition && info.definition->name == name) return &info;
  }
  return nullptr;
}

void AddGroup(ConfigInfos& infos, const std::string& group) {
  if (!group.empty() &&
      std::find(infos.groups.begin(), infos.groups.end(), group) == infos.groups.end()) {
    infos.groups.push_back(group);
  }
}

std::optional<std::string> Given(const ConfigMap& config, const std::string& key) {
  auto it = config.find(key);
  if (it == config.end()) return std::nullopt;
  return it->second;
}

// Validates `def`'s keys against `config` under `prefix` and appends them, in def order.
void AppendPrefixed(const ConfigDef& def, const std::string& prefix, const ConfigMap& config,
                    const ConfigMap& injected, ConfigInfos& infos) {
  ConfigMap own = injected;
  for (const auto& [key, value] : config) {
    if (absl::StartsWith(key, prefix)) own[key.substr(prefix.size())] = value;
  }
  std::vector<config::ConfigValue> values = def.Validate(own);
  for (size_t i = 0; i < def.keys().size(); ++i) {
    ConfigKey key = def.keys()[i];
    ConfigKeyInfo definition = ToKeyInfo(key);
    definition.name = prefix + key.name;
    ConfigValueInfo value{definition.name, values[i].value, values[i].recommended_values,
                          values[i].errors, true};
    if (key.type == config::Type::kPassword && value.value) value.value = "[hidden]";
    infos.error_count += static_cast<int>(value.errors.size());
    AddGroup(infos, key.group);
    infos.configs.push_back(ConfigInfo{std::move(definition), std::move(value)});
  }
}

// The classes of one stage kind, built-in and from plugins, sorted.
std::vector<std::string> StageClasses(const plugin::PluginRegistry& plugins,
                                      plugin::StageKind kind) {
  std::vector<std::string> classes = kind == plugin::StageKind::kTransformation
                                         ? transforms::BuiltInTransformationClasses()
                                         : transforms::BuiltInPredicateClasses();
  for (const plugin::StagePlugin* stage : plugins.Stages(kind)) {
    classes.push_back(stage->class_name);
  }
  std::sort(classes.begin(), classes.end());
  return classes;
}

// A stage class's ConfigDef and version; nullopt for a class neither built in nor loaded.
std::optional<std::pair<ConfigDef, std::string>> StageDef(const plugin::PluginRegistry& plugins,
                                                          plugin::StageKind kind,
                                                          const std::string& cls) {
  if (const ConfigDef* def = transforms::BuiltInStageConfigDef(cls)) {
    return std::pair{*def, BuiltInPluginVersion()};
  }
  if (const plugin::StagePlugin* stage = plugins.FindStage(kind, cls)) {
    return std::pair{PluginConfigDef(*stage), stage->version};
  }
  return std::nullopt;
}

// Connect's error when a plugin's one loaded `version` is not within `spec` (KIP-891).
std::optional<std::string> VersionError(const std::string& cls, const std::string& spec,
                                        const std::string& version) {
  absl::StatusOr<plugin::VersionRange> range = plugin::VersionRange::Parse(spec);
  if (!range.ok()) return std::string(range.status().message());
  if (range->Contains(version)) return std::nullopt;
  return absl::StrCat("Plugin ", cls, " not found that matches the version range ",
                      range->ToString(), ", available versions: [", version, "]");
}

// transforms.<a>.* or predicates.<p>.*: type and plugin.version first, then the stage's own keys
// (and, for a transformation, predicate and negate) by name, numbered from 2.
void AppendStage(const plugin::PluginRegistry& plugins, plugin::StageKind kind,
                 const std::string& alias, const ConfigMap& config, ConfigInfos& infos) {
  const bool transformation = kind == plugin::StageKind::kTransformation;
  const std::string what = transformation ? "transformation" : "predicate";
  const std::string title = transformation ? "Transformation" : "Predicate";
  const std::string prefix =
      absl::StrCat(transformation ? "transforms." : "predicates.", alias, ".");
  const std::string group = absl::StrCat(transformation ? "Transforms: " : "Predicates: ", alias);
  const std::optional<std::string> cls = Given(config, prefix + "type");
  std::optional<std::pair<ConfigDef, std::string>> stage;
  if (cls) stage = StageDef(plugins, kind, *cls);

  ConfigDef def;
  ConfigKey type;
  type.name = "type";
  type.type = config::Type::kClass;
  type.has_default = false;
  type.importance = config::Importance::kHigh;
  type.documentation = absl::StrCat("Class for the '", alias, "' ", what, ".");
  type.group = group;
  type.order_in_group = 0;
  type.width = config::Width::kLong;
  type.display_name = absl::StrCat(title, " type for ", alias);
  def.Define(type);
  ConfigKey version = type;
  version.name = "plugin.version";
  version.type = config::Type::kString;
  version.has_default = true;
  if (stage) version.default_value = stage->second;
  version.documentation = absl::StrCat("Version of the '", alias, "' ", what, ".");
  version.order_in_group = 1;
  version.display_name = absl::StrCat(title, " version for ", alias);
  def.Define(version);

  std::vector<ConfigKey> own;
  if (stage) own = stage->first.keys();
  if (transformation) {
    ConfigKey negate;
    negate.name = "negate";
    negate.type = config::Type::kBoolean;
    negate.default_value = "false";
    negate.documentation = "Whether the configured predicate should be negated.";
    negate.display_name = "negate";
    ConfigKey predicate;
    predicate.name = "predicate";
    predicate.documentation =
        "The alias of a predicate used to determine whether to apply this transformation.";
    predicate.display_name = "predicate";
    own.push_back(negate);
    own.push_back(predicate);
  }
  std::sort(own.begin(), own.end(),
            [](const ConfigKey& a, const ConfigKey& b) { return a.name < b.name; });
  int order = 2;
  for (ConfigKey key : own) {
    key.group = group;
    key.order_in_group = order++;
    def.Define(std::move(key));
  }
  const size_t first = infos.configs.size();
  AppendPrefixed(def, prefix, config, {}, infos);
  // The class and version recommendations (Connect's plugin recommenders).
  infos.configs[first].value->recommended_values = StageClasses(plugins, kind);
  if (stage) {
    ConfigValueInfo& v = *infos.configs[first + 1].value;
    v.recommended_values = {stage->second};
    if (!v.value) {
      v.value = stage->second;
    } else if (std::optional<std::string> error = VersionError(*cls, *v.value, stage->second)) {
      v.errors.push_back(*error);
      ++infos.error_count;
    }
  }
}

// key.converter, value.converter, header.converter in the order Connect lists them.
struct ConverterKind {
  const char* key;
  converters::ConverterType type;
  const char* converter_type;  // the converter.type it is configured with
};
constexpr ConverterKind kConverterKinds[] = {
    {"key.converter", converters::ConverterType::kKey, "key"},
    {"value.converter", converters::ConverterType::kValue, "value"},
    {"header.converter", converters::ConverterType::kHeader, "header"},
};

}  // namespace

std::vector<std::string> BuiltInConverterClasses(bool header) {
  std::vector<std::string> classes = {std::string(converters::kByteArrayConverter),
                                      std::string(converters::kJsonConverter),
                                      std::string(converters::kStringConverter)};
  for (std::string_view number : converters::kNumberConverters) classes.emplace_back(number);
  if (header) classes.push_back(std::string(converters::kSimpleHeaderConverter));
  std::sort(classes.begin(), classes.end());
  return classes;
}

std::string BuiltInPluginVersion() { return CONNECTD_KAFKA_COMPAT_VERSION; }

void FillVersionAndConverterKeys(const plugin::PluginRegistry& plugins,
                                 const WorkerValidation& worker,
                                 const plugin::ConnectorPlugin& plugin, ConfigInfos& infos) {
  if (ConfigInfo* info = FindConfig(infos, "connector.plugin.version")) {
    info->definition->default_value = plugin.version;
    if (!info->value->value) info->value->value = plugin.version;
    info->value->recommended_values = plugins.Versions(plugin.class_name);
  }
  const std::string* worker_converter[] = {&worker.key_converter, &worker.value_converter,
                                           &worker.header_converter};
  for (size_t i = 0; i < 3; ++i) {
    const ConverterKind& kind = kConverterKinds[i];
    ConfigInfo* info = FindConfig(infos, kind.key);
    if (info == nullptr) continue;
    const std::string& fallback = *worker_converter[i];
    if (!fallback.empty()) info->definition->default_value = fallback;
    if (!info->value->value && !fallback.empty()) info->value->value = fallback;
    info->value->recommended_values =
        BuiltInConverterClasses(kind.type == converters::ConverterType::kHeader);
    const bool known = info->value->value &&
                       !converters::CanonicalConverterClass(*info->value->value, kind.type).empty();
    if (ConfigInfo* version = FindConfig(infos, absl::StrCat(kind.key, ".plugin.version"));
        version != nullptr && known) {
      version->definition->default_value = BuiltInPluginVersion();
      version->value->recommended_values = {BuiltInPluginVersion()};
      if (!version->value->value) {
        version->value->value = BuiltInPluginVersion();
      } else if (std::optional<std::string> error = VersionError(
                     converters::CanonicalConverterClass(*info->value->value, kind.type),
                     *version->value->value, BuiltInPluginVersion())) {
        version->value->errors.push_back(*error);
        ++infos.error_count;
      }
    }
  }
}

void AppendStageKeys(const plugin::PluginRegistry& plugins, const ConfigMap& config,
                     ConfigInfos& infos) {
  for (auto [list, kind] : {std::pair{"transforms", plugin::StageKind::kTransformation},
                            std::pair{"predicates", plugin::StageKind::kPredicate}}) {
    std::optional<std::string> aliases = Given(config, list);
    if (!aliases) continue;
    for (const std::string& alias : config::SplitList(*aliases)) {
      if (!alias.empty()) AppendStage(plugins, kind, alias, config, infos);
    }
  }
}

void AppendConverterKeys(const ConfigMap& config, ConfigInfos& infos) {
  for (const ConverterKind& kind : kConverterKinds) {
    std::optional<std::string> cls = Given(config, kind.key);
    if (!cls) continue;
    const config::ConfigDef* def = converters::ConverterConfigDef(*cls);
    if (def == nullptr) continue;
    AppendPrefixed(*def, absl::StrCat(kind.key, "."), config,
                   {{"converter.type", kind.converter_type}}, infos);
  }
}

std::optional<std::vector<ConfigKeyInfo>> StageOrConverterConfigKeys(
    const plugin::PluginRegistry& plugins, const std::string& name) {
  const ConfigDef* def = transforms::BuiltInStageConfigDef(name);
  if (def == nullptr) def = converters::ConverterConfigDef(name);
  std::optional<ConfigDef> from_plugin;
  if (def == nullptr) {
    for (plugin::StageKind kind :
         {plugin::StageKind::kTransformation, plugin::StageKind::kPredicate}) {
      if (const plugin::StagePlugin* stage = plugins.FindStage(kind, name)) {
        from_plugin = PluginConfigDef(*stage);
        def = &*from_plugin;
        break;
      }
    }
  }
  if (def == nullptr) return std::nullopt;
  std::vector<ConfigKeyInfo> keys;
  for (const ConfigKey& key : def->keys()) keys.push_back(ToKeyInfo(key));
  return keys;
}

}  // namespace connectd::herder
