// File: java_key_store.h
//
// Java key stores read as Java's KeyStore reads them, into PEM: the JKS and PKCS12 files that
// a Java worker's ssl.truststore.location and ssl.keystore.location name (keytool's output),
// so that every client connectd builds — librdkafka's, the group client, the plugins' — takes
// the same files. Kafka's clients use a truststore's trusted-certificate entries and a
// keystore's one private-key entry with its certificate chain.
//
//   JKS     keytool's historical format (magic 0xFEEDFEED): certificates as DER, each private
//           key in Sun's KeyProtector form (SHA-1 key stream, OID 1.3.6.1.4.1.42.2.17.1.1); the
//           store password's SHA-1 over the file ("Mighty Aphrodite") is checked when a
//           password is given, as KeyStore.load does (a truststore may have none).
//   PKCS12  RFC 7292 through OpenSSL (AES/HMAC-SHA-256 as Java 17's keytool writes it; RC2
//           and 3DES stores of older tools through OpenSSL's legacy provider).
//
// As Java's KeyStore (keystore.type.compat, its default), either type reads a file of the
// other: the content decides. JCEKS and other types are refused with a message naming them.
// Failures (a wrong password, a damaged file, a keystore without exactly one private key) are
// messages for the user that name the file and never contain a password.
//
// Thread safety: pure functions (OpenSSL's legacy provider is loaded once, process-wide, the
// first time a legacy PKCS12 store needs it).
#pragma once

#include <optional>
#include <string>

namespace connectd::jvm {

struct PemStore {
  // Truststore: every trusted certificate. Keystore: the key's certificate chain, leaf first.
  std::string certificates;
  // Keystore: the private key, PKCS#8 PEM, unencrypted (it stays in memory). Truststore: "".
  std::string private_key;
};

enum class StoreUse { kTrust, kKey };

// Reads the store at `path` of `type` ("JKS" or "PKCS12", any case). `store_password` may be
// empty (no integrity check for a JKS, an empty password for PKCS12); `key_password` unlocks
// the private key (Kafka's ssl.key.password; empty means the store password).
std::optional<PemStore> ReadJavaKeyStore(const std::string& path, const std::string& type,
                                         StoreUse use, const std::string& store_password,
                                         const std::string& key_password, std::string& error);

// The same for a store's bytes (`error` then does not name a file).
std::optional<PemStore> ReadJavaKeyStoreData(const std::string& data, const std::string& type,
                                             StoreUse use, const std::string& store_password,
                                             const std::string& key_password, std::string& error);

}  // namespace connectd::jvm
