// connector.client.config.override.policy at validation, case by case against what the Java
// 4.3.1 Connect worker (the 4.4 runtime's policies are the same classes) answered on 6 Dec 2026
// to PUT /connector-plugins/{p}/config/validate and POST /connectors (FileStreamSource and
// FileStreamSink under ConnectStandalone, each policy in turn):
//   - only the clients the connector uses are checked: a source's producer (and admin when it
//     sets topic.creation.*), a sink's consumer (and producer and admin when it names a DLQ);
//   - every refused key is one error on `<client>.override.<key>`: "The '<policy>' policy does
//     not allow '<key>' to be overridden in the connector configuration.";
//   - a key that is only the prefix ("producer.override.") is not a client key;
//   - PASSWORD-typed client keys show as "[hidden]".
#include <map>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "connectd/sdk/sdk.h"
#include "runtime/config/client_override_policy.h"
#include "runtime/config/worker_config.h"
#include "runtime/herder/connector_validation.h"
#include "runtime/plugin/host_api.h"

namespace connectd::herder {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Pair;
using ::testing::UnorderedElementsAre;

class NoTask : public sdk::SourceTask {
 public:
  void start(const sdk::Props&) override {}
  void poll(sdk::SourceBatch&) override {}
  void stop() override {}
};
class NoSinkTask : public sdk::SinkTask {
 public:
  void start(const sdk::Props&) override {}
  void put(const sdk::SinkRecords&) override {}
  void stop() override {}
};

template <typename Base, typename Task>
class Plain : public Base {
 public:
  static constexpr char kVersion[] = "1.0.0";
  using TaskType = Task;
  static sdk::ConfigDef configDef() { return sdk::ConfigDef(); }
  void start(const sdk::Props&) override {}
  std::vector<sdk::Props> taskConfigs(int) override { return {}; }
  void stop() override {}
};
class PlainSource : public Plain<sdk::SourceConnector, NoTask> {
 public:
  static constexpr char kClassName[] = "org.example.PlainSource";
};
class PlainSink : public Plain<sdk::SinkConnector, NoSinkTask> {
 public:
  static constexpr char kClassName[] = "org.example.PlainSink";
};

const plugin::PluginRegistry& Registry() {
  static const plugin::PluginRegistry* registry = [] {
    auto* r = new plugin::PluginRegistry();
    connectd_error_host_ptr* error = nullptr;
    for (const connectd_plugin_descriptor* d :
         {sdk::internal::PluginEntry<PlainSource>(plugin::HostApi(), error, "t", "1.0.0"),
          sdk::internal::PluginEntry<PlainSink>(plugin::HostApi(), error, "t", "1.0.0")}) {
      if (d == nullptr || !r->AddDescriptor(d, "memory").ok()) std::abort();
    }
    return r;
  }();
  return *registry;
}

WorkerValidation Worker(const std::string& policy, std::vector<std::string> allowlist = {}) {
  absl::StatusOr<config::ClientOverridePolicy> p =
      config::ClientOverridePolicy::Create(policy, allowlist);
  EXPECT_TRUE(p.ok()) << p.status();
  WorkerValidation worker;
  if (p.ok()) worker.override_policy = *p;
  return worker;
}

const ConfigMap kSource = {{"connector.class", "org.example.PlainSource"},
                           {"name", "s"},
                           {"producer.override.acks", "1"},
                           {"producer.override.sasl.mechanism", "PLAIN"},
                           {"admin.override.request.timeout.ms", "5000"},
                           {"consumer.override.max.poll.records", "7"}};
const ConfigMap kSink = {{"connector.class", "org.example.PlainSink"},
                         {"name", "k"},
                         {"topics", "t"},
                         {"producer.override.acks", "1"},
                         {"admin.override.request.timeout.ms", "5000"},
                         {"consumer.override.max.poll.records", "7"}};

ConfigMap With(ConfigMap config, const ConfigMap& more) {
  for (const auto& [k, v] : more) config[k] = v;
  return config;
}

// name -> errors of every `*.override.*` value in the validation, and the error count.
struct Overrides {
  std::map<std::string, std::vector<std::string>> errors;
  int error_count = 0;
};
Overrides Validate(const WorkerValidation& worker, const ConfigMap& config) {
  absl::StatusOr<ConfigInfos> infos = ValidateConnectorConfig(Registry(), worker, config);
  EXPECT_TRUE(infos.ok()) << infos.status();
  Overrides out;
  if (!infos.ok()) return out;
  out.error_count = infos->error_count;
  for (const ConfigInfo& info : infos->configs) {
    if (info.value && info.value->name.find(".override.") != std::string::npos) {
      out.errors[info.value->name] = info.value->errors;
    }
  }
  return out;
}

std::string Refused(const std::string& policy, const std::string& key) {
  return "The '" + policy + "' policy does not allow '" + key +
         "' to be overridden in the connector configuration.";
}

TEST(ClientOverrideValidationTest, AllAllowsEveryKeyOfTheClientsASourceUses) {
  Overrides v = Validate(Worker("All"), kSource);
  EXPECT_EQ(v.error_count, 0);
  // A source without topic.creation.* uses only its producer: Java lists only those two.
  EXPECT_THAT(v.errors, UnorderedElementsAre(Pair("producer.override.acks", IsEmpty()),
                                             Pair("producer.override.sasl.mechanism", IsEmpty())));
}

TEST(ClientOverrideValidationTest, NoneRefusesEveryProducerKeyOfASource) {
  Overrides v = Validate(Worker("None"), kSource);
  EXPECT_EQ(v.error_count, 2);
  EXPECT_THAT(v.errors, UnorderedElementsAre(
                            Pair("producer.override.acks", ElementsAre(Refused("None", "acks"))),
                            Pair("producer.override.sasl.mechanism",
                                 ElementsAre(Refused("None", "sasl.mechanism")))));
}

TEST(ClientOverrideValidationTest, PrincipalAllowsOnlyTheSaslKeysAndSecurityProtocol) {
  Overrides v = Validate(Worker("Principal"), kSource);
  EXPECT_EQ(v.error_count, 1);
  EXPECT_THAT(v.errors["producer.override.acks"], ElementsAre(Refused("Principal", "acks")));
  EXPECT_THAT(v.errors["producer.override.sasl.mechanism"], IsEmpty());
}

TEST(ClientOverrideValidationTest, AllowlistAllowsItsKeysAndAnEmptyOneNothing) {
  Overrides listed = Validate(Worker("Allowlist", {"acks", "max.poll.records"}), kSource);
  EXPECT_EQ(listed.error_count, 1);
  EXPECT_THAT(listed.errors["producer.override.acks"], IsEmpty());
  EXPECT_THAT(listed.errors["producer.override.sasl.mechanism"],
              ElementsAre(Refused("Allowlist", "sasl.mechanism")));

  Overrides empty = Validate(Worker("Allowlist"), kSource);
  EXPECT_EQ(empty.error_count, 2);
}

TEST(ClientOverrideValidationTest, AllowlistIsCaseSensitiveAndIgnoresABarePrefix) {
  ConfigMap config = {{"connector.class", "org.example.PlainSource"},
                      {"name", "s"},
                      {"producer.override.", "x"},
                      {"producer.override.ACKS", "1"}};
  Overrides v = Validate(Worker("Allowlist", {"acks"}), config);
  EXPECT_EQ(v.error_count, 1);
  EXPECT_THAT(v.errors, UnorderedElementsAre(Pair("producer.override.ACKS",
                                                  ElementsAre(Refused("Allowlist", "ACKS")))));
}

TEST(ClientOverrideValidationTest, ASourceCreatingTopicsAlsoAnswersForItsAdmin) {
  Overrides v = Validate(Worker("None"), With(kSource, {{"topic.creation.default.partitions", "1"},
                                                        {"topic.creation.default.replication."
                                                         "factor",
                                                         "1"}}));
  EXPECT_EQ(v.error_count, 3);
  EXPECT_THAT(v.errors["admin.override.request.timeout.ms"],
              ElementsAre(Refused("None", "request.timeout.ms")));
  EXPECT_EQ(v.errors.count("consumer.override.max.poll.records"), 0u);
}

TEST(ClientOverrideValidationTest, ASinkAnswersForItsConsumerAndWithADlqForProducerAndAdmin) {
  Overrides plain = Validate(Worker("None"), kSink);
  EXPECT_EQ(plain.error_count, 1);
  EXPECT_THAT(plain.errors,
              UnorderedElementsAre(Pair("consumer.override.max.poll.records",
                                        ElementsAre(Refused("None", "max.poll.records")))));

  Overrides dlq = Validate(Worker("None"), With(kSink, {{"errors.deadletterqueue.topic.name", "d"},
                                                        {"errors.tolerance", "all"}}));
  EXPECT_EQ(dlq.error_count, 3);
  EXPECT_THAT(dlq.errors["producer.override.acks"], ElementsAre(Refused("None", "acks")));
  EXPECT_THAT(dlq.errors["admin.override.request.timeout.ms"],
              ElementsAre(Refused("None", "request.timeout.ms")));

  // A blank DLQ topic is no DLQ (SinkConnectorConfig.hasDlqTopicConfig).
  Overrides blank =
      Validate(Worker("None"), With(kSink, {{"errors.deadletterqueue.topic.name", "  "}}));
  EXPECT_EQ(blank.error_count, 1);
}

TEST(ClientOverrideValidationTest, ADistributedExactlyOnceSourceAnswersForItsOffsetsClients) {
  WorkerValidation worker = Worker("None");
  worker.distributed = true;
  worker.exactly_once_source = true;
  EXPECT_EQ(Validate(worker, kSource).error_count, 4);
  worker.exactly_once_source = false;
  EXPECT_EQ(Validate(worker, kSource).error_count, 2);
  // Its own offsets topic gives it its own consumer and admin even without exactly-once.
  EXPECT_EQ(Validate(worker, With(kSource, {{"offsets.storage.topic", "own"}})).error_count, 4);
}

TEST(ClientOverrideValidationTest, SecretsOfAClientAreHidden) {
  ConfigMap config = {{"connector.class", "org.example.PlainSink"},
                      {"topics", "t"},
                      {"consumer.override.sasl.jaas.config", "secret"},
                      {"consumer.override.ssl.keystore.password", "secret"},
                      {"consumer.override.client.id", "visible"}};
  absl::StatusOr<ConfigInfos> infos = ValidateConnectorConfig(Registry(), Worker("All"), config);
  ASSERT_TRUE(infos.ok()) << infos.status();
  std::map<std::string, std::string> shown;
  for (const ConfigInfo& info : infos->configs) {
    if (info.value && info.value->value) shown[info.value->name] = *info.value->value;
  }
  EXPECT_EQ(shown["consumer.override.sasl.jaas.config"], "[hidden]");
  EXPECT_EQ(shown["consumer.override.ssl.keystore.password"], "[hidden]");
  EXPECT_EQ(shown["consumer.override.client.id"], "visible");
}

TEST(ClientOverrideValidationTest, AWriteIsRefusedWithEveryErrorInJavasMessage) {
  absl::Status refused = ValidateForWrite(Registry(), Worker("None"), kSource);
  EXPECT_EQ(refused.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(refused.message(),
              HasSubstr("Connector configuration is invalid and contains the following 2 "
                        "error(s):\n"));
  EXPECT_THAT(refused.message(), HasSubstr(Refused("None", "acks")));
  EXPECT_THAT(refused.message(), HasSubstr(Refused("None", "sasl.mechanism")));
  EXPECT_TRUE(ValidateForWrite(Registry(), Worker("All"), kSource).ok());
}

// ---- The policy's names ----------------------------------------------------------------------

TEST(ClientOverridePolicyTest, NamedByAliasSimpleOrQualifiedClassNameOnly) {
  for (const std::string name :
       {"None", "NoneConnectorClientConfigOverridePolicy",
        "org.apache.kafka.connect.connector.policy.NoneConnectorClientConfigOverridePolicy"}) {
    absl::StatusOr<config::ClientOverridePolicy> p = config::ClientOverridePolicy::Create(name, {});
    ASSERT_TRUE(p.ok()) << name << ": " << p.status();
    EXPECT_EQ(p->name(), "None");
    EXPECT_FALSE(p->Allows("acks"));
  }
  // Java's plugin lookup is case-sensitive: "none" stops its worker.
  for (const std::string name : {"none", "Bogus", ""}) {
    absl::StatusOr<config::ClientOverridePolicy> p = config::ClientOverridePolicy::Create(name, {});
    ASSERT_FALSE(p.ok()) << name;
    EXPECT_THAT(p.status().message(),
                HasSubstr("Failed to find any class that implements interface "
                          "org.apache.kafka.connect.connector.policy."
                          "ConnectorClientConfigOverridePolicy and which name matches " +
                          name));
  }
}

TEST(ClientOverridePolicyTest, TheWorkerConfigResolvesItAndRefusesAnUnknownOne) {
  const std::map<std::string, std::string> base = {
      {"bootstrap.servers", "127.0.0.1:1"},
      {"key.converter", "org.apache.kafka.connect.storage.StringConverter"},
      {"value.converter", "org.apache.kafka.connect.storage.StringConverter"},
      {"offset.storage.file.filename", "/dev/null"}};
  auto with = [&](std::map<std::string, std::string> more) {
    more.insert(base.begin(), base.end());
    return config::WorkerConfig::Create(more, config::WorkerMode::kStandalone);
  };
  absl::StatusOr<config::WorkerConfig> defaulted = with({});
  ASSERT_TRUE(defaulted.ok()) << defaulted.status();
  EXPECT_EQ(defaulted->client_override_policy().name(), "All");

  absl::StatusOr<config::WorkerConfig> allowlist =
      with({{"connector.client.config.override.policy", "Allowlist"},
            {"connector.client.config.override.allowlist", " acks , linger.ms"}});
  ASSERT_TRUE(allowlist.ok()) << allowlist.status();
  EXPECT_TRUE(allowlist->client_override_policy().Allows("linger.ms"));
  EXPECT_FALSE(allowlist->client_override_policy().Allows("batch.size"));

  absl::StatusOr<config::WorkerConfig> principal =
      with({{"connector.client.config.override.policy", "Principal"}});
  ASSERT_TRUE(principal.ok()) << principal.status();
  EXPECT_THAT(principal->warnings(),
              testing::Contains(HasSubstr("The Principal ConnectorClientConfigOverridePolicy is "
                                          "deprecated, use the Allowlist policy instead.")));

  absl::StatusOr<config::WorkerConfig> bogus =
      with({{"connector.client.config.override.policy", "Bogus"}});
  EXPECT_FALSE(bogus.ok());
}

}  // namespace
}  // namespace connectd::herder
