// File: acl_sync.h
//
// MirrorSourceConnector's topic ACL mapping as a pure function
// (MirrorSourceConnector.syncTopicAcls): which source ACL bindings are copied to the target, and
// how they are rewritten.
//
// Enum values are Kafka's wire codes (org.apache.kafka.common.acl.AclOperation,
// AclPermissionType, resource.PatternType), which are also librdkafka's enum values.
//
// Standard library only. Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

namespace connectd::mirror {

enum class AclPatternType : int8_t {
  kUnknown = 0,
  kAny = 1,
  kMatch = 2,
  kLiteral = 3,
  kPrefixed = 4,
};

enum class AclOperation : int8_t {
  kUnknown = 0,
  kAny = 1,
  kAll = 2,
  kRead = 3,
  kWrite = 4,
  kCreate = 5,
  kDelete = 6,
  kAlter = 7,
  kDescribe = 8,
  kClusterAction = 9,
  kDescribeConfigs = 10,
  kAlterConfigs = 11,
  kIdempotentWrite = 12,
};

enum class AclPermissionType : int8_t {
  kUnknown = 0,
  kAny = 1,
  kDeny = 2,
  kAllow = 3,
};

// TopicAclBinding is an ACL binding on a TOPIC resource.
struct TopicAclBinding {
  std::string topic;
  AclPatternType pattern_type = AclPatternType::kLiteral;
  std::string principal;
  std::string host;
  AclOperation operation = AclOperation::kUnknown;
  AclPermissionType permission = AclPermissionType::kUnknown;

  auto Tie() const { return std::tie(topic, pattern_type, principal, host, operation, permission); }
  bool operator==(const TopicAclBinding& o) const { return Tie() == o.Tie(); }
  bool operator<(const TopicAclBinding& o) const { return Tie() < o.Tie(); }
};

// TargetAclBindings is Java's syncTopicAcls mapping: keep LITERAL bindings whose topic
// `should_replicate` accepts, except ALLOW WRITE (only MirrorMaker writes remote topics); name
// the remote topic `remote_topic(topic)`, still LITERAL; downgrade ALLOW ALL to ALLOW READ (same
// principal and host); copy DENY bindings unchanged. PREFIXED (and other) patterns are not
// copied. The result is in `source` order without duplicates (ALLOW ALL and ALLOW READ of one
// principal map to the same binding).
std::vector<TopicAclBinding> TargetAclBindings(
    const std::vector<TopicAclBinding>& source,
    const std::function<bool(const std::string&)>& should_replicate,
    const std::function<std::string(const std::string&)>& remote_topic);

// Kafka's names, for logs: "READ", "ALLOW", "LITERAL".
const char* AclOperationName(AclOperation operation);
const char* AclPermissionTypeName(AclPermissionType permission);
const char* AclPatternTypeName(AclPatternType pattern_type);

}  // namespace connectd::mirror
