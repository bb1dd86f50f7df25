// The choke point for hostile client configs (issue 48): whatever a connector config, its
// overrides or a MirrorMaker prefix set, TranslateJavaClientConfig hands librdkafka only
// allow-listed properties, never one that loads code or runs a command, Kerberos names only in
// their syntax, token URLs only from Java's allow-list, login modules only as Java's system
// properties allow; and every refusal names the key. The allow-list is checked against the
// librdkafka connectd links (every property it knows has a row) and against Java's client
// ConfigDefs (every Java client key is handled, none refused as unknown).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <librdkafka/rdkafka.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "jvm/java_client_config.h"
#include "jvm/java_kerberos_config.h"
#include "jvm/librdkafka_properties.h"
#include "tests/unit/jvm/scoped_kafka_opts.h"

namespace connectd::jvm {
namespace {

using ::testing::AllOf;
using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

constexpr char kKrb5[] = "com.sun.security.auth.module.Krb5LoginModule";

std::string Joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) out += line + "\n";
  return out;
}

TranslatedConfig Kerberos(const std::string& options) {
  return TranslateJavaClientConfig(
      {{"security.protocol", "SASL_PLAINTEXT"},
       {"sasl.mechanism", "GSSAPI"},
       {"sasl.kerberos.service.name", "kafka"},
       {"sasl.jaas.config", std::string(kKrb5) + " required useKeyTab=true " + options + ";"}},
      ClientRole::kProducer);
}

// The issue's reproduction: a keytab and a principal with shell text in them.
TEST(HostileClientConfigTest, ShellTextInTheKerberosPrincipalOrKeytabIsRefusedNamingTheOption) {
  TranslatedConfig principal = Kerberos(R"(keyTab="/etc/k.keytab" principal="x;touch b")");
  EXPECT_THAT(Joined(principal.errors), HasSubstr("sasl.jaas.config option principal is refused"));
  EXPECT_EQ(principal.properties.count("sasl.kerberos.principal"), 0u);
  for (const char* bad : {"x`id`", "x$(id)", "x y@R", "x@R@S", "@R", "x//y@R", "x\n@R", "x'@R"}) {
    TranslatedConfig t = Kerberos(std::string("keyTab=\"/k\" principal=\"") + bad + "\"");
    EXPECT_THAT(Joined(t.errors), HasSubstr("option principal is refused")) << bad;
    EXPECT_THAT(Joined(t.errors), Not(HasSubstr(bad))) << "the value is not echoed";
  }
  for (const char* bad : {"kt$(touch a)", "../../etc/shadow", "/etc/../etc/k", "MEMORY:x",
                          "WRFILE:/tmp/k", "FILE:relative", "/a/./b", "/k\n"}) {
    TranslatedConfig t = Kerberos(std::string("keyTab=\"") + bad + "\" principal=\"p@R\"");
    EXPECT_THAT(Joined(t.errors), HasSubstr("option keyTab is refused")) << bad;
    EXPECT_EQ(t.properties.count("sasl.kerberos.keytab"), 0u) << bad;
  }
  // What Kerberos principals and keytabs are made of still passes.
  TranslatedConfig good =
      Kerberos(R"(keyTab="FILE:/etc/security/c.keytab" principal="connect/h-1.ex.com@EX.COM")");
  EXPECT_THAT(good.errors, IsEmpty());
  EXPECT_EQ(good.properties.at("sasl.kerberos.principal"), "connect/h-1.ex.com@EX.COM");
  EXPECT_THAT(Kerberos(R"(keyTab="/k" principal="HOST$@AD.EX.COM")").errors, IsEmpty());
}

TEST(HostileClientConfigTest, LibrdkafkasOwnKerberosKeysAreCheckedAlike) {
  TranslatedConfig t = TranslateJavaClientConfig({{"security.protocol", "SASL_PLAINTEXT"},
                                                  {"sasl.mechanisms", "GSSAPI"},
                                                  {"sasl.kerberos.principal", "a;b"},
                                                  {"sasl.kerberos.keytab", "rel/k"}},
                                                 ClientRole::kConsumer);
  EXPECT_THAT(t.errors, Contains(HasSubstr("sasl.kerberos.principal is refused")));
  EXPECT_THAT(t.errors, Contains(HasSubstr("sasl.kerberos.keytab is refused")));
  EXPECT_EQ(t.properties.count("sasl.kerberos.principal"), 0u);
  EXPECT_EQ(t.properties.count("sasl.kerberos.keytab"), 0u);
}

TEST(HostileClientConfigTest, PropertiesThatLoadCodeRunCommandsOrWriteFilesAreRefused) {
  for (const char* key :
       {"plugin.library.paths", "ssl.engine.location", "ssl.engine.id", "ssl.providers",
        "offset.store.method", "offset.store.path", "offset.store.sync.interval.ms",
        "internal.termination.signal", "sasl.oauthbearer.metadata.authentication.type",
        "interceptors", "opaque", "default_topic_conf", "dr_msg_cb", "ssl_engine_callback_data"}) {
    TranslatedConfig t = TranslateJavaClientConfig({{key, "/tmp/x"}}, ClientRole::kProducer);
    EXPECT_THAT(Joined(t.errors), AllOf(HasSubstr(key), HasSubstr("is not accepted"))) << key;
    EXPECT_EQ(t.properties.count(key), 0u) << key;
  }
  // librdkafka's hidden and topic-prefixed names: not on the list, so refused as unknown.
  for (const char* key : {"test.mock.num.brokers", "ut_handle_ProduceResponse",
                          "topic.offset.store.path", "topic.offset.store.method"}) {
    TranslatedConfig t = TranslateJavaClientConfig({{key, "3"}}, ClientRole::kProducer);
    EXPECT_THAT(Joined(t.errors), AllOf(HasSubstr(key), HasSubstr("not a Kafka client config")))
        << key;
    EXPECT_EQ(t.properties.count(key), 0u) << key;
  }
  // OAuth client-assertion files: refused with OAUTHBEARER, dropped with any other mechanism.
  TranslatedConfig assertion = TranslateJavaClientConfig(
      {{"sasl.oauthbearer.assertion.private.key.file", "/etc/shadow"}}, ClientRole::kProducer);
  EXPECT_EQ(assertion.properties.count("sasl.oauthbearer.assertion.private.key.file"), 0u);
  // What connectd sets for itself, a config may not.
  TranslatedConfig own =
      TranslateJavaClientConfig({{"enable.partition.eof", "true"}}, ClientRole::kConsumer);
  EXPECT_THAT(Joined(own.errors), HasSubstr("enable.partition.eof is not accepted"));
}

// Found by the client_config fuzz target: a key store path naming a directory made the read
// throw through the translation (a REST call could end the worker). Directories, devices and
// FIFOs are refused; nothing reads without end.
TEST(HostileClientConfigTest, KeyStoresAndFilesAreRegularFilesNeverDirectoriesOrDevices) {
  const std::string fifo = ::testing::TempDir() + "/hostile-fifo";
  unlink(fifo.c_str());
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& path :
       {std::string("/"), std::string("/etc"), std::string("/dev/zero"), fifo}) {
    for (const char* type : {"JKS", "PKCS12"}) {
      TranslatedConfig t = TranslateJavaClientConfig({{"security.protocol", "SSL"},
                                                      {"ssl.truststore.location", path},
                                                      {"ssl.truststore.type", type},
                                                      {"ssl.keystore.location", path},
                                                      {"ssl.keystore.type", type}},
                                                     ClientRole::kProducer);
      EXPECT_THAT(Joined(t.errors),
                  AllOf(HasSubstr("ssl.truststore.location"), HasSubstr("ssl.keystore.location")))
          << path << " " << type;
    }
  }
  for (const std::string& path : {std::string("/dev/zero"), fifo}) {
    TranslatedConfig pem = TranslateJavaClientConfig({{"security.protocol", "SSL"},
                                                      {"ssl.truststore.type", "PEM"},
                                                      {"ssl.truststore.location", path}},
                                                     ClientRole::kConsumer);
    EXPECT_THAT(pem.errors, Contains(HasSubstr("ssl.ca.location must name a file or a directory")))
        << path;
    EXPECT_EQ(pem.properties.count("ssl.ca.location"), 0u);
    TranslatedConfig keytab = Kerberos("keyTab=\"" + path + "\" principal=\"p@R\"");
    EXPECT_THAT(keytab.errors, Contains(HasSubstr("sasl.kerberos.keytab must name a file")))
        << path;
  }
  // A CA directory is what OpenSSL takes as well.
  EXPECT_THAT(TranslateJavaClientConfig({{"security.protocol", "SSL"},
                                         {"ssl.truststore.type", "PEM"},
                                         {"ssl.truststore.location", "/etc/ssl/certs"}},
                                        ClientRole::kAdmin)
                  .errors,
              IsEmpty());
  unlink(fifo.c_str());
}

TEST(HostileClientConfigTest, LibrdkafkasKinitNeverReceivesAConfigsCommandLine) {
  for (const char* protocol : {"PLAINTEXT", "SASL_PLAINTEXT", "SASL_SSL"}) {
    TranslatedConfig t = TranslateJavaClientConfig(
        {{"security.protocol", protocol},
         {"sasl.mechanism", "GSSAPI"},
         {"sasl.kerberos.service.name", "kafka"},
         {"sasl.kerberos.kinit.cmd", "touch /tmp/pwned"},
         {"sasl.jaas.config", std::string(kKrb5) + " required useTicketCache=true;"}},
        ClientRole::kAdmin);
    EXPECT_EQ(t.properties.count("sasl.kerberos.kinit.cmd"), 0u) << protocol;
    EXPECT_EQ(t.properties.count("sasl.kerberos.min.time.before.relogin"), 0u) << protocol;
  }
}

TEST(HostileClientConfigTest, UnknownKeysAreRefusedUnlessTheOperatorAsksForJavasWay) {
  TranslatedConfig refused =
      TranslateJavaClientConfig({{"no.such.config", "x"}}, ClientRole::kConsumer);
  EXPECT_THAT(refused.errors, Contains(HasSubstr("no.such.config is not a Kafka client config")));
  ScopedKafkaOpts opts("-Dconnectd.client.unknown.configs=ignore");
  TranslatedConfig ignored =
      TranslateJavaClientConfig({{"no.such.config", "x"}}, ClientRole::kConsumer);
  EXPECT_THAT(ignored.errors, IsEmpty());
  EXPECT_THAT(ignored.warnings, Contains(HasSubstr("'no.such.config' was supplied")));
  EXPECT_EQ(ignored.properties.count("no.such.config"), 0u);
  // Never for what loads code.
  EXPECT_THAT(
      TranslateJavaClientConfig({{"plugin.library.paths", "/x.so"}}, ClientRole::kAdmin).errors,
      Not(IsEmpty()));
}

std::map<std::string, std::string> OAuth(const std::string& url) {
  return {{"security.protocol", "SASL_SSL"},
          {"sasl.mechanism", "OAUTHBEARER"},
          {"sasl.login.callback.handler.class",
           "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler"},
          {"sasl.oauthbearer.token.endpoint.url", url},
          {"sasl.jaas.config",
           "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required "
           "clientId=\"c\" clientSecret=\"topsecret\";"}};
}

TEST(HostileClientConfigTest, TokenEndpointsOnlyFromJavasAllowList) {
  // Java 4.x: empty by default, and empty allows nothing.
  const std::string denied =
      "Invalid value http://127.0.0.1:9/token for configuration "
      "sasl.oauthbearer.token.endpoint.url: The URL cannot be accessed due to restrictions. Update "
      "the system property 'org.apache.kafka.sasl.oauthbearer.allowed.urls' to allow the URL to "
      "be accessed.";
  TranslatedConfig t =
      TranslateJavaClientConfig(OAuth("http://127.0.0.1:9/token"), ClientRole::kProducer);
  EXPECT_THAT(t.errors, Contains(denied));
  EXPECT_EQ(t.properties.count("sasl.oauthbearer.token.endpoint.url"), 0u);
  for (const char* url : {"file:///etc/passwd", "https://169.254.169.254/token"}) {
    EXPECT_THAT(Joined(TranslateJavaClientConfig(OAuth(url), ClientRole::kAdmin).errors),
                HasSubstr("cannot be accessed due to restrictions"))
        << url;
  }
  EXPECT_THAT(Joined(TranslateJavaClientConfig(OAuth("gopher://x/"), ClientRole::kAdmin).errors),
              HasSubstr("contains an invalid protocol (gopher)"));
  {
    ScopedKafkaOpts opts(
        "-Dorg.apache.kafka.sasl.oauthbearer.allowed.urls=https://idp/token,"
        "http://127.0.0.1:9/token");
    TranslatedConfig allowed =
        TranslateJavaClientConfig(OAuth("http://127.0.0.1:9/token"), ClientRole::kProducer);
    EXPECT_THAT(allowed.errors, IsEmpty());
    EXPECT_EQ(allowed.properties.at("sasl.oauthbearer.token.endpoint.url"),
              "http://127.0.0.1:9/token");
    // Exact URLs only: no prefix, no other path.
    EXPECT_THAT(
        TranslateJavaClientConfig(OAuth("http://127.0.0.1:9/token2"), ClientRole::kAdmin).errors,
        Not(IsEmpty()));
  }
}

TEST(HostileClientConfigTest, LoginModulesAsJavasSystemPropertiesAllow) {
  auto with = [](const std::string& module) {
    return TranslateJavaClientConfig(
        {{"security.protocol", "SASL_PLAINTEXT"},
         {"sasl.mechanism", "PLAIN"},
         {"sasl.jaas.config", module + " required user.provider.url=\"ldap://127.0.0.1:9/o\";"}},
        ClientRole::kProducer);
  };
  EXPECT_THAT(
      with("com.sun.security.auth.module.JndiLoginModule").errors,
      Contains("sasl.jaas.config: com.sun.security.auth.module.JndiLoginModule is not allowed. The "
               "system property 'org.apache.kafka.disallowed.login.modules' is deprecated. Use the "
               "org.apache.kafka.allowed.login.modules to allow this module. "
               "e.g.,-Dorg.apache.kafka.allowed.login.modules="
               "com.sun.security.auth.module.JndiLoginModule"));
  EXPECT_THAT(Joined(with("com.sun.security.auth.module.LdapLoginModule").errors),
              HasSubstr("LdapLoginModule is not allowed"));
  ScopedKafkaOpts opts(
      "-Dorg.apache.kafka.allowed.login.modules="
      "org.apache.kafka.common.security.scram.ScramLoginModule");
  EXPECT_THAT(
      with("org.apache.kafka.common.security.plain.PlainLoginModule").errors,
      Contains("sasl.jaas.config: org.apache.kafka.common.security.plain.PlainLoginModule is not "
               "allowed. Update System property 'org.apache.kafka.allowed.login.modules' to allow "
               "org.apache.kafka.common.security.plain.PlainLoginModule"));
}

// Every property the linked librdkafka knows has a row: a new one is refused until decided.
TEST(LibrdkafkaAllowListTest, EveryPropertyOfTheLinkedLibrdkafkaHasARow) {
  char* text = nullptr;
  size_t size = 0;
  FILE* out = open_memstream(&text, &size);
  ASSERT_NE(out, nullptr);
  rd_kafka_conf_properties_show(out);
  std::fclose(out);
  std::istringstream lines(std::string(text, size));
  std::free(text);
  int rows = 0;
  for (std::string line; std::getline(lines, line);) {
    const size_t bar = line.find('|');
    if (bar == std::string::npos || line.rfind("Property", 0) == 0 || line[0] == '-') continue;
    std::string name = line.substr(0, bar);
    name.erase(name.find_last_not_of(' ') + 1);
    if (name.empty()) continue;
    ++rows;
    EXPECT_NE(FindLibrdkafkaProperty(name), nullptr) << name << " has no row";
  }
  EXPECT_GT(rows, 150);
}

// Java's client keys (kafka-clients 4.4's ConfigDefs, tests/golden/client_defaults): none is
// refused as unknown or as librdkafka's.
TEST(LibrdkafkaAllowListTest, EveryJavaClientKeyIsHandled) {
  const char* env = std::getenv("CONNECTD_SOURCE_DIR");
  std::ifstream in(std::string(env != nullptr ? env : CONNECTD_SOURCE_DIR) +
                   "/tests/golden/client_defaults/java_client_defaults.tsv");
  std::string line;
  std::getline(in, line);
  int keys = 0;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string client, key, value;
    std::getline(fields, client, '\t');
    std::getline(fields, key, '\t');
    std::getline(fields, value, '\t');
    if (value == "<none>" || value == "<null>" || value == "<password>") value = "";
    const ClientRole role = client == "producer"   ? ClientRole::kProducer
                            : client == "consumer" ? ClientRole::kConsumer
                                                   : ClientRole::kAdmin;
    ++keys;
    TranslatedConfig t = TranslateJavaClientConfig({{key, value}}, role);
    for (const std::string& error : t.errors) {
      EXPECT_THAT(error, Not(HasSubstr("not a Kafka client config"))) << client << " " << key;
      EXPECT_THAT(error, Not(HasSubstr("is not accepted"))) << client << " " << key;
    }
  }
  EXPECT_GT(keys, 300);
}

}  // namespace
}  // namespace connectd::jvm
