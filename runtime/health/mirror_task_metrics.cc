#include "runtime/health/mirror_task_metrics.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"

namespace connectd::health {
namespace {

constexpr char kDomain[] = "kafka.connect.mirror";
constexpr char kGroup[] = "MirrorSourceConnector";

std::string Tag(const metrics::Tags& tags, const std::string& key) {
  for (const auto& [k, v] : tags) {
    if (k == key) return v;
  }
  return "";
}

}  // namespace

namespace {

// Gathers MirrorSource's metrics per partition (a partition's metrics share its tags).
class PartitionMetricsBuilder {
 public:
  void Add(const metrics::MetricName& name, double value) {
    joined_.clear();
    for (const auto& [k, v] : name.tags) absl::StrAppend(&joined_, k, "\x1f", v, "\x1e");
    auto [it, added] = index_of_.try_emplace(joined_, out_.size());
    if (added) {
      out_.push_back(MirrorPartitionMetrics{Tag(name.tags, "source"),
                                            Tag(name.tags, "target"),
                                            Tag(name.tags, "topic"),
                                            std::atoi(Tag(name.tags, "partition").c_str()),
                                            {}});
    }
    out_[it->second].values[name.name] = value;
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
  std::vector<MirrorPartitionMetrics> out_;
  std::string joined_;
};

}  // namespace

std::vector<MirrorPartitionMetrics> MirrorTaskMetrics(
    const std::vector<metrics::MetricValue>& snapshot) {
  PartitionMetricsBuilder builder;
  for (const metrics::MetricValue& metric : snapshot) {
    if (metric.name.domain == kDomain && metric.name.group == kGroup) {
      builder.Add(metric.name, metric.value);
    }
  }
  return std::move(builder).Build();
}

std::vector<MirrorPartitionMetrics> MirrorTaskMetrics(const metrics::MetricsRegistry& registry,
                                                      int64_t now_ms) {
  PartitionMetricsBuilder builder;
  registry.Visit(
      now_ms, kDomain, kGroup,
      [&builder](const metrics::MetricName& name, double value) { builder.Add(name, value); });
  return std::move(builder).Build();
}

ProducerThrottle ProducerThrottleMs(const metrics::MetricsRegistry& registry, int64_t now_ms) {
  ProducerThrottle out;
  registry.Visit(
      now_ms, "kafka.producer", "producer-metrics",
      [&out](const metrics::MetricName& name, double value) {
        if (name.name == "produce-throttle-time-max" && std::isfinite(value) && value > 0) {
          out[Tag(name.tags, "client-id")] = value;
        }
      });
  return out;
}

std::string MirrorTaskMetricsJson(const std::vector<MirrorPartitionMetrics>& partitions,
                                  const std::string& worker_id,
                                  const ProducerThrottle& producer_throttle) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  w.Key("worker_id");
  w.String(worker_id.c_str());
  w.Key("partitions");
  w.StartArray();
  for (const MirrorPartitionMetrics& p : partitions) {
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
    for (const auto& [name, value] : p.values) {
      w.Key(name.c_str());
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
  w.Key("producer_throttle_ms");
  w.StartObject();
  for (const auto& [client_id, ms] : producer_throttle) {
    w.Key(client_id.c_str());
    w.Double(ms);
  }
  w.EndObject();
  w.EndObject();
  return buffer.GetString();
}

absl::StatusOr<std::vector<MirrorPartitionMetrics>> ParseMirrorTaskMetricsJson(
    std::string_view json, ProducerThrottle* producer_throttle) {
  rapidjson::Document doc;
  doc.Parse(json.data(), json.size());
  if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("partitions") ||
      !doc["partitions"].IsArray()) {
    return absl::InvalidArgumentError("not a mirror task metrics document");
  }
  std::vector<MirrorPartitionMetrics> out;
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
    for (const auto& member : p["metrics"].GetObject()) {
      m.values[member.name.GetString()] = member.value.IsNumber()
                                              ? member.value.GetDouble()
                                              : std::numeric_limits<double>::quiet_NaN();
    }
    out.push_back(std::move(m));
  }
  if (producer_throttle != nullptr) {
    producer_throttle->clear();
    // Absent in the answers of workers that predate it.
    if (doc.HasMember("producer_throttle_ms") && doc["producer_throttle_ms"].IsObject()) {
      for (const auto& member : doc["producer_throttle_ms"].GetObject()) {
        if (member.value.IsNumber()) {
          (*producer_throttle)[member.name.GetString()] = member.value.GetDouble();
        }
      }
    }
  }
  return out;
}

}  // namespace connectd::health
