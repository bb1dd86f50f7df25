"""End to end: connectd's MirrorMaker 2 connectors against Apache Kafka's own Java classes, between
two real clusters (A = ctest-a, the source; B = ctest-b, the target).

- RemoteClusterUtilsReadsConnectdTest: Java's MirrorClient (RemoteClusterUtils, run by
  java/RemoteClusterUtilsProbe.java) reads the checkpoints and heartbeats topics connectd's
  MirrorCheckpoint/MirrorHeartbeat/MirrorSource wrote on B and finds exactly what the test decodes.
- JavaToConnectdTakeoverTest: Java's ConnectStandalone runs MirrorSourceConnector on a standalone
  offset file, is stopped (SIGTERM, or kill -9) while records keep coming; connectd starts on the
  same file with the same connector file and continues from Java's stored offsets.
- ConnectdToJavaTakeoverTest: the same, the other way round.

A takeover is checked record by record, per partition: with J_p records the first worker put on
B and O_p its stored offset (the last record it committed), B must end up holding exactly
A_p[0:J_p] + A_p[O_p+1:]: nothing lost, nothing started over, the duplicates are exactly the
J_p - (O_p+1) records copied after the first worker's last offset flush.
"""
import json
import os
import signal
import struct
import subprocess
import tempfile
import threading
import time
import unittest
import uuid

from connectd_e2e import (BUILD_DIR, PLUGINS, JavaStandaloneWorker,
                          StandaloneWorkerWithConnectorFiles, kafka_bootstrap, run_java_source,
                          wait_until, write_properties)

TOOL = os.path.join(BUILD_DIR, "tests", "kafka_test_tool")
BYTES = "org.apache.kafka.connect.converters.ByteArrayConverter"


def tool(*args, timeout=120):
    out = subprocess.run([TOOL, *map(str, args)], capture_output=True, text=True, timeout=timeout)
    if out.returncode != 0:
        raise AssertionError(f"kafka_test_tool {args}: {out.stderr}")
    return out.stdout


def count(bootstrap, topic):
    return int(tool("count", bootstrap, topic).strip())


def read_all(bootstrap, topic):
    """Every record of `topic` up to its current end: {partition: [(key_hex, value_hex), ...]} in
    offset order (the test topics are fresh, so list index == offset)."""
    by_partition = {}
    for line in tool("consume-all", bootstrap, topic, 60).splitlines():
        r = json.loads(line)
        by_partition.setdefault(r["partition"], []).append(
            (r["offset"], r["key_hex"], r["value_hex"]))
    out = {}
    for p, records in by_partition.items():
        records.sort()
        out[p] = [(k, v) for _, k, v in records]
    return out


def read_string(data, pos):
    n = struct.unpack_from(">h", data, pos)[0]
    if n < 0:
        raise ValueError("negative string length")
    return data[pos + 2:pos + 2 + n].decode(), pos + 2 + n


def decode_checkpoint(key_hex, value_hex):
    """MirrorMaker 2's Checkpoint record: key (group, topic, partition), value (version,
    upstreamOffset, offset, metadata)."""
    key, value = bytes.fromhex(key_hex), bytes.fromhex(value_hex)
    group, pos = read_string(key, 0)
    topic, pos = read_string(key, pos)
    partition = struct.unpack_from(">i", key, pos)[0]
    version, upstream, downstream = struct.unpack_from(">hqq", value, 0)
    metadata, _ = read_string(value, 18)
    return group, topic, partition, version, upstream, downstream, metadata


def decode_heartbeat(key_hex, value_hex):
    key, value = bytes.fromhex(key_hex), bytes.fromhex(value_hex)
    source, pos = read_string(key, 0)
    target, _ = read_string(key, pos)
    version, timestamp = struct.unpack_from(">hq", value, 0)
    return source, target, version, timestamp


def stored_offsets(offsets_file, connector, topic, strict=True):
    """{partition: offset} of `connector` for source topic `topic` in a standalone offset file,
    as Java reads it (java/OffsetFileDump.java: ObjectInputStream, HashMap<byte[], byte[]>).
    Not strict: a missing or unreadable (being rewritten) file reads as empty."""
    if not strict and not os.path.exists(offsets_file):
        return {}
    try:
        dump = run_java_source("OffsetFileDump.java", offsets_file)
    except AssertionError:
        if strict:
            raise
        return {}
    out = {}
    for line in dump.splitlines():
        key, value = line.split("\t")
        name, partition = json.loads(key)
        if name != connector or partition.get("topic") != topic or value == "null":
            continue
        assert list(partition) == ["cluster", "partition", "topic"], key
        assert partition["cluster"] == "A", key
        out[partition["partition"]] = json.loads(value)["offset"]
    return out


class Producer(threading.Thread):
    """Keeps producing numbered records (produce-from: key k<i>, value v<i>, partition i % P) to A
    in small batches until stopped."""

    def __init__(self, bootstrap, topic, partitions, first, batch=20, pause=0.05):
        super().__init__(daemon=True)
        self.bootstrap, self.topic, self.partitions = bootstrap, topic, partitions
        self.next, self.batch, self.pause = first, batch, pause
        self.stopping = threading.Event()
        self.error = None

    def run(self):
        try:
            while not self.stopping.is_set():
                tool("produce-from", self.bootstrap, self.topic, self.next, self.batch,
                     self.partitions)
                self.next += self.batch
                time.sleep(self.pause)
        except Exception as e:  # reported by finish()
            self.error = e

    def finish(self):
        self.stopping.set()
        self.join(timeout=60)
        if self.error:
            raise self.error
        return self.next


class MirrorInteropBase(unittest.TestCase):
    def setUp(self):
        self.a = kafka_bootstrap("ctest-a")
        self.b = kafka_bootstrap("ctest-b")
        self.uid = uuid.uuid4().hex[:8]
        self.dir = tempfile.mkdtemp(prefix="connectd-interop-")
        self.offsets_file = os.path.join(self.dir, "offsets")

    def common(self):
        return {"source.cluster.alias": "A", "target.cluster.alias": "B",
                "source.cluster.bootstrap.servers": self.a,
                "target.cluster.bootstrap.servers": self.b}

    def connectd(self, flush_ms=1000):
        worker = StandaloneWorkerWithConnectorFiles(workdir=self.dir, extra={
            "bootstrap.servers": self.b, "plugin.path": PLUGINS,
            "key.converter": BYTES, "value.converter": BYTES, "header.converter": BYTES,
            "offset.storage.file.filename": self.offsets_file,
            "offset.flush.interval.ms": str(flush_ms)})
        self.addCleanup(self.kill_if_running, worker)
        return worker

    def java(self, flush_ms=1000):
        worker = JavaStandaloneWorker(self.dir, {
            "bootstrap.servers": self.b,
            "key.converter": BYTES, "value.converter": BYTES, "header.converter": BYTES,
            "offset.storage.file.filename": self.offsets_file,
            "offset.flush.interval.ms": str(flush_ms)})
        self.addCleanup(self.kill_if_running, worker)
        return worker

    @staticmethod
    def kill_if_running(worker):
        if worker.proc and worker.proc.poll() is None:
            worker.proc.kill()
            worker.proc.wait(timeout=30)
        if getattr(worker, "log", None):
            worker.log.close()


class RemoteClusterUtilsReadsConnectdTest(MirrorInteropBase):
    """Java's RemoteClusterUtils on B sees connectd's heartbeats and checkpoints as MM2's."""

    def test_java_remote_cluster_utils_translates_connectd_checkpoints(self):
        topic, group = f"interop-ckpt-{self.uid}", f"interop-group-{self.uid}"
        remote = f"A.{topic}"
        tool("create", self.a, topic, 3)
        tool("produce-from", self.a, topic, 0, 300, 3)  # 100 records per partition
        # Upstream commits (a simple consumer group): partition 0 mid-way with metadata, 1 at the
        # end, 2 at the start (offset 0).
        meta0 = f"first-{self.uid}"
        tool("commit", self.a, topic, group, f"0:40:{meta0}", "1:100", "2:0")
        started_ms = int(time.time() * 1000)

        files = []
        for name, config in [
            (f"interop-source-{self.uid}", {
                "connector.class": "org.apache.kafka.connect.mirror.MirrorSourceConnector",
                "topics": topic, "tasks.max": "2", "replication.factor": "1",
                "offset-syncs.topic.replication.factor": "1",
                "sync.topic.acls.enabled": "false", "sync.topic.configs.enabled": "false"}),
            (f"interop-heartbeat-{self.uid}", {
                "connector.class": "org.apache.kafka.connect.mirror.MirrorHeartbeatConnector",
                "emit.heartbeats.interval.seconds": "1",
                "heartbeats.topic.replication.factor": "1"}),
            (f"interop-checkpoint-{self.uid}", {
                "connector.class": "org.apache.kafka.connect.mirror.MirrorCheckpointConnector",
                "groups": group, "topics": topic, "tasks.max": "1",
                "emit.checkpoints.interval.seconds": "1", "refresh.groups.interval.seconds": "1",
                "checkpoints.topic.replication.factor": "1",
                "sync.group.offsets.enabled": "false"})]:
            files.append(write_properties(os.path.join(self.dir, f"{name}.properties"),
                                          dict(self.common(), name=name, **config)))
        worker = self.connectd().start(*files)

        def checkpoints():
            """The last checkpoint of our group per partition, as written on B."""
            if count(self.b, "A.checkpoints.internal") == 0:
                return {}
            last = {}
            for line in tool("consume-all", self.b, "A.checkpoints.internal", 60).splitlines():
                r = json.loads(line)
                g, t, p, version, up, down, meta = decode_checkpoint(r["key_hex"], r["value_hex"])
                if g != group:
                    continue
                self.assertEqual(r["partition"], 0, "checkpoints go to partition 0")
                self.assertEqual((t, version), (remote, 0))
                last[p] = (up, down, meta)
            return last

        meta1 = f"rewound-{self.uid}"
        try:
            wait_until(lambda: count(self.b, remote) == 300, timeout=40, what="300 records on B")
            # With the default offset.lag.max (100) each partition has a sync for its first record
            # (0 -> 0) and, once offsets are committed, one for its last (99 -> 99): partition 1,
            # committed at the end, translates exactly; partition 2 (offset 0) too.
            def settled():
                c = checkpoints()
                return (sorted(c) == [0, 1, 2] and c[0][0::2] == (40, meta0)
                        and c[1] == (100, 100, "") and c[2] == (0, 0, "")) and c
            wait_until(settled, timeout=40, what="checkpoints of partitions 0, 1 and 2")
            # The group rewinds partition 0: MM2 emits a checkpoint whenever the upstream offset
            # goes backwards, and it supersedes the first one.
            tool("commit", self.a, topic, group, f"0:20:{meta1}")
            wait_until(lambda: checkpoints().get(0, (None,))[0] == 20, timeout=30,
                       what="the checkpoint of the rewound commit")
        except Exception:
            print("connectd log tail:\n" + worker.tail(80))
            raise
        finally:
            self.assertEqual(worker.stop(), 0)  # nothing more is written while Java reads

        written = checkpoints()
        print(f"checkpoints written by connectd: {written}")
        self.assertEqual(written[0][0::2], (20, meta1))
        self.assertTrue(1 <= written[0][1] <= 20, f"partition 0 translated to {written[0][1]}")
        self.assertEqual(written[1], (100, 100, ""))
        self.assertEqual(written[2], (0, 0, ""))

        # Heartbeats connectd emitted on A during this test reached A.heartbeats on B.
        beats = [decode_heartbeat(r["key_hex"], r["value_hex"]) for r in
                 map(json.loads, tool("consume-all", self.b, "A.heartbeats", 60).splitlines())]
        self.assertTrue(any(b[:3] == ("A", "B", 0) and b[3] >= started_ms for b in beats),
                        "a heartbeat from this run on B's A.heartbeats")

        lines = run_java_source("RemoteClusterUtilsProbe.java", self.b, "A", group, 30000, "B",
                                f"nowhere{self.uid}").splitlines()
        print("RemoteClusterUtils on B:\n" + "\n".join(lines))
        facts = {}
        translated = {}
        for line in lines:
            fields = line.split("\t")
            if fields[0] == "translateOffsets":
                t, p, offset, meta_hex = fields[1:]
                translated[(t, int(p))] = (int(offset), bytes.fromhex(meta_hex).decode())
            elif fields[0] == "replicationHops":
                facts[("replicationHops", fields[1])] = int(fields[2])
            else:
                facts[fields[0]] = set(filter(None, fields[1].split(",")))
        self.assertEqual(translated, {(remote, p): (down, meta)
                                      for p, (_, down, meta) in written.items()})
        self.assertEqual(facts[("replicationHops", "A")], 1)
        self.assertEqual(facts[("replicationHops", f"nowhere{self.uid}")], -1)
        self.assertIn("A", facts["upstreamClusters"])
        self.assertIn("A.heartbeats", facts["heartbeatTopics"])
        self.assertIn("A.checkpoints.internal", facts["checkpointTopics"])


def last_offset_syncs(bootstrap, topic):
    """{partition: (number of syncs, last (upstream, downstream))} of the offset syncs for source
    topic `topic` in A's mm2-offset-syncs.B.internal."""
    syncs = {}
    for line in tool("consume-all", bootstrap, "mm2-offset-syncs.B.internal", 60).splitlines():
        r = json.loads(line)
        key, value = bytes.fromhex(r["key_hex"]), bytes.fromhex(r["value_hex"])
        t, pos = read_string(key, 0)
        if t == topic:
            syncs.setdefault(struct.unpack_from(">i", key, pos)[0], []).append(
                struct.unpack_from(">qq", value, 0))
    return {p: (len(s), s[-1]) for p, s in syncs.items()}


class OffsetSyncParityTest(MirrorInteropBase):
    """Java's MirrorSourceTask keeps at most 10 offset syncs in flight; syncs that must wait, and
    the delayed sync of each partition's last record, go out on SourceTask.commit(), which Java's
    worker calls on every offset-commit interval even when no new record came. So once a topic is
    quiet every partition has a sync for its last record, and checkpoints reach its end. The
    same connector config is run on Java (the control) and on connectd, on topics of 4 x 100
    records, with offset.lag.max=0 (every record is due a sync) and 2 tasks."""

    PARTITIONS = 4

    def run_worker(self, kind):
        topic = f"interop-syncs-{kind}-{self.uid}"
        tool("create", self.a, topic, self.PARTITIONS)
        tool("produce-from", self.a, topic, 0, 100 * self.PARTITIONS, self.PARTITIONS)
        name = f"interop-syncs-{kind}-{self.uid}"
        connector_file = write_properties(os.path.join(self.dir, f"{name}.properties"), dict(
            self.common(), name=name,
            **{"connector.class": "org.apache.kafka.connect.mirror.MirrorSourceConnector",
               "topics": topic, "tasks.max": "2", "replication.factor": "1",
               "offset-syncs.topic.replication.factor": "1", "offset.lag.max": "0",
               "sync.topic.acls.enabled": "false", "sync.topic.configs.enabled": "false"}))
        worker = (self.java() if kind == "java" else self.connectd()).start(connector_file)
        want = {p: (99, 99) for p in range(self.PARTITIONS)}
        try:
            wait_until(lambda: count(self.b, f"A.{topic}") == 100 * self.PARTITIONS, timeout=40,
                       what=f"{kind} copying every record")
            copied = time.time()
            try:
                wait_until(lambda: {p: s[1] for p, s in last_offset_syncs(self.a, topic).items()}
                           == want, timeout=15, interval=0.5,
                           what="a sync for every partition's last record")
            except AssertionError:
                pass  # reported below, with the syncs that were written
            syncs = last_offset_syncs(self.a, topic)
            print(f"{kind}: offset syncs (count, last) per partition {syncs}, "
                  f"{time.time() - copied:.1f}s after the copy")
            return syncs
        finally:
            worker.stop()

    def test_every_partition_is_synced_to_its_last_record_like_java(self):
        java = self.run_worker("java")
        want = {p: (99, 99) for p in range(self.PARTITIONS)}
        self.assertEqual({p: s[1] for p, s in java.items()}, want, "the Java control")
        connectd = self.run_worker("connectd")
        self.assertEqual({p: s[1] for p, s in connectd.items()}, want,
                         "connectd's last offset sync per partition (missing partition: no sync "
                         "at all, so no checkpoint for it ever)")


class TakeoverBase(MirrorInteropBase):
    PARTITIONS = 4

    def takeover(self, first_kind, second_kind, sig):
        topic = f"interop-{first_kind}-{second_kind}-{self.uid}"
        remote, name = f"A.{topic}", f"mm2-interop-{self.uid}"
        tool("create", self.a, topic, self.PARTITIONS)
        tool("produce-from", self.a, topic, 0, 200, self.PARTITIONS)
        connector_file = write_properties(os.path.join(self.dir, "connector.properties"), dict(
            self.common(), name=name,
            **{"connector.class": "org.apache.kafka.connect.mirror.MirrorSourceConnector",
               "topics": topic, "tasks.max": "2", "replication.factor": "1",
               "offset-syncs.topic.replication.factor": "1",
               "sync.topic.acls.enabled": "false", "sync.topic.configs.enabled": "false"}))
        make = {"java": self.java, "connectd": self.connectd}
        # The first worker flushes offsets every 2 s, so a kill -9 leaves some copied records
        # whose offsets were never stored.
        first = make[first_kind](flush_ms=2000)

        def offsets_via_rest(worker):
            status, body, _ = worker.get(f"/connectors/{name}/offsets")
            if status != 200:
                return {}
            return {o["partition"]["partition"]: o["offset"]["offset"] for o in body["offsets"]
                    if o["partition"].get("topic") == topic}

        producer = Producer(self.a, topic, self.PARTITIONS, first=200)
        t0 = time.time()
        first.start(connector_file)
        try:
            first.wait_state(name, "RUNNING", ["RUNNING", "RUNNING"], timeout=60)
            running = time.time() - t0
            producer.start()
            wait_until(lambda: count(self.b, remote) >= 600, timeout=40, interval=0.2,
                       what=f"{first_kind} copying 600 records")
            # Wait for the file itself: connectd's REST shows an offset as soon as it is set,
            # before the save that makes it durable (runtime/storage/file_offset_backing_store.h).
            wait_until(lambda: len(stored_offsets(self.offsets_file, name, topic, strict=False))
                       == self.PARTITIONS, timeout=20, interval=0,
                       what=f"{first_kind} storing offsets of every partition in the file")
            stop_code = first.stop(sig)
        except Exception:
            producer.finish()
            print(f"{first_kind} log tail:\n" + first.tail(80))
            raise
        time.sleep(1)  # records keep coming while nobody mirrors
        last = producer.finish()
        tool("produce-from", self.a, topic, last, 100, self.PARTITIONS)
        total = last + 100

        source = read_all(self.a, topic)
        self.assertEqual(sum(map(len, source.values())), total)
        copied = read_all(self.b, remote)
        stored = stored_offsets(self.offsets_file, name, topic)
        jp = {p: len(copied.get(p, [])) for p in range(self.PARTITIONS)}
        self.assertEqual(sorted(stored), list(range(self.PARTITIONS)), f"stored offsets {stored}")
        for p in range(self.PARTITIONS):
            # The first worker copied a prefix of each partition, in order, and never stored an
            # offset past what reached B.
            self.assertEqual(copied.get(p, []), source[p][:jp[p]], f"partition {p}")
            self.assertLessEqual(stored[p] + 1, jp[p], f"partition {p}")
        after_flush = {p: jp[p] - (stored[p] + 1) for p in range(self.PARTITIONS)}
        expected = sum(jp[p] + len(source[p]) - (stored[p] + 1) for p in range(self.PARTITIONS))

        second = make[second_kind]()
        t1 = time.time()
        second.start(connector_file)
        try:
            second.wait_state(name, "RUNNING", ["RUNNING", "RUNNING"], timeout=60)
            wait_until(lambda: count(self.b, remote) >= expected, timeout=40, interval=0.2,
                       what=f"{second_kind} copying the rest ({expected} on B)")
            caught_up = time.time() - t1
            time.sleep(3)  # nothing more may come
            self.assertEqual(count(self.b, remote), expected)
            final = read_all(self.b, remote)
            for p in range(self.PARTITIONS):
                self.assertEqual(final[p], source[p][:jp[p]] + source[p][stored[p] + 1:],
                                 f"partition {p}: {second_kind} must continue at {stored[p] + 1}")
            # The second worker's own stored offsets cover everything, in the same file.
            wait_until(lambda: offsets_via_rest(second) == {p: len(source[p]) - 1
                                                            for p in range(self.PARTITIONS)},
                       timeout=20, what=f"{second_kind} offsets at the end of every partition")
        except Exception:
            print(f"{second_kind} log tail:\n" + second.tail(80))
            raise
        finally:
            second_code = second.stop()
        if second_kind == "connectd":
            self.assertEqual(second_code, 0, "SIGTERM stops connectd cleanly")
        if first_kind == "connectd" and sig == signal.SIGTERM:
            self.assertEqual(stop_code, 0, "SIGTERM stops connectd cleanly")
        self.assertEqual(stored_offsets(self.offsets_file, name, topic),
                         {p: len(source[p]) - 1 for p in range(self.PARTITIONS)})
        print(f"{first_kind} -> {second_kind} ({signal.Signals(sig).name}, exit {stop_code}): "
              f"{total} records on A; {first_kind} RUNNING after {running:.1f}s, copied "
              f"{sum(jp.values())} per partition {jp}, stored offsets {stored}; "
              f"{sum(after_flush.values())} duplicates (copied after the last flush: "
              f"{after_flush}); "
              f"{second_kind} caught up after {caught_up:.1f}s")
        return after_flush


class JavaToConnectdTakeoverTest(TakeoverBase):
    def test_sigterm(self):
        duplicates = self.takeover("java", "connectd", signal.SIGTERM)
        self.assertEqual(sum(duplicates.values()), 0, "a clean stop flushes every offset")

    def test_kill9(self):
        self.takeover("java", "connectd", signal.SIGKILL)


class ConnectdToJavaTakeoverTest(TakeoverBase):
    def test_sigterm(self):
        duplicates = self.takeover("connectd", "java", signal.SIGTERM)
        self.assertEqual(sum(duplicates.values()), 0, "a clean stop flushes every offset")

    def test_kill9(self):
        self.takeover("connectd", "java", signal.SIGKILL)


if __name__ == "__main__":
    unittest.main(verbosity=2)
