#include "jvm/java_key_store.h"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/provider.h>
#include <openssl/sha.h>
#include <openssl/x509.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <memory>
#include <vector>

#include "jvm/regular_file.h"
#include "jvm/utf8.h"

namespace connectd::jvm {
namespace {

template <typename T, void (*Free)(T*)>
struct Deleter {
  void operator()(T* p) const { Free(p); }
};
using BioPtr = std::unique_ptr<BIO, Deleter<BIO, BIO_free_all>>;
using X509Ptr = std::unique_ptr<X509, Deleter<X509, X509_free>>;
using PkeyPtr = std::unique_ptr<EVP_PKEY, Deleter<EVP_PKEY, EVP_PKEY_free>>;
using P8Ptr =
    std::unique_ptr<PKCS8_PRIV_KEY_INFO, Deleter<PKCS8_PRIV_KEY_INFO, PKCS8_PRIV_KEY_INFO_free>>;
using SigPtr = std::unique_ptr<X509_SIG, Deleter<X509_SIG, X509_SIG_free>>;
using P12Ptr = std::unique_ptr<PKCS12, Deleter<PKCS12, PKCS12_free>>;

// The OID of Sun's JKS key protection.
constexpr const char* kJksKeyProtectorOid = "1.3.6.1.4.1.42.2.17.1.1";

std::string OpenSslError() {
  unsigned long code = ERR_get_error();
  ERR_clear_error();
  if (code == 0) return "unknown error";
  char buf[256];
  ERR_error_string_n(code, buf, sizeof(buf));
  return buf;
}

std::string CertificatePem(X509* cert) {
  BioPtr bio(BIO_new(BIO_s_mem()));
  if (!bio || PEM_write_bio_X509(bio.get(), cert) != 1) return "";
  BUF_MEM* mem = nullptr;
  BIO_get_mem_ptr(bio.get(), &mem);
  return std::string(mem->data, mem->length);
}

std::string PrivateKeyPem(EVP_PKEY* key) {
  BioPtr bio(BIO_new(BIO_s_mem()));
  if (!bio || PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr) != 1)
    return "";
  BUF_MEM* mem = nullptr;
  BIO_get_mem_ptr(bio.get(), &mem);
  return std::string(mem->data, mem->length);
}

// A DER certificate as PEM, or "" if it is not one.
std::string DerCertificateToPem(const std::string& der) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(der.data());
  X509Ptr cert(d2i_X509(nullptr, &p, static_cast<long>(der.size())));
  return cert ? CertificatePem(cert.get()) : "";
}

// A password as the bytes Java's JKS code hashes: its chars, UTF-16 big-endian.
std::string Utf16BigEndian(const std::string& utf8) {
  std::string out;
  for (char32_t c : DecodeUtf8(utf8)) {
    auto unit = [&out](uint32_t u) {
      out.push_back(static_cast<char>(u >> 8));
      out.push_back(static_cast<char>(u & 0xff));
    };
    if (c >= 0x10000) {
      c -= 0x10000;
      unit(0xD800 + (c >> 10));
      unit(0xDC00 + (c & 0x3FF));
    } else {
      unit(c);
    }
  }
  return out;
}

std::string Sha1(const std::string& a, const std::string& b) {
  unsigned char digest[SHA_DIGEST_LENGTH];
  unsigned int size = 0;
  std::unique_ptr<EVP_MD_CTX, Deleter<EVP_MD_CTX, EVP_MD_CTX_free>> ctx(EVP_MD_CTX_new());
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha1(), nullptr) != 1 ||
      EVP_DigestUpdate(ctx.get(), a.data(), a.size()) != 1 ||
      EVP_DigestUpdate(ctx.get(), b.data(), b.size()) != 1 ||
      EVP_DigestFinal_ex(ctx.get(), digest, &size) != 1) {
    return "";  // never equal to a stored digest: the check fails
  }
  return std::string(reinterpret_cast<char*>(digest), size);
}

// Big-endian reader over a JKS file; any read past the end sets `bad`.
class JksReader {
 public:
  explicit JksReader(const std::string& data) : data_(data) {}
  uint32_t U32() { return static_cast<uint32_t>(Int(4)); }
  uint64_t U64() { return Int(8); }
  std::string Bytes(size_t n) {
    if (n > data_.size() - pos_) {
      bad = true;
      pos_ = data_.size();
      return "";
    }
    std::string out = data_.substr(pos_, n);
    pos_ += n;
    return out;
  }
  std::string Utf() { return Bytes(static_cast<size_t>(Int(2))); }  // DataInput.readUTF
  size_t pos() const { return pos_; }
  bool bad = false;

 private:
  uint64_t Int(int bytes) {
    std::string b = Bytes(static_cast<size_t>(bytes));
    uint64_t v = 0;
    for (unsigned char c : b) v = (v << 8) | c;
    return v;
  }
  const std::string& data_;
  size_t pos_ = 0;
};

// Sun's KeyProtector: salt (20 bytes) || key XOR SHA-1 stream || SHA-1(password || key).
std::optional<std::string> UnprotectJksKey(const std::string& protected_der,
                                           const std::string& password, std::string& error) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(protected_der.data());
  SigPtr info(d2i_X509_SIG(nullptr, &p, static_cast<long>(protected_der.size())));
  if (!info) {
    error = "a private key entry is not an EncryptedPrivateKeyInfo";
    return std::nullopt;
  }
  const X509_ALGOR* algorithm = nullptr;
  const ASN1_OCTET_STRING* data = nullptr;
  X509_SIG_get0(info.get(), &algorithm, &data);
  char oid[80];
  OBJ_obj2txt(oid, sizeof(oid), algorithm->algorithm, 1);
  if (std::string(oid) != kJksKeyProtectorOid) {
    error = std::string("a private key is protected with ") + oid +
            ", not JKS's key protection: convert the store with keytool -importkeystore "
            "-deststoretype PKCS12";
    return std::nullopt;
  }
  std::string blob(reinterpret_cast<const char*>(ASN1_STRING_get0_data(data)),
                   static_cast<size_t>(ASN1_STRING_length(data)));
  if (blob.size() < 2 * SHA_DIGEST_LENGTH) {
    error = "a private key entry is truncated";
    return std::nullopt;
  }
  const std::string pass = Utf16BigEndian(password);
  std::string digest = blob.substr(0, SHA_DIGEST_LENGTH);
  std::string key = blob.substr(SHA_DIGEST_LENGTH, blob.size() - 2 * SHA_DIGEST_LENGTH);
  for (size_t i = 0; i < key.size(); i += SHA_DIGEST_LENGTH) {
    digest = Sha1(pass, digest);
    for (size_t j = 0; j < SHA_DIGEST_LENGTH && i + j < key.size(); ++j) key[i + j] ^= digest[j];
  }
  if (Sha1(pass, key) != blob.substr(blob.size() - SHA_DIGEST_LENGTH)) {
    error =
        "cannot recover the private key: the key password (ssl.key.password, or "
        "ssl.keystore.password when unset) is wrong";
    return std::nullopt;
  }
  return key;  // PKCS#8 PrivateKeyInfo, DER
}

std::string Pkcs8DerToPem(const std::string& der) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(der.data());
  P8Ptr info(d2i_PKCS8_PRIV_KEY_INFO(nullptr, &p, static_cast<long>(der.size())));
  if (!info) return "";
  PkeyPtr key(EVP_PKCS82PKEY(info.get()));
  return key ? PrivateKeyPem(key.get()) : "";
}

std::optional<PemStore> ReadJks(const std::string& data, StoreUse use,
                                const std::string& store_password, const std::string& key_password,
                                std::string& error) {
  JksReader in(data);
  const uint32_t magic = in.U32();
  if (magic == 0xCECECECEu) {
    error =
        "is a JCEKS store, which connectd does not read: convert it with keytool "
        "-importkeystore -deststoretype PKCS12";
    return std::nullopt;
  }
  if (magic != 0xFEEDFEEDu) {
    error = "is not a JKS store (bad magic number; is ssl.*store.type right?)";
    return std::nullopt;
  }
  const uint32_t version = in.U32();
  if (version != 1 && version != 2) {
    error = "has an unknown JKS version " + std::to_string(version);
    return std::nullopt;
  }
  const uint32_t count = in.U32();
  std::vector<std::string> trusted;
  struct KeyEntry {
    std::string protected_key;
    std::vector<std::string> chain;
  };
  std::vector<KeyEntry> keys;
  for (uint32_t i = 0; i < count && !in.bad; ++i) {
    const uint32_t tag = in.U32();
    in.Utf();  // alias
    in.U64();  // creation date
    if (tag == 1) {
      KeyEntry entry;
      entry.protected_key = in.Bytes(in.U32());
      const uint32_t chain = in.U32();
      for (uint32_t c = 0; c < chain && !in.bad; ++c) {
        if (version == 2) in.Utf();  // certificate type, "X.509"
        entry.chain.push_back(in.Bytes(in.U32()));
      }
      keys.push_back(std::move(entry));
    } else if (tag == 2) {
      if (version == 2) in.Utf();
      trusted.push_back(in.Bytes(in.U32()));
    } else {
      error = "has an entry of unknown kind " + std::to_string(tag);
      return std::nullopt;
    }
  }
  const size_t signed_size = in.pos();
  const std::string mac = in.Bytes(SHA_DIGEST_LENGTH);
  if (in.bad) {
    error = "is truncated or damaged";
    return std::nullopt;
  }
  if (!store_password.empty() && Sha1(Utf16BigEndian(store_password) + "Mighty Aphrodite",
                                      data.substr(0, signed_size)) != mac) {
    error = "failed its integrity check: the store password is wrong, or the file was altered";
    return std::nullopt;
  }
  PemStore out;
  if (use == StoreUse::kTrust) {
    for (const std::string& der : trusted) {
      std::string pem = DerCertificateToPem(der);
      if (pem.empty()) {
        error = "holds a trusted certificate that is not X.509";
        return std::nullopt;
      }
      out.certificates += pem;
    }
    if (out.certificates.empty()) error = "holds no trusted certificate";
    return out.certificates.empty() ? std::nullopt : std::optional<PemStore>(std::move(out));
  }
  if (keys.size() != 1) {
    error = "holds " + std::to_string(keys.size()) +
            " private keys; connectd takes a keystore with exactly one";
    return std::nullopt;
  }
  std::optional<std::string> key = UnprotectJksKey(
      keys[0].protected_key, key_password.empty() ? store_password : key_password, error);
  if (!key) return std::nullopt;
  out.private_key = Pkcs8DerToPem(*key);
  for (const std::string& der : keys[0].chain) out.certificates += DerCertificateToPem(der);
  if (out.private_key.empty() || out.certificates.empty()) {
    error = "holds a private key or certificate chain OpenSSL cannot read";
    return std::nullopt;
  }
  return out;
}

// Older PKCS12 files (RC2-40, 3DES: Java 8's keytool, OpenSSL 1.1) need OpenSSL 3's legacy
// provider; loading it (with the default one, which loading any provider would otherwise
// unload) is process-wide, hence done once and only for such a store.
void LoadLegacyProviderOnce() {
  // Held for the life of the process (never unloaded: other stores may need them).
  struct Providers {
    OSSL_PROVIDER* legacy;
    OSSL_PROVIDER* fallback;
  };
  static const Providers* const held =
      new Providers{OSSL_PROVIDER_load(nullptr, "legacy"), OSSL_PROVIDER_load(nullptr, "default")};
  (void)held;
}

std::optional<PemStore> ReadPkcs12(const std::string& data, StoreUse use,
                                   const std::string& store_password, std::string& error) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(data.data());
  P12Ptr p12(d2i_PKCS12(nullptr, &p, static_cast<long>(data.size())));
  if (!p12) {
    ERR_clear_error();
    error = "is not a PKCS12 store (is ssl.*store.type right?)";
    return std::nullopt;
  }
  // As KeyStore.load: the integrity check only when a password is given.
  const char* pass = store_password.c_str();
  if (!store_password.empty() && PKCS12_mac_present(p12.get()) == 1 &&
      PKCS12_verify_mac(p12.get(), pass, -1) != 1) {
    ERR_clear_error();
    error = "failed its integrity check: the store password is wrong, or the file was altered";
    return std::nullopt;
  }
  EVP_PKEY* raw_key = nullptr;
  X509* raw_cert = nullptr;
  STACK_OF(X509)* raw_ca = nullptr;
  int parsed = PKCS12_parse(p12.get(), pass, &raw_key, &raw_cert, &raw_ca);
  if (parsed != 1) {
    ERR_clear_error();
    LoadLegacyProviderOnce();
    parsed = PKCS12_parse(p12.get(), pass, &raw_key, &raw_cert, &raw_ca);
  }
  if (parsed != 1) {
    error = "cannot be decrypted: " + OpenSslError();
    return std::nullopt;
  }
  PkeyPtr key(raw_key);
  X509Ptr cert(raw_cert);
  auto free_ca = [](STACK_OF(X509) * s) { sk_X509_pop_free(s, X509_free); };
  std::unique_ptr<STACK_OF(X509), decltype(free_ca)> ca(raw_ca, free_ca);
  PemStore out;
  if (use == StoreUse::kTrust) {
    // Trusted-certificate entries have no key; OpenSSL lists them (and a key's chain) in `ca`.
    if (cert) out.certificates += CertificatePem(cert.get());
    for (int i = 0; ca && i < sk_X509_num(ca.get()); ++i)
      out.certificates += CertificatePem(sk_X509_value(ca.get(), i));
    if (out.certificates.empty()) error = "holds no certificate";
    return out.certificates.empty() ? std::nullopt : std::optional<PemStore>(std::move(out));
  }
  if (!key || !cert) {
    error = "holds no private key with its certificate";
    return std::nullopt;
  }
  out.private_key = PrivateKeyPem(key.get());
  out.certificates = CertificatePem(cert.get());
  for (int i = 0; ca && i < sk_X509_num(ca.get()); ++i)
    out.certificates += CertificatePem(sk_X509_value(ca.get(), i));
  return out;
}

}  // namespace

std::optional<PemStore> ReadJavaKeyStoreData(const std::string& data, const std::string& type,
                                             StoreUse use, const std::string& store_password,
                                             const std::string& key_password, std::string& error) {
  std::string kind = type;
  std::transform(kind.begin(), kind.end(), kind.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  if (kind != "JKS" && kind != "PKCS12") {
    error = "store type " + type + " is not supported (JKS, PKCS12 or PEM)";
    return std::nullopt;
  }
  // As Java's KeyStore with keystore.type.compat (the default): a JKS or PKCS12 store is read
  // whichever of the two types names it, by its content.
  const bool jks_magic = data.size() >= 4 && static_cast<unsigned char>(data[0]) == 0xFE &&
                         static_cast<unsigned char>(data[1]) == 0xED;
  const bool jceks_magic = data.size() >= 4 && static_cast<unsigned char>(data[0]) == 0xCE;
  if (jks_magic || jceks_magic) {
    kind = "JKS";
  } else if (!data.empty() && static_cast<unsigned char>(data[0]) == 0x30) {
    kind = "PKCS12";
  } else {
    error = "is neither a JKS nor a PKCS12 store (a PEM file needs the type PEM)";
    return std::nullopt;
  }
  std::string why;
  std::optional<PemStore> store = kind == "JKS"
                                      ? ReadJks(data, use, store_password, key_password, why)
                                      : ReadPkcs12(data, use, store_password, why);
  if (!store) error = "(" + kind + ") " + why;
  return store;
}

std::optional<PemStore> ReadJavaKeyStore(const std::string& path, const std::string& type,
                                         StoreUse use, const std::string& store_password,
                                         const std::string& key_password, std::string& error) {
  // A key store is kilobytes; a config naming a directory or a device gets an error, not a crash.
  constexpr size_t kMaxKeyStoreBytes = 16 << 20;
  std::optional<std::string> data = ReadRegularFile(path, kMaxKeyStoreBytes, error);
  if (!data) return std::nullopt;
  std::string why;
  std::optional<PemStore> store =
      ReadJavaKeyStoreData(*data, type, use, store_password, key_password, why);
  if (!store) error = path + (why.rfind("store type", 0) == 0 ? ": " : " ") + why;
  return store;
}

}  // namespace connectd::jvm
