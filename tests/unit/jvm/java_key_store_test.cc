// jvm::ReadJavaKeyStore against stores the JDK 17 keytool and OpenSSL wrote
// (tests/golden/keystores/generate.sh): the certificates and key that come out are the ones that
// went in, a wrong password or a damaged file is refused with a message naming the file, and
// TranslateJavaClientConfig turns a Java worker's store settings into librdkafka's PEM settings
// or an error naming the key.
#include "jvm/java_key_store.h"

#include <openssl/bio.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <fstream>
#include <iterator>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "jvm/java_client_config.h"

namespace connectd::jvm {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const std::string kDir = CONNECTD_SOURCE_DIR "/tests/golden/keystores/";

std::string Read(const std::string& name) {
  std::ifstream in(kDir + name, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Whether `key_pem` is the private key of the first certificate of `chain_pem`.
bool KeyMatchesLeaf(const std::string& key_pem, const std::string& chain_pem) {
  BIO* kb = BIO_new_mem_buf(key_pem.data(), static_cast<int>(key_pem.size()));
  BIO* cb = BIO_new_mem_buf(chain_pem.data(), static_cast<int>(chain_pem.size()));
  EVP_PKEY* key = PEM_read_bio_PrivateKey(kb, nullptr, nullptr, nullptr);
  X509* leaf = PEM_read_bio_X509(cb, nullptr, nullptr, nullptr);
  bool match = key != nullptr && leaf != nullptr && X509_check_private_key(leaf, key) == 1;
  EVP_PKEY_free(key);
  X509_free(leaf);
  BIO_free(kb);
  BIO_free(cb);
  return match;
}

std::optional<PemStore> ReadStore(const std::string& name, const std::string& type, StoreUse use,
                                  const std::string& password, std::string& error,
                                  const std::string& key_password = "") {
  return ReadJavaKeyStore(kDir + name, type, use, password, key_password, error);
}

TEST(JavaKeyStoreTest, TruststoresOfEveryTypeYieldTheTrustedCertificate) {
  // Either type reads a file of the other, as Java's (keystore.type.compat).
  for (const auto& [name, type] :
       {std::pair{"truststore.jks", "JKS"}, std::pair{"truststore.p12", "PKCS12"},
        std::pair{"truststore.p12", "pkcs12"}, std::pair{"truststore.p12", "JKS"},
        std::pair{"truststore.jks", "PKCS12"}}) {
    std::string error;
    std::optional<PemStore> store = ReadStore(name, type, StoreUse::kTrust, "changeit", error);
    ASSERT_TRUE(store.has_value()) << name << ": " << error;
    EXPECT_EQ(store->certificates, Read("ca.pem")) << name;
    EXPECT_EQ(store->private_key, "");
  }
}

TEST(JavaKeyStoreTest, AJksTruststoreWithoutPasswordIsReadWithoutIntegrityCheck) {
  // KeyStore.load(in, null): Kafka's truststore password is optional.
  std::string error;
  std::optional<PemStore> store = ReadStore("truststore.jks", "JKS", StoreUse::kTrust, "", error);
  ASSERT_TRUE(store.has_value()) << error;
  EXPECT_EQ(store->certificates, Read("ca.pem"));
}

TEST(JavaKeyStoreTest, KeystoresYieldTheKeyAndItsChainLeafFirst) {
  for (const auto& [name, type, key_password] :
       {std::tuple{"keystore.jks", "JKS", ""}, std::tuple{"keystore-keypass.jks", "JKS", "keypass"},
        std::tuple{"keystore.p12", "PKCS12", ""},
        std::tuple{"keystore-legacy.p12", "PKCS12", ""}}) {
    std::string error;
    std::optional<PemStore> store =
        ReadStore(name, type, StoreUse::kKey, "changeit", error, key_password);
    ASSERT_TRUE(store.has_value()) << name << ": " << error;
    EXPECT_EQ(store->certificates, Read("client.pem") + Read("ca.pem")) << name;
    EXPECT_TRUE(KeyMatchesLeaf(store->private_key, store->certificates)) << name;
    EXPECT_THAT(store->private_key, HasSubstr("-----BEGIN PRIVATE KEY-----")) << name;
  }
}

TEST(JavaKeyStoreTest, AWrongPasswordIsRefusedNamingTheFileNeverThePassword) {
  struct Case {
    const char* name;
    const char* type;
    StoreUse use;
    const char* password;
    const char* key_password;
    const char* says;
  };
  for (const Case& c : {
           Case{"truststore.jks", "JKS", StoreUse::kTrust, "wrong-pw", "", "integrity check"},
           Case{"truststore.p12", "PKCS12", StoreUse::kTrust, "wrong-pw", "", "integrity check"},
           Case{"keystore.p12", "PKCS12", StoreUse::kKey, "wrong-pw", "", "integrity check"},
           // The store's password is right, the key's is not (it has its own).
           Case{"keystore-keypass.jks", "JKS", StoreUse::kKey, "changeit", "", "key password"},
           Case{"keystore-keypass.jks", "JKS", StoreUse::kKey, "changeit", "wrong-pw",
                "key password"},
       }) {
    std::string error;
    EXPECT_FALSE(ReadStore(c.name, c.type, c.use, c.password, error, c.key_password).has_value())
        << c.name;
    EXPECT_THAT(error, HasSubstr(kDir + c.name)) << c.name;
    EXPECT_THAT(error, HasSubstr(c.says)) << c.name;
    EXPECT_THAT(error, Not(HasSubstr("wrong-pw"))) << c.name;
  }
}

TEST(JavaKeyStoreTest, OtherTypesDamagedFilesAndMissingFilesAreRefused) {
  std::string error;
  EXPECT_FALSE(ReadStore("truststore.jceks", "JKS", StoreUse::kTrust, "changeit", error));
  EXPECT_THAT(error, HasSubstr("JCEKS"));
  EXPECT_FALSE(ReadStore("truststore.jceks", "JCEKS", StoreUse::kTrust, "changeit", error));
  EXPECT_THAT(error, HasSubstr("store type JCEKS is not supported"));
  EXPECT_FALSE(ReadStore("ca.pem", "JKS", StoreUse::kTrust, "changeit", error));
  EXPECT_THAT(error, HasSubstr("neither a JKS nor a PKCS12 store (a PEM file needs the type PEM)"));
  EXPECT_FALSE(ReadStore("no-such-store.jks", "JKS", StoreUse::kTrust, "changeit", error));
  EXPECT_THAT(error, HasSubstr("cannot be read"));
  // A truststore has no private key to offer.
  EXPECT_FALSE(ReadStore("truststore.jks", "JKS", StoreUse::kKey, "changeit", error));
  EXPECT_THAT(error, HasSubstr("holds 0 private keys"));

  // Every truncation of a JKS store is refused, none crashes.
  const std::string jks = Read("keystore.jks");
  const std::string path = ::testing::TempDir() + "truncated.jks";
  for (size_t size : {size_t{0}, size_t{3}, size_t{12}, size_t{40}, jks.size() / 2, jks.size() - 21,
                      jks.size() - 1}) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << jks.substr(0, size);
    EXPECT_FALSE(ReadJavaKeyStore(path, "JKS", StoreUse::kKey, "changeit", "", error)) << size;
  }
}

// ---- What a Java worker's settings become ---------------------------------------------------

TEST(JavaKeyStoreTest, JavaStoreSettingsBecomePemForEveryClient) {
  TranslatedConfig t = TranslateJavaClientConfig(
      {{"security.protocol", "SSL"},
       {"ssl.truststore.location", kDir + "truststore.jks"},  // type defaults to JKS
       {"ssl.truststore.password", "changeit"},
       {"ssl.keystore.location", kDir + "keystore.p12"},
       {"ssl.keystore.type", "PKCS12"},
       {"ssl.keystore.password", "changeit"},
       {"ssl.key.password", "changeit"}},
      ClientRole::kProducer);
  EXPECT_TRUE(t.errors.empty()) << t.errors[0];
  EXPECT_EQ(t.properties["ssl.ca.pem"], Read("ca.pem"));
  EXPECT_EQ(t.properties["ssl.certificate.pem"], Read("client.pem") + Read("ca.pem"));
  EXPECT_TRUE(KeyMatchesLeaf(t.properties["ssl.key.pem"], t.properties["ssl.certificate.pem"]));
  // The key is handed over decrypted: no password and no store location go to librdkafka.
  for (const char* gone : {"ssl.keystore.location", "ssl.keystore.password", "ssl.key.password",
                           "ssl.truststore.location", "ssl.truststore.password"}) {
    EXPECT_EQ(t.properties.count(gone), 0u) << gone;
  }
}

TEST(JavaKeyStoreTest, StoresAreReadOnlyWhenTheProtocolUsesTls) {
  TranslatedConfig t = TranslateJavaClientConfig(
      {{"security.protocol", "SASL_PLAINTEXT"},
       {"sasl.mechanism", "PLAIN"},
       {"sasl.jaas.config",
        "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" "
        "password=\"p\";"},
       {"ssl.truststore.location", "/nonexistent.jks"}},
      ClientRole::kConsumer);
  EXPECT_TRUE(t.errors.empty());
  EXPECT_EQ(t.properties.count("ssl.ca.pem"), 0u);
}

TEST(JavaKeyStoreTest, AStoreThatCannotBeReadIsAnErrorNamingTheKey) {
  TranslatedConfig t =
      TranslateJavaClientConfig({{"security.protocol", "SSL"},
                                 {"ssl.truststore.location", kDir + "truststore.p12"},
                                 {"ssl.truststore.type", "PKCS12"},
                                 {"ssl.truststore.password", "wrong-pw"}},
                                ClientRole::kAdmin);
  ASSERT_EQ(t.errors.size(), 1u);
  EXPECT_THAT(t.errors[0], HasSubstr("ssl.truststore.location: "));
  EXPECT_THAT(t.errors[0], Not(HasSubstr("wrong-pw")));
  EXPECT_EQ(t.properties.count("ssl.ca.pem"), 0u);
}

TEST(JavaSecurityKeysTest, KeysWithoutAnEquivalentAreAcceptedOnlyWhenHarmless) {
  TranslatedConfig fine =
      TranslateJavaClientConfig({{"ssl.protocol", "TLSv1.3"},
                                 {"ssl.enabled.protocols", "TLSv1.2, TLSv1.3"},
                                 {"ssl.keymanager.algorithm", "SunX509"},
                                 {"ssl.trustmanager.algorithm", "PKIX"},
                                 {"ssl.secure.random.implementation", "SHA1PRNG"},
                                 {"ssl.cipher.suites",
                                  "TLS_AES_256_GCM_SHA384,TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,"
                                  "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"},
                                 {"client.dns.lookup", "use_all_dns_ips"}},
                                ClientRole::kProducer);
  EXPECT_TRUE(fine.errors.empty()) << fine.errors[0];
  EXPECT_EQ(fine.properties["ssl.cipher.suites"],
            "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-AES128-GCM-SHA256");
  EXPECT_EQ(fine.properties["client.dns.lookup"], "use_all_dns_ips");

  struct Case {
    const char* key;
    const char* value;
  };
  for (const Case& c :
       {Case{"ssl.enabled.protocols", "TLSv1.3"}, Case{"ssl.protocol", "SSLv3"},
        Case{"ssl.keymanager.algorithm", "MyKeyManager"},
        Case{"ssl.engine.factory.class", "com.example.Factory"}, Case{"ssl.provider", "BC"},
        Case{"security.providers", "com.example.P"}, Case{"sasl.login.class", "com.example.Login"},
        Case{"sasl.client.callback.handler.class", "com.example.Handler"},
        Case{"sasl.login.callback.handler.class", "com.example.Handler"},
        Case{"ssl.cipher.suites", "TLS_AES_128_GCM_SHA256"},
        Case{"ssl.cipher.suites", "TLS_NO_SUCH_SUITE"}}) {
    TranslatedConfig t = TranslateJavaClientConfig({{c.key, c.value}}, ClientRole::kConsumer);
    ASSERT_EQ(t.errors.size(), 1u) << c.key << "=" << c.value;
    EXPECT_THAT(t.errors[0], HasSubstr(c.key));
    EXPECT_EQ(t.properties.count(c.key), 0u) << c.key;
  }
}

TEST(JavaSecurityKeysTest, ALoginModuleConnectdCannotRunStopsASaslClient) {
  const std::string ibm =
      "com.ibm.security.auth.module.Krb5LoginModule required useKeytab=\"/etc/connect.keytab\" "
      "principal=\"connect@EXAMPLE.COM\" credsType=both;";
  TranslatedConfig sasl = TranslateJavaClientConfig({{"security.protocol", "SASL_SSL"},
                                                     {"sasl.mechanism", "GSSAPI"},
                                                     {"sasl.kerberos.service.name", "kafka"},
                                                     {"sasl.jaas.config", ibm}},
                                                    ClientRole::kAdmin);
  ASSERT_EQ(sasl.errors.size(), 1u);
  EXPECT_THAT(sasl.errors[0], HasSubstr("sasl.jaas.config"));
  EXPECT_THAT(sasl.errors[0], HasSubstr("com.ibm.security.auth.module.Krb5LoginModule"));
  // Without SASL the JAAS config is not used, by Java either.
  TranslatedConfig plain = TranslateJavaClientConfig(
      {{"security.protocol", "SSL"}, {"sasl.jaas.config", ibm}}, ClientRole::kAdmin);
  EXPECT_TRUE(plain.errors.empty());
}

}  // namespace
}  // namespace connectd::jvm
