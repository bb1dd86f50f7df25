// File: errors.h
//
// Kafka's error codes, one enum for every client connectd speaks the protocol with (the
// `connect` group member, the batch copier), with the names and classes Kafka gives them:
// org.apache.kafka.common.protocol.Errors of Kafka 4.4 (tests/golden/protocol/errors.tsv,
// written by GenerateErrorsGolden.java, pins the table). A response carries its code as an
// int16_t; compare it with an Error directly (`code == Error::kNone`).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace connectd::kafka::protocol {

enum class Error : int16_t {
  kUnknownServerError = -1,
  kNone = 0,
  kOffsetOutOfRange = 1,
  kCorruptMessage = 2,
  kUnknownTopicOrPartition = 3,
  kInvalidFetchSize = 4,
  kLeaderNotAvailable = 5,
  kNotLeaderOrFollower = 6,
  kRequestTimedOut = 7,
  kBrokerNotAvailable = 8,
  kReplicaNotAvailable = 9,
  kMessageTooLarge = 10,
  kStaleControllerEpoch = 11,
  kOffsetMetadataTooLarge = 12,
  kNetworkException = 13,
  kCoordinatorLoadInProgress = 14,
  kCoordinatorNotAvailable = 15,
  kNotCoordinator = 16,
  kInvalidTopicException = 17,
  kRecordListTooLarge = 18,
  kNotEnoughReplicas = 19,
  kNotEnoughReplicasAfterAppend = 20,
  kInvalidRequiredAcks = 21,
  kIllegalGeneration = 22,
  kInconsistentGroupProtocol = 23,
  kInvalidGroupId = 24,
  kUnknownMemberId = 25,
  kInvalidSessionTimeout = 26,
  kRebalanceInProgress = 27,
  kInvalidCommitOffsetSize = 28,
  kTopicAuthorizationFailed = 29,
  kGroupAuthorizationFailed = 30,
  kClusterAuthorizationFailed = 31,
  kInvalidTimestamp = 32,
  kUnsupportedSaslMechanism = 33,
  kIllegalSaslState = 34,
  kUnsupportedVersion = 35,
  kTopicAlreadyExists = 36,
  kInvalidPartitions = 37,
  kInvalidReplicationFactor = 38,
  kInvalidReplicaAssignment = 39,
  kInvalidConfig = 40,
  kNotController = 41,
  kInvalidRequest = 42,
  kUnsupportedForMessageFormat = 43,
  kPolicyViolation = 44,
  kOutOfOrderSequenceNumber = 45,
  kDuplicateSequenceNumber = 46,
  kInvalidProducerEpoch = 47,
  kInvalidTxnState = 48,
  kInvalidProducerIdMapping = 49,
  kInvalidTransactionTimeout = 50,
  kConcurrentTransactions = 51,
  kTransactionCoordinatorFenced = 52,
  kTransactionalIdAuthorizationFailed = 53,
  kSecurityDisabled = 54,
  kOperationNotAttempted = 55,
  kKafkaStorageError = 56,
  kLogDirNotFound = 57,
  kSaslAuthenticationFailed = 58,
  kUnknownProducerId = 59,
  kReassignmentInProgress = 60,
  kDelegationTokenAuthDisabled = 61,
  kDelegationTokenNotFound = 62,
  kDelegationTokenOwnerMismatch = 63,
  kDelegationTokenRequestNotAllowed = 64,
  kDelegationTokenAuthorizationFailed = 65,
  kDelegationTokenExpired = 66,
  kInvalidPrincipalType = 67,
  kNonEmptyGroup = 68,
  kGroupIdNotFound = 69,
  kFetchSessionIdNotFound = 70,
  kInvalidFetchSessionEpoch = 71,
  kListenerNotFound = 72,
  kTopicDeletionDisabled = 73,
  kFencedLeaderEpoch = 74,
  kUnknownLeaderEpoch = 75,
  kUnsupportedCompressionType = 76,
  kStaleBrokerEpoch = 77,
  kOffsetNotAvailable = 78,
  kMemberIdRequired = 79,
  kPreferredLeaderNotAvailable = 80,
  kGroupMaxSizeReached = 81,
  kFencedInstanceId = 82,
  kEligibleLeadersNotAvailable = 83,
  kElectionNotNeeded = 84,
  kNoReassignmentInProgress = 85,
  kGroupSubscribedToTopic = 86,
  kInvalidRecord = 87,
  kUnstableOffsetCommit = 88,
  kThrottlingQuotaExceeded = 89,
  kProducerFenced = 90,
  kResourceNotFound = 91,
  kDuplicateResource = 92,
  kUnacceptableCredential = 93,
  kInconsistentVoterSet = 94,
  kInvalidUpdateVersion = 95,
  kFeatureUpdateFailed = 96,
  kPrincipalDeserializationFailure = 97,
  kSnapshotNotFound = 98,
  kPositionOutOfRange = 99,
  kUnknownTopicId = 100,
  kDuplicateBrokerRegistration = 101,
  kBrokerIdNotRegistered = 102,
  kInconsistentTopicId = 103,
  kInconsistentClusterId = 104,
  kTransactionalIdNotFound = 105,
  kFetchSessionTopicIdError = 106,
  kIneligibleReplica = 107,
  kNewLeaderElected = 108,
  kOffsetMovedToTieredStorage = 109,
  kFencedMemberEpoch = 110,
  kUnreleasedInstanceId = 111,
  kUnsupportedAssignor = 112,
  kStaleMemberEpoch = 113,
  kMismatchedEndpointType = 114,
  kUnsupportedEndpointType = 115,
  kUnknownControllerId = 116,
  kUnknownSubscriptionId = 117,
  kTelemetryTooLarge = 118,
  kInvalidRegistration = 119,
  kTransactionAbortable = 120,
  kInvalidRecordState = 121,
  kShareSessionNotFound = 122,
  kInvalidShareSessionEpoch = 123,
  kFencedStateEpoch = 124,
  kInvalidVoterKey = 125,
  kDuplicateVoter = 126,
  kVoterNotFound = 127,
  kInvalidRegularExpression = 128,
  kRebootstrapRequired = 129,
  kStreamsInvalidTopology = 130,
  kStreamsInvalidTopologyEpoch = 131,
  kStreamsTopologyFenced = 132,
  kShareSessionLimitReached = 133,
  kGroupDeletionFailed = 134,
  kStreamsTopologyDescriptionUpdateFailed = 135,
  kControllerIdNotRegistered = 136,
};

constexpr int16_t Code(Error e) { return static_cast<int16_t>(e); }
constexpr bool operator==(int16_t code, Error e) { return code == Code(e); }

// How a client treats an error, as Kafka's exception hierarchy says.
enum class ErrorClass {
  kNone,       // NONE
  kMetadata,   // an InvalidMetadataException: the leader moved or is not known; learn it again
  kRetriable,  // another RetriableException: the same request may succeed later
  kFatal,      // anything else: retrying the same request does not help
};

// Kafka's name for `code` ("NOT_LEADER_OR_FOLLOWER"), or "UNKNOWN(<code>)" for a code this
// table does not know (a newer broker's).
std::string ErrorName(int16_t code);
// The class of `code`; kFatal for a code the table does not know.
ErrorClass ClassOf(int16_t code);
// kMetadata or kRetriable.
bool IsRetriable(int16_t code);
// kMetadata: the partition's leader must be learned again before the request is sent again.
bool InvalidatesMetadata(int16_t code);

}  // namespace connectd::kafka::protocol
