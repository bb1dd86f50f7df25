#include "runtime/kafka/protocol/errors.h"

#include <algorithm>
#include <array>
#include <iterator>

namespace connectd::kafka::protocol {
namespace {

struct Row {
  Error error;
  std::string_view name;
  ErrorClass error_class;
};

// Sorted by code (tests/golden/protocol/errors.tsv).
constexpr Row kRows[] = {
    {Error::kUnknownServerError, "UNKNOWN_SERVER_ERROR", ErrorClass::kFatal},
    {Error::kNone, "NONE", ErrorClass::kNone},
    {Error::kOffsetOutOfRange, "OFFSET_OUT_OF_RANGE", ErrorClass::kFatal},
    {Error::kCorruptMessage, "CORRUPT_MESSAGE", ErrorClass::kRetriable},
    {Error::kUnknownTopicOrPartition, "UNKNOWN_TOPIC_OR_PARTITION", ErrorClass::kMetadata},
    {Error::kInvalidFetchSize, "INVALID_FETCH_SIZE", ErrorClass::kFatal},
    {Error::kLeaderNotAvailable, "LEADER_NOT_AVAILABLE", ErrorClass::kMetadata},
    {Error::kNotLeaderOrFollower, "NOT_LEADER_OR_FOLLOWER", ErrorClass::kMetadata},
    {Error::kRequestTimedOut, "REQUEST_TIMED_OUT", ErrorClass::kRetriable},
    {Error::kBrokerNotAvailable, "BROKER_NOT_AVAILABLE", ErrorClass::kFatal},
    {Error::kReplicaNotAvailable, "REPLICA_NOT_AVAILABLE", ErrorClass::kMetadata},
    {Error::kMessageTooLarge, "MESSAGE_TOO_LARGE", ErrorClass::kFatal},
    {Error::kStaleControllerEpoch, "STALE_CONTROLLER_EPOCH", ErrorClass::kFatal},
    {Error::kOffsetMetadataTooLarge, "OFFSET_METADATA_TOO_LARGE", ErrorClass::kFatal},
    {Error::kNetworkException, "NETWORK_EXCEPTION", ErrorClass::kMetadata},
    {Error::kCoordinatorLoadInProgress, "COORDINATOR_LOAD_IN_PROGRESS", ErrorClass::kRetriable},
    {Error::kCoordinatorNotAvailable, "COORDINATOR_NOT_AVAILABLE", ErrorClass::kRetriable},
    {Error::kNotCoordinator, "NOT_COORDINATOR", ErrorClass::kRetriable},
    {Error::kInvalidTopicException, "INVALID_TOPIC_EXCEPTION", ErrorClass::kFatal},
    {Error::kRecordListTooLarge, "RECORD_LIST_TOO_LARGE", ErrorClass::kFatal},
    {Error::kNotEnoughReplicas, "NOT_ENOUGH_REPLICAS", ErrorClass::kRetriable},
    {Error::kNotEnoughReplicasAfterAppend, "NOT_ENOUGH_REPLICAS_AFTER_APPEND",
     ErrorClass::kRetriable},
    {Error::kInvalidRequiredAcks, "INVALID_REQUIRED_ACKS", ErrorClass::kFatal},
    {Error::kIllegalGeneration, "ILLEGAL_GENERATION", ErrorClass::kFatal},
    {Error::kInconsistentGroupProtocol, "INCONSISTENT_GROUP_PROTOCOL", ErrorClass::kFatal},
    {Error::kInvalidGroupId, "INVALID_GROUP_ID", ErrorClass::kFatal},
    {Error::kUnknownMemberId, "UNKNOWN_MEMBER_ID", ErrorClass::kFatal},
    {Error::kInvalidSessionTimeout, "INVALID_SESSION_TIMEOUT", ErrorClass::kFatal},
    {Error::kRebalanceInProgress, "REBALANCE_IN_PROGRESS", ErrorClass::kFatal},
    {Error::kInvalidCommitOffsetSize, "INVALID_COMMIT_OFFSET_SIZE", ErrorClass::kFatal},
    {Error::kTopicAuthorizationFailed, "TOPIC_AUTHORIZATION_FAILED", ErrorClass::kFatal},
    {Error::kGroupAuthorizationFailed, "GROUP_AUTHORIZATION_FAILED", ErrorClass::kFatal},
    {Error::kClusterAuthorizationFailed, "CLUSTER_AUTHORIZATION_FAILED", ErrorClass::kFatal},
    {Error::kInvalidTimestamp, "INVALID_TIMESTAMP", ErrorClass::kFatal},
    {Error::kUnsupportedSaslMechanism, "UNSUPPORTED_SASL_MECHANISM", ErrorClass::kFatal},
    {Error::kIllegalSaslState, "ILLEGAL_SASL_STATE", ErrorClass::kFatal},
    {Error::kUnsupportedVersion, "UNSUPPORTED_VERSION", ErrorClass::kFatal},
    {Error::kTopicAlreadyExists, "TOPIC_ALREADY_EXISTS", ErrorClass::kFatal},
    {Error::kInvalidPartitions, "INVALID_PARTITIONS", ErrorClass::kFatal},
    {Error::kInvalidReplicationFactor, "INVALID_REPLICATION_FACTOR", ErrorClass::kFatal},
    {Error::kInvalidReplicaAssignment, "INVALID_REPLICA_ASSIGNMENT", ErrorClass::kFatal},
    {Error::kInvalidConfig, "INVALID_CONFIG", ErrorClass::kFatal},
    {Error::kNotController, "NOT_CONTROLLER", ErrorClass::kRetriable},
    {Error::kInvalidRequest, "INVALID_REQUEST", ErrorClass::kFatal},
    {Error::kUnsupportedForMessageFormat, "UNSUPPORTED_FOR_MESSAGE_FORMAT", ErrorClass::kFatal},
    {Error::kPolicyViolation, "POLICY_VIOLATION", ErrorClass::kFatal},
    {Error::kOutOfOrderSequenceNumber, "OUT_OF_ORDER_SEQUENCE_NUMBER", ErrorClass::kFatal},
    {Error::kDuplicateSequenceNumber, "DUPLICATE_SEQUENCE_NUMBER", ErrorClass::kFatal},
    {Error::kInvalidProducerEpoch, "INVALID_PRODUCER_EPOCH", ErrorClass::kFatal},
    {Error::kInvalidTxnState, "INVALID_TXN_STATE", ErrorClass::kFatal},
    {Error::kInvalidProducerIdMapping, "INVALID_PRODUCER_ID_MAPPING", ErrorClass::kFatal},
    {Error::kInvalidTransactionTimeout, "INVALID_TRANSACTION_TIMEOUT", ErrorClass::kFatal},
    {Error::kConcurrentTransactions, "CONCURRENT_TRANSACTIONS", ErrorClass::kRetriable},
    {Error::kTransactionCoordinatorFenced, "TRANSACTION_COORDINATOR_FENCED", ErrorClass::kFatal},
    {Error::kTransactionalIdAuthorizationFailed, "TRANSACTIONAL_ID_AUTHORIZATION_FAILED",
     ErrorClass::kFatal},
    {Error::kSecurityDisabled, "SECURITY_DISABLED", ErrorClass::kFatal},
    {Error::kOperationNotAttempted, "OPERATION_NOT_ATTEMPTED", ErrorClass::kFatal},
    {Error::kKafkaStorageError, "KAFKA_STORAGE_ERROR", ErrorClass::kMetadata},
    {Error::kLogDirNotFound, "LOG_DIR_NOT_FOUND", ErrorClass::kFatal},
    {Error::kSaslAuthenticationFailed, "SASL_AUTHENTICATION_FAILED", ErrorClass::kFatal},
    {Error::kUnknownProducerId, "UNKNOWN_PRODUCER_ID", ErrorClass::kFatal},
    {Error::kReassignmentInProgress, "REASSIGNMENT_IN_PROGRESS", ErrorClass::kFatal},
    {Error::kDelegationTokenAuthDisabled, "DELEGATION_TOKEN_AUTH_DISABLED", ErrorClass::kFatal},
    {Error::kDelegationTokenNotFound, "DELEGATION_TOKEN_NOT_FOUND", ErrorClass::kFatal},
    {Error::kDelegationTokenOwnerMismatch, "DELEGATION_TOKEN_OWNER_MISMATCH", ErrorClass::kFatal},
    {Error::kDelegationTokenRequestNotAllowed, "DELEGATION_TOKEN_REQUEST_NOT_ALLOWED",
     ErrorClass::kFatal},
    {Error::kDelegationTokenAuthorizationFailed, "DELEGATION_TOKEN_AUTHORIZATION_FAILED",
     ErrorClass::kFatal},
    {Error::kDelegationTokenExpired, "DELEGATION_TOKEN_EXPIRED", ErrorClass::kFatal},
    {Error::kInvalidPrincipalType, "INVALID_PRINCIPAL_TYPE", ErrorClass::kFatal},
    {Error::kNonEmptyGroup, "NON_EMPTY_GROUP", ErrorClass::kFatal},
    {Error::kGroupIdNotFound, "GROUP_ID_NOT_FOUND", ErrorClass::kFatal},
    {Error::kFetchSessionIdNotFound, "FETCH_SESSION_ID_NOT_FOUND", ErrorClass::kRetriable},
    {Error::kInvalidFetchSessionEpoch, "INVALID_FETCH_SESSION_EPOCH", ErrorClass::kRetriable},
    {Error::kListenerNotFound, "LISTENER_NOT_FOUND", ErrorClass::kMetadata},
    {Error::kTopicDeletionDisabled, "TOPIC_DELETION_DISABLED", ErrorClass::kFatal},
    {Error::kFencedLeaderEpoch, "FENCED_LEADER_EPOCH", ErrorClass::kMetadata},
    {Error::kUnknownLeaderEpoch, "UNKNOWN_LEADER_EPOCH", ErrorClass::kRetriable},
    {Error::kUnsupportedCompressionType, "UNSUPPORTED_COMPRESSION_TYPE", ErrorClass::kFatal},
    {Error::kStaleBrokerEpoch, "STALE_BROKER_EPOCH", ErrorClass::kFatal},
    {Error::kOffsetNotAvailable, "OFFSET_NOT_AVAILABLE", ErrorClass::kRetriable},
    {Error::kMemberIdRequired, "MEMBER_ID_REQUIRED", ErrorClass::kFatal},
    {Error::kPreferredLeaderNotAvailable, "PREFERRED_LEADER_NOT_AVAILABLE", ErrorClass::kMetadata},
    {Error::kGroupMaxSizeReached, "GROUP_MAX_SIZE_REACHED", ErrorClass::kFatal},
    {Error::kFencedInstanceId, "FENCED_INSTANCE_ID", ErrorClass::kFatal},
    {Error::kEligibleLeadersNotAvailable, "ELIGIBLE_LEADERS_NOT_AVAILABLE", ErrorClass::kMetadata},
    {Error::kElectionNotNeeded, "ELECTION_NOT_NEEDED", ErrorClass::kMetadata},
    {Error::kNoReassignmentInProgress, "NO_REASSIGNMENT_IN_PROGRESS", ErrorClass::kFatal},
    {Error::kGroupSubscribedToTopic, "GROUP_SUBSCRIBED_TO_TOPIC", ErrorClass::kFatal},
    {Error::kInvalidRecord, "INVALID_RECORD", ErrorClass::kFatal},
    {Error::kUnstableOffsetCommit, "UNSTABLE_OFFSET_COMMIT", ErrorClass::kRetriable},
    {Error::kThrottlingQuotaExceeded, "THROTTLING_QUOTA_EXCEEDED", ErrorClass::kRetriable},
    {Error::kProducerFenced, "PRODUCER_FENCED", ErrorClass::kFatal},
    {Error::kResourceNotFound, "RESOURCE_NOT_FOUND", ErrorClass::kFatal},
    {Error::kDuplicateResource, "DUPLICATE_RESOURCE", ErrorClass::kFatal},
    {Error::kUnacceptableCredential, "UNACCEPTABLE_CREDENTIAL", ErrorClass::kFatal},
    {Error::kInconsistentVoterSet, "INCONSISTENT_VOTER_SET", ErrorClass::kFatal},
    {Error::kInvalidUpdateVersion, "INVALID_UPDATE_VERSION", ErrorClass::kFatal},
    {Error::kFeatureUpdateFailed, "FEATURE_UPDATE_FAILED", ErrorClass::kFatal},
    {Error::kPrincipalDeserializationFailure, "PRINCIPAL_DESERIALIZATION_FAILURE",
     ErrorClass::kFatal},
    {Error::kSnapshotNotFound, "SNAPSHOT_NOT_FOUND", ErrorClass::kFatal},
    {Error::kPositionOutOfRange, "POSITION_OUT_OF_RANGE", ErrorClass::kFatal},
    {Error::kUnknownTopicId, "UNKNOWN_TOPIC_ID", ErrorClass::kMetadata},
    {Error::kDuplicateBrokerRegistration, "DUPLICATE_BROKER_REGISTRATION", ErrorClass::kFatal},
    {Error::kBrokerIdNotRegistered, "BROKER_ID_NOT_REGISTERED", ErrorClass::kFatal},
    {Error::kInconsistentTopicId, "INCONSISTENT_TOPIC_ID", ErrorClass::kMetadata},
    {Error::kInconsistentClusterId, "INCONSISTENT_CLUSTER_ID", ErrorClass::kFatal},
    {Error::kTransactionalIdNotFound, "TRANSACTIONAL_ID_NOT_FOUND", ErrorClass::kFatal},
    {Error::kFetchSessionTopicIdError, "FETCH_SESSION_TOPIC_ID_ERROR", ErrorClass::kRetriable},
    {Error::kIneligibleReplica, "INELIGIBLE_REPLICA", ErrorClass::kFatal},
    {Error::kNewLeaderElected, "NEW_LEADER_ELECTED", ErrorClass::kFatal},
    {Error::kOffsetMovedToTieredStorage, "OFFSET_MOVED_TO_TIERED_STORAGE", ErrorClass::kFatal},
    {Error::kFencedMemberEpoch, "FENCED_MEMBER_EPOCH", ErrorClass::kFatal},
    {Error::kUnreleasedInstanceId, "UNRELEASED_INSTANCE_ID", ErrorClass::kFatal},
    {Error::kUnsupportedAssignor, "UNSUPPORTED_ASSIGNOR", ErrorClass::kFatal},
    {Error::kStaleMemberEpoch, "STALE_MEMBER_EPOCH", ErrorClass::kFatal},
    {Error::kMismatchedEndpointType, "MISMATCHED_ENDPOINT_TYPE", ErrorClass::kFatal},
    {Error::kUnsupportedEndpointType, "UNSUPPORTED_ENDPOINT_TYPE", ErrorClass::kFatal},
    {Error::kUnknownControllerId, "UNKNOWN_CONTROLLER_ID", ErrorClass::kFatal},
    {Error::kUnknownSubscriptionId, "UNKNOWN_SUBSCRIPTION_ID", ErrorClass::kFatal},
    {Error::kTelemetryTooLarge, "TELEMETRY_TOO_LARGE", ErrorClass::kFatal},
    {Error::kInvalidRegistration, "INVALID_REGISTRATION", ErrorClass::kFatal},
    {Error::kTransactionAbortable, "TRANSACTION_ABORTABLE", ErrorClass::kFatal},
    {Error::kInvalidRecordState, "INVALID_RECORD_STATE", ErrorClass::kFatal},
    {Error::kShareSessionNotFound, "SHARE_SESSION_NOT_FOUND", ErrorClass::kRetriable},
    {Error::kInvalidShareSessionEpoch, "INVALID_SHARE_SESSION_EPOCH", ErrorClass::kRetriable},
    {Error::kFencedStateEpoch, "FENCED_STATE_EPOCH", ErrorClass::kFatal},
    {Error::kInvalidVoterKey, "INVALID_VOTER_KEY", ErrorClass::kFatal},
    {Error::kDuplicateVoter, "DUPLICATE_VOTER", ErrorClass::kFatal},
    {Error::kVoterNotFound, "VOTER_NOT_FOUND", ErrorClass::kFatal},
    {Error::kInvalidRegularExpression, "INVALID_REGULAR_EXPRESSION", ErrorClass::kFatal},
    {Error::kRebootstrapRequired, "REBOOTSTRAP_REQUIRED", ErrorClass::kFatal},
    {Error::kStreamsInvalidTopology, "STREAMS_INVALID_TOPOLOGY", ErrorClass::kFatal},
    {Error::kStreamsInvalidTopologyEpoch, "STREAMS_INVALID_TOPOLOGY_EPOCH", ErrorClass::kFatal},
    {Error::kStreamsTopologyFenced, "STREAMS_TOPOLOGY_FENCED", ErrorClass::kFatal},
    {Error::kShareSessionLimitReached, "SHARE_SESSION_LIMIT_REACHED", ErrorClass::kRetriable},
    {Error::kGroupDeletionFailed, "GROUP_DELETION_FAILED", ErrorClass::kFatal},
    {Error::kStreamsTopologyDescriptionUpdateFailed, "STREAMS_TOPOLOGY_DESCRIPTION_UPDATE_FAILED",
     ErrorClass::kFatal},
    {Error::kControllerIdNotRegistered, "CONTROLLER_ID_NOT_REGISTERED", ErrorClass::kFatal},
};

const Row* Find(int16_t code) {
  const Row* it = std::lower_bound(std::begin(kRows), std::end(kRows), code,
                                   [](const Row& row, int16_t c) { return Code(row.error) < c; });
  return it != std::end(kRows) && Code(it->error) == code ? it : nullptr;
}

}  // namespace

std::string ErrorName(int16_t code) {
  const Row* row = Find(code);
  return row != nullptr ? std::string(row->name) : "UNKNOWN(" + std::to_string(code) + ")";
}

ErrorClass ClassOf(int16_t code) {
  const Row* row = Find(code);
  return row != nullptr ? row->error_class : ErrorClass::kFatal;
}

bool IsRetriable(int16_t code) {
  const ErrorClass c = ClassOf(code);
  return c == ErrorClass::kMetadata || c == ErrorClass::kRetriable;
}

bool InvalidatesMetadata(int16_t code) { return ClassOf(code) == ErrorClass::kMetadata; }

}  // namespace connectd::kafka::protocol
