// File: heartbeat_leg.h
//
// HeartbeatLeg: tails one heartbeats topic (partition 0) on one cluster with its own librdkafka
// consumer (assign(), no group, nothing committed) and keeps what FlowHealth's verdict needs:
// the newest heartbeat, the local time it arrived, recent latencies, heartbeats stamped in the
// future, and the consumer's last error (unreachable cluster, authorization, missing topic).
//
// It starts a few records before the end (the topic is compacted and shared by every flow that
// writes to that cluster); records read before the first end-of-partition are history and count
// as arrived at their own timestamp (no latency sample), later ones as arrived when read.
//
// Threads: not thread-safe; FlowHealth's thread creates it, polls it and reads Facts().
// Poll() never blocks. The consumer's settings are the flow's (secrets never leave it).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "runtime/kafka/rdkafka_handles.h"
#include "runtime/mirror_maker/health/flow_verdict.h"

namespace connectd::health {

struct LegSpec {
  std::string cluster;  // alias, for messages
  std::string topic;
  // Only heartbeats with this (source alias, target alias) key count; nullopt: any.
  std::optional<std::pair<std::string, std::string>> key;
  std::map<std::string, std::string> java_client_props;  // resolved connection settings

  bool operator==(const LegSpec&) const = default;
};

class HeartbeatLeg {
 public:
  // Creates the consumer; on failure the leg reports the error and never arrives.
  HeartbeatLeg(LegSpec spec, int64_t now_ms);
  ~HeartbeatLeg();
  HeartbeatLeg(const HeartbeatLeg&) = delete;
  HeartbeatLeg& operator=(const HeartbeatLeg&) = delete;

  // Reads everything the consumer has, without blocking. `skew_tolerance_ms`: a live heartbeat
  // stamped further than this in the future is remembered as clock-skew evidence.
  void Poll(int64_t now_ms, int64_t skew_tolerance_ms);

  const LegSpec& spec() const { return spec_; }
  // The facts so far (cluster, topic, arrivals, latency history of the last 5 minutes, error).
  const LegFacts& facts() const { return facts_; }
  // Whether the leg reached the end of the partition once: records after that are live (with a
  // latency), the ones before history.
  bool caught_up() const { return caught_up_; }

 private:
  void OnMessage(const rd_kafka_message_t& message, int64_t now_ms, int64_t skew_tolerance_ms);
  static void OnError(rd_kafka_t* rk, int err, const char* reason, void* opaque);

  const LegSpec spec_;
  kafka::RdKafkaPtr consumer_;
  bool caught_up_ = false;
  bool has_pending_error_ = false;  // OnError (inside Poll) -> facts_.error
  bool pending_all_down_ = false;   // OnError saw _ALL_BROKERS_DOWN
  std::string pending_error_;
  LegFacts facts_;
};

}  // namespace connectd::health
