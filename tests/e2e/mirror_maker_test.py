"""End to end: `connectd mirror-maker mm2.properties` (dedicated MirrorMaker 2 mode) on the real
clusters ctest-a (alias a<uid>, the source) and ctest-b (alias b<uid>, the target). Every test
uses fresh aliases, so its herders' groups (`<alias>-mm2`) and internal topics
(`mm2-{configs,offsets,status}.<alias>.internal`, `<alias>.checkpoints.internal`,
`mm2-offset-syncs.<alias>.internal`, `<alias>.heartbeats`) are its own; the shared `heartbeats`
topics are told apart by their records' keys.

- DedicatedMirrorTest (Kafka's DedicatedMirrorIntegrationTest, one node, internal REST off):
  test_single_node_cluster: a topic created after start appears on B as `<a>.<topic>` with its
  data; the leader stored the three connector configs MirrorMakerConfig derives; no herder exists
  for the disabled reverse flow whose heartbeats are off; heartbeats land where Java's land.
  test_cluster_with_emit_offset_disabled: with `emit.offset-syncs.enabled=false` the source and
  heartbeat connectors run, data is copied, and `mm2-offset-syncs.<b>.internal` never appears on A.
- TwoNodeMirrorMakerTest: two `connectd mirror-maker` nodes with internal REST on a Java-style
  mm2.properties (two clusters, a->b enabled; the files differ only in `listeners`, as two nodes
  on one host must): records mirrored, heartbeats (`heartbeats` on B from a->b, `heartbeats` on
  A from the heartbeat-only herder b->a, mirrored to B as `<a>.heartbeats`), checkpoints; the
  internal endpoints under /<src>/<tgt>/connectors/...: unknown flows 404, a task-config request
  signed with the flow's session key is accepted by the leader, and a follower forwards it to
  the leader's namespaced path; then the leader of a->b is killed with SIGKILL while records keep
  coming and the other node takes over: no record lost.
- JavaInteropMirrorMakerTest: Kafka's own MirrorMaker 2 (4.3.1, org.apache.kafka.connect.mirror.
  MirrorMaker) and `connectd mirror-maker` on the same file form one cluster per flow and take
  over from each other both ways (SIGKILL), new topics mirrored in the mixed cluster, no record
  lost.
- StartupErrorsTest: no flows, `--clusters` matching nothing, no `clusters`, a missing file, bad
  arguments: Java's messages, non-zero exits.

Run, from tests/e2e:
    CONNECTD_RUN_DIR=/tmp/connectd-shared-run python3 -m unittest -v mirror_maker_test
"""
import base64
import hashlib
import hmac
import json
import os
import signal
import subprocess
import tempfile
import threading
import time
import unittest
import uuid

from connectd_e2e import (_JAVA_LOG4J2, CONNECTD, free_port, http, java_mm2_command,
                          kafka_bootstrap, wait_until)
from distributed_cluster import read_records, status_records, tool
from mirror_distributed_test import replay_shape
from mirror_scenarios_test import decode_checkpoint, decode_heartbeat, dump, group_consume, topics


def mm2_properties(a, b, extra=None):
    """A Java MirrorMaker 2 deployment's mm2.properties for aliases a, b (Kafka's keys only)."""
    props = {
        "clusters": f"{a}, {b}",
        f"{a}.bootstrap.servers": kafka_bootstrap("ctest-a"),
        f"{b}.bootstrap.servers": kafka_bootstrap("ctest-b"),
        "replication.factor": "1",
        "checkpoints.topic.replication.factor": "1",
        "heartbeats.topic.replication.factor": "1",
        "offset-syncs.topic.replication.factor": "1",
        "offset.storage.replication.factor": "1",
        "status.storage.replication.factor": "1",
        "config.storage.replication.factor": "1",
        "sync.topic.acls.enabled": "false",
        # Kafka's DedicatedMirrorIntegrationTest: pick up topics created after start quickly.
        "refresh.topics.interval.seconds": "1",
    }
    props.update(extra or {})
    return props


class MirrorMakerNode:
    """One `connectd mirror-maker` process on its own mm2.properties and log file."""

    def __init__(self, workdir, props, name, clusters=None):
        self.workdir = workdir
        self.name = name
        self.props = dict(props)
        self.clusters = clusters or []
        self.log_path = os.path.join(workdir, f"{name}.log")
        self.proc = None
        self.stopped = False

    def start(self):
        path = os.path.join(self.workdir, f"{self.name}.properties")
        with open(path, "w") as f:
            f.write("# Java MirrorMaker 2 mm2.properties\n")
            for k, v in self.props.items():
                f.write(f"{k} = {v}\n")
        args = self.command(path)
        if self.clusters:
            args += ["--clusters", *self.clusters]
        self.log = open(self.log_path, "a")
        self.proc = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT)
        return self

    def command(self, path):
        # No plugin.path: connectd loads build/plugins beside its binary, so the file stays Java's.
        return [CONNECTD, "mirror-maker", path]

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def log_text(self):
        with open(self.log_path, errors="replace") as f:
            return f.read()

    def tail(self, lines=60):
        return "".join(self.log_text().splitlines(True)[-lines:])

    def stop(self, sig=signal.SIGTERM, timeout=60):
        self.stopped = True
        if self.alive():
            self.proc.send_signal(sig)
            self.proc.wait(timeout=timeout)
        return self.proc.returncode if self.proc else None


class JavaMirrorMakerNode(MirrorMakerNode):
    """Apache Kafka's own dedicated MirrorMaker 2 (org.apache.kafka.connect.mirror.MirrorMaker
    from the `scripts/kafka java-classpath --mm2` stack) on the same kind of file."""

    def command(self, path):
        log4j = os.path.join(self.workdir, "java-log4j2.properties")
        with open(log4j, "w") as f:
            f.write(_JAVA_LOG4J2)
        cmd = java_mm2_command()
        cmd[1:1] = [f"-Dlog4j2.configurationFile={log4j}"]
        return cmd + ["org.apache.kafka.connect.mirror.MirrorMaker", path]


def latest(records):
    """{key: value} keeping each key's last record."""
    out = {}
    for key, value in records:
        out[key] = value
    return out


def connect_status(b_bootstrap, source_alias):
    """The flow's status topic: {key: state dict} ({} before the herder created it)."""
    topic = f"mm2-status.{source_alias}.internal"
    if topic not in topics(b_bootstrap, topic):
        return {}
    return latest(status_records(topic, b_bootstrap))


def connect_configs(b_bootstrap, source_alias):
    """The flow's config topic: {key: JSON value} (last record per key)."""
    out = {}
    for r in read_records(f"mm2-configs.{source_alias}.internal", b_bootstrap):
        out[r["key"]] = json.loads(r["value"]) if r["value"] is not None else None
    return out


def running(status, connector, tasks_at_least=1):
    """The connector and at least `tasks_at_least` of its tasks are RUNNING."""
    c = status.get(f"status-connector-{connector}")
    if not c or c.get("state") != "RUNNING":
        return False
    prefix = f"status-task-{connector}-"
    states = [v.get("state") for k, v in status.items() if k.startswith(prefix) and v]
    return len([s for s in states if s == "RUNNING"]) >= tasks_at_least


def heartbeats(bootstrap, topic, source, target):
    """Heartbeat records with key (source, target) in `topic` ([] if the topic is absent)."""
    if topic not in topics(bootstrap, topic):
        return []
    return [h for h in map(decode_heartbeat, dump(bootstrap, topic))
            if h["source"] == source and h["target"] == target]


class MirrorMakerTestBase(unittest.TestCase):
    def setUp(self):
        self.uid = uuid.uuid4().hex[:8]
        self.a, self.b = f"a{self.uid}", f"b{self.uid}"
        self.A, self.B = kafka_bootstrap("ctest-a"), kafka_bootstrap("ctest-b")
        self.workdir = tempfile.mkdtemp(prefix="connectd-mm-")
        self.nodes = []
        self.created = {self.A: [], self.B: []}

    def tearDown(self):
        for node in self.nodes:
            if node.alive():
                node.stop(signal.SIGKILL)
            node.log.close()
        for bootstrap, names in self.created.items():
            mine = sorted(t for t in topics(bootstrap, self.uid))
            if mine:
                tool("delete", bootstrap, *mine)

    def node(self, props, name, clusters=None, kind=MirrorMakerNode):
        node = kind(self.workdir, props, name, clusters)
        self.nodes.append(node)
        return node.start()

    def wait(self, predicate, timeout, what):
        def check():
            for node in self.nodes:
                if node.proc is not None and node.proc.poll() is not None and not node.stopped:
                    raise AssertionError(f"{node.name} exited {node.proc.returncode}:\n"
                                         f"{node.tail()}")
            return predicate()
        try:
            return wait_until(check, timeout=timeout, interval=0.5, what=what)
        except AssertionError:
            for node in self.nodes:
                print(f"---- {node.name} ----\n{node.tail(80)}")
            raise


class DedicatedMirrorTest(MirrorMakerTestBase):
    def single_node(self, extra, drop=()):
        a, b = self.a, self.b
        props = mm2_properties(a, b, {
            "dedicated.mode.enable.internal.rest": "false",
            "listeners": "http://localhost:0",
            f"{a}->{b}.enabled": "true",
            f"{a}->{b}.topics": f"^test-topic-{self.uid}-.*",
            **extra})
        for key in drop:
            del props[key]
        self.node(props, "single-node")
        return props

    def copy_new_topic(self):
        """Kafka's check: a topic created after start is created on B and its data copied."""
        topic = f"test-topic-{self.uid}-1"
        remote = f"{self.a}.{topic}"
        tool("create", self.A, topic, 1)
        self.wait(lambda: remote in topics(self.B, remote), 60, f"{remote} on B")
        tool("produce", self.A, topic, 10, 1)
        self.wait(lambda: int(tool("count", self.B, remote)) == 10, 60, f"10 records in {remote}")
        self.assertEqual([r["value"] for r in read_records(remote, self.B)],
                         [r["value"] for r in read_records(topic, self.A)])

    def test_single_node_cluster(self):
        a, b = self.a, self.b
        self.single_node({f"{b}->{a}.enabled": "false", f"{b}->{a}.emit.heartbeats.enabled": "false"})
        # Kafka's awaitMirrorMakerStart: the connectors RUNNING (MirrorSource has no task while
        # no topic matches), the heartbeat task too.
        self.wait(lambda: running(connect_status(self.B, a), "MirrorSourceConnector", 0)
                  and running(connect_status(self.B, a), "MirrorHeartbeatConnector"), 90,
                  "MirrorSourceConnector and MirrorHeartbeatConnector RUNNING")
        self.copy_new_topic()

        # The leader stored what MirrorMakerConfig derives (MirrorMakerConfig.workerConfig and connectorBaseConfig), by the fixed names.
        configs = connect_configs(self.B, a)
        for name in ("MirrorSourceConnector", "MirrorCheckpointConnector",
                     "MirrorHeartbeatConnector"):
            stored = configs[f"connector-{name}"]["properties"]
            self.assertEqual(stored["name"], name)
            self.assertEqual(stored["connector.class"], f"org.apache.kafka.connect.mirror.{name}")
            self.assertEqual(stored["source.cluster.alias"], a)
            self.assertEqual(stored["target.cluster.alias"], b)
            self.assertEqual(stored["enabled"], "true")
            self.assertEqual(stored["topics"], f"^test-topic-{self.uid}-.*")
            self.assertEqual(stored["source.cluster.bootstrap.servers"], self.A)
            self.assertEqual(stored["target.cluster.bootstrap.servers"], self.B)
            self.assertEqual(stored["replication.factor"], "1")
            self.assertNotIn("dedicated.mode.enable.internal.rest", stored)
        heartbeat = configs["connector-MirrorHeartbeatConnector"]["properties"]
        self.assertEqual(heartbeat["heartbeats.topic.location"], "target")

        # b->a is disabled with its heartbeats off: no herder, so no internal topics on A.
        self.assertEqual(topics(self.A, f"mm2-configs.{b}.internal"), set())
        # Heartbeats of a->b land in B's `heartbeats`, keyed (a, b), as Java's do.
        self.wait(lambda: heartbeats(self.B, "heartbeats", a, b), 30, "heartbeats (a, b) on B")
        self.assertEqual(heartbeats(self.A, "heartbeats", a, b), [])

    def test_cluster_with_emit_offset_disabled(self):
        a, b = self.a, self.b
        # Kafka's properties: emit.offset-syncs.enabled=false at top level, no offset-syncs.*
        # key (MirrorSourceConfig refuses one with offset syncs off), b->a left as it is.
        self.single_node({"emit.offset-syncs.enabled": "false"},
                         drop=("offset-syncs.topic.replication.factor",))
        self.wait(lambda: running(connect_status(self.B, a), "MirrorSourceConnector", 0)
                  and running(connect_status(self.B, a), "MirrorHeartbeatConnector"), 90,
                  "MirrorSourceConnector and MirrorHeartbeatConnector RUNNING")
        self.copy_new_topic()
        time.sleep(3)  # a few offset-flush intervals in which a sync could have been written
        self.assertEqual(topics(self.A, f"mm2-offset-syncs.{b}.internal"), set())


class StartupErrorsTest(unittest.TestCase):
    """Bad files and arguments: a message and a non-zero exit, before any cluster is contacted."""

    def run_mm(self, *args, props=None):
        workdir = tempfile.mkdtemp(prefix="connectd-mm-")
        path = os.path.join(workdir, "mm2.properties")
        with open(path, "w") as f:
            for k, v in (props or {}).items():
                f.write(f"{k} = {v}\n")
        out = subprocess.run([CONNECTD, "mirror-maker", *[path if a == "FILE" else a for a in args]],
                             capture_output=True, text=True, timeout=60)
        return out.returncode, out.stderr

    def test_startup_errors(self):
        code, err = self.run_mm("FILE", props={"clusters": "A, B",
                                               "emit.heartbeats.enabled": "false"})
        self.assertEqual(code, 1)
        self.assertIn("No source->target replication flows.", err)
        code, err = self.run_mm("FILE", "--clusters", "C", props={"clusters": "A, B"})
        self.assertEqual(code, 1)
        self.assertIn("No source->target replication flows.", err)
        code, err = self.run_mm("FILE", props={"A.bootstrap.servers": "a:1"})
        self.assertEqual(code, 1)
        self.assertIn('Missing required configuration "clusters" which has no default value.', err)
        code, err = self.run_mm("/nonexistent/mm2.properties")
        self.assertEqual(code, 1)
        self.assertIn("/nonexistent/mm2.properties", err)
        code, err = self.run_mm("FILE", "--clusters")
        self.assertEqual(code, 2)
        self.assertIn("usage: connectd mirror-maker", err)


def session_key(b_bootstrap, source_alias):
    """The flow's current KIP-507 session key from its config topic: (key bytes, algorithm)."""
    value = connect_configs(b_bootstrap, source_alias)["session-key"]
    return base64.b64decode(value["key"]), value["algorithm"]


def signed_post(url, body, key, algorithm):
    assert algorithm == "HmacSHA256", algorithm
    data = json.dumps(body).encode()
    signature = base64.b64encode(hmac.new(key, data, hashlib.sha256).digest()).decode()
    return http("POST", url, data, {"Content-Type": "application/json",
                                    "X-Connect-Authorization": signature,
                                    "X-Connect-Request-Signature-Algorithm": algorithm})


class Producer(threading.Thread):
    """Keeps writing numbered records (distinct keys) to `topic` on A until finish()."""

    def __init__(self, bootstrap, topic, partitions):
        super().__init__(daemon=True)
        self.bootstrap, self.topic, self.partitions = bootstrap, topic, partitions
        self.next, self.done, self.error = 0, threading.Event(), None

    def run(self):
        try:
            while not self.done.is_set():
                tool("produce-from", self.bootstrap, self.topic, self.next, 40, self.partitions)
                self.next += 40
                time.sleep(0.1)
        except Exception as e:  # reported by finish()
            self.error = e

    def finish(self):
        self.done.set()
        self.join(timeout=60)
        if self.error:
            raise self.error


class TwoNodeMirrorMakerTest(MirrorMakerTestBase):
    def test_two_nodes_internal_rest_failover(self):
        a, b = self.a, self.b
        orders, group = f"orders-{self.uid}", f"grp-{self.uid}"
        tool("create", self.A, orders, 4)
        ports = [free_port(), free_port()]
        base = mm2_properties(a, b, {
            f"{a}->{b}.enabled": "true",
            f"{a}->{b}.topics": f"orders-{self.uid}.*",
            f"{a}->{b}.groups": f"grp-{self.uid}.*",
            f"{b}->{a}.enabled": "false",
            "tasks.max": "2",
            "emit.checkpoints.interval.seconds": "1",
            "refresh.groups.interval.seconds": "1",
            # A worker setting reaches a herder only through its target's prefix (Java's rule).
            f"{b}.offset.flush.interval.ms": "1000",
            "dedicated.mode.enable.internal.rest": "true",
        })
        nodes = [self.node({**base, "listeners": f"http://127.0.0.1:{port}"}, f"node{i}")
                 for i, port in enumerate(ports)]
        urls = [f"http://127.0.0.1:{port}" for port in ports]

        producer = Producer(self.A, orders, 4)
        producer.start()
        try:
            remote = f"{a}.{orders}"
            self.wait(lambda: remote in topics(self.B, remote)
                      and int(tool("count", self.B, remote)) > 200, 90, f"records in {remote}")

            # Heartbeats: a->b's into B, the heartbeat-only herder b->a's into A, mirrored to B.
            self.wait(lambda: heartbeats(self.B, "heartbeats", a, b), 60, "(a, b) on B")
            self.wait(lambda: heartbeats(self.A, "heartbeats", b, a), 60, "(b, a) on A")
            self.wait(lambda: heartbeats(self.B, f"{a}.heartbeats", b, a), 60,
                      f"(b, a) in {a}.heartbeats on B")

            # Checkpoints for a consumer group of A.
            group_consume(self.A, group, [orders], 40)
            self.wait(lambda: any(decode_checkpoint(r)["group"] == group for r in
                                  dump(self.B, f"{a}.checkpoints.internal"))
                      if f"{a}.checkpoints.internal" in topics(self.B, "checkpoints") else False,
                      60, f"checkpoints of {group} on B")

            # Statuses name each node by its REST host:port (connectd's worker id with internal
            # REST on), and each node serves flow health for its flows at /mirror/flows.
            owners = {v["worker_id"] for k, v in connect_status(self.B, a).items()
                      if k.startswith("status-") and v and v.get("state") == "RUNNING"}
            self.assertTrue(owners and owners <= {f"127.0.0.1:{port}" for port in ports}, owners)
            status, report, _ = http("GET", f"{urls[0]}/mirror/flows/{a}/{b}")
            self.assertEqual(status, 200, report)
            self.assertEqual((report["source"], report["target"]), (a, b))
            self.assertIn("verdict", report)

            # The internal REST endpoints, namespaced per flow.
            status, body, _ = http("POST", f"{urls[0]}/{b}/nowhere/connectors/X/tasks", [])
            self.assertEqual(status, 404)
            self.assertEqual(body["message"],
                             f"No replication flow found for source '{b}' and target 'nowhere'")
            status, _, _ = http("GET", f"{urls[0]}/connectors")
            self.assertEqual(status, 404)  # the internal endpoints, and an operator's checks:
            status, health, _ = http("GET", f"{urls[0]}/health")
            self.assertEqual((status, health["status"]), (200, "healthy"), health)
            status, _, text = http("GET", f"{urls[0]}/metrics")
            self.assertEqual(status, 200)
            self.assertIn("kafka_connect_connect_worker_metrics_task_count", text)
            status, loggers, _ = http("GET", f"{urls[0]}/admin/loggers")
            self.assertEqual(status, 200)
            self.assertIn("root", loggers)
            key, algorithm = session_key(self.B, a)
            tasks = [v["properties"] for k, v in sorted(connect_configs(self.B, a).items())
                     if k.startswith("task-MirrorHeartbeatConnector-")]
            path = f"/{a}/{b}/connectors/MirrorHeartbeatConnector/tasks"
            answers = [signed_post(url + path, tasks, key, algorithm)[0] for url in urls]
            # The leader takes the signed request; the follower forwards it to the leader's
            # namespaced path (unsigned, as Connect forwards), where it is refused.
            self.assertEqual(sorted(answers)[0], 204, answers)
            self.assertNotEqual(sorted(answers)[1], 204, answers)
            leader = answers.index(204)
            follower = 1 - leader
            self.wait(lambda: f"\"POST {path}?forward=true HTTP/1.1\" 400"
                      in nodes[leader].log_text(), 10,
                      "the follower's forwarded request (refused) in the leader's request log")

            # Kill the leader of a->b while records keep coming: the other node takes over.
            before = int(tool("count", self.B, remote))
            nodes[leader].stop(signal.SIGKILL)
            killed_at = time.time()
            self.wait(lambda: int(tool("count", self.B, remote)) > before + 400, 90,
                      "replication after the kill")
            print(f"\nreplication resumed {time.time() - killed_at:.1f}s after the kill")
            self.assertTrue(nodes[follower].alive())
        finally:
            producer.finish()

        # No record lost: each partition on B is A's, with at most one replayed run.
        source = {}
        for r in read_records(orders, self.A):
            source.setdefault(r["partition"], []).append((r["key"], r["value"]))
        def complete():
            copy = {}
            for r in read_records(remote, self.B):
                copy.setdefault(r["partition"], []).append((r["key"], r["value"]))
            return all(replay_shape(source[p], copy.get(p, []))[1] is None for p in source) \
                and copy
        copy = self.wait(complete, 90, "every record of A on B")
        for p in source:
            duplicates, problem = replay_shape(source[p], copy[p])
            self.assertIsNone(problem, f"partition {p}")
        print(f"records: {sum(map(len, source.values()))} on A, "
              f"{sum(map(len, copy.values()))} on B")



class JavaInteropMirrorMakerTest(MirrorMakerTestBase):
    """Java's MirrorMaker 2 and `connectd mirror-maker` on the same mm2.properties (internal REST
    on; only `listeners` differs) form one cluster per flow and take over from each other:
    Java alone -> Java + connectd -> connectd alone (Java killed) -> connectd + Java -> Java alone
    (connectd killed), records flowing all along; at the end B holds every record of A."""

    def test_java_and_connectd_take_over_from_each_other(self):
        a, b = self.a, self.b
        orders = f"orders-{self.uid}"
        remote = f"{a}.{orders}"
        tool("create", self.A, orders, 4)
        props = mm2_properties(a, b, {
            f"{a}->{b}.enabled": "true",
            f"{a}->{b}.topics": f"orders-{self.uid}.*",
            f"{b}->{a}.enabled": "false",
            "tasks.max": "2",
            "dedicated.mode.enable.internal.rest": "true",
            # Worker settings per target cluster (Java's rule): frequent offset commits, and
            # Java's 5-minute scheduled rebalance delay shortened so a dead member's work moves
            # in seconds whichever kind leads.
            f"{b}.offset.flush.interval.ms": "1000",
            f"{b}.scheduled.rebalance.max.delay.ms": "3000",
            f"{a}.scheduled.rebalance.max.delay.ms": "3000",
        })

        def node(kind, name):
            return self.node({**props, "listeners": f"http://127.0.0.1:{free_port()}"}, name,
                             kind=kind)

        def grows_by(n, what, timeout=120):
            start = int(tool("count", self.B, remote)) if remote in topics(self.B, remote) else 0
            self.wait(lambda: remote in topics(self.B, remote)
                      and int(tool("count", self.B, remote)) >= start + n, timeout, what)

        def new_topic_mirrored(n):
            # New task configs for MirrorSource: written by the leader, or handed to it over the
            # namespaced internal REST by a follower (Java's or connectd's) that owns the connector.
            topic = f"{orders}-new{n}"
            tool("create", self.A, topic, 2)
            tool("produce", self.A, topic, 50, 2)
            self.wait(lambda: topic_count(self.B, f"{a}.{topic}") == 50, 90,
                      f"{a}.{topic} mirrored in the mixed cluster")

        producer = Producer(self.A, orders, 4)
        producer.start()
        try:
            java = node(JavaMirrorMakerNode, "java-1")
            grows_by(200, "Java MirrorMaker replicating")
            connectd = node(MirrorMakerNode, "connectd-1")
            time.sleep(10)  # connectd joins both groups; the work is shared
            grows_by(200, "replication in the mixed cluster")
            new_topic_mirrored(1)
            java.stop(signal.SIGKILL)
            grows_by(400, "connectd alone after Java was killed")
            java = node(JavaMirrorMakerNode, "java-2")
            time.sleep(10)
            grows_by(200, "replication in the mixed cluster again")
            new_topic_mirrored(2)
            connectd.stop(signal.SIGKILL)
            grows_by(400, "Java alone after connectd was killed")
            self.assertTrue(java.alive())
        finally:
            producer.finish()

        # Both kinds wrote the same connector configs, apart from connectd's heartbeat placement.
        configs = connect_configs(self.B, a)
        self.assertEqual(configs["connector-MirrorSourceConnector"]["properties"]["topics"],
                         f"orders-{self.uid}.*")
        source = {}
        for r in read_records(orders, self.A):
            source.setdefault(r["partition"], []).append((r["key"], r["value"]))

        def complete():
            copy = {}
            for r in read_records(remote, self.B):
                copy.setdefault(r["partition"], []).append((r["key"], r["value"]))
            return copy if all(missing(source[p], copy.get(p, [])) == 0 for p in source) else None

        copy = self.wait(complete, 120, "every record of A on B")
        print(f"\nrecords: {sum(map(len, source.values()))} on A, "
              f"{sum(map(len, copy.values()))} on B")
        handed = sum(n.log_text().count("/connectors/MirrorSourceConnector/tasks")
                     for n in self.nodes)
        print(f"task-config requests between the nodes: {handed}")


def topic_count(bootstrap, topic):
    return int(tool("count", bootstrap, topic)) if topic in topics(bootstrap, topic) else 0


def missing(source, copy):
    """Records of `source` absent from `copy` (two takeovers may each replay a run)."""
    have = set(copy)
    return sum(1 for record in source if record not in have)


if __name__ == "__main__":
    unittest.main()
