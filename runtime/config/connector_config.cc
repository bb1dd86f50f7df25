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

// Generated from a Java Connect 4.4.0 worker's GET /connector-plugins/<p>/config answers.
void DefineCommon(ConfigDef& def) {
  using I = Importance;
  using W = Width;
  def.Define(Key("name", Type::kString, std::nullopt, I::kHigh, "Common", 1, W::kMedium,
                 "Connector name", "Globally unique name to use for this connector.", true,
                 Validator::NonEmptyWithoutControlChars()));
  def.Define(Key("connector.class", Type::kString, std::nullopt, I::kHigh, "Common", 2, W::kLong,
                 "Connector class",
                 "Name or alias of the class for this connector. Must be a subclass of "
                 "org.apache.kafka.connect.connector.Connector. If the connector is "
                 "org.apache.kafka.connect.file.FileStreamSinkConnector, you can either specify "
                 "this full name,  or use \"FileStreamSink\" or \"FileStreamSinkConnector\" to "
                 "make the configuration a bit shorter",
                 true));
  def.Define(Key("connector.plugin.version", Type::kString, std::nullopt, I::kMedium, "Common", 3,
                 W::kMedium, "Connector version", "Version of the connector."));
  def.Define(Key("tasks.max", Type::kInt, "1", I::kHigh, "Common", 4, W::kShort, "Tasks max",
                 "Maximum number of tasks to use for this connector.", false,
                 Validator::AtLeast(1)));
  def.Define(Key(
      "tasks.max.enforce", Type::kBoolean, "true", I::kLow, "Common", 5, W::kShort,
      "Enforce tasks max",
      "(Deprecated) Whether to enforce that the tasks.max property is respected by the connector. "
      "By default, connectors that generate too many tasks will fail, and existing sets of tasks "
      "that exceed the tasks.max property will also be failed. If this property is set to false, "
      "then connectors will be allowed to generate more than the maximum number of tasks, and "
      "existing sets of tasks that exceed the tasks.max property will be allowed to run. This "
      "property is deprecated and will be removed in an upcoming major release."));
  def.Define(Key(
      "key.converter", Type::kClass, std::nullopt, I::kLow, "Common", 6, W::kShort,
      "Key converter class",
      "Converter class used to convert between Kafka Connect format and the serialized form that "
      "is written to Kafka. This controls the format of the keys in messages written to or read "
      "from Kafka, and since this is independent of connectors it allows any connector to work "
      "with any serialization format. Examples of common formats include JSON and Avro."));
  def.Define(Key("key.converter.plugin.version", Type::kString, std::nullopt, I::kLow, "Common", 7,
                 W::kShort, "Key converter version", "Version of the key converter."));
  def.Define(Key(
      "value.converter", Type::kClass, std::nullopt, I::kLow, "Common", 8, W::kShort,
      "Value converter class",
      "Converter class used to convert between Kafka Connect format and the serialized form that "
      "is written to Kafka. This controls the format of the values in messages written to or read "
      "from Kafka, and since this is independent of connectors it allows any connector to work "
      "with any serialization format. Examples of common formats include JSON and Avro."));
  def.Define(Key("value.converter.plugin.version", Type::kString, std::nullopt, I::kLow, "Common",
                 9, W::kShort, "Value converter version", "Version of the value converter."));
  def.Define(
      Key("header.converter", Type::kClass, std::nullopt, I::kLow, "Common", 10, W::kShort,
          "Header converter class",
          "HeaderConverter class used to convert between Kafka Connect format and the serialized "
          "form that is written to Kafka. This controls the format of the header values in "
          "messages written to or read from Kafka, and since this is independent of connectors it "
          "allows any connector to work with any serialization format. Examples of common formats "
          "include JSON and Avro. By default, the SimpleHeaderConverter is used to serialize "
          "header values to strings and deserialize them by inferring the schemas."));
  def.Define(Key("header.converter.plugin.version", Type::kString, std::nullopt, I::kLow, "Common",
                 11, W::kShort, "Header converter version", "Version of the header converter."));
  def.Define(Key("transforms", Type::kList, "", I::kLow, "Transforms", 12, W::kLong, "Transforms",
                 "Aliases for the transformations to be applied to records."));
  def.Define(Key("predicates", Type::kList, "", I::kLow, "Predicates", 13, W::kLong, "Predicates",
                 "Aliases for the predicates used by transformations."));
  def.Define(Key(
      "config.action.reload", Type::kString, "restart", I::kLow, "Common", 14, W::kMedium,
      "Reload Action",
      "The action that Connect should take on the connector when changes in external configuration "
      "providers result in a change in the connector's configuration properties. A value of 'none' "
      "indicates that Connect will do nothing. A value of 'restart' indicates that Connect should "
      "restart/reload the connector with the updated configuration properties.The restart may "
      "actually be scheduled in the future if the external configuration provider indicates that a "
      "configuration value will expire in the future.",
      false, Validator::In({"none", "restart"})));
  def.Define(
      Key("errors.retry.timeout", Type::kLong, "0", I::kMedium, "Error Handling", 1, W::kMedium,
          "Retry Timeout for Errors",
          "The maximum duration in milliseconds that a failed operation will be reattempted. The "
          "default is 0, which means no retries will be attempted. Use -1 for infinite retries."));
  def.Define(
      Key("errors.retry.delay.max.ms", Type::kLong, "60000", I::kMedium, "Error Handling", 2,
          W::kMedium, "Maximum Delay Between Retries for Errors",
          "The maximum duration in milliseconds between consecutive retry attempts. Jitter will be "
          "added to the delay once this limit is reached to prevent thundering herd issues."));
  def.Define(Key("errors.tolerance", Type::kString, "none", I::kMedium, "Error Handling", 3,
                 W::kShort, "Error Tolerance",
                 "Behavior for tolerating errors during connector operation. 'none' is the default "
                 "value and signals that any error will result in an immediate connector task "
                 "failure; 'all' changes the behavior to skip over problematic records.",
                 false, Validator::In({"none", "all"})));
  def.Define(Key("errors.log.enable", Type::kBoolean, "false", I::kMedium, "Error Handling", 4,
                 W::kShort, "Log Errors",
                 "If true, write each error and the details of the failed operation and "
                 "problematic record to the Connect application log. This is 'false' by default, "
                 "so that only errors that are not tolerated are reported."));
  def.Define(Key(
      "errors.log.include.messages", Type::kBoolean, "false", I::kMedium, "Error Handling", 5,
      W::kShort, "Log Error Details",
      "Whether to include in the log the Connect record that resulted in a failure. For sink "
      "records, the topic, partition, offset, and timestamp will be logged. For source records, "
      "the key and value (and their schemas), all headers, and the timestamp, Kafka topic, Kafka "
      "partition, source partition, and source offset will be logged. This is 'false' by default, "
      "which will prevent record keys, values, and headers from being written to log files."));
}

void DefineSource(ConfigDef& def) {
  using I = Importance;
  using W = Width;
  def.Define(Key("topic.creation.groups", Type::kList, "", I::kLow, "Topic Creation", 1, W::kLong,
                 "Topic Creation Groups",
                 "Groups of configurations for topics created by source connectors"));
  def.Define(Key(
      "exactly.once.support", Type::kString, "requested", I::kMedium, "Exactly Once Support", 2,
      W::kShort, "Exactly once support",
      "Permitted values are requested, required. If set to \"required\", forces a preflight check "
      "for the connector to ensure that it can provide exactly-once semantics with the given "
      "configuration. Some connectors may be capable of providing exactly-once semantics but not "
      "signal to Connect that they support this; in that case, documentation for the connector "
      "should be consulted carefully before creating it, and the value for this property should be "
      "set to \"requested\". Additionally, if the value is set to \"required\" but the worker that "
      "performs preflight validation does not have exactly-once support enabled for source "
      "connectors, requests to create or validate the connector will fail.",
      false, Validator::In({"requested", "required"})));
  def.Define(
      Key("transaction.boundary", Type::kString, "poll", I::kMedium, "Exactly Once Support", 3,
          W::kShort, "Transaction Boundary",
          "Permitted values are: poll, interval, connector. If set to 'poll', a new producer "
          "transaction will be started and committed for every batch of records that each task "
          "from this connector provides to Connect. If set to 'connector', relies on "
          "connector-defined transaction boundaries; note that not all connectors are capable of "
          "defining their own transaction boundaries, and in that case, attempts to instantiate a "
          "connector with this value will fail. Finally, if set to 'interval', commits "
          "transactions only after a user-defined time interval has passed.",
          false, Validator::In({"poll", "interval", "connector"})));
  def.Define(Key("transaction.boundary.interval.ms", Type::kLong, std::nullopt, I::kLow,
                 "Exactly Once Support", 4, W::kShort, "Transaction boundary interval",
                 "If 'transaction.boundary' is set to 'interval', determines the interval for "
                 "producer transaction commits by connector tasks. If unset, defaults to the value "
                 "of the worker-level 'offset.flush.interval.ms' property. It has no effect if a "
                 "different transaction.boundary is specified.",
                 false, Validator::AtLeast(0)));
  def.Define(
      Key("offsets.storage.topic", Type::kString, std::nullopt, I::kLow, "offsets.topic", 1,
          W::kLong, "Offsets topic",
          "The name of a separate offsets topic to use for this connector. If empty or not "
          "specified, the worker’s global offsets topic name will be used. If specified, the "
          "offsets topic will be created if it does not already exist on the Kafka cluster "
          "targeted by this connector (which may be different from the one used for the worker's "
          "global offsets topic if the bootstrap.servers property of the connector's producer has "
          "been overridden from the worker's). Only applicable in distributed mode; in standalone "
          "mode, setting this property will have no effect."));
}

void DefineSink(ConfigDef& def) {
  using I = Importance;
  using W = Width;
  def.Define(Key("topics", Type::kList, "", I::kHigh, "Common", 4, W::kLong, "Topics",
                 "List of topics to consume, separated by commas"));
  def.Define(Key("topics.regex", Type::kString, "", I::kHigh, "Common", 4, W::kLong, "Topics regex",
                 "Regular expression giving topics to consume. Under the hood, the regex is "
                 "compiled to a <code>java.util.regex.Pattern</code>. Only one of topics or "
                 "topics.regex should be specified."));
  def.Define(Key("errors.deadletterqueue.topic.name", Type::kString, "", I::kMedium,
                 "Error Handling", 6, W::kMedium, "Dead Letter Queue Topic Name",
                 "The name of the topic to be used as the dead letter queue (DLQ) for messages "
                 "that result in an error when processed by this sink connector, or its "
                 "transformations or converters. The topic name is blank by default, which means "
                 "that no messages are to be recorded in the DLQ."));
  def.Define(Key("errors.deadletterqueue.topic.replication.factor", Type::kShort, "3", I::kMedium,
                 "Error Handling", 7, W::kMedium, "Dead Letter Queue Topic Replication Factor",
                 "Replication factor used to create the dead letter queue topic when it doesn't "
                 "already exist."));
  def.Define(Key(
      "errors.deadletterqueue.context.headers.enable", Type::kBoolean, "false", I::kMedium,
      "Error Handling", 8, W::kMedium, "Enable Error Context Headers",
      "If true, add headers containing error context to the messages written to the dead letter "
      "queue. To avoid clashing with headers from the original record, all error context header "
      "keys, all error context header keys will start with <code>__connect.errors.</code>"));
}

}  // namespace

const ConfigDef& BaseConnectorConfigDef() {
  static const ConfigDef* base = [] {
    auto* def = new ConfigDef();
    DefineCommon(*def);
    return def;
  }();
  return *base;
}

const ConfigDef& ConnectorConfigDef(ConnectorKind kind) {
  static const ConfigDef* source = [] {
    auto* def = new ConfigDef();
    DefineCommon(*def);
    DefineSource(*def);
    return def;
  }();
  static const ConfigDef* sink = [] {
    auto* def = new ConfigDef();
    DefineCommon(*def);
    DefineSink(*def);
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
