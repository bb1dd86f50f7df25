#include "rest/tls_context.h"

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <boost/asio/ssl/context.hpp>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "jvm/java_key_store.h"
#include "runtime/common/strings.h"

namespace connectd::rest {
namespace {

struct BioFree {
  void operator()(BIO* b) const { BIO_free(b); }
};
struct PkeyFree {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
struct X509Free {
  void operator()(X509* x) const { X509_free(x); }
};
struct SslCtxFree {
  void operator()(SSL_CTX* c) const { SSL_CTX_free(c); }
};

using BioPtr = std::unique_ptr<BIO, BioFree>;
using PkeyPtr = std::unique_ptr<EVP_PKEY, PkeyFree>;
using X509Ptr = std::unique_ptr<X509, X509Free>;

// Key material for the server certificate.
struct KeyMaterial {
  PkeyPtr key;
  X509Ptr cert;
  std::vector<X509Ptr> chain;
};

// The most recent OpenSSL error text (and clears the queue).
std::string OpenSslError() {
  unsigned long code = ERR_peek_last_error();
  std::string text = "unknown OpenSSL error";
  if (code != 0) {
    char buffer[256];
    ERR_error_string_n(code, buffer, sizeof(buffer));
    text = buffer;
  }
  ERR_clear_error();
  return text;
}

absl::StatusOr<std::string> ReadFile(const std::string& path, const std::string& key) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::NotFoundError(absl::StrCat("Cannot read ", path, " (", key, ")"));
  }
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

BioPtr MemoryBio(const std::string& data) {
  return BioPtr(BIO_new_mem_buf(data.data(), static_cast<int>(data.size())));
}

int PasswordCallback(char* buf, int size, int /*rwflag*/, void* userdata) {
  const auto* password = static_cast<const std::string*>(userdata);
  if (password == nullptr) return 0;
  int n = static_cast<int>(std::min<size_t>(password->size(), static_cast<size_t>(size)));
  std::copy_n(password->data(), n, buf);
  return n;
}

std::vector<X509Ptr> ReadPemCertificates(const std::string& pem) {
  std::vector<X509Ptr> certs;
  BioPtr bio = MemoryBio(pem);
  while (X509* cert = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr)) {
    certs.emplace_back(cert);
  }
  ERR_clear_error();  // the loop ends on "no start line"
  return certs;
}

absl::StatusOr<KeyMaterial> PemKeyMaterial(const std::string& key_pem, const std::string& cert_pem,
                                           const std::optional<std::string>& key_password,
                                           const std::string& where) {
  KeyMaterial material;
  BioPtr key_bio = MemoryBio(key_pem);
  std::string password = key_password.value_or("");
  material.key.reset(PEM_read_bio_PrivateKey(key_bio.get(), nullptr, PasswordCallback,
                                             key_password ? &password : nullptr));
  if (!material.key) {
    return absl::InvalidArgumentError(
        absl::StrCat("Cannot read the private key from ", where,
                     " (an encrypted key needs ssl.key.password): ", OpenSslError()));
  }
  std::vector<X509Ptr> certs = ReadPemCertificates(cert_pem);
  if (certs.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("No PEM certificate found in ", where));
  }
  material.cert = std::move(certs.front());
  for (size_t i = 1; i < certs.size(); ++i) material.chain.push_back(std::move(certs[i]));
  return material;
}

// A JKS or PKCS12 store (either type reads either file, as Java's) through jvm/'s reader, the
// one every Kafka client uses too.
absl::StatusOr<jvm::PemStore> ReadStore(const std::string& location, const std::string& type,
                                        jvm::StoreUse use,
                                        const std::optional<std::string>& store_password,
                                        const std::optional<std::string>& key_password,
                                        const std::string& location_key) {
  std::string error;
  std::optional<jvm::PemStore> store = jvm::ReadJavaKeyStore(
      location, type, use, store_password.value_or(""), key_password.value_or(""), error);
  if (!store) return absl::InvalidArgumentError(absl::StrCat(location_key, ": ", error));
  return *std::move(store);
}

absl::StatusOr<KeyMaterial> LoadKeystore(const TlsConfig& tls) {
  const std::string type_key = tls.KeyName("ssl.keystore.type");
  const std::string location_key = tls.KeyName("ssl.keystore.location");
  std::string type = absl::AsciiStrToUpper(tls.keystore_type);
  bool inline_pem = tls.keystore_key || tls.keystore_certificate_chain;

  if (type == "PEM") {
    if (inline_pem) {
      if (!tls.keystore_key || !tls.keystore_certificate_chain) {
        return absl::InvalidArgumentError(
            absl::StrCat("An inline PEM keystore needs both ", tls.KeyName("ssl.keystore.key"),
                         " and ", tls.KeyName("ssl.keystore.certificate.chain")));
      }
      if (tls.keystore_location) {
        return absl::InvalidArgumentError(
            absl::StrCat(location_key, " cannot be combined with ", tls.KeyName("ssl.keystore.key"),
                         "/", tls.KeyName("ssl.keystore.certificate.chain")));
      }
      return PemKeyMaterial(*tls.keystore_key, *tls.keystore_certificate_chain, tls.key_password,
                            absl::StrCat(tls.KeyName("ssl.keystore.key"), "/",
                                         tls.KeyName("ssl.keystore.certificate.chain")));
    }
    if (!tls.keystore_location) {
      return absl::InvalidArgumentError(absl::StrCat(
          "An HTTPS listener needs a keystore: set ", location_key,
          " (a PEM file with the private "
          "key and certificate chain) or ",
          tls.KeyName("ssl.keystore.key"), " and ", tls.KeyName("ssl.keystore.certificate.chain")));
    }
    absl::StatusOr<std::string> pem = ReadFile(*tls.keystore_location, location_key);
    if (!pem.ok()) return pem.status();
    return PemKeyMaterial(*pem, *pem, tls.key_password,
                          absl::StrCat(*tls.keystore_location, " (", location_key, ")"));
  }

  if (type != "PKCS12" && type != "JKS") {
    return absl::UnimplementedError(absl::StrCat(type_key, "=", tls.keystore_type,
                                                 " is not supported by connectd; use PEM, "
                                                 "PKCS12 or JKS"));
  }
  if (inline_pem) {
    return absl::InvalidArgumentError(absl::StrCat(tls.KeyName("ssl.keystore.key"), "/",
                                                   tls.KeyName("ssl.keystore.certificate.chain"),
                                                   " need ", type_key, "=PEM"));
  }
  if (!tls.keystore_location) {
    return absl::InvalidArgumentError(
        absl::StrCat("An HTTPS listener needs a keystore: set ", location_key));
  }
  if (!std::ifstream(*tls.keystore_location)) {
    return absl::NotFoundError(
        absl::StrCat("Cannot read ", *tls.keystore_location, " (", location_key, ")"));
  }
  absl::StatusOr<jvm::PemStore> store =
      ReadStore(*tls.keystore_location, type, jvm::StoreUse::kKey, tls.keystore_password,
                tls.key_password, location_key);
  if (!store.ok()) return store.status();
  return PemKeyMaterial(store->private_key, store->certificates, std::nullopt,
                        absl::StrCat(*tls.keystore_location, " (", location_key, ")"));
}

// Trusted certificates for client authentication; empty when no truststore is configured.
absl::StatusOr<std::vector<X509Ptr>> LoadTruststore(const TlsConfig& tls) {
  const std::string type_key = tls.KeyName("ssl.truststore.type");
  const std::string location_key = tls.KeyName("ssl.truststore.location");
  std::string type = absl::AsciiStrToUpper(tls.truststore_type);
  std::vector<X509Ptr> certs;
  if (tls.truststore_certificates) {
    if (type != "PEM") {
      return absl::InvalidArgumentError(
          absl::StrCat(tls.KeyName("ssl.truststore.certificates"), " needs ", type_key, "=PEM"));
    }
    certs = ReadPemCertificates(*tls.truststore_certificates);
    if (certs.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("No PEM certificate found in ", tls.KeyName("ssl.truststore.certificates")));
    }
    return certs;
  }
  if (!tls.truststore_location) return certs;
  absl::StatusOr<std::string> data = ReadFile(*tls.truststore_location, location_key);
  if (!data.ok()) return data.status();
  std::string where = absl::StrCat(*tls.truststore_location, " (", location_key, ")");
  if (type == "PEM") {
    certs = ReadPemCertificates(*data);
    if (certs.empty())
      return absl::InvalidArgumentError(absl::StrCat("No PEM certificate in ", where));
    return certs;
  }
  if (type != "PKCS12" && type != "JKS") {
    return absl::UnimplementedError(absl::StrCat(type_key, "=", tls.truststore_type,
                                                 " is not supported by connectd; use PEM, "
                                                 "PKCS12 or JKS"));
  }
  absl::StatusOr<jvm::PemStore> store =
      ReadStore(*tls.truststore_location, type, jvm::StoreUse::kTrust, tls.truststore_password,
                std::nullopt, location_key);
  if (!store.ok()) return store.status();
  return ReadPemCertificates(store->certificates);
}

absl::Status ConfigureProtocols(const TlsConfig& tls, SSL_CTX* ctx) {
  const std::string key = tls.KeyName("ssl.enabled.protocols");
  int min_version = 0;
  int max_version = 0;
  for (const std::string& name : tls.enabled_protocols) {
    int version = 0;
    if (name == "TLSv1.3") {
      version = TLS1_3_VERSION;
    } else if (name == "TLSv1.2") {
      version = TLS1_2_VERSION;
    } else if (name == "TLSv1.1") {
      version = TLS1_1_VERSION;
    } else if (name == "TLSv1") {
      version = TLS1_VERSION;
    } else {
      return absl::InvalidArgumentError(absl::StrCat(
          "Invalid value ", name, " in ", key, ": expected TLSv1.3, TLSv1.2, TLSv1.1 or TLSv1"));
    }
    min_version = min_version == 0 ? version : std::min(min_version, version);
    max_version = std::max(max_version, version);
  }
  if (min_version == 0) {
    return absl::InvalidArgumentError(absl::StrCat(key, " enables no protocol"));
  }
  SSL_CTX_set_min_proto_version(ctx, min_version);
  SSL_CTX_set_max_proto_version(ctx, max_version);
  return absl::OkStatus();
}

absl::Status ConfigureCipherSuites(const TlsConfig& tls, SSL_CTX* ctx) {
  if (tls.cipher_suites.empty()) return absl::OkStatus();
  const std::string key = tls.KeyName("ssl.cipher.suites");
  // Enumerate every cipher OpenSSL knows to map IANA (Java) names to OpenSSL names.
  std::unique_ptr<SSL_CTX, SslCtxFree> probe(SSL_CTX_new(TLS_server_method()));
  if (!probe || SSL_CTX_set_cipher_list(probe.get(), "ALL:COMPLEMENTOFALL") != 1) {
    return absl::InternalError(absl::StrCat("Cannot list OpenSSL ciphers: ", OpenSslError()));
  }
  STACK_OF(SSL_CIPHER)* all = SSL_CTX_get_ciphers(probe.get());
  std::vector<std::string> tls12;
  std::vector<std::string> tls13;
  for (const std::string& wanted : tls.cipher_suites) {
    bool found = false;
    for (int i = 0; i < sk_SSL_CIPHER_num(all) && !found; ++i) {
      const SSL_CIPHER* cipher = sk_SSL_CIPHER_value(all, i);
      const char* standard = SSL_CIPHER_standard_name(cipher);
      if (standard == nullptr || wanted != standard) continue;
      found = true;
      if (std::string_view(SSL_CIPHER_get_version(cipher)) == "TLSv1.3") {
        tls13.push_back(SSL_CIPHER_get_name(cipher));
      } else {
        tls12.push_back(SSL_CIPHER_get_name(cipher));
      }
    }
    if (!found) {
      return absl::InvalidArgumentError(
          absl::StrCat("Unknown cipher suite ", wanted, " in ", key,
                       " (use IANA names such as "
                       "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256 or TLS_AES_128_GCM_SHA256)"));
    }
  }
  if (tls12.empty()) {
    SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION);
  } else if (SSL_CTX_set_cipher_list(ctx, absl::StrJoin(tls12, ":").c_str()) != 1) {
    return absl::InvalidArgumentError(absl::StrCat("Invalid ", key, ": ", OpenSslError()));
  }
  if (tls13.empty()) {
    SSL_CTX_set_max_proto_version(ctx, TLS1_2_VERSION);
  } else if (SSL_CTX_set_ciphersuites(ctx, absl::StrJoin(tls13, ":").c_str()) != 1) {
    return absl::InvalidArgumentError(absl::StrCat("Invalid ", key, ": ", OpenSslError()));
  }
  return absl::OkStatus();
}

// Installs the keystore's certificate, key and chain on `ctx` (server identity, or the client
// certificate of a worker-to-worker request).
absl::Status UseKeystore(SSL_CTX* ctx, const TlsConfig& tls) {
  absl::StatusOr<KeyMaterial> material = LoadKeystore(tls);
  if (!material.ok()) return material.status();
  if (SSL_CTX_use_certificate(ctx, material->cert.get()) != 1 ||
      SSL_CTX_use_PrivateKey(ctx, material->key.get()) != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("Cannot use the keystore's certificate and key: ", OpenSslError()));
  }
  for (const X509Ptr& cert : material->chain) {
    if (SSL_CTX_add1_chain_cert(ctx, cert.get()) != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("Cannot use the keystore's certificate chain: ", OpenSslError()));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::shared_ptr<boost::asio::ssl::context>> MakeServerTlsContext(
    const TlsConfig& tls) {
  ERR_clear_error();
  auto context = std::make_shared<boost::asio::ssl::context>(boost::asio::ssl::context::tls_server);
  SSL_CTX* ctx = context->native_handle();
  SSL_CTX_set_options(
      ctx, SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE);

  if (absl::Status used = UseKeystore(ctx, tls); !used.ok()) return used;
  if (SSL_CTX_check_private_key(ctx) != 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "The keystore's private key does not match its certificate: ", OpenSslError()));
  }

  if (absl::Status s = ConfigureProtocols(tls, ctx); !s.ok()) return s;
  if (absl::Status s = ConfigureCipherSuites(tls, ctx); !s.ok()) return s;

  if (tls.client_auth != ClientAuth::kNone) {
    absl::StatusOr<std::vector<X509Ptr>> trusted = LoadTruststore(tls);
    if (!trusted.ok()) return trusted.status();
    if (trusted->empty()) {
      SSL_CTX_set_default_verify_paths(ctx);
    } else {
      X509_STORE* store = SSL_CTX_get_cert_store(ctx);
      for (const X509Ptr& cert : *trusted) {
        X509_STORE_add_cert(store, cert.get());
        SSL_CTX_add_client_CA(ctx, cert.get());
      }
      ERR_clear_error();  // duplicates are not an error worth failing on
    }
    int mode = SSL_VERIFY_PEER;
    if (tls.client_auth == ClientAuth::kRequired) mode |= SSL_VERIFY_FAIL_IF_NO_PEER_CERT;
    SSL_CTX_set_verify(ctx, mode, nullptr);
  }
  return context;
}

absl::StatusOr<ClientTlsContext> MakeClientTlsContext(const TlsConfig& tls) {
  ERR_clear_error();
  ClientTlsContext out;
  std::string identification = absl::AsciiStrToLower(tls.endpoint_identification_algorithm);
  if (identification.empty()) {
    out.verify_host_name = false;
  } else if (identification != "https") {
    return absl::InvalidArgumentError(
        absl::StrCat("Unsupported ", tls.KeyName("ssl.endpoint.identification.algorithm"), " ",
                     tls.endpoint_identification_algorithm, ": expected https or an empty value"));
  }
  out.context = std::make_shared<boost::asio::ssl::context>(boost::asio::ssl::context::tls_client);
  SSL_CTX* ctx = out.context->native_handle();
  SSL_CTX_set_options(ctx, SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION);

  // Jetty's client loads a keystore only when a path is set; PEM may also be inline.
  if (tls.keystore_location || tls.keystore_key || tls.keystore_certificate_chain) {
    if (absl::Status used = UseKeystore(ctx, tls); !used.ok()) return used;
  }

  absl::StatusOr<std::vector<X509Ptr>> trusted = LoadTruststore(tls);
  if (!trusted.ok()) return trusted.status();
  if (trusted->empty()) {
    SSL_CTX_set_default_verify_paths(ctx);
  } else {
    X509_STORE* store = SSL_CTX_get_cert_store(ctx);
    for (const X509Ptr& cert : *trusted) X509_STORE_add_cert(store, cert.get());
  }
  ERR_clear_error();
  SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nullptr);

  if (absl::Status s = ConfigureProtocols(tls, ctx); !s.ok()) return s;
  if (absl::Status s = ConfigureCipherSuites(tls, ctx); !s.ok()) return s;
  return out;
}

}  // namespace connectd::rest
