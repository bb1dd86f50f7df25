// Produces and reads back the source-offset golden vectors in this directory with Apache Kafka
// Connect's own classes (connect-runtime + connect-json from scripts/kafka java-classpath).
// Run with the single-file source launcher; see README.md for the exact commands.
//
//   generate <dir>   writes <dir>/java.offsets (a FileOffsetBackingStore file written by Java),
//                    <dir>/java.offsets.txt (its entries and per-connector partitions, as `read`
//                    prints them) and <dir>/json_converter.tsv (JsonConverter bytes per case)
//   read <file>      loads <file> with FileOffsetBackingStore and prints its entries
//   codec            prints the JsonConverter table (json_converter.tsv) to stdout
//   doubles <n>      prints n pseudo-random doubles as "<raw bits hex> <Double.toString>" after a
//                    "# java.specification.version=<v>" line

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.json.JsonConverterConfig;
import org.apache.kafka.connect.runtime.standalone.StandaloneConfig;
import org.apache.kafka.connect.storage.Converter;
import org.apache.kafka.connect.storage.FileOffsetBackingStore;
import org.apache.kafka.connect.storage.OffsetStorageWriter;

import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

public class GenerateOffsetGolden {

    // JsonConverter cases: name, map kind, connector, partition JSON, offset JSON ("null": none).
    // "linked" maps iterate in the order of the text; "hash" maps are java.util.HashMaps filled
    // in text order (as JsonConverter, REST normalization and MirrorMaker 2 build them).
    static final String[][] CODEC_CASES = {
        {"file-source", "linked", "local-file-source", "{\"filename\":\"/tmp/test.txt\"}", "{\"position\":1024}"},
        {"file-source-hash", "hash", "local-file-source", "{\"filename\":\"/tmp/test.txt\"}", "{\"position\":1024}"},
        {"mm2-partition", "hash", "MirrorSourceConnector", "{\"cluster\":\"primary\",\"topic\":\"orders\",\"partition\":7}", "{\"offset\":123456789}"},
        {"mm2-partition-linked", "linked", "MirrorSourceConnector", "{\"cluster\":\"primary\",\"topic\":\"orders\",\"partition\":7}", "{\"offset\":123456789}"},
        {"mm2-checkpoint", "hash", "MirrorCheckpointConnector", "{\"group\":\"g1\",\"topic\":\"primary.orders\",\"partition\":0}", "{\"offset\":42}"},
        {"empty-maps", "linked", "c", "{}", "{}"},
        {"tombstone", "linked", "c", "{\"k\":\"v\"}", "null"},
        {"null-values", "hash", "c", "{\"a\":null,\"b\":\"x\"}", "{\"n\":null}"},
        {"booleans", "linked", "c", "{\"t\":true,\"f\":false}", "{\"done\":true}"},
        {"longs", "linked", "c", "{\"min\":-9223372036854775808,\"max\":9223372036854775807,\"zero\":0,\"neg\":-1}", "{\"big\":9007199254740993}"},
        {"doubles-plain", "linked", "c", "{\"a\":0.1,\"b\":100.0,\"c\":-2.5,\"d\":0.001,\"e\":1234567.0}", "{\"x\":3.0}"},
        {"doubles-sci", "linked", "c", "{\"a\":1e10,\"b\":1.0E-5,\"c\":12345678.9,\"d\":1e7,\"e\":9.999e-4}", "{\"x\":-1.5e300}"},
        {"doubles-edge", "linked", "c", "{\"min\":4.9e-324,\"max\":1.7976931348623157E308,\"negzero\":-0.0,\"zero\":0.0,\"e23\":1e23}", "{\"x\":0.30000000000000004}"},
        {"doubles-jdk17", "linked", "c", "{\"a\":4.317978512887089E16,\"b\":9.223372036854776E18,\"c\":1.8014398509481984E16,\"d\":2.7171885331698987E25}", "{\"x\":1.2345678901234568E17}"},
        {"escapes", "linked", "conn \"quoted\" \\ back/slash", "{\"s\":\"tab\\tnl\\ncr\\rbs\\bff\\f\",\"q\":\"\\\"\\\\/\",\"ctl\":\"\\u0000\\u0001\\u001f\\u007f\"}", "{\"u\":\"\\u2028\\u2029\"}"},
        {"unicode", "linked", "k\u00f6nnektor", "{\"file\":\"/d\u00e4ta/\u65e5\u672c.txt\",\"emoji\":\"\ud83d\ude00\"}", "{\"\u00e9t\u00e9\":\"\u20ac\"}"},
        {"unicode-keys-hash", "hash", "c", "{\"\u00e9\":1,\"\u65e5\":2,\"\ud83d\ude00\":3,\"e\":4}", "{\"o\":1}"},
        {"hash-collision", "hash", "c", "{\"Aa\":1,\"BB\":2,\"x\":3}", "{\"BB\":2,\"Aa\":1}"},
        {"hash-collision-rev", "hash", "c", "{\"BB\":2,\"Aa\":1,\"x\":3}", "{\"o\":0}"},
        {"hash-13-keys", "hash", "c", "{\"k00\":0,\"k01\":1,\"k02\":2,\"k03\":3,\"k04\":4,\"k05\":5,\"k06\":6,\"k07\":7,\"k08\":8,\"k09\":9,\"k10\":10,\"k11\":11,\"k12\":12}", "{\"z\":1,\"y\":2,\"x\":3,\"w\":4,\"v\":5,\"u\":6,\"t\":7,\"s\":8,\"r\":9,\"q\":10,\"p\":11,\"o\":12}"},
        {"hash-25-keys", "hash", "c", "{\"topic\":\"t\",\"partition\":1,\"cluster\":\"c\",\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\"f\":6,\"g\":7,\"h\":8,\"i\":9,\"j\":10,\"kk\":11,\"ll\":12,\"mm\":13,\"nn\":14,\"oo\":15,\"pp\":16,\"qq\":17,\"rr\":18,\"ss\":19,\"tt\":20,\"uu\":21,\"vv\":22}", "{\"offset\":5}"},
        {"hash-bucket-overflow", "hash", "c", "{\"x\":0,\"k1\":1,\"AaAaAaAa\":0,\"AaAaAaBB\":1,\"AaAaBBAa\":2,\"AaAaBBBB\":3,\"AaBBAaAa\":4,\"AaBBAaBB\":5,\"AaBBBBAa\":6,\"AaBBBBBB\":7,\"BBAaAaAa\":8,\"offset\":2,\"topic\":3}", "{\"o\":0}"},
        {"hash-negative-hash", "hash", "c", "{\"polygenelubricants\":1,\"GydZG_\":2,\"DESIGNING WORKHOUSES\":3,\"\":4}", "{\"o\":0}"},
    };

    // The entries of the FileOffsetBackingStore golden file, per connector: partition and offset
    // JSON (offset "null" writes a tombstone after a first real offset).
    static final String[][] FILE_CASES = {
        {"local-file-source", "linked", "{\"filename\":\"/tmp/test.txt\"}", "{\"position\":1024}"},
        {"local-file-source", "linked", "{\"filename\":\"/data/\u00fcn\u00efc\u00f6d\u00e9 \\\"quoted\\\" \\\\ tab\\t.txt\"}", "{\"position\":9007199254740993}"},
        {"local-file-source", "linked", "{\"filename\":\"/tmp/deleted.txt\"}", "null"},
        {"MirrorSourceConnector", "hash", "{\"cluster\":\"primary\",\"topic\":\"orders\",\"partition\":0}", "{\"offset\":0}"},
        {"MirrorSourceConnector", "hash", "{\"cluster\":\"primary\",\"topic\":\"orders\",\"partition\":1}", "{\"offset\":1234567890123}"},
        {"MirrorSourceConnector", "hash", "{\"cluster\":\"primary\",\"topic\":\"payments\",\"partition\":11}", "{\"offset\":77}"},
        {"mixed-source", "linked", "{\"id\":7,\"ratio\":0.1,\"active\":true,\"none\":null}", "{\"d\":1e10,\"f\":100.0,\"b\":false,\"s\":\"emoji \ud83d\ude00 \\u0001\\u001f \u2028\",\"n\":null}"},
        {"mixed-source", "hash", "{\"Aa\":1,\"BB\":2}", "{\"ts\":1700000000000,\"lag\":-0.25}"},
    };

    static final ObjectMapper MAPPER = new ObjectMapper();

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: generate <dir> | read <file> | codec | doubles <n>");
            System.exit(2);
        }
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        switch (args[0]) {
            case "generate": {
                Path dir = Path.of(args[1]);
                Path file = dir.resolve("java.offsets");
                Files.deleteIfExists(file);
                writeFileStore(file);
                Files.writeString(dir.resolve("java.offsets.txt"), listing(file));
                Files.writeString(dir.resolve("json_converter.tsv"), codecTable());
                break;
            }
            case "read":
                out.print(listing(Path.of(args[1])));
                break;
            case "codec":
                out.print(codecTable());
                break;
            case "doubles":
                out.print(doubles(Integer.parseInt(args[1])));
                break;
            default:
                System.err.println("unknown command " + args[0]);
                System.exit(2);
        }
    }

    static Converter internalConverter(boolean isKey) {
        // As Worker and ConnectStandalone configure the internal converters.
        JsonConverter converter = new JsonConverter();
        converter.configure(Collections.singletonMap(JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "false"), isKey);
        return converter;
    }

    static Map<String, Object> parseMap(String kind, String json) throws Exception {
        if (json.equals("null"))
            return null;
        LinkedHashMap<String, Object> linked = MAPPER.readValue(json, new TypeReference<LinkedHashMap<String, Object>>() { });
        if (kind.equals("linked"))
            return linked;
        Map<String, Object> hash = new HashMap<>();
        for (Map.Entry<String, Object> e : linked.entrySet())
            hash.put(e.getKey(), e.getValue());
        return hash;
    }

    static String codecTable() throws Exception {
        Converter keyConverter = internalConverter(true);
        Converter valueConverter = internalConverter(false);
        StringBuilder sb = new StringBuilder();
        sb.append("# name\tkind\tconnector\tpartition\toffset\tkey_hex\tvalue_hex\n");
        for (String[] c : CODEC_CASES) {
            Map<String, Object> partition = parseMap(c[1], c[3]);
            Map<String, Object> offset = parseMap(c[1], c[4]);
            // As OffsetStorageWriter.doFlush serializes them.
            byte[] key = keyConverter.fromConnectData(c[2], null, List.of(c[2], partition));
            byte[] value = valueConverter.fromConnectData(c[2], null, offset);
            sb.append(c[0]).append('\t').append(c[1]).append('\t').append(c[2]).append('\t')
                .append(c[3]).append('\t').append(c[4]).append('\t').append(hex(key)).append('\t')
                .append(value == null ? "null" : hex(value)).append('\n');
        }
        return sb.toString();
    }

    static Map<String, String> storeConfig(Path file) {
        Map<String, String> props = new HashMap<>();
        props.put("bootstrap.servers", "localhost:9092");
        props.put("key.converter", JsonConverter.class.getName());
        props.put("value.converter", JsonConverter.class.getName());
        props.put(StandaloneConfig.OFFSET_STORAGE_FILE_FILENAME_CONFIG, file.toString());
        return props;
    }

    static void writeFileStore(Path file) throws Exception {
        FileOffsetBackingStore store = new FileOffsetBackingStore(internalConverter(true));
        store.configure(new StandaloneConfig(storeConfig(file)));
        store.start();
        try {
            Map<String, OffsetStorageWriter> writers = new LinkedHashMap<>();
            for (String[] c : FILE_CASES) {
                OffsetStorageWriter writer = writers.computeIfAbsent(c[0], ns ->
                    new OffsetStorageWriter(store, ns, internalConverter(true), internalConverter(false)));
                Map<String, Object> partition = parseMap(c[1], c[2]);
                if (c[3].equals("null")) {
                    // A real offset first, then its tombstone: the store keeps the key with a null value.
                    writer.offset(partition, Map.of("position", 5L));
                    flush(writer);
                }
                writer.offset(partition, parseMap(c[1], c[3]));
            }
            for (OffsetStorageWriter writer : writers.values())
                flush(writer);
        } finally {
            store.stop();
        }
    }

    static void flush(OffsetStorageWriter writer) throws Exception {
        if (writer.beginFlush())
            writer.doFlush((error, result) -> {
                if (error != null)
                    throw new RuntimeException(error);
            }).get(30, TimeUnit.SECONDS);
    }

    // Exposes the loaded entries (MemoryOffsetBackingStore.data) of a FileOffsetBackingStore.
    static class Probe extends FileOffsetBackingStore {
        Probe() {
            super(internalConverter(true));
        }

        Map<ByteBuffer, ByteBuffer> entries() {
            return data;
        }
    }

    // One line per entry, sorted: "entry <key hex> <value hex|null>"; then, per connector seen in
    // the keys, "partition <connector> <partition as JsonConverter writes it>", sorted.
    static String listing(Path file) throws Exception {
        Probe store = new Probe();
        store.configure(new StandaloneConfig(storeConfig(file)));
        store.start();
        try {
            TreeMap<String, String> entries = new TreeMap<>();
            Set<String> connectors = new TreeSet<>();
            Converter keyConverter = internalConverter(true);
            for (Map.Entry<ByteBuffer, ByteBuffer> e : store.entries().entrySet()) {
                byte[] key = e.getKey() == null ? null : e.getKey().array();
                byte[] value = e.getValue() == null ? null : e.getValue().array();
                entries.put(key == null ? "null" : hex(key), value == null ? "null" : hex(value));
                if (key != null) {
                    Object parsed = keyConverter.toConnectData("", key).value();
                    if (parsed instanceof List && !((List<?>) parsed).isEmpty() && ((List<?>) parsed).get(0) instanceof String)
                        connectors.add((String) ((List<?>) parsed).get(0));
                }
            }
            StringBuilder sb = new StringBuilder();
            for (Map.Entry<String, String> e : entries.entrySet())
                sb.append("entry ").append(e.getKey()).append(' ').append(e.getValue()).append('\n');
            Converter valueConverter = internalConverter(false);
            for (String connector : connectors) {
                List<String> partitions = new ArrayList<>();
                for (Map<String, Object> partition : store.connectorPartitions(connector))
                    partitions.add(new String(valueConverter.fromConnectData("", null, partition), StandardCharsets.UTF_8));
                Collections.sort(partitions);
                for (String p : partitions)
                    sb.append("partition ").append(connector).append(' ').append(p).append('\n');
            }
            return sb.toString();
        } finally {
            store.stop();
        }
    }

    static String doubles(int n) {
        Random random = new Random(20261130L);
        StringBuilder sb = new StringBuilder();
        sb.append("# java.specification.version=").append(System.getProperty("java.specification.version")).append('\n');
        for (int i = 0; i < n; i++) {
            double d;
            switch (i % 6) {
                case 0: d = Double.longBitsToDouble(random.nextLong()); break;
                case 1: d = random.nextDouble() * Math.pow(10, random.nextInt(60) - 30); break;
                case 2: d = random.nextInt(1000000) / Math.pow(10, random.nextInt(9)); break;
                case 3: d = random.nextLong() / (double) (1L << random.nextInt(20)); break;
                case 4: d = Math.scalb(1.0, random.nextInt(2098) - 1074); break;
                default: d = Double.longBitsToDouble(random.nextLong() & 0x000fffffffffffffL); break;
            }
            if (Double.isNaN(d) || Double.isInfinite(d))
                continue;
            sb.append(String.format("%016x", Double.doubleToRawLongBits(d))).append(' ').append(Double.toString(d)).append('\n');
        }
        return sb.toString();
    }

    static String hex(byte[] bytes) {
        StringBuilder sb = new StringBuilder(bytes.length * 2);
        for (byte b : bytes)
            sb.append(String.format("%02x", b & 0xff));
        return sb.toString();
    }
}
