// Golden bytes of the config-topic record values (config.storage.topic) as a Java Connect 4.4
// worker writes them, and Java's reading of odd value bytes. Uses Connect's own classes: the
// public schemas of KafkaConfigBackingStore (CONNECTOR_CONFIGURATION_V0, TASK_CONFIGURATION_V0,
// CONNECTOR_TASKS_COMMIT_V0, TARGET_STATE_V0/V1, TASK_COUNT_RECORD_V0, SESSION_KEY_V0,
// RESTART_REQUEST_V0, LOGGER_LEVEL_V0) filled as its put* methods fill them, converted by the
// worker's internal org.apache.kafka.connect.json.JsonConverter (schemas.enable=false).
// Run from the repository root:
//   "$(scripts/kafka java)" -cp "$(scripts/kafka java-classpath)" \
//       tests/golden/config_topic/GenerateConfigTopicGolden.java tests/golden/config_topic
// Output: config_topic.tsv with two kinds of rows:
//   encode.<case>\t<value hex>                  fromConnectData bytes (cases described below and
//                                                in tests/unit/runtime/storage/config_records_test.cc)
//   decode.<case>\t<input hex>\t<rendering>     toConnectData(input) rendered by render() below,
//                                                or ERROR when it throws (DataException)
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.storage.KafkaConfigBackingStore;

public class GenerateConfigTopicGolden {
  static PrintWriter out;
  static JsonConverter converter;
  static final String TOPIC = "connect-configs";

  static void encode(String name, Schema schema, Struct value) {
    byte[] bytes = converter.fromConnectData(TOPIC, schema, value);
    out.println("encode." + name + "\t" + HexFormat.of().formatHex(bytes));
  }

  static Struct properties(Schema schema, Map<String, String> props) {
    Struct s = new Struct(schema);
    s.put("properties", props);
    return s;
  }

  static Map<String, String> linked(String... kv) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) m.put(kv[i], kv[i + 1]);
    return m;
  }

  // KafkaConfigBackingStore.serializeTargetState (private): STOPPED is written as PAUSED in
  // "state" for older workers, the real state in "state.v2".
  static Struct targetState(String state) {
    Struct s = new Struct(KafkaConfigBackingStore.TARGET_STATE_V1);
    s.put("state", state.equals("STOPPED") ? "PAUSED" : state);
    s.put("state.v2", state);
    return s;
  }

  // A deterministic rendering of a schemaless Connect value: null, true/false, L<long>,
  // D<Double.toString>, "<string>" (UTF-16 code units outside printable ASCII, and the quote and backslash, as backslash-u plus 4 upper-case hex digits),
  // [a,b], {k:v,...} sorted by rendered key. Any other class is reported by name.
  static String render(Object v) {
    if (v == null) return "null";
    if (v instanceof Boolean) return v.toString();
    if (v instanceof Long) return "L" + v;
    if (v instanceof Double) return "D" + v;
    if (v instanceof String) return quote((String) v);
    if (v instanceof List) {
      List<String> parts = new ArrayList<>();
      for (Object o : (List<?>) v) parts.add(render(o));
      return "[" + String.join(",", parts) + "]";
    }
    if (v instanceof Map) {
      TreeMap<String, String> sorted = new TreeMap<>();
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
        sorted.put(render(e.getKey()), render(e.getValue()));
      }
      List<String> parts = new ArrayList<>();
      sorted.forEach((k, val) -> parts.add(k + ":" + val));
      return "{" + String.join(",", parts) + "}";
    }
    return "?" + v.getClass().getName();
  }

  static String quote(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
        b.append(c);
      } else {
        b.append(String.format("\\u%04X", (int) c));
      }
    }
    return b.append('"').toString();
  }

  static void decode(String name, byte[] input) {
    String rendering;
    try {
      rendering = render(converter.toConnectData(TOPIC, input).value());
    } catch (RuntimeException e) {
      rendering = "ERROR";
    }
    out.println("decode." + name + "\t" + HexFormat.of().formatHex(input) + "\t" + rendering);
  }

  static void decode(String name, String utf8) {
    decode(name, utf8.getBytes(StandardCharsets.UTF_8));
  }

  static byte[] bytes(int... b) {
    byte[] r = new byte[b.length];
    for (int i = 0; i < b.length; i++) r[i] = (byte) b[i];
    return r;
  }

  static byte[] concat(byte[]... parts) {
    int n = 0;
    for (byte[] p : parts) n += p.length;
    byte[] r = new byte[n];
    int at = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, r, at, p.length);
      at += p.length;
    }
    return r;
  }

  static byte[] utf8(String s) { return s.getBytes(StandardCharsets.UTF_8); }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args.length > 0 ? args[0] : ".");
    converter = new JsonConverter();
    converter.configure(Map.of("schemas.enable", "false"), false);  // as Worker's internal converter
    out = new PrintWriter(Files.newBufferedWriter(dir.resolve("config_topic.tsv")));
    out.println("# Written by GenerateConfigTopicGolden.java with "
        + Path.of(KafkaConfigBackingStore.class.getProtectionDomain().getCodeSource().getLocation().getPath())
              .getFileName()
        + " on Java " + System.getProperty("java.version") + "; do not edit.");

    // connector-{c} / task-{c}-{n}: {"properties":{...}} in the map's iteration order.
    Schema conn = KafkaConfigBackingStore.CONNECTOR_CONFIGURATION_V0;
    Schema task = KafkaConfigBackingStore.TASK_CONFIGURATION_V0;
    encode("connector.basic", conn, properties(conn, linked(
        "connector.class", "FileStreamSource", "tasks.max", "2", "file", "/in.txt", "topic", "t", "name", "src")));
    encode("connector.empty", conn, properties(conn, linked()));
    encode("connector.null-values", conn, properties(conn, linked("a", null, "b", "x", "c", null)));
    encode("connector.escapes", conn, properties(conn, linked(
        "quote\"back\\slash/", "tab\tnl\ncr\rbs\bff\f",
        "ctl", "\u0000\u0001\u001f\u007f",
        "non-ascii \u00e9\u4e2d", "emoji \ud83d\ude00 sep \u2028\u2029",
        "", "empty key",
        "html", "</script><&>'")));
    encode("connector.unicode-keys", conn, properties(conn, linked(
        "\u00fcber", "\u00c5", "\ud83d\udca1", "idea", "\uffff", "max bmp")));
    encode("task.basic", task, properties(task, linked(
        "task.class", "org.apache.kafka.connect.file.FileStreamSourceTask", "file", "/in.txt", "topic", "t")));
    encode("task.empty", task, properties(task, linked()));
    encode("task.null-value", task, properties(task, linked("k", null)));

    // commit-{c}: {"tasks":N} (INT32).
    Schema commit = KafkaConfigBackingStore.CONNECTOR_TASKS_COMMIT_V0;
    for (int n : new int[] {0, 1, 2, 1000, Integer.MAX_VALUE, -1, Integer.MIN_VALUE}) {
      Struct s = new Struct(commit);
      s.put("tasks", n);
      encode("commit." + n, commit, s);
    }

    // target-state-{c}: v1 records as putTargetState writes them; a v0 record as 3.4- writes it.
    for (String st : new String[] {"STARTED", "PAUSED", "STOPPED"}) {
      encode("target-state." + st, KafkaConfigBackingStore.TARGET_STATE_V1, targetState(st));
    }
    Struct v0 = new Struct(KafkaConfigBackingStore.TARGET_STATE_V0);
    v0.put("state", "PAUSED");
    encode("target-state.v0.PAUSED", KafkaConfigBackingStore.TARGET_STATE_V0, v0);

    // restart-connector-{c}: {"include-tasks":b,"only-failed":b}.
    for (boolean includeTasks : new boolean[] {false, true}) {
      for (boolean onlyFailed : new boolean[] {false, true}) {
        Struct s = new Struct(KafkaConfigBackingStore.RESTART_REQUEST_V0);
        s.put(KafkaConfigBackingStore.INCLUDE_TASKS_FIELD_NAME, includeTasks);
        s.put(KafkaConfigBackingStore.ONLY_FAILED_FIELD_NAME, onlyFailed);
        encode("restart." + includeTasks + "." + onlyFailed, KafkaConfigBackingStore.RESTART_REQUEST_V0, s);
      }
    }

    // tasks-fencing-{c}: {"task-count":N} (INT32).
    for (int n : new int[] {0, 3, Integer.MAX_VALUE}) {
      Struct s = new Struct(KafkaConfigBackingStore.TASK_COUNT_RECORD_V0);
      s.put("task-count", n);
      encode("task-count." + n, KafkaConfigBackingStore.TASK_COUNT_RECORD_V0, s);
    }

    // session-key: key bytes 0x00..0x1f (Base64, standard alphabet, padded), INT64 timestamp.
    byte[] key = new byte[32];
    for (int i = 0; i < key.length; i++) key[i] = (byte) i;
    Object[][] sessionCases = {
        {"hmac256", key, "HmacSHA256", 1700000000123L},
        {"small-ts", new byte[] {(byte) 0xff, (byte) 0xfe, (byte) 0xfd, 0x00, 0x7f}, "HmacSHA1", 5L},
        {"max-ts", new byte[] {1}, "HmacSHA512", Long.MAX_VALUE},
    };
    for (Object[] c : sessionCases) {
      Struct s = new Struct(KafkaConfigBackingStore.SESSION_KEY_V0);
      s.put("key", Base64.getEncoder().encodeToString((byte[]) c[1]));
      s.put("algorithm", c[2]);
      s.put("creation-timestamp", c[3]);
      encode("session-key." + c[0], KafkaConfigBackingStore.SESSION_KEY_V0, s);
    }

    // logger-cluster-{ns}: {"level":...}.
    for (String level : new String[] {"DEBUG", "ERROR"}) {
      Struct s = new Struct(KafkaConfigBackingStore.LOGGER_LEVEL_V0);
      s.put("level", level);
      encode("logger." + level, KafkaConfigBackingStore.LOGGER_LEVEL_V0, s);
    }

    // How Java reads value bytes (JsonDeserializer + schemaless JsonConverter).
    decode("empty", new byte[0]);
    decode("whitespace", " \t\r\n");
    decode("null", "null");
    decode("empty-object", "{}");
    decode("commit", "{\"tasks\":3}");
    decode("spaces", " { \"tasks\" : 3 , \"x\" : [ ] } ");
    decode("leading-zeros", "{\"tasks\":007,\"n\":-007,\"z\":00}");
    decode("negative-zero", "{\"a\":-0,\"b\":-0.0}");
    decode("trailing-garbage", "{\"tasks\":3} garbage");
    decode("trailing-brace", "{\"tasks\":3}}");
    decode("trailing-value", "{\"tasks\":3}{\"tasks\":4}");
    decode("exponent", "{\"a\":1e2,\"b\":3.0,\"c\":1E-2,\"d\":2.5e+3,\"e\":1e400,\"f\":-1e-400}");
    decode("long-max", "{\"a\":9223372036854775807,\"b\":-9223372036854775808}");
    decode("beyond-long", "{\"a\":9223372036854775808,\"b\":18446744073709551617,\"c\":-9223372036854775809}");
    decode("duplicate-keys", "{\"a\":1,\"b\":2,\"a\":\"x\"}");
    decode("escapes", "{\"s\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\u4E2d\\ud83d\\ude00\"}");
    decode("lone-surrogates", "{\"hi\":\"\\ud800x\",\"lo\":\"\\udc00\",\"rev\":\"\\ude00\\ud83d\"}");
    decode("raw-utf8", "{\"\u00fcber\":\"\u4e2d\ud83d\ude00\u2028\"}");
    decode("bom", concat(bytes(0xef, 0xbb, 0xbf), utf8("{\"a\":1}")));
    decode("array", "[1,\"x\",null,true,false,2.5,{}]");
    decode("string-root", "\"PAUSED\"");
    decode("number-root", "42");
    decode("nested", "{\"properties\":{\"a\":{\"b\":[1,[2]]},\"n\":null}}");
    decode("properties-null-value", "{\"properties\":{\"a\":null,\"b\":\"x\"}}");
    decode("del-char", concat(utf8("{\"a\":\""), bytes(0x7f), utf8("\"}")));
    decode("bad.trailing-comma", "{\"a\":1,}");
    decode("bad.single-quotes", "{'a':1}");
    decode("bad.plus", "{\"a\":+1}");
    decode("bad.leading-dot", "{\"a\":.5}");
    decode("bad.trailing-dot", "{\"a\":1.}");
    decode("bad.exponent", "{\"a\":1e}");
    decode("bad.nan", "{\"a\":NaN}");
    decode("bad.comment", "{/*c*/\"a\":1}");
    decode("bad.unquoted-key", "{a:1}");
    decode("bad.escape", "{\"a\":\"\\q\"}");
    decode("bad.short-unicode-escape", "{\"a\":\"\\u12\"}");
    decode("bad.raw-control", concat(utf8("{\"a\":\""), bytes(0x01), utf8("\"}")));
    decode("bad.raw-tab", concat(utf8("{\"a\":\""), bytes(0x09), utf8("\"}")));
    decode("bad.unterminated", "{\"a\":\"x");
    decode("bad.unclosed-object", "{\"a\":1");
    decode("bad.missing-colon", "{\"a\" 1}");
    decode("bad.true-typo", "{\"a\":tru}");
    decode("bad.lone-minus", "{\"a\":-}");
    decode("utf8.truncated", concat(utf8("{\"a\":\""), bytes(0xc3), utf8("\"}")));
    decode("utf8.bad-start", concat(utf8("{\"a\":\""), bytes(0x80), utf8("\"}")));
    decode("utf8.bad-middle", concat(utf8("{\"a\":\""), bytes(0xe4, 0x41, 0x41), utf8("\"}")));
    decode("utf8.overlong-nul", concat(utf8("{\"a\":\""), bytes(0xc0, 0x80), utf8("\"}")));
    decode("utf8.encoded-surrogate", concat(utf8("{\"a\":\""), bytes(0xed, 0xa0, 0x80), utf8("\"}")));
    decode("utf8.f5", concat(utf8("{\"a\":\""), bytes(0xf5, 0x80, 0x80, 0x80), utf8("\"}")));
    decode("utf8.f8", concat(utf8("{\"a\":\""), bytes(0xf8, 0x80, 0x80, 0x80, 0x80), utf8("\"}")));
    decode("utf8.in-key", concat(utf8("{\""), bytes(0xff), utf8("\":1}")));
    decode("utf8.outside-string", concat(utf8("{\"a\":1}"), bytes(0xff)));
    decode("depth.500", "[".repeat(500) + "]".repeat(500));
    decode("depth.501", "[".repeat(501) + "]".repeat(501));
    decode("depth.1000", "[".repeat(1000) + "]".repeat(1000));
    decode("depth.1001", "[".repeat(1001) + "]".repeat(1001));
    decode("number.1000-digits", "{\"a\":1" + "0".repeat(999) + "}");
    decode("number.1001-digits", "{\"a\":1" + "0".repeat(1000) + "}");
    out.close();
  }
}
