#include "runtime/mirror_maker/health/mirror_task_metrics.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"

namespace connectd::health {
namespace {

constexpr char kDomain[] = "kafka.connect.mirror";
constexpr char kConnectdDomain[] = "connectd.mirror";  // connectd's connector-level metrics
constexpr char kGroup[] = "MirrorSourceConnector";

std::string Tag(const metrics::Tags& tags, const std::string& key) {
  for (const auto& [k, v] : tags) {
    if (k == key) return v;
  }
  return "";
}

}  // namespace

namespace {

constexpr std::array<std::string_view, 16> kPartitionMetrics = {"fetch-error-code",
                                                                "fetch-error-count",
                                                                "fetch-error-first-ms",
                                                                "fetch-error-last-ms",
                                                                "oldest-unreplicated-age-ms",
                                                                "produce-error-code",
                                                                "produce-error-count",
                                                                "produce-error-first-ms",
                                                                "produce-error-last-ms",
                                                                "record-age-ms-max",
                                                                "replication-latency-ms-max",
                                                                "skipped-offset-count",
                                                                "source-end-offset",
                                                                "source-position",
                                                                "source-topic-recreated-count",
                                                                "source-truncated-offset-count"};
static_assert(std::is_sorted(kPartitionMetrics.begin(), kPartitionMetrics.end()));

// The slot of `name` in kPartitionMetrics; kPartitionMetrics.size() when it has none.
size_t SlotOf(std::string_view name) {
  auto it = std::lower_bound(kPartitionMetrics.begin(), kPartitionMetrics.end(), name);
  return it != kPartitionMetrics.end() && *it == name
             ? static_cast<size_t>(it - kPartitionMetrics.begin())
             : kPartitionMetrics.size();
}

}  // namespace

std::span<const std::string_view> FlowHealthPartitionMetrics() { return kPartitionMetrics; }

bool PartitionMetricValues::Set(std::string_view name, double value) {
  static_assert(kSlots == kPartitionMetrics.size());
  const size_t slot = SlotOf(name);
  if (slot == kSlots) return false;
  values_[slot] = value;
  kept_ |= 1u << slot;
  return true;
}

std::optional<double> PartitionMetricValues::Get(std::string_view name) const {
  const size_t slot = SlotOf(name);
  if (slot == kSlots || (kept_ & (1u << slot)) == 0) return std::nullopt;
  return values_[slot];
}

std::optional<double> PartitionMetricValues::Finite(std::string_view name) const {
  std::optional<double> value = Get(name);
  if (value && !std::isfinite(*value)) return std::nullopt;
  return value;
}

std::vector<std::pair<std::string_view, double>> PartitionMetricValues::Entries() const {
  std::vector<std::pair<std::string_view, double>> out;
  for (size_t slot = 0; slot < kSlots; ++slot) {
    if (kept_ & (1u << slot)) out.emplace_back(kPartitionMetrics[slot], values_[slot]);
  }
  return out;
}

bool operator==(const PartitionMetricValues& a, const PartitionMetricValues& b) {
  if (a.kept_ != b.kept_) return false;
  for (size_t slot = 0; slot < PartitionMetricValues::kSlots; ++slot) {
    const double x = a.values_[slot];
    const double y = b.values_[slot];
    if ((a.kept_ & (1u << slot)) && x != y && !(std::isnan(x) && std::isnan(y))) return false;
  }
  return true;
}

namespace {

// Gathers MirrorSource's metrics per partition (a partition's metrics share its tags).
class PartitionMetricsBuilder {
 public:
  void Add(const metrics::MetricNameView& name, double value) {
    // A partition's metrics share the registry's identity; a snapshot's are told by their tags.
    if (SlotOf(name.name) == kPartitionMetrics.size()) return;
    bool added = false;
    size_t index = 0;
    if (name.identity != nullptr) {
      auto [it, inserted] = index_of_identity_.try_emplace(name.identity, out_.size());
      added = inserted;
      index = it->second;
    } else {
      joined_.clear();
      for (const auto& [k, v] : name.tags) absl::StrAppend(&joined_, k, "\x1f", v, "\x1e");
      auto [it, inserted] = index_of_.try_emplace(joined_, out_.size());
      added = inserted;
      index = it->second;
    }
    if (added) {
      out_.push_back(MirrorPartitionMetrics{Tag(name.tags, "source"),
                                            Tag(name.tags, "target"),
                                            Tag(name.tags, "topic"),
                                            std::atoi(Tag(name.tags, "partition").c_str()),
                                            {}});
    }
    out_[index].values.Set(name.name, value);
  }
  std::vector<MirrorPartitionMetrics> Build() && {
    std::sort(out_.begin(), out_.end(), [](const auto& a, const auto& b) {
      return std::tie(a.source, a.target, a.topic, a.partition) <
             std::tie(b.source, b.target, b.topic, b.partition);
    });
    return std::move(out_);
  }

 private:
  absl::flat_hash_map<std::string, size_t> index_of_;  // joined tags -> position in out_
  absl::flat_hash_map<const metrics::SensorIdentity*, size_t> index_of_identity_;
  std::vector<MirrorPartitionMetrics> out_;
  std::string joined_;
};

}  // namespace

std::vector<MirrorPartitionMetrics> MirrorTaskMetrics(
    const std::vector<metrics::MetricValue>& snapshot) {
  PartitionMetricsBuilder builder;
  for (const metrics::MetricValue& metric : snapshot) {
    if (metric.name.domain == kDomain && metric.name.group == kGroup) {
      const metrics::MetricName& n = metric.name;
      builder.Add(metrics::MetricNameView{n.domain, n.group, n.name, n.tags}, metric.value);
    }
  }
  return std::move(builder).Build();
}

std::vector<MirrorPartitionMetrics> MirrorTaskMetrics(const metrics::MetricsRegistry& registry,
                                                      int64_t now_ms) {
  PartitionMetricsBuilder builder;
  registry.Visit(
      now_ms, kDomain, kGroup,
      [&builder](const metrics::MetricNameView& name, double value) { builder.Add(name, value); },
      kPartitionMetrics);
  return std::move(builder).Build();
}

namespace {

// The clients of `domain`/`group` whose metric `max` (a throttle time) is positive, by client id.
ClientThrottle ThrottledClients(const metrics::MetricsRegistry& registry, int64_t now_ms,
                                std::string_view domain, std::string_view group,
                                std::string_view max) {
  ClientThrottle out;
  registry.Visit(now_ms, domain, group,
                 [&out, max](const metrics::MetricNameView& name, double value) {
                   if (name.name == max && std::isfinite(value) && value > 0) {
                     out[Tag(name.tags, "client-id")] = value;
                   }
                 });
  return out;
}

}  // namespace

ClientThrottle ProducerThrottleMs(const metrics::MetricsRegistry& registry, int64_t now_ms) {
  return ThrottledClients(registry, now_ms, "kafka.producer", "producer-metrics",
                          "produce-throttle-time-max");
}

ClientThrottle ConsumerThrottleMs(const metrics::MetricsRegistry& registry, int64_t now_ms) {
  return ThrottledClients(registry, now_ms, "kafka.consumer", "consumer-fetch-manager-metrics",
                          "fetch-throttle-time-max");
}

std::vector<RemoteTopicError> RemoteTopicErrors(const metrics::MetricsRegistry& registry,
                                                int64_t now_ms) {
  std::map<std::tuple<std::string, std::string, std::string, std::string>, RemoteTopicError> out;
  registry.Visit(
      now_ms, kConnectdDomain, kGroup, [&out](const metrics::MetricNameView& name, double value) {
        if (name.name.rfind("admin-error-", 0) != 0) return;
        RemoteTopicError& e = out[{Tag(name.tags, "source"), Tag(name.tags, "target"),
                                   Tag(name.tags, "topic"), Tag(name.tags, "operation")}];
        e.source = Tag(name.tags, "source");
        e.target = Tag(name.tags, "target");
        e.topic = Tag(name.tags, "topic");
        e.operation = Tag(name.tags, "operation");
        const int64_t whole = std::isfinite(value) ? static_cast<int64_t>(value) : 0;
        if (name.name == "admin-error-code") e.code = static_cast<int>(whole);
        if (name.name == "admin-error-count") e.count = whole;
        if (name.name == "admin-error-first-ms") e.first_ms = whole;
        if (name.name == "admin-error-last-ms") e.last_ms = whole;
      });
  std::vector<RemoteTopicError> errors;
  for (auto& [key, e] : out) errors.push_back(std::move(e));
  return errors;
}

WorkerMirrorMetrics ReadWorkerMirrorMetrics(const metrics::MetricsRegistry& registry,
                                            int64_t now_ms) {
  return WorkerMirrorMetrics{
      MirrorTaskMetrics(registry, now_ms), ProducerThrottleMs(registry, now_ms),
      ConsumerThrottleMs(registry, now_ms), RemoteTopicErrors(registry, now_ms)};
}

std::string WorkerMirrorMetricsJson(const WorkerMirrorMetrics& metrics,
                                    const std::string& worker_id) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  w.Key("worker_id");
  w.String(worker_id.c_str());
  w.Key("partitions");
  w.StartArray();
  for (const MirrorPartitionMetrics& p : metrics.partitions) {
    w.StartObject();
    w.Key("source");
    w.String(p.source.c_str());
    w.Key("target");
    w.String(p.target.c_str());
    w.Key("topic");
    w.String(p.topic.c_str());
    w.Key("partition");
    w.Int(p.partition);
    w.Key("metrics");
    w.StartObject();
    for (const auto& [name, value] : p.values.Entries()) {
      w.Key(name.data(), static_cast<rapidjson::SizeType>(name.size()));
      if (std::isfinite(value)) {
        w.Double(value);
      } else {
        w.Null();
      }
    }
    w.EndObject();
    w.EndObject();
  }
  w.EndArray();
  for (const auto& [key, throttle] :
       {std::pair{"producer_throttle_ms", &metrics.producer_throttle},
        std::pair{"consumer_throttle_ms", &metrics.consumer_throttle}}) {
    w.Key(key);
    w.StartObject();
    for (const auto& [client_id, ms] : *throttle) {
      w.Key(client_id.c_str());
      w.Double(ms);
    }
    w.EndObject();
  }
  w.Key("remote_topic_errors");
  w.StartArray();
  for (const RemoteTopicError& e : metrics.remote_topic_errors) {
    w.StartObject();
    w.Key("source");
    w.String(e.source.c_str());
    w.Key("target");
    w.String(e.target.c_str());
    w.Key("topic");
    w.String(e.topic.c_str());
    w.Key("operation");
    w.String(e.operation.c_str());
    w.Key("code");
    w.Int(e.code);
    w.Key("count");
    w.Int64(e.count);
    w.Key("first_ms");
    w.Int64(e.first_ms);
    w.Key("last_ms");
    w.Int64(e.last_ms);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return buffer.GetString();
}

absl::StatusOr<WorkerMirrorMetrics> ParseWorkerMirrorMetricsJson(std::string_view json) {
  rapidjson::Document doc;
  doc.Parse(json.data(), json.size());
  if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("partitions") ||
      !doc["partitions"].IsArray()) {
    return absl::InvalidArgumentError("not a mirror task metrics document");
  }
  WorkerMirrorMetrics out;
  for (const rapidjson::Value& p : doc["partitions"].GetArray()) {
    if (!p.IsObject() || !p.HasMember("source") || !p["source"].IsString() ||
        !p.HasMember("target") || !p["target"].IsString() || !p.HasMember("topic") ||
        !p["topic"].IsString() || !p.HasMember("partition") || !p["partition"].IsInt() ||
        !p.HasMember("metrics") || !p["metrics"].IsObject()) {
      return absl::InvalidArgumentError("malformed partition entry in mirror task metrics");
    }
    MirrorPartitionMetrics m{p["source"].GetString(),
                             p["target"].GetString(),
                             p["topic"].GetString(),
                             p["partition"].GetInt(),
                             {}};
    // Names this worker does not read (an older worker sent every metric) are left out.
    for (const auto& member : p["metrics"].GetObject()) {
      m.values.Set(std::string_view(member.name.GetString(), member.name.GetStringLength()),
                   member.value.IsNumber() ? member.value.GetDouble()
                                           : std::numeric_limits<double>::quiet_NaN());
    }
    out.partitions.push_back(std::move(m));
  }
  for (const auto& [key, throttle] : {std::pair{"producer_throttle_ms", &out.producer_throttle},
                                      std::pair{"consumer_throttle_ms", &out.consumer_throttle}}) {
    if (!doc.HasMember(key) || !doc[key].IsObject()) continue;
    for (const auto& member : doc[key].GetObject()) {
      if (member.value.IsNumber()) (*throttle)[member.name.GetString()] = member.value.GetDouble();
    }
  }
  if (doc.HasMember("remote_topic_errors") && doc["remote_topic_errors"].IsArray()) {
    for (const rapidjson::Value& e : doc["remote_topic_errors"].GetArray()) {
      auto text = [&e](const char* key) -> std::string {
        return e.IsObject() && e.HasMember(key) && e[key].IsString() ? e[key].GetString() : "";
      };
      auto whole = [&e](const char* key) -> int64_t {
        return e.IsObject() && e.HasMember(key) && e[key].IsInt64() ? e[key].GetInt64() : 0;
      };
      RemoteTopicError error{text("source"),
                             text("target"),
                             text("topic"),
                             text("operation"),
                             static_cast<int>(whole("code")),
                             whole("count"),
                             whole("first_ms"),
                             whole("last_ms")};
      if (error.topic.empty()) {
        return absl::InvalidArgumentError("malformed remote topic error in mirror task metrics");
      }
      out.remote_topic_errors.push_back(std::move(error));
    }
  }
  return out;
}

}  // namespace connectd::health
