#include "runtime/health/mirror_task_metrics.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <tuple>

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

std::vector<MirrorPartitionMetrics> MirrorTaskMetrics(
    const std::vector<metrics::MetricValue>& snapshot) {
  std::map<std::tuple<std::string, std::string, std::string, int>, MirrorPartitionMetrics> by;
  for (const metrics::MetricValue& metric : snapshot) {
    if (metric.name.domain != kDomain || metric.name.group != kGroup) continue;
    const metrics::Tags& tags = metric.name.tags;
    MirrorPartitionMetrics key{Tag(tags, "source"),
                               Tag(tags, "target"),
                               Tag(tags, "topic"),
                               std::atoi(Tag(tags, "partition").c_str()),
                               {}};
    auto [it, added] =
        by.try_emplace(std::make_tuple(key.source, key.target, key.topic, key.partition), key);
    it->second.values[metric.name.name] = metric.value;
  }
  std::vector<MirrorPartitionMetrics> out;
  for (auto& [k, v] : by) out.push_back(std::move(v));
  return out;
}

std::string MirrorTaskMetricsJson(const std::vector<MirrorPartitionMetrics>& partitions,
                                  const std::string& worker_id) {
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
  w.EndObject();
  return buffer.GetString();
}

absl::StatusOr<std::vector<MirrorPartitionMetrics>> ParseMirrorTaskMetricsJson(
    std::string_view json) {
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
  return out;
}

}  // namespace connectd::health
