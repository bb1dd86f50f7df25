// Garbage through the C ABI (tests/plugins/garbage_plugin.c): NULL from create, undefined
// status codes, huge messages, a task config with NULL items, records with NULL pointers and
// non-zero sizes. The host wrappers must turn each into a Status, never follow the pointer.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "runtime/plugin/plugin_instances.h"
#include "runtime/plugin/plugin_registry.h"

namespace connectd::plugin {
namespace {

metrics::MetricsRegistry& Registry() {
  static metrics::MetricsRegistry registry;
  return registry;
}

class Context : public ConnectorContextHost, public SourceTaskContextHost {
 public:
  void RequestTaskReconfiguration() override {}
  void RaiseError(std::string) override {}
  metrics::MetricsScope* Metrics() override { return &scope_; }
  std::optional<std::string> Offset(std::string_view) override { return std::nullopt; }

 private:
  metrics::MetricsScope scope_{&Registry()};
};

class CountingBatch : public SourceBatchHost {
 public:
  connectd_status Append(const connectd_source_record&) override {
    ++appended;
    return CONNECTD_STATUS_OK;
  }
  int appended = 0;
};

class PluginGarbageTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    registry_ = new PluginRegistry();
    registry_->LoadPluginPath(std::string(CONNECTD_TEST_PLUGIN_DIR) + "/faulty");
  }
  const ConnectorPlugin& Plugin(const std::string& name) {
    const ConnectorPlugin* plugin = registry_->Find(name);
    EXPECT_NE(plugin, nullptr) << name;
    return *plugin;
  }
  // A GarbageSource task started in `mode`, polled once into `batch`.
  absl::Status PollIn(const std::string& mode, CountingBatch& batch) {
    auto task = SourceTaskInstance::Create(Plugin("GarbageSource"), &context_);
    EXPECT_TRUE(task.ok()) << task.status();
    if (!task.ok()) return task.status();
    EXPECT_TRUE((*task)->Start({{"garbage", mode}, {"topic", "t"}}).ok());
    return (*task)->Poll(10, &batch);
  }
  static PluginRegistry* registry_;
  Context context_;
};
PluginRegistry* PluginGarbageTest::registry_ = nullptr;

TEST_F(PluginGarbageTest, NullFromCreateIsAnError) {
  EXPECT_FALSE(ConnectorInstance::Create(Plugin("NullConnectorSource"), &context_).ok());
  EXPECT_FALSE(SourceTaskInstance::Create(Plugin("NullTaskSource"), &context_).ok());
}

TEST_F(PluginGarbageTest, UndefinedStatusAndHugeMessageAreKept) {
  auto connector = ConnectorInstance::Create(Plugin("GarbageSource"), &context_);
  ASSERT_TRUE(connector.ok());
  absl::Status status = (*connector)->Start({{"garbage", "connector.start.status"}});
  EXPECT_EQ(status.code(), absl::StatusCode::kUnknown);
  EXPECT_EQ(status.message(), "an undefined status code");
  status = (*connector)->Start({{"garbage", "connector.start.huge"}});
  EXPECT_EQ(status.code(), absl::StatusCode::kInternal);
  EXPECT_EQ(status.message().size(), 1024u * 1024u);
}

TEST_F(PluginGarbageTest, TaskConfigWithNullItemsFailsTaskConfigs) {
  auto connector = ConnectorInstance::Create(Plugin("GarbageSource"), &context_);
  ASSERT_TRUE(connector.ok());
  ASSERT_TRUE((*connector)->Start({{"garbage", "task_configs.null_items"}}).ok());
  auto configs = (*connector)->TaskConfigs(1);
  EXPECT_EQ(configs.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(configs.status().message().find("no items but a count of 3"), std::string::npos)
      << configs.status();
}

TEST_F(PluginGarbageTest, RecordsWithNullPointersAreRefusedBeforeTheWorkerSeesThem) {
  for (const char* mode : {"poll.null_headers", "poll.null_topic"}) {
    CountingBatch batch;
    absl::Status status = PollIn(mode, batch);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << mode << ": " << status;
    EXPECT_EQ(batch.appended, 0) << mode;
  }
  CountingBatch good;
  EXPECT_TRUE(PollIn("none", good).ok());
  EXPECT_EQ(good.appended, 1);
}

}  // namespace
}  // namespace connectd::plugin
