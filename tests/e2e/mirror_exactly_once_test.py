"""End to end: Kafka's MirrorConnectorsIntegrationExactlyOnceTest on connectd: MirrorMaker 2's
three connectors on a connectd distributed cluster with
`exactly.once.source.support=enabled`, then the KIP-875 offset checks that the Java test adds to
testReplication.

Clusters: A = ctest-a (primary, alias A), B = ctest-b (backup, alias B). Two `connectd
distributed` workers on B (their internal topics on B, their producers writing B), one flow
A -> B. As in Java's harness: `test-topic-1` (10 partitions x 10 records, cleanup.policy=compact)
and `test-topic-2` (1 partition x 10 records) on A, offset.flush.interval.ms 5000.

1. Replication under EOS: A.test-topic-1 on B holds exactly A's 100 records (read_committed),
   A.test-topic-2 its 10; every MirrorSource task's transactional id got its task-count record.
2. KIP-875, as Java: stop MirrorSource; PATCH test-topic-1's offsets to 0 (the connector
   resumes at offset 1: 9 records per partition copied again, 190 in all) and test-topic-2's to
   null (reset: all 10 again, 20); resume. Exactly those counts, read_committed, and no more.
3. Stop all three connectors, DELETE every connector's offsets (GET answers an empty list),
   resume: everything is copied once more (290 and 30).

Counting with a read_committed reader and "exactly N, then still N a moment later" makes this
stricter than the Java test, which counts at least N records with a read_uncommitted consumer.

Run, from tests/e2e:
    CONNECTD_RUN_DIR=/tmp/connectd-shared-run python3 -m unittest -v mirror_exactly_once_test
"""
import json
import sys
import time
import unittest
import uuid

from connectd_e2e import kafka_bootstrap, wait_until
from distributed_cluster import WorkerCluster, read_records, tool
from mirror_scenarios_test import group_consume, produce, topics

BYTE_ARRAY = "org.apache.kafka.connect.converters.ByteArrayConverter"
SOURCE_CLASS = "org.apache.kafka.connect.mirror.MirrorSourceConnector"
CHECKPOINT_CLASS = "org.apache.kafka.connect.mirror.MirrorCheckpointConnector"
HEARTBEAT_CLASS = "org.apache.kafka.connect.mirror.MirrorHeartbeatConnector"
PARTITIONS, PER_PARTITION = 10, 10
RECORDS = PARTITIONS * PER_PARTITION
# How long a count must stay put to count as final (well over one poll-transaction).
SETTLE_SECONDS = 3


class MirrorExactlyOnceTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.t_class = time.time()
        cls.a = kafka_bootstrap("ctest-a")
        cls.b = kafka_bootstrap("ctest-b")
        cls.uid = uuid.uuid4().hex[:8]
        cls.topic1, cls.topic2 = f"test-topic-1-{cls.uid}", f"test-topic-2-{cls.uid}"
        cls.remote1, cls.remote2 = f"A.{cls.topic1}", f"A.{cls.topic2}"
        tool("create", cls.a, cls.topic1, PARTITIONS, "cleanup.policy=compact")
        tool("create", cls.a, cls.topic2, 1)
        produce(cls.a, cls.topic1, RECORDS, PARTITIONS)
        produce(cls.a, cls.topic2, PER_PARTITION, 1)
        # A consumer group on A, so MirrorCheckpoint has a group (and a task) to checkpoint.
        assert len(group_consume(cls.a, f"consumer-group-{cls.uid}", [cls.topic1], RECORDS)) \
            == RECORDS
        cls.source, cls.checkpoint, cls.heartbeat = (f"eos-mm2-source-{cls.uid}",
                                                     f"eos-mm2-checkpoint-{cls.uid}",
                                                     f"eos-mm2-heartbeat-{cls.uid}")
        cls.cluster = WorkerCluster(
            ["connectd", "connectd"], name=f"eos-mm2-{cls.uid}", bootstrap=cls.b,
            props={"key.converter": BYTE_ARRAY, "value.converter": BYTE_ARRAY,
                   "header.converter": BYTE_ARRAY, "offset.flush.interval.ms": "5000",
                   "exactly.once.source.support": "enabled"})
        try:
            cls.cluster.start(timeout=60)
            for i, (name, config) in enumerate(cls.connector_configs().items()):
                code, body, text = cls.cluster[i % 2].post("/connectors",
                                                           {"name": name, "config": config})
                if code != 201:
                    raise AssertionError(f"POST /connectors {name}: {code} {text}")
            for name in cls.connector_configs():
                cls.cluster.wait_running(name, 1, timeout=120)
        except BaseException:
            print(cls.cluster.tails(), file=sys.stderr)
            cls.shut_down()
            raise

    @classmethod
    def connector_configs(cls):
        common = {"source.cluster.alias": "A", "target.cluster.alias": "B",
                  "source.cluster.bootstrap.servers": cls.a,
                  "target.cluster.bootstrap.servers": cls.b,
                  "topics": f"{cls.topic1},{cls.topic2}", "groups": f"consumer-group-{cls.uid}",
                  "config.properties.exclude": "delete\\.retention\\..*",
                  "replication.factor": "1", "offset-syncs.topic.replication.factor": "1",
                  "checkpoints.topic.replication.factor": "1",
                  "heartbeats.topic.replication.factor": "1", "sync.topic.acls.enabled": "false",
                  "sync.topic.configs.interval.seconds": "1",
                  "refresh.topics.interval.seconds": "1", "refresh.groups.interval.seconds": "1",
                  "emit.checkpoints.interval.seconds": "1",
                  "emit.heartbeats.interval.seconds": "1", "tasks.max": "1"}
        return {cls.source: dict(common, **{"connector.class": SOURCE_CLASS}),
                cls.checkpoint: dict(common, **{"connector.class": CHECKPOINT_CLASS}),
                cls.heartbeat: dict(common, **{"connector.class": HEARTBEAT_CLASS})}

    @classmethod
    def shut_down(cls):
        if getattr(cls, "cluster", None):
            cls.cluster.stop()
            cls.cluster.close()
        for bootstrap in (cls.a, cls.b):
            mine = sorted(topics(bootstrap, cls.uid))
            if mine:
                tool("delete", bootstrap, *mine)
        print(f"{cls.__name__}: wall_seconds={time.time() - cls.t_class:.1f}", file=sys.stderr)

    @classmethod
    def tearDownClass(cls):
        cls.shut_down()

    def run(self, result=None):
        failures = len(result.failures) + len(result.errors) if result else 0
        out = super().run(result)
        if result and len(result.failures) + len(result.errors) > failures:
            print(self.cluster.tails(80), file=sys.stderr)
        return out

    # ---- helpers ------------------------------------------------------------------------------

    def count(self, topic):
        """Committed records of `topic` on B (kafka_test_tool reads read_committed)."""
        return len(read_records(topic, self.b, 20)) if topic in topics(self.b, self.uid) else 0

    def assert_exactly(self, topic, expected, timeout=90):
        wait_until(lambda: self.count(topic) >= expected, timeout=timeout, interval=0.5,
                   what=f"{expected} committed records in {topic}")
        time.sleep(SETTLE_SECONDS)
        self.assertEqual(self.count(topic), expected, f"{topic}: duplicates beyond the re-copy")

    def stop(self, *names):
        for name in names:
            code, _, text = self.cluster.any().put(f"/connectors/{name}/stop")
            self.assertEqual(code, 204, text)
        for name in names:
            wait_until(lambda: (self.cluster.status(name) or {}).get("connector", {})
                       .get("state") == "STOPPED", timeout=60, what=f"{name} STOPPED")

    def resume(self, *names):
        for name in names:
            code, _, text = self.cluster.any().put(f"/connectors/{name}/resume")
            self.assertEqual(code, 202, text)
        for name in names:
            self.cluster.wait_running(name, 1, timeout=120)

    def offsets(self, name):
        code, body, text = self.cluster.any().get(f"/connectors/{name}/offsets")
        self.assertEqual(code, 200, text)
        return body["offsets"]

    # ---- the test -----------------------------------------------------------------------------

    def test_replication_then_kip875_offsets_under_exactly_once(self):
        # 1. Replication, exactly once.
        self.assert_exactly(self.remote1, RECORDS)
        self.assert_exactly(self.remote2, PER_PARTITION)
        fencing = {r["key"]: json.loads(r["value"]) for r in read_records(
            self.cluster.config_topic, self.b) if r["key"].startswith("tasks-fencing-")}
        for name in self.connector_configs():
            self.assertEqual(fencing.get(f"tasks-fencing-{name}"), {"task-count": 1}, fencing)

        # 2. Stop MirrorSource; test-topic-1 back to offset 0, test-topic-2 reset; resume.
        self.stop(self.source)
        stored = self.offsets(self.source)
        topic1 = [o for o in stored if o["partition"]["topic"] == self.topic1]
        topic2 = [o for o in stored if o["partition"]["topic"] == self.topic2]
        self.assertEqual(len(topic1), PARTITIONS, stored)
        self.assertEqual(len(topic2), 1, stored)
        for o in topic1:
            # connectd's MirrorSource adds the source topic's ID to Kafka's {"offset": N}.
            self.assertEqual(o["offset"]["offset"], PER_PARTITION - 1, o)
            self.assertEqual(sorted(o["offset"]), ["offset", "topic_id"], o)
        patch = [{"partition": o["partition"], "offset": {"offset": 0}} for o in topic1] + \
                [{"partition": o["partition"], "offset": None} for o in topic2]
        code, body, text = self.cluster.any().request(
            "PATCH", f"/connectors/{self.source}/offsets", {"offsets": patch})
        self.assertEqual(code, 200, text)
        self.assertEqual(body, {"message": "The offsets for this connector have been altered "
                                           "successfully"})
        after = {json.dumps(o["partition"], sort_keys=True): o["offset"]
                 for o in self.offsets(self.source)}
        for o in topic1:
            self.assertEqual(after[json.dumps(o["partition"], sort_keys=True)], {"offset": 0})
        self.assertNotIn(json.dumps(topic2[0]["partition"], sort_keys=True), after)
        self.resume(self.source)
        self.assert_exactly(self.remote1, RECORDS + (PER_PARTITION - 1) * PARTITIONS)
        self.assert_exactly(self.remote2, PER_PARTITION * 2)

        # 3. Stop all three, reset every connector's offsets, resume: everything once more.
        names = list(self.connector_configs())
        self.stop(*names)
        for name in names:
            code, body, text = self.cluster.any().delete(f"/connectors/{name}/offsets")
            self.assertEqual(code, 200, text)
            self.assertEqual(body, {"message": "The offsets for this connector have been reset "
                                               "successfully"})
            self.assertEqual(self.offsets(name), [], name)
        self.resume(*names)
        self.assert_exactly(self.remote1, 2 * RECORDS + (PER_PARTITION - 1) * PARTITIONS)
        self.assert_exactly(self.remote2, PER_PARTITION * 3)


if __name__ == "__main__":
    unittest.main()
