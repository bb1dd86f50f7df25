#include "connectors/mirror_client/replication_policy.h"

#include <string_view>
#include <utility>
#include <vector>

#include "jvm/utf8.h"

namespace connectd::mirror {
namespace {

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && s.compare(0, prefix.size(), prefix) == 0;
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Java's String.trim: strips every char <= U+0020 from both ends.
std::string_view JavaTrim(std::string_view s) {
  size_t begin = 0;
  size_t end = s.size();
  while (begin < end && static_cast<unsigned char>(s[begin]) <= 0x20) ++begin;
  while (end > begin && static_cast<unsigned char>(s[end - 1]) <= 0x20) --end;
  return s.substr(begin, end - begin);
}

// Boolean.parseBoolean: "true" ignoring ASCII case.
bool JavaParseBoolean(std::string_view s) {
  static constexpr std::string_view kTrue = "true";
  if (s.size() != kTrue.size()) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != kTrue[i]) return false;
  }
  return true;
}

// The first part of Java's Pattern.compile(Pattern.quote(separator)).split(topic) (limit 0), or
// nullopt when that split has fewer than two parts.
std::optional<std::string> FirstOfJavaSplit(const std::string& topic, const std::string& sep) {
  if (sep.empty()) {
    // An empty pattern matches between every two chars (never producing a leading empty part):
    // the parts are the topic's single characters, so two parts need two characters. Java
    // counts UTF-16 units; connectd counts code points (they differ only for characters outside
    // the BMP, which Kafka topic names cannot contain).
    std::u32string cps = jvm::DecodeUtf8(topic);
    if (cps.size() < 2) return std::nullopt;
    std::string first;
    jvm::AppendUtf8(cps[0], first);
    if (!StartsWith(topic, first)) return std::nullopt;  // malformed UTF-8 lead: not remote
    return first;
  }
  std::vector<std::string_view> parts;
  const std::string_view view(topic);
  size_t index = 0;
  for (size_t match = view.find(sep); match != std::string_view::npos;
       match = view.find(sep, index)) {
    parts.push_back(view.substr(index, match - index));
    index = match + sep.size();
  }
  if (parts.empty()) return std::nullopt;  // no match: the single part is the topic itself
  parts.push_back(view.substr(index));
  while (!parts.empty() && parts.back().empty()) parts.pop_back();  // trailing empty strings
  if (parts.size() < 2) return std::nullopt;
  return std::string(parts[0]);
}

}  // namespace

// ---- ReplicationPolicy ----------------------------------------------------------------------

std::string ReplicationPolicy::OriginalTopic(const std::string& topic) const {
  std::string current = topic;
  for (;;) {
    std::optional<std::string> upstream = UpstreamTopic(current);
    if (!upstream || *upstream == current) return current;
    current = std::move(*upstream);
  }
}

std::string ReplicationPolicy::OffsetSyncsTopic(const std::string& cluster_alias) const {
  return "mm2-offset-syncs." + cluster_alias + ".internal";
}

std::string ReplicationPolicy::OffsetIndexTopic(const std::string& cluster_alias) const {
  return "mm2-offset-index." + cluster_alias + ".internal";
}

std::string ReplicationPolicy::CheckpointsTopic(const std::string& cluster_alias) const {
  return cluster_alias + ".checkpoints.internal";
}

bool ReplicationPolicy::IsHeartbeatsTopic(const std::string& topic) const {
  return HeartbeatsTopic() == OriginalTopic(topic);
}

bool ReplicationPolicy::IsCheckpointsTopic(const std::string& topic) const {
  return EndsWith(topic, ".checkpoints.internal");
}

bool ReplicationPolicy::IsMM2InternalTopic(const std::string& topic) const {
  return (StartsWith(topic, "mm2") && EndsWith(topic, ".internal")) || IsCheckpointsTopic(topic);
}

bool ReplicationPolicy::IsInternalTopic(const std::string& topic) const {
  const bool kafka_internal = StartsWith(topic, "__") || StartsWith(topic, ".");
  return IsMM2InternalTopic(topic) || kafka_internal;
}

// ---- DefaultReplicationPolicy ---------------------------------------------------------------

DefaultReplicationPolicy::DefaultReplicationPolicy(std::string separator,
                                                   bool internal_topic_separator_enabled)
    : separator_(std::move(separator)),
      internal_topic_separator_enabled_(internal_topic_separator_enabled) {}

void DefaultReplicationPolicy::Configure(const std::map<std::string, std::string>& props) {
  auto sep = props.find(kSeparatorConfig);
  if (sep == props.end()) return;
  separator_ = sep->second;
  auto enabled = props.find(kInternalTopicSeparatorEnabledConfig);
  if (enabled != props.end()) internal_topic_separator_enabled_ = JavaParseBoolean(enabled->second);
}

std::string DefaultReplicationPolicy::FormatRemoteTopic(const std::string& source_alias,
                                                        const std::string& topic) const {
  return source_alias + separator_ + topic;
}

std::optional<std::string> DefaultReplicationPolicy::TopicSource(const std::string& topic) const {
  return FirstOfJavaSplit(topic, separator_);
}

std::optional<std::string> DefaultReplicationPolicy::UpstreamTopic(const std::string& topic) const {
  std::optional<std::string> source = TopicSource(topic);
  if (!source) return std::nullopt;
  const size_t skip = source->size() + separator_.size();
  if (skip > topic.size()) return std::nullopt;  // only an overriding TopicSource could do this
  return topic.substr(skip);
}

std::string DefaultReplicationPolicy::InternalSeparator() const {
  return internal_topic_separator_enabled_ ? separator_ : ".";
}

std::string DefaultReplicationPolicy::OffsetSyncsTopic(const std::string& cluster_alias) const {
  const std::string isep = InternalSeparator();
  return "mm2-offset-syncs" + isep + cluster_alias + isep + "internal";
}

std::string DefaultReplicationPolicy::OffsetIndexTopic(const std::string& cluster_alias) const {
  const std::string isep = InternalSeparator();
  return "mm2-offset-index" + isep + cluster_alias + isep + "internal";
}

std::string DefaultReplicationPolicy::CheckpointsTopic(const std::string& cluster_alias) const {
  const std::string isep = InternalSeparator();
  return cluster_alias + isep + "checkpoints" + isep + "internal";
}

bool DefaultReplicationPolicy::IsCheckpointsTopic(const std::string& topic) const {
  const std::string isep = InternalSeparator();
  return EndsWith(topic, isep + "checkpoints" + isep + "internal");
}

bool DefaultReplicationPolicy::IsMM2InternalTopic(const std::string& topic) const {
  return (StartsWith(topic, "mm2") && EndsWith(topic, InternalSeparator() + "internal")) ||
         IsCheckpointsTopic(topic);
}

// ---- IdentityReplicationPolicy --------------------------------------------------------------

IdentityReplicationPolicy::IdentityReplicationPolicy(
    std::string separator, bool internal_topic_separator_enabled,
    std::optional<std::string> source_cluster_alias)
    : DefaultReplicationPolicy(std::move(separator), internal_topic_separator_enabled),
      source_cluster_alias_(std::move(source_cluster_alias)) {}

void IdentityReplicationPolicy::Configure(const std::map<std::string, std::string>& props) {
  DefaultReplicationPolicy::Configure(props);
  auto alias = props.find(kSourceClusterAliasConfig);
  if (alias != props.end()) source_cluster_alias_ = alias->second;
}

bool IdentityReplicationPolicy::LooksLikeHeartbeat(const std::string& topic) const {
  return EndsWith(topic, HeartbeatsTopic());
}

std::string IdentityReplicationPolicy::FormatRemoteTopic(const std::string& source_alias,
                                                         const std::string& topic) const {
  if (LooksLikeHeartbeat(topic)) {
    return DefaultReplicationPolicy::FormatRemoteTopic(source_alias, topic);
  }
  return topic;
}

std::optional<std::string> IdentityReplicationPolicy::TopicSource(const std::string& topic) const {
  if (LooksLikeHeartbeat(topic)) return DefaultReplicationPolicy::TopicSource(topic);
  return source_cluster_alias_;
}

std::optional<std::string> IdentityReplicationPolicy::UpstreamTopic(
    const std::string& topic) const {
  if (LooksLikeHeartbeat(topic)) return DefaultReplicationPolicy::UpstreamTopic(topic);
  return topic;
}

// ---- Factory and cycle detection ------------------------------------------------------------

std::unique_ptr<ReplicationPolicy> MakeReplicationPolicy(
    const std::map<std::string, std::string>& props, std::string* error) {
  std::string class_name = DefaultReplicationPolicy::kClassName;
  if (auto it = props.find(kReplicationPolicyClassConfig); it != props.end()) {
    class_name = std::string(JavaTrim(it->second));
  }
  if (class_name == DefaultReplicationPolicy::kClassName ||
      class_name == "DefaultReplicationPolicy") {
    auto policy = std::make_unique<DefaultReplicationPolicy>();
    policy->Configure(props);
    return policy;
  }
  if (class_name == IdentityReplicationPolicy::kClassName ||
      class_name == "IdentityReplicationPolicy") {
    auto policy = std::make_unique<IdentityReplicationPolicy>();
    policy->Configure(props);
    return policy;
  }
  if (error != nullptr) {
    // Java's ConfigException text for an unloadable class, plus what connectd offers instead.
    *error = "Invalid value " + class_name + " for configuration " + kReplicationPolicyClassConfig +
             ": Class " + class_name + " could not be found. connectd provides " +
             DefaultReplicationPolicy::kClassName + " and " +
             IdentityReplicationPolicy::kClassName +
             " (custom Java replication policies cannot be loaded).";
  }
  return nullptr;
}

bool IsCycle(const ReplicationPolicy& policy, const std::string& target_alias,
             const std::string& topic) {
  std::string current = topic;
  for (;;) {
    std::optional<std::string> source = policy.TopicSource(current);
    if (!source) return false;
    if (*source == target_alias) return true;
    std::optional<std::string> upstream = policy.UpstreamTopic(current);
    if (!upstream || *upstream == current) return false;
    current = std::move(*upstream);
  }
}

}  // namespace connectd::mirror
