"""End to end: Kafka's MirrorMaker 2 acceptance scenarios (MirrorConnectorsIntegrationBaseTest)
on connectd, plus the acceptance test of the MirrorMaker issue.

Each Java scenario runs between the two shared test clusters: "primary" is ctest-a with alias A,
"backup" is ctest-b with alias B. Every topic and group name carries the test's uid, the
topic/group filters select only those, and each check of a shared topic (heartbeats,
checkpoints, offset syncs) looks only at the test's own records. The aliases must be the ones
every other flow between these clusters uses: heartbeat topics are mirrored whatever the topic
filter, and two flows that call one cluster by different names do not see each other's cycles
(they would copy heartbeat topics back and forth under ever longer names). One flow is one
`connectd standalone` worker running MirrorSource, MirrorCheckpoint and MirrorHeartbeat for that
flow, with its data producer on the flow's target; a two-way scenario runs two workers. A test
deletes its topics when it ends.

Differences from the Java harness, all deliberate:
- connectd writes a flow's heartbeats into its *source* cluster (docs/compatibility.md), so the
  heartbeats of flow primary->backup are in `heartbeats` on primary, keyed (primary, backup).
- Where Java's consumers "warm up" with one short poll, these tests commit definite offsets
  (all records consumed, or offset 0 everywhere), so what the checkpoints must say is known.
- The brokers allow topic auto-creation, so "never created" is checked by listing topics.
- The offset-syncs topics are shared, so "no offset-syncs topic" is checked as "no offset sync
  of this test's topics in it".
"""
import json
import os
import struct
import subprocess
import sys
import time
import unittest
import uuid

from connectd_e2e import BUILD_DIR, PLUGINS, StandaloneWorker, kafka_bootstrap, wait_until

TOOL = os.path.join(BUILD_DIR, "tests", "kafka_test_tool")

# Kafka's MirrorConnectorsIntegrationBaseTest sizes.
PARTITIONS = 10
PER_PARTITION = 10
RECORDS = PARTITIONS * PER_PARTITION
OFFSET_LAG_MAX = 10

SOURCE, CHECKPOINT, HEARTBEAT = "MirrorSourceConnector", "MirrorCheckpointConnector", \
    "MirrorHeartbeatConnector"
ALL_CONNECTORS = (SOURCE, CHECKPOINT, HEARTBEAT)


# ---- kafka_test_tool wrappers ------------------------------------------------------------------

def tool(*args, timeout=120):
    out = subprocess.run([TOOL, *map(str, args)], capture_output=True, text=True, timeout=timeout)
    if out.returncode != 0:
        raise AssertionError(f"kafka_test_tool {args}: {out.stderr}")
    return out.stdout


def json_lines(text):
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def now_ms():
    return int(time.time() * 1000)


def topics(bootstrap, containing=""):
    return set(tool("topics", bootstrap, containing).split())


def partitions(bootstrap, topic):
    return int(tool("partitions", bootstrap, topic).strip())


def end_offsets(bootstrap, topic):
    return {int(p): o for p, o in json.loads(tool("end-offsets", bootstrap, topic)).items()}


def dump(bootstrap, topic):
    """Every record of `topic` from the start to its end offsets of the moment."""
    return json_lines(tool("dump", bootstrap, topic, 60))


def produce(bootstrap, topic, count, partition_count, base_ts=None):
    """Records k<i>/v<i> with headers, i in [0, count), on partition i % partition_count."""
    tool("produce", bootstrap, topic, count, partition_count, *([base_ts] if base_ts else []))


def group_consume(bootstrap, group, topic_list, count):
    """A member of `group` consumes `count` records from the start, then commits its positions."""
    return json_lines(tool("group-consume", bootstrap, group, ",".join(topic_list), count, 60))


def read_from(bootstrap, offsets, group=None):
    """Reads from {(topic, partition): offset} to the end; commits the positions in `group`."""
    specs = [f"{t}:{p}={o}" for (t, p), o in sorted(offsets.items())]
    return json_lines(tool("read-from", bootstrap, 60, group or "-", *specs))


def commit(bootstrap, group, topic, offsets):
    """Commits {partition: offset} for `group` on `topic` without joining the group."""
    tool("commit", bootstrap, topic, group, *[f"{p}:{o}" for p, o in sorted(offsets.items())])


def committed(bootstrap, group):
    return {(r["topic"], r["partition"]): r["offset"]
            for r in json_lines(tool("committed", bootstrap, group))}


def topic_config(bootstrap, topic, name):
    return tool("config", bootstrap, topic, name).strip()


# ---- MirrorMaker 2 record formats (connect-mirror-client) -------------------------------------------------

def _string(data, pos):
    n = struct.unpack_from(">h", data, pos)[0]
    return data[pos + 2:pos + 2 + n].decode(), pos + 2 + n


def decode_heartbeat(record):
    key, value = bytes.fromhex(record["key_hex"]), bytes.fromhex(record["value_hex"])
    source, pos = _string(key, 0)
    target, _ = _string(key, pos)
    version, timestamp = struct.unpack_from(">hq", value, 0)
    return {"source": source, "target": target, "version": version, "timestamp": timestamp}


def decode_checkpoint(record):
    key, value = bytes.fromhex(record["key_hex"]), bytes.fromhex(record["value_hex"])
    group, pos = _string(key, 0)
    topic, pos = _string(key, pos)
    partition = struct.unpack_from(">i", key, pos)[0]
    version, upstream, downstream = struct.unpack_from(">hqq", value, 0)
    metadata, _ = _string(value, 18)
    return {"group": group, "topic": topic, "partition": partition, "version": version,
            "upstream": upstream, "downstream": downstream, "metadata": metadata}


# ---- MirrorClient, as Java's computes it from topic names (DefaultReplicationPolicy, ".") ------

def _topic_source(topic):
    parts = topic.split(".")
    return parts[0] if len(parts) >= 2 else None


def _upstream_topic(topic):
    source = _topic_source(topic)
    return None if source is None else topic[len(source) + 1:]


def _original_topic(topic):
    upstream = _upstream_topic(topic)
    return topic if upstream is None or upstream == topic else _original_topic(upstream)


def _heartbeat_topics(names):
    return [t for t in names if _original_topic(t) == "heartbeats"]


def upstream_clusters(names):
    clusters = set()
    for topic in _heartbeat_topics(names):
        source = _topic_source(topic)
        while source is not None and source not in clusters:
            clusters.add(source)
            topic = _upstream_topic(topic)
            source = _topic_source(topic)
    return clusters


def replication_hops(names, alias):
    def hops_for(topic):
        hops, visited = 0, set()
        while True:
            hops += 1
            source = _topic_source(topic)
            if source is None or source in visited:
                return -1
            if source == alias:
                return hops
            visited.add(source)
            topic = _upstream_topic(topic)
    found = [h for h in map(hops_for, _heartbeat_topics(names)) if h != -1]
    return min(found) if found else -1


class MirrorScenarioBase(unittest.TestCase):
    """Shared setup: unique names, base topics, one worker per flow, MirrorClient-like reads."""

    def setUp(self):
        self.started = time.time()
        self.uid = uuid.uuid4().hex[:8]
        self.a = kafka_bootstrap("ctest-a")
        self.b = kafka_bootstrap("ctest-b")
        self.workers = []
        self.addCleanup(self._delete_topics)  # runs after the workers are stopped
        self.addCleanup(self._stop_workers)

    def tearDown(self):
        print(f"\n{self.id()}: {time.time() - self.started:.1f} s", file=sys.stderr)

    def _failed(self):
        result = getattr(self._outcome, "result", None)
        return bool(result) and any(t is self for t, _ in result.failures + result.errors)

    def _stop_workers(self):
        for worker in self.workers:
            if self._failed():
                print(f"\n--- {worker.log_path} (tail) ---\n{worker.tail(60)}", file=sys.stderr)
            try:
                worker.stop(timeout=30)
            except subprocess.TimeoutExpired:
                worker.kill9()
            finally:
                if getattr(worker, "log", None):
                    worker.log.close()

    def _delete_topics(self):
        for bootstrap in (self.a, self.b):
            mine = sorted(topics(bootstrap, self.uid))
            if mine:
                tool("delete", bootstrap, *mine)

    def name(self, base):
        return f"{base}-{self.uid}"

    def start_worker(self, target_bootstrap, connectors):
        """A standalone worker whose producer writes to `target_bootstrap`, running `connectors`
        ({name: config}); returns once every connector and at least one task of each runs."""
        worker = StandaloneWorker(extra={
            "bootstrap.servers": target_bootstrap, "plugin.path": PLUGINS,
            "offset.flush.interval.ms": "500",
            "key.converter": "org.apache.kafka.connect.converters.ByteArrayConverter",
            "value.converter": "org.apache.kafka.connect.converters.ByteArrayConverter",
            "header.converter": "org.apache.kafka.connect.converters.ByteArrayConverter",
            **self.worker_props(target_bootstrap)})
        self.workers.append(worker)
        worker.start()
        for name, config in connectors.items():
            status, body, _ = worker.post("/connectors", {"name": name, "config": config})
            self.assertEqual(status, 201, f"creating {name}: {body}")
        for name in connectors:
            self.wait_running(worker, name)
        return worker

    def worker_props(self, target_bootstrap):
        """More worker properties for a flow's worker (the SSL variant's listener and trust)."""
        return {}

    def wait_running(self, worker, name, timeout=60):
        def running():
            state = worker.state(name)
            return state if state and state[0] == "RUNNING" and state[1] and \
                all(s == "RUNNING" for s in state[1]) else None
        wait_until(running, timeout=timeout, interval=0.2, what=f"{name} and its tasks RUNNING")

    # ---- topics and groups -----------------------------------------------------------------

    def wait_topic(self, bootstrap, topic, timeout=30):
        wait_until(lambda: partitions(bootstrap, topic) > 0, timeout=timeout, interval=0.2,
                   what=f"topic {topic}")

    def wait_count(self, bootstrap, topic, expected, timeout=30):
        """Waits until `topic` holds `expected` records (never more)."""
        wait_until(lambda: int(tool("count", bootstrap, topic)) >= expected, timeout=timeout,
                   interval=0.2, what=f"{expected} records in {topic}")
        self.assertEqual(int(tool("count", bootstrap, topic)), expected, f"records in {topic}")

    def commit_start(self, bootstrap, group, topic):
        """A consumer group with offset 0 committed on every partition of `topic`."""
        commit(bootstrap, group, topic, {p: 0 for p in end_offsets(bootstrap, topic)})

    # ---- MirrorClient.remoteConsumerOffsets and the checkpoints topic ------------------------

    def checkpoints(self, target, source_alias):
        """This test's checkpoints (its groups carry the uid), in the topic's order."""
        return [c for c in map(decode_checkpoint,
                               dump(target, f"{source_alias}.checkpoints.internal"))
                if self.uid in c["group"]]

    def offset_syncs(self, bootstrap, syncs_topic):
        """This test's offset syncs in `syncs_topic` (none if the topic does not exist)."""
        if partitions(bootstrap, syncs_topic) == 0:
            return []
        out = []
        for r in dump(bootstrap, syncs_topic):
            key = bytes.fromhex(r["key_hex"])
            topic, pos = _string(key, 0)
            if self.uid in topic:
                upstream, downstream = struct.unpack(">qq", bytes.fromhex(r["value_hex"]))
                out.append((topic, struct.unpack_from(">i", key, pos)[0], upstream, downstream))
        return out

    def remote_consumer_offsets(self, target, source_alias, group):
        """The newest checkpoint per partition: {(topic, partition): downstream offset}."""
        return {(c["topic"], c["partition"]): c["downstream"]
                for c in self.checkpoints(target, source_alias) if c["group"] == group}

    def wait_checkpoints_on_all_partitions(self, target, source_alias, group, topic,
                                           previous=None, count=PARTITIONS, timeout=30,
                                           upstream=None):
        """Waits for a checkpoint on each partition of `topic`, different from `previous` and,
        with `upstream` ({partition: offset}), of the group's commit at that offset: a checkpoint
        of an older commit can change too (its translation gets exact once the offset index
        arrives)."""
        previous = previous or {}

        def complete():
            newest = {(c["topic"], c["partition"]): c
                      for c in self.checkpoints(target, source_alias) if c["group"] == group}
            offsets = {tp: c["downstream"] for tp, c in newest.items()}
            wanted = {(topic, p) for p in range(count)}
            if not wanted <= offsets.keys():
                return None
            if any(tp in previous and previous[tp] == offsets[tp] for tp in wanted):
                return None
            if upstream is not None and any(newest[(topic, p)]["upstream"] != o
                                            for p, o in upstream.items()):
                return None
            return {tp: offsets[tp] for tp in wanted}
        return wait_until(complete, timeout=timeout, interval=0.5,
                          what=f"checkpoints of {group} for every partition of {topic}")

    def assert_monotonic_checkpoints(self, target, source_alias):
        last = {}
        for c in self.checkpoints(target, source_alias):
            key = (c["group"], c["topic"], c["partition"])
            self.assertEqual(c["version"], 0)
            if key in last:
                self.assertGreaterEqual(c["downstream"], last[key],
                                        f"checkpoint was non-monotonic for {key}")
            last[key] = c["downstream"]
        return last

    # ---- consumer group offset sync (waitForConsumerGroupFullSync) ---------------------------

    def wait_consumer_group_full_sync(self, target, topic_list, group, records_per_topic, lag):
        expected = records_per_topic * len(topic_list)
        last_offset = {}

        def all_replicated():
            rows = [(t, r) for t in topic_list for r in dump(target, t)]
            for topic, r in rows:
                last_offset[(topic, r["partition"])] = max(
                    r["offset"], last_offset.get((topic, r["partition"]), -1))
            return len(rows) >= expected
        wait_until(all_replicated, timeout=30, interval=0.5, what=f"{expected} records on target")
        tps = [(t, p) for t in topic_list for p in range(PARTITIONS)]
        problems = []

        def synced():
            offsets = committed(target, group)
            ends = {t: end_offsets(target, t) for t in topic_list}
            problems.clear()
            for topic, p in tps:
                offset = offsets.get((topic, p))
                if offset is None:
                    problems.append(f"{topic}-{p} has no translated offset")
                elif not offset > last_offset[(topic, p)] - lag:
                    problems.append(f"{topic}-{p}: {offset} is not more than "
                                    f"{last_offset[(topic, p)] - lag}")
                elif offset > ends[topic][p]:
                    problems.append(f"{topic}-{p}: {offset} is beyond the log end "
                                    f"{ends[topic][p]}")
            return not problems
        try:
            wait_until(synced, timeout=30, interval=0.5, what=f"full offset sync of {group}")
        except AssertionError as e:
            raise AssertionError(f"{e}: {problems}") from None

    def assert_downstream_redeliveries_bounded_by_max_lag(self, target, group, topic_list, lag):
        """A consumer of `group` on the target re-reads fewer than `lag` records per partition."""
        offsets = {tp: o for tp, o in committed(target, group).items() if tp[0] in topic_list}
        per_partition = {}
        for r in read_from(target, offsets):
            key = (r["topic"], r["partition"])
            per_partition[key] = per_partition.get(key, 0) + 1
        for tp, n in per_partition.items():
            self.assertLess(n, lag, f"downstream consumer re-reads {n} records from {tp}")


class MirrorConnectorsScenariosTest(MirrorScenarioBase):
    """MirrorConnectorsIntegrationBaseTest's base scenarios 1-9 and 13."""

    def setUp(self):
        super().setUp()
        self.primary, self.backup = "A", "B"
        self.topic1 = self.name("test-topic-1")
        self.no_checkpoints = self.name("test-topic-no-checkpoints")
        # Java's createTopics(): test-topic-1 compacted on primary (its config must be copied).
        tool("create", self.a, self.no_checkpoints, 1)
        tool("create", self.a, self.topic1, PARTITIONS, "cleanup.policy=compact")
        tool("create", self.b, self.topic1, PARTITIONS)
        # Java's "consumer-group-dummy": each checkpoint connector has a group from the start.
        for bootstrap in (self.a, self.b):
            self.commit_start(bootstrap, self.name("consumer-group-dummy"), self.topic1)

    def bootstrap(self, alias):
        return self.a if alias == self.primary else self.b

    def mm2_config(self, source, target, **overrides):
        """Java's basicMM2Config() as the connector config of flow source->target."""
        config = {
            "source.cluster.alias": source, "target.cluster.alias": target,
            "source.cluster.bootstrap.servers": self.bootstrap(source),
            "target.cluster.bootstrap.servers": self.bootstrap(target),
            "topics": f"test-topic-.*-{self.uid}, {self.primary}.test-topic-.*-{self.uid}, "
                      f"{self.backup}.test-topic-.*-{self.uid}",
            "groups": f"consumer-group-.*-{self.uid}",
            "sync.topic.acls.enabled": "false",
            "emit.checkpoints.interval.seconds": "1",
            "emit.heartbeats.interval.seconds": "1",
            "refresh.topics.interval.seconds": "1",
            "refresh.groups.interval.seconds": "1",
            "checkpoints.topic.replication.factor": "1",
            "heartbeats.topic.replication.factor": "1",
            "offset-syncs.topic.replication.factor": "1",
            "replication.factor": "1",
            "config.properties.exclude": "delete\\.retention\\..*",
            "sync.topic.configs.interval.seconds": "1",
        }
        config.update(overrides)
        return {k: v for k, v in config.items() if v is not None}

    def start_flow(self, source, target, connectors=ALL_CONNECTORS, **overrides):
        """Flow source->target on its own worker (MirrorMaker's herder for that pair)."""
        classes = {SOURCE: "org.apache.kafka.connect.mirror.MirrorSourceConnector",
                   CHECKPOINT: "org.apache.kafka.connect.mirror.MirrorCheckpointConnector",
                   HEARTBEAT: "org.apache.kafka.connect.mirror.MirrorHeartbeatConnector"}
        configs = {f"{c}-{self.uid}": dict(self.mm2_config(source, target, **overrides),
                                           **{"connector.class": classes[c]})
                   for c in connectors}
        return self.start_worker(self.bootstrap(target), configs)

    def remote(self, alias, topic):
        return f"{alias}.{topic}"

    def heartbeats(self, bootstrap, source, target):
        return [h for h in map(decode_heartbeat, dump(bootstrap, "heartbeats"))
                if (h["source"], h["target"]) == (source, target)]

    # ---- 1 --------------------------------------------------------------------------------------

    def test_replication(self):
        """testReplication: both directions, topic configs, heartbeats, MirrorClient, failover
        and failback with translated offsets, monotonic checkpoints, topics created later."""
        backup_topic1 = self.remote(self.primary, self.topic1)
        reverse_topic1 = self.remote(self.backup, self.topic1)
        group = self.name("consumer-group-testReplication")
        produce(self.a, self.topic1, RECORDS, PARTITIONS)
        produce(self.b, self.topic1, RECORDS, PARTITIONS)
        # The group has read everything on both clusters before MirrorMaker starts.
        self.assertEqual(len(group_consume(self.a, group, [self.topic1], RECORDS)), RECORDS)
        self.assertEqual(len(group_consume(self.b, group, [self.topic1], RECORDS)), RECORDS)

        self.start_flow(self.primary, self.backup)
        self.start_flow(self.backup, self.primary)

        self.wait_topic(self.a, reverse_topic1)
        self.wait_topic(self.b, backup_topic1)
        self.wait_topic(self.a, f"mm2-offset-syncs.{self.backup}.internal")
        self.assertEqual(topic_config(self.b, backup_topic1, "cleanup.policy"), "compact",
                         "topic config was not synced")
        self.create_and_test_new_topic_with_config_filter()

        self.assertEqual(int(tool("count", self.a, self.topic1)), RECORDS)
        self.wait_count(self.b, backup_topic1, RECORDS)
        self.assertEqual(int(tool("count", self.b, self.topic1)), RECORDS)
        self.wait_count(self.a, reverse_topic1, RECORDS)
        self.assertEqual(len(dump(self.a, reverse_topic1)) + len(dump(self.a, self.topic1)),
                         2 * RECORDS, "primary doesn't have all records from both clusters")
        self.assertEqual(len(dump(self.b, backup_topic1)) + len(dump(self.b, self.topic1)),
                         2 * RECORDS, "backup doesn't have all records from both clusters")

        # Heartbeats: connectd writes a flow's heartbeats into its source cluster.
        wait_until(lambda: self.heartbeats(self.a, self.primary, self.backup), timeout=30,
                   what="heartbeats emitted to primary")
        wait_until(lambda: self.heartbeats(self.b, self.backup, self.primary), timeout=30,
                   what="heartbeats emitted to backup")
        wait_until(lambda: int(tool("count", self.b, f"{self.primary}.heartbeats")) > 0,
                   timeout=30, what="heartbeats replicated downstream to backup")
        wait_until(lambda: int(tool("count", self.a, f"{self.backup}.heartbeats")) > 0,
                   timeout=30, what="heartbeats replicated downstream to primary")

        backup_topics, primary_topics = topics(self.b), topics(self.a)
        self.assertIn(self.primary, upstream_clusters(backup_topics))
        self.assertEqual(replication_hops(backup_topics, self.primary), 1)
        self.assertIn(self.backup, upstream_clusters(primary_topics))
        self.assertEqual(replication_hops(primary_topics, self.backup), 1)
        wait_until(lambda: self.checkpoints(self.b, self.primary), timeout=20,
                   what="checkpoints emitted downstream to backup")
        wait_until(lambda: self.checkpoints(self.a, self.backup), timeout=20,
                   what="checkpoints emitted upstream to primary")

        # Failover to backup with the translated offsets: 0 < offset <= records on the partition.
        backup_offsets = self.wait_checkpoints_on_all_partitions(
            self.b, self.primary, group, backup_topic1)
        ends = end_offsets(self.b, backup_topic1)
        for (topic, p), offset in backup_offsets.items():
            self.assertGreater(offset, 0, f"consumer failed over to zero offset on {p}")
            self.assertLessEqual(offset, ends[p], f"failed over beyond the log end on {p}")
        read_from(self.b, backup_offsets, group)
        self.assertEqual(committed(self.b, group)[(backup_topic1, 0)], ends[0])
        self.assert_monotonic_checkpoints(self.b, self.primary)

        # Failback to primary.
        primary_offsets = self.wait_checkpoints_on_all_partitions(
            self.a, self.backup, group, reverse_topic1)
        ends = end_offsets(self.a, reverse_topic1)
        for (topic, p), offset in primary_offsets.items():
            self.assertGreater(offset, 0, f"consumer failed back to zero offset on {p}")
            self.assertLessEqual(offset, ends[p], f"failed back beyond the log end on {p}")
        read_from(self.a, primary_offsets, group)
        self.assertLessEqual(committed(self.a, group)[(reverse_topic1, 0)], RECORDS)

        # Topics created after start, written on one partition only.
        topic2 = self.name("test-topic-2")
        tool("create", self.a, topic2, PARTITIONS)
        self.wait_topic(self.b, self.remote(self.primary, topic2))
        produce(self.a, topic2, PER_PARTITION, 1)
        self.assertEqual(int(tool("count", self.a, topic2)), PER_PARTITION)
        self.wait_count(self.b, self.remote(self.primary, topic2), PER_PARTITION)

        topic3 = self.name("test-topic-3")
        tool("create", self.b, topic3, PARTITIONS)
        self.wait_topic(self.a, self.remote(self.backup, topic3))
        produce(self.b, topic3, PER_PARTITION, 1)
        self.assertEqual(int(tool("count", self.b, topic3)), PER_PARTITION)
        self.wait_count(self.a, self.remote(self.backup, topic3), PER_PARTITION)

    def create_and_test_new_topic_with_config_filter(self):
        topic = self.name("test-topic-with-config")
        backup_topic = self.remote(self.primary, topic)
        tool("create", self.a, topic, PARTITIONS, "delete.retention.ms=1000",
             "retention.bytes=1000")
        self.wait_topic(self.b, backup_topic)
        self.assertNotEqual(topic_config(self.a, topic, "delete.retention.ms"),
                            topic_config(self.b, backup_topic, "delete.retention.ms"),
                            "delete.retention.ms is excluded and must not be copied")
        self.assertEqual(topic_config(self.a, topic, "retention.bytes"),
                         topic_config(self.b, backup_topic, "retention.bytes"))
        self.assertEqual(topic_config(self.b, backup_topic, "retention.bytes"), "1000")

    # ---- 2 --------------------------------------------------------------------------------------

    def test_replication_with_empty_partition(self):
        """testReplicationWithEmptyPartition: the never-written partition is mirrored too, and a
        backup consumer of the group commits offset 0 for it."""
        group = self.name("consumer-group-testReplicationWithEmptyPartition")
        topic = self.name("test-topic-with-empty-partition")
        tool("create", self.a, topic, PARTITIONS)
        produce(self.a, topic, PER_PARTITION * (PARTITIONS - 1), PARTITIONS - 1)
        expected = PER_PARTITION * (PARTITIONS - 1)
        self.assertEqual(len(group_consume(self.a, group, [topic], expected)), expected)

        self.start_flow(self.primary, self.backup)
        time.sleep(3)
        backup_topic = self.remote(self.primary, topic)
        self.wait_topic(self.b, backup_topic)
        self.assertEqual(partitions(self.b, backup_topic), PARTITIONS)
        self.wait_count(self.b, backup_topic, expected)
        self.assertEqual(len(group_consume(self.b, group, [backup_topic], expected)), expected)
        offsets = committed(self.b, group)
        self.assertIn((backup_topic, PARTITIONS - 1), offsets,
                      "offset of the last partition was not replicated")
        self.assertEqual(offsets[(backup_topic, PARTITIONS - 1)], 0)

    # ---- 3, 4 -----------------------------------------------------------------------------------

    def test_one_way_replication_with_auto_offset_sync(self):
        """testOneWayReplicationWithAutoOffsetSync (offset.lag.max=10)."""
        self.one_way_replication_with_offset_syncs(OFFSET_LAG_MAX)

    def test_one_way_replication_with_frequent_offset_syncs(self):
        """testOneWayReplicationWithFrequentOffsetSyncs (offset.lag.max=0)."""
        self.one_way_replication_with_offset_syncs(0)

    def one_way_replication_with_offset_syncs(self, lag):
        produce(self.a, self.topic1, RECORDS, PARTITIONS)
        backup_topic1 = self.remote(self.primary, self.topic1)
        group = self.name("consumer-group-testOneWayReplicationWithAutoOffsetSync")
        self.assertEqual(len(group_consume(self.a, group, [self.topic1], RECORDS)), RECORDS)

        self.start_flow(self.primary, self.backup, **{
            "sync.group.offsets.enabled": "true", "sync.group.offsets.interval.seconds": "1",
            "offset.lag.max": str(lag)})
        reverse_topic1 = self.remote(self.backup, self.topic1)
        self.wait_topic(self.b, backup_topic1)
        self.assertNotIn(reverse_topic1, topics(self.a, self.uid))

        self.wait_consumer_group_full_sync(self.b, [backup_topic1], group, RECORDS, lag)
        self.assert_downstream_redeliveries_bounded_by_max_lag(self.b, group, [backup_topic1], lag)

        # A new topic: created remotely, then its records and the group's offsets follow.
        topic2 = self.name("test-topic-2")
        remote_topic2 = self.remote(self.primary, topic2)
        tool("create", self.a, topic2, PARTITIONS)
        self.wait_topic(self.b, remote_topic2)
        produce(self.a, topic2, RECORDS, PARTITIONS)
        self.assertEqual(len(group_consume(self.a, group, [topic2], RECORDS)), RECORDS)

        self.wait_consumer_group_full_sync(self.b, [backup_topic1, remote_topic2], group,
                                           RECORDS, lag)
        self.assert_downstream_redeliveries_bounded_by_max_lag(
            self.b, group, [backup_topic1, remote_topic2], lag)
        self.assert_monotonic_checkpoints(self.b, self.primary)
        self.assertNotIn(reverse_topic1, topics(self.a, self.uid))

    # ---- 5 --------------------------------------------------------------------------------------

    def test_replication_without_offset_sync_will_not_create_offset_syncs_topic(self):
        """testReplicationWithoutOffsetSyncWillNotCreateOffsetSyncsTopic."""
        produce(self.a, self.topic1, RECORDS, PARTITIONS)
        produce(self.b, self.topic1, RECORDS, PARTITIONS)
        backup_topic1 = self.remote(self.primary, self.topic1)
        group = self.name("consumer-group-testReplication")
        self.commit_start(self.a, group, self.topic1)
        # Kafka refuses offset-syncs.* settings when offset syncs are off: none are passed.
        self.start_flow(self.primary, self.backup, connectors=(SOURCE, HEARTBEAT), **{
            "emit.offset-syncs.enabled": "false", "offset-syncs.topic.replication.factor": None})

        self.wait_topic(self.b, backup_topic1)
        self.assertEqual(int(tool("count", self.a, self.topic1)), RECORDS)
        self.wait_count(self.b, backup_topic1, RECORDS)
        self.assertEqual(int(tool("count", self.b, self.topic1)), RECORDS)
        time.sleep(2)  # four offset flushes: delayed syncs would have been promoted
        self.assertEqual(self.offset_syncs(self.a, f"mm2-offset-syncs.{self.backup}.internal"),
                         [], "offset syncs written although emit.offset-syncs.enabled=false")
        self.assertEqual(self.offset_syncs(self.b, f"mm2-offset-syncs.{self.primary}.internal"),
                         [])

    # ---- 6 --------------------------------------------------------------------------------------

    def test_offset_syncs_topics_on_target(self):
        """testOffsetSyncsTopicsOnTarget: offset-syncs.topic.location=target."""
        self.start_flow(self.primary, self.backup, **{"offset-syncs.topic.location": "target"})
        self.wait_topic(self.b, f"mm2-offset-syncs.{self.primary}.internal")

        group = self.name("consumer-group-syncs-on-target")
        produce(self.a, self.topic1, RECORDS, PARTITIONS)
        self.assertEqual(len(group_consume(self.a, group, [self.topic1], RECORDS)), RECORDS)
        wait_until(lambda: self.offset_syncs(self.b, f"mm2-offset-syncs.{self.primary}.internal"),
                   timeout=30, interval=0.5, what="offset syncs in the target's topic")

        remote_topic = self.remote(self.primary, self.topic1)
        wait_until(lambda: any(c["topic"] == remote_topic
                               for c in self.checkpoints(self.b, self.primary)),
                   timeout=30, interval=0.5, what=f"checkpoints for {remote_topic}")
        self.assert_monotonic_checkpoints(self.b, self.primary)

        for syncs_topic in (f"mm2-offset-syncs.{self.primary}.internal",
                            f"mm2-offset-syncs.{self.backup}.internal"):
            self.assertEqual(self.offset_syncs(self.a, syncs_topic), [],
                             f"offset syncs of this flow in {syncs_topic} on primary")

    # ---- 7 --------------------------------------------------------------------------------------

    def test_no_checkpoints_if_no_records_are_mirrored(self):
        """testNoCheckpointsIfNoRecordsAreMirrored: no sync, no checkpoint (KAFKA-12635)."""
        group = self.name("consumer-group-no-checkpoints")
        produce(self.a, self.topic1, RECORDS, PARTITIONS)
        self.commit_start(self.a, group, self.topic1)

        self.start_flow(self.primary, self.backup)
        self.wait_topic(self.b, self.remote(self.primary, self.topic1))
        self.wait_topic(self.b, self.remote(self.primary, self.no_checkpoints))

        tp1 = (self.remote(self.primary, self.topic1), 0)
        tp2 = (self.remote(self.primary, self.no_checkpoints), 0)

        def commit_end_offsets():
            commit(self.a, group, self.topic1, {0: end_offsets(self.a, self.topic1)[0]})
            commit(self.a, group, self.no_checkpoints,
                   {0: end_offsets(self.a, self.no_checkpoints)[0]})

        def translated():
            return self.remote_consumer_offsets(self.b, self.primary, group)

        commit_end_offsets()
        wait_until(lambda: tp1 in translated() and tp2 not in translated(), timeout=30,
                   interval=0.5, what="a checkpoint for the mirrored partition only")
        time.sleep(3)  # three more checkpoint intervals: still none for the empty partition
        self.assertNotIn(tp2, translated())

        produce(self.a, self.no_checkpoints, RECORDS, 1)
        commit_end_offsets()
        wait_until(lambda: tp1 in translated() and tp2 in translated(), timeout=30,
                   interval=0.5, what="checkpoints for both partitions")

    # ---- 8 --------------------------------------------------------------------------------------

    def test_restart_replication(self):
        """testRestartReplication: restart every connector and task; checkpoints stay monotonic
        and the second batch syncs too."""
        group = self.name("consumer-group-restart")
        remote_topic = self.remote(self.primary, self.topic1)
        self.commit_start(self.a, group, self.topic1)
        worker = self.start_flow(self.primary, self.backup, **{
            "sync.group.offsets.enabled": "true", "sync.group.offsets.interval.seconds": "1",
            "offset.lag.max": str(OFFSET_LAG_MAX)})
        produce(self.a, self.topic1, RECORDS, PARTITIONS)
        self.assertEqual(len(group_consume(self.a, group, [self.topic1], RECORDS)), RECORDS)
        self.wait_consumer_group_full_sync(self.b, [remote_topic], group, RECORDS, OFFSET_LAG_MAX)

        for connector in ALL_CONNECTORS:
            name = f"{connector}-{self.uid}"
            status, body, _ = worker.post(
                f"/connectors/{name}/restart?includeTasks=true&onlyFailed=false")
            self.assertIn(status, (202, 204), f"restarting {name}: {body}")
        for connector in ALL_CONNECTORS:
            self.wait_running(worker, f"{connector}-{self.uid}")
        self.assert_monotonic_checkpoints(self.b, self.primary)
        time.sleep(5)

        produce(self.a, self.topic1, RECORDS, PARTITIONS)
        self.assertEqual(len(group_consume(self.a, group, [self.topic1], RECORDS)), RECORDS)
        self.wait_consumer_group_full_sync(self.b, [remote_topic], group, 2 * RECORDS,
                                           OFFSET_LAG_MAX)
        self.assert_monotonic_checkpoints(self.b, self.primary)

    # ---- 9 --------------------------------------------------------------------------------------

    def test_offset_translation_behind_replication_flow(self):
        """testOffsetTranslationBehindReplicationFlow: 10,000 records in one lifetime; the group
        moves to 90 % (checkpoints advance), then back to 10 % (checkpoints rewind)."""
        group = self.name("consumer-group-lagging-behind")
        remote_topic = self.remote(self.primary, self.topic1)
        self.commit_start(self.a, group, self.topic1)
        self.start_flow(self.primary, self.backup, **{
            "sync.group.offsets.enabled": "true", "sync.group.offsets.interval.seconds": "1",
            "offset.lag.max": str(OFFSET_LAG_MAX)})
        produce(self.a, self.topic1, RECORDS, PARTITIONS)
        self.assertEqual(len(group_consume(self.a, group, [self.topic1], RECORDS)), RECORDS)
        initial = self.wait_checkpoints_on_all_partitions(self.b, self.primary, group,
                                                          remote_topic)

        iterations = 100
        tool("produce-from", self.a, self.topic1, RECORDS, (iterations - 1) * RECORDS, PARTITIONS)
        self.wait_count(self.b, remote_topic, iterations * RECORDS, timeout=60)
        by_partition = {}
        for r in dump(self.a, self.topic1):
            by_partition.setdefault(r["partition"], []).append(r["offset"])

        def partial_offsets(fraction):
            return {p: sorted(offs)[int(len(offs) * fraction)] for p, offs in by_partition.items()}

        # Java's test relies on the offset syncs of the copy being written before the group
        # moves: wait until each partition's newest record has its sync, so that translation
        # sees them (connectd queues every due sync and sends them right after the copy).
        last = {p: max(offs) for p, offs in by_partition.items()}
        wait_until(lambda: all(
            any(t == self.topic1 and p == part and up >= last[p]
                for t, p, up, _ in self.offset_syncs(self.a, f"mm2-offset-syncs.{self.backup}.internal"))
            for part in last), timeout=30, interval=0.5, what="offset syncs of the whole copy")

        commit(self.a, group, self.topic1, partial_offsets(0.9))
        partial = self.wait_checkpoints_on_all_partitions(self.b, self.primary, group,
                                                          remote_topic, previous=initial,
                                                          upstream=partial_offsets(0.9))
        for tp in initial:
            self.assertLess(initial[tp], partial[tp],
                            "checkpoints should advance when the upstream group advances")
        self.assert_monotonic_checkpoints(self.b, self.primary)

        commit(self.a, group, self.topic1, partial_offsets(0.1))
        final = self.wait_checkpoints_on_all_partitions(self.b, self.primary, group,
                                                        remote_topic, previous=partial,
                                                        upstream=partial_offsets(0.1))
        for tp in partial:
            self.assertLess(final[tp], partial[tp],
                            "checkpoints should rewind when the upstream group rewinds")

    # ---- 13 -------------------------------------------------------------------------------------

    def test_replicate_from_latest(self):
        """testReplicateFromLatest: source consumer auto.offset.reset=latest copies only the
        records produced after the task started."""
        produce(self.a, self.topic1, RECORDS, PARTITIONS, now_ms() - 600_000)
        self.start_flow(self.primary, self.backup, **{"source.consumer.auto.offset.reset": "latest"})
        backup_topic = self.remote(self.primary, self.topic1)
        self.wait_topic(self.b, backup_topic)
        time.sleep(3)  # the task's consumer has resolved "latest" on every partition
        second_batch = now_ms()
        produce(self.a, self.topic1, RECORDS, PARTITIONS, second_batch)

        self.wait_count(self.b, backup_topic, RECORDS)
        replicated = dump(self.b, backup_topic)
        counts = {}
        for r in replicated:
            counts[r["partition"]] = counts.get(r["partition"], 0) + 1
            self.assertGreaterEqual(r["timestamp"], second_batch, f"an old record came: {r}")
        self.assertEqual(counts, {p: PER_PARTITION for p in range(PARTITIONS)})


class IdentityReplicationScenariosTest(MirrorScenarioBase):
    """IdentityReplicationIntegrationTest: one-way A->B with
    IdentityReplicationPolicy, `topics=test-topic-.*`; remote topics keep their names, the
    group's offsets are translated and synced, heartbeats and checkpoints keep their prefix."""

    def setUp(self):
        super().setUp()
        self.primary, self.backup = "A", "B"

    bootstrap = MirrorConnectorsScenariosTest.bootstrap
    start_flow = MirrorConnectorsScenariosTest.start_flow

    def mm2_config(self, source, target, **overrides):
        config = MirrorConnectorsScenariosTest.mm2_config(self, source, target, **overrides)
        config["replication.policy.class"] = "org.apache.kafka.connect.mirror.IdentityReplicationPolicy"
        config["topics"] = f"test-topic-.*-{self.uid}"
        return config

    def remote(self, alias, topic):
        return topic

    def test_identity_one_way_replication_with_group_offset_sync(self):
        topic = self.name("test-topic-identity")
        tool("create", self.a, topic, PARTITIONS)
        produce(self.a, topic, RECORDS, PARTITIONS)
        group = self.name("consumer-group-identity")
        self.assertEqual(len(group_consume(self.a, group, [topic], RECORDS)), RECORDS)

        self.start_flow(self.primary, self.backup, **{
            "sync.group.offsets.enabled": "true", "sync.group.offsets.interval.seconds": "1",
            "offset.lag.max": str(OFFSET_LAG_MAX)})
        self.wait_topic(self.b, topic)
        self.assertNotIn(f"{self.primary}.{topic}", topics(self.b, self.uid),
                         "identity replication must not prefix the remote topic")
        self.wait_consumer_group_full_sync(self.b, [topic], group, RECORDS, OFFSET_LAG_MAX)
        self.assert_downstream_redeliveries_bounded_by_max_lag(self.b, group, [topic],
                                                               OFFSET_LAG_MAX)
        self.assert_monotonic_checkpoints(self.b, self.primary)
        # Heartbeats keep the source prefix under the identity policy, as in Java.
        wait_until(lambda: int(tool("count", self.b, f"{self.primary}.heartbeats")) > 0,
                   timeout=30, what="heartbeats replicated to B as A.heartbeats")


class TransactionalSourceScenariosTest(MirrorScenarioBase):
    """MirrorConnectorsIntegrationTransactionsTest: the source data is written
    in transactions, so every partition's offsets have gaps (commit markers); records still all
    arrive, offsets still translate, and a consumer failing over re-reads a bounded number."""

    def setUp(self):
        super().setUp()
        self.primary, self.backup = "A", "B"

    bootstrap = MirrorConnectorsScenariosTest.bootstrap
    start_flow = MirrorConnectorsScenariosTest.start_flow
    mm2_config = MirrorConnectorsScenariosTest.mm2_config
    remote = MirrorConnectorsScenariosTest.remote

    def test_transactional_source_one_way_replication_with_group_offset_sync(self):
        topic = self.name("test-topic-tx")
        tool("create", self.a, topic, PARTITIONS)
        tool("produce-tx", self.a, topic, RECORDS, PARTITIONS)
        ends = end_offsets(self.a, topic)
        self.assertEqual(ends, {p: 2 * PER_PARTITION for p in range(PARTITIONS)},
                         "one marker after each record")
        group = self.name("consumer-group-tx")
        self.assertEqual(len(group_consume(self.a, group, [topic], RECORDS)), RECORDS)

        self.start_flow(self.primary, self.backup, **{
            "sync.group.offsets.enabled": "true", "sync.group.offsets.interval.seconds": "1",
            "offset.lag.max": str(OFFSET_LAG_MAX)})
        remote_topic = self.remote(self.primary, topic)
        self.wait_topic(self.b, remote_topic)
        self.wait_count(self.b, remote_topic, RECORDS)
        copied = dump(self.b, remote_topic)
        self.assertEqual(sorted(r["value"] for r in copied),
                         sorted(f"v{i}" for i in range(RECORDS)), "every committed record")
        self.wait_consumer_group_full_sync(self.b, [remote_topic], group, RECORDS, OFFSET_LAG_MAX)
        self.assert_downstream_redeliveries_bounded_by_max_lag(self.b, group, [remote_topic],
                                                               OFFSET_LAG_MAX)
        self.assert_monotonic_checkpoints(self.b, self.primary)


class MirrorAcceptanceTest(MirrorScenarioBase):
    """The MirrorMaker issue's acceptance test: flow A->B with aliases A and B."""

    def test_orders_payments_heartbeats_checkpoints_and_failover(self):
        orders, payments = self.name("orders"), self.name("payments")
        group = self.name("orders-app")
        lag = OFFSET_LAG_MAX
        tool("create", self.a, orders, 12)
        tool("create", self.a, payments, 3)
        base = now_ms() - 60_000
        produce(self.a, orders, 1200, 12, base)
        produce(self.a, payments, 30, 3, base + 10_000)
        # The application has read every order on A.
        self.assertEqual(len(group_consume(self.a, group, [orders], 1200)), 1200)

        common = {"source.cluster.alias": "A", "target.cluster.alias": "B",
                  "source.cluster.bootstrap.servers": self.a,
                  "target.cluster.bootstrap.servers": self.b,
                  "topics": f"{orders},{payments}", "groups": group,
                  "replication.factor": "1", "offset-syncs.topic.replication.factor": "1",
                  "checkpoints.topic.replication.factor": "1",
                  "heartbeats.topic.replication.factor": "1", "sync.topic.acls.enabled": "false",
                  "refresh.topics.interval.seconds": "1", "refresh.groups.interval.seconds": "1",
                  "emit.checkpoints.interval.seconds": "1",
                  "emit.heartbeats.interval.seconds": "1", "offset.lag.max": str(lag)}
        self.start_worker(self.b, {
            f"mm2-source-{self.uid}": dict(common, **{
                "connector.class": "org.apache.kafka.connect.mirror.MirrorSourceConnector",
                "tasks.max": "4"}),
            f"mm2-checkpoint-{self.uid}": dict(common, **{"connector.class": "MirrorCheckpoint"}),
            f"mm2-heartbeat-{self.uid}": dict(common, **{"connector.class": "MirrorHeartbeat"})})

        # Same topics and partitions.
        wait_until(lambda: partitions(self.b, f"A.{orders}") == 12, timeout=30, what="A.orders")
        self.assertEqual(partitions(self.b, f"A.{payments}"), 3)

        # Every record intact: same partition, order, key, value, headers and timestamp.
        for topic, count in ((orders, 1200), (payments, 30)):
            self.wait_count(self.b, f"A.{topic}", count)
            source, target = dump(self.a, topic), dump(self.b, f"A.{topic}")
            self.assertEqual(len(target), count)
            fields = ("partition", "key_hex", "value_hex", "headers", "timestamp")

            def per_partition(records):
                out = {}
                for r in sorted(records, key=lambda r: (r["partition"], r["offset"])):
                    out.setdefault(r["partition"], []).append(tuple(
                        json.dumps(r[f]) for f in fields))
                return out
            expected, got = per_partition(source), per_partition(target)
            for p in expected:
                for i, (want, have) in enumerate(zip(expected[p], got.get(p, []))):
                    self.assertEqual(have, want, f"A.{topic} partition {p}, record {i}")
                self.assertEqual(len(got.get(p, [])), len(expected[p]), f"A.{topic}-{p}")

        # Heartbeats: one a second into `heartbeats` on A, followed by A.heartbeats on B.
        window_start = now_ms()
        time.sleep(6)
        window_end = now_ms()

        def beats(bootstrap, topic):
            return [(h["timestamp"], r["value_hex"]) for r in dump(bootstrap, topic)
                    for h in [decode_heartbeat(r)]
                    if (h["source"], h["target"]) == ("A", "B")
                    and window_start <= h["timestamp"] <= window_end]
        on_a = sorted(beats(self.a, "heartbeats"))
        self.assertGreaterEqual(len(on_a), 5, f"heartbeats on A in 6 s: {on_a}")
        gaps = [b[0] - a[0] for a, b in zip(on_a, on_a[1:])]
        self.assertLessEqual(max(gaps), 2000, f"heartbeat gaps (ms): {gaps}")
        wait_until(lambda: set(on_a) <= set(beats(self.b, "A.heartbeats")), timeout=20,
                   interval=0.5, what="A's heartbeats in A.heartbeats on B")

        # Checkpoints for the group on B, then failover: re-read < offset.lag.max per partition.
        translated = self.wait_checkpoints_on_all_partitions(self.b, "A", group, f"A.{orders}",
                                                             count=12)
        on_b = {}
        for r in sorted(dump(self.b, f"A.{orders}"), key=lambda r: r["offset"]):
            on_b.setdefault(r["partition"], []).append(r["key"])
        reread = {}
        for r in read_from(self.b, translated, group):
            reread.setdefault(r["partition"], []).append(r["key"])
        for p in range(12):
            keys = reread.get(p, [])
            self.assertLess(len(keys), lag, f"A.{orders}-{p} re-reads {len(keys)} records")
            self.assertEqual(keys, on_b[p][len(on_b[p]) - len(keys):],
                             f"A.{orders}-{p}: the re-read records are the partition's last")
        ends = end_offsets(self.b, f"A.{orders}")
        self.assertEqual(committed(self.b, group),
                         {(f"A.{orders}", p): ends[p] for p in range(12)},
                         "the failed-over consumer's group is at the end on B")


if __name__ == "__main__":
    unittest.main(verbosity=2)
