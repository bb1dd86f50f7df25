#include "runtime/mirror_maker/health/flow_health.h"

#include <librdkafka/rdkafka.h>

#include <algorithm>
#include <cmath>
#include <future>
#include <set>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "connectors/mirror_client/client_props.h"
#include "connectors/mirror_client/replication_policy.h"
#include "runtime/common/logging.h"
#include "runtime/mirror_maker/health/heartbeat_leg.h"
#include "runtime/mirror_maker/health/mirror_task_metrics.h"

namespace connectd::health {
namespace {

constexpr char kLogger[] = "connectd.health.FlowHealth";
constexpr char kDomain[] = "connectd.mirror";
constexpr char kGroup[] = "flow";
// A RUNNING unit must report nothing this long before it counts as METRICS ABSENT: statuses,
// task configs and other workers' metrics are refreshed at different moments.
constexpr int64_t kAbsentGraceMs = 3000;
// Assignment changes closer together than this are one rebalance.
constexpr int64_t kRebalanceCoalesceMs = 5000;

using Props = std::map<std::string, std::string>;

std::string RoleOf(const Props& config) {
  auto it = config.find("connector.class");
  if (it == config.end()) return "";
  std::string cls = it->second;
  const std::string prefix = "org.apache.kafka.connect.mirror.";
  if (cls.compare(0, prefix.size(), prefix) == 0) cls = cls.substr(prefix.size());
  if (cls == "MirrorSourceConnector") return "source";
  if (cls == "MirrorCheckpointConnector") return "checkpoint";
  if (cls == "MirrorHeartbeatConnector") return "heartbeat";
  return "";
}

std::string Get(const Props& props, const std::string& key, const std::string& fallback) {
  auto it = props.find(key);
  return it == props.end() ? fallback : it->second;
}

std::optional<int64_t> Whole(const MirrorPartitionMetrics& p, std::string_view name) {
  std::optional<double> value = p.values.Finite(name);
  if (!value) return std::nullopt;
  return static_cast<int64_t>(*value);
}

// A partition's facts from its MirrorSource metrics (mirror_source_task.h names them).
PartitionFacts ToPartitionFacts(const MirrorPartitionMetrics& p,
                                const std::map<std::string, std::string>& source_topic_of) {
  PartitionFacts out;
  out.topic = p.topic;
  auto source = source_topic_of.find(p.topic);
  out.source_topic = source != source_topic_of.end() ? source->second : p.topic;
  out.partition = p.partition;
  out.end_offset = Whole(p, "source-end-offset");
  out.position = Whole(p, "source-position");
  out.oldest_unreplicated_age_ms = Whole(p, "oldest-unreplicated-age-ms");
  const int64_t code = Whole(p, "fetch-error-code").value_or(0);
  if (code != 0) {
    const auto err = static_cast<rd_kafka_resp_err_t>(code);
    out.error = rd_kafka_err2str(err);
    out.authorization_error = err == RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED ||
                              err == RD_KAFKA_RESP_ERR_CLUSTER_AUTHORIZATION_FAILED;
    out.error_count = Whole(p, "fetch-error-count").value_or(0);
    out.error_first_ms = Whole(p, "fetch-error-first-ms");
    out.error_last_ms = Whole(p, "fetch-error-last-ms");
  }
  if (const int64_t target_code = Whole(p, "produce-error-code").value_or(0); target_code != 0) {
    out.target_error = rd_kafka_err2str(static_cast<rd_kafka_resp_err_t>(target_code));
    out.target_error_count = Whole(p, "produce-error-count").value_or(0);
    out.target_error_first_ms = Whole(p, "produce-error-first-ms");
    out.target_error_last_ms = Whole(p, "produce-error-last-ms");
  }
  return out;
}

// A remote topic's admin error as flow health reports it.
RemoteTopicFacts ToRemoteTopicFacts(const RemoteTopicError& e,
                                    const std::map<std::string, std::string>& source_topic_of) {
  RemoteTopicFacts out;
  out.topic = e.topic;
  auto source = source_topic_of.find(e.topic);
  out.source_topic = source != source_topic_of.end() ? source->second : "";
  out.operation = e.operation;
  const auto err = static_cast<rd_kafka_resp_err_t>(e.code);
  out.error = rd_kafka_err2str(err);
  out.authorization_error = err == RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED ||
                            err == RD_KAFKA_RESP_ERR_CLUSTER_AUTHORIZATION_FAILED;
  out.error_count = e.count;
  out.error_first_ms = e.first_ms;
  out.error_last_ms = e.last_ms;
  return out;
}

// Waits for a herder callback; nullopt on timeout (the callback may still run later).
template <typename T>
std::optional<absl::StatusOr<T>> Await(const std::function<void(herder::Callback<T>)>& call,
                                       std::chrono::milliseconds timeout) {
  auto promise = std::make_shared<std::promise<absl::StatusOr<T>>>();
  std::future<absl::StatusOr<T>> future = promise->get_future();
  call([promise](absl::StatusOr<T> result) { promise->set_value(std::move(result)); });
  if (future.wait_for(timeout) != std::future_status::ready) return std::nullopt;
  return future.get();
}

metrics::Sensor* Gauge(metrics::MetricsScope& scope, const std::string& name,
                       const std::string& description, const metrics::Tags& tags, int64_t now) {
  return scope.AddSensor(kDomain, kGroup, tags,
                         {metrics::StatSpec{name, description, metrics::StatKind::kValue}}, now);
}

}  // namespace

// Other workers' GET /mirror/task-metrics answers, by worker id.
struct FlowHealth::Peers {
  struct Peer {
    std::shared_ptr<const WorkerMirrorMetrics> metrics;  // last good answer
    int64_t success_ms = 0;
    std::string error;
    int64_t error_ms = 0;
    bool in_flight = false;
  };
  std::mutex mu;
  std::map<std::string, Peer> by_worker;  // guarded by mu
};

struct FlowHealth::TopicGauges {
  metrics::Sensor* records_behind = nullptr;
  metrics::Sensor* oldest_unreplicated_age = nullptr;
  metrics::Sensor* unreadable = nullptr;
};

struct FlowHealth::PositionSeen {
  int64_t position = 0;
  int64_t since_ms = 0;  // when the position was first seen at this value
};

struct FlowHealth::Flow {
  std::map<std::pair<std::string, int>, PositionSeen> positions_seen;  // remote topic-partition
  std::string source;
  std::string target;
  std::map<std::string, std::vector<std::string>> names;  // role -> connector names
  std::map<std::string, herder::Herder*> herder_of;       // connector -> its herder
  std::vector<int64_t> group_rebalances;  // LastRebalanceMs values seen, oldest first
  std::map<std::string, Props> configs;   // role -> resolved config (first)
  Thresholds thresholds;
  bool heartbeats_on_source = true;
  bool heartbeats_enabled = false;
  int64_t heartbeats_expected_since_ms = 0;  // when heartbeats_enabled last became true
  std::unique_ptr<HeartbeatLeg> emit;
  std::unique_ptr<HeartbeatLeg> replication;
  LegFacts emit_spec_only;  // cluster/topic when a leg has no consumer
  LegFacts replication_spec_only;
  // MirrorSource task -> its remote topic-partitions; remote topic -> source topic.
  std::map<int, std::set<std::pair<std::string, int>>> source_partitions;
  std::map<std::string, std::string> source_topic_of;
  // What they were parsed from: (task, task.assigned.partitions)..., (-1, the source config).
  std::vector<std::pair<int, std::string>> partitions_parsed_from;
  uint64_t topics_generation = 0;  // counts changes of source_topic_of
  MetricsAccount account;
  std::vector<UnitFacts> units;
  std::map<std::pair<std::string, int>, std::string> last_worker;
  std::map<std::pair<std::string, int>, std::string> last_state;
  std::map<std::pair<std::string, int>, int64_t> absent_since;
  std::vector<int64_t> changes;
  std::optional<Verdict> recent_problem;  // see FlowFacts
  int64_t recent_problem_ms = 0;
  // Gauges.
  metrics::Sensor* age_emit = nullptr;
  metrics::Sensor* age_replication = nullptr;
  metrics::Sensor* latency = nullptr;
  metrics::Sensor* stale_threshold = nullptr;
  metrics::Sensor* lag_threshold = nullptr;
  metrics::Sensor* rebalances = nullptr;
  metrics::Sensor* records_behind = nullptr;
  metrics::Sensor* unreadable = nullptr;
  std::map<std::string, TopicGauges> topics;  // source topic -> its gauges
  std::map<Verdict, metrics::Sensor*> verdict;
};

FlowHealth::FlowHealth(herder::Herder& herder, metrics::MetricsRegistry& metrics, Options options)
    : herders_{&herder},
      registry_(metrics),
      options_(std::move(options)),
      scope_(&metrics),
      peers_(std::make_shared<Peers>()) {}

FlowHealth::~FlowHealth() { Stop(); }

void FlowHealth::AddHerder(herder::Herder& herder) { herders_.push_back(&herder); }

void FlowHealth::SetWorkerId(std::string worker_id) {
  std::lock_guard lock(mu_);
  worker_id_ = std::move(worker_id);
}

std::string FlowHealth::WorkerId() const {
  std::lock_guard lock(mu_);
  return worker_id_;
}

void FlowHealth::Start() {
  thread_ = std::thread([this] { Run(); });
}

void FlowHealth::Stop() {
  {
    std::lock_guard lock(mu_);
    if (stopping_ && !thread_.joinable()) return;
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  for (auto& [key, flow] : flows_) RemoveGauges(*flow);
  flows_.clear();
  if (flow_count_ != nullptr) {
    scope_.RemoveSensor(flow_count_);
    flow_count_ = nullptr;
  }
}

void FlowHealth::PublishTargets() {
  std::map<std::pair<std::string, std::string>, FlowTarget> targets;
  for (const auto& [key, flow] : flows_) {
    const Props* config = nullptr;
    for (const char* role : {"checkpoint", "source", "heartbeat"}) {
      if (auto it = flow->configs.find(role); it != flow->configs.end() && config == nullptr) {
        config = &it->second;
      }
    }
    if (config == nullptr) continue;
    FlowTarget& target = targets[key];
    target.client = mirror::ClientProps(*config, "target", "admin");
    for (const auto& [k, v] : *config) {
      if (k.rfind("replication.policy.", 0) == 0) target.policy[k] = v;
    }
  }
  std::lock_guard lock(mu_);
  targets_ = std::move(targets);
}

std::optional<FlowTarget> FlowHealth::Target(const std::string& source,
                                             const std::string& target) const {
  std::lock_guard lock(mu_);
  auto it = targets_.find({source, target});
  if (it == targets_.end()) return std::nullopt;
  return it->second;
}

std::vector<FlowReport> FlowHealth::Reports() const {
  std::vector<FlowFacts> facts;
  {
    std::lock_guard lock(mu_);
    facts = facts_;
  }
  const int64_t now = options_.now_ms ? options_.now_ms() : metrics::NowMs();
  std::vector<FlowReport> out;
  out.reserve(facts.size());
  for (const FlowFacts& f : facts) out.push_back(Evaluate(f, now));
  return out;
}

void FlowHealth::Run() {
  auto next_refresh = std::chrono::steady_clock::now();
  while (true) {
    const auto started = std::chrono::steady_clock::now();
    const bool refresh = started >= next_refresh;
    if (refresh) next_refresh = started + options_.refresh;
    Tick(refresh);
    std::unique_lock lock(mu_);
    if (cv_.wait_until(lock, started + options_.tick, [this] { return stopping_; })) return;
  }
}

void FlowHealth::Tick(bool refresh) {
  auto clock = [this] { return options_.now_ms ? options_.now_ms() : metrics::NowMs(); };
  if (refresh) RefreshFlows(clock());
  int64_t now_ms = clock();
  // This worker's task metrics are taken as often as the other workers' (every refresh).
  if (refresh) {
    local_ =
        std::make_shared<const WorkerMirrorMetrics>(ReadWorkerMirrorMetrics(registry_, now_ms));
  }
  for (auto& [key, flow] : flows_) RefreshUnits(*flow, now_ms);
  if (refresh) FetchPeers();
  std::vector<FlowFacts> all;
  for (auto& [key, flow] : flows_) {
    // Arrival times are taken now: the herder calls above may have taken a while.
    now_ms = clock();
    if (flow->emit) flow->emit->Poll(now_ms, flow->thresholds.clock_skew_tolerance_ms);
    if (flow->replication) {
      flow->replication->Poll(now_ms, flow->thresholds.clock_skew_tolerance_ms);
    }
    FlowFacts facts = BuildFacts(*flow, now_ms);
    FlowReport report = Evaluate(facts, now_ms);
    if (!report.recovering && IsProblem(report.verdict)) {
      flow->recent_problem = report.verdict;
      flow->recent_problem_ms = now_ms;
      facts.recent_problem = flow->recent_problem;
      facts.recent_problem_ms = now_ms;
    }
    Publish(*flow, facts, report, now_ms);
    all.push_back(std::move(facts));
  }
  if (flow_count_ == nullptr) {
    flow_count_ = Gauge(scope_, "count", "MirrorMaker flows known to this worker", {}, now_ms);
  }
  if (flow_count_ != nullptr) flow_count_->Record(static_cast<double>(flows_.size()), now_ms);
  std::lock_guard lock(mu_);
  facts_ = std::move(all);
}

void FlowHealth::RefreshFlows(int64_t now_ms) {
  // Every Mirror*Connector config, grouped by (source alias, target alias).
  struct Seen {
    std::map<std::string, std::vector<std::string>> names;
    std::map<std::string, herder::Herder*> herder_of;
    std::map<std::string, Props> configs;
  };
  std::map<std::pair<std::string, std::string>, Seen> seen;
  for (herder::Herder* herder : herders_) {
    auto names = Await<std::vector<std::string>>(
        [herder](herder::Callback<std::vector<std::string>> done) {
          herder->ListConnectors(std::move(done));
        },
        options_.herder_timeout);
    if (!names || !names->ok()) return;  // keep the previous view this round
    for (const std::string& name : **names) {
      auto config = Await<herder::ConfigMap>(
          [herder, &name](herder::Callback<herder::ConfigMap> done) {
            herder->GetConnectorConfig(name, std::move(done));
          },
          options_.herder_timeout);
      // A slow herder (a rebalance) or a failure: keep the previous view this round rather
      // than lose a flow's history; a connector deleted meanwhile is just skipped.
      if (!config || (!config->ok() && !absl::IsNotFound(config->status()))) return;
      if (!config->ok()) continue;
      std::string role = RoleOf(**config);
      if (role.empty()) continue;
      absl::StatusOr<Props> resolved = options_.providers.Transform(**config);
      if (!resolved.ok()) {
        CONNECTD_LOG(kWarn, kLogger) << "Flow health: cannot resolve the config providers of "
                                     << name << ": " << resolved.status().message();
      }
      const Props& props = resolved.ok() ? *resolved : **config;
      Seen& s = seen[{Get(props, "source.cluster.alias", "source"),
                      Get(props, "target.cluster.alias", "target")}];
      s.names[role].push_back(name);
      s.herder_of[name] = herder;
      s.configs.try_emplace(role, props);
    }
  }

  for (auto it = flows_.begin(); it != flows_.end();) {
    if (seen.count(it->first) == 0) {
      RemoveGauges(*it->second);
      it = flows_.erase(it);
    } else {
      ++it;
    }
  }
  for (auto& [key, s] : seen) {
    std::unique_ptr<Flow>& slot = flows_[key];
    if (!slot) {
      slot = std::make_unique<Flow>();
      slot->source = key.first;
      slot->target = key.second;
    }
    Flow& flow = *slot;
    flow.names = std::move(s.names);
    flow.herder_of = std::move(s.herder_of);
    flow.configs = std::move(s.configs);
    const Props* heartbeat = flow.configs.count("heartbeat") ? &flow.configs["heartbeat"] : nullptr;
    const Props* source = flow.configs.count("source") ? &flow.configs["source"] : nullptr;
    const Props& base = heartbeat ? *heartbeat : source ? *source : flow.configs.begin()->second;

    // Thresholds: the heartbeat connector's interval; health.* from the first role setting it.
    Props merged;
    for (const char* role : {"checkpoint", "source", "heartbeat"}) {
      if (flow.configs.count(role)) {
        for (const auto& [k, v] : flow.configs[role]) {
          if (k.rfind("health.", 0) == 0 || k == "emit.heartbeats.interval.seconds") merged[k] = v;
        }
      }
    }
    flow.thresholds = ThresholdsFromConfig(merged);
    flow.heartbeats_on_source = Get(base, "heartbeats.topic.location", "source") != "target";
    flow.heartbeats_enabled =
        heartbeat != nullptr && Get(*heartbeat, "emit.heartbeats.enabled", "true") != "false" &&
        std::atoll(Get(*heartbeat, "emit.heartbeats.interval.seconds", "1").c_str()) >= 0;

    std::string error;
    std::unique_ptr<mirror::ReplicationPolicy> policy =
        mirror::MakeReplicationPolicy(source ? *source : base, &error);
    const std::string heartbeats = policy ? policy->HeartbeatsTopic() : "heartbeats";
    const std::string remote = policy ? policy->FormatRemoteTopic(flow.source, heartbeats)
                                      : flow.source + "." + heartbeats;

    LegSpec emit{
        flow.heartbeats_on_source ? flow.source : flow.target, heartbeats,
        std::make_pair(flow.source, flow.target),
        mirror::ClientProps(base, flow.heartbeats_on_source ? "source" : "target", "consumer")};
    LegSpec replication{flow.target, remote,
                        flow.heartbeats_on_source
                            ? std::optional(std::make_pair(flow.source, flow.target))
                            : std::nullopt,
                        mirror::ClientProps(source ? *source : base, "target", "consumer")};
    flow.emit_spec_only.cluster = emit.cluster;
    flow.emit_spec_only.topic = emit.topic;
    flow.replication_spec_only.cluster = replication.cluster;
    flow.replication_spec_only.topic = replication.topic;
    if (!flow.heartbeats_enabled) {
      flow.heartbeats_expected_since_ms = 0;
    } else if (flow.heartbeats_expected_since_ms == 0) {
      flow.heartbeats_expected_since_ms = now_ms;
    }
    if (!flow.heartbeats_enabled) {
      flow.emit.reset();
      flow.replication.reset();
    } else {
      if (!flow.emit || !(flow.emit->spec() == emit)) {
        flow.emit = std::make_unique<HeartbeatLeg>(std::move(emit), now_ms);
      }
      if (!flow.replication || !(flow.replication->spec() == replication)) {
        flow.replication = std::make_unique<HeartbeatLeg>(std::move(replication), now_ms);
      }
    }

    // The MirrorSource tasks' partitions, for the metrics check (kept when the herder is slow).
    if (flow.names.count("source") == 0) {
      if (!flow.source_topic_of.empty()) ++flow.topics_generation;
      flow.source_partitions.clear();
      flow.source_topic_of.clear();
      flow.partitions_parsed_from.clear();
    } else {
      const std::string& name = flow.names["source"].front();
      herder::Herder* herder = flow.herder_of[name];
      auto tasks = Await<std::vector<herder::TaskInfo>>(
          [herder, &name](herder::Callback<std::vector<herder::TaskInfo>> done) {
            herder->GetTaskConfigs(name, std::move(done));
          },
          options_.herder_timeout);
      if (!tasks || !tasks->ok()) continue;
      // Parsed again only when the tasks' partitions or the source connector's config changed
      // (10,000 partitions are a 100 KB list).
      std::vector<std::pair<int, std::string>> parsed_from;
      for (const herder::TaskInfo& task : **tasks) {
        parsed_from.emplace_back(task.id.task, Get(task.config, "task.assigned.partitions", ""));
      }
      parsed_from.emplace_back(
          -1, absl::StrJoin(source ? *source : base, "\n", absl::PairFormatter("=")));
      if (parsed_from == flow.partitions_parsed_from) continue;
      flow.partitions_parsed_from = std::move(parsed_from);
      ++flow.topics_generation;
      flow.source_partitions.clear();
      flow.source_topic_of.clear();
      for (const herder::TaskInfo& task : **tasks) {
        std::set<std::pair<std::string, int>>& out = flow.source_partitions[task.id.task];
        std::string assigned = Get(task.config, "task.assigned.partitions", "");
        size_t start = 0;
        while (start < assigned.size()) {
          size_t comma = assigned.find(',', start);
          std::string item = assigned.substr(
              start, comma == std::string::npos ? std::string::npos : comma - start);
          start = comma == std::string::npos ? assigned.size() : comma + 1;
          size_t dash = item.rfind('-');
          if (dash == std::string::npos) continue;
          std::string topic = item.substr(0, dash);
          std::string remote = policy ? policy->FormatRemoteTopic(flow.source, topic) : topic;
          flow.source_topic_of[remote] = topic;
          out.emplace(std::move(remote), std::atoi(item.substr(dash + 1).c_str()));
        }
      }
    }
  }
  PublishTargets();
}

void FlowHealth::RefreshUnits(Flow& flow, int64_t now_ms) {
  flow.units.clear();
  bool changed = false;
  for (const auto& [role, names] : flow.names) {
    for (const std::string& name : names) {
      absl::StatusOr<herder::ConnectorStateInfo> status =
          flow.herder_of[name]->ConnectorStatus(name);
      if (!status.ok()) {
        flow.units.push_back(
            UnitFacts{role, name, -1, "", "", std::nullopt, MetricsState::kNotExpected, ""});
        continue;
      }
      auto add = [&](int task, const herder::StateInfo& state) {
        flow.units.push_back(UnitFacts{role, name, task, state.state, state.worker_id, state.trace,
                                       MetricsState::kNotExpected, ""});
        // A rebalance moved the unit, or took it away (a worker that left, even one that comes
        // back with the same id).
        std::string& last = flow.last_worker[{name, task}];
        if (!last.empty() && !state.worker_id.empty() && last != state.worker_id) changed = true;
        if (!state.worker_id.empty()) last = state.worker_id;
        std::string& last_state = flow.last_state[{name, task}];
        if (last_state == "RUNNING" &&
            (state.state == "UNASSIGNED" || state.state == "RESTARTING" || state.state.empty())) {
          changed = true;
        }
        last_state = state.state;
      };
      add(-1, status->connector);
      for (const herder::TaskStateInfo& task : status->tasks) add(task.id, task.state);
    }
  }
  // Member churn: when the group of the flow's workers last rebalanced (a worker left or
  // joined), whether or not a unit of the flow moved.
  if (const auto source = flow.names.find("source");
      source != flow.names.end() && !source->second.empty()) {
    if (herder::Herder* herder = flow.herder_of[source->second.front()]) {
      const int64_t at = herder->LastRebalanceMs();
      if (at > 0 && (flow.group_rebalances.empty() || at > flow.group_rebalances.back())) {
        flow.group_rebalances.push_back(at);
      }
    }
  }
  std::erase_if(flow.group_rebalances,
                [&](int64_t at) { return now_ms - at > flow.thresholds.rebalance_window_ms; });
  if (changed && (flow.changes.empty() || now_ms - flow.changes.back() > kRebalanceCoalesceMs)) {
    flow.changes.push_back(now_ms);
  }
  std::erase_if(flow.changes,
                [&](int64_t at) { return now_ms - at > flow.thresholds.rebalance_window_ms; });
}

void FlowHealth::FetchPeers() {
  const std::string self = WorkerId();
  if (!options_.http_get) return;
  std::set<std::string> owners;
  for (auto& [key, flow] : flows_) {
    for (const UnitFacts& unit : flow->units) {
      if (unit.state == "RUNNING" && !unit.worker_id.empty() && unit.worker_id != self) {
        owners.insert(unit.worker_id);
      }
    }
  }
  std::lock_guard lock(peers_->mu);
  std::erase_if(peers_->by_worker, [&](const auto& entry) { return !owners.count(entry.first); });
  for (const std::string& owner : owners) {
    Peers::Peer& peer = peers_->by_worker[owner];
    if (peer.in_flight) continue;
    peer.in_flight = true;
    std::weak_ptr<Peers> weak = peers_;
    std::function<int64_t()> clock = options_.now_ms ? options_.now_ms : &metrics::NowMs;
    options_.http_get(absl::StrCat(options_.peer_scheme, "://", owner, "/mirror/task-metrics"),
                      [weak, owner, clock](absl::StatusOr<std::string> body) {
                        std::shared_ptr<Peers> peers = weak.lock();
                        if (!peers) return;
                        absl::StatusOr<WorkerMirrorMetrics> parsed =
                            body.ok() ? ParseWorkerMirrorMetricsJson(*body)
                                      : absl::StatusOr<WorkerMirrorMetrics>(body.status());
                        std::lock_guard lock(peers->mu);
                        Peers::Peer& peer = peers->by_worker[owner];
                        peer.in_flight = false;
                        if (parsed.ok()) {
                          peer.metrics =
                              std::make_shared<const WorkerMirrorMetrics>(*std::move(parsed));
                          peer.success_ms = clock();
                        } else {
                          peer.error = std::string(parsed.status().message());
                          peer.error_ms = clock();
                        }
                      });
  }
}

FlowFacts FlowHealth::BuildFacts(Flow& flow, int64_t now_ms) {
  FlowFacts f;
  f.source = flow.source;
  f.target = flow.target;
  f.thresholds = flow.thresholds;
  for (const auto& [role, names] : flow.names) f.connectors[role] = names.front();
  f.heartbeats_on_source = flow.heartbeats_on_source;
  f.heartbeats_enabled = flow.heartbeats_enabled;
  f.heartbeats_expected_since_ms = flow.heartbeats_expected_since_ms;
  f.emit = flow.emit ? flow.emit->facts() : flow.emit_spec_only;
  f.replication = flow.replication ? flow.replication->facts() : flow.replication_spec_only;
  f.emit.expected = flow.heartbeats_enabled;
  // Under location=target, `A.heartbeats` carries what others wrote into A's heartbeats: judged
  // only once something has arrived there.
  f.replication.expected =
      flow.heartbeats_enabled && (flow.heartbeats_on_source || f.replication.last_arrival_ms);
  f.assignment_changes_ms = flow.changes;
  f.group_rebalances_ms = flow.group_rebalances;
  f.recent_problem = flow.recent_problem;
  f.recent_problem_ms = flow.recent_problem_ms;

  // Metrics: this worker's registry for its own units, the owners' answers for the others.
  const std::string self = WorkerId();
  const WorkerMirrorMetrics& local = *local_;
  std::map<std::string, Peers::Peer> peers;  // the answers are shared, not copied
  {
    std::lock_guard lock(peers_->mu);
    peers = peers_->by_worker;
  }
  // Whose partitions count: this worker's, then each other owner of a RUNNING unit that
  // answered last time, in the order of the units.
  std::vector<std::shared_ptr<const WorkerMirrorMetrics>> sources = {local_};
  for (const UnitFacts& unit : flow.units) {
    if (unit.state != "RUNNING" || self.empty() || unit.worker_id == self) continue;
    auto it = peers.find(unit.worker_id);
    if (!options_.http_get || it == peers.end() || it->second.error_ms > it->second.success_ms ||
        !it->second.metrics) {
      continue;
    }
    if (std::find(sources.begin(), sources.end(), it->second.metrics) == sources.end()) {
      sources.push_back(it->second.metrics);
    }
  }
  const MetricsAccount& account = Account(flow, std::move(sources));
  f.partitions = account.partitions;
  // Since when each partition's position has stood still (with records behind it).
  std::map<std::pair<std::string, int>, PositionSeen> seen;
  for (PartitionFacts& p : f.partitions) {
    if (!p.position) continue;
    const std::pair<std::string, int> key{p.topic, p.partition};
    PositionSeen now{*p.position, now_ms};
    auto it = flow.positions_seen.find(key);
    if (it != flow.positions_seen.end() && it->second.position == *p.position) now = it->second;
    if (p.RecordsBehind().value_or(0) > 0) p.position_still_since_ms = now.since_ms;
    seen.emplace(key, now);
  }
  flow.positions_seen = std::move(seen);
  f.remote_topics = account.remote_topics;
  f.metric_latency_ms = account.latency_max;
  f.metric_record_age_ms = account.age_max;
  f.skipped_offsets = account.skipped;
  f.topic_recreations = account.recreations;
  f.truncated_offsets = account.truncated;

  for (UnitFacts unit : flow.units) {
    const bool is_local = self.empty() || unit.worker_id == self;
    const std::vector<MirrorPartitionMetrics>* partitions = is_local ? &local.partitions : nullptr;
    if (unit.state == "RUNNING" && !is_local) {
      auto it = peers.find(unit.worker_id);
      if (!options_.http_get || it == peers.end()) {
        unit.metrics = MetricsState::kNotExpected;
      } else if (it->second.error_ms > it->second.success_ms) {
        unit.metrics = MetricsState::kOwnerUnreachable;
        unit.metrics_detail = absl::StrCat("worker ", unit.worker_id, ": ", it->second.error);
      } else if (it->second.metrics) {
        partitions = &it->second.metrics->partitions;
      }
    }
    // The target throttling this source task's producer (its default client id, as Connect
    // names it).
    if (unit.state == "RUNNING" && unit.role == "source" && unit.task >= 0) {
      const WorkerMirrorMetrics* owner = &local;
      if (!is_local) {
        auto peer = peers.find(unit.worker_id);
        owner = peer != peers.end() && peer->second.metrics ? peer->second.metrics.get() : nullptr;
      }
      const std::string client =
          absl::StrCat("connector-producer-", unit.connector, "-", unit.task);
      if (owner != nullptr) {
        if (auto it = owner->producer_throttle.find(client); it != owner->producer_throttle.end()) {
          f.producer_throttle_ms = std::max(f.producer_throttle_ms.value_or(0), it->second);
          f.throttled_producer = client;
        }
        // The source consumer's Kafka client id ends so (after a configured client.id).
        const std::string consumer =
            absl::StrCat(flow.source, "->", flow.target, "|", unit.connector, "-", unit.task,
                         "|replication-consumer");
        for (const auto& [id, ms] : owner->consumer_throttle) {
          if (id == consumer || absl::EndsWith(id, "|" + consumer)) {
            f.consumer_throttle_ms = std::max(f.consumer_throttle_ms.value_or(0), ms);
            f.throttled_consumer = id;
          }
        }
      }
    }
    if (unit.state == "RUNNING" && unit.role == "source" && unit.task >= 0 &&
        partitions != nullptr) {
      auto assigned = flow.source_partitions.find(unit.task);
      if (assigned != flow.source_partitions.end() && !assigned->second.empty()) {
        bool present = std::any_of(partitions->begin(), partitions->end(), [&](const auto& p) {
          return p.source == flow.source && p.target == flow.target &&
                 assigned->second.count({p.topic, p.partition});
        });
        unit.metrics = present ? MetricsState::kPresent : MetricsState::kAbsent;
        if (!present) {
          unit.metrics_detail = absl::StrCat("no replication metrics for its ",
                                             assigned->second.size(), " partition(s) on worker ",
                                             unit.worker_id.empty() ? "?" : unit.worker_id);
        }
      }
    }
    // Grace: absence must last before it counts.
    const std::pair<std::string, int> id{unit.connector, unit.task};
    if (unit.metrics == MetricsState::kAbsent || unit.metrics == MetricsState::kOwnerUnreachable) {
      int64_t since = flow.absent_since.try_emplace(id, now_ms).first->second;
      if (now_ms - since < kAbsentGraceMs) unit.metrics = MetricsState::kNotExpected;
    } else {
      flow.absent_since.erase(id);
    }
    f.units.push_back(std::move(unit));
  }
  return f;
}

const FlowHealth::MetricsAccount& FlowHealth::Account(
    Flow& flow, std::vector<std::shared_ptr<const WorkerMirrorMetrics>> sources) {
  MetricsAccount& a = flow.account;
  if (a.sources == sources && a.topics_generation == flow.topics_generation) return a;
  a = MetricsAccount{};
  a.sources = std::move(sources);
  a.topics_generation = flow.topics_generation;
  std::set<std::pair<std::string, int>> reported;
  std::set<std::pair<std::string, std::string>> remote_topic_errors;  // (topic, operation)
  for (const auto& worker : a.sources) {
    // A remote topic the connector could not create or grow (its connector runs on one
    // worker; an error cleared since reads code 0).
    for (const RemoteTopicError& e : worker->remote_topic_errors) {
      if (e.source != flow.source || e.target != flow.target || e.code == 0) continue;
      if (remote_topic_errors.insert({e.topic, e.operation}).second) {
        a.remote_topics.push_back(ToRemoteTopicFacts(e, flow.source_topic_of));
      }
    }
    for (const MirrorPartitionMetrics& p : worker->partitions) {
      if (p.source != flow.source || p.target != flow.target) continue;
      if (reported.insert({p.topic, p.partition}).second) {
        a.partitions.push_back(ToPartitionFacts(p, flow.source_topic_of));
      }
      auto take = [&](std::string_view name, std::optional<double>* out) {
        if (std::optional<double> value = p.values.Finite(name)) {
          *out = out->has_value() ? std::max(**out, *value) : *value;
        }
      };
      take("replication-latency-ms-max", &a.latency_max);
      take("record-age-ms-max", &a.age_max);
      a.skipped += p.values.Finite("skipped-offset-count").value_or(0);
      a.recreations += p.values.Finite("source-topic-recreated-count").value_or(0);
      a.truncated += p.values.Finite("source-truncated-offset-count").value_or(0);
    }
  }
  return a;
}

void FlowHealth::Publish(Flow& flow, const FlowFacts& facts, const FlowReport& report,
                         int64_t now_ms) {
  const metrics::Tags tags = {{"source", flow.source}, {"target", flow.target}};
  if (flow.age_emit == nullptr) {
    auto leg = [&](const char* name) {
      metrics::Tags t = tags;
      t.emplace_back("leg", name);
      return Gauge(scope_, "heartbeat-age-ms",
                   "Time since the newest heartbeat of the flow arrived on the leg (or since it "
                   "has been watched)",
                   t, now_ms);
    };
    flow.age_emit = leg("emit");
    flow.age_replication = leg("replication");
    flow.latency =
        Gauge(scope_, "heartbeat-latency-ms",
              "Arrival on the target minus emission time of the newest heartbeat", tags, now_ms);
    flow.stale_threshold =
        Gauge(scope_, "stale-threshold-ms", "The flow's staleness threshold", tags, now_ms);
    flow.lag_threshold =
        Gauge(scope_, "lag-threshold-ms", "The flow's lag threshold", tags, now_ms);
    flow.rebalances =
        Gauge(scope_, "rebalances",
              "Assignment changes of the flow's connectors and tasks in the window", tags, now_ms);
    flow.records_behind =
        Gauge(scope_, "records-behind",
              "Records between the MirrorSource tasks' positions and the source partitions' ends, "
              "summed over the flow",
              tags, now_ms);
    flow.unreadable =
        Gauge(scope_, "partitions-unreadable",
              "The flow's partitions whose consumer reported an error and that have not been "
              "read since",
              tags, now_ms);
    for (Verdict v : AllVerdicts()) {
      metrics::Tags t = tags;
      t.emplace_back("verdict", std::string(VerdictLabel(v)));
      flow.verdict[v] = Gauge(scope_, "verdict", "1 for the flow's current verdict", t, now_ms);
    }
  }
  auto age = [&](const LegFacts& leg) {
    if (leg.last_arrival_ms)
      return static_cast<double>(std::max<int64_t>(0, now_ms - *leg.last_arrival_ms));
    if (leg.watching_since_ms > 0) return static_cast<double>(now_ms - leg.watching_since_ms);
    return std::nan("");
  };
  auto record = [&](metrics::Sensor* sensor, double value) {
    if (sensor != nullptr) sensor->Record(value, now_ms);
  };
  record(flow.age_emit, age(facts.emit));
  record(flow.age_replication, age(facts.replication));
  record(flow.latency, facts.replication.latency_ms
                           ? static_cast<double>(*facts.replication.latency_ms)
                           : std::nan(""));
  record(flow.stale_threshold, static_cast<double>(facts.thresholds.stale_ms));
  record(flow.lag_threshold, static_cast<double>(facts.thresholds.lag_ms));
  record(flow.rebalances, report.rebalances_in_window);
  record(flow.records_behind, static_cast<double>(report.records_behind));
  record(flow.unreadable, report.partitions_with_errors);
  PublishTopics(flow, facts, now_ms);
  for (auto& [v, sensor] : flow.verdict) record(sensor, v == report.verdict ? 1.0 : 0.0);
}

void FlowHealth::PublishTopics(Flow& flow, const FlowFacts& facts, int64_t now_ms) {
  // Per source topic (bounded label cardinality; the partitions' own series are MirrorSource's,
  // at the DEBUG recording level).
  struct TopicTotals {
    int64_t records_behind = 0;
    std::optional<int64_t> oldest_unreplicated_age_ms;  // the largest known
    int unreadable = 0;
  };
  std::map<std::string, TopicTotals> totals;
  const std::string* topic = nullptr;  // a topic's partitions mostly come one after another
  TopicTotals* t = nullptr;
  for (const PartitionFacts& p : facts.partitions) {
    if (topic == nullptr || *topic != p.source_topic) {
      topic = &p.source_topic;
      t = &totals[p.source_topic];
    }
    t->records_behind += std::max<int64_t>(0, p.RecordsBehind().value_or(0));
    if (p.oldest_unreplicated_age_ms) {
      t->oldest_unreplicated_age_ms =
          std::max(t->oldest_unreplicated_age_ms.value_or(0), *p.oldest_unreplicated_age_ms);
    }
    if (!p.error.empty()) ++t->unreadable;
  }
  for (auto it = flow.topics.begin(); it != flow.topics.end();) {
    if (totals.count(it->first) == 0) {
      RemoveTopicGauges(it->second);
      it = flow.topics.erase(it);
    } else {
      ++it;
    }
  }
  for (const auto& [topic, t] : totals) {
    TopicGauges& gauges = flow.topics[topic];
    if (gauges.records_behind == nullptr) {
      const metrics::Tags tags = {
          {"source", flow.source}, {"target", flow.target}, {"topic", topic}};
      gauges.records_behind = Gauge(scope_, "topic-records-behind",
                                    "Records between the MirrorSource tasks' positions and the "
                                    "ends of the source topic's partitions",
                                    tags, now_ms);
      gauges.oldest_unreplicated_age = Gauge(
          scope_, "topic-oldest-unreplicated-age-ms",
          "Age of the oldest record of the source topic not yet acknowledged by the target (a "
          "lower bound for records not read yet), 0 when caught up",
          tags, now_ms);
      gauges.unreadable = Gauge(scope_, "topic-partitions-unreadable",
                                "The source topic's partitions whose consumer reported an error "
                                "and that have not been read since",
                                tags, now_ms);
    }
    auto record = [&](metrics::Sensor* sensor, double value) {
      if (sensor != nullptr) sensor->Record(value, now_ms);
    };
    record(gauges.records_behind, static_cast<double>(t.records_behind));
    record(gauges.oldest_unreplicated_age, t.oldest_unreplicated_age_ms
                                               ? static_cast<double>(*t.oldest_unreplicated_age_ms)
                                               : std::nan(""));
    record(gauges.unreadable, t.unreadable);
  }
}

void FlowHealth::RemoveTopicGauges(TopicGauges& gauges) {
  for (metrics::Sensor** sensor :
       {&gauges.records_behind, &gauges.oldest_unreplicated_age, &gauges.unreadable}) {
    if (*sensor != nullptr) scope_.RemoveSensor(*sensor);
    *sensor = nullptr;
  }
}

void FlowHealth::RemoveGauges(Flow& flow) {
  for (metrics::Sensor** sensor :
       {&flow.age_emit, &flow.age_replication, &flow.latency, &flow.stale_threshold,
        &flow.lag_threshold, &flow.rebalances, &flow.records_behind, &flow.unreadable}) {
    if (*sensor != nullptr) scope_.RemoveSensor(*sensor);
    *sensor = nullptr;
  }
  for (auto& [v, sensor] : flow.verdict) {
    if (sensor != nullptr) scope_.RemoveSensor(sensor);
  }
  flow.verdict.clear();
  for (auto& [topic, gauges] : flow.topics) RemoveTopicGauges(gauges);
  flow.topics.clear();
}

}  // namespace connectd::health
