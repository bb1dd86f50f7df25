// The admin calls MirrorSourceConnector's config and ACL sync make (kafka_clients.h), against a
// real Apache Kafka 4.4 cluster (ctest-b, StandardAuthorizer, User:ANONYMOUS super user):
// librdkafka 2.0.2's legacy AlterConfigs really replaces a topic's whole override set, the
// DescribeConfigs flags the sync relies on, DescribeAcls/CreateAcls round trips, and the cancel
// flag that keeps the connector's stop() prompt.
#include <librdkafka/rdkafka.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include "connectors/mirror/kafka_clients.h"
#include "tests/common/kafka_test_env.h"

namespace connectd::mirror {
namespace {

using connectd::testing::TestKafkaBootstrap;
using connectd::testing::UniqueName;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr int kTimeoutMs = 30000;

}  // namespace

// Readable gmock output.
void PrintTo(const TopicAclBinding& b, std::ostream* os) {
  *os << AclPatternTypeName(b.pattern_type) << " " << b.topic << " " << b.principal << "@" << b.host
      << " " << AclPermissionTypeName(b.permission) << " " << AclOperationName(b.operation);
}

namespace {

class MirrorAdminTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto bootstrap = TestKafkaBootstrap("ctest-b");
    ASSERT_TRUE(bootstrap.ok()) << bootstrap.status();
    std::string error;
    admin_ = MakeClient(RD_KAFKA_PRODUCER, {{"bootstrap.servers", *bootstrap}}, &error);
    ASSERT_NE(admin_, nullptr) << error;
  }

  // Creates a topic and waits until the broker describes it (its metadata lags the controller
  // by a few milliseconds).
  void CreateTopic(const std::string& name, std::map<std::string, std::string> configs) {
    ASSERT_THAT(CreateTopics(admin_.get(), {NewTopic{name, 1, 1, std::move(configs)}}, kTimeoutMs),
                IsEmpty());
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
    while (true) {
      std::map<std::string, std::string> errors;
      std::string error;
      auto described = DescribeConfigsOfTopics(admin_.get(), {name}, kTimeoutMs, &errors, &error);
      if (described && described->count(name)) return;
      ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "topic " << name << " not described";
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }

  // The topic's DYNAMIC_TOPIC_CONFIG overrides.
  std::map<std::string, std::string> Overrides(const std::string& topic) {
    std::map<std::string, std::string> errors, out;
    std::string error;
    auto configs = DescribeConfigsOfTopics(admin_.get(), {topic}, kTimeoutMs, &errors, &error);
    EXPECT_TRUE(configs.has_value()) << error;
    EXPECT_THAT(errors, IsEmpty());
    if (!configs) return out;
    for (const auto& [name, entry] : (*configs)[topic]) {
      if (entry.is_dynamic_topic) out[name] = entry.value;
    }
    return out;
  }

  // The overrides once they equal `expected`, or the last ones read after 15 s: an alter is
  // applied by the controller and reaches the broker's DescribeConfigs a moment later (KRaft).
  std::map<std::string, std::string> OverridesBecome(
      const std::string& topic, const std::map<std::string, std::string>& expected) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
    std::map<std::string, std::string> now = Overrides(topic);
    while (now != expected && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      now = Overrides(topic);
    }
    return now;
  }

  void DeleteAclsOn(const std::string& topic) {
    char errstr[256];
    rd_kafka_AclBindingFilter_t* filter = rd_kafka_AclBindingFilter_new(
        RD_KAFKA_RESOURCE_TOPIC, topic.c_str(), RD_KAFKA_RESOURCE_PATTERN_ANY, nullptr, nullptr,
        RD_KAFKA_ACL_OPERATION_ANY, RD_KAFKA_ACL_PERMISSION_TYPE_ANY, errstr, sizeof(errstr));
    rd_kafka_queue_t* queue = rd_kafka_queue_new(admin_.get());
    rd_kafka_DeleteAcls(admin_.get(), &filter, 1, nullptr, queue);
    rd_kafka_AclBinding_destroy(filter);
    rd_kafka_event_t* event = rd_kafka_queue_poll(queue, kTimeoutMs);
    EXPECT_NE(event, nullptr);
    if (event) rd_kafka_event_destroy(event);
    rd_kafka_queue_destroy(queue);
  }

  KafkaHandle admin_;
};

TEST_F(MirrorAdminTest, IncrementalOpsLeaveUnnamedOverridesAlone) {
  std::string topic = UniqueName("mirror-admin-cfg");
  CreateTopic(
      topic,
      {{"retention.bytes", "1000"}, {"delete.retention.ms", "1000"}, {"segment.ms", "3600000"}});
  EXPECT_EQ(Overrides(topic), (std::map<std::string, std::string>{{"delete.retention.ms", "1000"},
                                                                  {"retention.bytes", "1000"},
                                                                  {"segment.ms", "3600000"}}));

  // What the sync sends (Java's ops): SET retention.bytes, DELETE segment.ms; the override the
  // ops do not name (delete.retention.ms, an excluded property) stays as the target has it.
  ConfigOps ops;
  ops.set["retention.bytes"] = "2000";
  ops.remove.insert("segment.ms");
  ASSERT_THAT(AlterTopicConfigsIncrementally(admin_.get(), {{topic, ops}}, kTimeoutMs), IsEmpty());
  EXPECT_EQ(OverridesBecome(topic, {{"delete.retention.ms", "1000"}, {"retention.bytes", "2000"}}),
            (std::map<std::string, std::string>{{"delete.retention.ms", "1000"},
                                                {"retention.bytes", "2000"}}));

  // The same ops again change nothing (a converged flow resends them every round, as Java).
  ASSERT_THAT(AlterTopicConfigsIncrementally(admin_.get(), {{topic, ops}}, kTimeoutMs), IsEmpty());
  EXPECT_EQ(Overrides(topic), (std::map<std::string, std::string>{{"delete.retention.ms", "1000"},
                                                                  {"retention.bytes", "2000"}}));
}

TEST_F(MirrorAdminTest, DescribeFlagsDefaultsAndOverrides) {
  std::string topic = UniqueName("mirror-admin-flags");
  CreateTopic(topic, {{"retention.bytes", "1000"}});
  std::map<std::string, std::string> errors;
  std::string error;
  auto configs = DescribeConfigsOfTopics(admin_.get(), {topic}, kTimeoutMs, &errors, &error);
  ASSERT_TRUE(configs.has_value()) << error;
  const TopicConfigs& entries = (*configs)[topic];
  ASSERT_TRUE(entries.count("retention.bytes"));
  EXPECT_TRUE(entries.at("retention.bytes").is_dynamic_topic);
  EXPECT_FALSE(entries.at("retention.bytes").is_default);
  ASSERT_TRUE(entries.count("retention.ms"));
  EXPECT_TRUE(entries.at("retention.ms").is_default);
  EXPECT_FALSE(entries.at("retention.ms").is_dynamic_topic);
}

TEST_F(MirrorAdminTest, PerTopicErrorsDoNotHideOtherTopics) {
  std::string topic = UniqueName("mirror-admin-ok");
  std::string missing = UniqueName("mirror-admin-missing");
  CreateTopic(topic, {});
  std::map<std::string, std::string> errors;
  std::string error;
  auto configs =
      DescribeConfigsOfTopics(admin_.get(), {topic, missing}, kTimeoutMs, &errors, &error);
  ASSERT_TRUE(configs.has_value()) << error;
  EXPECT_TRUE(configs->count(topic));
  EXPECT_FALSE(configs->count(missing));
  EXPECT_TRUE(errors.count(missing));

  ConfigOps ops;
  ops.set["retention.bytes"] = "1";
  auto failures = AlterTopicConfigsIncrementally(admin_.get(), {{missing, ops}}, kTimeoutMs);
  ASSERT_TRUE(failures.count(missing));
  EXPECT_FALSE(failures[missing].unsupported);
}

TEST_F(MirrorAdminTest, TopicAclsRoundTrip) {
  std::string topic = UniqueName("mirror-admin-acl");
  std::vector<TopicAclBinding> bindings = {
      {topic, AclPatternType::kLiteral, "User:dummy", "*", AclOperation::kRead,
       AclPermissionType::kAllow},
      {topic, AclPatternType::kLiteral, "User:mallory", "*", AclOperation::kAll,
       AclPermissionType::kDeny},
      {topic, AclPatternType::kPrefixed, "User:dummy", "*", AclOperation::kDescribe,
       AclPermissionType::kAllow},
  };
  ASSERT_THAT(CreateTopicAcls(admin_.get(), bindings, kTimeoutMs), IsEmpty());
  // Creating them again is not an error (the sync repeats every interval).
  EXPECT_THAT(CreateTopicAcls(admin_.get(), bindings, kTimeoutMs), IsEmpty());

  // The broker's authorizer applies ACL changes from the metadata log a moment later: poll.
  auto mine = [&](bool* security_disabled) {
    std::string error;
    auto all = DescribeTopicAcls(admin_.get(), kTimeoutMs, security_disabled, &error);
    EXPECT_TRUE(all.has_value()) << error;
    std::vector<TopicAclBinding> out;
    for (const TopicAclBinding& b : all.value_or(std::vector<TopicAclBinding>{})) {
      if (b.topic == topic) out.push_back(b);
    }
    return out;
  };
  auto eventually = [&](const auto& matcher) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
    while (!::testing::Matches(matcher)(mine(nullptr)) &&
           std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    EXPECT_THAT(mine(nullptr), matcher);
  };
  eventually(::testing::UnorderedElementsAreArray(bindings));
  bool security_disabled = true;
  mine(&security_disabled);
  EXPECT_FALSE(security_disabled);

  DeleteAclsOn(topic);
  eventually(IsEmpty());
}

TEST_F(MirrorAdminTest, CancelFlagEndsTheWaitPromptly) {
  std::atomic<bool> cancel = true;
  std::map<std::string, std::string> errors;
  std::string error;
  auto started = std::chrono::steady_clock::now();
  auto configs = DescribeConfigsOfTopics(admin_.get(), {UniqueName("mirror-admin-cancel")},
                                         kTimeoutMs, &errors, &error, &cancel);
  EXPECT_FALSE(configs.has_value());
  EXPECT_THAT(error, HasSubstr("cancelled"));
  auto acls = DescribeTopicAcls(admin_.get(), kTimeoutMs, nullptr, &error, &cancel);
  EXPECT_FALSE(acls.has_value());
  EXPECT_THAT(error, HasSubstr("cancelled"));
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(2));
}

}  // namespace
}  // namespace connectd::mirror
