// Golden bytes of Connect's group-protocol metadata and assignments (protocol type `connect`,
// subprotocols default/compatible/sessioned), written by Connect's own ConnectProtocol and
// IncrementalCooperativeConnectProtocol classes. Run from the repository root:
//   "$(scripts/kafka java)" -cp "$(scripts/kafka java-classpath)" \
//       tests/golden/connect_protocol/GenerateConnectProtocolGolden.java tests/golden/connect_protocol
// Output: connect_protocol.tsv, rows `<case>\t<hex>`; the cases' values are in the comments of
// tests/unit/runtime/distributed/connect_protocol_test.cc.
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import org.apache.kafka.connect.runtime.distributed.ConnectProtocol;
import org.apache.kafka.connect.runtime.distributed.ExtendedAssignment;
import org.apache.kafka.connect.runtime.distributed.ExtendedWorkerState;
import org.apache.kafka.connect.runtime.distributed.IncrementalCooperativeConnectProtocol;
import org.apache.kafka.connect.util.ConnectorTaskId;

public class GenerateConnectProtocolGolden {
  static PrintWriter out;

  static void row(String name, ByteBuffer b) {
    byte[] bytes = new byte[b.remaining()];
    b.duplicate().get(bytes);
    out.println(name + "\t" + HexFormat.of().formatHex(bytes));
  }

  static ConnectorTaskId t(String c, int n) { return new ConnectorTaskId(c, n); }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args.length > 0 ? args[0] : ".");
    out = new PrintWriter(Files.newBufferedWriter(dir.resolve("connect_protocol.tsv")));
    out.println("# Written by GenerateConnectProtocolGolden.java with " +
        Path.of(ConnectProtocol.class.getProtectionDomain().getCodeSource().getLocation().getPath()).getFileName()
        + "; do not edit.");
    String url = "http://w1:8083/";
    // Metadata.
    row("metadata.v0", ConnectProtocol.serializeMetadata(new ConnectProtocol.WorkerState(url, 42)));
    for (boolean sessioned : new boolean[] {false, true}) {
      String v = sessioned ? "v2" : "v1";
      short version = sessioned ? (short) 2 : (short) 1;
      row("metadata." + v + ".no-assignment",
          IncrementalCooperativeConnectProtocol.serializeMetadata(new ExtendedWorkerState(url, 42, null), sessioned));
      ExtendedAssignment owned = new ExtendedAssignment(version, ConnectProtocol.Assignment.NO_ERROR,
          "leader-1", "http://w0:8083/", 40, List.of("src", "sink-x"),
          List.of(t("src", 0), t("src", 1), t("sink-x", 0), t("other", 3)), List.of(), List.of(), 0);
      row("metadata." + v + ".owned",
          IncrementalCooperativeConnectProtocol.serializeMetadata(new ExtendedWorkerState(url, 42, owned), sessioned));
      // Assignments.
      row("assignment." + v + ".empty", IncrementalCooperativeConnectProtocol.serializeAssignment(
          new ExtendedAssignment(version, ConnectProtocol.Assignment.NO_ERROR, "leader-1", "http://w0:8083/", 40,
              List.of(), List.of(), List.of(), List.of(), 0), sessioned));
      row("assignment." + v + ".full", IncrementalCooperativeConnectProtocol.serializeAssignment(
          new ExtendedAssignment(version, ConnectProtocol.Assignment.NO_ERROR, "leader-1", "http://w0:8083/", 40,
              List.of("src"), List.of(t("src", 0), t("src", 2), t("other", 1)),
              List.of("old"), List.of(t("old", 0), t("src", 1)), 1600), sessioned));
      row("assignment." + v + ".mismatch", IncrementalCooperativeConnectProtocol.serializeAssignment(
          new ExtendedAssignment(version, ConnectProtocol.Assignment.CONFIG_MISMATCH, "leader-1", "http://w0:8083/", 40,
              List.of(), List.of(), List.of(), List.of(), 0), sessioned));
    }
    row("assignment.v0.full", ConnectProtocol.serializeAssignment(new ConnectProtocol.Assignment(
        ConnectProtocol.Assignment.NO_ERROR, "leader-1", "http://w0:8083/", 40,
        List.of("src"), List.of(t("src", 0), t("src", 2), t("other", 1)))));
    row("assignment.v0.empty", ConnectProtocol.serializeAssignment(new ConnectProtocol.Assignment(
        ConnectProtocol.Assignment.NO_ERROR, "leader-1", "http://w0:8083/", 40, List.of(), List.of())));
    out.close();
  }
}
