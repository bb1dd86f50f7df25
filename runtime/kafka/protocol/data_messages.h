// File: data_messages.h
//
// The Kafka requests and responses of copying data as record batches (issue 31's pass-through):
// Metadata (3) v12, Fetch (1) v12, Produce (0) v9, InitProducerId (22) v4 — the newest versions
// that still name topics (Fetch v13+ and Produce v13+ name them by ID) and that every Kafka 4.x
// broker accepts (Fetch 4-18, Produce 3-13, Metadata 0-13, InitProducerId 0-6 in 4.4). Field
// layouts follow Kafka's message definitions; bytes are checked against kafka-clients 4.4.0's
// generated classes (tests/golden/protocol/data_messages.tsv). All four are flexible (KIP-482):
// their tagged fields are written empty and skipped when read, but for a fetched partition's
// DivergingEpoch and CurrentLeader (KIP-320, KIP-595: a truncated log and a new leader).
//
// Record data stays bytes: a Fetch response's records are views into the response body (valid
// while it lives), a Produce request views the batches it is given (record_batch.h) and is
// written around them (EncodeGathered), not copying them.
//
// Thread-safety: values and pure functions; any thread.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/kafka/protocol/gathered_body.h"

namespace connectd::kafka::protocol {

inline constexpr int16_t kMetadataVersion = 12;
inline constexpr int16_t kFetchVersion = 12;
inline constexpr int16_t kProduceVersion = 9;
inline constexpr int16_t kInitProducerIdVersion = 4;

// ---- Metadata (3) v12 ----------------------------------------------------------------------
struct MetadataRequest {
  std::vector<std::string> topics;  // by name; never auto-created
  std::string Encode() const;
};
struct MetadataResponse {
  struct Broker {
    int32_t node_id = 0;
    std::string host;
    int32_t port = 0;
    std::optional<std::string> rack;
  };
  struct Partition {
    int16_t error_code = 0;
    int32_t partition = 0;
    int32_t leader_id = -1;
    int32_t leader_epoch = -1;
    std::vector<int32_t> replicas;
    std::vector<int32_t> isr;
  };
  struct Topic {
    int16_t error_code = 0;
    std::string name;
    std::string topic_id;  // 16 bytes
    bool is_internal = false;
    std::vector<Partition> partitions;
  };
  int32_t throttle_time_ms = 0;
  std::vector<Broker> brokers;
  std::optional<std::string> cluster_id;
  int32_t controller_id = -1;
  std::vector<Topic> topics;
  static absl::StatusOr<MetadataResponse> Decode(std::string_view body);
};

// ---- Fetch (1) v12, without a fetch session -----------------------------------------------
struct FetchRequest {
  struct Partition {
    int32_t partition = 0;
    int32_t current_leader_epoch = -1;  // the leader epoch Metadata gave (KIP-320 fencing)
    int64_t fetch_offset = 0;
    int32_t partition_max_bytes = 1048576;
    // The leader epoch of the last batch fetched (-1: none): the leader answers with a
    // DivergingEpoch when its log has no such epoch up to fetch_offset (truncated).
    int32_t last_fetched_epoch = -1;
  };
  struct Topic {
    std::string name;
    std::vector<Partition> partitions;
  };
  int32_t max_wait_ms = 500;
  int32_t min_bytes = 1;
  int32_t max_bytes = 52428800;
  int8_t isolation_level = 1;  // read_committed: aborted data is listed, markers bound it
  std::vector<Topic> topics;
  std::string Encode() const;
};
struct FetchResponse {
  struct AbortedTransaction {
    int64_t producer_id = 0;
    int64_t first_offset = 0;
    bool operator==(const AbortedTransaction&) const = default;
  };
  // The leader's log ends epoch `epoch` at `end_offset`: what was fetched from there on under
  // a later-lost epoch is not in it any more.
  struct EpochEndOffset {
    int32_t epoch = -1;
    int64_t end_offset = -1;
  };
  struct LeaderIdAndEpoch {
    int32_t leader_id = -1;
    int32_t leader_epoch = -1;
  };
  struct Partition {
    int32_t partition = 0;
    int16_t error_code = 0;
    int64_t high_watermark = -1;
    int64_t last_stable_offset = -1;
    int64_t log_start_offset = -1;
    std::optional<std::vector<AbortedTransaction>> aborted_transactions;
    int32_t preferred_read_replica = -1;
    std::optional<std::string_view> records;  // a view into the decoded body
    std::optional<EpochEndOffset> diverging_epoch;
    std::optional<LeaderIdAndEpoch> current_leader;
  };
  struct Topic {
    std::string name;
    std::vector<Partition> partitions;
  };
  int32_t throttle_time_ms = 0;
  int16_t error_code = 0;
  int32_t session_id = 0;
  std::vector<Topic> topics;
  // `body` must outlive the response (records point into it).
  static absl::StatusOr<FetchResponse> Decode(std::string_view body);
};

// ---- Produce (0) v9 ------------------------------------------------------------------------
struct ProduceRequest {
  struct Partition {
    int32_t partition = 0;
    std::string_view records;  // whole v2 batches, stamped for this producer
    // Keeps `records` valid in an EncodeGathered() body (null: the caller keeps them valid).
    std::shared_ptr<const void> records_owner;
  };
  struct Topic {
    std::string name;
    std::vector<Partition> partitions;
  };
  std::optional<std::string> transactional_id;
  int16_t acks = -1;
  int32_t timeout_ms = 30000;
  std::vector<Topic> topics;
  std::string Encode() const;
  // The same bytes with the records as views (not copied), for BrokerConnection::SendGathered.
  GatheredBody EncodeGathered() const;
};
struct ProduceResponse {
  struct RecordError {
    int32_t batch_index = 0;
    std::optional<std::string> message;
  };
  struct Partition {
    int32_t partition = 0;
    int16_t error_code = 0;
    int64_t base_offset = -1;
    int64_t log_append_time_ms = -1;
    int64_t log_start_offset = -1;
    std::vector<RecordError> record_errors;
    std::optional<std::string> error_message;
  };
  struct Topic {
    std::string name;
    std::vector<Partition> partitions;
  };
  std::vector<Topic> topics;
  int32_t throttle_time_ms = 0;
  static absl::StatusOr<ProduceResponse> Decode(std::string_view body);
};

// ---- InitProducerId (22) v4: an idempotent producer's id and epoch --------------------------
struct InitProducerIdRequest {
  std::optional<std::string> transactional_id;
  int32_t transaction_timeout_ms = 60000;
  int64_t producer_id = -1;  // an existing id and epoch to bump, or -1/-1
  int16_t producer_epoch = -1;
  std::string Encode() const;
};
struct InitProducerIdResponse {
  int32_t throttle_time_ms = 0;
  int16_t error_code = 0;
  int64_t producer_id = -1;
  int16_t producer_epoch = -1;
  static absl::StatusOr<InitProducerIdResponse> Decode(std::string_view body);
};

}  // namespace connectd::kafka::protocol
