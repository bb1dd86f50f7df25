#include "jvm/java_client_defaults.h"

namespace connectd::jvm {

const std::vector<JavaClientDefault>& JavaClientDefaults() {
  constexpr unsigned kAll = kProducerRole | kConsumerRole | kAdminRole;
  static const auto* rows = new std::vector<JavaClientDefault>{
      // Producers.
      {kProducerRole, "max.request.size", "1048576", "message.max.bytes", "1048576", ""},
      {kProducerRole, "buffer.memory", "33554432", "queue.buffering.max.kbytes", "32768", ""},
      {kProducerRole, "delivery.timeout.ms", "120000", "message.timeout.ms", "120000", ""},
      {kProducerRole, "max.in.flight.requests.per.connection", "5",
       "max.in.flight.requests.per.connection", "5", ""},
      // Java's built-in partitioner puts a keyed record on murmur2(key) % partitions; so does
      // librdkafka's murmur2_random (keyless records: random, Java's are sticky). Compacted
      // topics depend on it: a key must land where a Java client put it before.
      {kProducerRole, "partitioner.class", "<null>", "partitioner", "murmur2_random", ""},
      {kProducerRole, "enable.idempotence", "true", "enable.idempotence", "",
       "librdkafka's idempotent producer makes some delivery errors fatal for the whole client "
       "(it must be recreated), where Java's resets its sequence numbers; connectd's producers "
       "keep ordering with acks=all and Connect's one request in flight"},
      {kProducerRole, "batch.size", "16384", "batch.size", "",
       "librdkafka sizes whole MessageSets (1,000,000 bytes) and batches per broker, not per "
       "partition; Java's 16 KiB per partition would cut a copy's throughput"},
      // Consumers.
      {kConsumerRole, "isolation.level", "read_uncommitted", "isolation.level", "read_uncommitted",
       ""},
      {kConsumerRole, "check.crcs", "true", "check.crcs", "true", ""},
      {kConsumerRole, "allow.auto.create.topics", "true", "allow.auto.create.topics", "",
       "a consumer must not create the topic it reads (a heartbeat leg would create "
       "A.heartbeats on B with the broker's defaults before MirrorSource creates it)"},
      {kConsumerRole, "partition.assignment.strategy",
       "org.apache.kafka.clients.consumer.RangeAssignor,"
       "org.apache.kafka.clients.consumer.CooperativeStickyAssignor",
       "partition.assignment.strategy", "",
       "librdkafka cannot offer an eager and a cooperative assignor together; its default "
       "(range,roundrobin) agrees with Java's on range"},
      {kConsumerRole | kAdminRole, "request.timeout.ms", "30000", "socket.timeout.ms", "30000", ""},
      // KIP-714 client metrics: Java's admin client does not push them (its producer and
      // consumer do, as librdkafka's every client).
      {kAdminRole, "enable.metrics.push", "false", "enable.metrics.push", "false", ""},
      // Every client.
      {kAll, "socket.connection.setup.timeout.ms", "10000", "socket.connection.setup.timeout.ms",
       "10000", ""},
      {kAll, "reconnect.backoff.ms", "50", "reconnect.backoff.ms", "50", ""},
      {kAll, "reconnect.backoff.max.ms", "1000", "reconnect.backoff.max.ms", "1000", ""},
      {kProducerRole | kConsumerRole, "connections.max.idle.ms", "540000",
       "connections.max.idle.ms", "",
       "librdkafka keeps connections open; the broker closes idle ones after its own "
       "connections.max.idle.ms (600000)"},
      {kAdminRole, "connections.max.idle.ms", "300000", "connections.max.idle.ms", "",
       "as for producers and consumers"},
      {kProducerRole, "send.buffer.bytes", "131072", "socket.send.buffer.bytes", "",
       "0 leaves Linux's socket buffer autotuning on, which grows past Java's fixed sizes on "
       "links with a long round trip"},
      {kConsumerRole | kAdminRole, "send.buffer.bytes", "131072", "socket.send.buffer.bytes", "",
       "as for producers"},
      {kProducerRole, "receive.buffer.bytes", "32768", "socket.receive.buffer.bytes", "",
       "as send.buffer.bytes"},
      {kConsumerRole | kAdminRole, "receive.buffer.bytes", "65536", "socket.receive.buffer.bytes",
       "", "as send.buffer.bytes"},
      {kAll, "sasl.kerberos.kinit.cmd", "/usr/bin/kinit", "sasl.kerberos.kinit.cmd", "",
       "Java's names the kinit binary, librdkafka's is a command line it runs through a shell: "
       "never set, connectd runs no kinit (its clients log in from the keytab in the process)"},
  };
  return *rows;
}

}  // namespace connectd::jvm
