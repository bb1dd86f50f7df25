// The pieces both assignors share: config offset, CONFIG_MISMATCH answers, owner maps and the
// Java orderings (String.compareTo, String.hashCode, HashMap iteration order).
#include "runtime/distributed/connect_assignor.h"

#include <gtest/gtest.h>

namespace connectd::distributed {
namespace {

using assignor_internal::JavaCompare;
using assignor_internal::JavaHashOrder;
using assignor_internal::JavaStringHash;
using herder::ConnectorTaskId;

AssignorMember Member(std::string id, int64_t offset) {
  AssignorMember m;
  m.member_id = std::move(id);
  m.metadata.url = "http://" + m.member_id + ":8083/";
  m.metadata.config_offset = offset;
  return m;
}

TEST(ConnectAssignorTest, MaxMemberConfigOffset) {
  EXPECT_EQ(MaxMemberConfigOffset({}), -1);
  EXPECT_EQ(MaxMemberConfigOffset({Member("a", 4), Member("b", 9), Member("c", 7)}), 9);
  EXPECT_EQ(MaxMemberConfigOffset({Member("a", -1)}), -1);
}

TEST(ConnectAssignorTest, ConfigMismatchGoesToEveryMember) {
  auto out = ConfigMismatchAssignments({Member("leader", 3), Member("member", 12)}, "leader",
                                       "http://leader:8083/", 12, kProtocolV2);
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->size(), 2u);
  for (const auto& [id, a] : *out) {
    ConnectAssignment want;
    want.version = kProtocolV2;
    want.error = ConnectAssignment::kConfigMismatch;
    want.leader = "leader";
    want.leader_url = "http://leader:8083/";
    want.config_offset = 12;
    EXPECT_EQ(a, want) << id;
  }
  auto v0 = ConfigMismatchAssignments({Member("leader", 3)}, "leader", "u", 3, kProtocolV0);
  ASSERT_TRUE(v0.ok());
  EXPECT_EQ(v0->at("leader").version, kProtocolV0);
}

TEST(ConnectAssignorTest, ConfigMismatchRejectsBadInput) {
  EXPECT_EQ(ConfigMismatchAssignments({Member("a", 1)}, "b", "u", 1, 2).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ConfigMismatchAssignments({Member("a", 1)}, "a", "u", 1, 3).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ConfigMismatchAssignments({}, "a", "u", 1, 2).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(
      ConfigMismatchAssignments({Member("a", 1), Member("a", 2)}, "a", "u", 1, 2).status().code(),
      absl::StatusCode::kInvalidArgument);
}

TEST(ConnectAssignorTest, OwnersOfInvertsCompleteSets) {
  std::map<std::string, MemberWork> complete;
  complete["w1"] = {{"c1"}, {{"c1", 0}, {"c2", 1}}};
  complete["w2"] = {{"c2"}, {{"c1", 1}}};
  OwnerMap owners = OwnersOf(complete);
  EXPECT_EQ(owners.connectors, (std::map<std::string, std::string>{{"c1", "w1"}, {"c2", "w2"}}));
  EXPECT_EQ(owners.tasks, (std::map<ConnectorTaskId, std::string>{
                              {{"c1", 0}, "w1"}, {{"c1", 1}, "w2"}, {{"c2", 1}, "w1"}}));
}

TEST(ConnectAssignorTest, JavaStringHashMatchesJava) {
  // Values of "...".hashCode() in Java.
  EXPECT_EQ(JavaStringHash(""), 0);
  EXPECT_EQ(JavaStringHash("a"), 97);
  EXPECT_EQ(JavaStringHash("worker1"), 1525161075);
  EXPECT_EQ(JavaStringHash("connect-1-8f2c"), 2018674814);
  // "é" is one UTF-16 unit (0xE9); "😀" (U+1F600) is the pair D83D DE00.
  EXPECT_EQ(JavaStringHash("\xC3\xA9"), 0xE9);
  EXPECT_EQ(JavaStringHash("\xF0\x9F\x98\x80"), 1772899);  // 0xD83D * 31 + 0xDE00
}

TEST(ConnectAssignorTest, JavaCompareUsesUtf16Units) {
  EXPECT_LT(JavaCompare("a", "b"), 0);
  EXPECT_GT(JavaCompare("b", "a"), 0);
  EXPECT_EQ(JavaCompare("abc", "abc"), 0);
  EXPECT_LT(JavaCompare("ab", "abc"), 0);
  EXPECT_LT(JavaCompare("worker10", "worker2"), 0);
  // U+1F600 (surrogates D83D..) sorts before U+FF21 (FULLWIDTH A) in Java, after it in UTF-8.
  EXPECT_LT(JavaCompare("\xF0\x9F\x98\x80", "\xEF\xBC\xA1"), 0);
  EXPECT_GT(std::string("\xF0\x9F\x98\x80").compare("\xEF\xBC\xA1"), 0);
}

TEST(ConnectAssignorTest, JavaHashOrderMatchesHashMapIteration) {
  // new HashMap<>() filled in this order iterates as below (checked against Java 17).
  EXPECT_EQ(
      JavaHashOrder({"worker1", "worker2", "worker3", "worker4", "worker5", "worker6"}),
      (std::vector<std::string>{"worker6", "worker1", "worker2", "worker3", "worker4", "worker5"}));
  // "Aa" and "BB" have the same hash: one bucket, insertion order.
  EXPECT_EQ(JavaHashOrder({"BB", "Aa"}), (std::vector<std::string>{"BB", "Aa"}));
  EXPECT_EQ(JavaHashOrder({"Aa", "BB"}), (std::vector<std::string>{"Aa", "BB"}));
  // 40 keys: the table has grown to 64 buckets.
  std::vector<std::string> keys;
  for (int i = 0; i < 40; ++i) keys.push_back("connect-" + std::to_string(i) + "-x");
  const std::vector<int> java = {28, 29, 26, 27, 24, 25, 7,  6,  5,  4,  3,  2,  1,  0,
                                 22, 23, 20, 21, 18, 17, 39, 19, 14, 37, 13, 38, 16, 35,
                                 15, 36, 9,  8,  10, 33, 34, 12, 31, 11, 32, 30};
  std::vector<std::string> want;
  for (int i : java) want.push_back("connect-" + std::to_string(i) + "-x");
  EXPECT_EQ(JavaHashOrder(keys), want);
}

}  // namespace
}  // namespace connectd::distributed
