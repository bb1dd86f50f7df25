#include "connectors/mirror_client/replication_policy.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tests/unit/connectors/mirror_client/golden.h"

namespace connectd::mirror {
namespace {

using testing::Field;
using testing::FieldOrDie;
using testing::GoldenLines;
using ::testing::HasSubstr;
using testing::Split;

std::unique_ptr<ReplicationPolicy> Make(const std::map<std::string, std::string>& props) {
  std::string error;
  std::unique_ptr<ReplicationPolicy> policy = MakeReplicationPolicy(props, &error);
  EXPECT_NE(policy, nullptr) << error;
  return policy;
}

std::string Result(bool b) { return b ? "true" : "false"; }

// Every answer Java's DefaultReplicationPolicy/IdentityReplicationPolicy (and
// MirrorSourceConnector.isCycle) gave in policies.tsv, for the same properties.
TEST(ReplicationPolicyGoldenTest, MatchesJava) {
  std::map<std::string, std::unique_ptr<ReplicationPolicy>> policies;
  std::set<std::string> empty_separator;
  int checked = 0;
  int skipped = 0;
  for (const std::string& line : GoldenLines("policies.tsv")) {
    const std::vector<std::string> f = Split(line, '\t');
    if (f[0] == "config") {
      ASSERT_EQ(f.size(), 6u) << line;
      std::map<std::string, std::string> props = {{"replication.policy.class", FieldOrDie(f[2])}};
      if (auto sep = Field(f[3])) props["replication.policy.separator"] = *sep;
      if (auto flag = Field(f[4]))
        props["replication.policy.internal.topic.separator.enabled"] = *flag;
      if (auto alias = Field(f[5])) props["source.cluster.alias"] = *alias;
      policies[f[1]] = Make(props);
      if (props["replication.policy.separator"].empty() && f[3] != "~")
        empty_separator.insert(f[1]);
      continue;
    }
    ASSERT_EQ(f.size(), 5u) << line;
    const ReplicationPolicy& policy = *policies.at(f[0]);
    const std::string& method = f[1];
    const std::optional<std::string> arg1 = Field(f[2]);
    const std::optional<std::string> arg2 = Field(f[3]);
    // With an empty separator Java splits between UTF-16 units, so a character outside the BMP
    // splits into two lone surrogates (which String.getBytes writes as '?'); connectd splits
    // between code points. Kafka topic names are ASCII, so only this synthetic case differs.
    const std::string topic_arg = method == "isCycle" ? arg2.value_or("") : arg1.value_or("");
    if (empty_separator.count(f[0]) > 0 && topic_arg.find('\xF0') != std::string::npos) {
      ++skipped;
      continue;
    }
    // Compare decoded strings, so that "s:" and "x:" spellings of a result agree.
    const std::optional<std::string> expected_string =
        f[4] == "true" || f[4] == "false" ? std::optional<std::string>(f[4]) : Field(f[4]);
    std::optional<std::string> actual;
    if (method == "heartbeatsTopic") {
      actual = policy.HeartbeatsTopic();
    } else if (method == "offsetSyncsTopic") {
      actual = policy.OffsetSyncsTopic(*arg1);
    } else if (method == "checkpointsTopic") {
      actual = policy.CheckpointsTopic(*arg1);
    } else if (method == "formatRemoteTopic") {
      actual = policy.FormatRemoteTopic(*arg1, *arg2);
    } else if (method == "topicSource") {
      actual = policy.TopicSource(*arg1);
    } else if (method == "upstreamTopic") {
      actual = policy.UpstreamTopic(*arg1);
    } else if (method == "originalTopic") {
      actual = policy.OriginalTopic(*arg1);
    } else if (method == "isInternalTopic") {
      actual = Result(policy.IsInternalTopic(*arg1));
    } else if (method == "isHeartbeatsTopic") {
      actual = Result(policy.IsHeartbeatsTopic(*arg1));
    } else if (method == "isCheckpointsTopic") {
      actual = Result(policy.IsCheckpointsTopic(*arg1));
    } else if (method == "isMM2InternalTopic") {
      actual = Result(policy.IsMM2InternalTopic(*arg1));
    } else if (method == "isCycle") {
      actual = Result(IsCycle(policy, *arg1, *arg2));
    } else {
      FAIL() << "unknown method " << method;
    }
    EXPECT_EQ(actual, expected_string) << line;
    ++checked;
  }
  EXPECT_EQ(policies.size(), 20u);
  EXPECT_EQ(skipped, 11);
  EXPECT_GT(checked, 10000);
}

TEST(ReplicationPolicyTest, DefaultPolicyBasics) {
  std::unique_ptr<ReplicationPolicy> policy = Make({});
  EXPECT_EQ(policy->FormatRemoteTopic("us-west", "orders"), "us-west.orders");
  EXPECT_EQ(policy->TopicSource("us-west.orders"), "us-west");
  EXPECT_EQ(policy->UpstreamTopic("us-east.us-west.orders"), "us-west.orders");
  EXPECT_EQ(policy->OriginalTopic("us-east.us-west.orders"), "orders");
  EXPECT_EQ(policy->TopicSource("orders"), std::nullopt);
  EXPECT_EQ(policy->TopicSource("orders."), std::nullopt);  // trailing empty parts dropped
  EXPECT_EQ(policy->TopicSource(".orders"), "");            // a leading empty part is kept
  EXPECT_EQ(policy->TopicSource(".."), std::nullopt);
  EXPECT_EQ(policy->OffsetSyncsTopic("B"), "mm2-offset-syncs.B.internal");
  EXPECT_EQ(policy->OffsetIndexTopic("B"), "mm2-offset-index.B.internal");
  EXPECT_TRUE(policy->IsInternalTopic(policy->OffsetIndexTopic("B")));
  EXPECT_EQ(policy->CheckpointsTopic("A"), "A.checkpoints.internal");
  EXPECT_TRUE(policy->IsHeartbeatsTopic("B.A.heartbeats"));
  EXPECT_FALSE(policy->IsHeartbeatsTopic("B.A.myheartbeats"));
}

TEST(ReplicationPolicyTest, InternalTopicsAfterKafka17200) {
  std::unique_ptr<ReplicationPolicy> policy = Make({});
  EXPECT_TRUE(policy->IsInternalTopic("__consumer_offsets"));
  EXPECT_TRUE(policy->IsInternalTopic(".hidden"));
  EXPECT_TRUE(policy->IsInternalTopic("mm2-offset-syncs.B.internal"));
  EXPECT_TRUE(policy->IsInternalTopic("mm2-configs.B.internal"));
  EXPECT_TRUE(policy->IsInternalTopic("A.checkpoints.internal"));
  EXPECT_FALSE(policy->IsInternalTopic("orders.internal"));  // internal before Kafka 4.0
  EXPECT_FALSE(policy->IsInternalTopic("orders-internal"));
  EXPECT_FALSE(policy->IsInternalTopic("_schemas"));
}

TEST(ReplicationPolicyTest, CustomSeparators) {
  std::unique_ptr<ReplicationPolicy> policy = Make({{"replication.policy.separator", "__"}});
  EXPECT_EQ(policy->FormatRemoteTopic("A", "orders"), "A__orders");
  EXPECT_EQ(policy->TopicSource("a___b"), "a");
  EXPECT_EQ(policy->UpstreamTopic("a___b"), "_b");
  EXPECT_EQ(policy->CheckpointsTopic("A"), "A__checkpoints__internal");
  EXPECT_EQ(policy->OffsetSyncsTopic("B"), "mm2-offset-syncs__B__internal");
  EXPECT_EQ(policy->OffsetIndexTopic("B"), "mm2-offset-index__B__internal");
  EXPECT_TRUE(policy->IsInternalTopic(policy->OffsetIndexTopic("B")));
  EXPECT_EQ(policy->HeartbeatsTopic(), "heartbeats");

  policy = Make({{"replication.policy.separator", "__"},
                 {"replication.policy.internal.topic.separator.enabled", "false"}});
  EXPECT_EQ(policy->CheckpointsTopic("A"), "A.checkpoints.internal");
  EXPECT_EQ(policy->OffsetSyncsTopic("B"), "mm2-offset-syncs.B.internal");
  EXPECT_EQ(policy->OffsetIndexTopic("B"), "mm2-offset-index.B.internal");
  EXPECT_TRUE(policy->IsInternalTopic(policy->OffsetIndexTopic("B")));
  EXPECT_TRUE(policy->IsCheckpointsTopic("A.checkpoints.internal"));
  EXPECT_FALSE(policy->IsCheckpointsTopic("A__checkpoints__internal"));

  // The flag is only read together with a separator; Boolean.parseBoolean semantics.
  policy = Make({{"replication.policy.internal.topic.separator.enabled", "false"}});
  EXPECT_EQ(policy->CheckpointsTopic("A"), "A.checkpoints.internal");
  policy = Make({{"replication.policy.separator", "_"},
                 {"replication.policy.internal.topic.separator.enabled", "yes"}});
  EXPECT_EQ(policy->CheckpointsTopic("A"), "A.checkpoints.internal");
  policy = Make({{"replication.policy.separator", "_"},
                 {"replication.policy.internal.topic.separator.enabled", "TRUE"}});
  EXPECT_EQ(policy->CheckpointsTopic("A"), "A_checkpoints_internal");

  // The separator is literal, never a regex, and not trimmed.
  policy = Make({{"replication.policy.separator", ".*"}});
  EXPECT_EQ(policy->TopicSource("A.*orders"), "A");
  EXPECT_EQ(policy->TopicSource("A.orders"), std::nullopt);
  policy = Make({{"replication.policy.separator", " . "}});
  EXPECT_EQ(policy->FormatRemoteTopic("A", "t"), "A . t");
}

TEST(ReplicationPolicyTest, IdentityPolicy) {
  std::unique_ptr<ReplicationPolicy> policy = Make(
      {{"replication.policy.class", "org.apache.kafka.connect.mirror.IdentityReplicationPolicy"},
       {"source.cluster.alias", "A"}});
  EXPECT_EQ(policy->FormatRemoteTopic("A", "orders"), "orders");
  EXPECT_EQ(policy->TopicSource("orders"), "A");
  EXPECT_EQ(policy->UpstreamTopic("orders"), "orders");
  EXPECT_EQ(policy->OriginalTopic("orders"), "orders");
  EXPECT_EQ(policy->FormatRemoteTopic("A", "heartbeats"), "A.heartbeats");
  EXPECT_EQ(policy->FormatRemoteTopic("A", "myheartbeats"), "A.myheartbeats");
  EXPECT_EQ(policy->TopicSource("B.A.heartbeats"), "B");
  EXPECT_TRUE(policy->IsHeartbeatsTopic("B.A.heartbeats"));
  EXPECT_TRUE(IsCycle(*policy, "A", "orders"));  // the configured alias is the source
  EXPECT_FALSE(IsCycle(*policy, "B", "orders"));

  // Without source.cluster.alias in the props (Java reads only the raw props) it is null.
  policy = Make({{"replication.policy.class", "IdentityReplicationPolicy"}});
  EXPECT_EQ(policy->TopicSource("orders"), std::nullopt);
  EXPECT_EQ(policy->UpstreamTopic("orders"), "orders");
}

TEST(ReplicationPolicyTest, CycleDetection) {
  std::unique_ptr<ReplicationPolicy> policy = Make({});
  EXPECT_TRUE(IsCycle(*policy, "B", "B.orders"));
  EXPECT_TRUE(IsCycle(*policy, "B", "C.B.orders"));
  EXPECT_FALSE(IsCycle(*policy, "B", "C.orders"));
  EXPECT_FALSE(IsCycle(*policy, "B", "orders"));
  EXPECT_TRUE(IsCycle(*policy, "", ".orders"));
}

TEST(ReplicationPolicyTest, FactoryAcceptsJavaAndSimpleClassNames) {
  for (const char* name :
       {"org.apache.kafka.connect.mirror.DefaultReplicationPolicy", "DefaultReplicationPolicy",
        "  org.apache.kafka.connect.mirror.DefaultReplicationPolicy\t"}) {
    std::string error;
    std::unique_ptr<ReplicationPolicy> policy =
        MakeReplicationPolicy({{"replication.policy.class", name}}, &error);
    ASSERT_NE(policy, nullptr) << name;
    EXPECT_NE(dynamic_cast<DefaultReplicationPolicy*>(policy.get()), nullptr);
    EXPECT_EQ(dynamic_cast<IdentityReplicationPolicy*>(policy.get()), nullptr);
  }
  std::unique_ptr<ReplicationPolicy> identity = MakeReplicationPolicy(
      {{"replication.policy.class", "org.apache.kafka.connect.mirror.IdentityReplicationPolicy"}},
      nullptr);
  EXPECT_NE(dynamic_cast<IdentityReplicationPolicy*>(identity.get()), nullptr);
}

TEST(ReplicationPolicyTest, FactoryRejectsUnknownClasses) {
  for (const char* name : {"com.example.MyPolicy", "", "LegacyReplicationPolicy",
                           "org.apache.kafka.connect.mirror.defaultreplicationpolicy"}) {
    std::string error;
    EXPECT_EQ(MakeReplicationPolicy({{"replication.policy.class", name}}, &error), nullptr);
    EXPECT_THAT(error, HasSubstr("for configuration replication.policy.class: Class "));
    EXPECT_THAT(error, HasSubstr("could not be found"));
    EXPECT_EQ(MakeReplicationPolicy({{"replication.policy.class", name}}, nullptr), nullptr);
  }
  std::string error;
  MakeReplicationPolicy({{"replication.policy.class", "com.example.MyPolicy"}}, &error);
  EXPECT_THAT(error, HasSubstr("Invalid value com.example.MyPolicy for configuration "
                               "replication.policy.class: Class com.example.MyPolicy could not "
                               "be found."));
}

}  // namespace
}  // namespace connectd::mirror
