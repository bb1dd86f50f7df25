// File: mock_cluster.h
//
// MockKafkaCluster: librdkafka's in-process mock cluster (rdkafka_mock.h) as an RAII object.
// It serves `connectd dev-kafka` (a JVM-free demo cluster) and fault-injection tests.
//
// Limits of the Debian librdkafka 2.0.2 mock (see runtime/kafka/README.md): no CreateTopics,
// DeleteTopics, CreatePartitions, DescribeConfigs/AlterConfigs or ACL APIs (create topics with
// CreateTopic() here), no ListGroups/DescribeGroups, no compaction or persistence, at most ~5 MiB
// kept per partition, no timestamp lookup, plaintext only.
//
// Thread safety: the mock runs on its own librdkafka thread; the methods here may be called from
// any thread.
#pragma once

#include <librdkafka/rdkafka.h>
// rdkafka_mock.h must follow rdkafka.h.
#include <librdkafka/rdkafka_mock.h>

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "runtime/kafka/rdkafka_handles.h"

namespace connectd::kafka {

class MockKafkaCluster {
 public:
  // Starts `broker_count` mock brokers on random loopback ports.
  static absl::StatusOr<std::unique_ptr<MockKafkaCluster>> Start(int broker_count);

  ~MockKafkaCluster();
  MockKafkaCluster(const MockKafkaCluster&) = delete;
  MockKafkaCluster& operator=(const MockKafkaCluster&) = delete;

  // "127.0.0.1:port,..." for clients' bootstrap.servers.
  const std::string& bootstrap_servers() const { return bootstrap_servers_; }

  absl::Status CreateTopic(const std::string& topic, int partitions, int replication_factor = 1);
  absl::Status SetBrokerDown(int32_t broker_id);
  absl::Status SetBrokerUp(int32_t broker_id);
  absl::Status SetBrokerRtt(int32_t broker_id, int rtt_ms);
  // The next `count` requests of Kafka API `api_key` fail with `error`.
  void PushRequestErrors(int16_t api_key, size_t count, rd_kafka_resp_err_t error);

 private:
  MockKafkaCluster(RdKafkaPtr host, rd_kafka_mock_cluster_t* cluster);

  RdKafkaPtr host_;  // the librdkafka instance whose thread runs the mock brokers
  rd_kafka_mock_cluster_t* cluster_;
  std::string bootstrap_servers_;
};

}  // namespace connectd::kafka
