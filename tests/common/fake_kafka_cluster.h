// File: fake_kafka_cluster.h
//
// FakeKafkaCluster: a Kafka cluster in the test process, behind client::BrokerLink (the batch
// copier's only way to brokers), for unit tests of every error path of the data path without a
// broker. It keeps partition logs of v2 batches and answers Metadata, InitProducerId, Fetch and
// Produce as a Kafka 4.x broker does where the copier can tell:
//   - only a partition's leader serves it (else NOT_LEADER_OR_FOLLOWER), and only to a fetcher
//     that names its leader epoch (KIP-320: FENCED_LEADER_EPOCH, UNKNOWN_LEADER_EPOCH); a fetcher
//     whose last fetched epoch the log ends before its offset gets a DivergingEpoch (a log
//     truncated by an unclean election, Truncate()); every batch carries the leader epoch it was
//     written in; offsets outside the log
//     are OFFSET_OUT_OF_RANGE; a Fetch returns whole batches within the partition's and the
//     request's limits, the first batch of the response whole whatever its size (KIP-74), a later
//     partition's oversized batch cut off;
//   - a produced batch is checked as a broker checks it: its CRC (CORRUPT_MESSAGE), its size
//     (the topic's max.message.bytes: MESSAGE_TOO_LARGE) and an idempotent producer's epoch and
//     sequence (INVALID_PRODUCER_EPOCH, OUT_OF_ORDER_SEQUENCE_NUMBER; a retried batch among the
//     producer's last five is answered with its first offset, not written twice); the producer
//     state belongs to the partition, so it survives a leader change as replicated state does;
//   - a request is applied when it arrives and answered later, in order per link, on the
//     cluster's own thread: a "held" broker applies requests but keeps their answers (written,
//     not acknowledged), a broker taken down fails its links' pending answers.
// Faults are injected per partition (the next N fetches or produces answer a code), per broker
// (down, held, refusing connections) or for the cluster (throttling).
//
// Bootstrap servers are "fake-<name>:<1000 + node id>" (bootstrap_servers()).
//
// Thread-safety: every method from any thread; links answer on the cluster's thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "runtime/kafka/client/broker_link.h"

namespace connectd::testing {

class FakeKafkaCluster {
 public:
  explicit FakeKafkaCluster(std::string name, std::vector<int32_t> node_ids = {1, 2, 3});
  ~FakeKafkaCluster();  // answers nothing more; links made by it fail every request after

  std::string bootstrap_servers() const;
  // Links to this cluster's brokers (for BatchCopierOptions::source_links/target_links).
  kafka::client::BrokerLinkFactory Links();

  // ---- topics and data ----
  // Partitions led by `leader` (-1: the first node).
  void CreateTopic(const std::string& topic, int32_t partitions, int32_t leader = -1,
                   int32_t max_message_bytes = 1 << 20);
  void DeleteTopic(const std::string& topic);
  // Writes `batch` (one v2 batch) at the log's end as a broker would: its base offset becomes
  // the end offset. Returns that offset.
  int64_t Append(const std::string& topic, int32_t partition, std::string batch);
  // Removes the log's head up to `offset` (retention): fetches below it are out of range.
  void DeleteRecordsBefore(const std::string& topic, int32_t partition, int64_t offset);
  // An unclean leader election: the log loses its batches from `offset` on (a batch boundary)
  // and the partition a new leader epoch.
  void Truncate(const std::string& topic, int32_t partition, int64_t offset);
  // A new leader and leader epoch; -1: no leader (an election): Metadata says
  // LEADER_NOT_AVAILABLE. The same node again bumps the epoch only.
  void SetLeader(const std::string& topic, int32_t partition, int32_t node);
  // read_committed: the transaction of `producer_id` from `first_offset` was aborted.
  void AddAbortedTransaction(const std::string& topic, int32_t partition, int64_t producer_id,
                             int64_t first_offset);
  // The log as stored: its batches, one after another.
  std::string Log(const std::string& topic, int32_t partition) const;
  int64_t EndOffset(const std::string& topic, int32_t partition) const;

  // ---- faults ----
  void FailFetches(const std::string& topic, int32_t partition, int16_t code, int times = 1);
  void FailProduces(const std::string& topic, int32_t partition, int16_t code, int times = 1);
  void ClearFaults(const std::string& topic, int32_t partition);
  void FailInitProducerId(int16_t code, int times = 1);
  // Down: connecting fails (kUnavailable) and open links fail what is pending and what comes.
  void SetDown(int32_t node, bool down);
  // Held: requests are applied, their answers wait until the broker is released.
  void SetHeld(int32_t node, bool held);
  // Every connection attempt fails with `why` (OK: accepted again).
  void RefuseConnections(absl::Status why);
  void SetProduceThrottleMs(int32_t ms);
  void SetFetchThrottleMs(int32_t ms);

  // ---- what happened ----
  int64_t produce_requests() const;
  int64_t producer_ids_issued() const;
  // Fetches refused for their leader epoch, by code.
  int64_t fetch_errors(int16_t code) const;

  // The cluster's state and thread, shared with the links it made.
  class Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace connectd::testing
