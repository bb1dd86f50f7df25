// sasl.jaas.config read as Java's JaasConfig reads it, and a Java client's OAUTHBEARER and GSSAPI
// settings as librdkafka's (which the group client reads too): KIP-768 client credentials, the
// unsecured login, Krb5LoginModule's keytab and ticket cache, and what stops the client naming
// the key.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "jvm/java_client_config.h"
#include "jvm/java_jaas_config.h"
#include "tests/unit/jvm/scoped_kafka_opts.h"

namespace connectd::jvm {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

constexpr char kModule[] = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule";
constexpr char kHandler[] =
    "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler";

TEST(JaasConfigTest, ReadsOneModuleWithQuotedAndBareOptions) {
  std::string error;
  std::optional<JaasLoginModule> m = ParseJaasConfig(
      "  org.apache.kafka.common.security.plain.PlainLoginModule required\n"
      "   username=\"al ice\" password=\"p\\\"w;d=\" debug=true ;  ",
      error);
  ASSERT_TRUE(m.has_value()) << error;
  EXPECT_EQ(m->class_name, "org.apache.kafka.common.security.plain.PlainLoginModule");
  EXPECT_EQ(m->flag, "required");
  EXPECT_EQ(m->options.at("username"), "al ice");
  EXPECT_EQ(m->options.at("password"), "p\"w;d=");
  EXPECT_EQ(m->options.at("debug"), "true");
  EXPECT_TRUE(m->Is("PlainLoginModule"));
  EXPECT_FALSE(m->Is("LoginModule"));
}

TEST(JaasConfigTest, RefusesWhatJavaRefusesWithoutQuotingTheValue) {
  for (const char* bad : {"", "org.Module", "org.Module mandatory;", "org.Module required a=1",
                          "org.Module required password=\"secret;",
                          "org.A required; org.B required;", "org.Module required =x;"}) {
    std::string error;
    EXPECT_FALSE(ParseJaasConfig(bad, error).has_value()) << bad;
    EXPECT_THAT(error, HasSubstr("sasl.jaas.config")) << bad;
    EXPECT_THAT(error, Not(HasSubstr("secret"))) << bad;
  }
}

// The token endpoints these tests name, on Java's allow-list (empty by default: nothing allowed).
class AllowedTokenUrls : public ScopedKafkaOpts {
 public:
  AllowedTokenUrls()
      : ScopedKafkaOpts(
            "-Xmx1g -Dorg.apache.kafka.sasl.oauthbearer.allowed.urls="
            "https://idp.example.com/oauth2/token,http://127.0.0.1:8080/token,https://idp/token,"
            "file:///var/run/token.jwt") {}
};

std::map<std::string, std::string> OAuth(std::map<std::string, std::string> extra) {
  std::map<std::string, std::string> java{{"security.protocol", "SASL_SSL"},
                                          {"sasl.mechanism", "OAUTHBEARER"}};
  for (auto& [k, v] : extra) java[k] = v;
  return java;
}

TEST(JavaOAuthBearerTest, ClientCredentialsFromTheJaasOptions) {
  AllowedTokenUrls allowed;
  TranslatedConfig t = TranslateJavaClientConfig(
      OAuth({{"sasl.login.callback.handler.class", kHandler},
             {"sasl.oauthbearer.token.endpoint.url", "https://idp.example.com/oauth2/token"},
             {"sasl.login.connect.timeout.ms", "5000"},
             {"sasl.login.refresh.window.factor", "0.8"},
             {"sasl.oauthbearer.expected.audience", "kafka"},
             {"sasl.jaas.config",
              std::string(kModule) + " required clientId=\"connect\" clientSecret=\"s3cret\" "
                                     "scope=\"kafka.write\" extension_logicalCluster=\"lkc-1\";"}}),
      ClientRole::kProducer);
  EXPECT_THAT(t.errors, IsEmpty());
  EXPECT_EQ(t.properties.at("sasl.mechanisms"), "OAUTHBEARER");
  EXPECT_EQ(t.properties.at("sasl.oauthbearer.method"), "oidc");
  EXPECT_EQ(t.properties.at("sasl.oauthbearer.token.endpoint.url"),
            "https://idp.example.com/oauth2/token");
  EXPECT_EQ(t.properties.at("sasl.oauthbearer.client.id"), "connect");
  EXPECT_EQ(t.properties.at("sasl.oauthbearer.client.secret"), "s3cret");
  EXPECT_EQ(t.properties.at("sasl.oauthbearer.scope"), "kafka.write");
  EXPECT_EQ(t.properties.at("sasl.oauthbearer.extensions"), "logicalCluster=lkc-1");
  // Java-only keys are not handed to librdkafka as they are.
  for (const char* key : {"sasl.jaas.config", "sasl.login.callback.handler.class",
                          "sasl.login.connect.timeout.ms", "sasl.login.refresh.window.factor",
                          "sasl.oauthbearer.expected.audience", "sasl.username"}) {
    EXPECT_EQ(t.properties.count(key), 0u) << key;
  }
}

TEST(JavaOAuthBearerTest, Kafka41ConfigKeysWinOverTheJaasOptionsAndUrlEncodeIsHonoured) {
  AllowedTokenUrls allowed;
  TranslatedConfig t = TranslateJavaClientConfig(
      OAuth(
          {{"sasl.login.callback.handler.class",
            "org.apache.kafka.common.security.oauthbearer.secured.OAuthBearerLoginCallbackHandler"},
           {"sasl.oauthbearer.token.endpoint.url", "http://127.0.0.1:8080/token"},
           {"sasl.oauthbearer.client.credentials.client.id", "svc account"},
           {"sasl.oauthbearer.client.credentials.client.secret", "a:b&c"},
           {"sasl.oauthbearer.scope", "s1 s2"},
           {"sasl.oauthbearer.header.urlencode", "true"},
           {"sasl.jaas.config",
            std::string(kModule) + " required clientId=\"old\" clientSecret=\"old\";"}}),
      ClientRole::kConsumer);
  EXPECT_THAT(t.errors, IsEmpty());
  EXPECT_EQ(t.properties.at("sasl.oauthbearer.client.id"), "svc+account");
  EXPECT_EQ(t.properties.at("sasl.oauthbearer.client.secret"), "a%3Ab%26c");
  EXPECT_EQ(t.properties.at("sasl.oauthbearer.scope"), "s1 s2");
}

TEST(JavaOAuthBearerTest, TheTokenEndpointsTrustStoreComesFromTheJaasOptions) {
  AllowedTokenUrls allowed;
  TranslatedConfig t = TranslateJavaClientConfig(
      OAuth({{"sasl.login.callback.handler.class", kHandler},
             {"sasl.oauthbearer.token.endpoint.url", "https://idp/token"},
             {"sasl.jaas.config", std::string(kModule) +
                                      " required clientId=\"c\" clientSecret=\"s\" "
                                      "ssl.truststore.type=\"PEM\" "
                                      "ssl.truststore.location=\"/etc/idp-ca.pem\";"}}),
      ClientRole::kAdmin);
  EXPECT_THAT(t.errors, IsEmpty());
  EXPECT_EQ(t.properties.at("https.ca.location"), "/etc/idp-ca.pem");
  TranslatedConfig keystore = TranslateJavaClientConfig(
      OAuth({{"sasl.login.callback.handler.class", kHandler},
             {"sasl.oauthbearer.token.endpoint.url", "https://idp/token"},
             {"sasl.jaas.config", std::string(kModule) +
                                      " required clientId=\"c\" clientSecret=\"s\" "
                                      "ssl.keystore.location=\"/etc/k.jks\";"}}),
      ClientRole::kAdmin);
  ASSERT_EQ(keystore.errors.size(), 1u);
  EXPECT_THAT(keystore.errors[0], HasSubstr("ssl.keystore.location"));
}

TEST(JavaOAuthBearerTest, WhatConnectdCannotDoStopsTheClientNamingTheKey) {
  AllowedTokenUrls allowed;
  struct Case {
    std::map<std::string, std::string> java;
    std::string named;
  };
  const std::string credentials =
      std::string(kModule) + " required clientId=\"c\" clientSecret=\"topsecret\";";
  const std::vector<Case> cases = {
      {{{"sasl.login.callback.handler.class", kHandler}, {"sasl.jaas.config", credentials}},
       "sasl.oauthbearer.token.endpoint.url is required"},
      {{{"sasl.login.callback.handler.class", kHandler},
        {"sasl.oauthbearer.token.endpoint.url", "file:///var/run/token.jwt"},
        {"sasl.jaas.config", credentials}},
       "reading the token from a file"},
      {{{"sasl.login.callback.handler.class", kHandler},
        {"sasl.oauthbearer.token.endpoint.url", "https://idp/token"},
        {"sasl.oauthbearer.assertion.file", "/etc/assertion.jwt"},
        {"sasl.jaas.config", credentials}},
       "sasl.oauthbearer.assertion.file"},
      {{{"sasl.login.callback.handler.class", kHandler},
        {"sasl.oauthbearer.token.endpoint.url", "https://idp/token"},
        {"sasl.oauthbearer.jwt.retriever.class",
         "org.apache.kafka.common.security.oauthbearer.JwtBearerJwtRetriever"},
        {"sasl.jaas.config", credentials}},
       "sasl.oauthbearer.jwt.retriever.class"},
      {{{"sasl.login.callback.handler.class", kHandler},
        {"sasl.oauthbearer.token.endpoint.url", "https://idp/token"},
        {"sasl.jaas.config", std::string(kModule) + " required clientId=\"c\";"}},
       "clientSecret"},
      {{{"sasl.login.callback.handler.class", "com.example.MyLoginHandler"},
        {"sasl.jaas.config", credentials}},
       "sasl.login.callback.handler.class"},
      {{{"sasl.login.callback.handler.class", "com.example.OAuthBearerLoginCallbackHandler"},
        {"sasl.jaas.config", credentials}},
       "sasl.login.callback.handler.class"},
      {{{"sasl.jaas.config",
         "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" "
         "password=\"topsecret\";"}},
       "OAuthBearerLoginModule"},
      {{}, "sasl.jaas.config is required"},
      {{{"sasl.jaas.config", std::string(kModule) + " required;"}},
       "unsecuredLoginStringClaim_sub"},
      {{{"sasl.jaas.config", std::string(kModule) + " required unsecuredLoginStringClaim_sub=\"a\" "
                                                    "unsecuredLoginStringClaim_iss=\"me\";"}},
       "unsecuredLoginStringClaim_iss"},
  };
  for (const Case& c : cases) {
    TranslatedConfig t = TranslateJavaClientConfig(OAuth(c.java), ClientRole::kAdmin);
    ASSERT_FALSE(t.errors.empty()) << c.named;
    EXPECT_THAT(t.errors[0], HasSubstr(c.named));
    for (const std::string& e : t.errors) EXPECT_THAT(e, Not(HasSubstr("topsecret")));
  }
}

TEST(JavaOAuthBearerTest, TheUnsecuredLoginAsLibrdkafkasUnsecuredJwt) {
  TranslatedConfig t = TranslateJavaClientConfig(
      OAuth(
          {{"sasl.jaas.config",
            std::string(kModule) +
                " required unsecuredLoginStringClaim_sub=\"alice\" "
                "unsecuredLoginListClaim_scope=\"|read|write\" "
                "unsecuredLoginLifetimeSeconds=\"600\" unsecuredLoginExtension_traceId=\"t1\";"}}),
      ClientRole::kAdmin);
  EXPECT_THAT(t.errors, IsEmpty());
  EXPECT_EQ(t.properties.at("enable.sasl.oauthbearer.unsecure.jwt"), "true");
  EXPECT_EQ(t.properties.at("sasl.oauthbearer.config"),
            "principalClaimName=sub principal=alice scopeClaimName=scope scope=read,write "
            "lifeSeconds=600 extension_traceId=t1");
  // The explicit class name of Java's default handler means the same.
  TranslatedConfig named = TranslateJavaClientConfig(
      OAuth({{"sasl.login.callback.handler.class",
              "org.apache.kafka.common.security.oauthbearer.internals.unsecured."
              "OAuthBearerUnsecuredLoginCallbackHandler"},
             {"sasl.jaas.config", std::string(kModule) +
                                      " required unsecuredLoginPrincipalClaimName=azp "
                                      "unsecuredLoginStringClaim_azp=\"svc\";"}}),
      ClientRole::kAdmin);
  EXPECT_THAT(named.errors, IsEmpty());
  EXPECT_EQ(named.properties.at("sasl.oauthbearer.config"),
            "principalClaimName=azp principal=svc scopeClaimName=scope");
}

TEST(JavaOAuthBearerTest, OtherMechanismsIgnoreTheOAuthKeys) {
  TranslatedConfig t = TranslateJavaClientConfig(
      {{"security.protocol", "SASL_SSL"},
       {"sasl.mechanism", "SCRAM-SHA-512"},
       {"sasl.oauthbearer.token.endpoint.url", "https://idp/token"},
       {"sasl.oauthbearer.assertion.file", "/etc/a.jwt"},
       {"sasl.jaas.config",
        "org.apache.kafka.common.security.scram.ScramLoginModule required "
        "username=\"u\" password=\"p\";"}},
      ClientRole::kAdmin);
  EXPECT_THAT(t.errors, IsEmpty());
  EXPECT_EQ(t.properties.at("sasl.username"), "u");
  EXPECT_EQ(t.properties.count("sasl.oauthbearer.method"), 0u);
  EXPECT_EQ(t.properties.count("sasl.oauthbearer.assertion.file"), 0u);
}

constexpr char kKrb5[] = "com.sun.security.auth.module.Krb5LoginModule";

std::map<std::string, std::string> Kerberos(std::map<std::string, std::string> extra) {
  std::map<std::string, std::string> java{{"security.protocol", "SASL_PLAINTEXT"}};
  for (auto& [k, v] : extra) java[k] = v;
  return java;
}

TEST(JavaKerberosTest, AKeytabLoginAsLibrdkafkasKeytabAndPrincipal) {
  // No sasl.mechanism: Java's default is GSSAPI.
  TranslatedConfig t = TranslateJavaClientConfig(
      Kerberos(
          {{"sasl.kerberos.service.name", "kafka"},
           {"sasl.kerberos.min.time.before.relogin", "30000"},
           {"sasl.kerberos.ticket.renew.window.factor", "0.8"},
           {"sasl.kerberos.kinit.cmd", "/usr/bin/kinit"},
           {"sasl.jaas.config", std::string(kKrb5) + " required useKeyTab=true storeKey=true "
                                                     "keyTab=\"/etc/security/connect.keytab\" "
                                                     "principal=\"connect/host1@EXAMPLE.COM\";"}}),
      ClientRole::kConsumer);
  EXPECT_THAT(t.errors, IsEmpty());
  EXPECT_EQ(t.properties.at("sasl.kerberos.service.name"), "kafka");
  EXPECT_EQ(t.properties.at("sasl.kerberos.keytab"), "/etc/security/connect.keytab");
  EXPECT_EQ(t.properties.at("sasl.kerberos.principal"), "connect/host1@EXAMPLE.COM");
  // Logins renew on Java's defaults; librdkafka's kinit is never on (jvm/client_conf.h).
  for (const char* key :
       {"sasl.kerberos.kinit.cmd", "sasl.kerberos.ticket.renew.window.factor",
        "sasl.kerberos.min.time.before.relogin", "sasl.jaas.config", "sasl.username"}) {
    EXPECT_EQ(t.properties.count(key), 0u) << key;
  }
}

TEST(JavaKerberosTest, TheTicketCacheAsItIsAndTheJaasServiceName) {
  TranslatedConfig t = TranslateJavaClientConfig(
      Kerberos({{"sasl.mechanism", "GSSAPI"},
                {"sasl.jaas.config",
                 std::string(kKrb5) + " required useTicketCache=true serviceName=\"kafka\";"}}),
      ClientRole::kAdmin);
  EXPECT_THAT(t.errors, IsEmpty());
  EXPECT_EQ(t.properties.at("sasl.kerberos.service.name"), "kafka");
  EXPECT_EQ(t.properties.count("sasl.kerberos.min.time.before.relogin"), 0u);
  EXPECT_EQ(t.properties.count("sasl.kerberos.keytab"), 0u);
}

TEST(JavaKerberosTest, WhatConnectdCannotDoIsNamed) {
  struct Case {
    std::map<std::string, std::string> java;
    std::string named;
  };
  const std::string keytab =
      std::string(kKrb5) + " required useKeyTab=true keyTab=\"/k\" principal=\"p@R\";";
  for (const Case& c : std::vector<Case>{
           {{{"sasl.jaas.config", keytab}}, "sasl.kerberos.service.name is required"},
           {{{"sasl.kerberos.service.name", "kafka"},
             {"sasl.kerberos.kinit.cmd", "/opt/kinit"},
             {"sasl.jaas.config", keytab}},
            "sasl.kerberos.kinit.cmd"},
           {{{"sasl.kerberos.service.name", "kafka"},
             {"sasl.jaas.config", std::string(kKrb5) + " required useKeyTab=true;"}},
            "keyTab and principal"},
           {{{"sasl.kerberos.service.name", "kafka"},
             {"sasl.jaas.config", std::string(kKrb5) + " required;"}},
            "cannot prompt"},
           {{{"sasl.kerberos.service.name", "kafka"},
             {"sasl.jaas.config",
              std::string(kKrb5) + " required useTicketCache=true ticketCache=\"/tmp/c\";"}},
            "KRB5CCNAME"},
       }) {
    TranslatedConfig t = TranslateJavaClientConfig(Kerberos(c.java), ClientRole::kAdmin);
    ASSERT_FALSE(t.errors.empty()) << c.named;
    EXPECT_THAT(t.errors[0], HasSubstr(c.named));
  }
}

}  // namespace
}  // namespace connectd::jvm
