// Writes <name>.golden.tsv for every <name>.properties in this directory with Apache Kafka's own
// MirrorMakerConfig (connect-mirror from `scripts/kafka java-classpath --mm2`): what Java's
// dedicated MirrorMaker derives from that mm2.properties. Run with Java's single-file source
// launcher and MM2_GOLDEN_TRUSTSTORE_PASSWORD=golden-secret in the environment; see README.md.
// Usage: GenerateMirrorMakerGolden.java [directory] (default: tests/golden/mirror_maker).
//
// Each output line is tab-separated; values are written as they are (the inputs hold no tab or
// line break):
//   names      <key>                             MirrorMakerConfig.allConfigNames() (sorted)
//   client     <key>                             MirrorClientConfig.CLIENT_CONFIG_DEF names
//   clusters   <alias>                           clusters() (sorted)
//   pair       <src>-><tgt>                      clusterPairs() (sorted)
//   worker     <src>-><tgt>  <key>  <value>      workerConfig(pair)
//   connector  <src>-><tgt>  <class>  <key>  <value>   connectorBaseConfig(pair, class)
//   error      <message>                         the constructor's exception, if any

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.mirror.MirrorCheckpointConnector;
import org.apache.kafka.connect.mirror.MirrorHeartbeatConnector;
import org.apache.kafka.connect.mirror.MirrorMakerConfig;
import org.apache.kafka.connect.mirror.MirrorSourceConnector;
import org.apache.kafka.connect.mirror.SourceAndTarget;

import java.io.FileInputStream;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;

public class GenerateMirrorMakerGolden {
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args.length > 0 ? args[0] : "tests/golden/mirror_maker");
        List<Path> inputs = new ArrayList<>();
        try (var stream = Files.list(dir)) {
            stream.filter(p -> p.toString().endsWith(".properties")).sorted().forEach(inputs::add);
        }
        for (Path input : inputs) {
            String name = input.getFileName().toString().replace(".properties", "");
            Files.writeString(dir.resolve(name + ".golden.tsv"), golden(input));
        }
    }

    static String golden(Path input) throws Exception {
        Properties props = new Properties();
        try (InputStream in = new FileInputStream(input.toFile())) {
            props.load(in);
        }
        Map<String, String> raw = new TreeMap<>();
        for (String key : props.stringPropertyNames()) raw.put(key, props.getProperty(key));
        StringBuilder out = new StringBuilder();
        out.append("# Java MirrorMakerConfig (connect-mirror 4.3.1) on ")
            .append(input.getFileName()).append("; regenerate with GenerateMirrorMakerGolden.java\n");
        MirrorMakerConfig config;
        try {
            config = new MirrorMakerConfig(raw);
        } catch (RuntimeException e) {
            out.append("error\t").append(e.getMessage()).append('\n');
            return out.toString();
        }
        Method allNames = MirrorMakerConfig.class.getDeclaredMethod("allConfigNames");
        allNames.setAccessible(true);
        @SuppressWarnings("unchecked")
        Collection<String> names = (Collection<String>) allNames.invoke(config);
        for (String n : new TreeSet<>(names)) out.append("names\t").append(n).append('\n');
        Class<?> clientConfig = Class.forName("org.apache.kafka.connect.mirror.MirrorClientConfig");
        Field clientDef = clientConfig.getDeclaredField("CLIENT_CONFIG_DEF");
        clientDef.setAccessible(true);
        for (String n : new TreeSet<>(((ConfigDef) clientDef.get(null)).names()))
            out.append("client\t").append(n).append('\n');
        for (String c : new TreeSet<>(config.clusters())) out.append("clusters\t").append(c).append('\n');
        TreeMap<String, SourceAndTarget> pairs = new TreeMap<>();
        for (SourceAndTarget pair : config.clusterPairs()) pairs.put(pair.toString(), pair);
        for (String pair : pairs.keySet()) out.append("pair\t").append(pair).append('\n');
        for (SourceAndTarget pair : pairs.values()) {
            for (var e : new TreeMap<>(config.workerConfig(pair)).entrySet())
                out.append("worker\t").append(pair).append('\t').append(e.getKey()).append('\t')
                    .append(e.getValue()).append('\n');
            for (Class<?> connector : List.of(MirrorSourceConnector.class,
                    MirrorCheckpointConnector.class, MirrorHeartbeatConnector.class)) {
                for (var e : new TreeMap<>(config.connectorBaseConfig(pair, connector)).entrySet())
                    out.append("connector\t").append(pair).append('\t')
                        .append(connector.getSimpleName()).append('\t').append(e.getKey())
                        .append('\t').append(e.getValue()).append('\n');
            }
        }
        return out.toString();
    }
}
