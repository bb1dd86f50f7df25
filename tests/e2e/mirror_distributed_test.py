"""End to end: MirrorMaker 2's connectors on a connectd DISTRIBUTED cluster (issue #6, first
"Done when" item, on `connectd distributed` instead of `connectd standalone`), then a kill -9
of a worker that runs MirrorSource tasks while records flow.

Clusters: A = ctest-a (the source, alias A), B = ctest-b (the target, alias B). Two
`connectd distributed` workers form one Connect group whose internal topics live on B, as MM2's
Connect cluster normally runs against its target; their producers write to B. MirrorSource
(tasks.max 4), MirrorCheckpoint (two groups, tasks.max 2) and MirrorHeartbeat are created
through REST with curl, each through a different worker than the one before (a follower
forwards to the leader), with the A/B client settings in the connector configs.

test_1 (the Done-when, on the distributed cluster):
- tasks spread over both workers, MirrorSource tasks on both;
- `orders` (12 partitions) and `payments` (3) on A appear on B as `A.orders`, `A.payments` with
  the same partition counts; their topic configs (A's dynamic overrides) are on B, and a
  config changed on A afterwards follows;
- every record arrives with key, value, headers, timestamp, partition and order intact,
  compared record by record with A;
- `heartbeats` on A gets a record (A, B) every second, `A.heartbeats` on B follows;
- both consumer groups of A get checkpoints on B for every partition, and a consumer that fails
  over to B with the translated offsets re-reads fewer than `offset.lag.max` records per
  partition (the partition's last records), checkpoints monotonic;
- replication latency: produce-acked on A -> visible on B, for small probes (printed).

test_2 (failover): a producer keeps writing `orders` on A; the worker that runs the most
MirrorSource tasks (ties: the one with the heartbeat task) is killed with SIGKILL. Printed:
failover_seconds (kill -> its tasks RUNNING on the survivor, per the survivor's REST) and
replication_resumed_seconds (kill -> every A.orders partition the dead worker copied grows
again on B). Then: all tasks RUNNING on the survivor; no record lost on B (each partition of
A.orders on B is A's partition, possibly with one replayed run of records since the last
committed source offset: duplicates allowed, nothing missing, nothing out of order, every field
intact); heartbeats resume on A and reach B; the group's checkpoints follow the new records and
a failed-over consumer still re-reads fewer than `offset.lag.max` records per partition.

Topics carry a uid; this test's topics on A and B and the Connect cluster's internal topics on
B are deleted at the end (the shared `heartbeats`, `A.heartbeats`, `A.checkpoints.internal` and
`mm2-offset-syncs.B.internal` stay: other flows between the clusters use them).

Run, from tests/e2e:
    CONNECTD_RUN_DIR=/tmp/connectd-shared-run python3 -m unittest -v mirror_distributed_test
"""
import collections
import json
import statistics
import subprocess
import sys
import threading
import time
import unittest
import uuid

from connectd_e2e import kafka_bootstrap, wait_until
from distributed_cluster import TOOL, WorkerCluster, tool
from mirror_scenarios_test import (committed, decode_checkpoint, decode_heartbeat, dump,
                                   end_offsets, group_consume, json_lines, now_ms, partitions,
                                   produce, read_from, topics)

BYTE_ARRAY = "org.apache.kafka.connect.converters.ByteArrayConverter"
SOURCE_CLASS = "org.apache.kafka.connect.mirror.MirrorSourceConnector"
CHECKPOINT_CLASS = "org.apache.kafka.connect.mirror.MirrorCheckpointConnector"
HEARTBEAT_CLASS = "org.apache.kafka.connect.mirror.MirrorHeartbeatConnector"
OFFSET_LAG_MAX = 10
SOURCE_TASKS, CHECKPOINT_TASKS = 4, 2
ORDERS_PARTITIONS, PAYMENTS_PARTITIONS = 12, 3
ORDERS_RECORDS, PAYMENTS_RECORDS = 1200, 30
# kill -9 -> the dead worker's tasks RUNNING elsewhere, at connectd's default session.timeout.ms
# (6 s) and scheduled.rebalance.max.delay.ms (3 s): issue #5's goal, as distributed_test.py.
FAILOVER_BOUND_SECONDS = 15.0
# Fields that must arrive unchanged (offsets differ: B's topics start at 0 too, but replays
# after a failover shift them).
FIELDS = ("partition", "key_hex", "value_hex", "headers", "timestamp")


def curl(method, url, body=None):
    """(status, parsed JSON or None, text) of `curl -X method url` (what the issue says a user
    runs)."""
    cmd = ["curl", "-sS", "-X", method, "-w", "\n%{http_code}", url]
    if body is not None:
        cmd += ["-H", "Content-Type: application/json", "--data-binary", json.dumps(body)]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        raise AssertionError(f"curl {method} {url}: {out.stderr}")
    text, _, code = out.stdout.rpartition("\n")
    try:
        parsed = json.loads(text) if text else None
    except ValueError:
        parsed = None
    return int(code), parsed, text


def dynamic_configs(bootstrap, topic):
    """A topic's dynamic overrides {name: value} ({} while the topic does not exist)."""
    out = subprocess.run([TOOL, "describe-configs", bootstrap, topic],
                         capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        return {}
    return {e["name"]: e["value"] for e in json_lines(out.stdout)
            if e["source"] == "DYNAMIC_TOPIC_CONFIG"}


def by_partition(records):
    """{partition: [record as a tuple of FIELDS (JSON text)]} in offset order."""
    out = collections.defaultdict(list)
    for r in sorted(records, key=lambda r: (r["partition"], r["offset"])):
        out[r["partition"]].append(tuple(json.dumps(r[f]) for f in FIELDS))
    return out


def replay_shape(source, copy):
    """How `copy` (one partition on B) relates to `source` (the same partition on A): returns
    (duplicates, problem). Allowed: copy == source[:j] + source[i:] with i <= j, i.e. one run of
    records copied twice (a task resuming from the last committed offset); problem is None then,
    else it says what is wrong (a missing, changed or reordered record)."""
    k = 0
    while k < len(copy) and k < len(source) and copy[k] == source[k]:
        k += 1
    if k == len(copy):
        return 0, None if k == len(source) else f"{len(source) - k} records missing at the end"
    # copy[k] differs from source[k]: it must restart an earlier record and continue from it.
    try:
        i = source.index(copy[k])
    except ValueError:
        return 0, f"record {k} on B is not on A: {copy[k]}"
    if i >= k:
        return 0, f"record {k} on B skips to A's record {i}: {i - k} records lost"
    rest = copy[k:]
    if rest != source[i:i + len(rest)]:
        bad = next(n for n, (x, y) in enumerate(zip(rest, source[i:])) if x != y) \
            if any(x != y for x, y in zip(rest, source[i:])) else min(len(rest), len(source) - i)
        return k - i, f"after the replay from A's offset {i}, B's record {k + bad} differs"
    if i + len(rest) != len(source):
        return k - i, f"{len(source) - i - len(rest)} records missing at the end"
    return k - i, None


class MirrorDistributedTest(unittest.TestCase):
    """One connectd distributed cluster for both tests (test_2 kills one of its workers)."""

    @classmethod
    def setUpClass(cls):
        cls.t_class = time.time()
        cls.a = kafka_bootstrap("ctest-a")
        cls.b = kafka_bootstrap("ctest-b")
        cls.uid = uuid.uuid4().hex[:8]
        cls.orders, cls.payments = f"orders-{cls.uid}", f"payments-{cls.uid}"
        cls.orders_group, cls.payments_group = f"orders-app-{cls.uid}", f"payments-app-{cls.uid}"
        cls.source, cls.checkpoint, cls.heartbeat = (f"mm2-source-{cls.uid}",
                                                     f"mm2-checkpoint-{cls.uid}",
                                                     f"mm2-heartbeat-{cls.uid}")
        tool("create", cls.a, cls.orders, ORDERS_PARTITIONS, "retention.ms=86400000",
             "max.message.bytes=2000000")
        tool("create", cls.a, cls.payments, PAYMENTS_PARTITIONS, "cleanup.policy=compact",
             "min.compaction.lag.ms=60000")
        cls.base = now_ms() - 60_000
        produce(cls.a, cls.orders, ORDERS_RECORDS, ORDERS_PARTITIONS, cls.base)
        produce(cls.a, cls.payments, PAYMENTS_RECORDS, PAYMENTS_PARTITIONS, cls.base + 10_000)
        # The applications have read everything on A before MirrorMaker starts.
        assert len(group_consume(cls.a, cls.orders_group, [cls.orders], ORDERS_RECORDS)) == \
            ORDERS_RECORDS
        assert len(group_consume(cls.a, cls.payments_group, [cls.payments],
                                 PAYMENTS_RECORDS)) == PAYMENTS_RECORDS

        cls.cluster = WorkerCluster(
            ["connectd", "connectd"], name=f"mm2-dist-{cls.uid}", bootstrap=cls.b,
            props={"key.converter": BYTE_ARRAY, "value.converter": BYTE_ARRAY,
                   "header.converter": BYTE_ARRAY, "offset.flush.interval.ms": "1000"})
        try:
            cls.cluster.start(timeout=60)
            cls.create_connectors()
        except BaseException:
            print(cls.cluster.tails(), file=sys.stderr)
            cls.shut_down()
            raise
        print(f"\n{cls.__name__}: 2 connectd workers, 3 connectors RUNNING after "
              f"{time.time() - cls.t_class:.1f}s; logs in {cls.cluster.workdir}", file=sys.stderr)

    @classmethod
    def connector_configs(cls):
        common = {"source.cluster.alias": "A", "target.cluster.alias": "B",
                  "source.cluster.bootstrap.servers": cls.a,
                  "target.cluster.bootstrap.servers": cls.b,
                  "topics": f"{cls.orders},{cls.payments}",
                  "groups": f"{cls.orders_group},{cls.payments_group}",
                  "replication.factor": "1", "offset-syncs.topic.replication.factor": "1",
                  "checkpoints.topic.replication.factor": "1",
                  "heartbeats.topic.replication.factor": "1", "sync.topic.acls.enabled": "false",
                  "sync.topic.configs.interval.seconds": "1",
                  "refresh.topics.interval.seconds": "1", "refresh.groups.interval.seconds": "1",
                  "emit.checkpoints.interval.seconds": "1",
                  "emit.heartbeats.interval.seconds": "1",
                  "offset.lag.max": str(OFFSET_LAG_MAX)}
        return {cls.source: dict(common, **{"connector.class": SOURCE_CLASS,
                                            "tasks.max": str(SOURCE_TASKS)}),
                cls.checkpoint: dict(common, **{"connector.class": CHECKPOINT_CLASS,
                                                "tasks.max": str(CHECKPOINT_TASKS)}),
                cls.heartbeat: dict(common, **{"connector.class": HEARTBEAT_CLASS})}

    @classmethod
    def create_connectors(cls):
        """POST /connectors with curl, alternating between the workers."""
        for i, (name, config) in enumerate(cls.connector_configs().items()):
            worker = cls.cluster[i % 2]
            code, body, text = curl("POST", worker.url + "/connectors",
                                    {"name": name, "config": config})
            if code != 201 or body.get("name") != name:
                raise AssertionError(f"POST /connectors {name} on {worker}: {code} {text}")
        # MirrorSource replicates A's `heartbeats` whatever its topic filter; on a fresh cluster
        # that topic appears only once MirrorHeartbeat has created it, and MirrorSource's next
        # refresh reconfigures its tasks (stopped, reassigned, started again). Wait for that.
        def heartbeats_assigned():
            code, tasks, _ = cls.cluster.any().get(f"/connectors/{cls.source}/tasks")
            return code == 200 and any("heartbeats-0" in t["config"].get(
                "task.assigned.partitions", "").split(",") for t in tasks)
        wait_until(heartbeats_assigned, timeout=30, interval=0.25,
                   what="A's heartbeats-0 in MirrorSource's task configs")
        for name, tasks in ((cls.source, SOURCE_TASKS), (cls.checkpoint, CHECKPOINT_TASKS),
                            (cls.heartbeat, 1)):
            cls.cluster.wait_running(name, tasks, timeout=60)

    @classmethod
    def shut_down(cls):
        codes = {}
        if getattr(cls, "cluster", None):
            alive = cls.cluster.alive_workers()
            cls.cluster.stop()
            codes = {w.index: w.proc.returncode for w in alive}
            cls.cluster.close()
        for bootstrap in (cls.a, cls.b):
            mine = sorted(topics(bootstrap, cls.uid))
            if mine:
                tool("delete", bootstrap, *mine)
        print(f"{cls.__name__}: exit codes after SIGTERM {codes}; "
              f"wall_seconds={time.time() - cls.t_class:.1f}", file=sys.stderr)
        return codes

    @classmethod
    def tearDownClass(cls):
        codes = cls.shut_down()
        bad = {i: code for i, code in codes.items() if code != 0}
        if bad:
            raise AssertionError(f"workers did not stop cleanly on SIGTERM: {bad}")

    def run(self, result=None):
        """Prints the workers' log tails when a test fails."""
        failures = len(result.failures) + len(result.errors) if result else 0
        out = super().run(result)
        if result and len(result.failures) + len(result.errors) > failures:
            print(self.cluster.tails(80), file=sys.stderr)
        return out

    # ---- helpers ------------------------------------------------------------------------------

    def owners(self, name, worker=None):
        return self.cluster.task_owners(name, worker)

    def checkpoints(self, group):
        return [c for c in map(decode_checkpoint, dump(self.b, "A.checkpoints.internal"))
                if c["group"] == group]

    def translated(self, group, upstream_topic, topic, count, timeout=30):
        """Waits until `group`'s newest checkpoint on every partition of `topic` (on B) is for
        the group's committed offset on A (of `upstream_topic`), and returns
        {(topic, partition): downstream offset}."""
        on_a = {p: o for (t, p), o in committed(self.a, group).items() if t == upstream_topic}
        wanted = {(topic, p) for p in range(count)}

        def complete():
            newest = {(c["topic"], c["partition"]): c for c in self.checkpoints(group)}
            if not wanted <= newest.keys() or any(
                    newest[(topic, p)]["upstream"] != on_a.get(p) for p in range(count)):
                return None
            return {tp: newest[tp]["downstream"] for tp in wanted}
        return wait_until(complete, timeout=timeout, interval=0.5,
                          what=f"checkpoints of {group} at its offsets on A {on_a} for every "
                               f"partition of {topic}")

    def assert_failover_consumer(self, group, upstream_topic, count):
        """A consumer of `group` that fails over to B at the translated offsets re-reads fewer
        than offset.lag.max records per partition, and those are the partition's last ones."""
        topic = f"A.{upstream_topic}"
        translated = self.translated(group, upstream_topic, topic, count)
        on_b = collections.defaultdict(list)
        for r in dump(self.b, topic):
            on_b[r["partition"]].append((r["offset"], r["key"]))
        reread = collections.defaultdict(list)
        for r in read_from(self.b, translated, group):
            reread[r["partition"]].append(r["key"])
        counts = {p: len(reread.get(p, [])) for p in range(count)}
        print(f"{topic}: failed-over consumer re-reads per partition {counts} "
              f"(offset.lag.max={OFFSET_LAG_MAX})")
        for p in range(count):
            keys = reread.get(p, [])
            self.assertLess(len(keys), OFFSET_LAG_MAX, f"{topic}-{p} re-reads {len(keys)}")
            tail = [k for _, k in sorted(on_b[p])]
            self.assertEqual(keys, tail[len(tail) - len(keys):],
                             f"{topic}-{p}: the re-read records are the partition's last")
        ends = end_offsets(self.b, topic)
        self.assertEqual({tp: o for tp, o in committed(self.b, group).items() if tp[0] == topic},
                         {(topic, p): ends[p] for p in range(count)},
                         "the failed-over consumer's group is at the end on B")
        return translated

    def assert_monotonic_checkpoints(self, group):
        last = {}
        for c in self.checkpoints(group):
            self.assertEqual(c["version"], 0)
            key = (c["topic"], c["partition"])
            if key in last:
                self.assertGreaterEqual(c["downstream"], last[key],
                                        f"checkpoint went backwards for {group} {key}")
            last[key] = c["downstream"]

    def heartbeats(self, bootstrap, topic, since, until=None):
        """(timestamp, value hex) of the (A, B) heartbeats in `topic` in [since, until]."""
        until = until or now_ms() + 60_000
        return sorted((h["timestamp"], r["value_hex"]) for r in dump(bootstrap, topic)
                      for h in [decode_heartbeat(r)]
                      if (h["source"], h["target"]) == ("A", "B")
                      and since <= h["timestamp"] <= until)

    # ---- 1 --------------------------------------------------------------------------------------

    def test_1_done_when_on_a_distributed_cluster(self):
        c = self.cluster
        workers = {w.worker_id for w in c}
        # Tasks spread over both workers, MirrorSource's on both.
        wait_until(lambda: set(self.owners(self.source).values()) == workers, timeout=30,
                   interval=0.25, what="MirrorSource tasks RUNNING on both workers")
        source_owners = self.owners(self.source)
        all_owners = {(n, t): w for n in (self.source, self.checkpoint, self.heartbeat)
                      for t, w in self.owners(n).items()}
        per_worker = collections.Counter(all_owners.values())
        print(f"tasks per worker: {dict(per_worker)}; MirrorSource tasks: {source_owners}")
        self.assertEqual(len(all_owners), SOURCE_TASKS + CHECKPOINT_TASKS + 1)
        self.assertEqual(set(per_worker), workers, "tasks on both workers")
        # Every worker answers the same status.
        for w in c:
            self.assertEqual(self.owners(self.source, w), source_owners, f"status on {w}")

        # Same topics and partitions on B.
        remote_orders, remote_payments = f"A.{self.orders}", f"A.{self.payments}"
        wait_until(lambda: partitions(self.b, remote_orders) == ORDERS_PARTITIONS, timeout=30,
                   interval=0.2, what=remote_orders)
        self.assertEqual(partitions(self.b, remote_payments), PAYMENTS_PARTITIONS)

        # Synced configs: A's overrides are on B; a change on A follows.
        for topic in (self.orders, self.payments):
            on_a = dynamic_configs(self.a, topic)
            self.assertTrue(on_a, f"{topic} has overrides on A")
            wait_until(lambda: dynamic_configs(self.b, f"A.{topic}").items() >= on_a.items(),
                       timeout=20, interval=0.5, what=f"A's configs of {topic} on B: {on_a}")
        tool("alter-configs", self.a, self.orders, "retention.ms=172800000")
        t_alter = time.time()
        wait_until(lambda: dynamic_configs(self.b, remote_orders).get("retention.ms")
                   == "172800000", timeout=20, interval=0.25, what="retention.ms change on B")
        print(f"config change on A synced to B after {time.time() - t_alter:.1f}s; "
              f"A.{self.orders} overrides on B: {dynamic_configs(self.b, remote_orders)}")

        # Every record intact: same partition, order, key, value, headers and timestamp.
        for topic, count in ((self.orders, ORDERS_RECORDS), (self.payments, PAYMENTS_RECORDS)):
            wait_until(lambda: int(tool("count", self.b, f"A.{topic}")) >= count, timeout=60,
                       interval=0.25, what=f"{count} records in A.{topic}")
            source = by_partition(dump(self.a, topic))
            copy = by_partition(dump(self.b, f"A.{topic}"))
            self.assertEqual(sum(map(len, source.values())), count)
            for p, records in source.items():
                for i, (want, have) in enumerate(zip(records, copy.get(p, []))):
                    self.assertEqual(have, want, f"A.{topic} partition {p}, record {i}")
                self.assertEqual(len(copy.get(p, [])), len(records), f"A.{topic}-{p}: count")
            self.assertEqual(set(copy), set(source))
            print(f"A.{topic}: {count} records identical to A's, record by record")

        # Heartbeats: one a second into `heartbeats` on A, followed by A.heartbeats on B.
        window_start = now_ms()
        time.sleep(6)
        window_end = now_ms()
        on_a = self.heartbeats(self.a, "heartbeats", window_start, window_end)
        self.assertGreaterEqual(len(on_a), 5, f"heartbeats on A in 6 s: {on_a}")
        gaps = [y[0] - x[0] for x, y in zip(on_a, on_a[1:])]
        self.assertLessEqual(max(gaps), 2000, f"heartbeat gaps (ms): {gaps}")
        wait_until(lambda: set(on_a) <= set(self.heartbeats(self.b, "A.heartbeats",
                                                             window_start, window_end)),
                   timeout=20, interval=0.5, what="A's heartbeats in A.heartbeats on B")
        print(f"heartbeats: {len(on_a)} on A in 6 s, gaps {gaps} ms, all in A.heartbeats on B")

        # Checkpoints for both groups on B; failover consumers re-read < offset.lag.max.
        for group, topic, count in ((self.orders_group, self.orders, ORDERS_PARTITIONS),
                                    (self.payments_group, self.payments, PAYMENTS_PARTITIONS)):
            self.assert_failover_consumer(group, topic, count)
            self.assert_monotonic_checkpoints(group)

        # Replication latency of small probes: produce acked on A -> visible on B.
        latencies = []
        first = ORDERS_RECORDS
        for _ in range(5):
            before = sum(end_offsets(self.b, remote_orders).values())
            tool("produce-from", self.a, self.orders, first, ORDERS_PARTITIONS, ORDERS_PARTITIONS)
            acked = time.time()
            first += ORDERS_PARTITIONS
            wait_until(lambda: sum(end_offsets(self.b, remote_orders).values())
                       >= before + ORDERS_PARTITIONS, timeout=10, interval=0.02,
                       what="the probe on B")
            latencies.append(time.time() - acked)
            time.sleep(0.3)
        print(f"replication_latency_ms (produce acked on A -> all 12 visible on B, polled): "
              f"median {statistics.median(latencies) * 1000:.0f}, "
              f"max {max(latencies) * 1000:.0f} ({[round(x * 1000) for x in latencies]})")
        self.assertLess(max(latencies), 5.0)
        type(self).next_key = first

    # ---- 2 --------------------------------------------------------------------------------------

    def test_2_kill9_mid_flow_no_record_lost(self):
        c = self.cluster
        remote_orders = f"A.{self.orders}"
        source_owners = self.owners(self.source)
        heartbeat_owner = self.owners(self.heartbeat).get(0)
        per_worker = collections.Counter(source_owners.values())
        victim = max(c.alive_workers(), key=lambda w: (per_worker[w.worker_id],
                                                       w.worker_id == heartbeat_owner))
        survivor = next(w for w in c.alive_workers() if w is not victim)
        self.assertGreater(per_worker[victim.worker_id], 0)
        lost_tasks = sorted(t for t, w in source_owners.items() if w == victim.worker_id)
        code, task_configs, text = victim.get(f"/connectors/{self.source}/tasks")
        self.assertEqual(code, 200, text)
        lost_partitions = set()
        for t in task_configs:
            if t["id"]["task"] in lost_tasks:
                for tp in t["config"]["task.assigned.partitions"].split(","):
                    topic, _, p = tp.rpartition("-")
                    if topic == self.orders:
                        lost_partitions.add(int(p))
        self.assertTrue(lost_partitions, "the victim copies some orders partitions")
        leader = c.leader()
        connector_owner = (c.status(self.source) or {}).get("connector", {}).get("worker_id")
        print(f"killing {victim} (leader: {leader is victim}; runs the MirrorSource connector: "
              f"{connector_owner == victim.worker_id}; MirrorSource tasks {lost_tasks}, "
              f"{self.orders} partitions {sorted(lost_partitions)}; heartbeat task: "
              f"{heartbeat_owner == victim.worker_id}); survivor {survivor}")

        # A producer keeps writing orders on A: 60 records (5 per partition) a round.
        stop, errors = threading.Event(), []
        state = {"next": getattr(self, "next_key", ORDERS_RECORDS + 1000)}

        def produce_loop():
            try:
                while not stop.is_set():
                    tool("produce-from", self.a, self.orders, state["next"], 60,
                         ORDERS_PARTITIONS)
                    state["next"] += 60
                    stop.wait(0.1)
            except BaseException as e:  # reported by the test thread
                errors.append(e)
        producer = threading.Thread(target=produce_loop, daemon=True)
        producer.start()
        try:
            time.sleep(3)
            t_kill = time.time()
            victim.kill9()
            t_snapshot = None
            snapshot = None
            failover = resumed = None
            transitions, seen = [], None

            def progress():
                nonlocal t_snapshot, snapshot, failover, resumed, seen
                now = time.time()
                body = c.status(self.source, survivor)
                if body and failover is None:
                    view = tuple((t["id"], t["state"], t["worker_id"]) for t in body["tasks"]
                                 if t["id"] in lost_tasks)
                    if view != seen:
                        seen = view
                        transitions.append((now - t_kill, view))
                    if view and all(s == "RUNNING" and w == survivor.worker_id
                                    for _, s, w in view):
                        failover = now - t_kill
                # The dead worker's partitions stop growing on B; their growth again is the
                # takeover (anything it had in flight has landed after a second).
                if snapshot is None and now - t_kill >= 1.0:
                    snapshot, t_snapshot = end_offsets(self.b, remote_orders), now
                elif snapshot is not None and resumed is None:
                    ends = end_offsets(self.b, remote_orders)
                    if all(ends[p] > snapshot[p] for p in lost_partitions):
                        resumed = time.time() - t_kill
                return failover is not None and resumed is not None
            wait_until(progress, timeout=FAILOVER_BOUND_SECONDS + 45, interval=0.1,
                       what="the dead worker's MirrorSource tasks RUNNING on the survivor and "
                            "its partitions growing on B again")
            print(f"failover_seconds={failover:.1f} (kill -9 -> MirrorSource tasks {lost_tasks} "
                  f"RUNNING on the survivor)")
            print(f"replication_resumed_seconds={resumed:.1f} (kill -9 -> every partition the "
                  f"dead worker copied grows on B again; B snapshot at "
                  f"+{t_snapshot - t_kill:.1f}s)")
            print("MirrorSource's lost tasks as the survivor's GET .../status showed them:")
            for t, view in transitions:
                print(f"  {t:+6.1f}s {view}")
            self.assertLess(failover, FAILOVER_BOUND_SECONDS, "failover slower than issue #5's "
                            "goal")
            time.sleep(4)  # replication continues: more records after the takeover
        finally:
            stop.set()
            producer.join(timeout=60)
        self.assertEqual(errors, [], "the producer failed")
        t_stop = time.time()

        # Everything on the survivor.
        for name, tasks in ((self.source, SOURCE_TASKS), (self.checkpoint, CHECKPOINT_TASKS),
                            (self.heartbeat, 1)):
            c.wait_running(name, tasks, on=[survivor], timeout=30)

        # No record lost: each partition on B is A's, with at most one replayed run.
        total = int(tool("count", self.a, self.orders))
        wait_until(lambda: int(tool("count", self.b, remote_orders)) >= total, timeout=60,
                   interval=0.5, what=f"at least {total} records in {remote_orders}")
        source = by_partition(dump(self.a, self.orders))

        def complete():
            copy = by_partition(dump(self.b, remote_orders))
            shapes = {p: replay_shape(source[p], copy.get(p, [])) for p in source}
            return shapes if all(problem is None for _, problem in shapes.values()) else None
        try:
            shapes = wait_until(complete, timeout=30, interval=1.0,
                                what=f"every record of {self.orders} on B")
        except AssertionError:
            copy = by_partition(dump(self.b, remote_orders))
            problems = {p: replay_shape(source[p], copy.get(p, [])) for p in source}
            raise AssertionError(f"records of {self.orders} on B: {problems}") from None
        dups = {p: d for p, (d, _) in shapes.items()}
        new_records = total - ORDERS_RECORDS
        print(f"{remote_orders}: {total} records on A ({new_records} written during the test, "
              f"{state['next'] - getattr(self, 'next_key', 0)} of them by the producer in "
              f"{t_stop - t_kill + 3:.0f}s), all on B in order with every field intact; "
              f"duplicates per partition {dups} (total {sum(dups.values())}; partitions of "
              f"the dead worker: {sorted(lost_partitions)})")
        for p, d in dups.items():
            if p not in lost_partitions:
                self.assertEqual(d, 0, f"partition {p} was copied by a surviving task: "
                                       "nothing should be replayed")
        payments = by_partition(dump(self.b, f"A.{self.payments}"))
        for p, records in by_partition(dump(self.a, self.payments)).items():
            self.assertIsNone(replay_shape(records, payments.get(p, []))[1], f"payments-{p}")

        # Heartbeats continue on A and reach B.
        t_after = now_ms()
        wait_until(lambda: len(self.heartbeats(self.a, "heartbeats", t_after)) >= 2, timeout=20,
                   interval=0.5, what="heartbeats on A after the failover")
        after = self.heartbeats(self.a, "heartbeats", t_after)
        wait_until(lambda: set(after) <= set(self.heartbeats(self.b, "A.heartbeats", t_after)),
                   timeout=20, interval=0.5, what="the new heartbeats on B")
        around = self.heartbeats(self.a, "heartbeats", int(t_kill * 1000) - 3000)
        gaps = [y[0] - x[0] for x, y in zip(around, around[1:])]
        print(f"heartbeats after the kill: longest gap on A {max(gaps)} ms "
              f"(heartbeat task {'moved' if heartbeat_owner == victim.worker_id else 'stayed'})")

        # Checkpoints follow the records written across the failover.
        self.assertEqual(len(group_consume(self.a, self.orders_group, [self.orders],
                                           new_records)), new_records)
        self.assert_failover_consumer(self.orders_group, self.orders, ORDERS_PARTITIONS)
        self.assert_monotonic_checkpoints(self.orders_group)


if __name__ == "__main__":
    unittest.main(verbosity=2)
