// MirrorSourceConnector's topic ACL mapping (MirrorSourceConnector.syncTopicAcls).
#include "connectors/mirror/acl_sync.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "connectors/mirror_client/filters.h"
#include "connectors/mirror_client/replication_policy.h"

namespace connectd::mirror {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

TopicAclBinding Acl(const std::string& topic, AclOperation operation, AclPermissionType permission,
                    AclPatternType pattern = AclPatternType::kLiteral,
                    const std::string& principal = "User:dummy", const std::string& host = "*") {
  return TopicAclBinding{topic, pattern, principal, host, operation, permission};
}

// The connector's wiring: every topic named "test-*" is replicated, remote names "A.<topic>".
std::vector<TopicAclBinding> Map(const std::vector<TopicAclBinding>& source) {
  return TargetAclBindings(
      source, [](const std::string& topic) { return topic.rfind("test-", 0) == 0; },
      [](const std::string& topic) { return "A." + topic; });
}

constexpr auto kAllow = AclPermissionType::kAllow;
constexpr auto kDeny = AclPermissionType::kDeny;

TEST(TargetAclBindingsTest, AllowDescribeCopiedToRemoteTopic) {
  EXPECT_THAT(Map({Acl("test-1", AclOperation::kDescribe, kAllow)}),
              ElementsAre(Acl("A.test-1", AclOperation::kDescribe, kAllow)));
}

TEST(TargetAclBindingsTest, AllowAllDowngradedToRead) {
  EXPECT_THAT(Map({Acl("test-1", AclOperation::kAll, kAllow, AclPatternType::kLiteral, "User:alice",
                       "10.0.0.1")}),
              ElementsAre(Acl("A.test-1", AclOperation::kRead, kAllow, AclPatternType::kLiteral,
                              "User:alice", "10.0.0.1")));
}

TEST(TargetAclBindingsTest, AllowWriteNotCopied) {
  EXPECT_THAT(Map({Acl("test-1", AclOperation::kWrite, kAllow)}), IsEmpty());
}

TEST(TargetAclBindingsTest, DenyCopiedUnchanged) {
  EXPECT_THAT(
      Map({Acl("test-1", AclOperation::kWrite, kDeny), Acl("test-1", AclOperation::kAll, kDeny)}),
      ElementsAre(Acl("A.test-1", AclOperation::kWrite, kDeny),
                  Acl("A.test-1", AclOperation::kAll, kDeny)));
}

TEST(TargetAclBindingsTest, PrefixedAndOtherPatternsNotCopied) {
  EXPECT_THAT(Map({Acl("test-", AclOperation::kRead, kAllow, AclPatternType::kPrefixed),
                   Acl("test-1", AclOperation::kRead, kAllow, AclPatternType::kMatch),
                   Acl("test-1", AclOperation::kRead, kAllow, AclPatternType::kUnknown)}),
              IsEmpty());
}

TEST(TargetAclBindingsTest, TopicsNotReplicatedAreSkipped) {
  EXPECT_THAT(
      Map({Acl("other", AclOperation::kRead, kAllow), Acl("test-2", AclOperation::kRead, kAllow)}),
      ElementsAre(Acl("A.test-2", AclOperation::kRead, kAllow)));
}

TEST(TargetAclBindingsTest, DuplicatesAfterDowngradeAreDropped) {
  EXPECT_THAT(
      Map({Acl("test-1", AclOperation::kAll, kAllow), Acl("test-1", AclOperation::kRead, kAllow),
           Acl("test-1", AclOperation::kDescribe, kAllow)}),
      ElementsAre(Acl("A.test-1", AclOperation::kRead, kAllow),
                  Acl("A.test-1", AclOperation::kDescribe, kAllow)));
}

TEST(TargetAclBindingsTest, OtherOperationsCopiedAsTheyAre) {
  EXPECT_THAT(Map({Acl("test-1", AclOperation::kAlterConfigs, kAllow),
                   Acl("test-1", AclOperation::kDescribeConfigs, kAllow),
                   Acl("test-1", AclOperation::kDelete, kAllow)}),
              ElementsAre(Acl("A.test-1", AclOperation::kAlterConfigs, kAllow),
                          Acl("A.test-1", AclOperation::kDescribeConfigs, kAllow),
                          Acl("A.test-1", AclOperation::kDelete, kAllow)));
}

TEST(TargetAclBindingsTest, WithDefaultFiltersAndPolicy) {
  // The real wiring: DefaultTopicFilter + DefaultReplicationPolicy.
  std::map<std::string, std::string> props = {{"source.cluster.alias", "primary"},
                                              {"target.cluster.alias", "backup"}};
  std::string error;
  auto filter = TopicFilter::Make(props, &error);
  ASSERT_TRUE(filter.has_value()) << error;
  std::unique_ptr<ReplicationPolicy> policy = MakeReplicationPolicy(props, &error);
  ASSERT_NE(policy, nullptr) << error;
  auto out = TargetAclBindings(
      {Acl("test-topic-1", AclOperation::kDescribe, kAllow),
       Acl("__consumer_offsets", AclOperation::kRead, kAllow),
       Acl("x.replica", AclOperation::kRead, kAllow)},
      [&](const std::string& t) { return filter->ShouldReplicateTopic(t); },
      [&](const std::string& t) { return policy->FormatRemoteTopic("primary", t); });
  EXPECT_THAT(out, ElementsAre(Acl("primary.test-topic-1", AclOperation::kDescribe, kAllow)));
}

TEST(AclNamesTest, KafkaNames) {
  EXPECT_STREQ(AclOperationName(AclOperation::kRead), "READ");
  EXPECT_STREQ(AclOperationName(AclOperation::kIdempotentWrite), "IDEMPOTENT_WRITE");
  EXPECT_STREQ(AclPermissionTypeName(kAllow), "ALLOW");
  EXPECT_STREQ(AclPatternTypeName(AclPatternType::kPrefixed), "PREFIXED");
}

}  // namespace
}  // namespace connectd::mirror
