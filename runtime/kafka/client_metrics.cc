#include "runtime/kafka/client_metrics.h"

#include <algorithm>
#include <cstdint>
#include <set>
#include <string_view>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "rapidjson/document.h"
#include "rapidjson/memorystream.h"
#include "rapidjson/reader.h"

namespace connectd::kafka {
namespace {

using metrics::StatKind;
using metrics::StatSpec;

constexpr char kProducerDomain[] = "kafka.producer";
constexpr char kConsumerDomain[] = "kafka.consumer";

double Number(const rapidjson::Value& object, const char* key) {
  if (!object.IsObject()) return 0;
  auto it = object.FindMember(key);
  return it != object.MemberEnd() && it->value.IsNumber() ? it->value.GetDouble() : 0;
}

const rapidjson::Value* Member(const rapidjson::Value& object, const char* key) {
  if (!object.IsObject()) return nullptr;
  auto it = object.FindMember(key);
  return it == object.MemberEnd() ? nullptr : &it->value;
}

// A librdkafka window ({"avg","max","cnt",...}) in microseconds or bytes, across brokers or
// topics: the count-weighted average and the maximum; nullopt-like (cnt 0) when empty.
struct Window {
  double weighted = 0;
  double count = 0;
  double max = 0;
  void Add(const rapidjson::Value* window, double scale) {
    if (window == nullptr) return;
    const double cnt = Number(*window, "cnt");
    if (cnt <= 0) return;
    weighted += Number(*window, "avg") * scale * cnt;
    count += cnt;
    max = std::max(max, Number(*window, "max") * scale);
  }
};

// Forwards a JSON document's parse events to `out` without the members named `skip` (their
// whole values): a producer's statistics list every partition of every topic it knows, about
// 2 KB each, which a worker copying 10,000 partitions would hold as a 27 MB document every
// statistics interval to read none of it.
template <typename Out>
class WithoutMembers : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, WithoutMembers<Out>> {
 public:
  WithoutMembers(Out& out, std::string_view skip) : out_(out), skip_(skip) {}

  bool Null() {
    return Scalar([&] { return out_.Null(); });
  }
  bool Bool(bool b) {
    return Scalar([&] { return out_.Bool(b); });
  }
  bool Int(int i) {
    return Scalar([&] { return out_.Int(i); });
  }
  bool Uint(unsigned u) {
    return Scalar([&] { return out_.Uint(u); });
  }
  bool Int64(int64_t i) {
    return Scalar([&] { return out_.Int64(i); });
  }
  bool Uint64(uint64_t u) {
    return Scalar([&] { return out_.Uint64(u); });
  }
  bool Double(double d) {
    return Scalar([&] { return out_.Double(d); });
  }
  bool RawNumber(const char* s, rapidjson::SizeType n, bool copy) {
    return Scalar([&] { return out_.RawNumber(s, n, copy); });
  }
  bool String(const char* s, rapidjson::SizeType n, bool copy) {
    return Scalar([&] { return out_.String(s, n, copy); });
  }
  bool Key(const char* s, rapidjson::SizeType n, bool copy) {
    if (skipped_depth_ > 0) return true;
    if (std::string_view(s, n) == skip_) {
      skip_next_ = true;
      return true;
    }
    return out_.Key(s, n, copy);
  }
  bool StartObject() {
    return Start([&] { return out_.StartObject(); });
  }
  bool EndObject(rapidjson::SizeType) {
    return End([&](auto n) { return out_.EndObject(n); });
  }
  bool StartArray() {
    return Start([&] { return out_.StartArray(); });
  }
  bool EndArray(rapidjson::SizeType) {
    return End([&](auto n) { return out_.EndArray(n); });
  }

 private:
  // Whether the value that starts now is left out (it ends at once when it is a scalar).
  bool SkipValue() {
    if (skipped_depth_ > 0) return true;
    if (!skip_next_) return false;
    skip_next_ = false;
    return true;
  }
  template <typename F>
  bool Scalar(F forward) {
    if (SkipValue()) return true;
    if (!forwarded_.empty()) ++forwarded_.back();
    return forward();
  }
  template <typename F>
  bool Start(F forward) {
    if (SkipValue()) {
      ++skipped_depth_;
      return true;
    }
    if (!forwarded_.empty()) ++forwarded_.back();
    forwarded_.push_back(0);
    return forward();
  }
  template <typename F>
  bool End(F forward) {
    if (skipped_depth_ > 0) {
      --skipped_depth_;
      return true;
    }
    // The document counts the members (elements) it was given, not the source's.
    const rapidjson::SizeType n = forwarded_.back();
    forwarded_.pop_back();
    return forward(n);
  }

  Out& out_;
  const std::string_view skip_;
  bool skip_next_ = false;
  int skipped_depth_ = 0;                       // > 0 inside a left-out value
  std::vector<rapidjson::SizeType> forwarded_;  // values given to `out_` per open container
};

// Parses `json` into `doc`, without the members named `skip` when it is not empty.
void ParseStatistics(std::string_view json, std::string_view skip, rapidjson::Document& doc) {
  if (skip.empty()) {
    doc.Parse(json.data(), json.size());
    return;
  }
  rapidjson::MemoryStream stream(json.data(), json.size());
  rapidjson::Reader reader;
  auto parse = [&](rapidjson::Document& out) {
    WithoutMembers<rapidjson::Document> filter(out, skip);
    return !reader.Parse(stream, filter).IsError();
  };
  doc.Populate(parse);  // a malformed document leaves `doc` null
}

// "<prefix>-total" (CumulativeSum) and "<prefix>-rate" (Rate) of what is recorded.
std::vector<StatSpec> TotalAndRate(const std::string& prefix, const std::string& what) {
  return {{prefix + "-total", "The total number of " + what, StatKind::kCumulativeSum},
          {prefix + "-rate", "The number of " + what + " per second", StatKind::kRate}};
}

std::vector<StatSpec> One(const std::string& name, const std::string& description,
                          StatKind kind = StatKind::kValue) {
  return {{name, description, kind}};
}

void Record(metrics::Sensor* sensor, double value) {
  if (sensor != nullptr) sensor->Record(value, metrics::NowMs());
}

}  // namespace

ClientMetrics::ClientMetrics(metrics::MetricsScope& scope, Kind kind, std::string client_id)
    : scope_(scope), kind_(kind), client_id_(std::move(client_id)) {}

metrics::Sensor* ClientMetrics::Sensor(const std::string& group, const metrics::Tags& tags,
                                       std::vector<StatSpec> stats) {
  std::string key = absl::StrCat(group, "/", stats.front().name);
  for (const auto& [k, v] : tags) absl::StrAppend(&key, "/", k, "=", v);
  auto it = sensors_.find(key);
  if (it != sensors_.end()) return it->second;
  metrics::Sensor* sensor =
      scope_.AddSensor(kind_ == Kind::kProducer ? kProducerDomain : kConsumerDomain, group, tags,
                       std::move(stats), metrics::NowMs());
  sensors_[key] = sensor;
  return sensor;
}

void ClientMetrics::RecordGrowth(metrics::Sensor* sensor, const std::string& key,
                                 double now_value) {
  auto [it, first] = last_.try_emplace(key, 0);
  const double growth = std::max(0.0, now_value - it->second);
  it->second = now_value;
  if (growth > 0 || first) Record(sensor, growth);
}

void ClientMetrics::Update(std::string_view json) {
  rapidjson::Document doc;
  // A producer reads its topics, never their partitions (a consumer reads its partitions' lag).
  ParseStatistics(json, kind_ == Kind::kProducer ? "partitions" : "", doc);
  if (doc.HasParseError() || !doc.IsObject()) return;
  const metrics::Tags client = {{"client-id", client_id_}};
  // A librdkafka window as Java's "<prefix>-avg" (Avg) and "<prefix>-max" (Max): one value of
  // each per statistics interval.
  auto record_window = [&](const std::string& group, const std::string& prefix,
                           const std::string& what, const Window& w) {
    if (w.count <= 0) return;
    Record(Sensor(group, client, One(prefix + "-avg", "The average " + what, StatKind::kAvg)),
           w.weighted / w.count);
    Record(Sensor(group, client, One(prefix + "-max", "The maximum " + what, StatKind::kMax)),
           w.max);
  };

  // Brokers: latencies, in-flight requests, connections, request counts by API.
  Window rtt, queue_time, throttle;
  double in_flight = 0, connections = 0, connects = 0, disconnects = 0;
  std::map<std::string, double> requests;  // API name -> count
  if (const rapidjson::Value* brokers = Member(doc, "brokers"); brokers && brokers->IsObject()) {
    for (const auto& [name, broker] : brokers->GetObject()) {
      if (Number(broker, "nodeid") < 0) continue;  // bootstrap and logical brokers
      rtt.Add(Member(broker, "rtt"), 1e-3);
      queue_time.Add(Member(broker, "int_latency"), 1e-3);
      throttle.Add(Member(broker, "throttle"), 1.0);
      in_flight += Number(broker, "waitresp_cnt");
      if (const rapidjson::Value* state = Member(broker, "state");
          state && state->IsString() && std::string_view(state->GetString()) == "UP") {
        ++connections;
      }
      connects += Number(broker, "connects");
      disconnects += Number(broker, "disconnects");
      if (const rapidjson::Value* req = Member(broker, "req"); req && req->IsObject()) {
        for (const auto& [api, count] : req->GetObject()) {
          if (count.IsNumber()) requests[api.GetString()] += count.GetDouble();
        }
      }
    }
  }

  if (kind_ == Kind::kProducer) {
    const std::string g = "producer-metrics";
    RecordGrowth(Sensor(g, client, TotalAndRate("record-send", "records sent.")), "txmsgs",
                 Number(doc, "txmsgs"));
    RecordGrowth(Sensor(g, client, TotalAndRate("request", "requests sent.")), "tx",
                 Number(doc, "tx"));
    RecordGrowth(Sensor(g, client, TotalAndRate("response", "responses received.")), "rx",
                 Number(doc, "rx"));
    RecordGrowth(
        Sensor(g, client, TotalAndRate("outgoing-byte", "outgoing bytes sent to all servers.")),
        "tx_bytes", Number(doc, "tx_bytes"));
    RecordGrowth(Sensor(g, client, TotalAndRate("incoming-byte", "bytes read off all sockets.")),
                 "rx_bytes", Number(doc, "rx_bytes"));
    RecordGrowth(Sensor(g, client,
                        One("connection-creation-total",
                            "The total number of new connections "
                            "established.",
                            StatKind::kCumulativeSum)),
                 "connects", connects);
    RecordGrowth(Sensor(g, client,
                        One("connection-close-total", "The total number of connections closed.",
                            StatKind::kCumulativeSum)),
                 "disconnects", disconnects);
    record_window(g, "request-latency", "request latency in ms.", rtt);
    record_window(g, "record-queue-time", "time in ms record batches spent in the send buffer.",
                  queue_time);
    Window batch;
    double metadata_age_ms = 0;
    if (const rapidjson::Value* topics = Member(doc, "topics"); topics && topics->IsObject()) {
      for (const auto& [name, topic] : topics->GetObject()) {
        batch.Add(Member(topic, "batchsize"), 1.0);
        metadata_age_ms = std::max(metadata_age_ms, Number(topic, "metadata_age"));
      }
    }
    record_window(g, "batch-size", "number of bytes sent per partition per-request.", batch);
    const double buffer = Number(doc, "msg_size_max");
    Record(Sensor(g, client,
                  One("buffer-total-bytes",
                      "The maximum amount of buffer memory the client can use (whether or not it "
                      "is currently used).")),
           buffer);
    Record(Sensor(g, client,
                  One("buffer-available-bytes",
                      "The total amount of buffer memory that is not being used (either "
                      "unallocated or in the free list).")),
           std::max(0.0, buffer - Number(doc, "msg_size")));
    Record(Sensor(g, client,
                  One("requests-in-flight",
                      "The current number of in-flight requests awaiting a response.")),
           in_flight);
    Record(Sensor(g, client,
                  One("metadata-age",
                      "The age in seconds of the current producer "
                      "metadata being used.")),
           metadata_age_ms / 1000);
    Record(Sensor(g, client, One("connection-count", "The current number of active connections.")),
           connections);
    return;
  }

  // Consumer: fetch manager.
  const std::string f = "consumer-fetch-manager-metrics";
  RecordGrowth(Sensor(f, client, TotalAndRate("records-consumed", "records consumed.")), "rxmsgs",
               Number(doc, "rxmsgs"));
  RecordGrowth(Sensor(f, client, TotalAndRate("bytes-consumed", "bytes consumed.")), "rxmsg_bytes",
               Number(doc, "rxmsg_bytes"));
  RecordGrowth(Sensor(f, client, TotalAndRate("fetch", "fetch requests.")), "Fetch",
               requests["Fetch"]);
  record_window(f, "fetch-throttle-time", "throttle time in ms.", throttle);
  double lag_max = -1;
  std::set<std::pair<std::string, int32_t>> assigned;
  if (const rapidjson::Value* topics = Member(doc, "topics"); topics && topics->IsObject()) {
    for (const auto& [topic_name, topic] : topics->GetObject()) {
      const rapidjson::Value* partitions = Member(topic, "partitions");
      if (partitions == nullptr || !partitions->IsObject()) continue;
      for (const auto& [id, p] : partitions->GetObject()) {
        int32_t partition = -1;
        if (!absl::SimpleAtoi(id.GetString(), &partition) || partition < 0) continue;
        const rapidjson::Value* fetch_state = Member(p, "fetch_state");
        if (fetch_state == nullptr || !fetch_state->IsString() ||
            std::string_view(fetch_state->GetString()) == "none") {
          continue;  // not assigned to this consumer
        }
        const std::pair<std::string, int32_t> tp{topic_name.GetString(), partition};
        assigned.insert(tp);
        const metrics::Tags tags = {{"client-id", client_id_},
                                    {"topic", tp.first},
                                    {"partition", std::to_string(partition)}};
        auto [it, added] = partitions_.try_emplace(tp, nullptr);
        if (added) {
          it->second = scope_.AddSensor(kConsumerDomain, f, tags,
                                        One("records-lag", "The latest lag of the partition"),
                                        metrics::NowMs());
          sensors_[absl::StrCat(f, "/records-lead/", tp.first, "/", partition)] = scope_.AddSensor(
              kConsumerDomain, f, tags, One("records-lead", "The latest lead of the partition"),
              metrics::NowMs());
        }
        const double lag = Number(p, "consumer_lag");
        if (lag >= 0) {
          Record(it->second, lag);
          lag_max = std::max(lag_max, lag);
        }
        const double app = Number(p, "app_offset"), lo = Number(p, "lo_offset");
        if (app >= 0 && lo >= 0) {
          Record(sensors_[absl::StrCat(f, "/records-lead/", tp.first, "/", partition)], app - lo);
        }
      }
    }
  }
  // Partitions no longer assigned lose their series, as Java's consumer removes them.
  for (auto it = partitions_.begin(); it != partitions_.end();) {
    if (assigned.count(it->first)) {
      ++it;
      continue;
    }
    const std::string lead =
        absl::StrCat(f, "/records-lead/", it->first.first, "/", it->first.second);
    if (it->second) scope_.RemoveSensor(it->second);
    if (metrics::Sensor* s = sensors_[lead]) scope_.RemoveSensor(s);
    sensors_.erase(lead);
    it = partitions_.erase(it);
  }
  if (lag_max >= 0) {
    Record(Sensor(f, client,
                  One("records-lag-max",
                      "The maximum lag in terms of number of records for any partition in this "
                      "window",
                      StatKind::kMax)),
           lag_max);
  }

  // Consumer: group coordinator.
  const std::string c = "consumer-coordinator-metrics";
  RecordGrowth(Sensor(c, client, TotalAndRate("commit", "commit calls.")), "OffsetCommit",
               requests["OffsetCommit"]);
  RecordGrowth(Sensor(c, client, TotalAndRate("heartbeat", "heartbeats.")), "Heartbeat",
               requests["Heartbeat"] + requests["ConsumerGroupHeartbeat"]);
  RecordGrowth(Sensor(c, client, TotalAndRate("join", "group joins.")), "JoinGroup",
               requests["JoinGroup"]);
  RecordGrowth(Sensor(c, client, TotalAndRate("sync", "group syncs.")), "SyncGroup",
               requests["SyncGroup"]);
  if (const rapidjson::Value* cgrp = Member(doc, "cgrp"); cgrp && cgrp->IsObject()) {
    Record(Sensor(c, client,
                  One("assigned-partitions",
                      "The number of partitions currently assigned to this consumer")),
           Number(*cgrp, "assignment_size"));
    RecordGrowth(Sensor(c, client,
                        One("rebalance-total", "The total number of rebalance events",
                            StatKind::kCumulativeSum)),
                 "rebalance_cnt", Number(*cgrp, "rebalance_cnt"));
    Record(Sensor(c, client,
                  One("last-rebalance-seconds-ago",
                      "The number of seconds since the last successful rebalance event")),
           Number(*cgrp, "rebalance_age") / 1000);
  }
}

}  // namespace connectd::kafka
