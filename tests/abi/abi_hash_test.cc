// Pins connectd/plugin/abi.h to its version: any change to the header must come with a new
// ABI version (and an entry in its HISTORY), then an update of tests/abi/abi_version_hash.txt:
//   echo "$MAJOR.$MINOR $(sha256sum include/connectd/plugin/abi.h | cut -d' ' -f1)"
#include <openssl/evp.h>

#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "connectd/plugin/abi.h"

namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::string Sha256Hex(const std::string& data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_Digest(data.data(), data.size(), digest, &size, EVP_sha256(), nullptr);
  std::string hex;
  char byte[3];
  for (unsigned int i = 0; i < size; ++i) {
    std::snprintf(byte, sizeof(byte), "%02x", digest[i]);
    hex += byte;
  }
  return hex;
}

TEST(AbiHashTest, HeaderMatchesItsPinnedVersion) {
  std::string header = ReadFile(std::string(CONNECTD_SOURCE_DIR) + "/include/connectd/plugin/abi.h");
  ASSERT_FALSE(header.empty());
  std::istringstream pinned(ReadFile(std::string(CONNECTD_SOURCE_DIR) + "/tests/abi/abi_version_hash.txt"));
  std::string version, hash;
  pinned >> version >> hash;
  EXPECT_EQ(version, std::to_string(CONNECTD_PLUGIN_ABI_VERSION_MAJOR) + "." +
                         std::to_string(CONNECTD_PLUGIN_ABI_VERSION_MINOR))
      << "abi.h's version changed: update tests/abi/abi_version_hash.txt";
  EXPECT_EQ(hash, Sha256Hex(header))
      << "abi.h changed without a new ABI version: bump CONNECTD_PLUGIN_ABI_VERSION_MINOR (append "
         "only) or _MAJOR, record it in the header's HISTORY, then update the pinned hash";
}

}  // namespace
