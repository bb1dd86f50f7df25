#include "runtime/mirror_maker/failover/group_translation.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <sstream>
#include <tuple>

#include "jvm/utf8.h"

namespace connectd::mirror_maker {

std::vector<GroupOffsetPlan> PlanFailover(
    std::vector<GroupOffsetPlan> translated,
    const std::map<std::pair<std::string, int32_t>, int64_t>& target_committed) {
  for (GroupOffsetPlan& plan : translated) {
    auto it = target_committed.find({plan.topic, plan.partition});
    plan.target_committed =
        it == target_committed.end() ? std::nullopt : std::optional<int64_t>(it->second);
    plan.commit = !plan.target_committed || *plan.target_committed < plan.downstream_offset;
  }
  std::sort(translated.begin(), translated.end(), [](const auto& a, const auto& b) {
    return std::tie(a.topic, a.partition) < std::tie(b.topic, b.partition);
  });
  return translated;
}

namespace {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

void String(Writer& w, const std::string& s) {
  const std::string valid = jvm::IsValidUtf8(s) ? s : jvm::ToJavaString(s);
  w.String(valid.data(), static_cast<rapidjson::SizeType>(valid.size()));
}

}  // namespace

std::string GroupTranslationJson(const GroupTranslation& t) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  w.Key("group");
  String(w, t.group);
  w.Key("source");
  String(w, t.source_alias);
  w.Key("checkpoints_topic");
  String(w, t.checkpoints_topic);
  w.Key("committed");
  w.Bool(t.committed);
  w.Key("partitions");
  w.StartArray();
  for (const GroupOffsetPlan& p : t.partitions) {
    w.StartObject();
    w.Key("topic");
    String(w, p.topic);
    w.Key("partition");
    w.Int(p.partition);
    w.Key("upstream_offset");
    w.Int64(p.upstream_offset);
    w.Key("offset");
    w.Int64(p.downstream_offset);
    w.Key("metadata");
    String(w, p.metadata);
    w.Key("target_committed_offset");
    if (p.target_committed) {
      w.Int64(*p.target_committed);
    } else {
      w.Null();
    }
    w.Key("action");
    w.String(p.commit ? "commit" : "keep");
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return buffer.GetString();
}

std::string GroupTranslationText(const GroupTranslation& t) {
  std::ostringstream out;
  out << "consumer group '" << t.group << "', checkpoints from " << t.source_alias << " in "
      << t.checkpoints_topic << (t.committed ? " (committed)" : "") << "\n";
  out << "TOPIC\tPARTITION\tSOURCE-OFFSET\tTARGET-OFFSET\tTARGET-COMMITTED\tACTION\n";
  for (const GroupOffsetPlan& p : t.partitions) {
    out << p.topic << "\t" << p.partition << "\t" << p.upstream_offset << "\t"
        << p.downstream_offset << "\t"
        << (p.target_committed ? std::to_string(*p.target_committed) : "-") << "\t"
        << (p.commit ? "commit" : "keep (the group is at or past it there)") << "\n";
  }
  return out.str();
}

}  // namespace connectd::mirror_maker
