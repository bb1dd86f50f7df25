// File: flow_verdict.h
//
// The diagnosis of one MirrorMaker 2 flow A->B as a pure function: the facts FlowHealth observed
// (heartbeat arrivals on the flow's two legs, the states of its connectors and tasks, whether
// their metrics can be read, assignment changes) go in, a verdict with its evidence and the next
// thing to check comes out. No clock, no I/O: `now_ms` is an argument, so every verdict and the
// precedence between them are unit-tested
// (tests/unit/runtime/mirror_maker/health/flow_verdict_test.cc).
//
// Legs (runtime/mirror_maker/health/README.md has the picture):
//   emit leg         where the flow's MirrorHeartbeatConnector writes: `heartbeats` on A, key
//                    (A,B) (heartbeats.topic.location=source, connectd's default), or `heartbeats`
//                    on B (location=target, Java's placement);
//   replication leg  `A.heartbeats` on B (the policy's remote name), written by MirrorSource.
// A leg is STALE when none has arrived on it yet (a new flow is not HEALTHY without evidence),
// when no new heartbeat arrived on it within the stale threshold (a binary stall), or within 3
// heartbeat intervals when its writer is known to be down (the heartbeat connector,
// or for the replication leg MirrorSource, has a unit that is not RUNNING);
// LAG is heartbeats still arriving, but later than the lag threshold after they were emitted.
//
// Precedence, first match wins (a cause outranks the symptom it produces; the symptom stays in
// the evidence):
//   1 TASK FAILED                a connector or task of the flow is FAILED (its trace is evidence)
//   2 CLUSTER UNREACHABLE        a leg's consumer cannot reach its cluster (transport errors, all
//                                brokers down) and nothing arrived on it for min(3 intervals,
//                                the lag threshold): the cause of the stalls, overdue
//                                heartbeats and silent tasks that follow (workers whose internal
//                                topics live there revoke their tasks on purpose), so it is
//                                named before any of them
//   3 STALLED — PARTITIONS       a MirrorSource task's consumer reported an error for some of the
//                                flow's partitions (authorization, unknown topic, ...) and no
//                                record of them has been read since, even while heartbeats are
//                                fresh: heartbeats travel their own topic, so they prove the
//                                path, not every partition; or the MirrorSourceConnector cannot
//                                create (or grow) a remote topic on the target, so its records
//                                wait
//   4 UNMONITORED                no heartbeat proves the flow: it has no MirrorHeartbeatConnector,
//                                emits none (emit.heartbeats.enabled=false), or its heartbeat
//                                connector is PAUSED/STOPPED (a paused or stopped MirrorSource is
//                                still STALLED — REPLICATION LEG: that stall is known)
//   5 REBALANCING (storm)        >= threshold rebalances of the flow's units in the window (a unit
//                                moving, or going UNASSIGNED/RESTARTING/without status; changes
//                                within 5 s are one), the last within StormQuietMs: the
//                                stalls and silent tasks of a storm are its symptoms
//   6 METRICS ABSENT             a RUNNING unit reports nothing: its worker cannot be reached, or
//                                a RUNNING MirrorSource task publishes no replication metrics
//   7 STARTING                   heartbeats are expected but none has crossed yet (the replication
//                                leg, or under location=target the emit leg, never had one),
//                                within the stale threshold after they became expected
//   8 STALLED — EMIT LEG         the emit leg is stale
//     STALLED — REPLICATION LEG  the emit leg is fresh, the replication leg stale
//   9 REBALANCING                a unit is UNASSIGNED/RESTARTING
//  10 SUSPECT CLOCK SKEW         a heartbeat stamped in the future beyond the tolerance, or a
//                                negative latency beyond it, within the stale threshold
//  11 LAGGING                    the replication leg's heartbeat latency above the lag threshold,
//                                or heartbeats overdue on B by more than it (a stall is LAGGING
//                                until the stale threshold)
//  12 HEALTHY                    every leg has delivered a heartbeat and none of the above holds,
//                                for RecoveryHoldMs after the last problem verdict (until then
//                                that verdict is kept, `recovering`)
//
// Threads: pure functions and values; any thread.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace connectd::health {

enum class Verdict {
  kHealthy,
  kLagging,
  kStalledEmitLeg,
  kStalledReplicationLeg,
  kTaskFailed,
  kMetricsAbsent,
  kSuspectClockSkew,
  kRebalancing,
  kStarting,
  kUnmonitored,
  kStalledPartitions,
  kClusterUnreachable,
};

// "HEALTHY", "LAGGING", "STALLED — EMIT LEG", ... (the names the issue and the docs use).
std::string_view VerdictName(Verdict verdict);
// "healthy", "lagging", "stalled_emit_leg", ...: the Prometheus label value.
std::string_view VerdictLabel(Verdict verdict);
// Every verdict, in enum order.
const std::vector<Verdict>& AllVerdicts();

// Per flow, from the flow's connector configs (`health.*`, defaults derived from
// emit.heartbeats.interval.seconds).
struct Thresholds {
  int64_t heartbeat_interval_ms = 1000;
  int64_t stale_ms = 10000;
  int64_t lag_ms = 5000;
  int64_t clock_skew_tolerance_ms = 5000;
  int64_t rebalance_window_ms = 300000;
  int rebalance_threshold = 3;
};

// Reads the thresholds from a flow's merged connector config; bad or absent values take the
// defaults: stale max(10000, 10 intervals), lag max(5000, 5 intervals).
Thresholds ThresholdsFromConfig(const std::map<std::string, std::string>& config);

struct ClientError {
  std::string message;  // librdkafka's text: never carries a secret
  int64_t at_ms = 0;
};

// What one leg's consumer saw. Arrival times are this worker's clock when the heartbeat was first
// read; a heartbeat read while catching up at start counts as arrived at its own timestamp.
struct LegFacts {
  std::string cluster;  // alias
  std::string topic;
  // Heartbeats are expected on this leg (false: the flow emits none, or under
  // heartbeats.topic.location=target nothing has fed `A.heartbeats` yet).
  bool expected = true;
  int64_t watching_since_ms = 0;  // 0: no consumer (it could not be created)
  std::optional<int64_t> last_arrival_ms;
  std::optional<int64_t> newest_timestamp_ms;  // the heartbeat timestamp of that arrival
  std::optional<int64_t> latency_ms;           // arrival - timestamp of the newest live heartbeat
  // (arrival ms, latency ms) of recent live heartbeats, oldest first.
  std::vector<std::pair<int64_t, int64_t>> latency_history;
  std::optional<int64_t> skew_seen_ms;  // last arrival of a heartbeat stamped in the future
  int64_t skew_ms = 0;                  // how far in the future (timestamp - arrival)
  std::optional<ClientError> error;     // the consumer's last error, while unresolved
  // Every broker of the cluster is down for the consumer (librdkafka's _ALL_BROKERS_DOWN since
  // the last heartbeat read): the cluster, not one broker, is unreachable.
  bool all_brokers_down = false;
};

enum class MetricsState { kNotExpected, kPresent, kAbsent, kOwnerUnreachable };

// A connector instance (task == -1) or a task of one of the flow's connectors.
struct UnitFacts {
  std::string role;  // "source", "checkpoint", "heartbeat"
  std::string connector;
  int task = -1;
  std::string state;  // RUNNING, PAUSED, FAILED, UNASSIGNED, RESTARTING, STOPPED, "" (no status)
  std::string worker_id;
  std::optional<std::string> trace;
  MetricsState metrics = MetricsState::kNotExpected;
  std::string metrics_detail;  // why absent / the owner's error
};

// One mirrored partition as its MirrorSource task reports it (connectd's per-partition metrics).
struct PartitionFacts {
  std::string source_topic;
  std::string topic;  // the remote topic on the target
  int partition = 0;
  std::optional<int64_t> end_offset;  // the source partition's end as of the last fetch
  std::optional<int64_t> position;    // the next offset the task copies
  // The age of the oldest record read and not yet acknowledged by the target (0: caught up;
  // nullopt: unknown, records wait unread).
  std::optional<int64_t> oldest_unreplicated_age_ms;
  // The consumer's error for the partition until records flow again (empty: none).
  std::string error;
  bool authorization_error = false;
  int64_t error_count = 0;
  std::optional<int64_t> error_first_ms;
  std::optional<int64_t> error_last_ms;
  // Pass-through: the target's answer to the partition's batches until one is acknowledged
  // (not leader, not enough replicas, unreachable; empty: none). Its records wait on B's side.
  std::string target_error;
  int64_t target_error_count = 0;
  std::optional<int64_t> target_error_first_ms;
  std::optional<int64_t> target_error_last_ms;
  // Since when the position has not moved while records are behind it (nullopt: it moves, or
  // nothing is behind). A partition that copies nothing for long is stalled whatever its path
  // says (issue 49: a hand-over between pass-through and the record path that stopped).
  std::optional<int64_t> position_still_since_ms;
  // end_offset - position when both are known.
  std::optional<int64_t> RecordsBehind() const;
};

// A remote topic the MirrorSourceConnector could not create or grow on the target (its
// target admin client's error, until the operation succeeds): its records wait.
struct RemoteTopicFacts {
  std::string topic;         // the remote topic
  std::string source_topic;  // "" when unknown
  std::string operation;     // create-topics, create-partitions
  std::string error;
  bool authorization_error = false;
  int64_t error_count = 0;
  int64_t error_first_ms = 0;
  int64_t error_last_ms = 0;
};

struct FlowFacts {
  std::string source;
  std::string target;
  Thresholds thresholds;
  std::map<std::string, std::string> connectors;  // role -> connector name (first of the role)
  bool heartbeats_on_source = true;               // heartbeats.topic.location
  bool heartbeats_enabled = true;  // a heartbeat connector exists with emit.heartbeats.enabled
  // When this worker first saw heartbeats_enabled (0: unknown, never STARTING): a flow is
  // STARTING until its first heartbeat crossed, for at most the stale threshold after this.
  int64_t heartbeats_expected_since_ms = 0;
  std::vector<UnitFacts> units;
  LegFacts emit;
  LegFacts replication;
  // From the MirrorSource tasks' metrics over the flow's partitions (windowed maxima).
  std::optional<double> metric_latency_ms;     // replication-latency-ms-max
  std::optional<double> metric_record_age_ms;  // record-age-ms-max
  double skipped_offsets = 0;                  // skipped-offset-count, summed
  double topic_recreations = 0;                // source-topic-recreated-count, summed
  double truncated_offsets = 0;                // source-truncated-offset-count, summed
  // The longest a broker throttled a MirrorSource task's producer lately (produce-throttle-time-
  // max) and that producer's client id; unset when none was throttled.
  std::optional<double> producer_throttle_ms;
  std::string throttled_producer;
  // The same for the source brokers throttling a MirrorSource task's consumer (fetch-throttle-
  // time-max) and that consumer's client id.
  std::optional<double> consumer_throttle_ms;
  std::string throttled_consumer;
  std::vector<int64_t> assignment_changes_ms;  // when the flow's units moved between workers
  // When the workers' group rebalanced (member churn, whether or not a unit moved), oldest
  // first: a storm of unit moves lasts while the group keeps rebalancing, each rebalance within
  // StormQuietMs of the one before.
  std::vector<int64_t> group_rebalances_ms;
  std::vector<PartitionFacts> partitions;       // every mirrored partition that reports
  std::vector<RemoteTopicFacts> remote_topics;  // with an admin error now
  // The last problem verdict (IsProblem) an evaluation without hold gave, and when: HEALTHY is
  // reported only once it has held for RecoveryHoldMs after it.
  std::optional<Verdict> recent_problem;
  int64_t recent_problem_ms = 0;
};

struct LegReport {
  std::string cluster;
  std::string topic;
  bool expected = true;
  std::optional<int64_t> age_ms;  // now - last arrival
  std::optional<int64_t> newest_timestamp_ms;
  std::optional<int64_t> latency_ms;
  bool stale = false;
  std::optional<std::string> error;
};

struct FlowReport {
  std::string source;
  std::string target;
  Verdict verdict = Verdict::kHealthy;
  std::string summary;                // one line
  std::vector<std::string> evidence;  // ages, states, errors
  std::string next_step;              // a human sentence
  Thresholds thresholds;
  bool heartbeats_on_source = true;
  LegReport emit;
  LegReport replication;
  // Replication leg: the newest live heartbeat's latency, or, while A's heartbeats are fresh,
  // how long the next one is overdue on B if that is more (latency_overdue).
  std::optional<int64_t> latency_ms;
  bool latency_overdue = false;
  std::optional<double> latency_trend_ms_per_min;  // slope over the last minute
  std::string latency_trend;                       // rising, falling, steady, unknown
  std::optional<double> metric_latency_ms;
  std::optional<double> metric_record_age_ms;
  double skipped_offsets = 0;    // offsets lost to retention on the source, since the tasks started
  double topic_recreations = 0;  // partitions found re-created (copied from their new beginning)
  // Offsets copied to the target that the source lost afterwards (an unclean leader election
  // truncated its log): the target holds records the source does not.
  double truncated_offsets = 0;
  std::optional<double> producer_throttle_ms;  // FlowFacts::producer_throttle_ms
  std::optional<double> consumer_throttle_ms;  // FlowFacts::consumer_throttle_ms
  int rebalances_in_window = 0;
  std::map<std::string, std::string> connectors;
  std::vector<UnitFacts> units;
  // Per partition: how many report, how many have an error, the records behind summed over
  // those that know it, and the worst (errors first, then most behind) at most kWorstPartitions.
  int partition_count = 0;
  int partitions_with_errors = 0;
  int64_t records_behind = 0;
  std::optional<int64_t> oldest_unreplicated_age_ms;  // the largest known
  std::vector<PartitionFacts> worst_partitions;
  std::vector<RemoteTopicFacts> remote_topics;  // FlowFacts::remote_topics
  // The verdict is recent_problem's, held while the flow recovers (every check passes).
  bool recovering = false;
};

inline constexpr size_t kWorstPartitions = 20;

// The verdict of one flow at `now_ms` (see the precedence above).
FlowReport Evaluate(const FlowFacts& facts, int64_t now_ms);

// A storm is over once no rebalance happened for this long: max(30 s, the stale threshold).
int64_t StormQuietMs(const Thresholds& thresholds);
// How long HEALTHY must hold after a problem before it is reported: max(5 s, 3 intervals).
int64_t RecoveryHoldMs(const Thresholds& thresholds);
// A verdict that asks for attention (not HEALTHY, STARTING or UNMONITORED), so recovering
// from it is held.
bool IsProblem(Verdict verdict);

// Least-squares slope of latency over arrival time, in ms per minute, of the history entries
// within `window_ms` before `now_ms`; nullopt with fewer than 3 entries.
std::optional<double> LatencySlopePerMinute(const std::vector<std::pair<int64_t, int64_t>>& history,
                                            int64_t now_ms, int64_t window_ms);

}  // namespace connectd::health
