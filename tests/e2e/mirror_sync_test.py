"""End to end: MirrorSourceConnector's periodic topic config sync and topic ACL sync on a
standalone connectd worker between two real Apache Kafka 4.4 clusters (A = ctest-a, the source;
B = ctest-b, the target), with 1 s intervals.

Config sync: Java's MirrorConnectorsIntegrationBaseTest scenarios testSyncTopicConfigs,
testReplicateSourceDefault and testReplicateTargetDefault (MirrorConnectorsIntegrationBaseTest), with
`config.properties.exclude=delete\\.retention\\..*` as there. ACL sync: Java's ForwardingAdmin
scenario extended: ALLOW DESCRIBE is copied, ALLOW ALL arrives as ALLOW READ, ALLOW WRITE is
not copied, DENY is copied unchanged, PREFIXED is not copied, and an ACL added later follows.

Both clusters run StandardAuthorizer with User:ANONYMOUS as super user; topics carry a uuid
suffix and the ACLs made here are deleted at the end, since other tests share the clusters.
"""
import json
import os
import subprocess
import tempfile
import time
import unittest
import uuid

from connectd_e2e import BUILD_DIR, PLUGINS, StandaloneWorker, kafka_bootstrap, wait_until

TOOL = os.path.join(BUILD_DIR, "tests", "kafka_test_tool")
SOURCE = "mm2-source"


def tool(*args, timeout=120):
    out = subprocess.run([TOOL, *map(str, args)], capture_output=True, text=True, timeout=timeout)
    if out.returncode != 0:
        raise AssertionError(f"kafka_test_tool {args}: {out.stderr}")
    return out.stdout


def configs(bootstrap, topic):
    """{name: (value, source)} of a topic; {} while it does not exist yet."""
    out = subprocess.run([TOOL, "describe-configs", bootstrap, topic], capture_output=True,
                         text=True, timeout=60)
    if out.returncode != 0:
        return {}
    entries = [json.loads(line) for line in out.stdout.splitlines()]
    return {e["name"]: (e["value"], e["source"]) for e in entries}


def acls(bootstrap, topic):
    """The set of (pattern, principal, host, operation, permission) on exactly `topic`."""
    return {(a["pattern"], a["principal"], a["host"], a["operation"], a["permission"])
            for a in map(json.loads, tool("describe-acls", bootstrap, topic).splitlines())}


class MirrorSyncE2ETest(unittest.TestCase):
    def setUp(self):
        self.a = kafka_bootstrap("ctest-a")
        self.b = kafka_bootstrap("ctest-b")
        self.uid = uuid.uuid4().hex[:8]
        self.dir = tempfile.mkdtemp(prefix="connectd-mirror-sync-")
        self.extra = {"bootstrap.servers": self.b, "plugin.path": PLUGINS,
                      "key.converter": "org.apache.kafka.connect.converters.ByteArrayConverter",
                      "value.converter": "org.apache.kafka.connect.converters.ByteArrayConverter",
                      "header.converter": "org.apache.kafka.connect.converters.ByteArrayConverter"}
        self.worker = None

    def tearDown(self):
        if self.worker:
            self.assertEqual(self.worker.stop(), 0)
            self.worker.log.close()

    def start(self, topic, **overrides):
        config = {
            "connector.class": "org.apache.kafka.connect.mirror.MirrorSourceConnector",
            "source.cluster.alias": "A", "target.cluster.alias": "B",
            "source.cluster.bootstrap.servers": self.a,
            "target.cluster.bootstrap.servers": self.b,
            "topics": topic, "tasks.max": "1", "replication.factor": "1",
            # Only this test's topic: `heartbeats` (shared by every test on A) stays untouched.
            "heartbeats.replication.enabled": "false",
            "offset-syncs.topic.replication.factor": "1",
            "config.properties.exclude": "delete\\.retention\\..*",
            "refresh.topics.interval.seconds": "1",
            "sync.topic.configs.enabled": "true", "sync.topic.configs.interval.seconds": "1",
            "sync.topic.acls.enabled": "false", "sync.topic.acls.interval.seconds": "1",
        }
        config.update(overrides)
        self.worker = StandaloneWorker(extra=self.extra, workdir=self.dir).start()
        status, body, _ = self.worker.post("/connectors", {"name": SOURCE, "config": config})
        self.assertEqual(status, 201, body)
        self.worker.wait_state(SOURCE, "RUNNING", ["RUNNING"])

    def wait_config(self, bootstrap, topic, name, value, source=None, timeout=20):
        def matches():
            got = configs(bootstrap, topic).get(name)
            return got is not None and got[0] == value and (source is None or got[1] == source)
        try:
            wait_until(matches, timeout=timeout, interval=0.25,
                       what=f"{topic} {name}={value} ({source or 'any source'})")
        except AssertionError:
            print("worker log tail:\n" + self.worker.tail(60))
            raise

    def sync_log_lines(self, remote):
        with open(self.worker.log_path) as f:
            return sum(1 for line in f if f"Synced the configs of remote topic {remote} " in line)

    def test_sync_topic_configs(self):
        """testSyncTopicConfigs: target override of excluded delete.retention.ms survives, the
        target override of retention.bytes is restored to the source's value; then no churn."""
        topic = f"cfg-{self.uid}"
        remote = f"A.{topic}"
        tool("create", self.a, topic, 2, "delete.retention.ms=1000", "retention.bytes=1000")
        self.start(topic)
        self.wait_config(self.b, remote, "retention.bytes", "1000", "DYNAMIC_TOPIC_CONFIG")
        # Creation does not copy the excluded property either.
        self.assertEqual(configs(self.b, remote)["delete.retention.ms"],
                         ("86400000", "DEFAULT_CONFIG"))

        tool("alter-configs", self.b, remote, "delete.retention.ms=2000", "retention.bytes=2000")
        self.wait_config(self.b, remote, "retention.bytes", "1000", "DYNAMIC_TOPIC_CONFIG")
        time.sleep(3)  # three more sync rounds
        got = configs(self.b, remote)
        self.assertEqual(got["delete.retention.ms"], ("2000", "DYNAMIC_TOPIC_CONFIG"))
        self.assertEqual(got["retention.bytes"], ("1000", "DYNAMIC_TOPIC_CONFIG"))

        # Converged: the rounds resend the same ops (as Java does) and say so only on a change.
        synced = self.sync_log_lines(remote)
        self.assertGreaterEqual(synced, 1)
        time.sleep(3)
        self.assertEqual(self.sync_log_lines(remote), synced, "one line per change, not per round")

        # A source change still follows within seconds.
        tool("alter-configs", self.a, topic, "retention.bytes=3000")
        self.wait_config(self.b, remote, "retention.bytes", "3000", "DYNAMIC_TOPIC_CONFIG")
        self.assertEqual(configs(self.b, remote)["delete.retention.ms"][0], "2000")

    def test_replicate_source_default(self):
        """testReplicateSourceDefault: use.defaults.from=source makes a property that is default
        on the source an explicit override (-1) on the target; excluded property untouched."""
        topic = f"srcdef-{self.uid}"
        remote = f"A.{topic}"
        tool("create", self.a, topic, 1, "delete.retention.ms=1000", "retention.bytes=1000")
        self.start(topic, **{"use.defaults.from": "source"})
        self.wait_config(self.b, remote, "retention.bytes", "1000", "DYNAMIC_TOPIC_CONFIG")

        tool("alter-configs", self.b, remote, "delete.retention.ms=2000", "retention.bytes=2000")
        tool("alter-configs", self.a, topic, "-retention.bytes")
        self.wait_config(self.b, remote, "retention.bytes", "-1", "DYNAMIC_TOPIC_CONFIG")
        time.sleep(2)
        got = configs(self.b, remote)
        self.assertEqual(got["delete.retention.ms"], ("2000", "DYNAMIC_TOPIC_CONFIG"))
        self.assertEqual(got["retention.bytes"], ("-1", "DYNAMIC_TOPIC_CONFIG"))

    def test_replicate_target_default(self):
        """testReplicateTargetDefault: removing the source override DELETEs the target's, which
        falls back to the target's own default; excluded target override untouched."""
        topic = f"tgtdef-{self.uid}"
        remote = f"A.{topic}"
        tool("create", self.a, topic, 1, "delete.retention.ms=1000", "retention.bytes=1000")
        self.start(topic)
        self.wait_config(self.b, remote, "retention.bytes", "1000", "DYNAMIC_TOPIC_CONFIG")

        tool("alter-configs", self.b, remote, "delete.retention.ms=2000")
        tool("alter-configs", self.a, topic, "-retention.bytes")
        self.wait_config(self.b, remote, "retention.bytes", "-1", "DEFAULT_CONFIG")
        time.sleep(2)
        self.assertEqual(configs(self.b, remote)["delete.retention.ms"],
                         ("2000", "DYNAMIC_TOPIC_CONFIG"))

    def test_sync_topic_acls(self):
        """ACL sync: LITERAL ACLs of a replicated topic arrive on the remote topic, ALLOW ALL as
        ALLOW READ, ALLOW WRITE and PREFIXED not at all, DENY unchanged; later ACLs follow."""
        topic = f"acl-{self.uid}"
        remote = f"A.{topic}"
        try:
            tool("create", self.a, topic, 1)
            tool("create-acl", self.a, topic, "User:dummy", "DESCRIBE", "ALLOW")
            tool("create-acl", self.a, topic, "User:dummy", "ALL", "ALLOW")
            tool("create-acl", self.a, topic, "User:dummy", "WRITE", "ALLOW")
            tool("create-acl", self.a, topic, "User:mallory", "READ", "DENY")
            tool("create-acl", self.a, topic, "User:dummy", "ALTER", "ALLOW", "PREFIXED")
            self.start(topic, **{"sync.topic.acls.enabled": "true",
                                 "sync.topic.configs.enabled": "false"})
            expected = {("LITERAL", "User:dummy", "*", "DESCRIBE", "ALLOW"),
                        ("LITERAL", "User:dummy", "*", "READ", "ALLOW"),
                        ("LITERAL", "User:mallory", "*", "READ", "DENY")}
            try:
                wait_until(lambda: acls(self.b, remote) == expected, timeout=20, interval=0.25,
                           what=f"ACLs on {remote}")
            except AssertionError:
                print("worker log tail:\n" + self.worker.tail(60))
                raise
            time.sleep(2)  # more rounds: still exactly these (no WRITE, no ALL, no PREFIXED)
            self.assertEqual(acls(self.b, remote), expected)

            tool("create-acl", self.a, topic, "User:dummy", "DESCRIBE_CONFIGS", "ALLOW")
            expected.add(("LITERAL", "User:dummy", "*", "DESCRIBE_CONFIGS", "ALLOW"))
            wait_until(lambda: acls(self.b, remote) == expected, timeout=10, interval=0.25,
                       what="the ACL added after start")

            # stop() returns promptly although the jobs are scheduled every second.
            started = time.time()
            self.assertEqual(self.worker.delete(f"/connectors/{SOURCE}")[0], 204)
            self.assertLess(time.time() - started, 10)
        finally:
            tool("delete-acls", self.a, topic)
            tool("delete-acls", self.b, remote)


if __name__ == "__main__":
    unittest.main(verbosity=2)
