package org.apache.kafka.connect.runtime.distributed;

import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.internals.LogContext;
import org.apache.kafka.connect.runtime.TargetState;
import org.apache.kafka.connect.storage.AppliedConnectorConfig;
import org.apache.kafka.connect.storage.ClusterConfigState;
import org.apache.kafka.connect.util.ConnectorTaskId;
import org.apache.kafka.connect.runtime.distributed.WorkerCoordinator.ConnectorsAndTasks;

import java.io.*;
import java.util.*;
import java.util.function.Supplier;

// Produces incremental_cooperative_assignor_transcripts.txt: runs scenario scripts (stdin) through
// Kafka's own IncrementalCooperativeAssignor. Build and run against the Kafka 4.4.0 jars:
//   javac -cp "$KAFKA/libs/*" -d out IncrementalCooperativeAssignorTranscripts.java
//   java -cp "out:$KAFKA/libs/*" org.apache.kafka.connect.runtime.distributed.IncrementalCooperativeAssignorTranscripts < script
public class IncrementalCooperativeAssignorTranscripts {
    static long now = 0;
    static Time time = new Time() {
        public long milliseconds() { return now; }
        public long nanoseconds() { return now * 1_000_000L; }
        public void sleep(long ms) { now += ms; }
        public void waitObject(Object o, Supplier<Boolean> c, long d) { throw new UnsupportedOperationException(); }
    };

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        int maxDelay = 300000;
        IncrementalCooperativeAssignor assignor = null;
        List<String> order = new ArrayList<>();
        Map<String, List<String>> mc = new HashMap<>();
        Map<String, List<ConnectorTaskId>> mt = new HashMap<>();
        TreeMap<String, Integer> conns = new TreeMap<>();
        int gen = 0;
        String line;
        int roundNo = 0;
        while ((line = in.readLine()) != null) {
            String[] p = line.trim().split(" ");
            switch (p[0]) {
                case "maxdelay": maxDelay = Integer.parseInt(p[1]); assignor = new IncrementalCooperativeAssignor(new LogContext(), time, maxDelay); break;
                case "reset": order.clear(); mc.clear(); mt.clear(); conns.clear(); gen = 0; now = 0; roundNo = 0; System.out.println("reset " + p[1]); break;
                case "newleader": assignor = new IncrementalCooperativeAssignor(new LogContext(), time, maxDelay); break;
                case "join": order.add(p[1]); mc.put(p[1], new ArrayList<>()); mt.put(p[1], new ArrayList<>()); break;
                case "leave": order.remove(p[1]); mc.remove(p[1]); mt.remove(p[1]); break;
                case "addconn": conns.put(p[1], Integer.parseInt(p[2])); break;
                case "delconn": conns.remove(p[1]); break;
                case "sleep": now += Long.parseLong(p[1]); break;
                case "dup": mt.get(p[1]).add(new ConnectorTaskId(p[2], Integer.parseInt(p[3]))); break;
                case "dupc": mc.get(p[1]).add(p[2]); break;
                case "rebalance": case "failed": case "mismatch": {
                    gen++;
                    int last = p[0].equals("mismatch") ? gen - 2 : gen - 1;
                    Map<String, ConnectorsAndTasks> members = new HashMap<>();
                    for (String m : order)
                        members.put(m, new ConnectorsAndTasks.Builder().with(mc.get(m), mt.get(m)).build());
                    IncrementalCooperativeAssignor.ClusterAssignment ca =
                            assignor.performTaskAssignment(configState(conns), last, gen, members);
                    roundNo++;
                    System.out.println("round " + roundNo + " delay=" + assignor.delay + " scheduled=" + assignor.scheduledRebalance);
                    for (String m : new TreeSet<>(order)) {
                        List<String> rc = new ArrayList<>(ca.newlyRevokedConnectors(m)); Collections.sort(rc);
                        List<ConnectorTaskId> rt = new ArrayList<>(ca.newlyRevokedTasks(m)); Collections.sort(rt);
                        System.out.println("  " + m + " +c" + ca.newlyAssignedConnectors(m) + " +t" + ca.newlyAssignedTasks(m)
                                + " -c" + rc + " -t" + rt);
                    }
                    if (!p[0].equals("failed")) {
                        for (String m : order) {
                            List<String> c = mc.get(m); c.removeAll(ca.newlyRevokedConnectors(m)); c.addAll(ca.newlyAssignedConnectors(m));
                            List<ConnectorTaskId> t = mt.get(m); t.removeAll(ca.newlyRevokedTasks(m)); t.addAll(ca.newlyAssignedTasks(m));
                        }
                        for (String m : new TreeSet<>(order)) {
                            System.out.println("  = " + m + " c" + mc.get(m) + " t" + mt.get(m));
                        }
                    }
                    break;
                }
                default: if (!p[0].isEmpty()) throw new IllegalArgumentException(line);
            }
        }
    }

    static ClusterConfigState configState(Map<String, Integer> conns) {
        Map<String, Integer> taskCounts = new HashMap<>(conns);
        Map<String, Map<String, String>> cc = new HashMap<>();
        Map<String, TargetState> ts = new HashMap<>();
        Map<ConnectorTaskId, Map<String, String>> tc = new HashMap<>();
        Map<String, AppliedConnectorConfig> ac = new HashMap<>();
        for (Map.Entry<String, Integer> e : conns.entrySet()) {
            cc.put(e.getKey(), new HashMap<>());
            ts.put(e.getKey(), TargetState.STARTED);
            ac.put(e.getKey(), new AppliedConnectorConfig(new HashMap<>()));
            for (int i = 0; i < e.getValue(); i++) tc.put(new ConnectorTaskId(e.getKey(), i), new HashMap<>());
        }
        return new ClusterConfigState(618, null, taskCounts, cc, ts, tc, Collections.emptyMap(), Collections.emptyMap(),
                ac, Collections.emptySet(), Collections.emptySet());
    }
}
