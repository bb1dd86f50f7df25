// Reads a Kafka Connect standalone offset file (offset.storage.file.filename) the way Java's
// FileOffsetBackingStore loads it: one java.util.HashMap<byte[], byte[]> written by
// ObjectOutputStream. Prints one line per entry, sorted: the key bytes as UTF-8 (the
// JsonConverter array ["<connector>",{partition}]), a tab, the value bytes as UTF-8 (the offset
// map's JSON) or the word null for a tombstone.
//
//   java OffsetFileDump.java FILE
// Exit 0 on success; a file that is not such a map fails with exit 1.
import java.io.BufferedInputStream;
import java.io.FileInputStream;
import java.io.ObjectInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

public class OffsetFileDump {
    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: OffsetFileDump FILE");
            System.exit(2);
        }
        Object read;
        try (ObjectInputStream in =
                 new ObjectInputStream(new BufferedInputStream(new FileInputStream(args[0])))) {
            read = in.readObject();
        }
        if (!(read instanceof java.util.HashMap)) {
            throw new IllegalStateException(
                "expected a java.util.HashMap, got " + read.getClass().getName());
        }
        Map<String, String> lines = new TreeMap<>();
        for (Map.Entry<?, ?> e : ((Map<?, ?>) read).entrySet()) {
            byte[] key = (byte[]) e.getKey();
            byte[] value = (byte[]) e.getValue();
            lines.put(new String(key, StandardCharsets.UTF_8),
                value == null ? "null" : new String(value, StandardCharsets.UTF_8));
        }
        for (Map.Entry<String, String> e : lines.entrySet()) {
            System.out.println(e.getKey() + "\t" + e.getValue());
        }
    }
}
