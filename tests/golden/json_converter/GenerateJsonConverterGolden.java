// Writes expected.tsv in this directory: what Kafka's own JsonConverter (connect-json, from
// `scripts/kafka java-classpath`) makes of every case in cases.tsv. Run with Java's single-file
// source launcher; see README.md for the exact command.
// Usage: GenerateJsonConverterGolden.java [directory holding cases.tsv]
//
// Output, tab-separated, one line per case, in the order of cases.tsv:
//   <name>  out       <bytes>              fromConnectData's output
//   <name>  error-in  <exception message>  toConnectData threw
//   <name>  error-out <exception message>  fromConnectData threw
// <bytes> is "~" for null, "s:<text>" when the bytes are printable ASCII without spaces or
// backslashes, else "x:<lower-case hex>".

import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.json.JsonConverter;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public class GenerateJsonConverterGolden {

    static String encode(byte[] bytes) {
        if (bytes == null)
            return "~";
        boolean plain = bytes.length > 0;
        for (byte b : bytes)
            plain &= b > 0x20 && b < 0x7f && b != '\\';
        if (plain)
            return "s:" + new String(bytes, StandardCharsets.US_ASCII);
        StringBuilder out = new StringBuilder("x:");
        for (byte b : bytes)
            out.append(String.format("%02x", b & 0xff));
        return out.toString();
    }

    // The input column: UTF-8 text where \xHH is one byte; "~" alone is null.
    static byte[] input(String text) {
        if (text.equals("~"))
            return null;
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < utf8.length; i++) {
            if (utf8[i] == '\\' && i + 3 < utf8.length && utf8[i + 1] == 'x') {
                out.write(Integer.parseInt(new String(utf8, i + 2, 2, StandardCharsets.US_ASCII), 16));
                i += 3;
            } else {
                out.write(utf8[i]);
            }
        }
        return out.toByteArray();
    }

    static JsonConverter converter(String configs) {
        Map<String, Object> map = new HashMap<>();
        if (!configs.equals("-")) {
            for (String kv : configs.split(",")) {
                int eq = kv.indexOf('=');
                map.put(kv.substring(0, eq), kv.substring(eq + 1));
            }
        }
        JsonConverter converter = new JsonConverter();
        converter.configure(map, false);
        return converter;
    }

    static String oneLine(Throwable e) {
        String message = String.valueOf(e.getMessage());
        return message.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args.length > 0 ? args[0] : (Files.exists(Path.of("cases.tsv")) ? "." : "tests/golden/json_converter"));
        List<String> out = new ArrayList<>();
        out.add("# Written by GenerateJsonConverterGolden.java on Java " + System.getProperty("java.version")
            + " from " + JsonConverter.class.getProtectionDomain().getCodeSource().getLocation().getPath()
                .replaceAll(".*/", "") + " (see README.md). Do not edit.");
        for (String line : Files.readAllLines(dir.resolve("cases.tsv"), StandardCharsets.UTF_8)) {
            if (line.startsWith("#") || line.isEmpty())
                continue;
            String[] cols = line.split("\t", 4);
            String name = cols[0];
            SchemaAndValue data;
            try {
                data = converter(cols[1]).toConnectData("topic", input(cols.length > 3 ? cols[3] : ""));
            } catch (Exception e) {
                out.add(name + "\terror-in\t" + oneLine(e));
                continue;
            }
            try {
                byte[] bytes = converter(cols[2]).fromConnectData("topic", data.schema(), data.value());
                out.add(name + "\tout\t" + encode(bytes));
            } catch (Exception e) {
                out.add(name + "\terror-out\t" + oneLine(e));
            }
        }
        Files.write(dir.resolve("expected.tsv"), out, StandardCharsets.UTF_8);
    }
}
