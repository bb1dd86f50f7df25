// libFuzzer target: Java key stores (jvm/java_key_store.h), the JKS and PKCS12 files a worker's
// ssl.truststore.location / ssl.keystore.location name. Input: one byte choosing the use
// (bit 0: keystore) and the password (bit 1: "changeit", the seeds', else none), then the store's
// bytes. Properties: reading never crashes or hangs; a store read is PEM certificates (and, for
// a keystore, one PEM private key); a refusal is a message.
#include <cstddef>
#include <cstdint>
#include <string>

#include "jvm/java_key_store.h"
#include "tests/fuzz/targets/fuzz_check.h"

namespace jvm = connectd::jvm;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const bool key = (data[0] & 1) != 0;
  const std::string password = (data[0] & 2) != 0 ? "changeit" : "";
  const std::string store(reinterpret_cast<const char*>(data + 1), size - 1);
  for (const char* type : {"JKS", "PKCS12"}) {
    std::string error;
    std::optional<jvm::PemStore> read = jvm::ReadJavaKeyStoreData(
        store, type, key ? jvm::StoreUse::kKey : jvm::StoreUse::kTrust, password, "", error);
    if (!read) {
      FUZZ_CHECK(!error.empty());
      continue;
    }
    FUZZ_CHECK(read->certificates.rfind("-----BEGIN CERTIFICATE-----", 0) == 0);
    FUZZ_CHECK(key == !read->private_key.empty());
  }
  return 0;
}
