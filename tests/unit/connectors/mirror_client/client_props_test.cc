// MirrorMaker 2's client settings and client ids, as Kafka's MirrorConnectorConfig derives them
// (the ids checked against MirrorSourceTaskConfig.sourceConsumerConfig of the 4.3.1 jars:
// "A->B|mm2-src-3|replication-consumer", and "mine|A->B|mm2-src-3|replication-consumer" with
// source.consumer.client.id=mine).
#include "connectors/mirror_client/client_props.h"

#include <gtest/gtest.h>

namespace connectd::mirror {
namespace {

TEST(ClientPropsTest, ConnectionKeysThenRoleThenSideRole) {
  auto props = ClientProps({{"source.cluster.bootstrap.servers", "a:1"},
                            {"source.cluster.linger.ms", "9"},
                            {"consumer.max.poll.records", "7"},
                            {"source.consumer.max.poll.records", "8"},
                            {"consumer.override.fetch.min.bytes", "1"}},
                           "source", "consumer");
  EXPECT_EQ(props, (std::map<std::string, std::string>{{"bootstrap.servers", "a:1"},
                                                       {"max.poll.records", "8"}}));
}

TEST(ClientPropsTest, MirrorMakerClientIdsAreKafkas) {
  std::map<std::string, std::string> task = {{"name", "mm2-src"},
                                             {"source.cluster.alias", "A"},
                                             {"target.cluster.alias", "B"},
                                             {"task.index", "3"}};
  EXPECT_EQ(ClientProps(task, "source", "consumer", "replication-consumer")["client.id"],
            "A->B|mm2-src-3|replication-consumer");
  task["source.consumer.client.id"] = "mine";
  EXPECT_EQ(ClientProps(task, "source", "consumer", "replication-consumer")["client.id"],
            "mine|A->B|mm2-src-3|replication-consumer");
  // A connector's own clients have no task index; the aliases default to Kafka's.
  EXPECT_EQ(
      ClientProps({{"name", "hb"}}, "target", "admin", "heartbeats-target-admin")["client.id"],
      "source->target|hb|heartbeats-target-admin");
}

}  // namespace
}  // namespace connectd::mirror
