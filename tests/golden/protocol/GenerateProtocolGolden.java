// Golden bytes of the Kafka protocol messages connectd speaks for group membership, written by
// Apache Kafka's own generated message classes (kafka-clients). Run from the repository root:
//   "$(scripts/kafka java)" -cp "$(scripts/kafka java-classpath)" \
//       tests/golden/protocol/GenerateProtocolGolden.java tests/golden/protocol
// Output: messages.tsv, rows `<message>\t<version>\t<hex>`. The field values are fixed here
// and mirrored in tests/unit/runtime/kafka/protocol_golden_test.cc.
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import org.apache.kafka.common.message.*;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Message;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.common.requests.RequestHeader;

public class GenerateProtocolGolden {
  static PrintWriter out;

  static byte[] bytes(String s) { return s.getBytes(StandardCharsets.UTF_8); }

  static void row(String name, int version, Message m) {
    ByteBuffer b = MessageUtil.toByteBufferAccessor(m, (short) version).buffer();
    out.println(name + "\t" + version + "\t" + HexFormat.of().formatHex(MessageUtil.byteBufferToArray(b)));
  }

  static final byte[] META1 = {0, 2, 0, 3, 'u', 'r', 'l', 0, 0, 0, 0, 0, 0, 0, 42, -1, -1, -1, -1};
  static final byte[] META2 = {0, 1, 0, 0};
  static final byte[] ASSIGN1 = {0, 2, 0, 0, 9, 8, 7};
  static final byte[] ASSIGN2 = {};

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args.length > 0 ? args[0] : ".");
    out = new PrintWriter(Files.newBufferedWriter(dir.resolve("messages.tsv")));
    out.println("# Written by GenerateProtocolGolden.java with " +
        Path.of(ApiKeys.class.getProtectionDomain().getCodeSource().getLocation().getPath()).getFileName() + "; do not edit.");
    for (int v = 0; v <= 3; v++) {
      row("ApiVersionsRequest", v, new ApiVersionsRequestData()
          .setClientSoftwareName("connectd").setClientSoftwareVersion("0.1.0"));
      ApiVersionsResponseData.ApiVersionCollection apis = new ApiVersionsResponseData.ApiVersionCollection();
      apis.add(new ApiVersionsResponseData.ApiVersion().setApiKey((short) 11).setMinVersion((short) 2).setMaxVersion((short) 9));
      apis.add(new ApiVersionsResponseData.ApiVersion().setApiKey((short) 14).setMinVersion((short) 0).setMaxVersion((short) 5));
      ApiVersionsResponseData.SupportedFeatureKeyCollection features = new ApiVersionsResponseData.SupportedFeatureKeyCollection();
      features.add(new ApiVersionsResponseData.SupportedFeatureKey().setName("metadata.version").setMinVersion((short) 1).setMaxVersion((short) 27));
      row("ApiVersionsResponse", v, new ApiVersionsResponseData().setErrorCode((short) 0)
          .setApiKeys(apis).setThrottleTimeMs(7).setSupportedFeatures(features).setFinalizedFeaturesEpoch(3));
    }
    for (int v = 1; v <= 3; v++) {
      row("FindCoordinatorRequest", v, new FindCoordinatorRequestData().setKey("connect-cluster").setKeyType((byte) 0));
      row("FindCoordinatorResponse", v, new FindCoordinatorResponseData().setThrottleTimeMs(3)
          .setErrorCode((short) 0).setErrorMessage(null).setNodeId(1).setHost("broker-1.example").setPort(9092));
    }
    for (int v = 2; v <= 9; v++) {
      JoinGroupRequestData.JoinGroupRequestProtocolCollection protocols = new JoinGroupRequestData.JoinGroupRequestProtocolCollection();
      protocols.add(new JoinGroupRequestData.JoinGroupRequestProtocol().setName("sessioned").setMetadata(META1));
      protocols.add(new JoinGroupRequestData.JoinGroupRequestProtocol().setName("default").setMetadata(META2));
      row("JoinGroupRequest", v, new JoinGroupRequestData().setGroupId("connect-cluster")
          .setSessionTimeoutMs(10000).setRebalanceTimeoutMs(60000).setMemberId("connect-1-abc")
          .setGroupInstanceId(null).setProtocolType("connect").setProtocols(protocols)
          .setReason(v >= 8 ? "rebalance needed" : null));
      java.util.List<JoinGroupResponseData.JoinGroupResponseMember> members = new java.util.ArrayList<>();
      members.add(new JoinGroupResponseData.JoinGroupResponseMember().setMemberId("connect-1-abc").setMetadata(META1));
      members.add(new JoinGroupResponseData.JoinGroupResponseMember().setMemberId("connect-2-def").setMetadata(META2));
      row("JoinGroupResponse", v, new JoinGroupResponseData().setThrottleTimeMs(5).setErrorCode((short) 0)
          .setGenerationId(7).setProtocolType("connect").setProtocolName("sessioned")
          .setLeader("connect-1-abc").setSkipAssignment(false).setMemberId("connect-2-def").setMembers(members));
    }
    for (int v = 0; v <= 5; v++) {
      java.util.List<SyncGroupRequestData.SyncGroupRequestAssignment> assignments = new java.util.ArrayList<>();
      assignments.add(new SyncGroupRequestData.SyncGroupRequestAssignment().setMemberId("connect-1-abc").setAssignment(ASSIGN1));
      assignments.add(new SyncGroupRequestData.SyncGroupRequestAssignment().setMemberId("connect-2-def").setAssignment(ASSIGN2));
      row("SyncGroupRequest", v, new SyncGroupRequestData().setGroupId("connect-cluster").setGenerationId(7)
          .setMemberId("connect-1-abc").setGroupInstanceId(null).setProtocolType("connect")
          .setProtocolName("sessioned").setAssignments(assignments));
      row("SyncGroupResponse", v, new SyncGroupResponseData().setThrottleTimeMs(2).setErrorCode((short) 0)
          .setProtocolType("connect").setProtocolName("sessioned").setAssignment(ASSIGN1));
    }
    for (int v = 0; v <= 4; v++) {
      row("HeartbeatRequest", v, new HeartbeatRequestData().setGroupId("connect-cluster").setGenerationId(7)
          .setMemberId("connect-1-abc").setGroupInstanceId(null));
      row("HeartbeatResponse", v, new HeartbeatResponseData().setThrottleTimeMs(1).setErrorCode((short) 27));
    }
    for (int v = 0; v <= 5; v++) {
      LeaveGroupRequestData leave = new LeaveGroupRequestData().setGroupId("connect-cluster");
      if (v < 3) {
        leave.setMemberId("connect-1-abc");
      } else {
        leave.setMembers(java.util.List.of(new LeaveGroupRequestData.MemberIdentity()
            .setMemberId("connect-1-abc").setGroupInstanceId(null)
            .setReason(v >= 5 ? "the worker is stopping" : null)));
      }
      row("LeaveGroupRequest", v, leave);
      LeaveGroupResponseData response = new LeaveGroupResponseData().setThrottleTimeMs(4).setErrorCode((short) 0);
      if (v >= 3) {
        response.setMembers(java.util.List.of(new LeaveGroupResponseData.MemberResponse()
            .setMemberId("connect-1-abc").setGroupInstanceId(null).setErrorCode((short) 25)));
      }
      row("LeaveGroupResponse", v, response);
    }
    for (int v = 0; v <= 1; v++) {
      row("SaslHandshakeRequest", v, new SaslHandshakeRequestData().setMechanism("SCRAM-SHA-256"));
      row("SaslHandshakeResponse", v, new SaslHandshakeResponseData().setErrorCode((short) 0)
          .setMechanisms(java.util.List.of("PLAIN", "SCRAM-SHA-256")));
    }
    for (int v = 0; v <= 2; v++) {
      row("SaslAuthenticateRequest", v, new SaslAuthenticateRequestData().setAuthBytes(bytes("n,,n=user,r=abc")));
      row("SaslAuthenticateResponse", v, new SaslAuthenticateResponseData().setErrorCode((short) 0)
          .setErrorMessage(null).setAuthBytes(bytes("r=abcdef,s=c2FsdA==,i=4096")).setSessionLifetimeMs(3600000L));
    }
    // Request headers: JoinGroup v5 (header v1) and v6 (header v2), client id "connect-w1:8083".
    for (int v : new int[] {5, 6}) {
      RequestHeader header = new RequestHeader(ApiKeys.JOIN_GROUP, (short) v, "connect-w1:8083", 42);
      ByteBuffer b = MessageUtil.toByteBufferAccessor(header.data(), header.headerVersion()).buffer();
      out.println("RequestHeader.JoinGroup\t" + v + "\t" + HexFormat.of().formatHex(MessageUtil.byteBufferToArray(b)));
    }
    out.close();
  }
}
