#include "runtime/kafka/mock_cluster.h"

#include <vector>

#include "absl/strings/str_cat.h"

namespace connectd::kafka {

absl::StatusOr<std::unique_ptr<MockKafkaCluster>> MockKafkaCluster::Start(int broker_count) {
  if (broker_count < 1) return absl::InvalidArgumentError("a mock cluster needs a broker");
  absl::StatusOr<ConfPtr> conf = MakeConf({{"log_level", "3"}});
  if (!conf.ok()) return conf.status();
  absl::StatusOr<RdKafkaPtr> host = MakeClient(RD_KAFKA_PRODUCER, *std::move(conf));
  if (!host.ok()) return host.status();
  rd_kafka_mock_cluster_t* cluster = rd_kafka_mock_cluster_new(host->get(), broker_count);
  if (cluster == nullptr) return absl::InternalError("rd_kafka_mock_cluster_new failed");
  // librdkafka 2.14's mock advertises the flexible versions of the classic group APIs (JoinGroup
  // 6, SyncGroup 4, LeaveGroup 3+) but reads and writes their arrays in the old fixed-size form
  // (its own client never sends them), so a `connect` group member that negotiates them is
  // disconnected at its first JoinGroup. Capped to the versions it really speaks.
  constexpr struct {
    int16_t api_key;
    int16_t max_version;
  } kGroupApiCaps[] = {{11 /* JoinGroup */, 5},
                       {12 /* Heartbeat */, 3},
                       {13 /* LeaveGroup */, 2},
                       {14 /* SyncGroup */, 3}};
  for (const auto& cap : kGroupApiCaps) {
    rd_kafka_mock_set_apiversion(cluster, cap.api_key, 0, cap.max_version);
  }
  return std::unique_ptr<MockKafkaCluster>(new MockKafkaCluster(*std::move(host), cluster));
}

MockKafkaCluster::MockKafkaCluster(RdKafkaPtr host, rd_kafka_mock_cluster_t* cluster)
    : host_(std::move(host)),
      cluster_(cluster),
      bootstrap_servers_(rd_kafka_mock_cluster_bootstraps(cluster)) {}

MockKafkaCluster::~MockKafkaCluster() { rd_kafka_mock_cluster_destroy(cluster_); }

absl::Status MockKafkaCluster::CreateTopic(const std::string& topic, int partitions,
                                           int replication_factor) {
  return ToStatus(
      rd_kafka_mock_topic_create(cluster_, topic.c_str(), partitions, replication_factor),
      absl::StrCat("creating mock topic ", topic));
}

absl::Status MockKafkaCluster::SetBrokerDown(int32_t broker_id) {
  return ToStatus(rd_kafka_mock_broker_set_down(cluster_, broker_id), "mock broker down");
}

absl::Status MockKafkaCluster::SetBrokerUp(int32_t broker_id) {
  return ToStatus(rd_kafka_mock_broker_set_up(cluster_, broker_id), "mock broker up");
}

absl::Status MockKafkaCluster::SetBrokerRtt(int32_t broker_id, int rtt_ms) {
  return ToStatus(rd_kafka_mock_broker_set_rtt(cluster_, broker_id, rtt_ms), "mock broker rtt");
}

void MockKafkaCluster::PushRequestErrors(int16_t api_key, size_t count, rd_kafka_resp_err_t error) {
  std::vector<rd_kafka_resp_err_t> errors(count, error);
  rd_kafka_mock_push_request_errors_array(cluster_, api_key, count, errors.data());
}

}  // namespace connectd::kafka
