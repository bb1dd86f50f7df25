// File: replication_policy.h
//
// MirrorMaker 2's ReplicationPolicy (connect-mirror-client): how remote topics are named, how a
// topic name is traced back to its source cluster, and the names of MM2's internal topics. The
// two policies Kafka ships are implemented, with Kafka 4.x behaviour byte for byte (checked
// against the Java classes by tests/golden/mirror/policies.tsv):
//
//   DefaultReplicationPolicy   "us-west.orders": source alias + separator + topic
//   IdentityReplicationPolicy  topics keep their names (MirrorMaker 1 style); heartbeats topics
//                              are still prefixed, so cycle detection and RemoteClusterUtils-style
//                              tooling keep working for them
//
// Usage:
//   std::string error;
//   std::unique_ptr<ReplicationPolicy> policy = MakeReplicationPolicy(connector_props, &error);
//   if (!policy) return InvalidArgument(error);
//   policy->FormatRemoteTopic("us-west", "orders");   // "us-west.orders"
//   IsCycle(*policy, "us-west", "us-west.orders");    // true: never mirror it back
//
// Strings are UTF-8 byte strings; "Java null" is std::nullopt. Nothing here throws.
// Thread safety: policies are immutable after construction; all methods are const and may be
// called concurrently.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace connectd::mirror {

// ReplicationPolicy is Kafka's ReplicationPolicy interface, with its default methods.
class ReplicationPolicy {
 public:
  virtual ~ReplicationPolicy() = default;

  // FormatRemoteTopic names `topic` of cluster `source_alias` on a target cluster.
  virtual std::string FormatRemoteTopic(const std::string& source_alias,
                                        const std::string& topic) const = 0;
  // TopicSource returns the alias of the cluster `topic` was replicated from, or nullopt if
  // `topic` is not a remote topic.
  virtual std::optional<std::string> TopicSource(const std::string& topic) const = 0;
  // UpstreamTopic returns the name of `topic` one hop upstream (itself possibly remote), or
  // nullopt if `topic` is not a remote topic.
  virtual std::optional<std::string> UpstreamTopic(const std::string& topic) const = 0;

  // OriginalTopic follows UpstreamTopic until it returns nullopt or its own input; returns
  // `topic` itself for a local topic.
  std::string OriginalTopic(const std::string& topic) const;

  // The name of the heartbeats topic MirrorHeartbeatConnector writes: "heartbeats".
  virtual std::string HeartbeatsTopic() const { return "heartbeats"; }
  // Defaults: "mm2-offset-syncs.<alias>.internal" and "<alias>.checkpoints.internal".
  virtual std::string OffsetSyncsTopic(const std::string& cluster_alias) const;
  virtual std::string CheckpointsTopic(const std::string& cluster_alias) const;
  // connectd's exact offset index, beside the offset-syncs topic (no Java class has it):
  // "mm2-offset-index.<alias>.internal", an MM2 internal topic, so never replicated.
  virtual std::string OffsetIndexTopic(const std::string& cluster_alias) const;

  // IsHeartbeatsTopic: OriginalTopic(topic) == HeartbeatsTopic().
  bool IsHeartbeatsTopic(const std::string& topic) const;
  // IsCheckpointsTopic: ends with ".checkpoints.internal" (by default).
  virtual bool IsCheckpointsTopic(const std::string& topic) const;
  // IsMM2InternalTopic: starts with "mm2" and ends with ".internal", or IsCheckpointsTopic
  // (by default; KAFKA-17200, Kafka 4.0+).
  virtual bool IsMM2InternalTopic(const std::string& topic) const;
  // IsInternalTopic: starts with "__" or ".", or IsMM2InternalTopic. Since KAFKA-17200 (Kafka
  // 4.0) a user topic that merely ends in ".internal"/"-internal" is NOT internal. Internal
  // topics are never replicated.
  virtual bool IsInternalTopic(const std::string& topic) const;
};

// DefaultReplicationPolicy is org.apache.kafka.connect.mirror.DefaultReplicationPolicy.
class DefaultReplicationPolicy : public ReplicationPolicy {
 public:
  static constexpr char kClassName[] = "org.apache.kafka.connect.mirror.DefaultReplicationPolicy";
  static constexpr char kSeparatorConfig[] = "replication.policy.separator";
  static constexpr char kSeparatorDefault[] = ".";
  static constexpr char kInternalTopicSeparatorEnabledConfig[] =
      "replication.policy.internal.topic.separator.enabled";

  // `separator` joins alias and topic. With `internal_topic_separator_enabled` (KIP-690/949) the
  // offset-syncs and checkpoints topic names use it too, else ".".
  explicit DefaultReplicationPolicy(std::string separator = kSeparatorDefault,
                                    bool internal_topic_separator_enabled = true);

  // Configure applies Java's DefaultReplicationPolicy.configure to the connector's raw props:
  // the separator is taken verbatim (not trimmed) if the key is present, and the internal flag
  // is read (Boolean.parseBoolean: "true" in any case, anything else false) only when a
  // separator key is present too.
  void Configure(const std::map<std::string, std::string>& props);

  const std::string& separator() const { return separator_; }
  bool internal_topic_separator_enabled() const { return internal_topic_separator_enabled_; }

  std::string FormatRemoteTopic(const std::string& source_alias,
                                const std::string& topic) const override;
  // TopicSource is Java's `separatorPattern.split(topic)[0]` when that split has at least two
  // parts: split drops trailing empty strings and keeps a leading one, so ".x" has source "",
  // while "x." and ".." are not remote.
  std::optional<std::string> TopicSource(const std::string& topic) const override;
  std::optional<std::string> UpstreamTopic(const std::string& topic) const override;
  std::string OffsetSyncsTopic(const std::string& cluster_alias) const override;
  std::string OffsetIndexTopic(const std::string& cluster_alias) const override;
  std::string CheckpointsTopic(const std::string& cluster_alias) const override;
  bool IsCheckpointsTopic(const std::string& topic) const override;
  bool IsMM2InternalTopic(const std::string& topic) const override;

 private:
  std::string InternalSeparator() const;

  std::string separator_;
  bool internal_topic_separator_enabled_;
};

// IdentityReplicationPolicy is org.apache.kafka.connect.mirror.IdentityReplicationPolicy
// (KAFKA-9726). A topic whose name ends with HeartbeatsTopic() ("heartbeats", so also
// "myheartbeats") is treated exactly as DefaultReplicationPolicy treats it; any other topic keeps
// its name, its TopicSource is the configured source alias (nullopt when none was configured)
// and its UpstreamTopic is the topic itself. Such a policy cannot detect cycles.
class IdentityReplicationPolicy : public DefaultReplicationPolicy {
 public:
  static constexpr char kClassName[] = "org.apache.kafka.connect.mirror.IdentityReplicationPolicy";
  static constexpr char kSourceClusterAliasConfig[] = "source.cluster.alias";

  explicit IdentityReplicationPolicy(std::string separator = kSeparatorDefault,
                                     bool internal_topic_separator_enabled = true,
                                     std::optional<std::string> source_cluster_alias = {});

  // Configure does DefaultReplicationPolicy::Configure, then takes "source.cluster.alias"
  // verbatim if present.
  void Configure(const std::map<std::string, std::string>& props);

  const std::optional<std::string>& source_cluster_alias() const { return source_cluster_alias_; }

  std::string FormatRemoteTopic(const std::string& source_alias,
                                const std::string& topic) const override;
  std::optional<std::string> TopicSource(const std::string& topic) const override;
  std::optional<std::string> UpstreamTopic(const std::string& topic) const override;

 private:
  bool LooksLikeHeartbeat(const std::string& topic) const;

  std::optional<std::string> source_cluster_alias_;
};

// The key naming the policy class in MM2 connector configs.
inline constexpr char kReplicationPolicyClassConfig[] = "replication.policy.class";

// MakeReplicationPolicy builds and configures the policy named by "replication.policy.class"
// (default DefaultReplicationPolicy; the Java class name, trimmed as Java's ConfigDef trims
// CLASS values, or its simple name) from a connector's raw props. Returns nullptr and sets
// *error (if `error` is not null) for any other class.
std::unique_ptr<ReplicationPolicy> MakeReplicationPolicy(
    const std::map<std::string, std::string>& props, std::string* error);

// IsCycle is MirrorSourceConnector.isCycle: whether replicating `topic` to the cluster
// `target_alias` would send it back where it came from. True if TopicSource(topic) is the
// target; otherwise recurses on UpstreamTopic(topic), stopping (false) when the source or the
// upstream topic is nullopt or the upstream topic is `topic` itself (identity-style policies).
bool IsCycle(const ReplicationPolicy& policy, const std::string& target_alias,
             const std::string& topic);

}  // namespace connectd::mirror
