// Prints String.hashCode() and the iteration order of java.util.HashMap/HashSet of Strings built
// the ways MirrorMaker 2 builds them, for tests/unit/connectors/mirror_client/
// java_hash_order_test.cc (the expected values there are this program's output on OpenJDK 17).
// Run: "$(scripts/kafka java)" tests/golden/mirror/JavaHashOrder.java
import java.util.*;
import java.util.stream.*;

public class JavaHashOrder {
    static String show(Collection<String> c) {
        return String.join(",", c);
    }

    public static void main(String[] args) {
        String[] names = {"orders", "payments", "zeta", "alpha", "m1", "q", "caf\u00e9",
            "g\uD83D\uDE00", "topic-10", "topic-2", "topic-3", "x", "y", "z", "orders.replica",
            "A.orders"};
        for (String s : names) System.out.println("hash " + s + " " + s.hashCode());
        for (int n : new int[] {1, 2, 3, 5, 6, 7, 12, 13, 16}) {
            List<String> keys = Arrays.asList(names).subList(0, n);
            Set<String> dflt = new HashSet<>();
            dflt.addAll(keys);
            Map<String, Integer> sized = new HashMap<>(n);
            for (String k : keys) sized.put(k, 1);
            Map<String, Integer> ordered = new LinkedHashMap<>();
            for (String k : keys) ordered.put(k, 1);
            Map<String, Integer> copy = new HashMap<>(ordered);
            Set<String> setCopy = new HashSet<>(keys);
            Set<String> toSet = keys.stream().collect(Collectors.toSet());
            System.out.println(n + " default " + show(dflt));
            System.out.println(n + " sized " + show(sized.keySet()));
            System.out.println(n + " copy " + show(copy.keySet()));
            System.out.println(n + " setcopy " + show(setCopy));
            System.out.println(n + " toset " + show(toSet));
        }
    }
}
