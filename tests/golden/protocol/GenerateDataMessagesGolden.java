// Golden bytes of the Kafka messages of connectd's batch data path (runtime/kafka/protocol/
// data_messages.h), written by Apache Kafka's own generated message classes (kafka-clients).
// Run from the repository root:
//   "$(scripts/kafka java)" -cp "$(scripts/kafka java-classpath)" \
//       tests/golden/protocol/GenerateDataMessagesGolden.java tests/golden/protocol
// Output: data_messages.tsv, rows `<message>\t<version>\t<hex>`. The field values are fixed here
// and mirrored in tests/unit/runtime/kafka/data_messages_test.cc.
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.*;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Message;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;

public class GenerateDataMessagesGolden {
  static PrintWriter out;

  static byte[] bytes(String s) { return s.getBytes(StandardCharsets.UTF_8); }

  static void row(String name, int version, Message m) {
    ByteBuffer b = MessageUtil.toByteBufferAccessor(m, (short) version).buffer();
    out.println(name + "\t" + version + "\t" + HexFormat.of().formatHex(MessageUtil.byteBufferToArray(b)));
  }

  static SimpleRecord[] records(String... values) {
    SimpleRecord[] records = new SimpleRecord[values.length];
    for (int i = 0; i < values.length; i++) {
      records[i] = new SimpleRecord(1796500000000L + i, bytes("k" + i), bytes(values[i]));
    }
    return records;
  }

  // As a Fetch returns it: an offset and a leader epoch of the source.
  static MemoryRecords fetched(long offset, String... values) {
    return MemoryRecords.withRecords(offset, Compression.NONE, 3, records(values));
  }

  // As a producer without idempotence sends the same records: offset 0, no leader epoch.
  static MemoryRecords produced(String... values) {
    return MemoryRecords.withRecords(Compression.NONE, records(values));
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args.length > 0 ? args[0] : ".");
    out = new PrintWriter(Files.newBufferedWriter(dir.resolve("data_messages.tsv")));
    out.println("# Written by GenerateDataMessagesGolden.java with " +
        Path.of(ApiKeys.class.getProtectionDomain().getCodeSource().getLocation().getPath()).getFileName() + "; do not edit.");

    MetadataRequestData.MetadataRequestTopic orders = new MetadataRequestData.MetadataRequestTopic()
        .setTopicId(Uuid.ZERO_UUID).setName("orders");
    MetadataRequestData.MetadataRequestTopic payments = new MetadataRequestData.MetadataRequestTopic()
        .setTopicId(Uuid.ZERO_UUID).setName("payments");
    row("MetadataRequest", 12, new MetadataRequestData().setTopics(List.of(orders, payments))
        .setAllowAutoTopicCreation(false).setIncludeTopicAuthorizedOperations(false));
    MetadataResponseData.MetadataResponseBrokerCollection brokers = new MetadataResponseData.MetadataResponseBrokerCollection();
    brokers.add(new MetadataResponseData.MetadataResponseBroker().setNodeId(1).setHost("broker-1.example").setPort(9092).setRack("rack-a"));
    brokers.add(new MetadataResponseData.MetadataResponseBroker().setNodeId(2).setHost("broker-2.example").setPort(9093).setRack(null));
    MetadataResponseData.MetadataResponseTopicCollection topics = new MetadataResponseData.MetadataResponseTopicCollection();
    topics.add(new MetadataResponseData.MetadataResponseTopic().setErrorCode((short) 0).setName("orders")
        .setTopicId(new Uuid(0x0102030405060708L, 0x090a0b0c0d0e0f10L)).setIsInternal(false)
        .setPartitions(List.of(
            new MetadataResponseData.MetadataResponsePartition().setErrorCode((short) 0).setPartitionIndex(0)
                .setLeaderId(1).setLeaderEpoch(7).setReplicaNodes(List.of(1, 2)).setIsrNodes(List.of(1, 2))
                .setOfflineReplicas(List.of()),
            new MetadataResponseData.MetadataResponsePartition().setErrorCode((short) 6).setPartitionIndex(1)
                .setLeaderId(-1).setLeaderEpoch(8).setReplicaNodes(List.of(2, 1)).setIsrNodes(List.of(2))
                .setOfflineReplicas(List.of(1))))
        .setTopicAuthorizedOperations(-2147483648));
    topics.add(new MetadataResponseData.MetadataResponseTopic().setErrorCode((short) 3).setName("missing")
        .setTopicId(Uuid.ZERO_UUID).setIsInternal(false).setPartitions(List.of())
        .setTopicAuthorizedOperations(-2147483648));
    row("MetadataResponse", 12, new MetadataResponseData().setThrottleTimeMs(4).setBrokers(brokers)
        .setClusterId("cluster-xyz").setControllerId(1).setTopics(topics));

    row("FetchRequest", 12, new FetchRequestData().setReplicaId(-1).setMaxWaitMs(500).setMinBytes(1)
        .setMaxBytes(52428800).setIsolationLevel((byte) 1).setSessionId(0).setSessionEpoch(-1)
        .setTopics(List.of(new FetchRequestData.FetchTopic().setTopic("orders").setPartitions(List.of(
            new FetchRequestData.FetchPartition().setPartition(0).setCurrentLeaderEpoch(7).setFetchOffset(5000)
                .setLastFetchedEpoch(6).setLogStartOffset(-1).setPartitionMaxBytes(1048576),
            new FetchRequestData.FetchPartition().setPartition(3).setCurrentLeaderEpoch(-1).setFetchOffset(0)
                .setLastFetchedEpoch(-1).setLogStartOffset(-1).setPartitionMaxBytes(65536)))))
        .setForgottenTopicsData(List.of()).setRackId(""));
    row("FetchResponse", 12, new FetchResponseData().setThrottleTimeMs(0).setErrorCode((short) 0).setSessionId(0)
        .setResponses(List.of(new FetchResponseData.FetchableTopicResponse().setTopic("orders").setPartitions(List.of(
            new FetchResponseData.PartitionData().setPartitionIndex(0).setErrorCode((short) 0)
                .setHighWatermark(5003).setLastStableOffset(5002).setLogStartOffset(100)
                .setAbortedTransactions(List.of(new FetchResponseData.AbortedTransaction().setProducerId(42).setFirstOffset(4990)))
                .setPreferredReadReplica(-1).setRecords(fetched(5000, "a", "bb", "ccc"))
                .setDivergingEpoch(new FetchResponseData.EpochEndOffset().setEpoch(6).setEndOffset(4998))
                .setCurrentLeader(new FetchResponseData.LeaderIdAndEpoch().setLeaderId(2).setLeaderEpoch(9)),
            new FetchResponseData.PartitionData().setPartitionIndex(3).setErrorCode((short) 6)
                .setHighWatermark(-1).setLastStableOffset(-1).setLogStartOffset(-1)
                .setAbortedTransactions(null).setPreferredReadReplica(-1).setRecords(MemoryRecords.EMPTY))))));

    ProduceRequestData.TopicProduceDataCollection produce = new ProduceRequestData.TopicProduceDataCollection();
    produce.add(new ProduceRequestData.TopicProduceData().setName("A.orders").setPartitionData(List.of(
        new ProduceRequestData.PartitionProduceData().setIndex(0).setRecords(produced("a", "bb", "ccc")),
        new ProduceRequestData.PartitionProduceData().setIndex(2).setRecords(produced("a", "bb", "ccc")))));
    row("ProduceRequest", 9, new ProduceRequestData().setTransactionalId(null).setAcks((short) -1)
        .setTimeoutMs(30000).setTopicData(produce));
    ProduceResponseData.TopicProduceResponseCollection produced = new ProduceResponseData.TopicProduceResponseCollection();
    produced.add(new ProduceResponseData.TopicProduceResponse().setName("A.orders").setPartitionResponses(List.of(
        new ProduceResponseData.PartitionProduceResponse().setIndex(0).setErrorCode((short) 0).setBaseOffset(1200)
            .setLogAppendTimeMs(-1).setLogStartOffset(0).setRecordErrors(List.of()).setErrorMessage(null),
        new ProduceResponseData.PartitionProduceResponse().setIndex(2).setErrorCode((short) 87).setBaseOffset(-1)
            .setLogAppendTimeMs(-1).setLogStartOffset(-1)
            .setRecordErrors(List.of(new ProduceResponseData.BatchIndexAndErrorMessage().setBatchIndex(0).setBatchIndexErrorMessage("bad record")))
            .setErrorMessage("One or more records have been rejected"))));
    row("ProduceResponse", 9, new ProduceResponseData().setResponses(produced).setThrottleTimeMs(11));

    row("InitProducerIdRequest", 4, new InitProducerIdRequestData().setTransactionalId(null)
        .setTransactionTimeoutMs(60000).setProducerId(-1).setProducerEpoch((short) -1));
    row("InitProducerIdResponse", 4, new InitProducerIdResponseData().setThrottleTimeMs(0).setErrorCode((short) 0)
        .setProducerId(1000).setProducerEpoch((short) 3));
    out.close();
  }
}
