#include "runtime/herder/connector_validation.h"

#include <algorithm>
#include <set>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "jvm/java_client_config.h"
#include "runtime/config/config_providers.h"
#include "runtime/config/connector_config.h"
#include "runtime/converters/converter_factory.h"
#include "runtime/herder/config_enrichment.h"
#include "runtime/herder_api/herder.h"
#include "runtime/plugin/plugin_instances.h"
#include "runtime/plugin/plugin_stages.h"
#include "runtime/plugin/plugin_version.h"
#include "runtime/transforms/builtin_config_defs.h"
#include "runtime/transforms/transformation_chain.h"
#include "runtime/worker/topic_creation.h"

namespace connectd::herder {
namespace {

config::Type FromAbiType(int32_t type) {
  switch (type) {
    case CONNECTD_CONFIG_TYPE_BOOLEAN:
      return config::Type::kBoolean;
    case CONNECTD_CONFIG_TYPE_INT:
      return config::Type::kInt;
    case CONNECTD_CONFIG_TYPE_SHORT:
      return config::Type::kShort;
    case CONNECTD_CONFIG_TYPE_LONG:
      return config::Type::kLong;
    case CONNECTD_CONFIG_TYPE_DOUBLE:
      return config::Type::kDouble;
    case CONNECTD_CONFIG_TYPE_LIST:
      return config::Type::kList;
    case CONNECTD_CONFIG_TYPE_CLASS:
      return config::Type::kClass;
    case CONNECTD_CONFIG_TYPE_PASSWORD:
      return config::Type::kPassword;
    default:
      return config::Type::kString;
  }
}

// A context for Connector.validate: nothing may be requested of an unstarted instance.
void AddError(ConfigInfos& infos, const std::string& name, const std::string& message) {
  for (ConfigInfo& info : infos.configs) {
    if (info.value && info.value->name == name) {
      info.value->errors.push_back(message);
      ++infos.error_count;
      return;
    }
  }
  ConfigValueInfo value{name, std::nullopt, {}, {message}, true};
  infos.configs.insert(infos.configs.begin(), ConfigInfo{std::nullopt, value});
  ++infos.error_count;
}

void AppendValidated(const config::ConfigDef& def, const ConfigMap& config, ConfigInfos& infos) {
  std::vector<config::ConfigValue> values = def.Validate(config);
  for (size_t i = 0; i < def.keys().size(); ++i) {
    const config::ConfigKey& key = def.keys()[i];
    config::ConfigValue& value = values[i];
    ConfigInfo info;
    info.definition = ToKeyInfo(key);
    ConfigValueInfo v{value.name, value.value, value.recommended_values, value.errors,
                      value.visible};
    if (key.type == config::Type::kPassword && v.value) v.value = "[hidden]";
    infos.error_count += static_cast<int>(v.errors.size());
    info.value = std::move(v);
    infos.configs.push_back(std::move(info));
  }
  for (const std::string& group : def.Groups()) {
    if (std::find(infos.groups.begin(), infos.groups.end(), group) == infos.groups.end()) {
      infos.groups.push_back(group);
    }
  }
}

// Client keys whose values Java's client ConfigDefs type PASSWORD: validation shows "[hidden]".
bool IsClientPassword(const std::string& key) {
  static const auto* passwords = new std::set<std::string>{
      "sasl.jaas.config",
      "sasl.oauthbearer.client.credentials.client.secret",
      "ssl.key.password",
      "ssl.keystore.certificate.chain",
      "ssl.keystore.key",
      "ssl.keystore.password",
      "ssl.truststore.certificates",
      "ssl.truststore.password",
  };
  return passwords->count(key) > 0;
}

// What the client the overrides go into would refuse (jvm/java_client_config.h: keys that load
// code or run commands, Kerberos names out of syntax, token URLs not allowed, login modules
// refused, ...), by override key: each error goes to the overrides it names, or to all of them
// when it names none. Checked here so
// that a hostile config is refused when it is written, not when a task starts. Values with a
// config-provider reference are resolved only at task start, and checked there.
std::map<std::string, std::vector<std::string>> RefusedByTheClient(
    const WorkerValidation& worker, const std::string& client,
    const std::map<std::string, std::string>& overrides) {
  std::map<std::string, std::vector<std::string>> refused;
  if (overrides.empty()) return refused;
  for (const auto& [key, value] : overrides) {
    if (config::ConfigProviders::HasReference(value)) return refused;
  }
  std::map<std::string, std::string> java;
  if (auto it = worker.worker_clients.find(client); it != worker.worker_clients.end()) {
    java = it->second;
  }
  for (const auto& [key, value] : overrides) java[key] = value;
  const jvm::ClientRole role = client == "producer"   ? jvm::ClientRole::kProducer
                               : client == "consumer" ? jvm::ClientRole::kConsumer
                                                      : jvm::ClientRole::kAdmin;
  for (const std::string& error : jvm::TranslateJavaClientConfig(java, role).errors) {
    bool named = false;
    for (const auto& [key, value] : overrides) {
      if (!absl::StrContains(error, key)) continue;
      refused[key].push_back(error);
      named = true;
    }
    // Naming none of them, the error comes of the overrides together (a mechanism without its
    // JAAS settings, say): each carries it.
    if (!named) {
      for (const auto& [key, value] : overrides) refused[key].push_back(error);
    }
  }
  return refused;
}

// AbstractHerder's rule for which clients a connector uses, hence whose overrides count: a
// source produces (and creates topics through an admin when it sets topic.creation.*); a sink
// consumes (and produces through an admin-created DLQ when it names one); a distributed source
// with separate offsets-topic clients also consumes and administers.
void AppendClientOverrides(const WorkerValidation& worker, bool sink, const ConfigMap& config,
                           ConfigInfos& infos) {
  auto non_blank = [&](const char* key) {
    auto it = config.find(key);
    return it != config.end() && !absl::StripAsciiWhitespace(it->second).empty();
  };
  const bool dlq = sink && non_blank("errors.deadletterqueue.topic.name");
  const bool topic_creation =
      !sink && std::any_of(config.begin(), config.end(), [](const auto& entry) {
        return absl::StartsWith(entry.first, "topic.creation.");
      });
  const bool offsets_clients = !sink && worker.distributed &&
                               (worker.exactly_once_source || non_blank("offsets.storage.topic"));
  const std::pair<const char*, bool> clients[] = {
      {"producer", !sink || dlq},
      {"consumer", sink || offsets_clients},
      {"admin", topic_creation || dlq || offsets_clients},
  };
  for (const auto& [client, used] : clients) {
    if (!used) continue;
    const std::string prefix = absl::StrCat(client, ".override.");
    const std::map<std::string, std::string> overrides = config::ClientOverrides(config, client);
    const std::map<std::string, std::vector<std::string>> refused =
        RefusedByTheClient(worker, client, overrides);
    for (const auto& [key, value] : overrides) {
      ConfigValueInfo v{
          prefix + key, IsClientPassword(key) ? std::string("[hidden]") : value, {}, {}, true};
      if (!worker.override_policy.Allows(key)) {
        v.errors.push_back(worker.override_policy.Refusal(key));
      } else if (auto it = refused.find(key); it != refused.end()) {
        for (const std::string& error : it->second) {
          v.errors.push_back(absl::StrCat(prefix, key, ": ", error));
        }
      }
      infos.error_count += static_cast<int>(v.errors.size());
      infos.configs.push_back(ConfigInfo{std::nullopt, std::move(v)});
    }
  }
}

}  // namespace

config::ConfigDef PluginConfigDef(const connectd_config_key* keys, size_t count) {
  config::ConfigDef def;
  for (size_t i = 0; i < count && keys != nullptr; ++i) {
    const connectd_config_key& k = keys[i];
    if (k.struct_size < sizeof(connectd_config_key) || k.name == nullptr) continue;
    config::ConfigKey key;
    key.name = k.name;
    key.type = FromAbiType(k.type);
    key.has_default = k.has_default != 0;
    if (k.default_value) key.default_value = k.default_value;
    key.importance = k.importance == CONNECTD_CONFIG_IMPORTANCE_HIGH  ? config::Importance::kHigh
                     : k.importance == CONNECTD_CONFIG_IMPORTANCE_LOW ? config::Importance::kLow
                                                                      : config::Importance::kMedium;
    key.documentation = k.documentation ? k.documentation : "";
    key.group = k.group ? k.group : "";
    key.order_in_group = k.order_in_group;
    key.width = static_cast<config::Width>(std::clamp(k.width, 0, 3));
    key.display_name = k.display_name ? k.display_name : k.name;
    switch (k.validator) {
      case CONNECTD_VALIDATOR_RANGE:
        key.validator = config::Validator::Between(k.range_min, k.range_max);
        break;
      case CONNECTD_VALIDATOR_NON_EMPTY_STRING:
        key.validator = config::Validator::NonEmpty();
        break;
      case CONNECTD_VALIDATOR_VALID_STRING:
      case CONNECTD_VALIDATOR_VALID_LIST: {
        std::vector<std::string> valid;
        for (size_t v = 0; v < k.valid_value_count; ++v) valid.emplace_back(k.valid_values[v]);
        key.validator =
            k.validator == CONNECTD_VALIDATOR_VALID_STRING
                ? config::Validator::In(std::move(valid))
                : config::Validator{config::Validator::Kind::kValidList, 0, 0, std::move(valid)};
        break;
      }
      default:
        break;
    }
    def.Define(std::move(key));
  }
  return def;
}

config::ConfigDef PluginConfigDef(const plugin::ConnectorPlugin& plugin) {
  return PluginConfigDef(plugin.descriptor->config_keys, plugin.descriptor->config_key_count);
}

config::ConfigDef PluginConfigDef(const plugin::StagePlugin& stage) {
  return stage.transformation != nullptr
             ? PluginConfigDef(stage.transformation->config_keys,
                               stage.transformation->config_key_count)
             : PluginConfigDef(stage.predicate->config_keys, stage.predicate->config_key_count);
}

ConfigKeyInfo ToKeyInfo(const config::ConfigKey& key) {
  ConfigKeyInfo info;
  info.name = key.name;
  info.type = std::string(config::TypeName(key.type));
  info.required = !key.has_default;
  if (key.has_default && key.default_value) {
    info.default_value = key.type == config::Type::kPassword ? "[hidden]" : *key.default_value;
  }
  info.importance = std::string(config::ImportanceName(key.importance));
  info.documentation = key.documentation;
  if (!key.group.empty()) info.group = key.group;
  info.width = std::string(config::WidthName(key.width));
  info.display_name = key.display_name.empty() ? key.name : key.display_name;
  info.dependents = key.dependents;
  info.order_in_group = key.order_in_group;
  return info;
}

void SetWorkerClients(const config::WorkerConfig& worker, WorkerValidation& validation) {
  using Client = config::WorkerConfig::Client;
  validation.worker_clients = {{"producer", worker.ClientJava(Client::kProducer)},
                               {"consumer", worker.ClientJava(Client::kConsumer)},
                               {"admin", worker.ClientJava(Client::kAdmin)}};
}

void SetWorkerConverters(const config::ParsedConfig& worker, WorkerValidation& validation) {
  auto canonical = [&](const char* key, converters::ConverterType type) {
    std::optional<std::string> cls = worker.GetString(key);
    if (!cls) return std::string();
    std::string full = converters::CanonicalConverterClass(*cls, type);
    return full.empty() ? *cls : full;
  };
  validation.key_converter = canonical("key.converter", converters::ConverterType::kKey);
  validation.value_converter = canonical("value.converter", converters::ConverterType::kValue);
  validation.header_converter = canonical("header.converter", converters::ConverterType::kHeader);
}

absl::StatusOr<ConfigInfos> ValidateConnectorConfig(const plugin::PluginRegistry& plugins,
                                                    const WorkerValidation& worker,
                                                    const ConfigMap& config) {
  auto cls = config.find("connector.class");
  if (cls == config.end() || cls->second.empty()) {
    return absl::InvalidArgumentError("Connector config contains no connector type");
  }
  std::optional<std::string> version_spec;
  if (auto v = config.find("connector.plugin.version"); v != config.end()) version_spec = v->second;
  absl::StatusOr<const plugin::ConnectorPlugin*> found = plugins.Find(cls->second, version_spec);
  if (found.ok() && *found == nullptr) {
    std::set<std::string> available;
    for (const plugin::ConnectorPlugin* p : plugins.Connectors()) available.insert(p->class_name);
    return absl::InvalidArgumentError(
        absl::StrCat("Failed to find any class that implements Connector and which name matches ",
                     cls->second, ", available connectors are: ", absl::StrJoin(available, ", ")));
  }
  ConfigInfos infos;
  infos.name = cls->second;
  if (!found.ok()) {
    // No loaded version matches: Connect validates the framework keys common to every
    // connector only, with the version error on the class and the version keys.
    infos.name = plugins.Find(cls->second)->class_name;
    AppendValidated(config::BaseConnectorConfigDef(), config, infos);
    AddError(infos, "connector.class", std::string(found.status().message()));
    AddError(infos, "connector.plugin.version", std::string(found.status().message()));
    // The version keys as Connect's recommenders leave them: the connector's versions, and
    // converter versions hidden (no converter was resolved).
    for (ConfigInfo& info : infos.configs) {
      if (!info.definition) continue;
      const std::string& name = info.definition->name;
      if (name == "connector.plugin.version") {
        info.definition->default_value = plugins.Find(cls->second)->version;
        info.value->recommended_values = plugins.Versions(cls->second);
      } else if (absl::EndsWith(name, ".converter.plugin.version")) {
        info.value->visible = false;
      }
    }
    return infos;
  }
  const plugin::ConnectorPlugin* plugin = *found;
  bool sink = plugin->type == plugin::ConnectorType::kSink;
  AppendValidated(config::ConnectorConfigDef(sink ? config::ConnectorKind::kSink
                                                  : config::ConnectorKind::kSource),
                  config, infos);
  FillVersionAndConverterKeys(plugins, worker, *plugin, infos);
  if (sink) {
    if (absl::Status topics = config::ValidateSinkTopics(config); !topics.ok()) {
      AddError(infos, "topics", std::string(topics.message()));
      AddError(infos, "topics.regex", std::string(topics.message()));
    }
  }
  for (const auto& [key, type] :
       {std::pair{"key.converter", converters::ConverterType::kKey},
        std::pair{"value.converter", converters::ConverterType::kValue},
        std::pair{"header.converter", converters::ConverterType::kHeader}}) {
    auto it = config.find(key);
    if (it != config.end() && converters::CanonicalConverterClass(it->second, type).empty()) {
      AddError(infos, key,
               absl::StrCat("Converter ", it->second,
                            " is not supported by connectd: use ByteArrayConverter, "
                            "StringConverter, JsonConverter or Kafka's Boolean, Short, Integer, "
                            "Long, Float or Double converter"));
    }
  }
  if (!sink) {
    if (absl::StatusOr<std::unique_ptr<worker::TopicCreation>> creation =
            worker::TopicCreation::FromConfigs(true, config);
        !creation.ok()) {
      AddError(infos, "topic.creation.groups", std::string(creation.status().message()));
    }
  }
  AppendStageKeys(plugins, config, infos);
  // The transformation chain as the task will build it (ConnectorConfig.enrich validates each
  // transform's and predicate's configs).
  const plugin::PluginStages stages(plugins);
  if (absl::StatusOr<transforms::TransformationChain> chain =
          transforms::TransformationChain::FromConnectorConfig(config, &stages);
      !chain.ok()) {
    AddError(infos, "transforms", std::string(chain.status().message()));
  }
  AppendValidated(PluginConfigDef(*plugin), config, infos);

  // The connector's own validate(), on a fresh instance that is never started.
  plugin::DetachedConnectorContext context;
  absl::StatusOr<std::unique_ptr<plugin::ConnectorInstance>> instance =
      plugin::ConnectorInstance::Create(*plugin, &context);
  if (instance.ok()) {
    plugin::Props props(config.begin(), config.end());
    absl::StatusOr<plugin::ValidationErrors> errors = (*instance)->Validate(props);
    if (!errors.ok()) {
      AddError(infos, "connector.class", std::string(errors.status().message()));
    } else {
      for (const auto& [name, messages] : *errors) {
        for (const std::string& message : messages) AddError(infos, name, message);
      }
    }
  }
  AppendConverterKeys(config, infos);
  AppendClientOverrides(worker, sink, config, infos);
  return infos;
}

std::string ValidationFailureMessage(const ConfigInfos& infos) {
  std::vector<std::string> errors;
  for (const ConfigInfo& info : infos.configs) {
    if (!info.value) continue;
    for (const std::string& e : info.value->errors) errors.push_back(e);
  }
  return absl::StrCat("Connector configuration is invalid and contains the following ",
                      errors.size(), " error(s):\n", absl::StrJoin(errors, "\n"),
                      "\nYou can also find the above list of errors at the endpoint "
                      "`/connector-plugins/{connectorType}/config/validate`");
}

absl::StatusOr<ConfigInfos> ValidateForRest(const plugin::PluginRegistry& plugins,
                                            const WorkerValidation& worker,
                                            const ConfigMap& config) {
  absl::StatusOr<ConfigInfos> infos = ValidateConnectorConfig(plugins, worker, config);
  if (infos.ok()) return infos;
  // Connect answers these from its async validation as 500 "<exception class>: <message>".
  const char* exception = absl::StrContains(infos.status().message(), "no connector type")
                              ? "org.apache.kafka.connect.runtime.rest.errors.BadRequestException"
                              : "org.apache.kafka.connect.errors.ConnectException";
  return WithHttpStatus(
      absl::InternalError(absl::StrCat(exception, ": ", infos.status().message())), 500);
}

absl::Status ValidateForWrite(const plugin::PluginRegistry& plugins, const WorkerValidation& worker,
                              const ConfigMap& config) {
  absl::StatusOr<ConfigInfos> validation = ValidateConnectorConfig(plugins, worker, config);
  // No connector.class, or one no plugin provides: Java 4.4 answers 400 for both.
  if (!validation.ok()) return WithHttpStatus(validation.status(), 400);
  if (validation->error_count > 0) {
    return absl::InvalidArgumentError(ValidationFailureMessage(*validation));
  }
  return absl::OkStatus();
}

ConnectorType ConnectorTypeOf(const plugin::PluginRegistry& plugins, const ConfigMap& config) {
  auto cls = config.find("connector.class");
  const plugin::ConnectorPlugin* plugin = cls == config.end() ? nullptr : plugins.Find(cls->second);
  if (plugin == nullptr) return ConnectorType::kUnknown;
  return plugin->type == plugin::ConnectorType::kSource ? ConnectorType::kSource
                                                        : ConnectorType::kSink;
}

std::vector<PluginInfo> ListConnectorPlugins(const plugin::PluginRegistry& plugins,
                                             bool connectors_only) {
  std::vector<PluginInfo> sinks, sources;
  for (const plugin::ConnectorPlugin* p : plugins.Connectors()) {
    PluginInfo info{p->class_name, p->type == plugin::ConnectorType::kSink ? "sink" : "source",
                    p->version};
    (p->type == plugin::ConnectorType::kSink ? sinks : sources).push_back(std::move(info));
  }
  sinks.insert(sinks.end(), sources.begin(), sources.end());
  if (!connectors_only) {
    // Then transformations and predicates (built-in and from plugins, by class), converters and
    // header converters, as Connect lists them.
    for (plugin::StageKind kind :
         {plugin::StageKind::kTransformation, plugin::StageKind::kPredicate}) {
      const bool transformation = kind == plugin::StageKind::kTransformation;
      std::vector<PluginInfo> stages;
      for (const std::string& cls : transformation ? transforms::BuiltInTransformationClasses()
                                                   : transforms::BuiltInPredicateClasses()) {
        stages.push_back(
            {cls, transformation ? "transformation" : "predicate", BuiltInPluginVersion()});
      }
      for (const plugin::StagePlugin* stage : plugins.Stages(kind)) {
        stages.push_back(
            {stage->class_name, transformation ? "transformation" : "predicate", stage->version});
      }
      std::sort(stages.begin(), stages.end(), [](const PluginInfo& a, const PluginInfo& b) {
        return a.class_name < b.class_name;
      });
      sinks.insert(sinks.end(), stages.begin(), stages.end());
    }
    for (const char* type : {"converter", "header_converter"}) {
      const bool header = std::string_view(type) == "header_converter";
      for (const std::string& converter : BuiltInConverterClasses(header)) {
        sinks.push_back({converter, type, BuiltInPluginVersion()});
      }
    }
  }
  return sinks;
}

absl::StatusOr<std::vector<ConfigKeyInfo>> ConnectorPluginConfigKeys(
    const plugin::PluginRegistry& plugins, const std::string& name,
    const std::optional<std::string>& version) {
  absl::StatusOr<const plugin::ConnectorPlugin*> plugin = plugins.Find(name, version);
  if (!plugin.ok()) return WithHttpStatus(plugin.status(), 400);
  if (*plugin == nullptr) {
    std::optional<std::vector<ConfigKeyInfo>> keys = StageOrConverterConfigKeys(plugins, name);
    if (!keys) return absl::NotFoundError(absl::StrCat("Unknown plugin ", name, "."));
    if (version) {
      absl::StatusOr<plugin::VersionRange> range = plugin::VersionRange::Parse(*version);
      if (!range.ok()) return WithHttpStatus(range.status(), 400);
      if (!range->Contains(BuiltInPluginVersion()) && transforms::BuiltInStageConfigDef(name)) {
        return WithHttpStatus(
            absl::InvalidArgumentError(absl::StrCat(
                "Plugin ", name, " not found that matches the version range ", range->ToString(),
                ", available versions: [", BuiltInPluginVersion(), "]")),
            400);
      }
    }
    return *keys;
  }
  std::vector<ConfigKeyInfo> keys;
  const config::ConfigDef own = PluginConfigDef(**plugin);
  for (const config::ConfigKey& key : own.keys()) keys.push_back(ToKeyInfo(key));
  const bool sink = (*plugin)->type == plugin::ConnectorType::kSink;
  for (const config::ConfigKey& key :
       config::ConnectorConfigDef(sink ? config::ConnectorKind::kSink
                                       : config::ConnectorKind::kSource)
           .keys()) {
    keys.push_back(ToKeyInfo(key));
    if (key.name == "connector.plugin.version") keys.back().default_value = (*plugin)->version;
  }
  return keys;
}

}  // namespace connectd::herder
