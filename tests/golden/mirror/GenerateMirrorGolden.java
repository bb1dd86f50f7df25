// Writes the MirrorMaker 2 golden vectors in this directory with Apache Kafka's own MirrorMaker 2
// classes (connect-mirror, connect-mirror-client, connect-json from
// `scripts/kafka java-classpath --mm2`). Run with Java's single-file source launcher; see README.md
// for the exact command. Usage: GenerateMirrorGolden.java [output dir]
// (default: the current directory if it holds this file, else tests/golden/mirror).
//
// Every file is tab-separated text, one case per line, '#' lines are comments. A string field is
// "s:<text>" when the text is printable ASCII without spaces, "x:<hex of its UTF-8 bytes>"
// otherwise, and "~" for Java null / an absent property. Byte arrays are plain lower-case hex.
//
//   records.tsv         Heartbeat/Checkpoint/OffsetSync recordKey()/recordValue() bytes
//   records_decode.tsv  what deserializeRecord() makes of crafted key/value bytes
//   offsets_json.tsv    Connect offsets-topic key/value bytes for MM2's three source partitions
//   policies.tsv        DefaultReplicationPolicy/IdentityReplicationPolicy answers, isCycle
//   filters.tsv         DefaultTopicFilter/DefaultGroupFilter/DefaultConfigPropertyFilter answers

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.json.JsonConverterConfig;
import org.apache.kafka.connect.mirror.Checkpoint;
import org.apache.kafka.connect.mirror.ConfigPropertyFilter;
import org.apache.kafka.connect.mirror.DefaultConfigPropertyFilter;
import org.apache.kafka.connect.mirror.DefaultGroupFilter;
import org.apache.kafka.connect.mirror.DefaultReplicationPolicy;
import org.apache.kafka.connect.mirror.DefaultTopicFilter;
import org.apache.kafka.connect.mirror.Heartbeat;
import org.apache.kafka.connect.mirror.IdentityReplicationPolicy;
import org.apache.kafka.connect.mirror.MirrorSourceConnector;
import org.apache.kafka.connect.mirror.OffsetSync;
import org.apache.kafka.connect.mirror.ReplicationPolicy;
import org.apache.kafka.connect.mirror.SourceAndTarget;
import org.apache.kafka.connect.mirror.TopicFilter;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public class GenerateMirrorGolden {

    // ---- text helpers -------------------------------------------------------------------------

    // Byte arrays over 4 KiB (the 32767-byte string cases) are abbreviated as
    // "len=<n>;head=<hex of the first 64 bytes>;tail=<hex of the last 16 bytes>".
    static String bytes(byte[] bytes) {
        if (bytes.length <= 4096)
            return hex(bytes);
        return "len=" + bytes.length + ";head=" + hex(Arrays.copyOfRange(bytes, 0, 64)) + ";tail="
            + hex(Arrays.copyOfRange(bytes, bytes.length - 16, bytes.length));
    }

    static String hex(byte[] bytes) {
        StringBuilder sb = new StringBuilder(bytes.length * 2);
        for (byte b : bytes)
            sb.append(String.format("%02x", b & 0xff));
        return sb.toString();
    }

    static byte[] unhex(String hex) {
        byte[] out = new byte[hex.length() / 2];
        for (int i = 0; i < out.length; i++)
            out[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
        return out;
    }

    static String field(String s) {
        if (s == null)
            return "~";
        if (s.length() > 256 && s.chars().allMatch(ch -> ch == s.charAt(0)) && s.charAt(0) > 0x20 && s.charAt(0) < 0x7f)
            return "r:" + s.charAt(0) + ":" + s.length();
        boolean plain = true;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c <= 0x20 || c >= 0x7f)
                plain = false;
        }
        return plain ? "s:" + s : "x:" + hex(s.getBytes(StandardCharsets.UTF_8));
    }

    static String row(Object... fields) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < fields.length; i++) {
            if (i > 0)
                sb.append('\t');
            sb.append(fields[i]);
        }
        return sb.append('\n').toString();
    }

    static String repeat(char c, int n) {
        char[] chars = new char[n];
        Arrays.fill(chars, c);
        return new String(chars);
    }

    static String oneLine(Throwable t) {
        String m = t.getMessage() == null ? t.getClass().getName() : t.getMessage();
        return m.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
    }

    static Throwable unwrap(Throwable t) {
        return t instanceof InvocationTargetException ? t.getCause() : t;
    }

    // Package-private members of the MM2 classes are reached by reflection (this file is loaded by
    // the source launcher's own class loader, so it never shares their runtime package).
    static Object call(Object target, Class<?> cls, String name, Class<?>[] types, Object... args) throws Throwable {
        Method m = cls.getDeclaredMethod(name, types);
        m.setAccessible(true);
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    static final String LONG_249 = repeat('t', 249);
    static final String MAX_STRING = repeat('m', 32767);
    static final String TOO_LONG = repeat('m', 32768);
    static final String UNICODE = "gr\u00fcppe-\u65e5\u672c-\ud83d\ude00";
    static final String ESCAPES = "q\"b\\s/\n\t\r\b\f\u0000\u0001\u001f\u007f\u2028";

    // ---- records.tsv --------------------------------------------------------------------------

    static String records() throws Throwable {
        StringBuilder sb = new StringBuilder();
        sb.append("# heartbeat\tname\tsource\ttarget\ttimestamp\tkey_hex\tvalue_hex (or: error <message>)\n");
        Object[][] heartbeats = {
            {"reference-example", "backup", "primary", 1700000000000L},
            {"empty-aliases", "", "", 0L},
            {"unicode", UNICODE, "\u00e9t\u00e9", -1L},
            {"escapes", ESCAPES, "t", 42L},
            {"min-timestamp", "a", "b", Long.MIN_VALUE},
            {"max-timestamp", "a", "b", Long.MAX_VALUE},
            {"long-alias", LONG_249, "b", 1L},
            {"max-length-alias", MAX_STRING, "", 7L},
            {"too-long-alias", "a", TOO_LONG, 7L},
        };
        for (Object[] c : heartbeats) {
            Heartbeat h = new Heartbeat((String) c[1], (String) c[2], (Long) c[3]);
            String prefix = row("heartbeat", c[0], field((String) c[1]), field((String) c[2]), c[3]).trim();
            sb.append(prefix).append('\t').append(serialize(h, Heartbeat.class)).append('\n');
        }
        sb.append("# checkpoint\tname\tgroup\ttopic\tpartition\tupstream\tdownstream\tmetadata\tkey_hex\tvalue_hex\n");
        Object[][] checkpoints = {
            {"reference-example", "my-group", "primary.orders", 3, 1000L, 990L, ""},
            {"all-empty", "", "", 0, 0L, 0L, ""},
            {"unicode", UNICODE, "primary.\u00f6rders", Integer.MAX_VALUE, Long.MAX_VALUE, Long.MIN_VALUE, "m\u00e9ta \ud83d\ude00"},
            {"negative", "g", "t", -1, -1L, -1L, "x"},
            {"min-partition", "g", "t", Integer.MIN_VALUE, 0L, 1L, ""},
            {"escapes", ESCAPES, ESCAPES, 5, 123456789012L, 98765L, ESCAPES},
            {"long-topic", "g", LONG_249, 1, 2L, 3L, LONG_249},
            {"max-length-metadata", "g", "t", 0, 0L, 0L, MAX_STRING},
            {"too-long-metadata", "g", "t", 0, 0L, 0L, TOO_LONG},
            {"too-long-group", TOO_LONG, "t", 0, 0L, 0L, ""},
        };
        for (Object[] c : checkpoints) {
            Checkpoint cp = new Checkpoint((String) c[1], new TopicPartition((String) c[2], (Integer) c[3]),
                (Long) c[4], (Long) c[5], (String) c[6]);
            String prefix = row("checkpoint", c[0], field((String) c[1]), field((String) c[2]), c[3], c[4], c[5],
                field((String) c[6])).trim();
            sb.append(prefix).append('\t').append(serialize(cp, Checkpoint.class)).append('\n');
        }
        sb.append("# offset_sync\tname\ttopic\tpartition\tupstream\tdownstream\tkey_hex\tvalue_hex\n");
        Object[][] syncs = {
            {"reference-example", "orders", 3, 1000L, 990L},
            {"all-zero", "", 0, 0L, 0L},
            {"unicode", UNICODE, Integer.MIN_VALUE, Long.MIN_VALUE, Long.MAX_VALUE},
            {"negative", "t", -1, -1L, -2L},
            {"escapes", ESCAPES, 17, 4294967296L, 4294967295L},
            {"long-topic", LONG_249, Integer.MAX_VALUE, 1L, 0L},
            {"max-length-topic", MAX_STRING, 1, 1L, 1L},
            {"too-long-topic", TOO_LONG, 1, 1L, 1L},
        };
        for (Object[] c : syncs) {
            OffsetSync s = new OffsetSync(new TopicPartition((String) c[1], (Integer) c[2]), (Long) c[3], (Long) c[4]);
            String prefix = row("offset_sync", c[0], field((String) c[1]), c[2], c[3], c[4]).trim();
            sb.append(prefix).append('\t').append(serialize(s, OffsetSync.class)).append('\n');
        }
        return sb.toString();
    }

    static String serialize(Object record, Class<?> cls) {
        try {
            byte[] key = (byte[]) call(record, cls, "recordKey", new Class<?>[0]);
            byte[] value = (byte[]) call(record, cls, "recordValue", new Class<?>[0]);
            return bytes(key) + "\t" + bytes(value);
        } catch (Throwable t) {
            return "error\t" + oneLine(t);
        }
    }

    // ---- records_decode.tsv -------------------------------------------------------------------

    static ConsumerRecord<byte[], byte[]> record(String keyHex, String valueHex) {
        return new ConsumerRecord<>("t", 0, 0L, unhex(keyHex), unhex(valueHex));
    }

    static String records_decode() {
        StringBuilder sb = new StringBuilder();
        sb.append("# kind\tname\tkey_hex\tvalue_hex\tresult: ok <fields as in records.tsv> | error <message>\n");
        // Heartbeat("ab", "c", 5): key 0002 6162 0001 63, value 0000 0000000000000005.
        String[][] heartbeats = {
            {"valid", "000261620001 63".replace(" ", ""), "00000000000000000005"},
            {"trailing-key-bytes", "00026162000163ffee", "00000000000000000005"},
            {"trailing-value-bytes", "00026162000163", "0000000000000000000500"},
            {"version-1", "00026162000163", "00010000000000000005"},
            {"version-negative", "00026162000163", "ffff0000000000000005"},
            {"empty-strings", "00000000", "0000ffffffffffffffff"},
            {"negative-length", "ffff0000", "00000000000000000005"},
            {"length-past-end", "00036162000163", "00000000000000000005"},
            {"truncated-key", "000261", "00000000000000000005"},
            {"key-missing-second", "00026162", "00000000000000000005"},
            {"truncated-value", "00026162000163", "000000000000000000"},
            {"value-header-only", "00026162000163", "0000"},
            {"empty-key", "", "00000000000000000005"},
            {"empty-value", "00026162000163", ""},
            {"invalid-utf8", "0002c3280001ff", "00000000000000000005"},
        };
        for (String[] c : heartbeats) {
            String result;
            try {
                Heartbeat h = Heartbeat.deserializeRecord(record(c[1], c[2]));
                result = row("ok", field(h.sourceClusterAlias()), field(h.targetClusterAlias()), h.timestamp()).trim();
            } catch (Throwable t) {
                result = "error\t" + oneLine(t);
            }
            sb.append(row("heartbeat", c[0], c[1], c[2], result));
        }
        // Checkpoint("g", "t", 2, 10, 9, "m"): key 0001 67 0001 74 00000002,
        // value 0000 000000000000000a 0000000000000009 0001 6d.
        String key = "000167000174" + "00000002";
        String value = "0000" + "000000000000000a" + "0000000000000009" + "00016d";
        String[][] checkpoints = {
            {"valid", key, value},
            {"trailing-key-bytes", key + "00", value},
            {"trailing-value-bytes", key, value + "0102"},
            {"version-7", key, "0007" + value.substring(4)},
            {"empty-metadata", key, value.substring(0, value.length() - 6) + "0000"},
            {"negative-metadata-length", key, value.substring(0, value.length() - 6) + "8000"},
            {"metadata-past-end", key, value.substring(0, value.length() - 6) + "00056d"},
            {"missing-metadata", key, value.substring(0, value.length() - 6)},
            {"truncated-partition", "000167000174000000", value},
            {"missing-partition", "000167000174", value},
            {"negative-group-length", "ffff67000174" + "00000002", value},
            {"truncated-downstream", key, "0000" + "000000000000000a" + "00000000"},
            {"empty-key", "", value},
            {"empty-value", key, ""},
        };
        for (String[] c : checkpoints) {
            String result;
            try {
                Checkpoint cp = Checkpoint.deserializeRecord(record(c[1], c[2]));
                result = row("ok", field(cp.consumerGroupId()), field(cp.topicPartition().topic()),
                    cp.topicPartition().partition(), cp.upstreamOffset(), cp.downstreamOffset(),
                    field(cp.metadata())).trim();
            } catch (Throwable t) {
                result = "error\t" + oneLine(t);
            }
            sb.append(row("checkpoint", c[0], c[1], c[2], result));
        }
        // OffsetSync("t", 4, 100, 90): key 0001 74 00000004, value 0000000000000064 000000000000005a.
        String skey = "000174" + "00000004";
        String svalue = "0000000000000064" + "000000000000005a";
        String[][] syncs = {
            {"valid", skey, svalue},
            {"trailing-key-bytes", skey + "ff", svalue},
            {"trailing-value-bytes", skey, svalue + "ff"},
            {"negative-topic-length", "fffe74" + "00000004", svalue},
            {"topic-past-end", "000274", svalue},
            {"truncated-partition", "00017400", svalue},
            {"truncated-downstream", skey, "0000000000000064" + "000000"},
            {"missing-downstream", skey, "0000000000000064"},
            {"empty-key", "", svalue},
            {"empty-value", skey, ""},
        };
        for (String[] c : syncs) {
            String result;
            try {
                OffsetSync s = OffsetSync.deserializeRecord(record(c[1], c[2]));
                result = row("ok", field(s.topicPartition().topic()), s.topicPartition().partition(),
                    s.upstreamOffset(), s.downstreamOffset()).trim();
            } catch (Throwable t) {
                result = "error\t" + oneLine(t);
            }
            sb.append(row("offset_sync", c[0], c[1], c[2], result));
        }
        return sb.toString();
    }

    // ---- offsets_json.tsv ---------------------------------------------------------------------

    static JsonConverter internalConverter(boolean isKey) {
        // As the worker configures its internal key/value converters for the offsets topic.
        JsonConverter converter = new JsonConverter();
        converter.configure(Collections.singletonMap(JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "false"), isKey);
        return converter;
    }

    static String offsets_json() throws Throwable {
        JsonConverter keyConverter = internalConverter(true);
        JsonConverter valueConverter = internalConverter(false);
        Class<?> utils = Class.forName("org.apache.kafka.connect.mirror.MirrorUtils");
        StringBuilder sb = new StringBuilder();
        sb.append("# key bytes = JsonConverter([connector, partition map]); value bytes = JsonConverter(offset map),\n");
        sb.append("# as OffsetStorageWriter serializes them; the maps are built by MM2's own code.\n");
        sb.append("# source\tname\tconnector\tcluster\ttopic\tpartition\toffset\tkey_hex\tvalue_hex\n");
        Object[][] sources = {
            {"dedicated-default", "MirrorSourceConnector", "primary", "orders", 0, 0L},
            {"typical", "MirrorSourceConnector", "backup", "primary.orders", 7, 123456789L},
            {"custom-connector-name", "mm2 \"east\" \u2192 west", "east", "t", 1, 5L},
            {"unicode", "MirrorSourceConnector", UNICODE, "\u00f6rders", 11, -1L},
            {"escapes", "MirrorSourceConnector", ESCAPES, ESCAPES, 3, 1L},
            {"empty", "", "", "", 0, 0L},
            {"extremes", "MirrorSourceConnector", "a", "b", Integer.MAX_VALUE, Long.MAX_VALUE},
            {"negatives", "MirrorSourceConnector", "a", "b", Integer.MIN_VALUE, Long.MIN_VALUE},
        };
        for (Object[] c : sources) {
            Object partition = call(null, utils, "wrapPartition", new Class<?>[] {TopicPartition.class, String.class},
                new TopicPartition((String) c[3], (Integer) c[4]), (String) c[2]);
            Object offset = call(null, utils, "wrapOffset", new Class<?>[] {long.class}, (Long) c[5]);
            byte[] key = keyConverter.fromConnectData((String) c[1], null, Arrays.asList(c[1], partition));
            byte[] value = valueConverter.fromConnectData((String) c[1], null, offset);
            sb.append(row("source", c[0], field((String) c[1]), field((String) c[2]), field((String) c[3]), c[4], c[5],
                hex(key), hex(value)));
        }
        sb.append("# checkpoint\tname\tconnector\tgroup\ttopic\tpartition\tkey_hex\tvalue_hex (offset 0)\n");
        Object[][] checkpoints = {
            {"dedicated-default", "MirrorCheckpointConnector", "g1", "primary.orders", 0},
            {"unicode", "MirrorCheckpointConnector", UNICODE, "primary.\u00f6rders", 12},
            {"escapes", "MirrorCheckpointConnector", ESCAPES, ESCAPES, 2},
            {"empty", "MirrorCheckpointConnector", "", "", 0},
            {"extremes", "c", "g", "t", Integer.MIN_VALUE},
        };
        for (Object[] c : checkpoints) {
            Checkpoint cp = new Checkpoint((String) c[2], new TopicPartition((String) c[3], (Integer) c[4]), 0L, 0L, "");
            Object partition = call(cp, Checkpoint.class, "connectPartition", new Class<?>[0]);
            Object offset = call(null, utils, "wrapOffset", new Class<?>[] {long.class}, 0L);
            byte[] key = keyConverter.fromConnectData((String) c[1], null, Arrays.asList(c[1], partition));
            byte[] value = valueConverter.fromConnectData((String) c[1], null, offset);
            sb.append(row("checkpoint", c[0], field((String) c[1]), field((String) c[2]), field((String) c[3]), c[4],
                hex(key), hex(value)));
        }
        sb.append("# heartbeat\tname\tconnector\tsource\ttarget\tkey_hex\tvalue_hex (offset 0)\n");
        Object[][] heartbeats = {
            {"dedicated-default", "MirrorHeartbeatConnector", "backup", "primary"},
            {"unicode", "MirrorHeartbeatConnector", UNICODE, "\u00e9t\u00e9"},
            {"escapes", "MirrorHeartbeatConnector", ESCAPES, "x"},
            {"empty", "MirrorHeartbeatConnector", "", ""},
        };
        for (Object[] c : heartbeats) {
            Heartbeat h = new Heartbeat((String) c[2], (String) c[3], 0L);
            Object partition = call(h, Heartbeat.class, "connectPartition", new Class<?>[0]);
            Object offset = call(null, utils, "wrapOffset", new Class<?>[] {long.class}, 0L);
            byte[] key = keyConverter.fromConnectData((String) c[1], null, Arrays.asList(c[1], partition));
            byte[] value = valueConverter.fromConnectData((String) c[1], null, offset);
            sb.append(row("heartbeat", c[0], field((String) c[1]), field((String) c[2]), field((String) c[3]),
                hex(key), hex(value)));
        }
        return sb.toString();
    }

    // ---- policies.tsv -------------------------------------------------------------------------

    static final String DEFAULT_CLASS = "org.apache.kafka.connect.mirror.DefaultReplicationPolicy";
    static final String IDENTITY_CLASS = "org.apache.kafka.connect.mirror.IdentityReplicationPolicy";

    // class, replication.policy.separator, replication.policy.internal.topic.separator.enabled,
    // source.cluster.alias (null: property absent).
    static final String[][] POLICY_CONFIGS = {
        {DEFAULT_CLASS, null, null, null},
        {DEFAULT_CLASS, ".", null, null},
        {DEFAULT_CLASS, ".", "false", null},
        {DEFAULT_CLASS, "_", null, null},
        {DEFAULT_CLASS, "_", "false", null},
        {DEFAULT_CLASS, "__", null, null},
        {DEFAULT_CLASS, "__", "FALSE", null},
        {DEFAULT_CLASS, "__", "TRUE", null},
        {DEFAULT_CLASS, "__", "yes", null},
        {DEFAULT_CLASS, "-", null, null},
        {DEFAULT_CLASS, "-", "false", null},
        {DEFAULT_CLASS, null, "false", null},
        {DEFAULT_CLASS, "", null, null},
        {DEFAULT_CLASS, ".*", null, null},
        {DEFAULT_CLASS, " . ", "true", null},
        {IDENTITY_CLASS, null, null, null},
        {IDENTITY_CLASS, null, null, "A"},
        {IDENTITY_CLASS, "_", null, "A"},
        {IDENTITY_CLASS, "__", "false", "B"},
        {IDENTITY_CLASS, "-", null, ""},
    };

    static final String[] TOPICS = {
        "", "orders", "A.orders", "B.A.orders", "A.B.A.orders", ".orders", "orders.", "A..orders", "..", ".",
        "A.", "a.b.c.", ".a.", "heartbeats", "A.heartbeats", "B.A.heartbeats", "myheartbeats", "A.myheartbeats",
        "heartbeats.x", "A_heartbeats", "A__heartbeats", "B__A__heartbeats", "A-heartbeats", "A-B-heartbeats",
        "A.checkpoints.internal", "A_checkpoints_internal", "A__checkpoints__internal", "A-checkpoints-internal",
        ".checkpoints.internal", "checkpoints.internal", "mm2-offset-syncs.B.internal", "mm2-offset-syncs_B_internal",
        "mm2-offset-syncs__B__internal", "mm2-offset-syncs-B-internal", "mm2-configs.A.internal",
        "mm2-status.A.internal", "mm2.internal", "mm2", "mm2x_internal", "mm2-internal", "orders.internal",
        "orders-internal", "orders_internal", "__consumer_offsets", "_schemas", "___a", "____", "__", "_",
        "A_orders", "A__orders", "a___b", "A-orders", "A-B-orders", "-", "--a", "a--", "x.replica", "A.x.*y",
        "A.*orders", "A. orders", "\u00c4.t\u00f3pic", "\u65e5\u672c.orders", "\ud83d\ude00.x",
    };

    static final String[] ALIASES = {"A", "", "B.C", "_", "\u65e5\u672c"};

    static final String[][] REMOTE_PAIRS = {
        {"A", "orders"}, {"", "orders"}, {"A", ""}, {"A", "heartbeats"}, {"A", "B.heartbeats"},
        {"A", "myheartbeats"}, {"\u65e5\u672c", "\ud83d\ude00"}, {"A", "A.orders"},
    };

    static final String[] CYCLE_TARGETS = {"A", "B", "C", ""};

    // The POLICY_CONFIGS indexes isCycle is tabulated for.
    static final List<Integer> CYCLE_CONFIGS = List.of(0, 3, 5, 12, 16);

    static String result(Object o) {
        if (o == null)
            return "~";
        if (o instanceof Boolean)
            return o.toString();
        return field((String) o);
    }

    static String policies() throws Throwable {
        Constructor<MirrorSourceConnector> ctor = MirrorSourceConnector.class.getDeclaredConstructor(
            SourceAndTarget.class, ReplicationPolicy.class, TopicFilter.class, ConfigPropertyFilter.class);
        ctor.setAccessible(true);
        Method isCycle = MirrorSourceConnector.class.getDeclaredMethod("isCycle", String.class);
        isCycle.setAccessible(true);

        StringBuilder sb = new StringBuilder();
        sb.append("# config\tid\tclass\tseparator\tinternal_separator_enabled\tsource_alias\n");
        sb.append("# <id>\tmethod\targ1\targ2\tresult   (isCycle: arg1 = target alias, arg2 = topic)\n");
        for (int id = 0; id < POLICY_CONFIGS.length; id++) {
            String[] cfg = POLICY_CONFIGS[id];
            Map<String, Object> props = new LinkedHashMap<>();
            if (cfg[1] != null)
                props.put("replication.policy.separator", cfg[1]);
            if (cfg[2] != null)
                props.put("replication.policy.internal.topic.separator.enabled", cfg[2]);
            if (cfg[3] != null)
                props.put("source.cluster.alias", cfg[3]);
            DefaultReplicationPolicy policy =
                cfg[0].equals(IDENTITY_CLASS) ? new IdentityReplicationPolicy() : new DefaultReplicationPolicy();
            policy.configure(props);
            String prefix = "c" + id;
            sb.append(row("config", prefix, field(cfg[0]), field(cfg[1]), field(cfg[2]), field(cfg[3])));
            sb.append(row(prefix, "heartbeatsTopic", "~", "~", result(policy.heartbeatsTopic())));
            for (String a : ALIASES) {
                sb.append(row(prefix, "offsetSyncsTopic", field(a), "~", result(policy.offsetSyncsTopic(a))));
                sb.append(row(prefix, "checkpointsTopic", field(a), "~", result(policy.checkpointsTopic(a))));
            }
            for (String[] p : REMOTE_PAIRS)
                sb.append(row(prefix, "formatRemoteTopic", field(p[0]), field(p[1]),
                    result(policy.formatRemoteTopic(p[0], p[1]))));
            for (String t : TOPICS) {
                String a = field(t);
                sb.append(row(prefix, "topicSource", a, "~", result(policy.topicSource(t))));
                sb.append(row(prefix, "upstreamTopic", a, "~", result(policy.upstreamTopic(t))));
                sb.append(row(prefix, "originalTopic", a, "~", result(policy.originalTopic(t))));
                sb.append(row(prefix, "isInternalTopic", a, "~", result(policy.isInternalTopic(t))));
                sb.append(row(prefix, "isHeartbeatsTopic", a, "~", result(policy.isHeartbeatsTopic(t))));
                sb.append(row(prefix, "isCheckpointsTopic", a, "~", result(policy.isCheckpointsTopic(t))));
                sb.append(row(prefix, "isMM2InternalTopic", a, "~", result(policy.isMM2InternalTopic(t))));
            }
            if (!CYCLE_CONFIGS.contains(id))
                continue;
            for (String target : CYCLE_TARGETS) {
                Object connector = ctor.newInstance(new SourceAndTarget("S", target), policy, null, null);
                for (String t : TOPICS)
                    sb.append(row(prefix, "isCycle", field(target), field(t), result(isCycle.invoke(connector, t))));
            }
        }
        return sb.toString();
    }

    // ---- filters.tsv --------------------------------------------------------------------------

    // filter kind, properties (key, value, key, value ...), names to test.
    static final String[] TOPIC_NAMES = {
        "orders", "Orders", "orders.v1", "ordersXv1", "payments", "payments-eu", "orders.internal", "orders-internal",
        "orders_internal", "mm2-offset-syncs.B.internal", "mm2-configs.B.internal", "mm2x.internal", "mm2internal",
        "A.checkpoints.internal", "__consumer_offsets", "_schemas", "x.replica", "replica", "heartbeats",
        "A.heartbeats", "", "a.b", "a", "b", "ab", "\u00e9", "\u00c9", "a\nb", "a\u0085", "\ud83d\ude00",
    };

    static final String[] GROUP_NAMES = {
        "my-group", "console-consumer-123", "connect-mm2", "connect", "__consumer", "_g", "g1", "G1", "",
        "gr\u00fcppe", "console-consumerX",
    };

    static final String[] CONFIG_NAMES = {
        "follower.replication.throttled.replicas", "leader.replication.throttled.replicas",
        "message.timestamp.difference.max.ms", "log.message.timestamp.before.max.ms",
        "log.message.timestamp.after.max.ms", "message.timestamp.before.max.ms", "message.timestamp.after.max.ms",
        "message.timestamp.type", "unclean.leader.election.enable", "min.insync.replicas", "retention.ms",
        "cleanup.policy", "messageXtimestampXtype", "min.insync.replicasX", "compression.type",
    };

    static final Object[][] FILTER_CASES = {
        {"topic", new String[] {}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "orders.*, payments"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", ""}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "  "}, TOPIC_NAMES},
        {"topic", new String[] {"topics.exclude", ""}, TOPIC_NAMES},
        {"topic", new String[] {"topics.exclude", ".*[\\-\\.]internal, .*\\.replica, __.*"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", " orders , payments\t,\nheartbeats "}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "orders, orders"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "orders,,payments"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "orders,"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", " , "}, TOPIC_NAMES},
        {"topic", new String[] {"topics.exclude", "a,,"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "(orders, payments)"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "(orders"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "orders.v1"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "orders\\.v1"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "\\Qorders.v1\\E"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "\\Qorders.v1"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "(?i)ORDERS.*"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "a, (?i)B"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "(?i:A)b"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "(?i)[^a-n]rders"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "(?i)\u00e9"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "(?s)a.b, a."}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "a.b, a."}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "."}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "[]a]|b"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "[a-c-e]"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "\\w+"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "[\\w.]+"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "[^\\W_]+"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "\\p{Alpha}+"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "\\P{Alpha}+"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "[\\p{Lower}_]+"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "(?i)\\p{Lower}+"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "\\x{1F600}|\\u00E9|\\x61|\\0142"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "\\uD83D\\uDE00"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "(?<name>orders)\\.v\\d"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "(?!orders).*"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "orders(?=\\.).*"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "o.{4}s, o.{2,}, a{2}, a{0,1}"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "or+?ders|pay.*?s"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "^orders$"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "\\Aorders\\z"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "a\\b.*"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", ".*\\s.*"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "[\\x00-\\x1f].*|.*[\\x{80}-\\x{10FFFF}]"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "}, ]"}, TOPIC_NAMES},
        // Java accepts these, connectd rejects them (see connectors/mirror_client/README.md).
        {"topic", new String[] {"topics", ".*+s"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "(?>or|ord)ers"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "(o)rders\\1?"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", ".*(?<!internal)"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "[a-z&&[^o]]+"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "\\p{L}+"}, TOPIC_NAMES},
        // Invalid for Java too.
        {"topic", new String[] {"topics", "*orders"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "orders{"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "a{2,1}"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "orders)"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "[orders"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "orders\\"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "\\y"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "a\\E"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "[z-a]"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "a**"}, TOPIC_NAMES},
        {"topic", new String[] {"topics", "(?<1x>a)"}, TOPIC_NAMES},
        {"group", new String[] {}, GROUP_NAMES},
        {"group", new String[] {"groups", "my-.*, g\\d"}, GROUP_NAMES},
        {"group", new String[] {"groups.exclude", ""}, GROUP_NAMES},
        {"group", new String[] {"groups", ""}, GROUP_NAMES},
        {"group", new String[] {"groups", "g1, g1"}, GROUP_NAMES},
        {"config", new String[] {}, CONFIG_NAMES},
        {"config", new String[] {"config.properties.exclude", ""}, CONFIG_NAMES},
        {"config", new String[] {"config.properties.exclude", "retention\\..*, cleanup\\.policy"}, CONFIG_NAMES},
        {"config", new String[] {"use.defaults.from", "source"}, CONFIG_NAMES},
        {"config", new String[] {"use.defaults.from", " source "}, CONFIG_NAMES},
        {"config", new String[] {"use.defaults.from", "SOURCE"}, CONFIG_NAMES},
        {"config", new String[] {"use.defaults.from", "target"}, CONFIG_NAMES},
    };

    static String props(String[] kv) {
        if (kv.length == 0)
            return "~";
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < kv.length; i += 2) {
            if (i > 0)
                sb.append(',');
            sb.append(kv[i]).append('=').append(hex(kv[i + 1].getBytes(StandardCharsets.UTF_8)));
        }
        return sb.toString();
    }

    static String filters() {
        StringBuilder sb = new StringBuilder();
        sb.append("# defaults\t<key>\t<ConfigDef default of the key as MM2 defines it>\n");
        sb.append(row("default", "topics", field(DefaultTopicFilter.TOPICS_INCLUDE_DEFAULT)));
        sb.append(row("default", "topics.exclude", field(DefaultTopicFilter.TOPICS_EXCLUDE_DEFAULT)));
        sb.append(row("default", "groups", field(DefaultGroupFilter.GROUPS_INCLUDE_DEFAULT)));
        sb.append(row("default", "groups.exclude", field(DefaultGroupFilter.GROUPS_EXCLUDE_DEFAULT)));
        sb.append(row("default", "config.properties.exclude",
            field(DefaultConfigPropertyFilter.CONFIG_PROPERTIES_EXCLUDE_DEFAULT)));
        sb.append("# filter\tprops (key=value hex, comma-joined; ~ none)\tname\tresult: true|false, for config\n");
        sb.append("#   filters 'replicate-config,source-default'; or: error <message> (configure() failed)\n");
        for (Object[] c : FILTER_CASES) {
            String kind = (String) c[0];
            String[] kv = (String[]) c[1];
            Map<String, Object> props = new LinkedHashMap<>();
            for (int i = 0; i < kv.length; i += 2)
                props.put(kv[i], kv[i + 1]);
            Object filter;
            try {
                if (kind.equals("topic")) {
                    DefaultTopicFilter f = new DefaultTopicFilter();
                    f.configure(props);
                    filter = f;
                } else if (kind.equals("group")) {
                    DefaultGroupFilter f = new DefaultGroupFilter();
                    f.configure(props);
                    filter = f;
                } else {
                    DefaultConfigPropertyFilter f = new DefaultConfigPropertyFilter();
                    f.configure(props);
                    filter = f;
                }
            } catch (Throwable t) {
                sb.append(row(kind, props(kv), "~", "error\t" + oneLine(t)));
                continue;
            }
            for (String name : (String[]) c[2]) {
                String r;
                if (filter instanceof DefaultTopicFilter)
                    r = String.valueOf(((DefaultTopicFilter) filter).shouldReplicateTopic(name));
                else if (filter instanceof DefaultGroupFilter)
                    r = String.valueOf(((DefaultGroupFilter) filter).shouldReplicateGroup(name));
                else
                    r = ((DefaultConfigPropertyFilter) filter).shouldReplicateConfigProperty(name) + ","
                        + ((DefaultConfigPropertyFilter) filter).shouldReplicateSourceDefault(name);
                sb.append(row(kind, props(kv), field(name), r));
            }
        }
        return sb.toString();
    }

    public static void main(String[] args) throws Throwable {
        Path dir;
        if (args.length > 0)
            dir = Path.of(args[0]);
        else if (Files.exists(Path.of("GenerateMirrorGolden.java")))
            dir = Path.of(".");
        else
            dir = Path.of("tests/golden/mirror");
        String header = "# Written by GenerateMirrorGolden.java on Java " + System.getProperty("java.version")
            + " from " + versionOf(Heartbeat.class) + " (see README.md). Do not edit.\n";
        Files.writeString(dir.resolve("records.tsv"), header + records());
        Files.writeString(dir.resolve("records_decode.tsv"), header + records_decode());
        Files.writeString(dir.resolve("offsets_json.tsv"), header + offsets_json());
        Files.writeString(dir.resolve("policies.tsv"), header + policies());
        Files.writeString(dir.resolve("filters.tsv"), header + filters());
        System.out.println("wrote golden vectors to " + dir.toAbsolutePath().normalize());
    }

    static String versionOf(Class<?> cls) {
        String location = cls.getProtectionDomain().getCodeSource().getLocation().getPath();
        return location.substring(location.lastIndexOf('/') + 1);
    }
}
