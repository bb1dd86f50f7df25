// BatchCopier's options (runtime/kafka/batch_copier.h): the source client's fetch settings, as
// MirrorSource's consumer has them (librdkafka names), replace the copier's own where set; a
// value that is not a positive number is refused naming it. No broker is needed: Create()
// connects nowhere.
#include <gtest/gtest.h>

#include "runtime/kafka/batch_copier.h"

namespace connectd::kafka {
namespace {

BatchCopierOptions Options(std::map<std::string, std::string> source_settings) {
  BatchCopierOptions options;
  options.source = std::move(source_settings);
  options.source["bootstrap.servers"] = "127.0.0.1:1";
  options.target["bootstrap.servers"] = "127.0.0.1:2";
  return options;
}

TEST(BatchCopierOptionsTest, TheSourceClientsFetchSettingsApply) {
  absl::StatusOr<std::unique_ptr<BatchCopier>> copier =
      BatchCopier::Create(Options({{"fetch.wait.max.ms", "500"},
                                   {"fetch.min.bytes", "1024"},
                                   {"fetch.max.bytes", "10485760"},
                                   {"max.partition.fetch.bytes", "2097152"}}));
  ASSERT_TRUE(copier.ok()) << copier.status();
  EXPECT_EQ((*copier)->options().fetch_max_wait_ms, 500);
  EXPECT_EQ((*copier)->options().fetch_min_bytes, 1024);
  EXPECT_EQ((*copier)->options().fetch_max_bytes, 10485760);
  EXPECT_EQ((*copier)->options().partition_fetch_bytes, 2097152);

  copier = BatchCopier::Create(Options({{"fetch.message.max.bytes", "65536"}}));
  ASSERT_TRUE(copier.ok()) << copier.status();
  EXPECT_EQ((*copier)->options().partition_fetch_bytes, 65536);
}

TEST(BatchCopierOptionsTest, UnsetTheCopiersOwnApply) {
  absl::StatusOr<std::unique_ptr<BatchCopier>> copier = BatchCopier::Create(Options({}));
  ASSERT_TRUE(copier.ok()) << copier.status();
  EXPECT_EQ((*copier)->options().fetch_max_wait_ms, 100);
  EXPECT_EQ((*copier)->options().fetch_min_bytes, 1);
  EXPECT_EQ((*copier)->options().fetch_max_bytes, 52428800);
  EXPECT_EQ((*copier)->options().partition_fetch_bytes, 1 << 20);
}

TEST(BatchCopierOptionsTest, ABadFetchSettingIsRefusedByName) {
  for (const char* value : {"-3", "0", "lots", "99999999999"}) {
    absl::StatusOr<std::unique_ptr<BatchCopier>> copier =
        BatchCopier::Create(Options({{"fetch.min.bytes", value}}));
    ASSERT_FALSE(copier.ok()) << value;
    EXPECT_EQ(copier.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(copier.status().message().find("fetch.min.bytes=" + std::string(value)),
              std::string::npos)
        << copier.status();
  }
}

}  // namespace
}  // namespace connectd::kafka
