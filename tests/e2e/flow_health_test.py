"""End to end: flow health (issue #7, "Flow health" and its "Done when"). For each injected fault,
GET /mirror/flows/A/B and `connectd doctor` give the right verdict within 3 heartbeat intervals
plus the staleness threshold, and HEALTHY again after the repair. One test per fault, all on one
environment (flow_health_env.py: clusters S and T of the test's own, a 2-worker connectd
distributed cluster, flow A->B with heartbeats every second, stale threshold 8 s, lag threshold
2 s), in this order:

  test_00  the healthy flow; /mirror/flows on both workers; 404 for an unknown flow; every metric
           that config/grafana and config/prometheus reference is served by GET /metrics
  test_00  also: right after the connectors are created, never HEALTHY before the first
           heartbeat crossed (STARTING, or UNMONITORED until the heartbeat connector exists);
           `connectd doctor` exits 1 while STARTING
  test_01  MirrorHeartbeatConnector paused                 -> UNMONITORED (with the resume step)
  test_02  its task failed (a producer setting the client rejects, a real start failure)
                                                           -> TASK FAILED (with the trace)
  test_03  MirrorSourceConnector paused                    -> STALLED — REPLICATION LEG
  test_04  MirrorSource task failed (a consumer setting the client rejects)
                                                           -> TASK FAILED
  test_05  target broker stopped for 40 s (scripts/kafka halt)
                                                           -> CLUSTER UNREACHABLE naming B, and
           nothing else until it is back
  test_06  source broker stopped                           -> CLUSTER UNREACHABLE naming A
  test_07  WRITE on the target's A.heartbeats denied by an ACL (T enforces ACLs): the task's
           produce is refused and fails it, as in Java    -> TASK FAILED naming authorization
  test_08  replication throttled (producer_byte_rate client quota on T for the task's producer,
           while data keeps coming)                        -> LAGGING: heartbeats late or
           overdue, not stale
  test_17  the source throttles the task's consumer (consumer_byte_rate for its MirrorMaker
           client id)                                      -> the quota and client id named
  test_09  one side's clock skewed (heartbeats stamped an hour ahead injected into A's
           heartbeats topic)                               -> SUSPECT CLOCK SKEW
  test_10  the worker running MirrorSource killed (kill -9) -> METRICS ABSENT or REBALANCING,
           then HEALTHY on the survivor; the killed worker restarted -> HEALTHY
  test_11  MirrorHeartbeatConnector deleted               -> UNMONITORED; re-created -> HEALTHY
  test_12  READ on source topic `orders` denied by an ACL (S enforces ACLs too) while records
           keep coming: heartbeats stay fresh   -> STALLED — PARTITIONS naming orders-0..2, the
           authorization error and what to grant; the per-partition view; after the ACL is
           removed every record reaches B
  test_13  a rebalance storm: the worker without MirrorSource's task restarted every 5 s for
           30 s -> REBALANCING with the count, and the verdict does not flap (few changes, no
           HEALTHY between the storm's first REBALANCING and its end)
  test_14  source topic `bulk` deleted and re-created with more records than its old end
           -> every new record on B; HEALTHY with the re-creation in the evidence
  test_15  records of `bulk` deleted (DeleteRecords, as retention would) while MirrorSource is
           stopped -> after the resume the evidence counts the 30 lost offsets and the next step
           says so; the records after the gap reach B

Run, from tests/e2e:
    CONNECTD_BUILD_DIR=../../build CONNECTD_RUN_DIR=/tmp/connectd-shared-run \\
        python3 -m unittest -v flow_health_test
"""
import json
import os
import re
import sys
import time
import unittest

import flow_health_env as fh
from connectd_e2e import REPO_ROOT, wait_until
from distributed_cluster import http, tool

METRIC_NAME = re.compile(r"\b(connectd_mirror_flow_[a-z_]+|kafka_connect_mirror_[a-z_]+)\b")


class FlowHealthTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.t0 = time.time()
        cls.env = fh.FlowHealthEnv()
        try:
            cls.env.start()
        except BaseException:
            cls.env.close()
            raise
        cls.query = cls.env.cluster[0]

    @classmethod
    def tearDownClass(cls):
        cls.env.close()
        print(f"\nFlowHealthTest: {time.time() - cls.t0:.1f}s in all", file=sys.stderr)

    def setUp(self):
        self.started = time.time()
        # Every case starts from a healthy flow.
        self.env.wait_healthy(self, self.query, time.time(), f"{self._testMethodName}: precondition")

    def tearDown(self):
        print(f"  {self._testMethodName}: {time.time() - self.started:.1f}s", file=sys.stderr)

    def expect(self, verdicts, started, what, worker=None):
        return self.env.wait_verdict(self, worker or self.query, verdicts, fh.BUDGET_S, started,
                                     what)

    def repaired(self, started, what, worker=None):
        return self.env.wait_healthy(self, worker or self.query, started, what)

    # ---- the healthy flow, the API and the metrics the dashboards use

    def test_00_healthy_flow_api_and_dashboard_metrics(self):
        env = self.env
        # Right after the connectors were created: never HEALTHY before a heartbeat crossed.
        timeline = env.startup_verdicts
        print(f"  after creating the connectors (s, verdict, replication age ms): {timeline}",
              file=sys.stderr)
        self.assertEqual(timeline[-1][1], "HEALTHY", timeline)
        self.assertIsNotNone(timeline[-1][2], timeline)
        before = {verdict for _, verdict, _ in timeline[:-1]}
        self.assertLessEqual(before, {None, "STARTING", "UNMONITORED"}, timeline)
        self.assertIn("STARTING", before, timeline)
        rc, out = env.startup_doctor
        self.assertEqual(rc, 1, out)
        self.assertIn("STARTING", out)

        def arrived_on_both_legs(worker):
            _, body = env.flow(worker)
            legs = (body or {}).get("legs", {})
            return all(legs.get(leg, {}).get("age_ms") is not None
                       for leg in ("emit", "replication"))
        for worker in env.cluster.workers:
            # A worker's service has watched since it started: both legs seen soon after.
            wait_until(lambda: arrived_on_both_legs(worker), timeout=30,
                       what=f"{worker}: heartbeats seen on both legs")
            code, body, text = http("GET", worker.url + "/mirror/flows")
            self.assertEqual(code, 200, text)
            self.assertEqual(body["worker_id"], worker.worker_id)
            flow = next(f for f in body["flows"] if f["flow"] == "A->B")
            self.assertEqual(flow["verdict"], "HEALTHY", text)
            self.assertEqual(flow["connectors"], {"source": env.source_connector,
                                                  "checkpoint": env.checkpoint_connector,
                                                  "heartbeat": env.heartbeat_connector})
            self.assertEqual(flow["thresholds"]["stale_ms"], fh.STALE_MS)
            self.assertEqual(flow["thresholds"]["lag_ms"], fh.LAG_MS)
            self.assertEqual(flow["legs"]["emit"]["topic"], "heartbeats")
            self.assertEqual(flow["legs"]["emit"]["cluster"], "A")
            self.assertEqual(flow["legs"]["replication"]["topic"], "A.heartbeats")
            self.assertLess(flow["legs"]["replication"]["age_ms"], fh.STALE_MS)
            # The source task's metrics, from this worker's registry or its owner's GET
            # /mirror/task-metrics (asked every refresh; a task that just moved is "not_expected"
            # until its owner answered).
            def source_task_metrics():
                _, now, _ = http("GET", worker.url + "/mirror/flows/A/B")
                return [t["metrics"] for t in now["tasks"]
                        if t["role"] == "source" and t["task"] is not None]
            wait_until(lambda: source_task_metrics() == ["present"], timeout=30,
                       what=f"{worker}: the MirrorSource task's metrics present")
        code, body, text = http("GET", self.query.url + "/mirror/flows/A/C")
        self.assertEqual(code, 404, text)
        self.assertEqual(body, {"error_code": 404, "message":
                                "No replication flow found for source 'A' and target 'C'"})
        rc, out = env.doctor(self.query)
        self.assertEqual(rc, 0, out)
        self.assertRegex(out, r"A->B\s+HEALTHY")

        # Every metric config/ references is on GET /metrics of the workers (the MM2 task metrics
        # only on the one that runs the task).
        referenced = set()
        for directory in ("grafana", "prometheus"):
            folder = os.path.join(REPO_ROOT, "config", directory)
            for name in os.listdir(folder):
                with open(os.path.join(folder, name)) as f:
                    referenced |= set(METRIC_NAME.findall(f.read()))
        self.assertGreaterEqual(len(referenced), 10, referenced)
        served = set()
        for worker in env.cluster.workers:
            code, _, text = http("GET", worker.url + "/metrics")
            self.assertEqual(code, 200)
            served |= {line.split("{")[0].split(" ")[0] for line in text.splitlines()
                       if line and not line.startswith("#")}
        self.assertEqual(referenced - served, set(), "referenced in config/ but not served")
        verdict_lines = [l for l in text.splitlines()
                         if l.startswith('connectd_mirror_flow_verdict{source="A",target="B"')]
        self.assertEqual(len(verdict_lines), 12, verdict_lines)
        self.assertIn('connectd_mirror_flow_verdict{source="A",target="B",verdict="healthy"} 1',
                      text)

    # ---- the faults

    def test_01_heartbeat_connector_paused(self):
        env = self.env
        t = time.time()
        code, _, text = env.cluster.any().put(f"/connectors/{env.heartbeat_connector}/pause")
        self.assertEqual(code, 202, text)
        _, flow, _ = self.expect("UNMONITORED", t, "heartbeat connector paused")
        self.assertIn(f"/connectors/{env.heartbeat_connector}/resume", flow["next_step"])
        t = time.time()
        env.cluster.any().put(f"/connectors/{env.heartbeat_connector}/resume")
        self.repaired(t, "heartbeat connector resumed")

    def test_02_heartbeat_task_failed(self):
        env = self.env
        t = time.time()
        # The task's own producer (heartbeats go to the source) refuses this setting at start.
        env.put_config(env.heartbeat_connector, **{"source.producer.acks": "banana"})
        _, flow, _ = self.expect("TASK FAILED", t, "heartbeat task failed")
        failed = [u for u in flow["tasks"] if u["state"] == "FAILED"]
        self.assertEqual([(u["role"], u["task"]) for u in failed], [("heartbeat", 0)], failed)
        self.assertIn("heartbeat producer", failed[0]["trace"])
        t = time.time()
        env.put_config(env.heartbeat_connector)
        self.repaired(t, "heartbeat connector config repaired")

    def test_03_source_connector_paused(self):
        env = self.env
        t = time.time()
        code, _, text = env.cluster.any().put(f"/connectors/{env.source_connector}/pause")
        self.assertEqual(code, 202, text)
        _, flow, _ = self.expect(fh.STALLED_REPLICATION, t, "MirrorSource paused")
        self.assertFalse(flow["legs"]["emit"]["stale"])
        self.assertTrue(flow["legs"]["replication"]["stale"])
        t = time.time()
        env.cluster.any().put(f"/connectors/{env.source_connector}/resume")
        self.repaired(t, "MirrorSource resumed")

    def test_04_source_task_failed(self):
        env = self.env
        t = time.time()
        env.put_config(env.source_connector, **{"source.consumer.fetch.max.bytes": "banana"})
        _, flow, _ = self.expect("TASK FAILED", t, "MirrorSource task failed")
        failed = [u for u in flow["tasks"] if u["state"] == "FAILED"]
        self.assertEqual([(u["role"], u["task"]) for u in failed], [("source", 0)], failed)
        self.assertIn("source consumer", failed[0]["trace"])
        t = time.time()
        env.put_config(env.source_connector)
        self.repaired(t, "MirrorSource config repaired")

    def test_05_target_broker_stopped(self):
        # Issue 24, case 2: the target down for 40 s, the workers' internal topics on it too.
        env = self.env
        env.kafka.halt(env.kafka.target_name)
        t = time.time()
        seen = []  # (s, verdict) at every change, for the whole outage
        try:
            _, flow, _ = self.expect("CLUSTER UNREACHABLE", t, "target broker stopped")
            self.assertFalse(flow["legs"]["emit"]["stale"])
            self.assertIn("cluster B cannot be reached", flow["summary"])
            self.assertIn("restarting tasks does not help", flow["next_step"])
            while time.time() - t < 40:
                code, body = env.flow(self.query)
                verdict = body.get("verdict") if code == 200 and isinstance(body, dict) else None
                if not seen or seen[-1][1] != verdict:
                    seen.append((round(time.time() - t, 1), verdict))
                time.sleep(0.25)
        finally:
            env.kafka.resume(env.kafka.target_name)
        print(f"    verdicts until the target came back (s, verdict): {seen}", file=sys.stderr)
        # Named for what it is the whole time: never LAGGING or METRICS ABSENT meanwhile.
        self.assertEqual({v for _, v in seen}, {"CLUSTER UNREACHABLE"}, seen)
        self.repaired(time.time(), "target broker back")

    def test_06_source_broker_stopped(self):
        env = self.env
        env.kafka.halt(env.kafka.source_name)
        t = time.time()
        try:
            _, flow, _ = self.expect("CLUSTER UNREACHABLE", t, "source broker stopped")
            self.assertIn("cluster A cannot be reached", flow["summary"])
        finally:
            env.kafka.resume(env.kafka.source_name)
        self.repaired(time.time(), "source broker back")

    def test_07_target_topic_write_denied(self):
        env = self.env
        topic = "A.heartbeats"
        # T enforces ACLs: everything stays allowed on the topic except WRITE (DENY wins).
        tool("create-acl", env.kafka.target, topic, "User:ANONYMOUS", "ALL", "ALLOW")
        t = time.time()
        try:
            tool("create-acl", env.kafka.target, topic, "User:ANONYMOUS", "WRITE", "DENY")
            _, flow, _ = self.expect("TASK FAILED", t, "write to A.heartbeats denied")
            failed = [u for u in flow["tasks"] if u["state"] == "FAILED"]
            self.assertEqual([u["role"] for u in failed], ["source"], failed)
            self.assertRegex(failed[0]["trace"].lower(), "authoriz")
            self.assertIn("grant the connectd principal WRITE", flow["next_step"])
        finally:
            tool("delete-acls", env.kafka.target, topic)
        t = time.time()
        env.restart_failed(env.source_connector)
        self.repaired(t, "ACL removed, task restarted")

    def test_08_throttled_replication(self):
        env = self.env
        client = f"connector-producer-{env.source_connector}-0"
        # The target lets the task's producer write 100 KB/s, then data comes at 300 KB/s: the
        # heartbeats wait out the throttled requests with the data and arrive later (or overdue).
        env.kafka_configs(env.kafka.target, "--alter", "--add-config", "producer_byte_rate=100000",
                          "--entity-type", "clients", "--entity-name", client)
        load = fh.kafka_tool("produce-for", env.kafka.source, env.bulk, 300000, 120)
        t = time.time()
        load.start()
        try:
            self.expect("LAGGING", t, "replication throttled")
            # While the quota holds the heartbeats fall further behind, and the report says so
            # within a minute: the trend is a regression over the last minute, which may still
            # hold the previous test's recovery (latency coming down) when LAGGING is first seen.
            def lagging_and_rising():
                _, f = env.flow(self.query)
                if not isinstance(f, dict) or f.get("verdict") != "LAGGING":
                    return None
                return f if f["latency_overdue"] or f["latency_trend"] == "rising" else None
            flow = wait_until(lagging_and_rising, timeout=70, interval=1,
                              what="LAGGING with a rising heartbeat latency under the quota")
            self.assertGreater(flow["latency_ms"], fh.LAG_MS)
            self.assertFalse(flow["legs"]["replication"]["stale"])
            self.assertFalse(flow["legs"]["emit"]["stale"])
            self.assertEqual({u["state"] for u in flow["tasks"]}, {"RUNNING"})
            # The cause, not only the symptom: B throttles the task's producer (Kafka's
            # produce-throttle-time-max of that client id), and the next step says which quota.
            wait_until(lambda: env.flow(self.query)[1].get("producer_throttle_ms"), timeout=30,
                       what="the producer's throttling in the flow report")
            _, flow = env.flow(self.query)
            print(f"    throttled: {flow['summary']}; {flow['next_step']}", file=sys.stderr)
            self.assertIn(f"B throttles MirrorSource's producer {client}",
                          " ".join(flow["evidence"]))
            if flow["verdict"] == "LAGGING":
                self.assertIn(f"producer_byte_rate for client id {client} on B", flow["next_step"])
        finally:
            load.stop()
            env.kafka_configs(env.kafka.target, "--alter", "--delete-config",
                              "producer_byte_rate", "--entity-type", "clients",
                              "--entity-name", client)
        self.repaired(time.time(), "quota removed")

    def test_09_clock_skew(self):
        env = self.env
        # Another emitter of A->B's heartbeats whose clock runs an hour ahead, for 4 s.
        skewed = fh.kafka_tool("heartbeat", env.kafka.source, "heartbeats", "A", "B", 3_600_000,
                               8, 500)
        t = time.time()
        skewed.start()
        try:
            _, flow, _ = self.expect("SUSPECT CLOCK SKEW", t, "heartbeats from the future")
            self.assertIn("in the future", " ".join(flow["evidence"]))
        finally:
            skewed.join(timeout=60)
        self.repaired(time.time(), "skewed emitter gone")

    def test_10_worker_killed(self):
        env = self.env
        status = env.cluster.status(env.source_connector)
        owner = env.cluster.by_worker_id(status["tasks"][0]["worker_id"])
        survivor = next(w for w in env.cluster.workers if w is not owner)
        self.env.wait_healthy(self, survivor, time.time(), "survivor sees the flow healthy")
        t = time.time()
        owner.kill9()
        verdict, flow, _ = self.expect(("METRICS ABSENT", "REBALANCING"), t,
                                       f"worker {owner.worker_id} killed", worker=survivor)
        if verdict == "METRICS ABSENT":
            self.assertIn(owner.worker_id, flow["summary"])
        self.repaired(t, "tasks moved to the survivor", worker=survivor)
        status = env.cluster.status(env.source_connector, worker=survivor)
        self.assertEqual(status["tasks"][0]["worker_id"], survivor.worker_id)
        t = time.time()
        env.cluster.restart(env.cluster.workers.index(owner), timeout=60)
        self.repaired(t, "killed worker restarted", worker=survivor)
        self.repaired(t, "killed worker restarted (its own view)", worker=owner)

    def test_11_heartbeat_connector_deleted(self):
        env = self.env
        t = time.time()
        code, _, text = env.cluster.any().delete(f"/connectors/{env.heartbeat_connector}")
        self.assertIn(code, (200, 204), text)
        _, flow, _ = self.expect("UNMONITORED", t, "heartbeat connector deleted")
        self.assertIn("Create a MirrorHeartbeatConnector", flow["next_step"])
        self.assertNotIn("heartbeat", flow["connectors"])
        t = time.time()
        config = env.connector_configs()[env.heartbeat_connector]
        code, _, text = env.cluster.any().post("/connectors", {"name": env.heartbeat_connector,
                                                                "config": config})
        self.assertEqual(code, 201, text)
        self.repaired(t, "heartbeat connector re-created")

    def test_12_source_topic_read_denied(self):
        env = self.env
        topic = env.orders
        # S enforces ACLs: everything stays allowed on `orders` except READ (DENY wins).
        tool("create-acl", env.kafka.source, topic, "User:ANONYMOUS", "ALL", "ALLOW")
        t = time.time()
        try:
            tool("create-acl", env.kafka.source, topic, "User:ANONYMOUS", "READ", "DENY")
            tool("produce-from", env.kafka.source, topic, 1000, 30, 3)
            _, flow, _ = self.expect("STALLED — PARTITIONS", t, "reads of orders denied")
            print("    partitions: " + json.dumps(flow["partitions"]), file=sys.stderr)
            self.assertFalse(flow["legs"]["emit"]["stale"], flow)
            self.assertFalse(flow["legs"]["replication"]["stale"], flow)
            self.assertEqual(flow["partitions"]["with_errors"], 3, flow["partitions"])
            denied = sorted((p["source_topic"], p["partition"])
                            for p in flow["partitions"]["worst"] if p["error"])
            self.assertEqual(denied, [(topic, 0), (topic, 1), (topic, 2)])
            # The truth per partition: 10 new records each, none copied.
            wait_until(lambda: env.flow(self.query)[1]["partitions"]["records_behind"] >= 30,
                       timeout=30, what="30 records behind on orders")
            _, flow = env.flow(self.query)
            print("    partitions: " + json.dumps(flow["partitions"]), file=sys.stderr)
            behind = {p["partition"]: p["records_behind"] for p in flow["partitions"]["worst"]
                      if p["source_topic"] == topic}
            self.assertEqual(behind, {0: 10, 1: 10, 2: 10}, flow["partitions"])
            # Records that wait unread have an age too: at least the time since the task saw
            # the end pass them, so it grows while they wait.
            def ages():
                _, now = env.flow(self.query)
                return [p["oldest_unreplicated_age_ms"] for p in now["partitions"]["worst"]
                        if p["source_topic"] == topic]
            seen_ages = []
            deadline = time.time() + 15
            while time.time() < deadline:
                seen_ages.append(ages())
                if len(seen_ages[-1]) == 3 and all(a is not None and a >= 2000
                                                   for a in seen_ages[-1]):
                    break
                time.sleep(0.5)
            else:
                self.fail(f"no age of 2 s or more on each unread partition: {seen_ages}")
            # The same per topic on GET /metrics (per partition only at DEBUG level).
            def topic_gauges():
                _, _, text = http("GET", self.query.url + "/metrics")
                labels = f'{{source="A",target="B",topic="{topic}"}} '
                return {line.split("{")[0]: float(line.rsplit(" ", 1)[1])
                        for line in text.splitlines()
                        if line.startswith("connectd_mirror_flow_topic_") and labels in line}
            gauges = topic_gauges()
            print(f"    /metrics for {topic}: {gauges}", file=sys.stderr)
            self.assertEqual(gauges["connectd_mirror_flow_topic_partitions_unreadable"], 3, gauges)
            self.assertGreaterEqual(gauges["connectd_mirror_flow_topic_records_behind"], 30, gauges)
            self.assertGreaterEqual(gauges["connectd_mirror_flow_topic_oldest_unreplicated_age_ms"],
                                    2000, gauges)
            self.assertIn("orders", flow["summary"])
            self.assertIn("Topic authorization failed", " ".join(flow["evidence"]))
            self.assertIn(f"READ (and DESCRIBE) on topic(s) {topic} of cluster A",
                          flow["next_step"])
            rc, table = env.doctor(self.query)
            self.assertEqual(rc, 1, table)
            self.assertIn("unreadable", table)
        finally:
            tool("delete-acls", env.kafka.source, topic)
        t = time.time()
        tool("produce-from", env.kafka.source, topic, 2000, 30, 3)
        self.repaired(t, "READ allowed again, records flow")
        # Nothing lost: the 30 records of the start, and both batches.
        wait_until(lambda: int(tool("count", env.kafka.target, f"A.{topic}").strip()) == 90,
                   timeout=60, what="every record of orders on B")

    def test_13_rebalance_storm(self):
        env = self.env
        status = env.cluster.status(env.source_connector)
        owner = env.cluster.by_worker_id(status["tasks"][0]["worker_id"])
        index = next(i for i, w in enumerate(env.cluster.workers) if w is not owner)
        seen = []  # (s, verdict, rebalances_in_window) at every change
        t = time.time()

        def sample():
            code, body = env.flow(owner)
            verdict = body.get("verdict") if code == 200 and isinstance(body, dict) else None
            if not seen or seen[-1][1] != verdict:
                seen.append((round(time.time() - t, 1), verdict,
                             body.get("rebalances_in_window") if verdict else None))
        while time.time() - t < 30:
            env.cluster.workers[index].stop()
            env.cluster.restart(index, timeout=60)
            until = time.time() + 5
            while time.time() < until:
                sample()
                time.sleep(0.25)
        storm = [v for v in seen if v[1] == "REBALANCING"]
        print(f"    verdicts during the storm (s, verdict, rebalances): {seen}", file=sys.stderr)
        self.assertTrue(storm, seen)
        self.assertGreaterEqual(max(v[2] for v in storm), 3, seen)
        first = seen.index(storm[0])
        self.assertNotIn("HEALTHY", [v[1] for v in seen[first:]], seen)
        self.assertLessEqual(len(seen), 4, f"the verdict flapped: {seen}")
        self.repaired(time.time(), "storm over", worker=owner)


    def test_14_source_topic_recreated(self):
        # Issue 24, case 6: a source topic deleted and re-created, then given more records than
        # its old end offset. Every record of the new topic reaches B; the flow tells it.
        env = self.env
        topic = env.bulk
        old_end = int(tool("count", env.kafka.source, topic).strip())
        tool("delete", env.kafka.source, topic)
        wait_until(lambda: int(tool("partitions", env.kafka.source, topic).strip()) == 0,
                   timeout=30, what=f"{topic} deleted on A")
        tool("create", env.kafka.source, topic, 1)
        t = time.time()
        tool("produce-from", env.kafka.source, topic, 5000, old_end + 10, 1)
        wanted = {f"k{i}".encode().hex() for i in range(5000, 5000 + old_end + 10)}

        def copied():
            out = tool("consume-all", env.kafka.target, f"A.{topic}", 10)
            return wanted <= {json.loads(line)["key_hex"] for line in out.splitlines()}
        wait_until(copied, timeout=60, interval=2,
                   what=f"all {old_end + 10} records of the re-created {topic} on B")
        print(f"    re-created {topic} (old end {old_end}): every new record on B after "
              f"{time.time() - t:.1f}s", file=sys.stderr)
        _, flow, _ = self.expect("HEALTHY", t, "source topic re-created")
        wait_until(lambda: env.flow(self.query)[1].get("topic_recreations", 0) >= 1, timeout=30,
                   what="topic_recreations in the flow report")
        _, flow = env.flow(self.query)
        self.assertIn("partition(s) of re-created source topics copied from the new topic's "
                      "beginning", " ".join(flow["evidence"]))
        self.assertEqual(flow["next_step"], "Nothing to do")

    def test_15_retention_gap(self):
        # Records deleted on the source (retention) while MirrorSource is stopped: after the
        # resume the flow says how many offsets were lost and what to do; the rest is copied.
        env = self.env
        topic = env.bulk
        wait_until(lambda: env.flow(self.query)[1]["partitions"]["records_behind"] == 0,
                   timeout=60, what="MirrorSource caught up")
        # Stopped, not paused: a paused task's consumer would fetch the records ahead.
        code, _, text = env.cluster.any().put(f"/connectors/{env.source_connector}/stop")
        self.assertIn(code, (202, 204), text)
        wait_until(lambda: env.cluster.status(env.source_connector)["connector"]["state"]
                   == "STOPPED" and not env.cluster.status(env.source_connector)["tasks"],
                   timeout=30, what="MirrorSource STOPPED")
        start = int(tool("count", env.kafka.source, topic).strip())
        tool("produce-from", env.kafka.source, topic, 7000, 40, 1)
        tool("delete-records", env.kafka.source, topic, f"0:{start + 30}")
        t = time.time()
        env.cluster.any().put(f"/connectors/{env.source_connector}/resume")
        wait_until(lambda: env.flow(self.query)[1].get("skipped_offsets", 0) >= 30, timeout=60,
                   what="30 skipped offsets in the flow report")
        _, flow = env.flow(self.query)
        print(f"    after the retention gap: {flow['verdict']}; {flow['evidence']}; "
              f"{flow['next_step']}", file=sys.stderr)
        self.assertIn("30 offset(s) were deleted on A (retention) before they were replicated",
                      " ".join(flow["evidence"]))
        self.repaired(t, "resumed after the retention gap")
        _, flow = env.flow(self.query)
        self.assertIn("records were lost to retention on A", flow["next_step"])
        # The 10 records that were left are on B.
        wanted = {f"k{i}".encode().hex() for i in range(7030, 7040)}
        wait_until(lambda: wanted <= {json.loads(line)["key_hex"] for line in tool(
            "consume-all", env.kafka.target, f"A.{topic}", 10).splitlines()},
            timeout=60, interval=2, what="the 10 records after the gap on B")

    def test_16_remote_topic_create_denied(self):
        # A topic added to the flow whose remote topic the target refuses to create (CREATE
        # denied on B's cluster and on the topic). Its records wait for the topic (STALLED —
        # PARTITIONS) until the producer's own metadata request, which B answers "Topic
        # authorization failed" as it would auto-create the topic, fails the task as it fails
        # Java's (TASK FAILED). Either way the flow names the topic and the CREATE grant, not
        # WRITE. Once CREATE is allowed (and a failed task restarted), every record arrives.
        env = self.env
        topic = f"invoices-{env.uid}"
        remote = f"A.{topic}"
        tool("create", env.kafka.source, topic, 2)
        tool("produce-from", env.kafka.source, topic, 0, 20, 2)
        denied = ("@cluster", remote)
        for resource in denied:
            tool("create-acl", env.kafka.target, resource, "User:ANONYMOUS", "ALL", "ALLOW")
            tool("create-acl", env.kafka.target, resource, "User:ANONYMOUS", "CREATE", "DENY")
        t = time.time()
        try:
            env.put_config(env.source_connector,
                           topics=f"{env.orders},{env.bulk},{topic}")
            verdict, flow, _ = self.expect(("STALLED — PARTITIONS", "TASK FAILED"), t,
                                           f"CREATE of {remote} denied")
            wait_until(lambda: env.flow(self.query)[1]["remote_topic_errors"], timeout=30,
                       what="the remote topic error in the flow report")
            _, flow = env.flow(self.query)
            print(f"    {flow['verdict']}: {flow['summary']}; {flow['evidence']}; "
                  f"{flow['next_step']}", file=sys.stderr)
            self.assertIn(f"cannot create topic {remote} on B: ", " ".join(flow["evidence"]))
            self.assertEqual([(e["topic"], e["source_topic"], e["operation"])
                              for e in flow["remote_topic_errors"]],
                             [(remote, topic, "create-topics")])
            if flow["verdict"] == "TASK FAILED":
                self.assertIn("CREATE on them on cluster B", flow["next_step"])
                self.assertIn(remote, flow["next_step"])
            else:
                self.assertEqual(flow["verdict"], "STALLED — PARTITIONS", flow)
                self.assertIn(f"remote topic(s) {remote} cannot be made on B", flow["summary"])
                self.assertIn(f"CREATE on topic(s) {remote} of cluster B", flow["next_step"])
            self.assertNotIn("WRITE", flow["next_step"])
            self.assertEqual(int(tool("partitions", env.kafka.target, remote).strip()), 0)
        finally:
            for resource in denied:
                tool("delete-acls", env.kafka.target, resource)
        t = time.time()
        # What the next step says: a failed task is restarted once CREATE is granted.
        wait_until(lambda: int(tool("partitions", env.kafka.target, remote).strip()) == 2,
                   timeout=30, what=f"{remote} created on B")
        tasks = (env.cluster.status(env.source_connector) or {}).get("tasks", [])
        if any(task["state"] == "FAILED" for task in tasks):
            env.restart_failed(env.source_connector)
        self.repaired(t, "CREATE allowed again")
        wait_until(lambda: int(tool("count", env.kafka.target, remote).strip()) == 20,
                   timeout=60, what=f"all 20 records of {topic} on B")
        _, flow = env.flow(self.query)
        self.assertEqual(flow["remote_topic_errors"], [])
        env.put_config(env.source_connector)

    def test_17_source_consumer_throttled(self):
        # The source throttles the task's consumer (consumer_byte_rate for its Kafka client id,
        # "A->B|<connector>-0|replication-consumer" as Java's MirrorMaker names it) while data
        # keeps coming: the flow names the source's quota and that client id.
        env = self.env
        client = f"A->B|{env.source_connector}-0|replication-consumer"
        env.kafka_configs(env.kafka.source, "--alter", "--add-config", "consumer_byte_rate=100000",
                          "--entity-type", "clients", "--entity-name", client)
        load = fh.kafka_tool("produce-for", env.kafka.source, env.bulk, 300000, 120)
        t = time.time()
        load.start()
        try:
            wait_until(lambda: env.flow(self.query)[1].get("consumer_throttle_ms"), timeout=60,
                       what="the consumer's throttling in the flow report")
            _, flow = env.flow(self.query)
            print(f"    throttled after {time.time() - t:.1f}s: {flow['verdict']}; "
                  f"{flow['summary']}; {flow['next_step']}", file=sys.stderr)
            self.assertIn(f"A throttles MirrorSource's consumer {client}: fetch-throttle-time-max",
                          " ".join(flow["evidence"]))
            if flow["verdict"] == "LAGGING":
                self.assertIn(f"consumer_byte_rate for client id {client} on A", flow["next_step"])
            else:
                self.assertIn(flow["verdict"], ("HEALTHY", "LAGGING"), flow)
        finally:
            load.stop()
            env.kafka_configs(env.kafka.source, "--alter", "--delete-config",
                              "consumer_byte_rate", "--entity-type", "clients",
                              "--entity-name", client)
        self.repaired(time.time(), "quota removed")


if __name__ == "__main__":
    unittest.main()
