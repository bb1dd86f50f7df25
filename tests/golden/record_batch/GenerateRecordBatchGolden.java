// Golden v2 record batches written by Apache Kafka's own MemoryRecords (kafka-clients 4.4.0), for
// connectd's batch layer (runtime/kafka/protocol/record_batch.h). Run from the repository root:
//   "$(scripts/kafka java)" -cp "$(scripts/kafka java-classpath)" \
//       tests/golden/record_batch/GenerateRecordBatchGolden.java tests/golden/record_batch
// Output: batches.tsv, one row per case:
//   name  source_hex  target_hex|~  base_offset  last_offset_delta  record_count  compression
//   attributes  max_timestamp  producer_id  producer_epoch  base_sequence  stamp
// `source` is a batch as a Fetch returns it (an offset and a leader epoch of the source
// cluster, the source producer's identity); `target` is the same records as Java's producer
// for the target sends them, with `stamp` = producer_id/epoch/base_sequence/transactional(0|1)
// (~: the batch is not to be copied). The header fields describe `source`.
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.internal.*;
import org.apache.kafka.common.record.TimestampType;

public class GenerateRecordBatchGolden {
  static PrintWriter out;

  static byte[] bytes(String s) { return s.getBytes(StandardCharsets.UTF_8); }

  static byte[] array(MemoryRecords records) {
    ByteBuffer b = records.buffer().duplicate();
    byte[] a = new byte[b.remaining()];
    b.get(a);
    return a;
  }

  static SimpleRecord[] records(int n, long t0) {
    SimpleRecord[] out = new SimpleRecord[n];
    for (int i = 0; i < n; i++) {
      Header[] headers = i % 3 == 0
          ? new Header[] {new RecordHeader("h", bytes("v" + i)), new RecordHeader("e", new byte[0])}
          : new Header[0];
      byte[] key = i % 4 == 1 ? null : bytes("key-" + i);
      byte[] value = i % 5 == 2 ? null : bytes("value-" + i + "-" + "x".repeat(i * 7));
      out[i] = new SimpleRecord(t0 + i * 13 - (i == 2 ? 40 : 0), key, value, headers);
    }
    return out;
  }

  static void row(String name, MemoryRecords source, MemoryRecords target, String stamp) {
    MutableRecordBatch b = source.batches().iterator().next();
    out.println(String.join("\t", name, HexFormat.of().formatHex(array(source)),
        target == null ? "~" : HexFormat.of().formatHex(array(target)),
        Long.toString(b.baseOffset()), Long.toString(b.lastOffset() - b.baseOffset()),
        Integer.toString(b.countOrNull()), Integer.toString(b.compressionType().id),
        Integer.toString(source.buffer().getShort(21)), Long.toString(b.maxTimestamp()),
        Long.toString(b.producerId()), Short.toString(b.producerEpoch()),
        Integer.toString(b.baseSequence()), stamp));
  }

  public static void main(String[] args) throws Exception {
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(Path.of(args[0], "batches.tsv")))) {
      out = w;
      long t0 = 1796500000000L;
      Compression[] compressions = {Compression.NONE, Compression.gzip().build(),
          Compression.lz4().build(), Compression.zstd().build(), Compression.snappy().build()};
      for (Compression c : compressions) {
        SimpleRecord[] rs = records(9, t0);
        // A non-idempotent source producer -> an idempotent target producer.
        row("plain-" + c.type().name, MemoryRecords.withRecords(5000L, c, 7, rs),
            MemoryRecords.withIdempotentRecords(c, 1000L, (short) 3, 7, rs), "1000/3/7/0");
        // A transactional source -> an idempotent target producer: the flag goes.
        row("transactional-" + c.type().name,
            MemoryRecords.withTransactionalRecords(123456789L, c, 42L, (short) 1, 10, 9, rs),
            MemoryRecords.withIdempotentRecords(c, 1000L, (short) 3, 2147483000, rs),
            "1000/3/2147483000/0");
        // An idempotent source -> a transactional target producer.
        row("to-transactional-" + c.type().name,
            MemoryRecords.withIdempotentRecords(77L, c, 42L, (short) 1, 10, 9, rs),
            MemoryRecords.withTransactionalRecords(c, 1000L, (short) 3, 0, rs), "1000/3/0/1");
      }
      // One record, no compression, to a producer without idempotence.
      SimpleRecord[] one = records(1, t0);
      row("single-no-idempotence", MemoryRecords.withRecords(0L, Compression.NONE, 0, one),
          MemoryRecords.withRecords(0L, Compression.NONE, one), "-1/-1/-1/0");
      // Not to be copied: a commit marker, LogAppendTime, a compacted batch with gaps.
      row("control-commit", MemoryRecords.withEndTransactionMarker(900L, t0, 4, 42L, (short) 1,
          new EndTransactionMarker(ControlRecordType.COMMIT, 0)), null, "~");
      row("control-abort", MemoryRecords.withEndTransactionMarker(950L, t0, 4, 43L, (short) 2,
          new EndTransactionMarker(ControlRecordType.ABORT, 5)), null, "~");
      ByteBuffer buffer = ByteBuffer.allocate(4096);
      MemoryRecordsBuilder builder = MemoryRecords.builder(buffer, RecordBatch.MAGIC_VALUE_V2,
          Compression.NONE, TimestampType.LOG_APPEND_TIME, 30L, t0 + 999);
      for (SimpleRecord r : records(3, t0)) builder.append(r);
      row("log-append-time", builder.build(), null, "~");
      buffer = ByteBuffer.allocate(4096);
      builder = MemoryRecords.builder(buffer, Compression.NONE, TimestampType.CREATE_TIME, 60L);
      SimpleRecord[] sparse = records(3, t0);
      builder.appendWithOffset(60L, sparse[0]);
      builder.appendWithOffset(62L, sparse[1]);
      builder.appendWithOffset(65L, sparse[2]);
      row("compacted-gaps", builder.build(), null, "~");
    }
  }
}
