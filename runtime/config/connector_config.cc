#include "runtime/config/connector_config.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace connectd::config {
namespace {

ConfigKey Key(std::string name, Type type, std::optional<std::string> default_value,
              Importance importance, std::string group, int order, Width width, std::string display,
              std::string doc, bool required = false, Validator validator = {}) {
  ConfigKey key;
  key.name = std::move(name);
  key.type = type;
  key.has_default = !required;
  key.default_value = std::move(default_value);
  key.importance = importance;
  key.group = std::move(group);
  key.order_in_group = order;
  key.width = width;
  key.display_name = std::move(display);
  key.documentation = std::move(doc);
  key.validator = std::move(validator);
  return key;
}

void DefineCommon(ConfigDef& def) {
  using I = Importance;
  using W = Width;
  def.Define(Key("name", Type::kString, std::nullopt, I::kHigh, "Common", 1, W::kMedium,
                 "Connector name", "Globally unique name to use for this connector.", true,
                 Validator::NonEmpty()))
      .Define(Key("connector.class", Type::kString, std::nullopt, I::kHigh, "Common", 2, W::kLong,
                  "Connector class", "Name or alias of the class for this connector.", true))
      .Define(Key("tasks.max", Type::kInt, "1", I::kHigh, "Common", 3, W::kShort, "Tasks max",
                  "Maximum number of tasks to use for this connector.", false,
                  Validator::AtLeast(1)))
      .Define(Key("tasks.max.enforce", Type::kBoolean, "true", I::kLow, "Common", 4, W::kShort,
                  "Enforce tasks max",
                  "(Deprecated) Whether to enforce that the tasks.max property is respected."))
      .Define(Key("key.converter", Type::kClass, std::nullopt, I::kLow, "Common", 5, W::kShort,
                  "Key converter class",
                  "Converter class for record keys (default: the worker's)."))
      .Define(Key("value.converter", Type::kClass, std::nullopt, I::kLow, "Common", 6, W::kShort,
                  "Value converter class",
                  "Converter class for record values (default: the worker's)."))
      .Define(Key("header.converter", Type::kClass, std::nullopt, I::kLow, "Common", 7, W::kShort,
                  "Header converter class",
                  "HeaderConverter class for record headers (default: the worker's)."))
      .Define(Key("config.action.reload", Type::kString, "restart", I::kLow, "Common", 8,
                  W::kMedium, "Reload Action",
                  "What to do when a config provider's data changes: none or restart.", false,
                  Validator::In({"none", "restart"})))
      .Define(Key("transforms", Type::kList, "", I::kLow, "Transforms", 1, W::kLong, "Transforms",
                  "Aliases for the transformations to apply to records."))
      .Define(Key("predicates", Type::kList, "", I::kLow, "Predicates", 1, W::kLong, "Predicates",
                  "Aliases for the predicates used by transformations."))
      .Define(Key("errors.retry.timeout", Type::kLong, "0", I::kMedium, "Error Handling", 1,
                  W::kMedium, "Retry Timeout for Errors",
                  "Maximum duration in milliseconds that a failed operation is retried; -1 is "
                  "infinite."))
      .Define(Key("errors.retry.delay.max.ms", Type::kLong, "60000", I::kMedium, "Error Handling",
                  2, W::kMedium, "Maximum Delay Between Retries for Errors",
                  "Maximum milliseconds between consecutive retries."))
      .Define(Key("errors.tolerance", Type::kString, "none", I::kMedium, "Error Handling", 3,
                  W::kShort, "Error Tolerance",
                  "Behavior for tolerating errors during connector operation: none or all.", false,
                  Validator::In({"none", "all"})))
      .Define(Key("errors.log.enable", Type::kBoolean, "false", I::kMedium, "Error Handling", 4,
                  W::kShort, "Log Errors",
                  "Log each error and the details of the failed operation."))
      .Define(Key("errors.log.include.messages", Type::kBoolean, "false", I::kMedium,
                  "Error Handling", 5, W::kShort, "Log Error Details",
                  "Include the failed record in the error log."));
}

}  // namespace

const ConfigDef& ConnectorConfigDef(ConnectorKind kind) {
  static const ConfigDef* source = [] {
    auto* def = new ConfigDef();
    DefineCommon(*def);
    def->Define(Key("topic.creation.groups", Type::kList, "", Importance::kLow, "Topic Creation", 1,
                    Width::kLong, "Topic Creation Groups",
                    "Groups of configurations for topics created by source connectors."))
        .Define(Key("exactly.once.support", Type::kString, "requested", Importance::kMedium,
                    "Exactly Once Support", 1, Width::kShort, "Exactly once support",
                    "requested or required.", false, Validator::In({"requested", "required"})))
        .Define(Key("transaction.boundary", Type::kString, "poll", Importance::kMedium,
                    "Exactly Once Support", 2, Width::kShort, "Transaction Boundary",
                    "poll, interval or connector.", false,
                    Validator::In({"poll", "interval", "connector"})))
        .Define(Key("transaction.boundary.interval.ms", Type::kLong, std::nullopt, Importance::kLow,
                    "Exactly Once Support", 3, Width::kShort, "Transaction boundary interval",
                    "Transaction commit interval for transaction.boundary=interval.", false,
                    Validator::AtLeast(0)))
        .Define(Key("offsets.storage.topic", Type::kString, std::nullopt, Importance::kLow,
                    "offsets.topic", 1, Width::kLong, "Offsets topic",
                    "The name of a separate offsets topic to use for this connector."));
    return def;
  }();
  static const ConfigDef* sink = [] {
    auto* def = new ConfigDef();
    DefineCommon(*def);
    def->Define(Key("topics", Type::kList, "", Importance::kHigh, "Common", 4, Width::kLong,
                    "Topics", "List of topics to consume, separated by commas"))
        .Define(Key("topics.regex", Type::kString, "", Importance::kHigh, "Common", 4, Width::kLong,
                    "Topics regex", "Regular expression giving topics to consume."))
        .Define(Key("errors.deadletterqueue.topic.name", Type::kString, "", Importance::kMedium,
                    "Error Handling", 6, Width::kMedium, "Dead Letter Queue Topic Name",
                    "The name of the topic to be used as the dead letter queue (DLQ)."))
        .Define(Key("errors.deadletterqueue.topic.replication.factor", Type::kShort, "3",
                    Importance::kMedium, "Error Handling", 7, Width::kMedium,
                    "Dead Letter Queue Topic Replication Factor",
                    "Replication factor used to create the dead letter queue topic."))
        .Define(Key("errors.deadletterqueue.context.headers.enable", Type::kBoolean, "false",
                    Importance::kMedium, "Error Handling", 8, Width::kMedium,
                    "Enable Error Context Headers",
                    "Add headers containing error context to the messages written to the DLQ."));
    return def;
  }();
  return kind == ConnectorKind::kSource ? *source : *sink;
}

bool IsSupportedConverter(const std::string& class_name) {
  return class_name == kByteArrayConverter || class_name == kStringConverter ||
         class_name == "ByteArrayConverter" || class_name == "StringConverter";
}

absl::Status ValidateSinkTopics(const std::map<std::string, std::string>& config) {
  auto get = [&](const char* key) {
    auto it = config.find(key);
    return it == config.end() ? std::string() : it->second;
  };
  bool has_topics = !SplitList(get("topics")).empty();
  bool has_regex = !get("topics.regex").empty();
  if (has_topics && has_regex) {
    return absl::InvalidArgumentError(
        "topics and topics.regex are mutually exclusive options, but both are set.");
  }
  if (!has_topics && !has_regex) {
    return absl::InvalidArgumentError("Must configure one of topics or topics.regex");
  }
  return absl::OkStatus();
}

std::map<std::string, std::string> ClientOverrides(
    const std::map<std::string, std::string>& connector_config, const std::string& client) {
  const std::string prefix = client + ".override.";
  std::map<std::string, std::string> overrides;
  for (const auto& [key, value] : connector_config) {
    if (key.size() > prefix.size() && key.compare(0, prefix.size(), prefix) == 0) {
      overrides[key.substr(prefix.size())] = value;
    }
  }
  return overrides;
}

absl::StatusOr<std::map<std::string, std::string>> AllowedClientOverrides(
    const std::map<std::string, std::string>& connector_config, const std::string& client,
    const ClientOverridePolicy& policy) {
  std::map<std::string, std::string> overrides = ClientOverrides(connector_config, client);
  std::vector<std::string> refusals;
  for (const auto& [key, value] : overrides) {
    if (!policy.Allows(key)) refusals.push_back(policy.Refusal(key));
  }
  if (!refusals.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("Client Config Overrides not allowed: ", absl::StrJoin(refusals, " ")));
  }
  return overrides;
}

}  // namespace connectd::config
