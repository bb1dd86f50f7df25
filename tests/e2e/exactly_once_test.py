"""End to end: exactly-once source support (KIP-618) in a connectd distributed cluster with
`exactly.once.source.support=enabled`, on the shared test broker.

- test_1_kill9_no_duplicates_no_loss: a 2-worker cluster runs VerifiableSource (3 tasks, 100
  records/s each). The leader fenced nothing for the first generation but wrote
  tasks-fencing-<c> = 3 (Java's record); every task's records are read_committed-visible. A worker
  is killed with SIGKILL in the middle of its transactions; its tasks restart on the survivor
  from the offsets committed in their transactions. A read_committed reader then sees every
  task's seqnos 0..max exactly once (at-least-once would duplicate whatever followed the last
  offset flush), and after STOP the stored offsets (GET /offsets) are exactly each task's last
  seqno in the topic.
- test_2_task_count_change_fences_old_generation: tasks.max 3 -> 2 while the old generation runs:
  the leader fences the transactional ids of all 3 old tasks (a stand-in zombie holding the
  producer of <group>-<c>-2, outside the cluster, fails its next commit) and writes
  tasks-fencing-<c> = 2; the new generation runs and nothing is duplicated or lost.
- PreparingTest: with `preparing` the leader writes configs transactionally and tasks run without
  fencing or task-count records.
- test_3_validation: exactly.once.support=required is refused for a connector that does not
  answer (Java's "does not implement the API" message) or answers UNSUPPORTED, and accepted for
  one that answers SUPPORTED (plugin ABI 1.4's exactly_once_support); transaction.boundary=
  connector is refused with Java's message; PUT /connectors/<sink>/fence answers 400 "Connector
  <c> is not a source connector" (signed; unsigned: Java's 400 for a missing signature).

Run, from tests/e2e (build dir: $CONNECTD_BUILD_DIR, else <repo>/build):
    CONNECTD_RUN_DIR=/tmp/connectd-shared-run python3 -m unittest -v exactly_once_test
"""
import base64
import hashlib
import hmac
import json
import subprocess
import urllib.error
import urllib.request
import time
import unittest
import uuid

from connectd_e2e import wait_until
from distributed_cluster import (BUILD_DIR, VERIFIABLE_SOURCE, WorkerCluster, delete_topics,
                                 read_records, tool)

import os

EOS_PROPS = {"exactly.once.source.support": "enabled", "offset.flush.interval.ms": "1000"}
TRANSACTIONAL_PROBE = os.path.join(BUILD_DIR, "tests", "exactly_once_probe")


def uid():
    return uuid.uuid4().hex[:8]


def seqnos_by_task(topic, bootstrap):
    """{task: [seqno, ...]} in write order, from a read_committed reader (kafka_test_tool's
    consumer is librdkafka's default: read_committed)."""
    by_task = {}
    for r in read_records(topic, bootstrap):
        by_task.setdefault(int(r["key"]), []).append(int(r["value"]))
    return by_task


def committed_count(topic, bootstrap):
    """Committed records of `topic`, 0 while the topic does not exist yet."""
    try:
        return len(read_records(topic, bootstrap, 10))
    except AssertionError:
        return 0


def config_records(cluster):
    return [(r["key"], json.loads(r["value"]) if r["value"] else None)
            for r in read_records(cluster.config_topic, cluster.bootstrap)]


def signed_fence(cluster, worker, connector):
    """PUT /connectors/<c>/fence signed as a worker signs it (KIP-507: HmacSHA256 of the empty
    body with the session key the leader wrote to the config topic)."""
    keys = [v for k, v in config_records(cluster) if k == "session-key" and v]
    key = base64.b64decode(keys[-1]["key"])
    signature = base64.b64encode(hmac.new(key, b"", hashlib.sha256).digest()).decode()
    req = urllib.request.Request(f"{worker.url}/connectors/{connector}/fence", method="PUT",
                                 headers={"X-Connect-Authorization": signature,
                                          "X-Connect-Request-Signature-Algorithm": "HmacSHA256"})
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            status, text = resp.status, resp.read().decode()
    except urllib.error.HTTPError as e:
        status, text = e.code, e.read().decode()
    return status, (json.loads(text) if text else None), text


class ExactlyOnceTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cluster = WorkerCluster(["connectd", "connectd"], props=EOS_PROPS).start()

    @classmethod
    def tearDownClass(cls):
        cls.cluster.stop()
        cls.cluster.close()

    def tearDown(self):
        if any(not w.alive() for w in self.cluster.workers):
            for w in self.cluster.workers:
                if not w.alive():
                    self.cluster.restart(w.index)

    def assert_exactly_once(self, by_task, tasks):
        for task in range(tasks):
            seqnos = by_task.get(task, [])
            self.assertTrue(seqnos, f"task {task} wrote nothing")
            dupes = len(seqnos) - len(set(seqnos))
            self.assertEqual(dupes, 0, f"task {task}: {dupes} duplicate seqnos")
            self.assertEqual(sorted(seqnos), list(range(max(seqnos) + 1)),
                             f"task {task}: seqnos missing")
            self.assertEqual(seqnos, sorted(seqnos), f"task {task}: out of order")

    def create(self, name, topic, tasks, throughput=100, extra=None):
        config = {"connector.class": VERIFIABLE_SOURCE, "tasks.max": str(tasks), "topic": topic,
                  "throughput": str(throughput)}
        config.update(extra or {})
        code, body, text = self.cluster.any().put(f"/connectors/{name}/config", config)
        self.assertIn(code, (200, 201), text)

    def stop_and_offsets(self, name):
        w = self.cluster.any()
        code, _, text = w.put(f"/connectors/{name}/stop")
        self.assertEqual(code, 204, text)
        wait_until(lambda: (self.cluster.status(name) or {}).get("connector", {}).get("state")
                   == "STOPPED", timeout=60, what=f"{name} STOPPED")
        code, body, text = w.get(f"/connectors/{name}/offsets")
        self.assertEqual(code, 200, text)
        return {o["partition"]["id"]: o["offset"]["seqno"] for o in body["offsets"]}

    def test_1_kill9_no_duplicates_no_loss(self):
        name, topic = f"eos-src-{uid()}", f"eos-data-{uid()}"
        self.create(name, topic, tasks=3)
        owners = self.cluster.wait_running(name, 3, timeout=120)
        wait_until(lambda: committed_count(topic, self.cluster.bootstrap) >= 300,
                   timeout=60, what="300 committed records")
        fencing = [v for k, v in config_records(self.cluster) if k == f"tasks-fencing-{name}"]
        self.assertEqual(fencing[-1:], [{"task-count": 3}], "the leader's task-count record")

        victim = self.cluster.by_worker_id(owners[0])
        survivor = [w for w in self.cluster.workers if w is not victim][0]
        print(f"\nkilling {victim} (tasks {sorted(t for t, o in owners.items() if o == victim.worker_id)})")
        victim.kill9()
        self.cluster.wait_running(name, 3, timeout=120, on=[survivor], worker=survivor)
        before = sum(len(v) for v in seqnos_by_task(topic, self.cluster.bootstrap).values())
        wait_until(lambda: sum(len(v) for v in
                               seqnos_by_task(topic, self.cluster.bootstrap).values()) > before + 300,
                   timeout=60, what="300 more committed records after the failover")
        self.cluster.restart(victim.index)

        offsets = self.stop_and_offsets(name)
        by_task = seqnos_by_task(topic, self.cluster.bootstrap)
        self.assert_exactly_once(by_task, 3)
        # Offsets and data committed together: the stored offset is each task's last record.
        self.assertEqual(offsets, {t: max(s) for t, s in by_task.items()})
        print(f"records per task: { {t: len(s) for t, s in sorted(by_task.items())} }")
        self.cluster.any().delete(f"/connectors/{name}")
        delete_topics(topic, bootstrap=self.cluster.bootstrap)

    def test_2_task_count_change_fences_old_generation(self):
        name, topic = f"eos-resize-{uid()}", f"eos-resize-data-{uid()}"
        self.create(name, topic, tasks=3)
        self.cluster.wait_running(name, 3, timeout=120)
        wait_until(lambda: committed_count(topic, self.cluster.bootstrap) >= 150,
                   timeout=60, what="150 committed records")
        # A zombie of the old generation: a producer holding task 2's transactional id with a
        # committed transaction behind it (it fences the running task 2, whose next commit
        # fails; a zombie would do the same to a new owner). It keeps its handle, fenced out
        # by the leader's fencing round below.
        zombie = subprocess.Popen(
            [TRANSACTIONAL_PROBE, self.cluster.bootstrap, f"{self.cluster.name}-{name}-2",
             topic, "99"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.assertEqual(zombie.stdout.readline().strip(), "committed")

        w = self.cluster.any()
        code, _, text = w.put(f"/connectors/{name}/config",
                              {"connector.class": VERIFIABLE_SOURCE, "tasks.max": "2",
                               "topic": topic, "throughput": "100"})
        self.assertEqual(code, 200, text)
        self.cluster.wait_running(name, 2, timeout=120)
        wait_until(lambda: {"task-count": 2} in
                   [v for k, v in config_records(self.cluster) if k == f"tasks-fencing-{name}"],
                   timeout=60, what="tasks-fencing record 2")
        zombie.stdin.write("commit\n")
        zombie.stdin.flush()
        answer = zombie.stdout.readline().strip()
        zombie.stdin.close()
        zombie.wait(timeout=60)
        zombie.stdout.close()
        self.assertTrue(answer.startswith("failed"), f"the zombie's commit: {answer}")
        print(f"\nzombie after fencing: {answer}")

        wait_until(lambda: len(seqnos_by_task(topic, self.cluster.bootstrap).get(1, [])) >= 100,
                   timeout=60, what="the new generation writes")
        self.stop_and_offsets(name)
        by_task = seqnos_by_task(topic, self.cluster.bootstrap)
        # The zombie's one committed record is not VerifiableSource's (key "zombie") and is
        # not read as a task; everything else is exactly once.
        self.assert_exactly_once({t: s for t, s in by_task.items() if t in (0, 1)}, 2)
        self.cluster.any().delete(f"/connectors/{name}")
        delete_topics(topic, bootstrap=self.cluster.bootstrap)

    def test_3_validation(self):
        w = self.cluster.any()
        base = {"connector.class": VERIFIABLE_SOURCE, "tasks.max": "1", "topic": "t",
                "throughput": "1"}
        code, _, text = w.put(f"/connectors/eos-required-{uid()}/config",
                              dict(base, **{"exactly.once.support": "required"}))
        self.assertEqual(code, 400, text)
        self.assertIn("The connector does not implement the API required for preflight "
                      "validation of exactly-once source support.", text)
        code, _, text = w.put(f"/connectors/eos-boundary-{uid()}/config",
                              dict(base, **{"transaction.boundary": "connector"}))
        self.assertEqual(code, 400, text)
        self.assertIn("The connector does not support connector-defined transaction boundaries "
                      "with the given configuration. Please reconfigure it to use a different "
                      "transaction boundary definition.", text)
        code, body, text = w.put("/connector-plugins/VerifiableSourceConnector/config/validate",
                                 dict(base, **{"name": "eos-valid",
                                               "transaction.boundary": "interval",
                                               "transaction.boundary.interval.ms": "500"}))
        self.assertEqual(code, 200, text)
        self.assertEqual(body["error_count"], 0, text)

        # A connector that answers exactlyOnceSupport (plugin ABI 1.4): SUPPORTED passes,
        # UNSUPPORTED gets Java's message.
        noop = {"name": "eos-noop", "connector.class": "org.connectd.test.NoopSourceConnector",
                "exactly.once.support": "required"}
        code, body, text = w.put("/connector-plugins/NoopSourceConnector/config/validate",
                                 dict(noop, **{"exactly.once.answer": "supported"}))
        self.assertEqual((code, body["error_count"]), (200, 0), text)
        code, body, text = w.put("/connector-plugins/NoopSourceConnector/config/validate",
                                 dict(noop, **{"exactly.once.answer": "unsupported"}))
        self.assertEqual((code, body["error_count"]), (200, 1), text)
        errors = [e for c in body["configs"] if c["value"]["name"] == "exactly.once.support"
                  for e in c["value"]["errors"]]
        self.assertEqual(errors, ["The connector does not support exactly-once semantics with "
                                  "the provided configuration."])

        sink = f"eos-sink-{uid()}"
        code, _, text = w.put(f"/connectors/{sink}/config", {
            "connector.class": "org.apache.kafka.connect.file.FileStreamSinkConnector",
            "tasks.max": "1", "topics": "eos-none", "file": "/dev/null"})
        self.assertIn(code, (200, 201), text)
        # Unsigned: refused before the herder looks (as Java, under `sessioned`).
        code, body, text = w.put(f"/connectors/{sink}/fence")
        self.assertEqual(code, 400, text)
        self.assertEqual(body["message"], "Internal request missing required signature")
        leader = self.cluster.leader()
        code, body, text = signed_fence(self.cluster, leader, sink)
        self.assertEqual(code, 400, text)
        self.assertEqual(body["message"], f"Connector {sink} is not a source connector")
        code, body, text = signed_fence(self.cluster, leader, f"eos-missing-{uid()}")
        self.assertEqual(code, 404, text)
        w.delete(f"/connectors/{sink}")


class PreparingTest(unittest.TestCase):
    """`exactly.once.source.support=preparing` (the first step of Java's rolling upgrade): the
    leader writes the config topic transactionally, tasks still run at-least-once (no fencing,
    no task-count record)."""

    def test_preparing_runs_tasks_without_fencing(self):
        cluster = WorkerCluster(["connectd"], props={"exactly.once.source.support": "preparing"})
        try:
            cluster.start()
            name, topic = f"prep-src-{uid()}", f"prep-data-{uid()}"
            code, _, text = cluster.any().put(f"/connectors/{name}/config", {
                "connector.class": VERIFIABLE_SOURCE, "tasks.max": "1", "topic": topic,
                "throughput": "50"})
            self.assertEqual(code, 201, text)
            cluster.wait_running(name, 1, timeout=60)
            wait_until(lambda: committed_count(topic, cluster.bootstrap) >= 50, timeout=60,
                       what="records")
            keys = [k for k, _ in config_records(cluster)]
            # The leader's transactional writes are committed (read here read_committed).
            self.assertIn(f"connector-{name}", keys)
            self.assertIn(f"commit-{name}", keys)
            self.assertNotIn(f"tasks-fencing-{name}", keys)
            delete_topics(topic, bootstrap=cluster.bootstrap)
        finally:
            cluster.stop()
            cluster.close()


if __name__ == "__main__":
    unittest.main()
