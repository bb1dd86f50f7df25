// Test certificates made at run time through OpenSSL's C API (no files from the tree), and
// temporary files for keystores and truststores.
#pragma once

#include <string>

namespace connectd::rest::testing {

// A self-signed EC P-256 CA certificate in the encodings the tests need.
struct TestCert {
  std::string key_pem;            // PKCS#8 "PRIVATE KEY"
  std::string encrypted_key_pem;  // PKCS#8 "ENCRYPTED PRIVATE KEY", password "keypass"
  std::string cert_pem;
  std::string pkcs12;  // password "storepass"
};

// A certificate for CN=`common_name` with the given subjectAltName extension value.
TestCert MakeCert(const std::string& common_name,
                  const std::string& subject_alt_names = "DNS:localhost,IP:127.0.0.1");

// The shared server certificate: CN=localhost, DNS:localhost, IP:127.0.0.1.
const TestCert& ServerCert();

// A file under the test temp dir, removed when the test ends.
class TempFile {
 public:
  TempFile(const std::string& name, const std::string& data);
  ~TempFile();
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace connectd::rest::testing
