#include "runtime/mirror_maker/health/flow_report_json.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cmath>

#include "jvm/utf8.h"

namespace connectd::health {
namespace {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

// Traces and client errors come from plugins and other clusters: JSON gets valid UTF-8 only.
void String(Writer& w, const std::string& s) {
  if (!jvm::IsValidUtf8(s)) {
    std::string valid = jvm::ToJavaString(s);
    w.String(valid.data(), static_cast<rapidjson::SizeType>(valid.size()));
    return;
  }
  w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
}

void Key(Writer& w, const char* key) { w.Key(key); }

template <typename T>
void OptionalInt(Writer& w, const char* key, const std::optional<T>& value) {
  Key(w, key);
  if (value) {
    w.Int64(static_cast<int64_t>(*value));
  } else {
    w.Null();
  }
}

void OptionalDouble(Writer& w, const char* key, const std::optional<double>& value) {
  Key(w, key);
  if (value && std::isfinite(*value)) {
    w.Double(*value);
  } else {
    w.Null();
  }
}

std::string_view MetricsName(MetricsState state) {
  switch (state) {
    case MetricsState::kNotExpected:
      return "not_expected";
    case MetricsState::kPresent:
      return "present";
    case MetricsState::kAbsent:
      return "absent";
    case MetricsState::kOwnerUnreachable:
      return "owner_unreachable";
  }
  return "unknown";
}

void WriteLeg(Writer& w, const LegReport& leg) {
  w.StartObject();
  Key(w, "cluster");
  String(w, leg.cluster);
  Key(w, "topic");
  String(w, leg.topic);
  Key(w, "expected");
  w.Bool(leg.expected);
  OptionalInt(w, "age_ms", leg.age_ms);
  OptionalInt(w, "newest_timestamp_ms", leg.newest_timestamp_ms);
  OptionalInt(w, "latency_ms", leg.latency_ms);
  Key(w, "stale");
  w.Bool(leg.stale);
  Key(w, "error");
  if (leg.error) {
    String(w, *leg.error);
  } else {
    w.Null();
  }
  w.EndObject();
}

void WriteReport(Writer& w, const FlowReport& r) {
  w.StartObject();
  Key(w, "flow");
  String(w, r.source + "->" + r.target);
  Key(w, "source");
  String(w, r.source);
  Key(w, "target");
  String(w, r.target);
  Key(w, "verdict");
  String(w, std::string(VerdictName(r.verdict)));
  Key(w, "verdict_label");
  String(w, std::string(VerdictLabel(r.verdict)));
  Key(w, "summary");
  String(w, r.summary);
  Key(w, "evidence");
  w.StartArray();
  for (const std::string& line : r.evidence) String(w, line);
  w.EndArray();
  Key(w, "next_step");
  String(w, r.next_step);
  Key(w, "thresholds");
  w.StartObject();
  Key(w, "heartbeat_interval_ms");
  w.Int64(r.thresholds.heartbeat_interval_ms);
  Key(w, "stale_ms");
  w.Int64(r.thresholds.stale_ms);
  Key(w, "lag_ms");
  w.Int64(r.thresholds.lag_ms);
  Key(w, "clock_skew_tolerance_ms");
  w.Int64(r.thresholds.clock_skew_tolerance_ms);
  Key(w, "rebalance_window_ms");
  w.Int64(r.thresholds.rebalance_window_ms);
  Key(w, "rebalance_threshold");
  w.Int(r.thresholds.rebalance_threshold);
  w.EndObject();
  Key(w, "heartbeats_topic_location");
  w.String(r.heartbeats_on_source ? "source" : "target");
  Key(w, "legs");
  w.StartObject();
  Key(w, "emit");
  WriteLeg(w, r.emit);
  Key(w, "replication");
  WriteLeg(w, r.replication);
  w.EndObject();
  OptionalInt(w, "latency_ms", r.latency_ms);
  Key(w, "latency_overdue");
  w.Bool(r.latency_overdue);
  Key(w, "latency_trend");
  String(w, r.latency_trend);
  OptionalDouble(w, "latency_trend_ms_per_min", r.latency_trend_ms_per_min);
  OptionalDouble(w, "replication_latency_ms_max", r.metric_latency_ms);
  OptionalDouble(w, "record_age_ms_max", r.metric_record_age_ms);
  Key(w, "skipped_offsets");
  w.Double(r.skipped_offsets);
  Key(w, "topic_recreations");
  w.Double(r.topic_recreations);
  Key(w, "truncated_offsets");
  w.Double(r.truncated_offsets);
  OptionalDouble(w, "producer_throttle_ms", r.producer_throttle_ms);
  OptionalDouble(w, "consumer_throttle_ms", r.consumer_throttle_ms);
  Key(w, "rebalances_in_window");
  w.Int(r.rebalances_in_window);
  Key(w, "recovering");
  w.Bool(r.recovering);
  Key(w, "partitions");
  w.StartObject();
  Key(w, "count");
  w.Int(r.partition_count);
  Key(w, "with_errors");
  w.Int(r.partitions_with_errors);
  Key(w, "records_behind");
  w.Int64(r.records_behind);
  OptionalInt(w, "oldest_unreplicated_age_ms", r.oldest_unreplicated_age_ms);
  Key(w, "worst");
  w.StartArray();
  for (const PartitionFacts& p : r.worst_partitions) {
    w.StartObject();
    Key(w, "source_topic");
    String(w, p.source_topic);
    Key(w, "topic");
    String(w, p.topic);
    Key(w, "partition");
    w.Int(p.partition);
    OptionalInt(w, "source_end_offset", p.end_offset);
    OptionalInt(w, "position", p.position);
    OptionalInt(w, "records_behind", p.RecordsBehind());
    OptionalInt(w, "oldest_unreplicated_age_ms", p.oldest_unreplicated_age_ms);
    // The source's error ("error*") and, for batches, the target's ("target_error*").
    for (const bool target : {false, true}) {
      const std::string prefix = target ? "target_error" : "error";
      const std::string& error = target ? p.target_error : p.error;
      Key(w, prefix.c_str());
      if (error.empty()) {
        w.Null();
      } else {
        String(w, error);
      }
      Key(w, (prefix + "_count").c_str());
      w.Int64(target ? p.target_error_count : p.error_count);
      OptionalInt(w, (prefix + "_first_ms").c_str(),
                  target ? p.target_error_first_ms : p.error_first_ms);
      OptionalInt(w, (prefix + "_last_ms").c_str(),
                  target ? p.target_error_last_ms : p.error_last_ms);
    }
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  Key(w, "remote_topic_errors");
  w.StartArray();
  for (const RemoteTopicFacts& t : r.remote_topics) {
    w.StartObject();
    Key(w, "topic");
    String(w, t.topic);
    Key(w, "source_topic");
    if (t.source_topic.empty()) {
      w.Null();
    } else {
      String(w, t.source_topic);
    }
    Key(w, "operation");
    String(w, t.operation);
    Key(w, "error");
    String(w, t.error);
    Key(w, "error_count");
    w.Int64(t.error_count);
    Key(w, "error_first_ms");
    w.Int64(t.error_first_ms);
    Key(w, "error_last_ms");
    w.Int64(t.error_last_ms);
    w.EndObject();
  }
  w.EndArray();
  Key(w, "connectors");
  w.StartObject();
  for (const auto& [role, name] : r.connectors) {
    String(w, role);
    String(w, name);
  }
  w.EndObject();
  Key(w, "tasks");
  w.StartArray();
  for (const UnitFacts& unit : r.units) {
    w.StartObject();
    Key(w, "connector");
    String(w, unit.connector);
    Key(w, "role");
    String(w, unit.role);
    Key(w, "task");
    if (unit.task < 0) {
      w.Null();
    } else {
      w.Int(unit.task);
    }
    Key(w, "state");
    String(w, unit.state);
    Key(w, "worker_id");
    String(w, unit.worker_id);
    Key(w, "trace");
    if (unit.trace) {
      String(w, *unit.trace);
    } else {
      w.Null();
    }
    Key(w, "metrics");
    w.String(std::string(MetricsName(unit.metrics)).c_str());
    Key(w, "metrics_detail");
    String(w, unit.metrics_detail);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

}  // namespace

std::string FlowReportJson(const FlowReport& report) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  WriteReport(w, report);
  return buffer.GetString();
}

std::string FlowReportsJson(const std::vector<FlowReport>& reports, const std::string& worker_id,
                            int64_t now_ms) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  Key(w, "worker_id");
  String(w, worker_id);
  Key(w, "time_ms");
  w.Int64(now_ms);
  Key(w, "flows");
  w.StartArray();
  for (const FlowReport& report : reports) WriteReport(w, report);
  w.EndArray();
  w.EndObject();
  return buffer.GetString();
}

}  // namespace connectd::health
