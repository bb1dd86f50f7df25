#include "runtime/config/config_providers.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace connectd::config {
namespace {

using ::testing::HasSubstr;

class ConfigProvidersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        std::filesystem::temp_directory_path() / ("connectd-providers-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_ / "secrets");
    std::ofstream(dir_ / "creds.properties") << "db.password=s3cret\nuser=admin\n";
    std::ofstream(dir_ / "secrets" / "token") << "tok-123";
    setenv("CONNECTD_TEST_SECRET", "from-env", 1);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(ConfigProvidersTest, ResolvesFileDirectoryAndEnvReferences) {
  auto providers = ConfigProviders::Create({
      {"config.providers", "file,dir,env"},
      {"config.providers.file.class", "org.apache.kafka.common.config.provider.FileConfigProvider"},
      {"config.providers.dir.class",
       "org.apache.kafka.common.config.provider.DirectoryConfigProvider"},
      {"config.providers.env.class",
       "org.apache.kafka.common.config.provider.EnvVarConfigProvider"},
  });
  ASSERT_TRUE(providers.ok()) << providers.status();
  std::string file = (dir_ / "creds.properties").string();
  auto out = providers->Transform({
      {"password", "${file:" + file + ":db.password}"},
      {"mixed", "u=${file:" + file + ":user};t=${dir:" + (dir_ / "secrets").string() + ":token}"},
      {"env", "${env:CONNECTD_TEST_SECRET}"},
      {"unknown.provider", "${vault:x:y}"},
      {"missing.key", "${file:" + file + ":nope}"},
      {"plain", "no references"},
  });
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->at("password"), "s3cret");
  EXPECT_EQ(out->at("mixed"), "u=admin;t=tok-123");
  EXPECT_EQ(out->at("env"), "from-env");
  EXPECT_EQ(out->at("unknown.provider"), "${vault:x:y}");
  EXPECT_EQ(out->at("missing.key"), "${file:" + file + ":nope}");
  EXPECT_EQ(out->at("plain"), "no references");
  EXPECT_TRUE(ConfigProviders::HasReference("a ${env:X} b"));
  EXPECT_FALSE(ConfigProviders::HasReference("a $env:X b"));
}

TEST_F(ConfigProvidersTest, AllowedPathsAreEnforced) {
  auto providers = ConfigProviders::Create({
      {"config.providers", "file"},
      {"config.providers.file.class", "org.apache.kafka.common.config.provider.FileConfigProvider"},
      {"config.providers.file.param.allowed.paths", (dir_ / "secrets").string()},
  });
  ASSERT_TRUE(providers.ok());
  auto out =
      providers->Transform({{"p", "${file:" + (dir_ / "creds.properties").string() + ":user}"}});
  ASSERT_FALSE(out.ok());
  EXPECT_THAT(std::string(out.status().message()), HasSubstr("is not allowed"));
}

TEST_F(ConfigProvidersTest, UnsupportedProviderClassIsAClearError) {
  auto providers = ConfigProviders::Create(
      {{"config.providers", "vault"}, {"config.providers.vault.class", "com.example.Vault"}});
  ASSERT_FALSE(providers.ok());
  EXPECT_THAT(std::string(providers.status().message()), HasSubstr("com.example.Vault"));
}

}  // namespace
}  // namespace connectd::config
