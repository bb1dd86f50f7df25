// Prints java_client_defaults.tsv (to stdout): the default value of every config key that
// Kafka's own Java clients (kafka-clients, from `scripts/kafka java-classpath`) define, read from
// ProducerConfig.configDef(), ConsumerConfig.configDef() and AdminClientConfig.configDef().
// Run with Java's single-file source launcher; see README.md for the exact command.
//
// Output, tab-separated: the header line "client<TAB>key<TAB>default", then one line per key,
// clients in the order producer, consumer, admin, keys sorted (String order) within each client.
// Internal keys (ConfigKey.internalConfig) are included like the others. The default column is
// the parsed default (ConfigKey.defaultValue), normalised:
//   no default (ConfigDef.NO_DEFAULT_VALUE)  <none>
//   null                                     <null>
//   Password                                 <password>
//   Class                                    its getName()
//   List                                     its elements, each normalised, joined by "," (no spaces)
//   anything else (Boolean, Number, String)  String.valueOf
// then backslash, tab, newline and carriage return are written as \\ \t \n \r.

import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.types.Password;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

public class GenerateClientDefaultsGolden {

    static String normalise(Object value) {
        if (value == ConfigDef.NO_DEFAULT_VALUE)
            return "<none>";
        if (value == null)
            return "<null>";
        if (value instanceof Password)
            return "<password>";
        if (value instanceof Class<?>)
            return ((Class<?>) value).getName();
        if (value instanceof List<?>) {
            List<String> elements = new ArrayList<>();
            for (Object element : (List<?>) value)
                elements.add(normalise(element));
            return String.join(",", elements);
        }
        return String.valueOf(value);
    }

    static String escape(String text) {
        return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r");
    }

    static void print(PrintStream out, String client, ConfigDef def) {
        for (Map.Entry<String, ConfigDef.ConfigKey> e : new TreeMap<>(def.configKeys()).entrySet())
            out.print(client + "\t" + escape(e.getKey()) + "\t" + escape(normalise(e.getValue().defaultValue)) + "\n");
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        out.print("client\tkey\tdefault\n");
        print(out, "producer", ProducerConfig.configDef());
        print(out, "consumer", ConsumerConfig.configDef());
        print(out, "admin", AdminClientConfig.configDef());
        out.flush();
    }
}
