// The loader: plugin.path scanning, the version handshake, aliases, and bad plugins contained.
#include "runtime/plugin/plugin_registry.h"

#include <filesystem>
#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace connectd::plugin {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

const std::string kGood = std::string(CONNECTD_TEST_PLUGIN_DIR) + "/good";
const std::string kBad = std::string(CONNECTD_TEST_PLUGIN_DIR) + "/bad";
const std::string kVersions = std::string(CONNECTD_TEST_PLUGIN_DIR) + "/versions";

std::string ProblemsText(const PluginRegistry& registry) {
  std::string text;
  for (const LoadProblem& p : registry.problems()) text += p.path + ": " + p.reason + "\n";
  return text;
}

TEST(ConnectAliasesTest, SimpleNameAndPrunedName) {
  EXPECT_THAT(ConnectAliases("org.apache.kafka.connect.mirror.MirrorSourceConnector"),
              ElementsAre("MirrorSourceConnector", "MirrorSource"));
  EXPECT_THAT(ConnectAliases("org.example.Replicator"), ElementsAre("Replicator"));
  EXPECT_THAT(ConnectAliases("Connector"), IsEmpty());
}

TEST(PluginRegistryTest, LoadsEveryConnectorUnderItsClassNameAndAliases) {
  PluginRegistry registry;
  registry.LoadPluginPath(kGood);
  EXPECT_THAT(registry.problems(), IsEmpty()) << ProblemsText(registry);

  const ConnectorPlugin* mock = registry.Find("org.apache.kafka.connect.tools.MockSourceConnector");
  ASSERT_NE(mock, nullptr);
  EXPECT_EQ(registry.Find("MockSourceConnector"), mock);
  EXPECT_EQ(registry.Find("MockSource"), mock);
  EXPECT_EQ(mock->type, ConnectorType::kSource);
  EXPECT_EQ(mock->plugin_name, "connectd-test-plugins");
  EXPECT_THAT(mock->aliases, ElementsAre("MockSource", "MockSourceConnector"));

  const ConnectorPlugin* sink = registry.Find("RecordingSink");
  ASSERT_NE(sink, nullptr);
  EXPECT_EQ(sink->type, ConnectorType::kSink);
  EXPECT_EQ(registry.Find("NoSuchConnector"), nullptr);
}

TEST(PluginRegistryTest, OlderAndNewerMinorVersionsLoad) {
  PluginRegistry registry;
  registry.LoadPluginPath(kGood);
  const ConnectorPlugin* older = registry.Find("OlderMinorSource");
  ASSERT_NE(older, nullptr) << ProblemsText(registry);
  EXPECT_EQ(older->abi_minor, 0u);
  EXPECT_LT(older->descriptor->connector->struct_size, sizeof(connectd_connector_vtable));
  const ConnectorPlugin* newer = registry.Find("NewerMinorSource");
  ASSERT_NE(newer, nullptr);
  EXPECT_EQ(newer->abi_minor, 9u);
  EXPECT_EQ(newer->version, "9.9.9");
}

TEST(PluginRegistryTest, BadPluginsAreReportedAndTheRestLoad) {
  std::filesystem::path junk_dir = std::filesystem::temp_directory_path() / "connectd-junk-plugin";
  std::filesystem::create_directories(junk_dir);
  std::ofstream(junk_dir / "libjunk.so") << "not an ELF file";

  PluginRegistry registry;
  registry.LoadPluginPath(kGood + ", " + kBad + "," + junk_dir.string() + ",/nonexistent/dir");
  std::string problems = ProblemsText(registry);
  // The bad-major plugin declares major + 1 with the current minor.
  const std::string minor = std::to_string(CONNECTD_PLUGIN_ABI_VERSION_MINOR);
  EXPECT_THAT(problems, HasSubstr("plugin ABI version 2." + minor +
                                  " is not compatible with the worker's ABI version 1." + minor));
  EXPECT_THAT(problems, HasSubstr("no entry symbol 'connectd_plugin_entry'"));
  // The same class and version twice: the second copy is refused (another version would load).
  EXPECT_THAT(problems, HasSubstr("connector class org.apache.kafka.connect.tools."
                                  "MockSourceConnector 1.0.0 is already provided by"));
  EXPECT_THAT(problems, HasSubstr("libjunk.so: cannot load library"));
  EXPECT_THAT(problems, HasSubstr("/nonexistent/dir: plugin.path entry is not a directory"));
  EXPECT_EQ(registry.problems().size(), 5u) << problems;
  // Everything good still loaded; nothing of the refused major did.
  EXPECT_NE(registry.Find("VerifiableSource"), nullptr);
  EXPECT_NE(registry.Find("org.connectd.test.CSourceConnector"), nullptr);
  EXPECT_EQ(registry.Find("FutureMajorSource"), nullptr);
  std::filesystem::remove_all(junk_dir);
}

// A Java worker's plugin.path (jars, a directory of classes) next to connectd's: the shared
// objects load, the Java plugins are listed (and named in one warning), none is a problem.
TEST(PluginRegistryTest, JavaPluginsAreNamedNotLoaded) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / "connectd-java-plugins";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "lib" / "classes" / "org" / "example");
  std::ofstream(dir / "lib" / "kafka-connect-jdbc-10.7.4.jar") << "PK";
  std::ofstream(dir / "lib" / "classes" / "org" / "example" / "A.class") << "\xca\xfe";
  std::ofstream(dir / "lib" / "classes" / "org" / "example" / "B.class") << "\xca\xfe";
  std::ofstream(dir / "direct.jar") << "PK";

  PluginRegistry registry;
  registry.LoadPluginPath(kGood + "," + dir.string() + "," + (dir / "direct.jar").string());
  EXPECT_THAT(registry.problems(), IsEmpty()) << ProblemsText(registry);
  EXPECT_NE(registry.Find("VerifiableSource"), nullptr);
  // Each once, also direct.jar, which is both named and found in the scanned directory.
  EXPECT_THAT(registry.java_plugins(),
              ElementsAre((dir / "direct.jar").string(),
                          (dir / "lib" / "classes" / "org" / "example").string() + "/",
                          (dir / "lib" / "kafka-connect-jdbc-10.7.4.jar").string()));
  std::filesystem::remove_all(dir);
}

TEST(PluginRegistryTest, LoadingTheSameFileTwiceIsHarmless) {
  PluginRegistry registry;
  registry.LoadPluginPath(kGood);
  size_t count = registry.Connectors().size();
  registry.LoadPluginPath(kGood);
  EXPECT_EQ(registry.Connectors().size(), count);
  EXPECT_THAT(registry.problems(), IsEmpty()) << ProblemsText(registry);
}

// Two classes with the same simple name: neither gets the alias; both keep their class names.
TEST(PluginRegistryTest, AmbiguousAliasesAreRegisteredForNeither) {
  static const connectd_connector_vtable vtable{sizeof(connectd_connector_vtable)};
  static const connectd_source_task_vtable task{sizeof(connectd_source_task_vtable)};
  static const connectd_connector_descriptor a{sizeof(connectd_connector_descriptor),
                                               "org.a.DupConnector",
                                               CONNECTD_CONNECTOR_TYPE_SOURCE,
                                               "1",
                                               nullptr,
                                               0,
                                               &vtable,
                                               &task,
                                               nullptr};
  static const connectd_connector_descriptor b{sizeof(connectd_connector_descriptor),
                                               "org.b.DupConnector",
                                               CONNECTD_CONNECTOR_TYPE_SOURCE,
                                               "1",
                                               nullptr,
                                               0,
                                               &vtable,
                                               &task,
                                               nullptr};
  static const connectd_connector_descriptor* const list[] = {&a, &b};
  static const connectd_plugin_descriptor plugin{
      sizeof(connectd_plugin_descriptor), 1, 1, "dups", "1", list, 2};
  PluginRegistry registry;
  ASSERT_TRUE(registry.AddDescriptor(&plugin, "memory").ok());
  EXPECT_NE(registry.Find("org.a.DupConnector"), nullptr);
  EXPECT_NE(registry.Find("org.b.DupConnector"), nullptr);
  EXPECT_EQ(registry.Find("Dup"), nullptr);
  EXPECT_EQ(registry.Find("DupConnector"), nullptr);
}

// Two libraries on one plugin path declaring the same class at 1.0.0 and 2.0.0: both load.
TEST(PluginRegistryTest, TwoVersionsOfAClassLoadFromOnePluginPath) {
  PluginRegistry registry;
  registry.LoadPluginPath(kVersions);
  EXPECT_THAT(registry.problems(), IsEmpty()) << ProblemsText(registry);
  EXPECT_THAT(registry.Versions("VersionedSource"), ElementsAre("1.0.0", "2.0.0"));
  absl::StatusOr<const ConnectorPlugin*> old = registry.Find("VersionedSource", "1.0.0");
  ASSERT_TRUE(old.ok());
  EXPECT_THAT((*old)->library_path, HasSubstr("versioned_1"));
  EXPECT_THAT(registry.Find("VersionedSource")->library_path, HasSubstr("versioned_2"));
}

// KIP-891: versions of one class side by side. A name finds the newest; a version or range
// picks one, and a range no version meets is Connect's error naming the versions loaded.
TEST(PluginRegistryTest, SeveralVersionsOfOneClassLoadSideBySide) {
  static const connectd_connector_vtable vtable{sizeof(connectd_connector_vtable)};
  static const connectd_source_task_vtable task{sizeof(connectd_source_task_vtable)};
  auto descriptor = [](const char* version) {
    return connectd_connector_descriptor{sizeof(connectd_connector_descriptor),
                                         "org.v.VersionedConnector",
                                         CONNECTD_CONNECTOR_TYPE_SOURCE,
                                         version,
                                         nullptr,
                                         0,
                                         &vtable,
                                         &task,
                                         nullptr};
  };
  static const connectd_connector_descriptor v1 = descriptor("1.2.0");
  static const connectd_connector_descriptor v2 = descriptor("2.0.0");
  static const connectd_connector_descriptor v10 = descriptor("10.0.0-rc1");
  static const connectd_connector_descriptor* const first[] = {&v2};
  static const connectd_connector_descriptor* const second[] = {&v10, &v1};
  static const connectd_plugin_descriptor a{
      sizeof(connectd_plugin_descriptor), 1, 1, "versions-a", "1", first, 1};
  static const connectd_plugin_descriptor b{
      sizeof(connectd_plugin_descriptor), 1, 1, "versions-b", "1", second, 2};
  PluginRegistry registry;
  ASSERT_TRUE(registry.AddDescriptor(&a, "a.so").ok());
  ASSERT_TRUE(registry.AddDescriptor(&b, "b.so").ok());
  EXPECT_THAT(registry.Versions("Versioned"), ElementsAre("1.2.0", "2.0.0", "10.0.0-rc1"));
  EXPECT_EQ(registry.Find("VersionedConnector")->version, "10.0.0-rc1");
  EXPECT_EQ((*registry.Find("org.v.VersionedConnector", "1.2.0"))->version, "1.2.0");
  EXPECT_EQ((*registry.Find("Versioned", "[1.0,3.0)"))->version, "2.0.0");
  EXPECT_EQ((*registry.Find("Versioned", "[2.0.0,)"))->version, "10.0.0-rc1");
  EXPECT_EQ((*registry.Find("Versioned", std::nullopt))->version, "10.0.0-rc1");
  EXPECT_EQ(*registry.Find("NoSuch", "1.0"), nullptr);
  absl::StatusOr<const ConnectorPlugin*> missing = registry.Find("Versioned", "3.0");
  EXPECT_EQ(missing.status().message(),
            "Plugin org.v.VersionedConnector not found that matches the version range "
            "[3.0,3.0], available versions: [1.2.0, 2.0.0, 10.0.0-rc1]");
  EXPECT_FALSE(registry.Find("Versioned", "[2.0").ok());
  EXPECT_EQ(registry.Connectors().size(), 3u);
  // The same class and version again is refused; the others stay.
  EXPECT_FALSE(registry.AddDescriptor(&a, "a-copy.so").ok());
  EXPECT_EQ(registry.Connectors().size(), 3u);
}

}  // namespace
}  // namespace connectd::plugin
