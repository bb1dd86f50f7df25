#include "tests/unit/rest/test_certs.h"

#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>

#include <gtest/gtest.h>

namespace connectd::rest::testing {

namespace {

std::string BioText(BIO* bio) {
  char* data = nullptr;
  long size = BIO_get_mem_data(bio, &data);
  return std::string(data, static_cast<size_t>(size));
}

}  // namespace

TestCert MakeCert(const std::string& common_name, const std::string& subject_alt_names) {
  TestCert out;
  EVP_PKEY* key = EVP_EC_gen("P-256");
  X509* cert = X509_new();
  X509_set_version(cert, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert), 1);
  X509_gmtime_adj(X509_getm_notBefore(cert), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert), 3600L * 24);
  X509_set_pubkey(cert, key);
  X509_NAME* name = X509_get_subject_name(cert);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>(common_name.c_str()), -1, -1,
                             0);
  X509_set_issuer_name(cert, name);
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, cert, cert, nullptr, nullptr, 0);
  for (const char* ext : {"subjectAltName", "basicConstraints"}) {
    const char* value =
        std::string(ext) == "subjectAltName" ? subject_alt_names.c_str() : "critical,CA:TRUE";
    X509_EXTENSION* e = X509V3_EXT_conf(nullptr, &ctx, ext, value);
    X509_add_ext(cert, e, -1);
    X509_EXTENSION_free(e);
  }
  X509_sign(cert, key, EVP_sha256());

  BIO* bio = BIO_new(BIO_s_mem());
  PEM_write_bio_PrivateKey(bio, key, nullptr, nullptr, 0, nullptr, nullptr);
  out.key_pem = BioText(bio);
  BIO_free(bio);
  bio = BIO_new(BIO_s_mem());
  PEM_write_bio_PKCS8PrivateKey(bio, key, EVP_aes_256_cbc(), nullptr, 0, nullptr,
                                const_cast<char*>("keypass"));
  out.encrypted_key_pem = BioText(bio);
  BIO_free(bio);
  bio = BIO_new(BIO_s_mem());
  PEM_write_bio_X509(bio, cert);
  out.cert_pem = BioText(bio);
  BIO_free(bio);
  PKCS12* p12 = PKCS12_create("storepass", "connectd", key, cert, nullptr, 0, 0, 0, 0, 0);
  bio = BIO_new(BIO_s_mem());
  i2d_PKCS12_bio(bio, p12);
  out.pkcs12 = BioText(bio);
  BIO_free(bio);
  PKCS12_free(p12);
  X509_free(cert);
  EVP_PKEY_free(key);
  return out;
}

const TestCert& ServerCert() {
  static const TestCert* cert = new TestCert(MakeCert("localhost"));
  return *cert;
}

TempFile::TempFile(const std::string& name, const std::string& data)
    : path_(::testing::TempDir() + "connectd_rest_" + std::to_string(::getpid()) + "_" + name) {
  std::ofstream(path_, std::ios::binary) << data;
}

TempFile::~TempFile() { std::remove(path_.c_str()); }

}  // namespace connectd::rest::testing
