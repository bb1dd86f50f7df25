// Golden vectors of the status topic (and the partitioning of status and offsets records), written
// by Kafka 4.4.0's own classes. Run from the repository root:
//   "$(scripts/kafka java)" -cp "$(scripts/kafka java-classpath)" \
//       tests/golden/status_topic/GenerateStatusTopicGolden.java tests/golden/status_topic
// (the store logs the records it discards, with stack traces, on stderr: that is expected).
// Outputs (all rows tab-separated, strings as UTF-8 hex, `~` = Java null):
//  - status_records.tsv: records a real KafkaStatusBackingStore sends (put/putSafe/put(TopicStatus)/
//    deleteTopic), captured from its KafkaBasedLog.send. The store's Struct schemas are private
//    (javap: STATUS_SCHEMA_V0, TOPIC_STATUS_*_V0), so each value is also rebuilt here from the
//    schema read in the bytecode and the two byte strings are required to be equal.
//      status  <case> <kind> <connector> <task|-> <state> <worker> <generation> <trace> <version> <key> <value|~>
//      topic   <case> <connector> <topic> <task> <timestamp> <key> <value|~>
//  - status_cache_expected.tsv: status_cache_scenarios.txt replayed against a real store (records
//    consumed through its read(ConsumerRecord), writes through put/putSafe, retriable send failures
//    through the send callback), one row per step: <scenario> <step> <records sent> <cache dump>.
//  - partitions.tsv: Utils.murmur2 and the partition of a keyed record for 1, 5 and 25 partitions
//    (Utils.toPositive(murmur2) % n, checked against BuiltInPartitioner.partitionForKey):
//      key     <key hex> <murmur2> <p1> <p5> <p25>
//      offsets <connector> <partition json> <key hex> <murmur2> <p1> <p5> <p25>   (key via JsonConverter)
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.runtime.AbstractStatus;
import org.apache.kafka.connect.runtime.ConnectorStatus;
import org.apache.kafka.connect.runtime.TaskStatus;
import org.apache.kafka.connect.runtime.TopicStatus;
import org.apache.kafka.connect.storage.Converter;
import org.apache.kafka.connect.storage.KafkaStatusBackingStore;
import org.apache.kafka.connect.util.ConnectorTaskId;
import org.apache.kafka.connect.util.KafkaBasedLog;
import org.apache.kafka.connect.util.TopicAdmin;

public class GenerateStatusTopicGolden {
  static final String TOPIC = "connect-status";

  static String hex(String s) {
    return s == null ? "~" : s.isEmpty() ? "" : HexFormat.of().formatHex(s.getBytes(StandardCharsets.UTF_8));
  }

  static String hexBytes(byte[] b) {
    return b == null ? "~" : HexFormat.of().formatHex(b);
  }

  static JsonConverter converter(boolean isKey) {
    JsonConverter c = new JsonConverter();
    c.configure(Map.of("schemas.enable", "false"), isKey);
    return c;
  }

  // A KafkaBasedLog that only records what the store sends.
  static final class Sent {
    final String key;
    final byte[] value;
    final Callback callback;

    Sent(String key, byte[] value, Callback callback) {
      this.key = key;
      this.value = value;
      this.callback = callback;
    }
  }

  static final class CapturingLog extends KafkaBasedLog<String, byte[]> {
    final List<Sent> sent = new ArrayList<>();

    CapturingLog() {
      super(TOPIC, Map.of(), Map.of(), () -> null, (e, r) -> { }, Time.SYSTEM, null);
    }

    @Override
    public synchronized void send(String key, byte[] value, Callback callback) {
      sent.add(new Sent(key, value, callback));
    }

    synchronized List<Sent> snapshot() {
      return new ArrayList<>(sent);
    }
  }

  static final class Store {
    final CapturingLog log = new CapturingLog();
    final KafkaStatusBackingStore store;
    final Method read;
    final ExecutorService retryExecutor;

    Store() throws Exception {
      Constructor<KafkaStatusBackingStore> ctor = KafkaStatusBackingStore.class.getDeclaredConstructor(
          Time.class, Converter.class, String.class, Supplier.class, KafkaBasedLog.class);
      ctor.setAccessible(true);
      Supplier<TopicAdmin> admin = () -> null;
      store = ctor.newInstance(Time.SYSTEM, converter(false), TOPIC, admin, log);
      read = KafkaStatusBackingStore.class.getDeclaredMethod("read", ConsumerRecord.class);
      read.setAccessible(true);
      Field f = KafkaStatusBackingStore.class.getDeclaredField("sendRetryExecutor");
      f.setAccessible(true);
      retryExecutor = (ExecutorService) f.get(store);
    }

    void read(String key, byte[] value) throws Exception {
      read.invoke(store, new ConsumerRecord<String, byte[]>(TOPIC, 0, 0L, key, value));
    }

    // Waits until every retry submitted so far has been sent (single-thread executor: FIFO).
    void drainRetries() throws Exception {
      retryExecutor.submit(() -> { }).get();
    }

    void close() {
      retryExecutor.shutdownNow();
    }
  }

  static String statusText(AbstractStatus<?> s) {
    return s.state().name() + "," + hex(s.workerId()) + "," + s.generation() + "," + hex(s.trace()) + ","
        + hex(s.version());
  }

  // The whole cache, sorted: K (connectors()), C (connector statuses), T (task statuses),
  // P (active topics).
  static String dump(KafkaStatusBackingStore store) {
    List<String> parts = new ArrayList<>();
    TreeSet<String> connectors = new TreeSet<>(store.connectors());
    for (String c : connectors) parts.add("K:" + hex(c));
    for (String c : connectors) {
      ConnectorStatus s = store.get(c);
      if (s != null) parts.add("C:" + hex(c) + "=" + statusText(s));
    }
    // Task rows exist for connectors that have no connector entry too: look at the table.
    TreeSet<String> taskConnectors = new TreeSet<>(connectors);
    try {
      Field f = KafkaStatusBackingStore.class.getDeclaredField("tasks");
      f.setAccessible(true);
      Object table = f.get(store);
      Field t = table.getClass().getDeclaredField("table");
      t.setAccessible(true);
      taskConnectors.addAll(((Map<String, ?>) t.get(table)).keySet());
      Field topics = KafkaStatusBackingStore.class.getDeclaredField("topics");
      topics.setAccessible(true);
      taskConnectors.addAll(((Map<String, ?>) topics.get(store)).keySet());
    } catch (ReflectiveOperationException e) {
      throw new RuntimeException(e);
    }
    for (String c : taskConnectors) {
      TreeMap<Integer, TaskStatus> tasks = new TreeMap<>();
      for (TaskStatus s : store.getAll(c)) tasks.put(s.id().task(), s);
      for (TaskStatus s : tasks.values()) parts.add("T:" + hex(c) + "/" + s.id().task() + "=" + statusText(s));
    }
    for (String c : taskConnectors) {
      TreeMap<String, TopicStatus> topics = new TreeMap<>();
      Collection<TopicStatus> all = store.getAllTopics(c);
      // getAllTopics has no topic names of the key; find them through getTopic.
      try {
        Field f = KafkaStatusBackingStore.class.getDeclaredField("topics");
        f.setAccessible(true);
        Map<String, Map<String, TopicStatus>> map = (Map<String, Map<String, TopicStatus>>) f.get(store);
        Map<String, TopicStatus> row = map.get(c);
        if (row != null) topics.putAll(row);
      } catch (ReflectiveOperationException e) {
        throw new RuntimeException(e);
      }
      if (all.size() != topics.size()) throw new IllegalStateException("topic views disagree");
      for (Map.Entry<String, TopicStatus> e : topics.entrySet()) {
        TopicStatus s = e.getValue();
        parts.add("P:" + hex(c) + "/" + hex(e.getKey()) + "=" + hex(s.topic()) + "," + hex(s.connector()) + ","
            + s.task() + "," + s.discoverTimestamp());
      }
    }
    return parts.isEmpty() ? "-" : String.join(";", parts);
  }

  static AbstractStatus.State state(String name) {
    return AbstractStatus.State.valueOf(name);
  }

  // put|putsafe connector NAME STATE WORKER GENERATION VERSION|- [TRACE...]
  static void put(Store s, String[] tok, String line) {
    boolean safe = tok[0].equals("putsafe");
    String version = tok[6].equals("-") ? null : tok[6];
    String trace = null;
    if (tok.length > 7) {
      int idx = 0;
      for (int i = 0; i < 7; i++) idx = line.indexOf(' ', idx) + 1;
      trace = line.substring(idx);
    }
    int generation = Integer.parseInt(tok[5]);
    if (tok[1].equals("connector")) {
      ConnectorStatus st = new ConnectorStatus(tok[2], state(tok[3]), trace, tok[4], generation, version);
      if (safe) s.store.putSafe(st); else s.store.put(st);
    } else {
      String[] id = tok[2].split("/");
      TaskStatus st = new TaskStatus(new ConnectorTaskId(id[0], Integer.parseInt(id[1])), state(tok[3]), tok[4],
          generation, trace, version);
      if (safe) s.store.putSafe(st); else s.store.put(st);
    }
  }

  static void scenarios(Path dir) throws Exception {
    List<String> lines = Files.readAllLines(dir.resolve("status_cache_scenarios.txt"), StandardCharsets.UTF_8);
    try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(dir.resolve("status_cache_expected.tsv")))) {
      out.println("# Written by GenerateStatusTopicGolden.java from status_cache_scenarios.txt with " + jarName()
          + "; do not edit.");
      Store s = null;
      String scenario = null;
      int step = 0;
      for (String line : lines) {
        if (line.isEmpty() || line.startsWith("#")) continue;
        String[] tok = line.split(" ", -1);
        if (tok[0].equals("scenario")) {
          if (s != null) s.close();
          s = new Store();
          scenario = tok[1];
          step = 0;
          continue;
        }
        step++;
        int before = s.log.snapshot().size();
        switch (tok[0]) {
          case "read": {
            int idx = line.indexOf(' ', 5);
            String rest = line.substring(idx + 1);
            s.read(tok[1], rest.equals("<tombstone>") ? null : rest.getBytes(StandardCharsets.UTF_8));
            break;
          }
          case "readhex": {
            String key = new String(HexFormat.of().parseHex(tok[1]), StandardCharsets.UTF_8);
            s.read(key, tok[2].equals("<tombstone>") ? null : HexFormat.of().parseHex(tok[2]));
            break;
          }
          case "put":
          case "putsafe":
            put(s, tok, line);
            break;
          case "topic":
            s.store.put(new TopicStatus(tok[2], tok[1], Integer.parseInt(tok[3]), Long.parseLong(tok[4])));
            break;
          case "deletetopic":
            s.store.deleteTopic(tok[1], tok[2]);
            break;
          case "fail": {
            Sent sent = s.log.snapshot().get(Integer.parseInt(tok[1]) - 1);
            sent.callback.onCompletion(null, new TimeoutException("injected"));
            s.drainRetries();
            break;
          }
          default:
            throw new IllegalArgumentException("unknown operation: " + line);
        }
        List<Sent> now = s.log.snapshot();
        List<String> sentText = new ArrayList<>();
        for (Sent x : now.subList(before, now.size())) sentText.add(hex(x.key) + "=" + hexBytes(x.value));
        out.println(scenario + "\t" + step + "\t" + (sentText.isEmpty() ? "-" : String.join(",", sentText)) + "\t"
            + dump(s.store));
      }
      if (s != null) s.close();
    }
  }

  // The status value schema as the 4.4.0 bytecode builds it (static initializer of
  // KafkaStatusBackingStore).
  static final Schema STATUS = SchemaBuilder.struct()
      .field("state", Schema.STRING_SCHEMA)
      .field("trace", SchemaBuilder.string().optional().build())
      .field("worker_id", Schema.STRING_SCHEMA)
      .field("generation", Schema.INT32_SCHEMA)
      .field("version", Schema.OPTIONAL_STRING_SCHEMA)
      .build();
  static final Schema TOPIC_VALUE = SchemaBuilder.struct()
      .field("name", Schema.STRING_SCHEMA)
      .field("connector", Schema.STRING_SCHEMA)
      .field("task", Schema.INT32_SCHEMA)
      .field("discoverTimestamp", Schema.INT64_SCHEMA)
      .build();
  static final Schema TOPIC_MAP = SchemaBuilder.map(Schema.STRING_SCHEMA, TOPIC_VALUE).build();

  static byte[] rebuilt(AbstractStatus<?> st) {
    if (st.state() == AbstractStatus.State.DESTROYED) return null;
    Struct struct = new Struct(STATUS);
    struct.put("state", st.state().name());
    if (st.trace() != null) struct.put("trace", st.trace());
    struct.put("worker_id", st.workerId());
    struct.put("generation", st.generation());
    struct.put("version", st.version());
    return converter(false).fromConnectData(TOPIC, STATUS, struct);
  }

  static byte[] rebuilt(TopicStatus st) {
    Struct struct = new Struct(TOPIC_VALUE);
    struct.put("name", st.topic());
    struct.put("connector", st.connector());
    struct.put("task", st.task());
    struct.put("discoverTimestamp", st.discoverTimestamp());
    return converter(false).fromConnectData(TOPIC, TOPIC_MAP, Map.of("topic", struct));
  }

  static final String TRACE = "org.apache.kafka.connect.errors.ConnectException: Failed to read \"/data/in.txt\": "
      + "caf\u00e9 \u2603 \ud83d\ude00 back\\slash\n"
      + "\tat com.example.Src.poll(Src.java:42)\n"
      + "\tat org.apache.kafka.connect.runtime.AbstractWorkerSourceTask.poll(AbstractWorkerSourceTask.java:488)\r\n"
      + "Caused by: java.io.IOException: ctrl \u0001\u001f del \u007f sep \u2028 tab\there\n"
      + "\t... 12 more";

  static void statusRecords(Path dir) throws Exception {
    try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(dir.resolve("status_records.tsv")))) {
      out.println("# Written by GenerateStatusTopicGolden.java with " + jarName() + "; do not edit.");
      Object[][] cases = {
          // case, kind, connector, task, state, worker, generation, trace, version
          {"connector-running", "connector", "file-src", null, "RUNNING", "10.0.0.1:8083", 7, null, null},
          {"connector-running-version", "connector", "file-src", null, "RUNNING", "w1:8083", 7, null, "4.4.0"},
          {"connector-paused", "connector", "c", null, "PAUSED", "w1:8083", 0, null, null},
          {"connector-stopped", "connector", "c", null, "STOPPED", "w1:8083", 12, null, null},
          {"connector-restarting", "connector", "c", null, "RESTARTING", "w1:8083", 1, null, null},
          {"connector-unassigned", "connector", "c", null, "UNASSIGNED", "w1:8083", 2147483647, null, null},
          {"connector-failed-trace", "connector", "my-conn.v2", null, "FAILED", "host.example:8083", 3, TRACE, "1.0"},
          {"connector-destroyed", "connector", "gone", null, "DESTROYED", "w1:8083", 5, null, null},
          {"connector-non-ascii-name", "connector", "\u00fcber-\u65e5\u672c", null, "RUNNING", "w\"q:1", -1, null,
              "v\u00e9"},
          {"task-running", "task", "file-src", 0, "RUNNING", "w2:8083", 4, null, null},
          {"task-dash-name", "task", "a-b-c", 12, "PAUSED", "w2:8083", 4, null, "2.0-SNAPSHOT"},
          {"task-failed-trace", "task", "src", 1, "FAILED", "w2:8083", -2147483648, TRACE, null},
          {"task-failed-empty-trace", "task", "src", 2, "FAILED", "w2:8083", 4, "", null},
          {"task-unassigned", "task", "src", 3, "UNASSIGNED", "w2:8083", 4, null, null},
          {"task-restarting", "task", "src", 4, "RESTARTING", "w2:8083", 4, null, null},
          {"task-destroyed", "task", "src", 5, "DESTROYED", "w2:8083", 4, null, null},
      };
      for (Object[] c : cases) {
        Store s = new Store();
        AbstractStatus<?> st;
        if (c[1].equals("connector")) {
          st = new ConnectorStatus((String) c[2], state((String) c[4]), (String) c[7], (String) c[5], (Integer) c[6],
              (String) c[8]);
          s.store.put((ConnectorStatus) st);
        } else {
          st = new TaskStatus(new ConnectorTaskId((String) c[2], (Integer) c[3]), state((String) c[4]), (String) c[5],
              (Integer) c[6], (String) c[7], (String) c[8]);
          s.store.put((TaskStatus) st);
        }
        Sent sent = s.log.snapshot().get(0);
        if (!Arrays.equals(sent.value, rebuilt(st)))
          throw new IllegalStateException("rebuilt schema differs for " + c[0]);
        out.println(String.join("\t", "status", (String) c[0], (String) c[1], hex((String) c[2]),
            c[3] == null ? "-" : c[3].toString(), (String) c[4], hex((String) c[5]), c[6].toString(),
            hex((String) c[7]), hex((String) c[8]), hex(sent.key), hexBytes(sent.value)));
        s.close();
      }
      Object[][] topics = {
          {"topic-basic", "file-src", "orders", 0, 1700000000000L},
          {"topic-odd-names", "a:b-c", "t.x_y-1", 2147483647, -1L},
          {"topic-max-ts", "c", "t", 3, Long.MAX_VALUE},
      };
      for (Object[] c : topics) {
        Store s = new Store();
        TopicStatus st = new TopicStatus((String) c[2], (String) c[1], (Integer) c[3], (Long) c[4]);
        s.store.put(st);
        s.store.deleteTopic((String) c[1], (String) c[2]);
        List<Sent> sent = s.log.snapshot();
        if (!Arrays.equals(sent.get(0).value, rebuilt(st)))
          throw new IllegalStateException("rebuilt topic schema differs for " + c[0]);
        out.println(String.join("\t", "topic", (String) c[0], hex((String) c[1]), hex((String) c[2]),
            c[3].toString(), c[4].toString(), hex(sent.get(0).key), hexBytes(sent.get(0).value)));
        out.println(String.join("\t", "topic", c[0] + "-delete", hex((String) c[1]), hex((String) c[2]), "-", "-",
            hex(sent.get(1).key), hexBytes(sent.get(1).value)));
        s.close();
      }
    }
  }

  static String partitionRow(byte[] key) {
    int h = Utils.murmur2(key);
    StringBuilder sb = new StringBuilder().append(h);
    for (int n : new int[] {1, 5, 25}) {
      int p = Utils.toPositive(h) % n;
      if (p != BuiltInPartitioner.partitionForKey(key, n)) throw new IllegalStateException("partitioner differs");
      sb.append('\t').append(p);
    }
    return sb.toString();
  }

  static void partitions(Path dir) throws Exception {
    try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(dir.resolve("partitions.tsv")))) {
      out.println("# Written by GenerateStatusTopicGolden.java with " + jarName() + "; do not edit.");
      List<String> keys = new ArrayList<>(List.of("", "a", "ab", "abc", "abcd", "abcde", "abcdef", "abcdefg",
          "abcdefgh", "abcdefghi", "status-connector-file-src", "status-connector-c", "status-connector-a-b",
          "status-task-file-src-0", "status-task-file-src-1", "status-task-file-src-2", "status-task-file-src-10",
          "status-task-a-b-c-12", "status-topic-orders:connector-file-src", "status-topic-t:connector-c",
          "status-connector-\u00fcber-\u65e5\u672c", "status-task-\ud83d\ude00-3", "connector-src", "task-src-0",
          "commit-src", "target-state-src", "session-key", "\u00ff\u00fe\u00fd", "0123456789012345678901234567890",
          "status-connector-MirrorSourceConnector", "status-task-MirrorSourceConnector-0",
          "status-task-MirrorCheckpointConnector-0", "status-connector-MirrorHeartbeatConnector"));
      for (int i = 0; i < 15; i++) keys.add("status-task-conn-" + (100 + i * 37));
      for (String k : keys) out.println("key\t" + hex(k) + "\t" + partitionRow(k.getBytes(StandardCharsets.UTF_8)));
      // High bytes (sign extension in the tail) as raw bytes.
      byte[][] raw = {{(byte) 0xff}, {(byte) 0x80, (byte) 0x81}, {(byte) 0xfe, (byte) 0xfd, (byte) 0xfc},
          {(byte) 0x90, 1, 2, (byte) 0xa0, (byte) 0xb0}};
      for (byte[] b : raw) out.println("key\t" + hexBytes(b) + "\t" + partitionRow(b));
      JsonConverter keyConverter = converter(true);
      Object[][] offsets = {
          {"file-src", new String[] {"filename", "/data/in.txt"}},
          {"MirrorSourceConnector", new Object[] {"cluster", "A", "partition", 0L, "topic", "t"}},
          {"src", new Object[] {"p", 3L}},
          {"src", new Object[] {"table", "public.users", "shard", 12L}},
          {"\u00fcber", new Object[] {"k", "v\u00e9\"\\"}},
          {"c", new Object[] {}},
          {"c", new Object[] {"a", true, "b", null, "d", 2.5}},
      };
      for (Object[] o : offsets) {
        Object[] kv = (Object[]) o[1];
        Map<String, Object> partition = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) partition.put((String) kv[i], kv[i + 1]);
        byte[] key = keyConverter.fromConnectData(TOPIC, null, Arrays.asList(o[0], partition));
        byte[] partitionJson = converter(false).fromConnectData(TOPIC, null, partition);
        out.println("offsets\t" + hex((String) o[0]) + "\t" + hexBytes(partitionJson) + "\t" + hexBytes(key) + "\t"
            + partitionRow(key));
      }
    }
  }

  static String jarName() {
    return Path.of(KafkaStatusBackingStore.class.getProtectionDomain().getCodeSource().getLocation().getPath())
        .getFileName().toString();
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args.length > 0 ? args[0] : ".");
    statusRecords(dir);
    scenarios(dir);
    partitions(dir);
  }
}
