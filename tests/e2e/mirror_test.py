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

from connectd_e2e import BUILD_DIR, PLUGINS, StandaloneWorker, http, kafka_bootstrap, wait_until

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


def prometheus_samples(text):
    """{(name, ((label, value), ...)): float} of a Prometheus text exposition."""
    samples = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        head, value = line.rsplit(" ", 1)
        name, _, labels = head.partition("{")
        pairs = tuple(tuple(kv.split("=", 1)) for kv in labels.rstrip("}").split(",") if kv)
        samples[(name, tuple((k, v.strip('"')) for k, v in pairs))] = float(value)
    return samples


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
        # Timestamps base+i in the past (base+1199 included), so that every record's replication
        # latency is positive however soon it is mirrored.
        started = int(time.time() * 1000)
        base = started - 5000
        tool("produce", self.a, orders, 1200, 12, base)
        tool("produce", self.a, payments, 30, 3)
        source_config, heartbeat_config = self.connector_configs([orders, payments, late])
        source_config["metric.names.formats"] = "legacy,new"  # KIP-1280: both sets of names

        # DEBUG: GET /metrics serves connectd's per-partition metrics too (checked at INFO below).
        worker = StandaloneWorker(extra=dict(self.extra, **{"metrics.recording.level": "DEBUG"}),
                                  workdir=self.dir).start()
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

            # MM2 metrics with Java's names and tags, per partition, on GET /metrics.
            prefix = "kafka_connect_mirror_mirrorsourceconnector_"
            def partition_metrics(p):
                status, _, text = http("GET", worker.url + "/metrics")
                self.assertEqual(status, 200)
                tags = (("source", "A"), ("target", "B"), ("topic", f"A.{orders}"), ("partition", str(p)))
                return {name[len(prefix):]: v for (name, labels), v in prometheus_samples(text).items()
                        if name.startswith(prefix) and labels == tags}
            wait_until(lambda: all(partition_metrics(p).get("record_count") == 100 for p in range(12)),
                       what="record-count 100 on every A.orders partition")
            # connectd's per-partition truth: caught up at the source's end, nothing unreplicated.
            wait_until(lambda: all(
                (m := partition_metrics(p)).get("source_end_offset") == 100
                and m.get("source_position") == 100 and m.get("oldest_unreplicated_age_ms") == 0
                for p in range(12)), what="every A.orders partition caught up at offset 100")
            # The same counts under KIP-1280's new names (the connector and task in the tags).
            _, _, text = http("GET", worker.url + "/metrics")
            new = {dict(labels)["partition"]: v for (name, labels), v in prometheus_samples(text).items()
                   if name == "kafka_connect_plugins_record_count"
                   and dict(labels).get("connector") == "mm2-source"
                   and dict(labels).get("topic") == f"A.{orders}"}
            self.assertEqual(new, {str(p): 100 for p in range(12)})
            m = partition_metrics(0)
            # Copied as batches (pass-through): byte-count is the batches' size as produced,
            # more than the values alone (keys, headers, batch headers); Java's sum of value
            # sizes on the record path (test_what_needs_records_is_copied_record_by_record).
            self.assertEqual(m["passthrough"], 1)
            self.assertGreater(m["byte_count"], sum(len(f"v{i}") for i in range(0, 1200, 12)))
            self.assertGreater(m["record_rate"], 0)
            # The records were produced with timestamps base+i before the worker started.
            self.assertGreaterEqual(m["replication_latency_ms_max"], m["replication_latency_ms_min"])
            self.assertGreater(m["replication_latency_ms_min"], 0)
            self.assertLess(m["replication_latency_ms_max"], 120_000)
            self.assertGreater(m["record_age_ms_avg"], 0)
            self.assertEqual(m["skipped_offset_count"], 0)

            # Heartbeats: written on A every second, mirrored to A.heartbeats on B, key (A, B).
            wait_until(lambda: partitions(self.b, "A.heartbeats") == 1, what="A.heartbeats on B")
            # The clusters may hold older runs' heartbeats: look for this run's.
            def fresh_beats():
                beats = [decode_heartbeat(r["key_hex"], r["value_hex"])
                         for r in consume(self.b, "A.heartbeats", count(self.b, "A.heartbeats"))]
                return [b for b in beats if b[3] >= started]
            wait_until(lambda: len(fresh_beats()) >= 2, what="this run's heartbeats on B")
            for source, target, version, ts in fresh_beats():
                self.assertEqual((source, target, version), ("A", "B", 0))
                self.assertLess(ts / 1000, time.time() + 1)
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
                # 100 records per partition; connectd adds the source topic's ID (Java reads
                # {"offset": 99}), 22 characters of base64.
                self.assertEqual(sorted(o["offset"]), ["offset", "topic_id"])
                self.assertEqual(o["offset"]["offset"], 99)
                self.assertRegex(o["offset"]["topic_id"], r"^[A-Za-z0-9_-]{22}$")
            self.assertEqual(len({o["offset"]["topic_id"] for o in orders_offsets()}), 1)
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
            # Metrics belong to the task's lifetime: the new task counted only what it copied.
            _, _, text = http("GET", worker.url + "/metrics")
            counts = [v for (name, labels), v in prometheus_samples(text).items()
                      if name == "kafka_connect_mirror_mirrorsourceconnector_record_count"
                      and ("topic", f"A.{orders}") in labels]
            self.assertEqual(counts, [10.0] * 12)
            # At the default INFO level: Java's per-partition metrics, connectd's per topic only.
            wait_until(lambda: self.topic_gauges(worker, orders) == {
                           "topic_records_behind": 0, "topic_oldest_unreplicated_age_ms": 0,
                           "topic_partitions_unreadable": 0},
                       what=f"the per-topic gauges of {orders} at 0")
            _, _, text = http("GET", worker.url + "/metrics")
            names = {name for (name, _) in prometheus_samples(text)}
            self.assertIn("kafka_connect_mirror_mirrorsourceconnector_replication_latency_ms_max", names)
            self.assertIn("kafka_connect_mirror_mirrorsourceconnector_skipped_offset_count", names)
            for debug in ("source_end_offset", "source_position", "oldest_unreplicated_age_ms"):
                self.assertNotIn("kafka_connect_mirror_mirrorsourceconnector_" + debug, names)
        finally:
            self.assertEqual(worker.stop(), 0)

    def topic_gauges(self, worker, source_topic):
        """The flow A->B's per-topic gauges of `source_topic` on GET /metrics."""
        _, _, text = http("GET", worker.url + "/metrics")
        tags = (("source", "A"), ("target", "B"), ("topic", source_topic))
        prefix = "connectd_mirror_flow_"
        return {name[len(prefix):]: v for (name, labels), v in prometheus_samples(text).items()
                if name.startswith(prefix + "topic_") and labels == tags}

    def source_metric(self, worker, name, topic, partition=0):
        _, _, text = http("GET", worker.url + "/metrics")
        tags = (("source", "A"), ("target", "B"), ("topic", topic), ("partition", str(partition)))
        return prometheus_samples(text).get(
            ("kafka_connect_mirror_mirrorsourceconnector_" + name, tags))

    def stored_offset(self, worker, connector, topic):
        status, body, _ = worker.get(f"/connectors/{connector}/offsets")
        if status != 200:
            return None
        return next((o["offset"] for o in body["offsets"]
                     if o["partition"].get("topic") == topic), None)

    def test_a_recreated_source_topic_is_copied_from_its_beginning(self):
        """Issue 24, case 6: a source topic deleted and re-created, then given more records than
        its old end offset. Java MM2 resumes at the old offset and never copies the new topic's
        first records; connectd tells the topics apart by their IDs and copies all of them."""
        topic = f"recreated-{self.uid}"
        tool("create", self.a, topic, 1)
        tool("produce", self.a, topic, 50, 1)
        source_config, _ = self.connector_configs([topic])
        source_config["refresh.topics.interval.seconds"] = "1"
        worker = StandaloneWorker(extra=self.extra, workdir=self.dir).start()
        try:
            self.assertEqual(worker.post("/connectors", {"name": "mm2-re", "config": source_config})[0], 201)
            wait_until(lambda: partitions(self.b, f"A.{topic}") == 1, what=f"A.{topic} on B")
            wait_until(lambda: count(self.b, f"A.{topic}") == 50, what="the old topic's 50 records on B")
            wait_until(lambda: (self.stored_offset(worker, "mm2-re", topic) or {}).get("offset") == 49,
                       what="offset 49 of the old topic committed")
            old_id = self.stored_offset(worker, "mm2-re", topic)["topic_id"]

            tool("delete", self.a, topic)
            wait_until(lambda: partitions(self.a, topic) == 0, what=f"{topic} deleted on A")
            tool("create", self.a, topic, 1)
            # 80 records, keys k1000..k1079: more than the old topic's end offset (50).
            tool("produce-from", self.a, topic, 1000, 80, 1)
            wait_until(lambda: count(self.b, f"A.{topic}") >= 130, timeout=60,
                       what="the new topic's 80 records on B")
            got = consume(self.b, f"A.{topic}", count(self.b, f"A.{topic}"))
            keys = {int(r["key"][1:]) for r in got}
            self.assertEqual(keys, set(range(50)) | set(range(1000, 1080)),
                             "every record of the old and of the new topic, nothing else")
            # The stored offset now belongs to the new topic.
            wait_until(lambda: (o := self.stored_offset(worker, "mm2-re", topic) or {}).get("offset") == 79
                       and o.get("topic_id") not in (None, old_id),
                       what="offset 79 of the new topic committed with its topic ID")
            with open(worker.log_path) as f:
                log = f.read()
            self.assertRegex(log, rf"WARN .*Source topic {topic} on A was deleted and re-created")
            print("re-creation in the log:\n" + "\n".join(
                l for l in log.splitlines() if "re-created" in l))
        except Exception:
            print("worker log tail:\n" + worker.tail(80))
            raise
        finally:
            self.assertEqual(worker.stop(), 0)

    def test_a_retention_gap_is_counted_and_logged(self):
        """Records deleted on the source before they were copied (retention, here DeleteRecords
        while the worker is down): the task resumes at the new log start, logs the gap at WARN
        with the offsets, and counts it in skipped-offset-count; nothing else is lost."""
        topic = f"gap-{self.uid}"
        tool("create", self.a, topic, 1)
        tool("produce", self.a, topic, 40, 1)
        source_config, _ = self.connector_configs([topic])
        worker = StandaloneWorker(extra=self.extra, workdir=self.dir).start()
        try:
            self.assertEqual(worker.post("/connectors", {"name": "mm2-gap", "config": source_config})[0], 201)
            wait_until(lambda: count(self.b, f"A.{topic}") == 40, what="40 records on B")
            wait_until(lambda: (self.stored_offset(worker, "mm2-gap", topic) or {}).get("offset") == 39,
                       what="offset 39 committed")
        finally:
            self.assertEqual(worker.stop(), 0)
        tool("produce-from", self.a, topic, 40, 60, 1)  # offsets 40..99
        tool("delete-records", self.a, topic, "0:70")   # offsets 40..69 never copied
        worker = StandaloneWorker(extra=self.extra, workdir=self.dir).start()
        try:
            self.assertEqual(worker.post("/connectors", {"name": "mm2-gap", "config": source_config})[0], 201)
            wait_until(lambda: count(self.b, f"A.{topic}") == 70, timeout=60,
                       what="offsets 70..99 on B")
            keys = sorted(int(r["key"][1:]) for r in consume(self.b, f"A.{topic}", 70))
            self.assertEqual(keys, list(range(40)) + list(range(70, 100)))
            wait_until(lambda: self.source_metric(worker, "skipped_offset_count", f"A.{topic}") == 30,
                       what="skipped-offset-count 30")
            with open(worker.log_path) as f:
                log = f.read()
            self.assertRegex(log, rf"WARN .*Data gap on {topic}-0 from A: offsets \[40, 70\) were "
                                  r"deleted on the source \(retention\)")
        except Exception:
            print("worker log tail:\n" + worker.tail(80))
            raise
        finally:
            self.assertEqual(worker.stop(), 0)

    def test_a_record_of_javas_max_request_size_is_mirrored(self):
        """A 1,040,000-byte record, which the source broker accepted and Java's producer
        (max.request.size 1,048,576) would copy, reaches B; the task stays RUNNING."""
        big = f"big-{self.uid}"
        tool("create", self.a, big, 1)
        tool("produce-sized", self.a, big, 2, 1, 1_040_000)
        source_config, _ = self.connector_configs([big])
        worker = StandaloneWorker(extra=self.extra, workdir=self.dir).start()
        try:
            self.assertEqual(worker.post("/connectors", {"name": "mm2-big", "config": source_config})[0], 201)
            wait_until(lambda: partitions(self.b, f"A.{big}") == 1, what=f"A.{big} on B")
            wait_until(lambda: count(self.b, f"A.{big}") == 2, timeout=60,
                       what="both 1,040,000-byte records on B")
            got = consume(self.b, f"A.{big}", 2)
            self.assertEqual([(r["key"], len(r["value"])) for r in got],
                             [("k0", 1_040_000), ("k1", 1_040_000)])
            status, body, text = worker.get("/connectors/mm2-big/status")
            self.assertEqual(status, 200, text)
            # (A's heartbeats topic, mirrored whatever `topics` says, may add a second task.)
            self.assertTrue(body["tasks"], text)
            self.assertEqual({t["state"] for t in body["tasks"]}, {"RUNNING"}, text)
        except Exception:
            print("worker log tail:\n" + worker.tail(80))
            raise
        finally:
            self.assertEqual(worker.stop(), 0)


    def test_batches_pass_through_and_an_offset_inside_a_batch_is_handed_back(self):
        """Batch pass-through (issue 31): a stored offset that points into a source batch (here
        set over REST while the connector is stopped) cannot start a batch copy. The worker
        returns the partition, the task copies records up to the batch's end and hands it back;
        the records that follow travel as batches. B gets every record after the stored offset
        once, intact, and the stored offset follows the batches."""
        topic = f"batches-{self.uid}"
        tool("create", self.a, topic, 1, "compression.type=lz4")
        base = int(time.time() * 1000) - 5000
        tool("produce", self.a, topic, 600, 1, base)  # in a few lz4 batches of many records
        source_config, _ = self.connector_configs([topic])
        worker = StandaloneWorker(extra=self.extra, workdir=self.dir).start()
        try:
            status, _, text = worker.post("/connectors", {
                "name": "mm2-pt", "config": source_config, "initial_state": "STOPPED"})
            self.assertEqual(status, 201, text)
            worker.wait_state("mm2-pt", "STOPPED", [])
            # Offset 0 copied: the copy resumes at 1, inside the first batch.
            status, _, text = worker.patch("/connectors/mm2-pt/offsets", {"offsets": [{
                "partition": {"cluster": "A", "partition": 0, "topic": topic},
                "offset": {"offset": 0}}]})
            self.assertEqual(status, 200, text)
            self.assertEqual(worker.put("/connectors/mm2-pt/resume")[0], 202)
            wait_until(lambda: partitions(self.b, f"A.{topic}") == 1, what=f"A.{topic} on B")
            wait_until(lambda: count(self.b, f"A.{topic}") == 599, timeout=60,
                       what="records 1..599 on B")
            wait_until(lambda: self.source_metric(worker, "passthrough", f"A.{topic}") == 1,
                       timeout=30, what="the partition handed back to the batch copy")
            tool("produce-from", self.a, topic, 1000, 400, 1)
            wait_until(lambda: count(self.b, f"A.{topic}") == 999, timeout=60,
                       what="the 400 later records on B")
            time.sleep(1)
            self.assertEqual(count(self.b, f"A.{topic}"), 999, "nothing copied twice")
            got = consume(self.b, f"A.{topic}", 999)
            self.assertEqual([int(r["key"][1:]) for r in got],
                             list(range(1, 600)) + list(range(1000, 1400)))
            for r in got:
                i = int(r["key"][1:])
                self.assertEqual(r["value"], f"v{i}")
                self.assertEqual(r["headers"], [["h", str(i)], ["empty", ""]])
                if i < 600:
                    self.assertEqual(r["timestamp"], base + i)
            self.assertEqual(self.source_metric(worker, "record_count", f"A.{topic}"), 999)
            wait_until(lambda: (self.stored_offset(worker, "mm2-pt", topic) or {}).get("offset") == 999,
                       what="offset 999 committed")
            with open(worker.log_path) as f:
                log = f.read()
            self.assertRegex(log, rf"Copying {topic}-0 record by record from offset 1: offset 1 is "
                                  rf"inside a source batch \(0\.\.\d+\); as batches again from offset")
            print("\n".join(l for l in log.splitlines() if "batch" in l and topic in l))
        except Exception:
            print("worker log tail:\n" + worker.tail(80))
            raise
        finally:
            self.assertEqual(worker.stop(), 0)

    def test_what_needs_records_is_copied_record_by_record(self):
        """A LogAppendTime source topic (its batches carry the source broker's clock) and a
        connector with a transform are copied record by record, each saying so (`passthrough`
        0 and a log line), and completely; passthrough.enabled=false asks for the same."""
        stamped, plain, off = (f"appendtime-{self.uid}", f"transformed-{self.uid}",
                               f"passthrough-off-{self.uid}")
        tool("create", self.a, stamped, 2, "message.timestamp.type=LogAppendTime")
        tool("create", self.a, plain, 2)
        tool("create", self.a, off, 2)
        for topic in (stamped, plain, off):
            tool("produce", self.a, topic, 200, 2)
        stamped_config, _ = self.connector_configs([stamped])
        plain_config, _ = self.connector_configs([plain])
        plain_config.update({"header.converter": "org.apache.kafka.connect.storage.SimpleHeaderConverter",
                             "transforms": "mark",
                             "transforms.mark.type": "org.apache.kafka.connect.transforms.InsertHeader",
                             "transforms.mark.header": "copied-by",
                             "transforms.mark.value.literal": "connectd"})
        off_config, _ = self.connector_configs([off])
        off_config["passthrough.enabled"] = "false"
        worker = StandaloneWorker(extra=self.extra, workdir=self.dir).start()
        try:
            for name, config in (("mm2-stamped", stamped_config), ("mm2-plain", plain_config),
                                 ("mm2-off", off_config)):
                status, _, text = worker.post("/connectors", {"name": name, "config": config})
                self.assertEqual(status, 201, text)
            for topic in (stamped, plain, off):
                wait_until(lambda: count(self.b, f"A.{topic}") == 200 if partitions(self.b, f"A.{topic}") == 2 else False,
                           timeout=60, what=f"A.{topic}'s 200 records on B")
                for p in (0, 1):
                    wait_until(lambda: self.source_metric(worker, "record_count", f"A.{topic}", p) == 100,
                               what=f"record-count of A.{topic}-{p}")
                    self.assertEqual(self.source_metric(worker, "passthrough", f"A.{topic}", p), 0)
            # The record path's byte-count is Java's: the values' sizes.
            self.assertEqual(self.source_metric(worker, "byte_count", f"A.{off}", 0),
                             sum(len(f"v{i}") for i in range(0, 200, 2)))
            got = consume(self.b, f"A.{plain}", 200)
            self.assertEqual(sorted(int(r["key"][1:]) for r in got), list(range(200)))
            for r in got:
                self.assertEqual(r["headers"][-1], ["copied-by", "connectd"])
            self.assertEqual(sorted(int(r["key"][1:]) for r in consume(self.b, f"A.{stamped}", 200)),
                             list(range(200)))
            with open(worker.log_path) as f:
                log = f.read()
            for p in (0, 1):
                self.assertRegex(log, rf"Copying {stamped}-{p} record by record from offset 0: .*LogAppendTime")
            self.assertRegex(log, r"Copying A->B record by record, not as batches \(pass-through\): "
                                  r"the connector's transforms or converters need the records")
        except Exception:
            print("worker log tail:\n" + worker.tail(80))
            raise
        finally:
            self.assertEqual(worker.stop(), 0)


if __name__ == "__main__":
    unittest.main(verbosity=2)
