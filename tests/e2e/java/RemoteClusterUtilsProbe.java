// Asks Apache Kafka's own MirrorMaker 2 client (connect-mirror-client's RemoteClusterUtils) what
// it sees on one cluster, so end-to-end tests can compare it with what connectd wrote there.
//
// Run with Java's single-file source launcher on the MirrorMaker 2 classpath:
//   java -cp "$(scripts/kafka java-classpath --mm2)" RemoteClusterUtilsProbe.java \
//       BOOTSTRAP REMOTE_ALIAS GROUP TIMEOUT_MS [ALIAS...]
//
// Output, one tab-separated line per fact (lists sorted, comma-joined; metadata as UTF-8 hex):
//   heartbeatTopics   <topics>
//   checkpointTopics  <topics>
//   upstreamClusters  <aliases>
//   replicationHops   <alias> <hops>                       for REMOTE_ALIAS and every ALIAS
//   translateOffsets  <topic> <partition> <offset> <metadata hex>
// Exit 0 on success; any exception is printed to stderr with exit 1.
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.mirror.RemoteClusterUtils;

public class RemoteClusterUtilsProbe {
    static String sorted(Set<String> values) {
        return String.join(",", new TreeSet<>(values));
    }

    static String hex(String text) {
        StringBuilder out = new StringBuilder();
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            out.append(String.format("%02x", b & 0xff));
        }
        return out.toString();
    }

    static void print(String... fields) {
        System.out.println(String.join("\t", fields));
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 4) {
            System.err.println("usage: RemoteClusterUtilsProbe BOOTSTRAP REMOTE_ALIAS GROUP "
                + "TIMEOUT_MS [ALIAS...]");
            System.exit(2);
        }
        Map<String, Object> props = new HashMap<>();
        props.put("bootstrap.servers", args[0]);
        String remote = args[1];
        String group = args[2];
        Duration timeout = Duration.ofMillis(Long.parseLong(args[3]));
        List<String> aliases = new ArrayList<>();
        aliases.add(remote);
        for (int i = 4; i < args.length; i++) aliases.add(args[i]);

        print("heartbeatTopics", sorted(RemoteClusterUtils.heartbeatTopics(props)));
        print("checkpointTopics", sorted(RemoteClusterUtils.checkpointTopics(props)));
        print("upstreamClusters", sorted(RemoteClusterUtils.upstreamClusters(props)));
        for (String alias : aliases) {
            int hops = RemoteClusterUtils.replicationHops(props, alias);
            print("replicationHops", alias, String.valueOf(hops));
        }
        Map<TopicPartition, OffsetAndMetadata> offsets =
            RemoteClusterUtils.translateOffsets(props, remote, group, timeout);
        for (Map.Entry<TopicPartition, OffsetAndMetadata> e : offsets.entrySet()) {
            String metadata = e.getValue().metadata() == null ? "" : e.getValue().metadata();
            print("translateOffsets", e.getKey().topic(), String.valueOf(e.getKey().partition()),
                String.valueOf(e.getValue().offset()), hex(metadata));
        }
    }
}
