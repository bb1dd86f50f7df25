// The flow-health verdict (runtime/mirror_maker/health/flow_verdict.h) as a pure function of
// observed facts: every verdict, the precedence between them, thresholds, trend, and the JSON
// documents.
#include "runtime/mirror_maker/health/flow_verdict.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <tuple>

#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/mirror_maker/health/flow_report_json.h"
#include "runtime/mirror_maker/health/mirror_task_metrics.h"

namespace connectd::health {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr int64_t kNow = 1'700'000'000'000;

UnitFacts Unit(std::string role, std::string connector, int task, std::string state,
               std::string worker = "w1:8083") {
  return UnitFacts{
      std::move(role), std::move(connector),       task, std::move(state), std::move(worker),
      std::nullopt,    MetricsState::kNotExpected, ""};
}

LegFacts FreshLeg(std::string cluster, std::string topic, int64_t latency_ms) {
  LegFacts leg;
  leg.cluster = std::move(cluster);
  leg.topic = std::move(topic);
  leg.watching_since_ms = kNow - 60'000;
  leg.last_arrival_ms = kNow - 400;
  leg.newest_timestamp_ms = kNow - 400 - latency_ms;
  leg.latency_ms = latency_ms;
  return leg;
}

// A healthy flow A->B: three connectors, their tasks RUNNING, both legs fresh.
FlowFacts Healthy() {
  FlowFacts f;
  f.source = "A";
  f.target = "B";
  f.connectors = {{"source", "mm2-source"}, {"checkpoint", "mm2-cp"}, {"heartbeat", "mm2-hb"}};
  f.units = {Unit("source", "mm2-source", -1, "RUNNING"),
             Unit("source", "mm2-source", 0, "RUNNING"),
             Unit("source", "mm2-source", 1, "RUNNING", "w2:8083"),
             Unit("checkpoint", "mm2-cp", -1, "RUNNING"),
             Unit("checkpoint", "mm2-cp", 0, "RUNNING"),
             Unit("heartbeat", "mm2-hb", -1, "RUNNING"),
             Unit("heartbeat", "mm2-hb", 0, "RUNNING", "w2:8083")};
  f.units[1].metrics = MetricsState::kPresent;
  f.units[2].metrics = MetricsState::kPresent;
  f.emit = FreshLeg("A", "heartbeats", 5);
  f.replication = FreshLeg("B", "A.heartbeats", 300);
  return f;
}

UnitFacts& Find(FlowFacts& f, const std::string& connector, int task) {
  for (UnitFacts& u : f.units) {
    if (u.connector == connector && u.task == task) return u;
  }
  throw std::runtime_error("no unit");
}

TEST(FlowVerdictTest, HealthyWhenBothLegsAreFresh) {
  FlowReport r = Evaluate(Healthy(), kNow);
  EXPECT_EQ(r.verdict, Verdict::kHealthy);
  EXPECT_EQ(r.emit.age_ms, 400);
  EXPECT_EQ(r.replication.age_ms, 400);
  EXPECT_EQ(r.latency_ms, 300);
  EXPECT_FALSE(r.emit.stale);
  EXPECT_EQ(r.next_step, "Nothing to do");
}

// Records lost to retention on the source, records the source lost after they were copied and
// re-created topics are told, never silent.
TEST(FlowVerdictTest, RetentionGapsTruncationsAndRecreatedTopicsAreEvidence) {
  FlowFacts f = Healthy();
  f.skipped_offsets = 30;
  f.topic_recreations = 2;
  f.truncated_offsets = 10;
  FlowReport r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kHealthy);
  EXPECT_EQ(r.skipped_offsets, 30);
  EXPECT_EQ(r.topic_recreations, 2);
  EXPECT_EQ(r.truncated_offsets, 10);
  auto has = [&](const std::string& text) {
    return std::any_of(r.evidence.begin(), r.evidence.end(),
                       [&](const std::string& e) { return e.find(text) != std::string::npos; });
  };
  EXPECT_TRUE(has("30 offset(s) were deleted on A (retention) before they were replicated"));
  EXPECT_TRUE(
      has("2 partition(s) of re-created source topics copied from the new topic's "
          "beginning"));
  EXPECT_TRUE(has("10 offset(s) copied to B are not on A any more: an unclean leader election"));
  EXPECT_NE(r.next_step.find("records were lost to retention on A"), std::string::npos)
      << r.next_step;
  // A re-created topic alone loses nothing: nothing to do.
  f.skipped_offsets = 0;
  EXPECT_EQ(Evaluate(f, kNow).next_step, "Nothing to do");
}

TEST(FlowVerdictTest, LaggingWhenHeartbeatsArriveLateWithTheTrend) {
  FlowFacts f = Healthy();
  f.replication.latency_ms = 9000;
  for (int i = 0; i < 30; ++i) {
    f.replication.latency_history.emplace_back(kNow - 30'000 + i * 1000, 1000 + i * 300);
  }
  FlowReport r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kLagging);
  EXPECT_EQ(r.latency_trend, "rising");
  ASSERT_TRUE(r.latency_trend_ms_per_min);
  EXPECT_NEAR(*r.latency_trend_ms_per_min, 18000, 1);  // 300 ms per second
  EXPECT_THAT(r.summary, HasSubstr("rising"));
}

// A target that throttles the tasks' producer is named as the cause of the lag, with the quota.
TEST(FlowVerdictTest, LaggingNamesTheTargetsProducerQuota) {
  FlowFacts f = Healthy();
  f.replication.latency_ms = 9000;
  f.producer_throttle_ms = 850;
  f.throttled_producer = "connector-producer-mm2-source-0";
  FlowReport r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kLagging);
  EXPECT_THAT(r.summary, HasSubstr("B throttles the replication"));
  EXPECT_THAT(r.next_step,
              HasSubstr("producer_byte_rate for client id connector-producer-mm2-source-0 on B"));
  EXPECT_THAT(absl::StrJoin(r.evidence, "; "),
              HasSubstr("B throttles MirrorSource's producer connector-producer-mm2-source-0: "
                        "produce-throttle-time-max 850 ms"));
  // Throttled but keeping up: HEALTHY, the throttling still in the evidence.
  f.replication.latency_ms = 300;
  r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kHealthy);
  EXPECT_THAT(absl::StrJoin(r.evidence, "; "), HasSubstr("produce-throttle-time-max 850 ms"));
}

// A source that throttles the tasks' consumer (its consumer_byte_rate quota) likewise.
TEST(FlowVerdictTest, LaggingNamesTheSourcesConsumerQuota) {
  FlowFacts f = Healthy();
  f.replication.latency_ms = 9000;
  f.consumer_throttle_ms = 640;
  f.throttled_consumer = "A->B|mm2-source-0|replication-consumer";
  FlowReport r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kLagging);
  EXPECT_THAT(r.summary, HasSubstr("A throttles the replication"));
  EXPECT_THAT(r.next_step, HasSubstr("consumer_byte_rate for client id "
                                     "A->B|mm2-source-0|replication-consumer on A"));
  EXPECT_THAT(absl::StrJoin(r.evidence, "; "),
              HasSubstr("A throttles MirrorSource's consumer A->B|mm2-source-0|replication-"
                        "consumer: fetch-throttle-time-max 640 ms"));
  // Both ends throttle: both named.
  f.producer_throttle_ms = 850;
  f.throttled_producer = "connector-producer-mm2-source-0";
  r = Evaluate(f, kNow);
  EXPECT_THAT(r.summary, HasSubstr("B and A throttle the replication"));
  EXPECT_THAT(r.next_step, HasSubstr("producer_byte_rate"));
  EXPECT_THAT(r.next_step, HasSubstr("consumer_byte_rate"));
}

TEST(FlowVerdictTest, OverdueHeartbeatsAreLagUntilTheStaleThreshold) {
  // Throttled: A's heartbeats are fresh, the newest on B was emitted 4.5 s ago (arrived 1 s ago
  // with 300 ms latency), so the next one is 3.5 s overdue.
  FlowFacts f = Healthy();
  f.replication.last_arrival_ms = kNow - 1000;
  f.replication.newest_timestamp_ms = kNow - 4500;
  FlowReport r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kHealthy);  // 3.5 s < the 5 s lag threshold
  EXPECT_EQ(r.latency_ms, 3500);
  EXPECT_TRUE(r.latency_overdue);
  f.replication.newest_timestamp_ms = kNow - 6500;
  r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kLagging);
  EXPECT_THAT(r.summary, HasSubstr("overdue by 5.5 s"));
  // Past the stale threshold it is a stall.
  f.replication.last_arrival_ms = kNow - 10'500;
  EXPECT_EQ(Evaluate(f, kNow).verdict, Verdict::kStalledReplicationLeg);
  // Nothing is overdue when A has nothing newer (the source is down: both legs stop at the same
  // heartbeat), when A emits nothing either, or under location=target.
  f = Healthy();
  f.replication.newest_timestamp_ms = kNow - 6500;
  f.emit.newest_timestamp_ms = kNow - 6500;
  EXPECT_FALSE(Evaluate(f, kNow).latency_overdue);
  f = Healthy();
  f.replication.newest_timestamp_ms = kNow - 6500;
  f.emit.last_arrival_ms = kNow - 10'500;
  EXPECT_FALSE(Evaluate(f, kNow).latency_overdue);
  f.emit.last_arrival_ms = kNow;
  f.heartbeats_on_source = false;
  EXPECT_EQ(Evaluate(f, kNow).verdict, Verdict::kHealthy);
}

TEST(FlowVerdictTest, LatencyAtTheThresholdIsNotLag) {
  FlowFacts f = Healthy();
  f.replication.latency_ms = f.thresholds.lag_ms;
  EXPECT_EQ(Evaluate(f, kNow).verdict, Verdict::kHealthy);
}

TEST(FlowVerdictTest, UnmonitoredWhenTheHeartbeatConnectorIsPaused) {
  FlowFacts f = Healthy();
  Find(f, "mm2-hb", -1).state = "PAUSED";
  Find(f, "mm2-hb", 0).state = "PAUSED";
  f.emit.last_arrival_ms = kNow - 20'000;
  f.replication.last_arrival_ms = kNow - 19'800;
  FlowReport r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kUnmonitored);
  EXPECT_THAT(r.summary, HasSubstr("not monitored"));
  EXPECT_THAT(r.next_step, HasSubstr("/connectors/mm2-hb/resume"));
  EXPECT_THAT(testing::PrintToString(r.evidence), HasSubstr("connector mm2-hb is PAUSED"));
  // Even fresh heartbeats from before the pause do not make it HEALTHY.
  f.emit.last_arrival_ms = kNow - 100;
  f.replication.last_arrival_ms = kNow - 100;
  EXPECT_EQ(Evaluate(f, kNow).verdict, Verdict::kUnmonitored);
  // A paused MirrorSource is a stall known without heartbeats.
  Find(f, "mm2-source", -1).state = "PAUSED";
  r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kStalledReplicationLeg);
  EXPECT_THAT(r.next_step, HasSubstr("/connectors/mm2-source/resume"));
}

TEST(FlowVerdictTest, AKnownDownWriterStallsAfterThreeIntervals) {
  FlowFacts f = Healthy();
  Find(f, "mm2-hb", 0).state = "UNASSIGNED";
  f.emit.last_arrival_ms = kNow - 2500;
  f.replication.last_arrival_ms = kNow - 2400;
  EXPECT_EQ(Evaluate(f, kNow).verdict, Verdict::kRebalancing);  // within 3 intervals
  f.emit.last_arrival_ms = kNow - 3100;
  f.replication.last_arrival_ms = kNow - 3000;
  FlowReport r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kStalledEmitLeg);
  EXPECT_TRUE(r.emit.stale);
  // Everything RUNNING: the same silence is not yet a stall (the threshold is 10 s).
  Find(f, "mm2-hb", 0).state = "RUNNING";
  EXPECT_EQ(Evaluate(f, kNow).verdict, Verdict::kHealthy);
  // MirrorSource down: the replication leg stalls after 3 intervals too.
  Find(f, "mm2-source", 0).state = "PAUSED";
  f.emit.last_arrival_ms = kNow - 100;
  f.replication.last_arrival_ms = kNow - 3100;
  EXPECT_EQ(Evaluate(f, kNow).verdict, Verdict::kStalledReplicationLeg);
}

TEST(FlowVerdictTest, AnUnreachableSourceIsNamedWhenTasksRun) {
  FlowFacts f = Healthy();
  f.emit.last_arrival_ms = kNow - 30'000;
  f.emit.error = ClientError{"_TRANSPORT: 127.0.0.1:9092: Connection refused", kNow - 1000};
  f.emit.all_brokers_down = true;
  f.replication.last_arrival_ms = kNow - 30'000;
  FlowReport r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kClusterUnreachable);
  EXPECT_THAT(r.summary, HasSubstr("cluster A cannot be reached"));
  EXPECT_EQ(r.emit.error, "_TRANSPORT: 127.0.0.1:9092: Connection refused");
  // Any other error of the emit leg's cluster is a stall of that leg.
  f.emit.error = ClientError{"UNKNOWN_TOPIC_OR_PART: Broker: Unknown topic", kNow - 1000};
  r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kStalledEmitLeg);
  EXPECT_THAT(r.next_step, HasSubstr("Cluster A"));
}

// One broker of three down (issue 49): its partitions wait for new leaders while the rest of
// the cluster answers. The doctor names a broker, never the whole cluster.
TEST(FlowVerdictTest, OneBrokerDownIsNotTheWholeCluster) {
  FlowFacts f = Healthy();
  f.replication.last_arrival_ms = kNow - 15'000;
  f.replication.error = ClientError{
      "_TRANSPORT: 127.0.0.1:9094/3: Connect to ipv4#127.0.0.1:9094 failed: Connection refused",
      kNow - 500};
  FlowReport r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kStalledReplicationLeg);
  EXPECT_THAT(r.summary, Not(HasSubstr("cannot be reached")));
  EXPECT_THAT(r.next_step, HasSubstr("A broker of B does not answer"));
  EXPECT_THAT(r.next_step, HasSubstr("elect new leaders"));
  // Every broker down: the cluster.
  f.replication.all_brokers_down = true;
  EXPECT_EQ(Evaluate(f, kNow).verdict, Verdict::kClusterUnreachable);
}

TEST(FlowVerdictTest, UnmonitoredWithoutAHeartbeatConnector) {
  // The heartbeat connector deleted: the liveness probe is gone, and the verdict says so.
  FlowFacts f = Healthy();
  f.connectors.erase("heartbeat");
  std::erase_if(f.units, [](const UnitFacts& u) { return u.role == "heartbeat"; });
  f.heartbeats_enabled = false;
  f.emit.expected = false;
  f.replication.expected = false;
  FlowReport r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kUnmonitored);
  EXPECT_THAT(r.summary, HasSubstr("no MirrorHeartbeatConnector"));
  EXPECT_THAT(r.next_step, HasSubstr("Create a MirrorHeartbeatConnector with "
                                     "source.cluster.alias=A and target.cluster.alias=B"));
  // A failed task still outranks it.
  Find(f, "mm2-source", 0).state = "FAILED";
  EXPECT_EQ(Evaluate(f, kNow).verdict, Verdict::kTaskFailed);
}

TEST(FlowVerdictTest, StartingUntilTheFirstHeartbeatCrossedThenStalled) {
  FlowFacts f = Healthy();
  f.heartbeats_expected_since_ms = kNow - 500;
  f.emit.last_arrival_ms.reset();
  f.replication.last_arrival_ms.reset();
  f.replication.latency_ms.reset();
  f.emit.watching_since_ms = kNow - 500;
  f.replication.watching_since_ms = kNow - 500;
  FlowReport r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kStarting);
  EXPECT_THAT(r.summary, HasSubstr("no heartbeat has crossed to B yet"));
  EXPECT_THAT(absl::StrJoin(r.evidence, "\n"), HasSubstr("no heartbeat seen yet"));
  // Emitted on A but not yet on B: still starting, until the stale threshold.
  f.emit.last_arrival_ms = kNow - 200;
  f.emit.newest_timestamp_ms = kNow - 200;
  EXPECT_EQ(Evaluate(f, kNow).verdict, Verdict::kStarting);
  EXPECT_EQ(Evaluate(f, kNow - 500 + 10'000).verdict, Verdict::kStarting);
  r = Evaluate(f, kNow - 500 + 10'001);
  EXPECT_EQ(r.verdict, Verdict::kStalledReplicationLeg);
  // Nothing emitted either: the emit leg is named once the flow is no longer young.
  f.emit.last_arrival_ms.reset();
  EXPECT_EQ(Evaluate(f, kNow + 20'000).verdict, Verdict::kStalledEmitLeg);
  // The first heartbeat on B ends it.
  f.emit.last_arrival_ms = kNow - 200;
  f.replication.last_arrival_ms = kNow - 100;
  f.replication.newest_timestamp_ms = kNow - 150;
  f.replication.latency_ms = 50;
  EXPECT_EQ(Evaluate(f, kNow).verdict, Verdict::kHealthy);
}

TEST(FlowVerdictTest, StalledReplicationLegWhenMirrorSourceIsPaused) {
  FlowFacts f = Healthy();
  Find(f, "mm2-source", -1).state = "PAUSED";
  f.replication.last_arrival_ms = kNow - 15'000;
  FlowReport r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kStalledReplicationLeg);
  EXPECT_FALSE(r.emit.stale);
  EXPECT_TRUE(r.replication.stale);
  EXPECT_THAT(r.next_step, HasSubstr("/connectors/mm2-source/resume"));
}

TEST(FlowVerdictTest, StalledReplicationLegNamesTheTargetWhenUnreachable) {
  FlowFacts f = Healthy();
  f.replication.last_arrival_ms = kNow - 15'000;
  f.replication.error = ClientError{"_ALL_BROKERS_DOWN: 1/1 brokers are down", kNow};
  f.replication.all_brokers_down = true;
  FlowReport r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kClusterUnreachable);
  EXPECT_THAT(r.summary, HasSubstr("cluster B"));
  f.replication.error = ClientError{"UNKNOWN_TOPIC_OR_PART: Broker: Unknown topic", kNow};
  r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kStalledReplicationLeg);
  EXPECT_THAT(r.next_step, HasSubstr("Cluster B"));
}

TEST(FlowVerdictTest, StalledReplicationLegWithoutMirrorSource) {
  FlowFacts f = Healthy();
  f.connectors.erase("source");
  std::erase_if(f.units, [](const UnitFacts& u) { return u.role == "source"; });
  f.replication.last_arrival_ms = kNow - 15'000;
  FlowReport r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kStalledReplicationLeg);
  EXPECT_THAT(r.next_step, HasSubstr("Create a MirrorSourceConnector"));
}

TEST(FlowVerdictTest, ARebalanceStormOutranksTheStallsAndSilenceItCauses) {
  FlowFacts f = Healthy();
  f.replication.last_arrival_ms = kNow - 15'000;
  f.assignment_changes_ms = {kNow - 90'000, kNow - 60'000, kNow - 30'000};
  Find(f, "mm2-source", 1).metrics = MetricsState::kAbsent;
  FlowReport r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kRebalancing);
  EXPECT_THAT(r.summary, HasSubstr("3 rebalance(s) of its connectors and tasks"));
  EXPECT_THAT(r.next_step, HasSubstr("members joining and leaving"));
  // A deleted heartbeat connector is no symptom of the storm (its deletion is one rebalance).
  FlowFacts unmonitored = f;
  unmonitored.heartbeats_enabled = false;
  EXPECT_EQ(Evaluate(unmonitored, kNow).verdict, Verdict::kUnmonitored);
  // 30 s after the last rebalance the storm is over: its symptoms are named.
  EXPECT_EQ(Evaluate(f, kNow + 1'000).verdict, Verdict::kMetricsAbsent);
  Find(f, "mm2-source", 1).metrics = MetricsState::kPresent;
  EXPECT_EQ(Evaluate(f, kNow + 1'000).verdict, Verdict::kStalledReplicationLeg);
  // Below the threshold too.
  f.assignment_changes_ms.pop_back();
  EXPECT_EQ(Evaluate(f, kNow).verdict, Verdict::kStalledReplicationLeg);
}

// Member churn that moves none of the flow's units prolongs a storm while it follows without a
// pause; alone, or after the storm was over, it makes none.
TEST(FlowVerdictTest, AStormLastsWhileTheGroupKeepsRebalancing) {
  FlowFacts f = Healthy();
  f.assignment_changes_ms = {kNow - 100'000, kNow - 95'000, kNow - 90'000};
  EXPECT_EQ(Evaluate(f, kNow).verdict, Verdict::kHealthy);  // quiet for 90 s: over
  // A worker kept leaving and joining every 20 s since the last unit move.
  f.group_rebalances_ms = {kNow - 70'000, kNow - 50'000, kNow - 30'000, kNow - 10'000};
  FlowReport r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kRebalancing);
  EXPECT_THAT(absl::StrJoin(r.evidence, "; "), HasSubstr("last rebalance 10.0 s ago"));
  EXPECT_EQ(Evaluate(f, kNow + 19'000).verdict, Verdict::kRebalancing);
  // A pause of more than 30 s ended it: a later rebalance starts nothing by itself.
  f.group_rebalances_ms = {kNow - 50'000, kNow - 2'000};
  EXPECT_EQ(Evaluate(f, kNow).verdict, Verdict::kHealthy);
  // Group rebalances alone (connectors created, a worker started) are no storm.
  f.assignment_changes_ms.clear();
  f.group_rebalances_ms = {kNow - 6'000, kNow - 4'000, kNow - 2'000};
  EXPECT_EQ(Evaluate(f, kNow).verdict, Verdict::kHealthy);
}

TEST(FlowVerdictTest, RecoveryIsHeldSoAVerdictDoesNotFlap) {
  FlowFacts f = Healthy();
  f.recent_problem = Verdict::kStalledReplicationLeg;
  f.recent_problem_ms = kNow - 2'000;
  FlowReport r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kStalledReplicationLeg);
  EXPECT_TRUE(r.recovering);
  EXPECT_THAT(r.summary, HasSubstr("recovering from STALLED — REPLICATION LEG"));
  EXPECT_EQ(RecoveryHoldMs(f.thresholds), 5'000);
  r = Evaluate(f, kNow + 3'001);
  EXPECT_EQ(r.verdict, Verdict::kHealthy);
  EXPECT_FALSE(r.recovering);
  // A new problem is reported at once, held or not.
  Find(f, "mm2-source", 0).state = "FAILED";
  EXPECT_EQ(Evaluate(f, kNow).verdict, Verdict::kTaskFailed);
  EXPECT_FALSE(IsProblem(Verdict::kStarting));
  EXPECT_TRUE(IsProblem(Verdict::kRebalancing));
}

TEST(FlowVerdictTest, ClusterUnreachableIsNamedBeforeLagMetricsAbsenceAndStalls) {
  // Case 2 of issue 24: B down (the workers' internal topics too). Heartbeats overdue on B
  // (LAGGING) and a task whose worker revoked it (METRICS ABSENT) are symptoms.
  FlowFacts f = Healthy();
  f.emit.last_arrival_ms = kNow - 100;
  f.emit.newest_timestamp_ms = kNow - 100;
  f.replication.last_arrival_ms = kNow - 3'500;
  f.replication.newest_timestamp_ms = kNow - 9'000;
  f.replication.error = ClientError{
      "_TRANSPORT: 127.0.0.1:9093/1: Connect to ipv4#127.0.0.1:9093 failed: "
      "Connection refused",
      kNow - 800};
  f.replication.all_brokers_down = true;
  Find(f, "mm2-source", 1).metrics = MetricsState::kAbsent;
  FlowReport r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kClusterUnreachable);
  EXPECT_EQ(VerdictName(r.verdict), "CLUSTER UNREACHABLE");
  EXPECT_THAT(r.summary, HasSubstr("cluster B cannot be reached"));
  EXPECT_THAT(absl::StrJoin(r.evidence, "\n"), HasSubstr("cluster B does not answer: _TRANSPORT"));
  EXPECT_THAT(r.next_step, HasSubstr("restarting tasks does not help"));
  // Within 3 intervals of the last heartbeat a disconnect is not an outage yet.
  f.replication.last_arrival_ms = kNow - 2'500;
  EXPECT_NE(Evaluate(f, kNow).verdict, Verdict::kClusterUnreachable);
  // An authorization error is no outage.
  f.replication.last_arrival_ms = kNow - 30'000;
  f.replication.error = ClientError{"TOPIC_AUTHORIZATION_FAILED: denied", kNow};
  EXPECT_EQ(Evaluate(f, kNow).verdict, Verdict::kMetricsAbsent);
}

TEST(FlowVerdictTest, TaskFailedCarriesTheTraceAndOutranksTheStall) {
  FlowFacts f = Healthy();
  UnitFacts& task = Find(f, "mm2-source", 1);
  task.state = "FAILED";
  task.trace = "org.apache.kafka.connect.errors.ConnectException: boom";
  f.replication.last_arrival_ms = kNow - 15'000;
  FlowReport r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kTaskFailed);
  EXPECT_THAT(r.summary, HasSubstr("task mm2-source-1 FAILED"));
  EXPECT_THAT(testing::PrintToString(r.evidence), HasSubstr("ConnectException: boom"));
  EXPECT_THAT(r.next_step, HasSubstr("onlyFailed=true"));
}

TEST(FlowVerdictTest, TaskFailedOnAuthorizationSaysWhatToGrant) {
  FlowFacts f = Healthy();
  UnitFacts& task = Find(f, "mm2-source", 0);
  task.state = "FAILED";
  task.trace = "failed to send a record: Broker: Topic authorization failed";
  FlowReport r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kTaskFailed);
  EXPECT_THAT(r.next_step, HasSubstr("grant the connectd principal WRITE"));
  EXPECT_THAT(r.next_step, HasSubstr("topics of B"));
}

TEST(FlowVerdictTest, HeartbeatTaskFailedIsTaskFailed) {
  FlowFacts f = Healthy();
  Find(f, "mm2-hb", 0).state = "FAILED";
  f.emit.last_arrival_ms = kNow - 20'000;
  EXPECT_EQ(Evaluate(f, kNow).verdict, Verdict::kTaskFailed);
}

TEST(FlowVerdictTest, MetricsAbsentWhenTheOwnerIsUnreachable) {
  FlowFacts f = Healthy();
  UnitFacts& task = Find(f, "mm2-source", 1);
  task.metrics = MetricsState::kOwnerUnreachable;
  task.metrics_detail = "worker w2:8083: Connection refused";
  f.emit.last_arrival_ms = kNow - 20'000;  // its heartbeat task died with it
  FlowReport r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kMetricsAbsent);
  EXPECT_THAT(r.summary, HasSubstr("w2:8083 unreachable"));
  EXPECT_THAT(r.next_step, HasSubstr("Worker w2:8083 does not answer"));
}

TEST(FlowVerdictTest, MetricsAbsentForARunningTaskThatPublishesNothing) {
  FlowFacts f = Healthy();
  Find(f, "mm2-source", 0).metrics = MetricsState::kAbsent;
  FlowReport r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kMetricsAbsent);
  EXPECT_THAT(r.next_step, HasSubstr("/connectors/mm2-source/tasks/0/restart"));
}

TEST(FlowVerdictTest, AbsentMetricsOfAPausedTaskDoNotCount) {
  FlowFacts f = Healthy();
  Find(f, "mm2-source", 0).metrics = MetricsState::kAbsent;
  Find(f, "mm2-source", 0).state = "PAUSED";
  EXPECT_EQ(Evaluate(f, kNow).verdict, Verdict::kHealthy);
}

TEST(FlowVerdictTest, TaskFailedOutranksMetricsAbsent) {
  FlowFacts f = Healthy();
  Find(f, "mm2-source", 0).metrics = MetricsState::kAbsent;
  Find(f, "mm2-cp", 0).state = "FAILED";
  EXPECT_EQ(Evaluate(f, kNow).verdict, Verdict::kTaskFailed);
}

TEST(FlowVerdictTest, RebalancingWhenAssignmentsFlap) {
  FlowFacts f = Healthy();
  f.assignment_changes_ms = {kNow - 200'000, kNow - 100'000, kNow - 10'000};
  FlowReport r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kRebalancing);
  EXPECT_EQ(r.rebalances_in_window, 3);
}

TEST(FlowVerdictTest, ChangesOutsideTheWindowDoNotCount) {
  FlowFacts f = Healthy();
  f.assignment_changes_ms = {kNow - 400'000, kNow - 350'000, kNow - 10'000};
  FlowReport r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kHealthy);
  EXPECT_EQ(r.rebalances_in_window, 1);
}

TEST(FlowVerdictTest, RebalancingWhileATaskIsUnassigned) {
  FlowFacts f = Healthy();
  Find(f, "mm2-cp", 0).state = "UNASSIGNED";
  EXPECT_EQ(Evaluate(f, kNow).verdict, Verdict::kRebalancing);
}

TEST(FlowVerdictTest, StallOutranksAUnitBetweenWorkers) {
  FlowFacts f = Healthy();
  Find(f, "mm2-hb", 0).state = "UNASSIGNED";
  f.emit.last_arrival_ms = kNow - 12'000;
  EXPECT_EQ(Evaluate(f, kNow).verdict, Verdict::kStalledEmitLeg);
}

TEST(FlowVerdictTest, SuspectClockSkewForAHeartbeatFromTheFuture) {
  FlowFacts f = Healthy();
  f.emit.skew_seen_ms = kNow - 2000;
  f.emit.skew_ms = 3'600'000;
  f.replication.latency_ms = 9000;  // lag would follow, but latencies cannot be trusted
  FlowReport r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kSuspectClockSkew);
  EXPECT_THAT(r.summary, HasSubstr("3600.0 s"));
}

TEST(FlowVerdictTest, SkewEvidenceExpiresAfterTheStaleThreshold) {
  FlowFacts f = Healthy();
  f.emit.skew_seen_ms = kNow - 10'001;
  f.emit.skew_ms = 3'600'000;
  EXPECT_EQ(Evaluate(f, kNow).verdict, Verdict::kHealthy);
}

TEST(FlowVerdictTest, SuspectClockSkewForNegativeLatency) {
  FlowFacts f = Healthy();
  f.replication.latency_ms = -6000;
  EXPECT_EQ(Evaluate(f, kNow).verdict, Verdict::kSuspectClockSkew);
  f.replication.latency_ms = -4000;  // within the 5 s tolerance
  EXPECT_EQ(Evaluate(f, kNow).verdict, Verdict::kHealthy);
}

TEST(FlowVerdictTest, StallOutranksSkewAndRebalancingOutranksSkew) {
  FlowFacts f = Healthy();
  f.emit.skew_seen_ms = kNow;
  f.emit.skew_ms = 60'000;
  f.replication.last_arrival_ms = kNow - 11'000;
  EXPECT_EQ(Evaluate(f, kNow).verdict, Verdict::kStalledReplicationLeg);
  f.replication.last_arrival_ms = kNow;
  Find(f, "mm2-cp", 0).state = "RESTARTING";
  EXPECT_EQ(Evaluate(f, kNow).verdict, Verdict::kRebalancing);
}

TEST(FlowVerdictTest, WithHeartbeatsDisabledTheFlowIsUnmonitored) {
  FlowFacts f = Healthy();
  f.heartbeats_enabled = false;
  f.emit.expected = false;
  f.replication.expected = false;
  f.emit.last_arrival_ms.reset();
  f.replication.last_arrival_ms.reset();
  f.replication.latency_ms = 60'000;
  FlowReport r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kUnmonitored);
  EXPECT_THAT(r.next_step, HasSubstr("emit.heartbeats.enabled=true on connector mm2-hb"));
}

TEST(FlowVerdictTest, AnUnfedReplicationLegIsNotJudged) {
  // heartbeats.topic.location=target: nothing writes A's heartbeats, so A.heartbeats is empty.
  FlowFacts f = Healthy();
  f.heartbeats_on_source = false;
  f.replication.expected = false;
  f.replication.last_arrival_ms.reset();
  f.replication.latency_ms.reset();
  EXPECT_EQ(Evaluate(f, kNow).verdict, Verdict::kHealthy);
}

TEST(FlowVerdictTest, ThresholdDefaultsFollowTheHeartbeatInterval) {
  Thresholds t = ThresholdsFromConfig({});
  EXPECT_EQ(t.heartbeat_interval_ms, 1000);
  EXPECT_EQ(t.stale_ms, 10000);
  EXPECT_EQ(t.lag_ms, 5000);
  EXPECT_EQ(t.clock_skew_tolerance_ms, 5000);
  EXPECT_EQ(t.rebalance_window_ms, 300000);
  EXPECT_EQ(t.rebalance_threshold, 3);
  t = ThresholdsFromConfig({{"emit.heartbeats.interval.seconds", "5"}});
  EXPECT_EQ(t.stale_ms, 50000);
  EXPECT_EQ(t.lag_ms, 25000);
  t = ThresholdsFromConfig({{"health.stale.threshold.ms", "4000"},
                            {"health.lag.threshold.ms", "1500"},
                            {"health.clock.skew.tolerance.ms", "100"},
                            {"health.rebalance.window.ms", "60000"},
                            {"health.rebalance.threshold", "5"},
                            {"health.lag.threshold.ms.bogus", "x"}});
  EXPECT_EQ(t.stale_ms, 4000);
  EXPECT_EQ(t.lag_ms, 1500);
  EXPECT_EQ(t.clock_skew_tolerance_ms, 100);
  EXPECT_EQ(t.rebalance_window_ms, 60000);
  EXPECT_EQ(t.rebalance_threshold, 5);
  t = ThresholdsFromConfig(
      {{"health.stale.threshold.ms", "soon"}, {"health.lag.threshold.ms", "-1"}});
  EXPECT_EQ(t.stale_ms, 10000);
  EXPECT_EQ(t.lag_ms, 5000);
}

TEST(FlowVerdictTest, SlopeNeedsThreePointsInTheWindow) {
  EXPECT_FALSE(LatencySlopePerMinute({{kNow - 1000, 5}, {kNow, 6}}, kNow, 60'000));
  EXPECT_FALSE(
      LatencySlopePerMinute({{kNow - 90'000, 1}, {kNow - 80'000, 2}, {kNow, 3}}, kNow, 60'000));
  std::optional<double> flat =
      LatencySlopePerMinute({{kNow - 2000, 500}, {kNow - 1000, 500}, {kNow, 500}}, kNow, 60'000);
  ASSERT_TRUE(flat);
  EXPECT_NEAR(*flat, 0, 1e-6);
}

TEST(FlowVerdictTest, VerdictNamesAndLabels) {
  EXPECT_EQ(AllVerdicts().size(), 12u);
  EXPECT_EQ(VerdictName(Verdict::kStarting), "STARTING");
  EXPECT_EQ(VerdictLabel(Verdict::kUnmonitored), "unmonitored");
  EXPECT_EQ(VerdictName(Verdict::kStalledEmitLeg), "STALLED — EMIT LEG");
  EXPECT_EQ(VerdictName(Verdict::kStalledReplicationLeg), "STALLED — REPLICATION LEG");
  EXPECT_EQ(VerdictLabel(Verdict::kSuspectClockSkew), "suspect_clock_skew");
  EXPECT_EQ(VerdictLabel(Verdict::kMetricsAbsent), "metrics_absent");
}

PartitionFacts Partition(std::string topic, int partition, int64_t end, int64_t position) {
  PartitionFacts p;
  p.source_topic = topic;
  p.topic = "A." + topic;
  p.partition = partition;
  p.end_offset = end;
  p.position = position;
  return p;
}

TEST(FlowVerdictTest, StalledPartitionsNamesTopicsErrorAndGrantWhileHeartbeatsAreFresh) {
  FlowFacts f = Healthy();
  f.partitions = {Partition("orders", 0, 100, 100), Partition("payments", 0, 40, 10),
                  Partition("payments", 1, 35, 5)};
  for (int i : {1, 2}) {
    f.partitions[i].error = "Broker: Topic authorization failed";
    f.partitions[i].authorization_error = true;
    f.partitions[i].error_count = 1;
    f.partitions[i].error_first_ms = kNow - 30'000;
    f.partitions[i].error_last_ms = kNow - 29'000;
  }
  FlowReport r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kStalledPartitions);
  EXPECT_EQ(VerdictName(r.verdict), "STALLED — PARTITIONS");
  EXPECT_THAT(r.summary, HasSubstr("2 of 3 partition(s) cannot be read (payments)"));
  EXPECT_THAT(absl::StrJoin(r.evidence, "\n"),
              HasSubstr("cannot read payments-0, payments-1 on A: Broker: Topic authorization "
                        "failed (2 time(s), first 30.0 s ago, last 29.0 s ago"));
  EXPECT_THAT(r.next_step, HasSubstr("READ (and DESCRIBE) on topic(s) payments of cluster A"));
  EXPECT_EQ(r.partitions_with_errors, 2);
  EXPECT_EQ(r.records_behind, 60);
  ASSERT_EQ(r.worst_partitions.size(), 3u);
  EXPECT_EQ(r.worst_partitions[0].source_topic, "payments");
  EXPECT_EQ(r.worst_partitions[2].source_topic, "orders");
  // A failed task still outranks it; once records flow again (no error) the flow is HEALTHY.
  Find(f, "mm2-source", 0).state = "FAILED";
  EXPECT_EQ(Evaluate(f, kNow).verdict, Verdict::kTaskFailed);
  Find(f, "mm2-source", 0).state = "RUNNING";
  for (PartitionFacts& p : f.partitions) p.error.clear();
  r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kHealthy);
  EXPECT_EQ(r.worst_partitions[0].RecordsBehind(), 30);  // most behind first
  // Equally behind: the oldest unreplicated record first; its age is evidence.
  f.partitions = {Partition("orders", 0, 10, 5), Partition("orders", 1, 10, 5)};
  f.partitions[1].oldest_unreplicated_age_ms = 7'000;
  r = Evaluate(f, kNow);
  EXPECT_EQ(r.worst_partitions[0].partition, 1);
  EXPECT_EQ(r.oldest_unreplicated_age_ms, 7'000);
  EXPECT_THAT(absl::StrJoin(r.evidence, "\n"),
              HasSubstr("10 record(s) behind the source's end, the oldest record not yet on B "
                        "was written 7.0 s ago"));
}

// Pass-through: the target's answers to a partition's batches are the target's, never "cannot
// read ... on A" (issue 49: the doctor sent the operator to the source during target faults).
TEST(FlowVerdictTest, TargetErrorsOfCopiedBatchesNameTheTarget) {
  FlowFacts f = Healthy();
  f.partitions = {Partition("orders", 0, 100, 40), Partition("orders", 1, 90, 90)};
  f.partitions[0].target_error = "Broker: Not enough in-sync replicas";
  f.partitions[0].target_error_count = 7;
  f.partitions[0].target_error_first_ms = kNow - 12'000;
  f.partitions[0].target_error_last_ms = kNow - 1'000;
  FlowReport r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kStalledPartitions);
  EXPECT_THAT(r.summary, HasSubstr("1 of 2 partition(s) cannot be written on B (A.orders)"));
  const std::string evidence = absl::StrJoin(r.evidence, "\n");
  EXPECT_THAT(evidence, HasSubstr("cannot write orders-0 to B: Broker: Not enough in-sync "
                                  "replicas (7 time(s), first 12.0 s ago, last 1.0 s ago"));
  EXPECT_THAT(evidence, Not(HasSubstr("cannot read")));
  EXPECT_THAT(r.next_step, HasSubstr("on cluster B"));
  EXPECT_THAT(r.next_step, Not(HasSubstr("cluster A")));
}

// A partition whose position stands still while records wait, with no error anywhere, is a
// stall of the copy: never HEALTHY (issue 49). Moving again, or paused on purpose, it is not.
TEST(FlowVerdictTest, APartitionThatCopiesNothingWhileRecordsWaitIsStalled) {
  FlowFacts f = Healthy();
  f.partitions = {Partition("pt-compact", 0, 2000, 240), Partition("orders", 0, 10, 10)};
  f.partitions[0].position_still_since_ms = kNow - 45'000;
  FlowReport r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kStalledPartitions);
  EXPECT_THAT(r.summary, HasSubstr("1 of 2 partition(s) copy nothing though records wait"));
  EXPECT_THAT(absl::StrJoin(r.evidence, "\n"),
              HasSubstr("pt-compact-0: position 240 has not moved for 45.0 s with 1760 record(s) "
                        "behind"));
  f.partitions[0].position_still_since_ms = kNow - 5'000;  // a moment: not yet
  EXPECT_EQ(Evaluate(f, kNow).verdict, Verdict::kHealthy);
  f.partitions[0].position_still_since_ms = kNow - 45'000;
  Find(f, "mm2-source", -1).state = "PAUSED";
  EXPECT_NE(Evaluate(f, kNow).verdict, Verdict::kStalledPartitions);
}

TEST(FlowVerdictTest, OtherPartitionErrorsPointAtTheTopic) {
  FlowFacts f = Healthy();
  f.partitions = {Partition("orders", 0, 10, 10)};
  f.partitions[0].error = "Broker: Unknown topic or partition";
  FlowReport r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kStalledPartitions);
  EXPECT_THAT(r.next_step, HasSubstr("Check topic(s) orders on cluster A"));
}

TEST(FlowVerdictTest, ARemoteTopicThatCannotBeCreatedStallsItsRecordsAndNamesTheGrant) {
  FlowFacts f = Healthy();
  f.partitions = {Partition("orders", 0, 100, 100)};
  RemoteTopicFacts t;
  t.topic = "A.invoices";
  t.source_topic = "invoices";
  t.operation = "create-topics";
  t.error = "Broker: Topic authorization failed";
  t.authorization_error = true;
  t.error_count = 4;
  t.error_first_ms = kNow - 20'000;
  t.error_last_ms = kNow - 1'000;
  f.remote_topics = {t};
  FlowReport r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kStalledPartitions);
  EXPECT_THAT(r.summary, HasSubstr("remote topic(s) A.invoices cannot be made on B, their "
                                   "records wait; the others replicate"));
  EXPECT_THAT(absl::StrJoin(r.evidence, "\n"),
              HasSubstr("cannot create topic A.invoices on B: Broker: Topic authorization failed "
                        "(4 time(s), first 20.0 s ago, last 1.0 s ago"));
  EXPECT_THAT(r.next_step, HasSubstr("CREATE on topic(s) A.invoices of cluster B"));
  ASSERT_EQ(r.remote_topics.size(), 1u);
  // With a read error too: one verdict, both causes.
  f.partitions[0].error = "Broker: Topic authorization failed";
  f.partitions[0].authorization_error = true;
  r = Evaluate(f, kNow);
  EXPECT_THAT(r.summary, HasSubstr("1 of 1 partition(s) cannot be read (orders); remote topic(s)"));
  EXPECT_THAT(r.next_step, HasSubstr("READ (and DESCRIBE) on topic(s) orders of cluster A"));
  EXPECT_THAT(r.next_step, HasSubstr("CREATE on topic(s) A.invoices"));
  // Growing refused for another reason.
  f.partitions[0].error.clear();
  f.remote_topics[0].operation = "create-partitions";
  f.remote_topics[0].authorization_error = false;
  f.remote_topics[0].error = "Broker: Policy violation";
  r = Evaluate(f, kNow);
  EXPECT_THAT(
      absl::StrJoin(r.evidence, "\n"),
      HasSubstr("cannot add partitions to topic A.invoices on B: Broker: Policy violation"));
  EXPECT_THAT(r.next_step, HasSubstr("create topic(s) A.invoices there yourself"));
  // JSON.
  rapidjson::Document doc;
  std::string json = FlowReportsJson({r}, "w1:8083", kNow);
  doc.Parse(json.c_str());
  ASSERT_FALSE(doc.HasParseError()) << json;
  const rapidjson::Value& e = doc["flows"][0]["remote_topic_errors"][0];
  EXPECT_STREQ(e["topic"].GetString(), "A.invoices");
  EXPECT_STREQ(e["source_topic"].GetString(), "invoices");
  EXPECT_STREQ(e["operation"].GetString(), "create-partitions");
  EXPECT_EQ(e["error_count"].GetInt64(), 4);
  // The producer's metadata request then failed the task with the same refusal (the target
  // would auto-create the topic): TASK FAILED, and the grant is CREATE, not WRITE.
  f.remote_topics[0].operation = "create-topics";
  f.remote_topics[0].authorization_error = true;
  f.remote_topics[0].error = "Broker: Topic authorization failed";
  Find(f, "mm2-source", 0).state = "FAILED";
  Find(f, "mm2-source", 0).trace =
      "failed to send a record to topic A.invoices: Broker: Topic authorization failed";
  r = Evaluate(f, kNow);
  EXPECT_EQ(r.verdict, Verdict::kTaskFailed);
  EXPECT_THAT(r.next_step, HasSubstr("refused to create remote topic(s) A.invoices: grant the "
                                     "MirrorSource connector's principal CREATE on them on "
                                     "cluster B"));
  EXPECT_THAT(r.next_step, Not(HasSubstr("WRITE")));
  EXPECT_THAT(absl::StrJoin(r.evidence, "\n"), HasSubstr("cannot create topic A.invoices on B"));
  Find(f, "mm2-source", 0).state = "RUNNING";
  Find(f, "mm2-source", 0).trace.reset();
  // Fixed: the connector clears it, and the flow is HEALTHY again.
  f.remote_topics.clear();
  EXPECT_EQ(Evaluate(f, kNow).verdict, Verdict::kHealthy);
}

TEST(FlowReportJsonTest, OneFlowWithLegsTasksAndThresholds) {
  FlowFacts f = Healthy();
  Find(f, "mm2-source", 1).state = "FAILED";
  Find(f, "mm2-source", 1).trace = "boom \xFF";  // a plugin's trace need not be valid UTF-8
  std::string json = FlowReportsJson({Evaluate(f, kNow)}, "w1:8083", kNow);
  rapidjson::Document doc;
  doc.Parse(json.c_str());
  ASSERT_FALSE(doc.HasParseError()) << json;
  EXPECT_STREQ(doc["worker_id"].GetString(), "w1:8083");
  const rapidjson::Value& flow = doc["flows"][0];
  EXPECT_STREQ(flow["flow"].GetString(), "A->B");
  EXPECT_STREQ(flow["verdict"].GetString(), "TASK FAILED");
  EXPECT_STREQ(flow["verdict_label"].GetString(), "task_failed");
  EXPECT_EQ(flow["legs"]["emit"]["age_ms"].GetInt64(), 400);
  EXPECT_STREQ(flow["legs"]["replication"]["topic"].GetString(), "A.heartbeats");
  EXPECT_TRUE(flow["legs"]["replication"]["error"].IsNull());
  EXPECT_EQ(flow["thresholds"]["stale_ms"].GetInt64(), 10000);
  EXPECT_STREQ(flow["connectors"]["heartbeat"].GetString(), "mm2-hb");
  EXPECT_EQ(flow["tasks"].Size(), 7u);
  EXPECT_TRUE(flow["tasks"][0]["task"].IsNull());
  EXPECT_STREQ(flow["tasks"][2]["state"].GetString(), "FAILED");
  EXPECT_STREQ(flow["tasks"][2]["trace"].GetString(), "boom \xEF\xBF\xBD");
  EXPECT_STREQ(flow["tasks"][1]["metrics"].GetString(), "present");
  EXPECT_STREQ(flow["heartbeats_topic_location"].GetString(), "source");
  EXPECT_EQ(flow["partitions"]["count"].GetInt(), 0);
  EXPECT_EQ(flow["partitions"]["worst"].Size(), 0u);
}

TEST(FlowReportJsonTest, WorstPartitionsWithTheirOffsetsAndErrors) {
  FlowFacts f = Healthy();
  f.partitions = {Partition("orders", 3, 120, 20)};
  f.partitions[0].oldest_unreplicated_age_ms = 4200;
  f.partitions[0].error = "Broker: Topic authorization failed";
  f.partitions[0].error_count = 3;
  f.partitions[0].error_first_ms = kNow - 1000;
  f.partitions[0].error_last_ms = kNow - 500;
  f.partitions[0].target_error = "Broker: Not enough in-sync replicas";
  f.partitions[0].target_error_count = 2;
  f.partitions[0].target_error_last_ms = kNow - 200;
  rapidjson::Document doc;
  std::string json = FlowReportsJson({Evaluate(f, kNow)}, "w1:8083", kNow);
  doc.Parse(json.c_str());
  ASSERT_FALSE(doc.HasParseError()) << json;
  const rapidjson::Value& partitions = doc["flows"][0]["partitions"];
  EXPECT_EQ(partitions["count"].GetInt(), 1);
  EXPECT_EQ(partitions["with_errors"].GetInt(), 1);
  EXPECT_EQ(partitions["records_behind"].GetInt64(), 100);
  const rapidjson::Value& worst = partitions["worst"][0];
  EXPECT_STREQ(worst["source_topic"].GetString(), "orders");
  EXPECT_STREQ(worst["topic"].GetString(), "A.orders");
  EXPECT_EQ(worst["partition"].GetInt(), 3);
  EXPECT_EQ(worst["source_end_offset"].GetInt64(), 120);
  EXPECT_EQ(worst["position"].GetInt64(), 20);
  EXPECT_EQ(worst["records_behind"].GetInt64(), 100);
  EXPECT_EQ(worst["oldest_unreplicated_age_ms"].GetInt64(), 4200);
  EXPECT_EQ(partitions["oldest_unreplicated_age_ms"].GetInt64(), 4200);
  EXPECT_STREQ(worst["error"].GetString(), "Broker: Topic authorization failed");
  EXPECT_EQ(worst["error_count"].GetInt64(), 3);
  EXPECT_EQ(worst["error_first_ms"].GetInt64(), kNow - 1000);
  // Pass-through's target side, beside it (issue 49).
  EXPECT_STREQ(worst["target_error"].GetString(), "Broker: Not enough in-sync replicas");
  EXPECT_EQ(worst["target_error_count"].GetInt64(), 2);
  EXPECT_TRUE(worst["target_error_first_ms"].IsNull());
  EXPECT_EQ(worst["target_error_last_ms"].GetInt64(), kNow - 200);
}

TEST(MirrorTaskMetricsTest, GroupsMirrorSourceSeriesPerPartitionAndRoundTrips) {
  auto value = [](std::string name, std::string topic, std::string partition, double v) {
    return metrics::MetricValue{metrics::MetricName{"kafka.connect.mirror",
                                                    "MirrorSourceConnector",
                                                    std::move(name),
                                                    {{"source", "A"},
                                                     {"target", "B"},
                                                     {"topic", std::move(topic)},
                                                     {"partition", std::move(partition)}}},
                                "", metrics::StatKind::kValue, v};
  };
  std::vector<metrics::MetricValue> snapshot = {
      value("source-position", "A.orders", "0", 12),
      value("replication-latency-ms-max", "A.orders", "0", std::nan("")),
      value("source-position", "A.orders", "1", 3),
      value("record-count", "A.orders", "1", 3),  // not read by flow health: left out
      value("record-count", "A.orders", "2", 5),
      metrics::MetricValue{metrics::MetricName{"connectd.mirror", "flow", "count", {}}, "",
                           metrics::StatKind::kValue, 1}};
  std::vector<MirrorPartitionMetrics> partitions = MirrorTaskMetrics(snapshot);
  ASSERT_EQ(partitions.size(), 2u);
  EXPECT_EQ(partitions[0].topic, "A.orders");
  EXPECT_EQ(partitions[0].values.Get("source-position"), 12);
  EXPECT_EQ(partitions[1].values.Entries().size(), 1u);
  WorkerMirrorMetrics worker{partitions, {}, {}, {}};
  absl::StatusOr<WorkerMirrorMetrics> parsed =
      ParseWorkerMirrorMetricsJson(WorkerMirrorMetricsJson(worker, "w1:8083"));
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  ASSERT_EQ(parsed->partitions.size(), 2u);
  EXPECT_EQ(parsed->partitions[1].partition, 1);
  EXPECT_EQ(parsed->partitions[1].values.Get("source-position"), 3);
  EXPECT_TRUE(std::isnan(*parsed->partitions[0].values.Get("replication-latency-ms-max")));
  EXPECT_EQ(parsed->partitions[0].values.Finite("replication-latency-ms-max"), std::nullopt);
  EXPECT_EQ(parsed->partitions[0].values, partitions[0].values);
  // An older worker sent every MirrorSource metric: those flow health does not read are left out.
  parsed = ParseWorkerMirrorMetricsJson(
      R"({"partitions":[{"source":"A","target":"B","topic":"A.orders","partition":0,)"
      R"("metrics":{"record-count":4,"source-end-offset":9,"record-rate":null}}]})");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  ASSERT_EQ(parsed->partitions.size(), 1u);
  EXPECT_EQ(parsed->partitions[0].values.Entries(),
            (std::vector<std::pair<std::string_view, double>>{{"source-end-offset", 9}}));
  EXPECT_FALSE(ParseWorkerMirrorMetricsJson("{\"partitions\":[{\"source\":1}]}").ok());
  EXPECT_FALSE(ParseWorkerMirrorMetricsJson("nope").ok());
  // The source tasks' producer throttling and the connectors' remote topic errors travel
  // along; an older worker's answer has neither.
  worker.producer_throttle = {{"connector-producer-src-0", 750}};
  worker.consumer_throttle = {{"A->B|src-0|replication-consumer", 320}};
  worker.remote_topic_errors = {
      RemoteTopicError{"A", "B", "A.invoices", "create-topics", 29, 3, kNow - 9000, kNow - 1000}};
  parsed = ParseWorkerMirrorMetricsJson(WorkerMirrorMetricsJson(worker, "w1:8083"));
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->producer_throttle, worker.producer_throttle);
  EXPECT_EQ(parsed->consumer_throttle, worker.consumer_throttle);
  ASSERT_EQ(parsed->remote_topic_errors.size(), 1u);
  const RemoteTopicError& e = parsed->remote_topic_errors[0];
  EXPECT_EQ(
      std::tie(e.source, e.target, e.topic, e.operation, e.code, e.count, e.first_ms, e.last_ms),
      std::make_tuple("A", "B", "A.invoices", "create-topics", 29, 3, kNow - 9000, kNow - 1000));
  parsed = ParseWorkerMirrorMetricsJson("{\"partitions\":[]}");
  ASSERT_TRUE(parsed.ok());
  EXPECT_TRUE(parsed->producer_throttle.empty());
  EXPECT_TRUE(parsed->remote_topic_errors.empty());
}

TEST(MirrorTaskMetricsTest, ReadsTheRegistrysPartitionsOnlyTheMetricsFlowHealthUses) {
  metrics::MetricsRegistry registry;
  metrics::MetricsScope scope(&registry);
  // Each partition's series come from several sensors, as MirrorSource adds them.
  auto sensor = [&](const std::string& topic, int partition, const std::string& name,
                    double value) {
    scope
        .AddSensor("kafka.connect.mirror", "MirrorSourceConnector",
                   {{"source", "A"},
                    {"target", "B"},
                    {"topic", topic},
                    {"partition", std::to_string(partition)}},
                   {{name, "", metrics::StatKind::kValue}}, kNow)
        ->Record(value, kNow);
  };
  for (int p = 0; p < 3; ++p) {
    sensor("A.orders", p, "source-end-offset", 100 + p);
    sensor("A.orders", p, "source-position", 90 + p);
    sensor("A.orders", p, "record-count", 5);  // not read by flow health
  }
  sensor("A.audit", 0, "source-position", 7);
  std::vector<MirrorPartitionMetrics> partitions = MirrorTaskMetrics(registry, kNow);
  ASSERT_EQ(partitions.size(), 4u);
  EXPECT_EQ(partitions[0].topic, "A.audit");
  using Entries = std::vector<std::pair<std::string_view, double>>;
  EXPECT_EQ(partitions[0].values.Entries(), (Entries{{"source-position", 7}}));
  for (int p = 0; p < 3; ++p) {
    const MirrorPartitionMetrics& m = partitions[p + 1];
    EXPECT_EQ(std::tie(m.source, m.target, m.topic, m.partition),
              std::make_tuple("A", "B", "A.orders", p));
    EXPECT_EQ(m.values.Entries(),
              (Entries{{"source-end-offset", 100 + p}, {"source-position", 90 + p}}));
  }
}

TEST(MirrorTaskMetricsTest, RemoteTopicErrorsAreReadFromTheConnectorsSensors) {
  metrics::MetricsRegistry registry;
  metrics::MetricsScope scope(&registry);
  const metrics::Tags tags = {
      {"source", "A"}, {"target", "B"}, {"topic", "A.invoices"}, {"operation", "create-topics"}};
  auto gauge = [&](const char* name, double value) {
    scope
        .AddSensor("connectd.mirror", "MirrorSourceConnector", tags,
                   {{name, "", metrics::StatKind::kValue}}, kNow)
        ->Record(value, kNow);
  };
  gauge("admin-error-code", 29);
  gauge("admin-error-count", 2);
  gauge("admin-error-first-ms", kNow - 5000);
  gauge("admin-error-last-ms", kNow - 100);
  std::vector<RemoteTopicError> errors = RemoteTopicErrors(registry, kNow);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].topic, "A.invoices");
  EXPECT_EQ(errors[0].operation, "create-topics");
  EXPECT_EQ(errors[0].code, 29);
  EXPECT_EQ(errors[0].count, 2);
  EXPECT_EQ(errors[0].first_ms, kNow - 5000);
  EXPECT_EQ(errors[0].last_ms, kNow - 100);
  EXPECT_TRUE(ReadWorkerMirrorMetrics(registry, kNow).partitions.empty());
}

}  // namespace
}  // namespace connectd::health
