// Kafka's error codes as the running kafka-clients defines them (Errors.values()): code, name and
// the class of its exception. Run from the repository root:
//   "$(scripts/kafka java)" -cp "$(scripts/kafka java-classpath)" \
//       tests/golden/protocol/GenerateErrorsGolden.java tests/golden/protocol
// Output: errors.tsv, rows `<code>\t<NAME>\t<class>`; class is `metadata` (an
// InvalidMetadataException: the client learns leaders again), `retriable` (another
// RetriableException), `fatal` (any other ApiException) or `none` (NONE).
import java.io.PrintWriter;
import java.nio.file.Path;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.errors.InvalidMetadataException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.protocol.Errors;

public class GenerateErrorsGolden {
  public static void main(String[] args) throws Exception {
    try (PrintWriter out = new PrintWriter(Path.of(args[0], "errors.tsv").toFile(), "UTF-8")) {
      for (Errors e : Errors.values()) {
        ApiException x = e.exception();
        String kind = x == null ? "none"
            : x instanceof InvalidMetadataException ? "metadata"
            : x instanceof RetriableException ? "retriable" : "fatal";
        out.println(e.code() + "\t" + e.name() + "\t" + kind);
      }
    }
  }
}
