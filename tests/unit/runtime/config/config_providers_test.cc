#include "runtime/config/config_providers.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace connectd::config {
namespace {

using ::testing::AllOf;
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

// KIP-993 as Java's providers do it: a path outside allowed.paths gives no value (the reference
// stays as written), whether named directly, through "..", or through a link; a bad
// allowed.paths entry stops the worker naming it.
// References as Kafka's ConfigTransformer pattern finds them, and values of any size: a value
// of a few hundred KB once overflowed std::regex's recursion (one REST call ended the worker).
TEST_F(ConfigProvidersTest, ReferencesAsKafkasPatternFindsThemInValuesOfAnySize) {
  auto providers =
      ConfigProviders::Create({{"config.providers", "env"},
                               {"config.providers.env.class",
                                "org.apache.kafka.common.config.provider.EnvVarConfigProvider"}});
  ASSERT_TRUE(providers.ok()) << providers.status();
  const std::map<std::string, std::string> cases = {
      {"${env:CONNECTD_TEST_SECRET}", "from-env"},
      {"a${env:CONNECTD_TEST_SECRET}b${env:CONNECTD_TEST_SECRET}", "afrom-envbfrom-env"},
      {"${env}", "${env}"},                                                  // no ':': no reference
      {"${env:CONNECTD_TEST_SECRET", "${env:CONNECTD_TEST_SECRET"},          // no '}'
      {"${x${env:CONNECTD_TEST_SECRET}", "${x${env:CONNECTD_TEST_SECRET}"},  // provider "x${env"
      {"$${env:CONNECTD_TEST_SECRET}}", "$from-env}"},
      {"${nope:k}", "${nope:k}"},  // an unknown provider: as written
  };
  for (const auto& [value, expected] : cases) {
    auto out = providers->Transform({{"k", value}});
    ASSERT_TRUE(out.ok()) << value;
    EXPECT_EQ(out->at("k"), expected) << value;
  }
  EXPECT_FALSE(ConfigProviders::HasReference("${a}"));
  EXPECT_TRUE(ConfigProviders::HasReference("x ${a:b:c} y"));
  const std::string huge = "${" + std::string(4 << 20, 'a') + ":" + std::string(4 << 20, 'b');
  EXPECT_FALSE(ConfigProviders::HasReference(huge));
  auto out = providers->Transform({{"k", huge}});
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->at("k"), huge);
}

TEST_F(ConfigProvidersTest, AllowedPathsAreEnforced) {
  std::filesystem::create_directories(dir_ / "secrets");
  std::ofstream(dir_ / "secrets" / "ok.properties") << "user=allowed\n";
  std::filesystem::create_symlink(dir_ / "creds.properties", dir_ / "secrets" / "link.properties");
  std::filesystem::create_directories(dir_ / "secretsx");
  std::ofstream(dir_ / "secretsx" / "ok.properties") << "user=sibling\n";
  for (const char* cls : {"org.apache.kafka.common.config.provider.FileConfigProvider",
                          "org.apache.kafka.common.config.provider.DirectoryConfigProvider"}) {
    auto providers = ConfigProviders::Create({
        {"config.providers", "file"},
        {"config.providers.file.class", cls},
        {"config.providers.file.param.allowed.paths", (dir_ / "secrets").string()},
    });
    ASSERT_TRUE(providers.ok()) << providers.status();
  }
  auto providers = ConfigProviders::Create({
      {"config.providers", "file"},
      {"config.providers.file.class", "org.apache.kafka.common.config.provider.FileConfigProvider"},
      {"config.providers.file.param.allowed.paths", (dir_ / "secrets").string()},
  });
  ASSERT_TRUE(providers.ok()) << providers.status();
  const std::map<std::string, std::string> refused = {
      {"direct", "${file:" + (dir_ / "creds.properties").string() + ":user}"},
      {"dotdot", "${file:" + (dir_ / "secrets" / ".." / "creds.properties").string() + ":user}"},
      {"link", "${file:" + (dir_ / "secrets" / "link.properties").string() + ":user}"},
      {"sibling", "${file:" + (dir_ / "secretsx" / "ok.properties").string() + ":user}"},
      {"missing", "${file:" + (dir_ / "secrets" / "none.properties").string() + ":user}"},
  };
  auto out = providers->Transform(refused);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(*out, refused) << "each reference stays as written";
  auto allowed = providers->Transform(
      {{"p", "${file:" + (dir_ / "secrets" / "ok.properties").string() + ":user}"}});
  ASSERT_TRUE(allowed.ok()) << allowed.status();
  EXPECT_EQ(allowed->at("p"), "allowed");
  for (const auto& [list, message] : std::vector<std::pair<std::string, std::string>>{
           {"relative/dir", "Path relative/dir is not absolute"},
           {(dir_ / "nope").string(), "does not exist"},
           {(dir_ / "secrets").string() + ", /tmp", "Path  /tmp is not absolute"}}) {
    auto bad = ConfigProviders::Create({
        {"config.providers", "file"},
        {"config.providers.file.class",
         "org.apache.kafka.common.config.provider.FileConfigProvider"},
        {"config.providers.file.param.allowed.paths", list},
    });
    ASSERT_FALSE(bad.ok()) << list;
    EXPECT_THAT(std::string(bad.status().message()),
                AllOf(HasSubstr("config.providers.file.param.allowed.paths"), HasSubstr(message)));
  }
}

TEST_F(ConfigProvidersTest, EnvVarsOnlyByTheAllowListPatternAndNeverByPath) {
  setenv("CONNECTD_TEST_OTHER", "hidden", 1);
  auto providers = ConfigProviders::Create({
      {"config.providers", "env"},
      {"config.providers.env.class",
       "org.apache.kafka.common.config.provider.EnvVarConfigProvider"},
      {"config.providers.env.param.allowlist.pattern", "CONNECTD_TEST_SEC.*"},
  });
  ASSERT_TRUE(providers.ok()) << providers.status();
  auto out = providers->Transform(
      {{"a", "${env:CONNECTD_TEST_SECRET}"}, {"b", "${env:CONNECTD_TEST_OTHER}"}});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->at("a"), "from-env");
  EXPECT_EQ(out->at("b"), "${env:CONNECTD_TEST_OTHER}");
  auto path = providers->Transform({{"c", "${env:/etc:CONNECTD_TEST_SECRET}"}});
  ASSERT_FALSE(path.ok());
  EXPECT_THAT(std::string(path.status().message()),
              HasSubstr("Path is not supported for EnvVarConfigProvider, invalid value '/etc'"));
  unsetenv("CONNECTD_TEST_OTHER");
}

TEST_F(ConfigProvidersTest, UnsupportedProviderClassIsAClearError) {
  auto providers = ConfigProviders::Create(
      {{"config.providers", "vault"}, {"config.providers.vault.class", "com.example.Vault"}});
  ASSERT_FALSE(providers.ok());
  EXPECT_THAT(std::string(providers.status().message()), HasSubstr("com.example.Vault"));
}

}  // namespace
}  // namespace connectd::config
