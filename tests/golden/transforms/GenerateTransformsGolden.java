// Writes expected.tsv in this directory: what Kafka's own Single Message Transforms and predicates
// (connect-transforms, from `scripts/kafka java-classpath`) make of every case in cases.tsv. Run
// with Java's single-file source launcher; see README.md for the exact command.
// Usage: GenerateTransformsGolden.java [directory holding cases.tsv]
//
// Each case is a connector config (the "transforms" and "predicates" keys) and one record. The
// chain is built the way a Connect worker builds it and the record goes through it. Output,
// tab-separated, one line per case, in the order of cases.tsv:
//   <name>  out           <record JSON>        the record the chain returned
//   <name>  filtered                           a transform returned null
//   <name>  error-config  <exception message>  instantiating or configuring a transform/predicate threw
//   <name>  error-apply   <exception message>  Transformation.apply or Predicate.test threw
//   <name>  error-convert <exception message>  JsonConverter.fromConnectData threw on the output
// An exception message is getMessage() of the exception thrown (not its cause), with tabs and line
// breaks as spaces and identity hash codes ("Foo@1b6d3586") as "Foo@<hash>".
// <record JSON> is {"topic":..,"partition":..,"key":E,"value":E,"timestamp":..,"headers":[{"key":..,"value":E},..]}
// with no spaces, where E is the bytes JsonConverter (schemas.enable=true) writes for the schema
// and value ({"schema":null,"payload":null} for a null schema and value).

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.connector.ConnectRecord;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.transforms.Transformation;
import org.apache.kafka.connect.transforms.predicates.Predicate;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public class GenerateTransformsGolden {

    static final ObjectMapper MAPPER = new ObjectMapper();
    static final String NULL_ENVELOPE = "{\"schema\":null,\"payload\":null}";

    static JsonConverter converter() {
        JsonConverter converter = new JsonConverter();
        converter.configure(Map.of("schemas.enable", "true"), false);
        return converter;
    }

    // An exception's message on one line. Object.toString's identity hash ("Foo@1b6d3586"), which
    // differs between JVMs, becomes "Foo@<hash>".
    static String oneLine(Throwable e) {
        String message = String.valueOf(e.getMessage());
        message = message.replaceAll("([A-Za-z_$][\\w$]*(?:\\.[A-Za-z_$][\\w$]*)+)@[0-9a-f]{1,8}\\b", "$1@<hash>");
        return message.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
    }

    // A mistake in cases.tsv (not an outcome to record): stop with the case's name.
    static class BadCase extends RuntimeException {
        BadCase(String message) {
            super(message);
        }
    }

    // The input record, as parsed from the record column. Envelopes are kept as their raw text.
    static class Input {
        String topic;
        Integer partition;
        String key = NULL_ENVELOPE;
        String value = NULL_ENVELOPE;
        Long timestamp;
        Long offset;
        List<String[]> headers = new ArrayList<>();
    }

    // The raw text of the JSON value starting at the parser's current token.
    static String raw(String text, JsonParser p) throws Exception {
        int start = (int) p.currentTokenLocation().getCharOffset();
        p.skipChildren();
        int end = (int) p.currentLocation().getCharOffset();
        return text.substring(start, end);
    }

    static Input parseRecord(String text) throws Exception {
        Input in = new Input();
        JsonParser p = new JsonFactory().createParser(text);
        if (p.nextToken() != JsonToken.START_OBJECT)
            throw new BadCase("record is not a JSON object");
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken t = p.nextToken();
            switch (field) {
                case "topic":
                    in.topic = p.getText();
                    break;
                case "partition":
                    in.partition = t == JsonToken.VALUE_NULL ? null : p.getIntValue();
                    break;
                case "timestamp":
                    in.timestamp = t == JsonToken.VALUE_NULL ? null : p.getLongValue();
                    break;
                case "offset":
                    in.offset = p.getLongValue();
                    break;
                case "key":
                    in.key = raw(text, p);
                    break;
                case "value":
                    in.value = raw(text, p);
                    break;
                case "headers":
                    if (t != JsonToken.START_ARRAY)
                        throw new BadCase("headers is not an array");
                    while (p.nextToken() == JsonToken.START_OBJECT) {
                        String[] header = new String[2];
                        while (p.nextToken() == JsonToken.FIELD_NAME) {
                            String hf = p.currentName();
                            p.nextToken();
                            if (hf.equals("key"))
                                header[0] = p.getText();
                            else if (hf.equals("value"))
                                header[1] = raw(text, p);
                            else
                                throw new BadCase("unknown header field " + hf);
                        }
                        if (header[0] == null || header[1] == null)
                            throw new BadCase("header without key or value");
                        in.headers.add(header);
                    }
                    break;
                default:
                    throw new BadCase("unknown record field " + field);
            }
        }
        if (p.nextToken() != null)
            throw new BadCase("text after the record");
        if (in.topic == null)
            throw new BadCase("record without topic");
        return in;
    }

    static SchemaAndValue toConnect(JsonConverter converter, String topic, String envelope) {
        try {
            return converter.toConnectData(topic, envelope.getBytes(StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            throw new BadCase("envelope " + envelope + ": " + e.getMessage());
        }
    }

    static ConnectRecord<?> buildRecord(JsonConverter converter, Input in) {
        SchemaAndValue key = toConnect(converter, in.topic, in.key);
        SchemaAndValue value = toConnect(converter, in.topic, in.value);
        ConnectHeaders headers = new ConnectHeaders();
        for (String[] h : in.headers)
            headers.add(h[0], toConnect(converter, in.topic, h[1]));
        if (in.offset != null) {
            if (in.partition == null)
                throw new BadCase("a sink record (with offset) needs a partition");
            return new SinkRecord(in.topic, in.partition, key.schema(), key.value(), value.schema(), value.value(),
                in.offset, in.timestamp, in.timestamp == null ? TimestampType.NO_TIMESTAMP_TYPE : TimestampType.CREATE_TIME,
                headers);
        }
        return new SourceRecord(null, null, in.topic, in.partition, key.schema(), key.value(), value.schema(),
            value.value(), in.timestamp, headers);
    }

    static Map<String, String> withPrefix(Map<String, String> configs, String prefix, String... excluded) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : configs.entrySet()) {
            if (!e.getKey().startsWith(prefix))
                continue;
            String key = e.getKey().substring(prefix.length());
            if (!List.of(excluded).contains(key))
                out.put(key, e.getValue());
        }
        return out;
    }

    @SuppressWarnings("rawtypes")
    static class Stage {
        Transformation transformation;
        Predicate predicate;
        boolean negate;
    }

    static List<Stage> buildChain(Map<String, String> configs) throws Exception {
        List<Stage> chain = new ArrayList<>();
        String aliases = configs.getOrDefault("transforms", "");
        for (String alias : aliases.split(",")) {
            alias = alias.trim();
            if (alias.isEmpty())
                continue;
            String prefix = "transforms." + alias + ".";
            String type = configs.get(prefix + "type");
            if (type == null)
                throw new BadCase("no " + prefix + "type");
            Stage stage = new Stage();
            stage.transformation = (Transformation<?>) Class.forName(type).getDeclaredConstructor().newInstance();
            stage.transformation.configure(withPrefix(configs, prefix, "type", "predicate", "negate"));
            String predicateAlias = configs.get(prefix + "predicate");
            if (predicateAlias != null) {
                String pprefix = "predicates." + predicateAlias + ".";
                String ptype = configs.get(pprefix + "type");
                if (ptype == null)
                    throw new BadCase("no " + pprefix + "type");
                stage.predicate = (Predicate<?>) Class.forName(ptype).getDeclaredConstructor().newInstance();
                stage.predicate.configure(withPrefix(configs, pprefix, "type"));
            }
            stage.negate = Boolean.parseBoolean(configs.get(prefix + "negate"));
            chain.add(stage);
        }
        return chain;
    }

    static String envelope(JsonConverter converter, String topic, org.apache.kafka.connect.data.Schema schema, Object value) {
        byte[] bytes = converter.fromConnectData(topic, schema, value);
        return bytes == null ? NULL_ENVELOPE : new String(bytes, StandardCharsets.UTF_8);
    }

    static String recordJson(JsonConverter converter, ConnectRecord<?> r) throws Exception {
        StringBuilder out = new StringBuilder();
        out.append("{\"topic\":").append(MAPPER.writeValueAsString(r.topic()));
        out.append(",\"partition\":").append(r.kafkaPartition() == null ? "null" : r.kafkaPartition().toString());
        out.append(",\"key\":").append(envelope(converter, r.topic(), r.keySchema(), r.key()));
        out.append(",\"value\":").append(envelope(converter, r.topic(), r.valueSchema(), r.value()));
        out.append(",\"timestamp\":").append(r.timestamp() == null ? "null" : r.timestamp().toString());
        out.append(",\"headers\":[");
        boolean first = true;
        for (Header h : r.headers()) {
            if (!first)
                out.append(',');
            first = false;
            out.append("{\"key\":").append(MAPPER.writeValueAsString(h.key()));
            out.append(",\"value\":").append(envelope(converter, r.topic(), h.schema(), h.value())).append('}');
        }
        out.append("]}");
        return out.toString();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static String run(String name, String configsText, String recordText) throws Exception {
        Map<String, String> configs = new LinkedHashMap<>();
        JsonParser p = new JsonFactory().createParser(configsText);
        if (p.nextToken() != JsonToken.START_OBJECT)
            throw new BadCase("configs is not a JSON object");
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            if (p.nextToken() != JsonToken.VALUE_STRING)
                throw new BadCase("config " + key + " is not a string");
            if (configs.put(key, p.getText()) != null)
                throw new BadCase("config " + key + " given twice");
        }
        if (p.nextToken() != null)
            throw new BadCase("text after the configs");

        JsonConverter converter = converter();
        ConnectRecord record = buildRecord(converter, parseRecord(recordText));

        List<Stage> chain;
        try {
            chain = buildChain(configs);
        } catch (BadCase e) {
            throw e;
        } catch (Exception e) {
            return name + "\terror-config\t" + oneLine(e);
        }
        try {
            for (Stage stage : chain) {
                if (stage.predicate == null || stage.negate ^ stage.predicate.test(record))
                    record = (ConnectRecord) stage.transformation.apply(record);
                if (record == null)
                    return name + "\tfiltered";
            }
        } catch (Exception e) {
            return name + "\terror-apply\t" + oneLine(e);
        }
        try {
            return name + "\tout\t" + recordJson(converter, record);
        } catch (Exception e) {
            return name + "\terror-convert\t" + oneLine(e);
        }
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args.length > 0 ? args[0] : (Files.exists(Path.of("cases.tsv")) ? "." : "tests/golden/transforms"));
        List<String> out = new ArrayList<>();
        out.add("# Written by GenerateTransformsGolden.java on Java " + System.getProperty("java.version")
            + " from " + Transformation.class.getClassLoader().loadClass("org.apache.kafka.connect.transforms.Cast")
                .getProtectionDomain().getCodeSource().getLocation().getPath().replaceAll(".*/", "")
            + " (see README.md). Do not edit.");
        List<String> names = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("cases.tsv"), StandardCharsets.UTF_8)) {
            if (line.startsWith("#") || line.isEmpty())
                continue;
            String[] cols = line.split("\t", -1);
            if (cols.length != 3)
                throw new BadCase("line with " + cols.length + " columns (want 3): " + line);
            String name = cols[0];
            if (names.contains(name))
                throw new BadCase("case " + name + " given twice");
            names.add(name);
            try {
                out.add(run(name, cols[1], cols[2]));
            } catch (BadCase e) {
                throw new BadCase("case " + name + ": " + e.getMessage());
            }
        }
        Files.write(dir.resolve("expected.tsv"), out, StandardCharsets.UTF_8);
    }
}
