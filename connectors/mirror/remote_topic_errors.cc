#include "connectors/mirror/remote_topic_errors.h"

namespace connectd::mirror {
namespace {

constexpr char kDomain[] = "connectd.mirror";
constexpr char kGroup[] = "MirrorSourceConnector";

}  // namespace

void RemoteTopicErrors::Failed(const std::string& topic, const char* operation,
                               const AdminError& error, int64_t now_ms) {
  auto [it, added] = entries_.try_emplace({topic, operation});
  Entry& e = it->second;
  if (added) {
    const sdk::MetricTags tags = {
        {"source", source_}, {"target", target_}, {"topic", topic}, {"operation", operation}};
    auto gauge = [&](const char* name, const char* what) {
      return metrics_.sensor(kDomain, kGroup, tags, {{name, sdk::Stat::kValue, what}});
    };
    e.code = gauge("admin-error-code",
                   "The target admin client's error for the remote topic, 0 once the operation "
                   "succeeded (Kafka's or librdkafka's code)");
    e.count = metrics_.sensor(
        kDomain, kGroup, tags,
        {{"admin-error-count", sdk::Stat::kCumulativeCount,
          "Errors of the operation on the remote topic since the connector started"}});
    e.first_ms = gauge("admin-error-first-ms", "When the current error was first reported");
    e.last_ms = gauge("admin-error-last-ms", "When the current error was last reported");
  }
  if (!e.active) e.first_ms.record(static_cast<double>(now_ms), now_ms);
  e.active = true;
  e.code.record(static_cast<double>(error.code), now_ms);
  e.count.record(1, now_ms);
  e.last_ms.record(static_cast<double>(now_ms), now_ms);
}

void RemoteTopicErrors::Succeeded(const std::string& topic, const char* operation, int64_t now_ms) {
  auto it = entries_.find({topic, operation});
  if (it == entries_.end() || !it->second.active) return;
  it->second.active = false;
  it->second.code.record(0, now_ms);
}

}  // namespace connectd::mirror
