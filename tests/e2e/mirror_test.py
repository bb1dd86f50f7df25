"""End to end: MirrorMaker 2's connectors on a standalone connectd worker between two real
Apache Kafka clusters (A = ctest-a, the source; B = ctest-b, the target, which the worker uses).

Checks topics and partitions created on B, every record copied with key, value, headers,
timestamp and partition, heartbeats written on A and mirrored to A.heartbeats on B, a new topic
mirrored within 10 s, Kafka's source-offset format, and a restart that resumes without
replaying.
"""
import json
import os
import struct
import subprocess
import tempfile
import time
import unittest
import uuid

from connectd_e2e import BUILD_DIR, PLUGINS, StandaloneWorker, kafka_bootstrap, wait_until

TOOL = os.path.join(BUILD_DIR, "tests", "kafka_test_tool")


def tool(*args, timeout=120):
    out = subprocess.run([TOOL, *map(str, args)], capture_output=True, text=True, timeout=timeout)
    if out.returncode != 0:
        raise AssertionError(f"kafka_test_tool {args}: {out.stderr}")
    return out.stdout


def consume(bootstrap, topic, count, seconds=60):
    return [json.loads(line) for line in tool("consume", bootstrap, topic, count, seconds).splitlines()]


def partitions(bootstrap, topic):
    return int(tool("partitions", bootstrap, topic).strip())


def count(bootstrap, topic):
    return int(tool("count", bootstrap, topic).strip())


def decode_heartbeat(key_hex, value_hex):
    key, value = bytes.fromhex(key_hex), bytes.fromhex(value_hex)
    n = struct.unpack(">h", key[:2])[0]
    source = key[2:2 + n].decode()
    m = struct.unpack(">h", key[2 + n:4 + n])[0]
    target = key[4 + n:4 + n + m].decode()
    version, timestamp = struct.unpack(">hq", value[:10])
    return source, target, version, timestamp


class MirrorE2ETest(unittest.TestCase):
    def setUp(self):
        self.a = kafka_bootstrap("ctest-a")
        self.b = kafka_bootstrap("ctest-b")
        self.uid = uuid.uuid4().hex[:6]
        self.dir = tempfile.mkdtemp(prefix="connectd-mirror-")
        self.extra = {"bootstrap.servers": self.b, "plugin.path": PLUGINS,
                      "key.converter": "org.apache.kafka.connect.converters.ByteArrayConverter",
                      "value.converter": "org.apache.kafka.connect.converters.ByteArrayConverter",
                      "header.converter": "org.apache.kafka.connect.converters.ByteArrayConverter"}

    def connector_configs(self, topics):
        common = {"source.cluster.alias": "A", "target.cluster.alias": "B",
                  "source.cluster.bootstrap.servers": self.a,
                  "target.cluster.bootstrap.servers": self.b}
        source = dict(common, **{
            "connector.class": "org.apache.kafka.connect.mirror.MirrorSourceConnector",
            "topics": ",".join(topics), "tasks.max": "4", "replication.factor": "1",
            "offset-syncs.topic.replication.factor": "1", "sync.topic.acls.enabled": "false",
            "sync.topic.configs.enabled": "false"})
        heartbeat = dict(common, **{"connector.class": "MirrorHeartbeat",
                                    "heartbeats.topic.replication.factor": "1"})
        return source, heartbeat

    def test_mirrors_records_heartbeats_and_new_topics_then_resumes(self):
        orders, payments, late = (f"orders-{self.uid}", f"payments-{self.uid}", f"late-{self.uid}")
        tool("create", self.a, orders, 12)
        tool("create", self.a, payments, 3)
        base = int(time.time() * 1000)
        tool("produce", self.a, orders, 1200, 12, base)
        tool("produce", self.a, payments, 30, 3)
        source_config, heartbeat_config = self.connector_configs([orders, payments, late])

        worker = StandaloneWorker(extra=self.extra, workdir=self.dir).start()
        try:
            self.assertEqual(worker.post("/connectors", {"name": "mm2-source", "config": source_config})[0], 201)
            self.assertEqual(worker.post("/connectors", {"name": "mm2-heartbeat", "config": heartbeat_config})[0], 201)
            worker.wait_state("mm2-heartbeat", "RUNNING", ["RUNNING"])
            wait_until(lambda: partitions(self.b, f"A.{orders}") == 12, what="A.orders on B")
            self.assertEqual(partitions(self.b, f"A.{payments}"), 3)

            # Every record, intact, on the same partition.
            got = consume(self.b, f"A.{orders}", 1200)
            self.assertEqual(len(got), 1200)
            for r in got:
                i = int(r["key"][1:])
                self.assertEqual(r["value"], f"v{i}")
                self.assertEqual(r["partition"], i % 12)
                self.assertEqual(r["timestamp"], base + i)
                self.assertEqual(r["headers"], [["h", str(i)], ["empty", ""]])
            self.assertEqual(len(consume(self.b, f"A.{payments}", 30)), 30)

            # Heartbeats: written on A every second, mirrored to A.heartbeats on B, key (A, B).
            wait_until(lambda: partitions(self.b, "A.heartbeats") == 1, what="A.heartbeats on B")
            beats = consume(self.b, "A.heartbeats", 3)
            for r in beats:
                source, target, version, ts = decode_heartbeat(r["key_hex"], r["value_hex"])
                self.assertEqual((source, target, version), ("A", "B", 0))
                self.assertAlmostEqual(ts / 1000, time.time(), delta=120)
            self.assertGreaterEqual(len(consume(self.a, "heartbeats", 3)), 3)

            # A topic created after start is mirrored within 10 s.
            created = time.time()
            tool("create", self.a, late, 2)
            wait_until(lambda: partitions(self.b, f"A.{late}") == 2, timeout=10, interval=0.2,
                       what="the new topic mirrored within 10 s")
            print(f"new topic mirrored after {time.time() - created:.1f} s")
            tool("produce", self.a, late, 10, 2)
            self.assertEqual(len(consume(self.b, f"A.{late}", 10)), 10)

            # Source offsets in Kafka's format: {"cluster","partition","topic"} -> last offset.
            def orders_offsets():
                status, body, _ = worker.get("/connectors/mm2-source/offsets")
                return [o for o in body["offsets"] if o["partition"].get("topic") == orders] if status == 200 else []
            wait_until(lambda: len(orders_offsets()) == 12, what="12 committed source offsets")
            for o in orders_offsets():
                self.assertEqual(list(o["partition"]), ["cluster", "partition", "topic"])
                self.assertEqual(o["partition"]["cluster"], "A")
                self.assertEqual(o["offset"], {"offset": 99})  # 100 records per partition
            self.assertGreater(partitions(self.a, "mm2-offset-syncs.B.internal"), 0)
        except Exception:
            print("worker log tail:\n" + worker.tail(80))
            raise
        finally:
            self.assertEqual(worker.stop(), 0)

        # Restart on the same offset file: only new records are copied.
        tool("produce", self.a, orders, 120, 12)
        worker = StandaloneWorker(extra=self.extra, workdir=self.dir).start()
        try:
            self.assertEqual(worker.post("/connectors", {"name": "mm2-source", "config": source_config})[0], 201)
            wait_until(lambda: count(self.b, f"A.{orders}") >= 1320, timeout=60,
                       what="the 120 new records")
            time.sleep(3)
            self.assertEqual(count(self.b, f"A.{orders}"), 1320, "nothing replayed, nothing lost")
            got = consume(self.b, f"A.{orders}", 1320)
            keys = sorted(int(r["key"][1:]) for r in got)
            self.assertEqual(keys, sorted(list(range(1200)) + list(range(120))))
        finally:
            self.assertEqual(worker.stop(), 0)


if __name__ == "__main__":
    unittest.main(verbosity=2)
