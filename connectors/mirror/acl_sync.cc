#include "connectors/mirror/acl_sync.h"

#include <set>

namespace connectd::mirror {

std::vector<TopicAclBinding> TargetAclBindings(
    const std::vector<TopicAclBinding>& source,
    const std::function<bool(const std::string&)>& should_replicate,
    const std::function<std::string(const std::string&)>& remote_topic) {
  std::vector<TopicAclBinding> out;
  std::set<TopicAclBinding> seen;
  for (const TopicAclBinding& binding : source) {
    if (binding.pattern_type != AclPatternType::kLiteral) continue;
    bool allow = binding.permission == AclPermissionType::kAllow;
    if (allow && binding.operation == AclOperation::kWrite) continue;
    if (!should_replicate(binding.topic)) continue;
    TopicAclBinding target = binding;
    target.topic = remote_topic(binding.topic);
    target.pattern_type = AclPatternType::kLiteral;
    if (allow && binding.operation == AclOperation::kAll) target.operation = AclOperation::kRead;
    if (seen.insert(target).second) out.push_back(std::move(target));
  }
  return out;
}

const char* AclOperationName(AclOperation operation) {
  switch (operation) {
    case AclOperation::kUnknown:
      return "UNKNOWN";
    case AclOperation::kAny:
      return "ANY";
    case AclOperation::kAll:
      return "ALL";
    case AclOperation::kRead:
      return "READ";
    case AclOperation::kWrite:
      return "WRITE";
    case AclOperation::kCreate:
      return "CREATE";
    case AclOperation::kDelete:
      return "DELETE";
    case AclOperation::kAlter:
      return "ALTER";
    case AclOperation::kDescribe:
      return "DESCRIBE";
    case AclOperation::kClusterAction:
      return "CLUSTER_ACTION";
    case AclOperation::kDescribeConfigs:
      return "DESCRIBE_CONFIGS";
    case AclOperation::kAlterConfigs:
      return "ALTER_CONFIGS";
    case AclOperation::kIdempotentWrite:
      return "IDEMPOTENT_WRITE";
  }
  return "UNKNOWN";
}

const char* AclPermissionTypeName(AclPermissionType permission) {
  switch (permission) {
    case AclPermissionType::kUnknown:
      return "UNKNOWN";
    case AclPermissionType::kAny:
      return "ANY";
    case AclPermissionType::kDeny:
      return "DENY";
    case AclPermissionType::kAllow:
      return "ALLOW";
  }
  return "UNKNOWN";
}

const char* AclPatternTypeName(AclPatternType pattern_type) {
  switch (pattern_type) {
    case AclPatternType::kUnknown:
      return "UNKNOWN";
    case AclPatternType::kAny:
      return "ANY";
    case AclPatternType::kMatch:
      return "MATCH";
    case AclPatternType::kLiteral:
      return "LITERAL";
    case AclPatternType::kPrefixed:
      return "PREFIXED";
  }
  return "UNKNOWN";
}

}  // namespace connectd::mirror
