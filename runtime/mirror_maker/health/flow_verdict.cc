#include "runtime/mirror_maker/health/flow_verdict.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace connectd::health {
namespace {

std::optional<int64_t> ParseLong(const std::map<std::string, std::string>& config,
                                 const std::string& key) {
  auto it = config.find(key);
  if (it == config.end() || it->second.empty()) return std::nullopt;
  char* end = nullptr;
  long long value = std::strtoll(it->second.c_str(), &end, 10);
  if (end == it->second.c_str() || *end != '\0') return std::nullopt;
  return value;
}

std::string Seconds(int64_t ms) {
  if (ms < 0) return absl::StrCat("-", Seconds(-ms));
  return absl::StrCat(ms / 1000, ".", (ms % 1000) / 100, " s");
}

std::string UnitName(const UnitFacts& unit) {
  return unit.task < 0 ? absl::StrCat("connector ", unit.connector)
                       : absl::StrCat("task ", unit.connector, "-", unit.task);
}

std::string UnitState(const UnitFacts& unit) {
  std::string out =
      absl::StrCat(UnitName(unit), " is ", unit.state.empty() ? "without status" : unit.state);
  if (!unit.worker_id.empty()) absl::StrAppend(&out, " on ", unit.worker_id);
  return out;
}

// No heartbeat arrived on `leg` for longer than `limit_ms`.
bool Stale(const LegFacts& leg, int64_t now_ms, int64_t limit_ms) {
  if (!leg.expected) return false;
  if (leg.last_arrival_ms) return now_ms - *leg.last_arrival_ms > limit_ms;
  // Never seen one: no evidence that the leg works, so a new flow is not HEALTHY before its
  // first heartbeat crossed (catching up at start counts the newest one already there).
  return true;
}

LegReport ReportLeg(const LegFacts& leg, int64_t now_ms, int64_t stale_ms) {
  LegReport out;
  out.cluster = leg.cluster;
  out.topic = leg.topic;
  out.expected = leg.expected;
  if (leg.last_arrival_ms) out.age_ms = std::max<int64_t>(0, now_ms - *leg.last_arrival_ms);
  out.newest_timestamp_ms = leg.newest_timestamp_ms;
  out.latency_ms = leg.latency_ms;
  out.stale = Stale(leg, now_ms, stale_ms);
  if (leg.error) out.error = leg.error->message;
  return out;
}

std::string LegText(const char* name, const LegFacts& leg, const LegReport& report) {
  std::string out = absl::StrCat(name, " leg (", leg.topic, " on ", leg.cluster, "): ");
  if (!leg.expected) return out + "no heartbeats expected";
  if (report.age_ms) {
    absl::StrAppend(&out, "newest heartbeat arrived ", Seconds(*report.age_ms), " ago");
  } else if (leg.watching_since_ms == 0) {
    absl::StrAppend(&out, "not readable");
  } else {
    absl::StrAppend(&out, "no heartbeat seen yet");
  }
  if (report.error) absl::StrAppend(&out, "; client error: ", *report.error);
  return out;
}

// The units of `role` (connector first, then tasks).
std::vector<const UnitFacts*> UnitsOf(const FlowFacts& facts, std::string_view role) {
  std::vector<const UnitFacts*> out;
  for (const UnitFacts& unit : facts.units) {
    if (unit.role == role) out.push_back(&unit);
  }
  return out;
}

// The first unit of `role` not RUNNING, if any.
const UnitFacts* NotRunning(const FlowFacts& facts, std::string_view role) {
  for (const UnitFacts* unit : UnitsOf(facts, role)) {
    if (unit->state != "RUNNING") return unit;
  }
  return nullptr;
}

std::string ConnectorUrlHint(const UnitFacts& unit) {
  return absl::StrCat("/connectors/", unit.connector);
}

// The next step when a connector or its task is not RUNNING.
std::string NextStepForState(const UnitFacts& unit) {
  if (unit.state == "PAUSED" || unit.state == "STOPPED") {
    return absl::StrCat("Resume connector ", unit.connector, ": curl -X PUT <worker>",
                        ConnectorUrlHint(unit), "/resume");
  }
  if (unit.state == "UNASSIGNED" || unit.state.empty()) {
    return absl::StrCat("No worker runs ", UnitName(unit),
                        ": check that the Connect cluster's workers are up and in one group "
                        "(GET /connectors/",
                        unit.connector, "/status)");
  }
  return absl::StrCat("Check ", UnitName(unit), " (GET /connectors/", unit.connector,
                      "/status) and its worker's log");
}

bool LooksLikeAuthorization(const std::string& text) {
  std::string lower;
  for (char c : text)
    lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return lower.find("authoriz") != std::string::npos || lower.find("denied") != std::string::npos;
}

void AddUnitEvidence(const FlowFacts& facts, std::vector<std::string>* evidence) {
  for (const UnitFacts& unit : facts.units) {
    if (unit.state != "RUNNING") evidence->push_back(UnitState(unit));
  }
}

// A client error that says a cluster cannot be reached at all (not that it refused something).
bool LooksUnreachable(const std::string& error) {
  for (std::string_view mark :
       {"_TRANSPORT", "_ALL_BROKERS_DOWN", "_RESOLVE", "Connection refused"}) {
    if (error.find(mark) != std::string::npos) return true;
  }
  return false;
}

// `leg`'s cluster is unreachable: its consumer's unresolved error says so, every broker of it
// is down (one broker of three down is not the cluster: its partitions get new leaders), and
// nothing arrived on the leg for `patience_ms` (a passing disconnect is no outage).
bool Unreachable(const LegFacts& leg, int64_t now_ms, int64_t patience_ms) {
  if (!leg.error || !LooksUnreachable(leg.error->message) || !leg.all_brokers_down) return false;
  const int64_t since = leg.last_arrival_ms.value_or(leg.watching_since_ms);
  return since > 0 && now_ms - since > patience_ms;
}

enum class Side { kSource, kTarget };

// "N time(s), first X ago, last Y ago" of the partitions' errors of one side.
std::string ErrorTimes(const std::vector<const PartitionFacts*>& partitions, Side side,
                       int64_t now_ms) {
  int64_t count = 0, first = INT64_MAX, last = 0;
  for (const PartitionFacts* p : partitions) {
    const bool source = side == Side::kSource;
    count += source ? p->error_count : p->target_error_count;
    first =
        std::min(first, (source ? p->error_first_ms : p->target_error_first_ms).value_or(now_ms));
    last = std::max(last, (source ? p->error_last_ms : p->target_error_last_ms).value_or(0));
  }
  return absl::StrCat(count, " time(s), first ", Seconds(now_ms - first), " ago, last ",
                      Seconds(now_ms - last), " ago");
}

// A broker of `cluster` does not answer while the others do (not every broker is down): the
// partitions it led, `topic`'s among them, wait for Kafka to elect new leaders.
std::string ABrokerIsGone(const std::string& cluster, const std::string& topic) {
  return absl::StrCat(
      "A broker of ", cluster, " does not answer (the error above) while the rest of ", cluster,
      " does: the partitions it led, ", topic, "'s among them, wait for ", cluster,
      " to elect new leaders (within its brokers' session timeout). If it lasts, bring that "
      "broker back and check the partitions' replicas (kafka-topics.sh --describe "
      "--unavailable-partitions); restarting connectd's tasks does not help");
}

// Errors first (oldest first), then the most records behind, then the oldest unreplicated
// record; ties in the order of the facts.
bool WorseThan(const PartitionFacts* a, const PartitionFacts* b) {
  if (a->error.empty() != b->error.empty()) return !a->error.empty();
  if (!a->error.empty() && a->error_first_ms.value_or(0) != b->error_first_ms.value_or(0)) {
    return a->error_first_ms.value_or(0) < b->error_first_ms.value_or(0);
  }
  const int64_t behind_a = a->RecordsBehind().value_or(0);
  const int64_t behind_b = b->RecordsBehind().value_or(0);
  if (behind_a != behind_b) return behind_a > behind_b;
  const int64_t age_a = a->oldest_unreplicated_age_ms.value_or(0);
  const int64_t age_b = b->oldest_unreplicated_age_ms.value_or(0);
  if (age_a != age_b) return age_a > age_b;
  return a < b;
}

void SummarizePartitions(const FlowFacts& facts, FlowReport* r) {
  r->partition_count = static_cast<int>(facts.partitions.size());
  for (const PartitionFacts& p : facts.partitions) {
    if (!p.error.empty()) ++r->partitions_with_errors;
    r->records_behind += std::max<int64_t>(0, p.RecordsBehind().value_or(0));
    if (p.oldest_unreplicated_age_ms) {
      r->oldest_unreplicated_age_ms =
          std::max(r->oldest_unreplicated_age_ms.value_or(0), *p.oldest_unreplicated_age_ms);
    }
  }
  // The worst few of (at scale) 10,000 partitions, every tick: a partial sort of pointers.
  std::vector<const PartitionFacts*> order;
  order.reserve(facts.partitions.size());
  for (const PartitionFacts& p : facts.partitions) order.push_back(&p);
  const size_t kept = std::min<size_t>(order.size(), kWorstPartitions);
  std::partial_sort(order.begin(), order.begin() + kept, order.end(), WorseThan);
  r->worst_partitions.clear();
  for (size_t i = 0; i < kept; ++i) r->worst_partitions.push_back(*order[i]);
  r->remote_topics = facts.remote_topics;
}

// What the MirrorSourceConnector's target admin client refused, one line per remote topic.
void AddRemoteTopicEvidence(const FlowFacts& facts, int64_t now_ms,
                            std::vector<std::string>* evidence) {
  for (const RemoteTopicFacts& t : facts.remote_topics) {
    evidence->push_back(absl::StrCat(
        t.operation != "create-partitions" ? "cannot create topic "
                                           : "cannot add partitions to topic ",
        t.topic, " on ", facts.target, ": ", t.error, " (", t.error_count, " time(s), first ",
        Seconds(now_ms - t.error_first_ms), " ago, last ", Seconds(now_ms - t.error_last_ms),
        " ago; MirrorSourceConnector's target admin client)"));
  }
}

// The remote topics the target refused to create for lack of CREATE.
std::set<std::string> CreateDenied(const FlowFacts& facts) {
  std::set<std::string> topics;
  for (const RemoteTopicFacts& t : facts.remote_topics) {
    if (t.authorization_error && t.operation != "create-partitions") topics.insert(t.topic);
  }
  return topics;
}

// "orders-0, orders-2" per source topic, for the errored partitions of one error text.
std::string PartitionList(const std::vector<const PartitionFacts*>& partitions) {
  std::vector<std::string> names;
  for (const PartitionFacts* p : partitions) {
    names.push_back(absl::StrCat(p->source_topic, "-", p->partition));
  }
  return absl::StrJoin(names, ", ");
}

}  // namespace

int64_t StormQuietMs(const Thresholds& t) { return std::max<int64_t>(30000, t.stale_ms); }

int64_t RecoveryHoldMs(const Thresholds& t) {
  return std::max<int64_t>(5000, 3 * t.heartbeat_interval_ms);
}

bool IsProblem(Verdict verdict) {
  return verdict != Verdict::kHealthy && verdict != Verdict::kStarting &&
         verdict != Verdict::kUnmonitored;
}

std::optional<int64_t> PartitionFacts::RecordsBehind() const {
  if (!end_offset || !position) return std::nullopt;
  return *end_offset - *position;
}

std::string_view VerdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::kHealthy:
      return "HEALTHY";
    case Verdict::kLagging:
      return "LAGGING";
    case Verdict::kStalledEmitLeg:
      return "STALLED — EMIT LEG";
    case Verdict::kStalledReplicationLeg:
      return "STALLED — REPLICATION LEG";
    case Verdict::kTaskFailed:
      return "TASK FAILED";
    case Verdict::kMetricsAbsent:
      return "METRICS ABSENT";
    case Verdict::kSuspectClockSkew:
      return "SUSPECT CLOCK SKEW";
    case Verdict::kRebalancing:
      return "REBALANCING";
    case Verdict::kStarting:
      return "STARTING";
    case Verdict::kUnmonitored:
      return "UNMONITORED";
    case Verdict::kStalledPartitions:
      return "STALLED — PARTITIONS";
    case Verdict::kClusterUnreachable:
      return "CLUSTER UNREACHABLE";
  }
  return "UNKNOWN";
}

std::string_view VerdictLabel(Verdict verdict) {
  switch (verdict) {
    case Verdict::kHealthy:
      return "healthy";
    case Verdict::kLagging:
      return "lagging";
    case Verdict::kStalledEmitLeg:
      return "stalled_emit_leg";
    case Verdict::kStalledReplicationLeg:
      return "stalled_replication_leg";
    case Verdict::kTaskFailed:
      return "task_failed";
    case Verdict::kMetricsAbsent:
      return "metrics_absent";
    case Verdict::kSuspectClockSkew:
      return "suspect_clock_skew";
    case Verdict::kRebalancing:
      return "rebalancing";
    case Verdict::kStarting:
      return "starting";
    case Verdict::kUnmonitored:
      return "unmonitored";
    case Verdict::kStalledPartitions:
      return "stalled_partitions";
    case Verdict::kClusterUnreachable:
      return "cluster_unreachable";
  }
  return "unknown";
}

const std::vector<Verdict>& AllVerdicts() {
  static const std::vector<Verdict> kAll = {
      Verdict::kHealthy,           Verdict::kLagging,
      Verdict::kStalledEmitLeg,    Verdict::kStalledReplicationLeg,
      Verdict::kTaskFailed,        Verdict::kMetricsAbsent,
      Verdict::kSuspectClockSkew,  Verdict::kRebalancing,
      Verdict::kStarting,          Verdict::kUnmonitored,
      Verdict::kStalledPartitions, Verdict::kClusterUnreachable};
  return kAll;
}

Thresholds ThresholdsFromConfig(const std::map<std::string, std::string>& config) {
  Thresholds t;
  int64_t interval_s = ParseLong(config, "emit.heartbeats.interval.seconds").value_or(1);
  t.heartbeat_interval_ms = std::max<int64_t>(1, interval_s) * 1000;
  t.stale_ms = std::max<int64_t>(10000, 10 * t.heartbeat_interval_ms);
  t.lag_ms = std::max<int64_t>(5000, 5 * t.heartbeat_interval_ms);
  if (auto v = ParseLong(config, "health.stale.threshold.ms"); v && *v > 0) t.stale_ms = *v;
  if (auto v = ParseLong(config, "health.lag.threshold.ms"); v && *v > 0) t.lag_ms = *v;
  if (auto v = ParseLong(config, "health.clock.skew.tolerance.ms"); v && *v >= 0) {
    t.clock_skew_tolerance_ms = *v;
  }
  if (auto v = ParseLong(config, "health.rebalance.window.ms"); v && *v > 0) {
    t.rebalance_window_ms = *v;
  }
  if (auto v = ParseLong(config, "health.rebalance.threshold"); v && *v > 0) {
    t.rebalance_threshold = static_cast<int>(*v);
  }
  return t;
}

std::optional<double> LatencySlopePerMinute(const std::vector<std::pair<int64_t, int64_t>>& history,
                                            int64_t now_ms, int64_t window_ms) {
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const auto& [at, latency] : history) {
    if (now_ms - at > window_ms) continue;
    double x = static_cast<double>(at - now_ms) / 60000.0;  // minutes, near zero
    double y = static_cast<double>(latency);
    n += 1;
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  double denominator = n * sxx - sx * sx;
  if (n < 3 || denominator <= 1e-12) return std::nullopt;
  return (n * sxy - sx * sy) / denominator;
}

namespace {

// What a rule decides: the verdict, its one-line summary and the next step. The rule has added
// its own evidence to the report; Evaluate adds what every verdict carries.
struct Outcome {
  Verdict verdict;
  std::string summary;
  std::string next_step;
};

Outcome Finish(Verdict verdict, std::string summary, std::string next) {
  return Outcome{verdict, std::move(summary), std::move(next)};
}

// What the rules read: the facts, the report being built (whose evidence they extend) and the
// flow's name ("A->B").
// Each rule opens it as `auto& [facts, r, now_ms, t, flow] = c;`.
struct RuleContext {
  const FlowFacts& facts;
  FlowReport& r;
  int64_t now_ms;
  const Thresholds& t;
  std::string flow;
};

std::string StormNextStep() {
  return "The flow's connectors and tasks keep moving between workers: check the workers' logs "
         "for members joining and leaving the group (restarts, session timeouts, long GC pauses)";
}

// ---- The rules, in precedence order (flow_verdict.h). Each decides or passes (nullopt). ----

// 1. TASK FAILED.
std::optional<Outcome> TaskFailed(RuleContext& c) {
  auto& [facts, r, now_ms, t, flow] = c;
  std::vector<const UnitFacts*> failed;
  for (const UnitFacts& unit : facts.units) {
    if (unit.state == "FAILED") failed.push_back(&unit);
  }
  if (!failed.empty()) {
    const UnitFacts& first = *failed.front();
    for (const UnitFacts* unit : failed) {
      r.evidence.push_back(UnitState(*unit));
      if (unit->trace) r.evidence.push_back(absl::StrCat("trace: ", *unit->trace));
    }
    AddRemoteTopicEvidence(facts, now_ms, &r.evidence);
    std::string next;
    const std::set<std::string> create_denied = CreateDenied(facts);
    if (first.role == "source" && !create_denied.empty() && first.trace &&
        LooksLikeAuthorization(*first.trace)) {
      // The target refused to create the remote topics, and then (its broker creating topics
      // on metadata requests) the writes to them: CREATE is what is missing, not WRITE.
      next = absl::StrCat(
          "The target refused to create remote topic(s) ", absl::StrJoin(create_denied, ", "),
          ": grant the MirrorSource connector's principal CREATE on them on cluster ", facts.target,
          " (kafka-acls.sh --add --allow-principal User:<connectd> --operation "
          "Create --topic <topic>) or create them there with the source topic's partition count, "
          "then restart the task: curl -X POST '<worker>/connectors/",
          first.connector, "/restart?includeTasks=true&onlyFailed=true'");
    } else if (first.trace && LooksLikeAuthorization(*first.trace)) {
      next = absl::StrCat(
          "The ", first.role == "heartbeat" ? "heartbeat" : "replication",
          " writes were refused by an authorizer: grant the connectd principal WRITE (and "
          "DESCRIBE) on the topics of ",
          first.role == "heartbeat" && facts.heartbeats_on_source ? facts.source : facts.target,
          ", then restart it: curl -X POST '<worker>/connectors/", first.connector,
          "/restart?includeTasks=true&onlyFailed=true'");
    } else {
      next = absl::StrCat("Read the trace of ", UnitName(first),
                          ", fix the cause, then restart "
                          "it: curl -X POST '<worker>/connectors/",
                          first.connector, "/restart?includeTasks=true&onlyFailed=true'");
    }
    return Finish(
        Verdict::kTaskFailed,
        absl::StrCat(flow, ": ", UnitName(first), " FAILED",
                     failed.size() > 1 ? absl::StrCat(" (+", failed.size() - 1, " more)") : ""),
        std::move(next));
  }
  return std::nullopt;
}

// 2. CLUSTER UNREACHABLE: the cause of the stalls, overdue heartbeats and silent tasks that
// follow (workers whose internal topics live there revoke their own tasks).
std::optional<Outcome> ClusterUnreachable(RuleContext& c) {
  auto& [facts, r, now_ms, t, flow] = c;
  std::vector<const LegFacts*> unreachable_legs;
  for (const LegFacts* leg : {&facts.emit, &facts.replication}) {
    // Named before the overdue heartbeats read as lag.
    if (Unreachable(*leg, now_ms, std::min(3 * t.heartbeat_interval_ms, t.lag_ms)) &&
        (unreachable_legs.empty() || unreachable_legs.front()->cluster != leg->cluster)) {
      unreachable_legs.push_back(leg);
    }
  }
  if (!unreachable_legs.empty()) {
    std::vector<std::string> clusters;
    for (const LegFacts* leg : unreachable_legs) {
      clusters.push_back(leg->cluster);
      r.evidence.push_back(
          absl::StrCat("cluster ", leg->cluster, " does not answer: ", leg->error->message,
                       " (last reported ", Seconds(now_ms - leg->error->at_ms), " ago)"));
    }
    AddUnitEvidence(facts, &r.evidence);
    const std::string names = absl::StrJoin(clusters, " and ");
    return Finish(
        Verdict::kClusterUnreachable,
        absl::StrCat(flow, ": cluster ", names, " cannot be reached from this worker"),
        absl::StrCat("Check that the brokers of ", names,
                     " are up and reachable from the connectd workers (the flow's bootstrap "
                     "servers, the network, TLS/SASL settings). Replication resumes by itself "
                     "once it answers; workers whose internal topics live there stop their tasks "
                     "until then, so restarting tasks does not help"));
  }
  return std::nullopt;
}

// 3. STALLED — PARTITIONS: partitions that cannot be read, whatever the heartbeats say.
std::optional<Outcome> StalledPartitions(RuleContext& c) {
  auto& [facts, r, now_ms, t, flow] = c;
  std::map<std::string, std::vector<const PartitionFacts*>> by_error;
  bool authorization = false;
  std::set<std::string> denied_topics;
  for (const PartitionFacts& p : facts.partitions) {
    if (p.error.empty()) continue;
    by_error[p.error].push_back(&p);
    if (p.authorization_error) {
      authorization = true;
      denied_topics.insert(p.source_topic);
    }
  }
  std::vector<std::string> summaries;
  std::vector<std::string> next_steps;
  if (!by_error.empty()) {
    std::set<std::string> topics;
    for (const auto& [error, partitions] : by_error) {
      for (const PartitionFacts* p : partitions) topics.insert(p->source_topic);
      r.evidence.push_back(absl::StrCat(
          "cannot read ", PartitionList(partitions), " on ", facts.source, ": ", error, " (",
          ErrorTimes(partitions, Side::kSource, now_ms), "; nothing read since)"));
    }
    if (authorization) {
      next_steps.push_back(
          absl::StrCat("Grant the connectd principal READ (and DESCRIBE) on topic(s) ",
                       absl::StrJoin(denied_topics, ", "), " of cluster ", facts.source,
                       ", e.g. kafka-acls.sh --add --allow-principal User:<connectd> "
                       "--operation Read --topic <topic>; the partitions resume by themselves "
                       "once records flow"));
    } else {
      next_steps.push_back(
          absl::StrCat("Check topic(s) ", absl::StrJoin(topics, ", "), " on cluster ", facts.source,
                       " (the error above) and the MirrorSource task's log; the partitions "
                       "count as stalled until records of them are read again"));
    }
    summaries.push_back(absl::StrCat(r.partitions_with_errors, " of ", r.partition_count,
                                     " partition(s) cannot be read (", absl::StrJoin(topics, ", "),
                                     ")"));
  }
  // Pass-through partitions whose batches the target does not take: the side to look at is B.
  std::map<std::string, std::vector<const PartitionFacts*>> by_target_error;
  for (const PartitionFacts& p : facts.partitions) {
    if (!p.target_error.empty()) by_target_error[p.target_error].push_back(&p);
  }
  if (!by_target_error.empty()) {
    std::set<std::string> topics;
    size_t count_partitions = 0;
    for (const auto& [error, partitions] : by_target_error) {
      for (const PartitionFacts* p : partitions) topics.insert(p->topic);
      count_partitions += partitions.size();
      r.evidence.push_back(absl::StrCat(
          "cannot write ", PartitionList(partitions), " to ", facts.target, ": ", error, " (",
          ErrorTimes(partitions, Side::kTarget, now_ms), "; nothing acknowledged since)"));
    }
    next_steps.push_back(absl::StrCat(
        "Check topic(s) ", absl::StrJoin(topics, ", "), " on cluster ", facts.target,
        ": their partition leaders and in-sync replicas (kafka-topics.sh --describe "
        "--under-min-isr-partitions) and the brokers holding them; the batches are sent again "
        "and the partitions resume by themselves"));
    summaries.push_back(absl::StrCat(count_partitions, " of ", r.partition_count,
                                     " partition(s) cannot be written on ", facts.target, " (",
                                     absl::StrJoin(topics, ", "), ")"));
  }
  // Partitions that copy nothing though records wait and nobody reports an error: a stall of
  // the copy itself (a hand-over between the copy paths that stopped, a task that lost the
  // partition). A running MirrorSource only: a paused one stops them on purpose (rule 4).
  const int64_t still_ms = 3 * t.stale_ms;
  bool source_halted = false;
  for (const UnitFacts* unit : UnitsOf(facts, "source")) {
    source_halted = source_halted || unit->state == "PAUSED" || unit->state == "STOPPED";
  }
  std::vector<const PartitionFacts*> still;
  for (const PartitionFacts& p : facts.partitions) {
    if (source_halted || !p.error.empty() || !p.target_error.empty()) continue;
    if (p.position_still_since_ms && now_ms - *p.position_still_since_ms >= still_ms) {
      still.push_back(&p);
    }
  }
  if (!still.empty()) {
    std::set<std::string> topics;
    for (const PartitionFacts* p : still) {
      topics.insert(p->source_topic);
      r.evidence.push_back(absl::StrCat(
          p->source_topic, "-", p->partition, ": position ", *p->position, " has not moved for ",
          Seconds(now_ms - *p->position_still_since_ms), " with ", p->RecordsBehind().value_or(0),
          " record(s) behind the source's end, and no error is reported"));
    }
    next_steps.push_back(absl::StrCat(
        "Read the MirrorSource task's log for ", absl::StrJoin(topics, ", "),
        " (the last \"Copying ...\" line of each partition says which path copies it) and "
        "restart the task if they do not move again; this is a defect of the copy, please "
        "report it with that log"));
    summaries.push_back(absl::StrCat(still.size(), " of ", r.partition_count,
                                     " partition(s) copy nothing though records wait (",
                                     absl::StrJoin(topics, ", "), ")"));
  }
  // Remote topics the connector cannot create (or grow) on the target: their records wait.
  if (!facts.remote_topics.empty()) {
    std::set<std::string> denied_create, denied_alter, other;
    AddRemoteTopicEvidence(facts, now_ms, &r.evidence);
    for (const RemoteTopicFacts& t : facts.remote_topics) {
      const bool create = t.operation != "create-partitions";
      (t.authorization_error ? (create ? denied_create : denied_alter) : other).insert(t.topic);
    }
    std::set<std::string> all;
    for (const RemoteTopicFacts& t : facts.remote_topics) all.insert(t.topic);
    if (!denied_create.empty()) {
      next_steps.push_back(absl::StrCat(
          "Grant the MirrorSource connector's target principal CREATE on topic(s) ",
          absl::StrJoin(denied_create, ", "), " of cluster ", facts.target,
          " (kafka-acls.sh --add --allow-principal User:<connectd> --operation Create --topic "
          "<topic>), or create them there with the source topic's partition count"));
    }
    if (!denied_alter.empty()) {
      next_steps.push_back(
          absl::StrCat("Grant the MirrorSource connector's target principal ALTER on topic(s) ",
                       absl::StrJoin(denied_alter, ", "), " of cluster ", facts.target,
                       ", or add the partitions there yourself"));
    }
    if (!other.empty()) {
      next_steps.push_back(absl::StrCat("Fix the error above on cluster ", facts.target,
                                        " (topic policy, replication.factor, "
                                        "partition limits) or create topic(s) ",
                                        absl::StrJoin(other, ", "), " there yourself"));
    }
    next_steps.push_back(
        "the connector retries every refresh.topics.interval.seconds and the waiting records "
        "are copied then");
    summaries.push_back(absl::StrCat("remote topic(s) ", absl::StrJoin(all, ", "),
                                     " cannot be made on ", facts.target, ", their records wait"));
  }
  if (!summaries.empty()) {
    return Finish(
        Verdict::kStalledPartitions,
        absl::StrCat(flow, ": ", absl::StrJoin(summaries, "; "), "; the others replicate"),
        absl::StrJoin(next_steps, "; "));
  }
  return std::nullopt;
}

// 4. UNMONITORED: nothing proves the flow, so nothing may call it HEALTHY. A MirrorSource
// that is paused or stopped is a stall known without heartbeats.
std::optional<Outcome> Unmonitored(RuleContext& c) {
  auto& [facts, r, now_ms, t, flow] = c;
  const UnitFacts* heartbeat_halted = nullptr;
  for (const UnitFacts* unit : UnitsOf(facts, "heartbeat")) {
    if (unit->state == "PAUSED" || unit->state == "STOPPED") {
      heartbeat_halted = unit;
      break;
    }
  }
  if (!facts.heartbeats_enabled || heartbeat_halted != nullptr) {
    for (const UnitFacts* unit : UnitsOf(facts, "source")) {
      if (unit->state != "PAUSED" && unit->state != "STOPPED") continue;
      AddUnitEvidence(facts, &r.evidence);
      return Finish(
          Verdict::kStalledReplicationLeg,
          absl::StrCat(flow, ": MirrorSource is ", unit->state, ", nothing reaches ", facts.target),
          NextStepForState(*unit));
    }
    AddUnitEvidence(facts, &r.evidence);
    std::string why, next;
    if (facts.connectors.count("heartbeat") == 0) {
      why = "it has no MirrorHeartbeatConnector";
      next =
          absl::StrCat("Create a MirrorHeartbeatConnector with source.cluster.alias=", facts.source,
                       " and target.cluster.alias=", facts.target,
                       ": its heartbeats are what proves that records still reach ", facts.target);
    } else if (heartbeat_halted != nullptr) {
      why = absl::StrCat("its heartbeat connector ", heartbeat_halted->connector, " is ",
                         heartbeat_halted->state);
      next = NextStepForState(*heartbeat_halted);
    } else {
      why = absl::StrCat("its heartbeat connector ", facts.connectors.at("heartbeat"),
                         " emits none (emit.heartbeats.enabled=false or a negative interval)");
      next = absl::StrCat("Set emit.heartbeats.enabled=true on connector ",
                          facts.connectors.at("heartbeat"),
                          ": without heartbeats nothing proves that records reach ", facts.target);
    }
    r.evidence.push_back(absl::StrCat("not monitored: ", why));
    return Finish(Verdict::kUnmonitored,
                  absl::StrCat(flow, ": not monitored, ", why, " (task states alone say little)"),
                  std::move(next));
  }
  return std::nullopt;
}

// 5. REBALANCING (a storm): the flow's units keep moving; stalls and silent tasks follow.
// The storm is over once neither a unit moved nor the group rebalanced for StormQuietMs: group
// rebalances that follow the last unit move without such a pause prolong it (a later one
// starts nothing by itself).
std::optional<Outcome> RebalanceStorm(RuleContext& c) {
  auto& [facts, r, now_ms, t, flow] = c;
  int64_t last_change = facts.assignment_changes_ms.empty()
                            ? 0
                            : *std::max_element(facts.assignment_changes_ms.begin(),
                                                facts.assignment_changes_ms.end());
  for (int64_t at : facts.group_rebalances_ms) {
    if (last_change > 0 && at > last_change && at - last_change <= StormQuietMs(t)) {
      last_change = at;
    }
  }
  if (r.rebalances_in_window >= t.rebalance_threshold && now_ms - last_change <= StormQuietMs(t)) {
    AddUnitEvidence(facts, &r.evidence);
    r.evidence.push_back(absl::StrCat("last rebalance ", Seconds(now_ms - last_change),
                                      " ago; the storm is over after ", Seconds(StormQuietMs(t)),
                                      " without one"));
    return Finish(Verdict::kRebalancing,
                  absl::StrCat(flow, ": ", r.rebalances_in_window,
                               " rebalance(s) of its connectors and tasks in the last ",
                               Seconds(t.rebalance_window_ms)),
                  StormNextStep());
  }
  return std::nullopt;
}

// 6. METRICS ABSENT.
std::optional<Outcome> MetricsAbsent(RuleContext& c) {
  auto& [facts, r, now_ms, t, flow] = c;
  std::vector<const UnitFacts*> absent;
  for (const UnitFacts& unit : facts.units) {
    if (unit.state == "RUNNING" && (unit.metrics == MetricsState::kAbsent ||
                                    unit.metrics == MetricsState::kOwnerUnreachable)) {
      absent.push_back(&unit);
    }
  }
  if (!absent.empty()) {
    std::vector<std::string> workers;
    bool unreachable = false;
    for (const UnitFacts* unit : absent) {
      r.evidence.push_back(
          absl::StrCat(UnitState(*unit), " but reports nothing: ", unit->metrics_detail));
      if (unit->metrics == MetricsState::kOwnerUnreachable) {
        unreachable = true;
        if (std::find(workers.begin(), workers.end(), unit->worker_id) == workers.end()) {
          workers.push_back(unit->worker_id);
        }
      }
    }
    std::string next =
        unreachable
            ? absl::StrCat("Worker ", absl::StrJoin(workers, ", "),
                           " does not answer: check whether it is alive; if it died, its tasks "
                           "move to other workers after scheduled.rebalance.max.delay.ms")
            : absl::StrCat("Task ", absent.front()->connector, "-", absent.front()->task,
                           " is RUNNING without publishing metrics (a dead or stuck task): "
                           "restart it with curl -X POST <worker>/connectors/",
                           absent.front()->connector, "/tasks/", absent.front()->task, "/restart");
    return Finish(Verdict::kMetricsAbsent,
                  absl::StrCat(flow, ": ", absent.size(), " running unit(s) report nothing",
                               unreachable ? absl::StrCat(" (worker ", absl::StrJoin(workers, ", "),
                                                          " unreachable)")
                                           : ""),
                  std::move(next));
  }
  return std::nullopt;
}

// 7. STARTING: heartbeats are expected, none has crossed yet, and the flow is young.
std::optional<Outcome> Starting(RuleContext& c) {
  auto& [facts, r, now_ms, t, flow] = c;
  const LegFacts& proving = facts.heartbeats_on_source ? facts.replication : facts.emit;
  const int64_t expected_for = now_ms - facts.heartbeats_expected_since_ms;
  if (facts.heartbeats_expected_since_ms > 0 && !proving.last_arrival_ms &&
      expected_for <= t.stale_ms) {
    AddUnitEvidence(facts, &r.evidence);
    r.evidence.push_back(absl::StrCat("waiting for the flow's first heartbeat on ", proving.topic,
                                      " (", proving.cluster, ") for ", Seconds(expected_for),
                                      "; STALLED if none arrives within ", Seconds(t.stale_ms)));
    return Finish(
        Verdict::kStarting,
        absl::StrCat(flow, ": starting, no heartbeat has crossed to ", proving.cluster, " yet"),
        absl::StrCat("Wait for the first heartbeat: MirrorSource creates ", facts.replication.topic,
                     " on ", facts.target, " when it next lists the topics of ", facts.source,
                     " (refresh.topics.interval.seconds); a deploy check should "
                     "wait for HEALTHY"));
  }
  return std::nullopt;
}

// A stall whose cause is known (the leg's writer is not RUNNING) needs no threshold's worth of
// patience: 3 missed intervals are enough.
std::optional<Outcome> StalledLeg(RuleContext& c) {
  auto& [facts, r, now_ms, t, flow] = c;
  const int64_t explained_ms = 3 * t.heartbeat_interval_ms;
  const bool emitter_down =
      facts.connectors.count("heartbeat") != 0 && NotRunning(facts, "heartbeat") != nullptr;
  const bool replicator_down =
      facts.connectors.count("source") != 0 && NotRunning(facts, "source") != nullptr;
  r.emit.stale = r.emit.stale || (emitter_down && Stale(facts.emit, now_ms, explained_ms));
  r.replication.stale = r.replication.stale || ((emitter_down || replicator_down) &&
                                                Stale(facts.replication, now_ms, explained_ms));
  const bool emit_stale = facts.heartbeats_enabled && r.emit.stale;
  const bool replication_stale = facts.heartbeats_enabled && r.replication.stale;

  // 8. STALLED — EMIT LEG.
  if (emit_stale) {
    AddUnitEvidence(facts, &r.evidence);
    std::string next;
    if (facts.connectors.count("heartbeat") == 0) {
      next = absl::StrCat("Create a MirrorHeartbeatConnector for ", flow,
                          ": flow health reads its heartbeats");
    } else if (const UnitFacts* down = NotRunning(facts, "heartbeat")) {
      next = NextStepForState(*down);
    } else if (UnitsOf(facts, "heartbeat").size() < 2) {
      next = absl::StrCat("MirrorHeartbeatConnector ", facts.connectors.at("heartbeat"),
                          " has no task: check emit.heartbeats.enabled and "
                          "emit.heartbeats.interval.seconds");
    } else if (facts.emit.error && LooksUnreachable(facts.emit.error->message)) {
      next = ABrokerIsGone(facts.emit.cluster, facts.emit.topic);
    } else if (facts.emit.error) {
      next = absl::StrCat("Cluster ", facts.emit.cluster, " does not serve ", facts.emit.topic,
                          ": check that its brokers are up and reachable from connectd "
                          "(the error above), and that they accept writes");
    } else {
      next = absl::StrCat("The heartbeat task runs but nothing reaches ", facts.emit.topic, " on ",
                          facts.emit.cluster, ": check its worker's log for delivery errors");
    }
    return Finish(Verdict::kStalledEmitLeg,
                  absl::StrCat(flow, ": no heartbeat emitted on ", facts.emit.cluster, " for ",
                               r.emit.age_ms ? Seconds(*r.emit.age_ms) : "the whole watch"),
                  std::move(next));
  }

  // 8. STALLED — REPLICATION LEG (after the emit leg's).
  if (replication_stale) {
    AddUnitEvidence(facts, &r.evidence);
    std::string next;
    if (facts.connectors.count("source") == 0) {
      next = absl::StrCat("Create a MirrorSourceConnector for ", flow);
    } else if (const UnitFacts* down = NotRunning(facts, "source")) {
      next = NextStepForState(*down);
    } else if (facts.replication.error && LooksUnreachable(facts.replication.error->message)) {
      next = ABrokerIsGone(facts.target, facts.replication.topic);
    } else if (facts.replication.error) {
      next = LooksLikeAuthorization(facts.replication.error->message)
                 ? absl::StrCat("Reading ", facts.replication.topic, " on ", facts.target,
                                " is not authorized: check the ACLs of the connectd principal")
                 : absl::StrCat("Cluster ", facts.target,
                                " does not serve the replicated heartbeats: check that its "
                                "brokers are up and reachable from connectd (the error above)");
    } else {
      next = absl::StrCat("MirrorSource runs but ", facts.replication.topic, " on ", facts.target,
                          " gets nothing: check its tasks' logs for produce errors and that the "
                          "topic can be created on ",
                          facts.target);
    }
    return Finish(Verdict::kStalledReplicationLeg,
                  absl::StrCat(flow, ": heartbeats emitted on ", facts.emit.cluster,
                               " do not reach ", facts.target),
                  std::move(next));
  }
  return std::nullopt;
}

// 9. REBALANCING: a unit between workers.
std::optional<Outcome> Rebalancing(RuleContext& c) {
  auto& [facts, r, now_ms, t, flow] = c;
  const UnitFacts* moving = nullptr;
  for (const UnitFacts& unit : facts.units) {
    if (unit.state == "UNASSIGNED" || unit.state == "RESTARTING") {
      moving = &unit;
      break;
    }
  }
  if (moving != nullptr) {
    r.evidence.push_back(UnitState(*moving));
    return Finish(Verdict::kRebalancing,
                  absl::StrCat(flow, ": ", UnitName(*moving), " is ", moving->state, "; ",
                               r.rebalances_in_window, " rebalance(s) in the last ",
                               Seconds(t.rebalance_window_ms)),
                  StormNextStep());
  }
  return std::nullopt;
}

// 10. SUSPECT CLOCK SKEW.
std::optional<Outcome> SuspectClockSkew(RuleContext& c) {
  auto& [facts, r, now_ms, t, flow] = c;
  for (const LegFacts* leg : {&facts.emit, &facts.replication}) {
    bool future = leg->skew_seen_ms && now_ms - *leg->skew_seen_ms <= t.stale_ms;
    bool negative = leg == &facts.replication && leg->latency_ms &&
                    *leg->latency_ms < -t.clock_skew_tolerance_ms;
    if (!future && !negative) continue;
    r.evidence.push_back(
        future ? absl::StrCat("a heartbeat on ", leg->topic, " (", leg->cluster, ") is stamped ",
                              Seconds(leg->skew_ms), " in the future of this worker's clock")
               : absl::StrCat("heartbeat latency is negative: ", Seconds(*leg->latency_ms)));
    return Finish(Verdict::kSuspectClockSkew,
                  absl::StrCat(flow, ": heartbeat timestamps disagree with this worker's clock by ",
                               Seconds(future ? leg->skew_ms : -*leg->latency_ms)),
                  "Compare the clocks of the hosts running connectd's workers and the brokers "
                  "(timedatectl / chronyc tracking); latencies are meaningless until they agree");
  }
  return std::nullopt;
}

// 11. LAGGING: throttling named when the target throttles the tasks' producers, or the
// source their consumers.
std::optional<Outcome> Lagging(RuleContext& c) {
  auto& [facts, r, now_ms, t, flow] = c;
  if (facts.heartbeats_enabled && r.latency_ms && *r.latency_ms > t.lag_ms &&
      (r.producer_throttle_ms || r.consumer_throttle_ms)) {
    std::vector<std::string> who, raise;
    if (r.producer_throttle_ms) {
      who.push_back(facts.target);
      raise.push_back(
          absl::StrCat(facts.target, " throttles MirrorSource's producer (a client quota: ",
                       "produce-throttle-time-max ", static_cast<int64_t>(*r.producer_throttle_ms),
                       " ms): raise producer_byte_rate for client id ", facts.throttled_producer,
                       " on ", facts.target));
    }
    if (r.consumer_throttle_ms) {
      who.push_back(facts.source);
      raise.push_back(
          absl::StrCat(facts.source, " throttles MirrorSource's consumer (a client quota: ",
                       "fetch-throttle-time-max ", static_cast<int64_t>(*r.consumer_throttle_ms),
                       " ms): raise consumer_byte_rate for client id ", facts.throttled_consumer,
                       " on ", facts.source));
    }
    return Finish(
        Verdict::kLagging,
        absl::StrCat(flow, ": heartbeats ", r.latency_overdue ? "overdue by " : "arrive ",
                     Seconds(*r.latency_ms), r.latency_overdue ? "" : " after emission",
                     " (threshold ", Seconds(t.lag_ms), "), ", r.latency_trend, "; ",
                     absl::StrJoin(who, " and "), " throttle", who.size() == 1 ? "s" : "",
                     " the replication"),
        absl::StrCat(absl::StrJoin(raise, "; "),
                     " (kafka-configs --entity-type clients, or the user's quota), or accept the "
                     "lag; more tasks do not help while the quota holds"));
  }
  if (facts.heartbeats_enabled && r.latency_ms && *r.latency_ms > t.lag_ms) {
    return Finish(Verdict::kLagging,
                  absl::StrCat(flow, ": heartbeats ", r.latency_overdue ? "overdue by " : "arrive ",
                               Seconds(*r.latency_ms), r.latency_overdue ? "" : " after emission",
                               " (threshold ", Seconds(t.lag_ms), "), ", r.latency_trend),
                  absl::StrCat("Replication to ", facts.target,
                               " is slower than the source produces: check throttling (client "
                               "quotas) and load on ",
                               facts.target,
                               ", record-age-ms and the tasks' record-rate; consider "
                               "more tasks (tasks.max)"));
  }
  return std::nullopt;
}

// 12. HEALTHY, once it has held: a flow that just recovered keeps its last problem's verdict
// for the hold, so a verdict does not flap with every passing good moment of a storm.
std::optional<Outcome> RecoveryHold(RuleContext& c) {
  auto& [facts, r, now_ms, t, flow] = c;
  if (facts.recent_problem && now_ms - facts.recent_problem_ms < RecoveryHoldMs(t)) {
    r.recovering = true;
    r.evidence.push_back(absl::StrCat("every check passes since ",
                                      Seconds(now_ms - facts.recent_problem_ms), " ago; ",
                                      std::string(VerdictName(*facts.recent_problem)),
                                      " until it holds for ", Seconds(RecoveryHoldMs(t))));
    return Finish(
        *facts.recent_problem,
        absl::StrCat(flow, ": recovering from ", std::string(VerdictName(*facts.recent_problem))),
        "Nothing to do unless it comes back: the flow works again and is HEALTHY "
        "once that holds");
  }
  return std::nullopt;
}

Outcome Healthy(RuleContext& c) {
  auto& [facts, r, now_ms, t, flow] = c;
  if (r.skipped_offsets > 0) {
    return Finish(Verdict::kHealthy, absl::StrCat(flow, ": heartbeats arrive on both legs"),
                  absl::StrCat("Nothing to do for the flow now; records were lost to retention "
                               "on ",
                               facts.source,
                               " before they were copied (see the evidence): "
                               "raise retention.ms there if the target must have every record"));
  }
  return Finish(Verdict::kHealthy, absl::StrCat(flow, ": heartbeats arrive on both legs"),
                "Nothing to do");
}

using Rule = std::optional<Outcome> (*)(RuleContext&);

// The first rule that decides gives the verdict; HEALTHY when none does.
constexpr Rule kRules[] = {TaskFailed,     ClusterUnreachable, StalledPartitions, Unmonitored,
                           RebalanceStorm, MetricsAbsent,      Starting,          StalledLeg,
                           Rebalancing,    SuspectClockSkew,   Lagging,           RecoveryHold};

}  // namespace

FlowReport Evaluate(const FlowFacts& facts, int64_t now_ms) {
  const Thresholds& t = facts.thresholds;
  FlowReport r;
  r.source = facts.source;
  r.target = facts.target;
  r.thresholds = t;
  r.heartbeats_on_source = facts.heartbeats_on_source;
  r.connectors = facts.connectors;
  r.units = facts.units;
  r.emit = ReportLeg(facts.emit, now_ms, t.stale_ms);
  r.replication = ReportLeg(facts.replication, now_ms, t.stale_ms);
  r.latency_ms = facts.replication.latency_ms;
  // Overdue heartbeats are latency too: while A has fresh heartbeats newer than B's newest, the
  // one emitted an interval after B's newest is at least this late (a throttled flow delivers
  // in pauses; a stall starts as lag and turns STALLED at the stale threshold).
  if (facts.heartbeats_on_source && facts.replication.expected &&
      facts.replication.newest_timestamp_ms && facts.emit.last_arrival_ms &&
      now_ms - *facts.emit.last_arrival_ms <= t.stale_ms && facts.emit.newest_timestamp_ms &&
      *facts.emit.newest_timestamp_ms > *facts.replication.newest_timestamp_ms &&
      *facts.replication.newest_timestamp_ms <= now_ms) {
    const int64_t overdue =
        now_ms - *facts.replication.newest_timestamp_ms - t.heartbeat_interval_ms;
    if (overdue > 0 && overdue > r.latency_ms.value_or(0)) {
      r.latency_ms = overdue;
      r.latency_overdue = true;
    }
  }
  r.metric_latency_ms = facts.metric_latency_ms;
  r.metric_record_age_ms = facts.metric_record_age_ms;
  r.skipped_offsets = facts.skipped_offsets;
  r.topic_recreations = facts.topic_recreations;
  r.truncated_offsets = facts.truncated_offsets;
  r.producer_throttle_ms = facts.producer_throttle_ms;
  r.consumer_throttle_ms = facts.consumer_throttle_ms;
  r.latency_trend_ms_per_min =
      LatencySlopePerMinute(facts.replication.latency_history, now_ms, 60000);
  // Rising/falling: the latency changes by more than a tenth of the lag threshold per minute.
  const double trend_step = static_cast<double>(t.lag_ms) / 10.0;
  r.latency_trend = !r.latency_trend_ms_per_min                 ? "unknown"
                    : *r.latency_trend_ms_per_min > trend_step  ? "rising"
                    : *r.latency_trend_ms_per_min < -trend_step ? "falling"
                                                                : "steady";
  for (int64_t at : facts.assignment_changes_ms) {
    if (now_ms - at <= t.rebalance_window_ms) ++r.rebalances_in_window;
  }
  SummarizePartitions(facts, &r);

  const std::string flow = absl::StrCat(facts.source, "->", facts.target);
  const std::string emit_text = LegText("emit", facts.emit, r.emit);
  const std::string replication_text = LegText("replication", facts.replication, r.replication);
  // The rule's verdict, then the evidence every verdict carries.
  auto finish = [&](Outcome outcome) {
    r.verdict = outcome.verdict;
    r.summary = std::move(outcome.summary);
    r.next_step = std::move(outcome.next_step);
    r.evidence.push_back(emit_text);
    r.evidence.push_back(replication_text);
    if (r.latency_ms) {
      r.evidence.push_back(absl::StrCat(
          r.latency_overdue ? "heartbeats overdue on the target by " : "heartbeat latency ",
          Seconds(*r.latency_ms), " (", r.latency_trend, ")"));
    }
    if (r.metric_latency_ms) {
      r.evidence.push_back(
          absl::StrCat("replication-latency-ms-max ", static_cast<int64_t>(*r.metric_latency_ms)));
    }
    if (r.partition_count > 0) {
      r.evidence.push_back(absl::StrCat(
          r.partition_count, " partition(s) report, ", r.records_behind,
          " record(s) behind the source's end",
          r.oldest_unreplicated_age_ms && *r.oldest_unreplicated_age_ms > 0
              ? absl::StrCat(", the oldest record not yet on ", facts.target, " was written ",
                             Seconds(*r.oldest_unreplicated_age_ms), " ago")
              : "",
          r.partitions_with_errors > 0
              ? absl::StrCat(", ", r.partitions_with_errors, " with a read error")
              : ""));
    }
    if (r.producer_throttle_ms) {
      r.evidence.push_back(absl::StrCat(facts.target, " throttles MirrorSource's producer ",
                                        facts.throttled_producer, ": produce-throttle-time-max ",
                                        static_cast<int64_t>(*r.producer_throttle_ms), " ms"));
    }
    if (r.consumer_throttle_ms) {
      r.evidence.push_back(absl::StrCat(facts.source, " throttles MirrorSource's consumer ",
                                        facts.throttled_consumer, ": fetch-throttle-time-max ",
                                        static_cast<int64_t>(*r.consumer_throttle_ms), " ms"));
    }
    if (r.skipped_offsets > 0) {
      r.evidence.push_back(absl::StrCat(
          static_cast<int64_t>(r.skipped_offsets), " offset(s) were deleted on ", facts.source,
          " (retention) before they were replicated (skipped-offset-count; the tasks' logs name "
          "the partitions and offsets)"));
    }
    if (r.truncated_offsets > 0) {
      r.evidence.push_back(absl::StrCat(
          static_cast<int64_t>(r.truncated_offsets), " offset(s) copied to ", facts.target,
          " are not on ", facts.source,
          " any more: an unclean leader election truncated the source partition's log below "
          "them (source-truncated-offset-count; the tasks' logs name the partitions and "
          "offsets); ",
          facts.target,
          " keeps those records, the source's new records at the same offsets "
          "follow them"));
    }
    if (r.topic_recreations > 0) {
      r.evidence.push_back(absl::StrCat(
          static_cast<int64_t>(r.topic_recreations), " partition(s) of re-created source topics ",
          "copied from the new topic's beginning (source-topic-recreated-count)"));
    }
    if (r.rebalances_in_window > 0) {
      r.evidence.push_back(absl::StrCat(r.rebalances_in_window,
                                        " assignment change(s) in the last ",
                                        Seconds(t.rebalance_window_ms)));
    }
    return r;
  };

  RuleContext context{facts, r, now_ms, t, flow};
  for (Rule rule : kRules) {
    if (std::optional<Outcome> outcome = rule(context)) return finish(*std::move(outcome));
  }
  return finish(Healthy(context));
}

}  // namespace connectd::health
