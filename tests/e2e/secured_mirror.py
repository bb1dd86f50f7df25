"""What the secured MirrorMaker flow tests share (issue #28: oauth_test, kerberos_test and
secured_cluster_test): the ACLs a dedicated flow a->b needs as a limited principal, and the flow
itself, a->b only, run through a MirrorMakerTestBase test whose A and B are the clusters'
PLAINTEXT listeners."""
from distributed_cluster import tool
from mirror_maker_test import connect_status, heartbeats, mm2_properties, running, topics
import secured_cluster_test  # kafka_acls, at call time (it imports this module)


def grant_flow(test, principal):
    """Grants `principal`, on the clusters of `test` (A and B), what the flow's clients need and
    nothing else: its topics, remote and internal topics and heartbeats, the herder's group,
    describing the cluster and idempotent writes; revoked when the test ends."""
    prefixes = [f"test-topic-{test.uid}", f"{test.a}.", "mm2-", "heartbeats"]
    resources = [arg for p in prefixes for arg in ("--topic", p)] + ["--group", test.a]
    for plaintext in dict.fromkeys((test.A, test.B)):
        secured_cluster_test.kafka_acls(plaintext, "--add", "--allow-principal", principal,
                                        "--operation", "All",
                                        *resources, "--resource-pattern-type", "prefixed")
        secured_cluster_test.kafka_acls(plaintext, "--add", "--allow-principal", principal,
                                        "--operation", "Describe", "--operation",
                                        "IdempotentWrite", "--cluster")
        test.addCleanup(secured_cluster_test.kafka_acls, plaintext, "--remove", "--force", "--allow-principal",
                        principal, "--operation", "All", *resources,
                        "--resource-pattern-type", "prefixed")


def run_flow(test, client_props, what, failures=("Authorization failed",)):
    """Runs one dedicated `connectd mirror-maker` node with flow a->b, each alias's clients
    configured with client_props[alias] (Java keys, prefixed with the alias), and asserts that
    its connectors run, a topic created after start is copied with its records — by batch
    pass-through, whose own connections to both clusters use the same security, and which never
    handed a partition back to the record path (a refused connection would, and the records
    would still arrive) — heartbeats arrive, and none of `failures` is in its log. `what` names
    the security in messages."""
    a, b = test.a, test.b
    props = mm2_properties(a, b, {
        "dedicated.mode.enable.internal.rest": "false",
        "listeners": "http://localhost:0",
        f"{a}->{b}.enabled": "true",
        f"{a}->{b}.topics": f"^test-topic-{test.uid}-.*",
        f"{b}->{a}.enabled": "false",
        f"{b}->{a}.emit.heartbeats.enabled": "false"})
    for alias, settings in client_props.items():
        for key, value in settings.items():
            props[f"{alias}.{key}"] = value
    node = test.node(props, "secured-node")
    test.wait(lambda: running(connect_status(test.B, a), "MirrorSourceConnector", 0)
              and running(connect_status(test.B, a), "MirrorHeartbeatConnector"), 90,
              f"MirrorSourceConnector and MirrorHeartbeatConnector RUNNING over {what}")
    topic = f"test-topic-{test.uid}-1"
    remote = f"{a}.{topic}"
    tool("create", test.A, topic, 1)
    test.wait(lambda: remote in topics(test.B, remote), 60, f"{remote} on the target")
    tool("produce", test.A, topic, 10, 1)
    test.wait(lambda: int(tool("count", test.B, remote)) == 10, 60, f"10 records in {remote}")
    test.wait(lambda: heartbeats(test.B, "heartbeats", a, b), 30, "heartbeats (a, b) on the target")
    log = node.log_text()
    for failure in failures:
        test.assertNotIn(failure, log)
    test.assertIn("partitions as record batches (pass-through)", log)
    test.assertNotIn("as record batches stops", log)
