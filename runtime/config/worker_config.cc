#include "runtime/config/worker_config.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "jvm/java_client_config.h"

namespace connectd::config {
namespace {

ConfigKey Key(std::string name, Type type, std::optional<std::string> default_value,
              Importance importance, std::string doc, bool required = false) {
  ConfigKey key;
  key.name = std::move(name);
  key.type = type;
  key.has_default = !required;
  key.default_value = std::move(default_value);
  key.importance = importance;
  key.documentation = std::move(doc);
  return key;
}

// connectd's own: the memory of the worker's batch pass-through (issue 49).
ConfigKey PassthroughBufferMemoryKey() {
  ConfigKey key = Key("passthrough.buffer.memory", Type::kLong, "67108864", Importance::kLow,
                      "The bytes of fetched record batches all of the worker's batch "
                      "pass-through copies may hold until the target acknowledged them; "
                      "fetches wait beyond, as a producer waits for buffer.memory (connectd).");
  key.validator = Validator::AtLeast(1 << 20);
  return key;
}

// Java 4.4's WorkerConfig accepts INFO and DEBUG only (case-sensitive).
ConfigKey MetricsRecordingLevel() {
  ConfigKey key = Key("metrics.recording.level", Type::kString, "INFO", Importance::kLow,
                      "The highest recording level of the metrics GET /metrics serves: DEBUG adds "
                      "connectd's per-partition MirrorSource metrics.");
  key.validator = Validator::In({"INFO", "DEBUG"});
  return key;
}

void DefineCommon(ConfigDef& def) {
  using I = Importance;
  def.Define(Key("bootstrap.servers", Type::kList, "localhost:9092", I::kHigh,
                 "A list of host/port pairs used to establish the initial connection to Kafka."))
      .Define(Key("client.dns.lookup", Type::kString, "use_all_dns_ips", I::kMedium,
                  "How the client uses DNS lookups."))
      .Define(Key("key.converter", Type::kClass, std::nullopt, I::kHigh,
                  "Converter class for record keys.", /*required=*/true))
      .Define(Key("value.converter", Type::kClass, std::nullopt, I::kHigh,
                  "Converter class for record values.", /*required=*/true))
      .Define(Key("header.converter", Type::kClass,
                  "org.apache.kafka.connect.storage.SimpleHeaderConverter", I::kLow,
                  "Converter class for record headers."))
      .Define(Key("task.shutdown.graceful.timeout.ms", Type::kLong, "5000", I::kLow,
                  "How long to wait for tasks to shut down gracefully."))
      .Define(Key("offset.flush.interval.ms", Type::kLong, "60000", I::kLow,
                  "Interval at which to try committing offsets for tasks."))
      .Define(Key("offset.flush.timeout.ms", Type::kLong, "5000", I::kLow,
                  "How long to wait for offsets to be flushed before cancelling the attempt."))
      .Define(PassthroughBufferMemoryKey())
      .Define(Key("plugin.path", Type::kList, std::nullopt, I::kLow,
                  "Comma-separated directories that contain plugins."))
      .Define(
          Key("plugin.discovery", Type::kString, "hybrid_warn", I::kLow,
              "Plugin discovery mode (Java class scanning; shared objects are always scanned)."))
      .Define(Key("config.providers", Type::kList, "", I::kLow,
                  "Names of ConfigProviders to load, configured with config.providers.<name>.*"))
      .Define(Key("connector.client.config.override.policy", Type::kString, "All", I::kMedium,
                  "Which client configs connectors may override: All, None, Principal or "
                  "Allowlist (by alias or Java class name)."))
      .Define(Key("connector.client.config.override.allowlist", Type::kList, "", I::kMedium,
                  "List of client configurations that can be overridden by connectors. If empty, "
                  "connectors can't override any client configurations."))
      .Define(Key("topic.creation.enable", Type::kBoolean, "true", I::kLow,
                  "Whether source connectors may create topics (topic.creation.*)."))
      .Define(Key("topic.tracking.enable", Type::kBoolean, "true", I::kLow,
                  "Track the topics each connector uses."))
      .Define(Key("topic.tracking.allow.reset", Type::kBoolean, "true", I::kLow,
                  "Allow resetting the tracked topics."))
      .Define(Key("metrics.sample.window.ms", Type::kLong, "30000", I::kLow, "Metrics window."))
      .Define(Key("metrics.num.samples", Type::kInt, "2", I::kLow, "Metrics samples."))
      .Define(MetricsRecordingLevel())
      .Define(Key("metric.reporters", Type::kList, "", I::kLow, "Java metrics reporter classes."))
      .Define(Key("listeners", Type::kList, "http://:8083", I::kLow, "REST listeners."))
      .Define(Key("rest.advertised.host.name", Type::kString, std::nullopt, I::kLow,
                  "Host name given to other workers."))
      .Define(Key("rest.advertised.port", Type::kInt, std::nullopt, I::kLow,
                  "Port given to other workers."))
      .Define(Key("rest.advertised.listener", Type::kString, std::nullopt, I::kLow,
                  "Listener protocol given to other workers."))
      .Define(
          Key("rest.extension.classes", Type::kList, "", I::kLow, "Java REST extension classes."))
      .Define(Key("access.control.allow.origin", Type::kString, "", I::kLow, "CORS origin."))
      .Define(Key("access.control.allow.methods", Type::kString, "", I::kLow, "CORS methods."))
      .Define(Key("response.http.headers.config", Type::kString, "", I::kLow,
                  "Rules for REST response headers."))
      .Define(Key("admin.listeners", Type::kList, std::nullopt, I::kLow,
                  "Listeners for the /admin endpoints."));
}

// Keys Connect acts on that connectd does not: warned about when set to a non-default value.
// (rest.extension.classes is refused by the REST server instead: an ignored authentication
// extension would leave the API open.)
const std::map<std::string, std::string>& UnsupportedKeys() {
  static const auto* keys = new std::map<std::string, std::string>{
      {"metric.reporters", "Java metrics reporters cannot be loaded by connectd"},
      {"plugin.discovery", "Java class-path scanning does not apply to shared-object plugins"},
  };
  return *keys;
}

}  // namespace

const ConfigDef& WorkerConfigDef(WorkerMode mode) {
  static const ConfigDef* standalone = [] {
    auto* def = new ConfigDef();
    DefineCommon(*def);
    def->Define(Key("offset.storage.file.filename", Type::kString, std::nullopt, Importance::kHigh,
                    "File to store source connector offsets in.",
                    /*required=*/true));
    return def;
  }();
  static const ConfigDef* distributed = [] {
    auto* def = new ConfigDef();
    DefineCommon(*def);
    for (const char* key :
         {"group.id", "config.storage.topic", "offset.storage.topic", "status.storage.topic"}) {
      def->Define(Key(key, Type::kString, std::nullopt, Importance::kHigh,
                      absl::StrCat("Kafka Connect distributed-mode setting ", key, "."),
                      /*required=*/true));
    }
    def->Define(Key("config.storage.replication.factor", Type::kShort, "3", Importance::kLow,
                    "Replication factor of the config topic."))
        .Define(Key("offset.storage.partitions", Type::kInt, "25", Importance::kLow,
                    "Partitions of the offsets topic."))
        .Define(Key("offset.storage.replication.factor", Type::kShort, "3", Importance::kLow,
                    "Replication factor of the offsets topic."))
        .Define(Key("status.storage.partitions", Type::kInt, "5", Importance::kLow,
                    "Partitions of the status topic."))
        .Define(Key("status.storage.replication.factor", Type::kShort, "3", Importance::kLow,
                    "Replication factor of the status topic."))
        // connectd's failover defaults (docs/compatibility.md): Java's are 10000, 3000 and
        // 300000, which leave a dead worker's tasks unassigned for up to 5 minutes.
        .Define(Key("session.timeout.ms", Type::kInt, "6000", Importance::kHigh,
                    "Group session timeout (connectd default 6000; Java 10000)."))
        .Define(Key("heartbeat.interval.ms", Type::kInt, "1000", Importance::kHigh,
                    "Group heartbeat interval (connectd default 1000; Java 3000)."))
        .Define(Key("rebalance.timeout.ms", Type::kInt, "60000", Importance::kHigh,
                    "Group rebalance timeout."))
        .Define(Key("connect.protocol", Type::kString, "sessioned", Importance::kLow,
                    "eager, compatible or sessioned."))
        .Define(Key("scheduled.rebalance.max.delay.ms", Type::kInt, "3000", Importance::kLow,
                    "Delay before reassigning a departed worker's work (connectd default 3000; "
                    "Java 300000)."))
        .Define(Key("worker.sync.timeout.ms", Type::kInt, "3000", Importance::kMedium,
                    "Time to catch up with the config topic before leaving the group."))
        .Define(Key("worker.unsync.backoff.ms", Type::kInt, "300000", Importance::kMedium,
                    "Back-off before rejoining after failing to catch up."))
        .Define(Key("inter.worker.key.generation.algorithm", Type::kString, "HmacSHA256",
                    Importance::kLow, "Algorithm of the session keys the leader generates."))
        .Define(Key("inter.worker.key.size", Type::kInt, std::nullopt, Importance::kLow,
                    "Session key size in bits (the algorithm's default when unset)."))
        .Define(Key("inter.worker.key.ttl.ms", Type::kInt, "3600000", Importance::kLow,
                    "Lifetime of a session key."))
        .Define(Key("inter.worker.signature.algorithm", Type::kString, "HmacSHA256",
                    Importance::kLow, "Algorithm that signs internal requests."))
        .Define(Key("inter.worker.verification.algorithms", Type::kList, "HmacSHA256",
                    Importance::kLow, "Algorithms accepted for internal request signatures."))
        .Define(Key("exactly.once.source.support", Type::kString, "disabled", Importance::kHigh,
                    "disabled, preparing or enabled."));
    return def;
  }();
  return mode == WorkerMode::kStandalone ? *standalone : *distributed;
}

absl::StatusOr<WorkerConfig> WorkerConfig::Create(const std::map<std::string, std::string>& props,
                                                  WorkerMode mode) {
  absl::StatusOr<ParsedConfig> parsed = WorkerConfigDef(mode).Parse(props);
  if (!parsed.ok()) return parsed.status();
  WorkerConfig config;
  config.parsed_ = *std::move(parsed);
  config.mode_ = mode;
  if (mode == WorkerMode::kDistributed) {
    // DistributedConfig: CaseInsensitiveValidString over ExactlyOnceSourceSupport's values.
    const std::string value =
        absl::AsciiStrToLower(config.parsed_.GetString("exactly.once.source.support").value_or(""));
    if (value != "disabled" && value != "preparing" && value != "enabled") {
      return absl::InvalidArgumentError(absl::StrCat(
          "Invalid value ", config.parsed_.GetString("exactly.once.source.support").value_or(""),
          " for configuration exactly.once.source.support: String must be one of (case "
          "insensitive): disabled, preparing, enabled"));
    }
  }
  absl::StatusOr<ClientOverridePolicy> policy =
      ClientOverridePolicy::FromWorkerConfig(config.parsed_);
  if (!policy.ok()) return policy.status();
  config.client_override_policy_ = *std::move(policy);
  if (std::string warning = config.client_override_policy_.Warning(); !warning.empty()) {
    config.warnings_.push_back(std::move(warning));
  }
  for (const auto& [key, why] : UnsupportedKeys()) {
    auto it = props.find(key);
    const ConfigKey* def = WorkerConfigDef(mode).Find(key);
    if (it != props.end() && def != nullptr && it->second != def->default_value.value_or("")) {
      config.warnings_.push_back(absl::StrCat("'", key, "' is not supported: ", why, "; ignored"));
    }
  }
  for (const char* removed : {"internal.key.converter", "internal.value.converter"}) {
    if (props.count(removed)) {
      config.warnings_.push_back(
          absl::StrCat("'", removed,
                       "' was removed from Kafka Connect; internal topics always "
                       "use the JSON converter without schemas; ignored"));
    }
  }
  if (absl::Status clients = config.TranslateClients(); !clients.ok()) return clients;
  return config;
}

absl::Status WorkerConfig::TranslateClients() {
  const std::pair<Client, const char*> kClients[] = {{Client::kWorker, ""},
                                                     {Client::kProducer, "producer."},
                                                     {Client::kConsumer, "consumer."},
                                                     {Client::kAdmin, "admin."}};
  for (const auto& [client, prefix] : kClients) {
    TranslatedClient& out = clients_[static_cast<int>(client)];
    out.java = ClientConfig(prefix);
    // The worker's own clients are an admin client and the group client.
    const jvm::ClientRole role = client == Client::kProducer   ? jvm::ClientRole::kProducer
                                 : client == Client::kConsumer ? jvm::ClientRole::kConsumer
                                                               : jvm::ClientRole::kAdmin;
    out.translated = jvm::TranslateJavaClientConfig(out.java, role);
    if (!out.translated.errors.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("The worker's Kafka client settings",
                       *prefix ? absl::StrCat(" (", prefix, "* included)") : std::string(),
                       " cannot be honoured: ", absl::StrJoin(out.translated.errors, "; ")));
    }
    for (const std::string& warning : out.translated.warnings) {
      const std::string line =
          *prefix ? absl::StrCat("(", prefix, "* settings) ", warning) : warning;
      if (std::find(warnings_.begin(), warnings_.end(), line) == warnings_.end()) {
        warnings_.push_back(line);
      }
    }
  }
  return absl::OkStatus();
}

ExactlyOnceSourceSupport WorkerConfig::exactly_once_source_support() const {
  if (mode_ != WorkerMode::kDistributed) return ExactlyOnceSourceSupport::kDisabled;
  const std::string value =
      absl::AsciiStrToLower(parsed_.GetString("exactly.once.source.support").value_or(""));
  if (value == "enabled") return ExactlyOnceSourceSupport::kEnabled;
  if (value == "preparing") return ExactlyOnceSourceSupport::kPreparing;
  return ExactlyOnceSourceSupport::kDisabled;
}

std::string WorkerConfig::bootstrap_servers() const {
  return absl::StrJoin(parsed_.GetList("bootstrap.servers"), ",");
}

std::map<std::string, std::string> WorkerConfig::ClientConfig(const std::string& prefix) const {
  // Worker-level client settings that every client shares (Connect copies them into the
  // producer/consumer/admin configs it builds).
  static const char* const kInherited[] = {"bootstrap.servers",
                                           "client.dns.lookup",
                                           "security.protocol",
                                           "sasl.mechanism",
                                           "sasl.jaas.config",
                                           "ssl.truststore.location",
                                           "ssl.truststore.type",
                                           "ssl.truststore.password",
                                           "ssl.truststore.certificates",
                                           "ssl.keystore.location",
                                           "ssl.keystore.type",
                                           "ssl.keystore.password",
                                           "ssl.key.password",
                                           "ssl.keystore.certificate.chain",
                                           "ssl.keystore.key",
                                           "ssl.endpoint.identification.algorithm",
                                           "ssl.protocol",
                                           "ssl.enabled.protocols",
                                           "ssl.cipher.suites",
                                           "ssl.keymanager.algorithm",
                                           "ssl.trustmanager.algorithm",
                                           "ssl.secure.random.implementation",
                                           "ssl.engine.factory.class",
                                           "ssl.provider",
                                           "security.providers",
                                           "sasl.kerberos.service.name",
                                           "sasl.login.class",
                                           "sasl.client.callback.handler.class",
                                           "sasl.login.callback.handler.class"};
  std::map<std::string, std::string> out;
  for (const char* key : kInherited) {
    auto it = parsed_.originals().find(key);
    if (it != parsed_.originals().end()) out[key] = it->second;
  }
  // And every SASL setting: OAUTHBEARER's token endpoint, client credentials, scope and login
  // timeouts among them.
  for (const auto& [key, value] : parsed_.originals()) {
    if (absl::StartsWith(key, "sasl.")) out[key] = value;
  }
  out["bootstrap.servers"] = bootstrap_servers();
  if (prefix.empty()) {
    // The worker's own clients: its settings that are client configs (Java hands them the whole
    // worker config, whose other keys its clients ignore; connectd refuses keys no client knows).
    for (const auto& [key, value] : parsed_.originals()) {
      // config.providers is the worker's own (its values are resolved already).
      if (key != "config.providers" && jvm::IsKafkaClientConfig(key)) out[key] = value;
    }
    return out;
  }
  for (const auto& [key, value] : parsed_.OriginalsWithPrefix(prefix)) out[key] = value;
  return out;
}

}  // namespace connectd::config
